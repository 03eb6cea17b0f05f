# The shared part of the workspace's Godot 3.2 test scripts: the case-expression helpers, the
# deep compare (`diff`), file and argument helpers and the run of a script's main(), so that
# each script holds only its own cases.
#
# A script run from the repository by its absolute path (`scripts/godot3-env.sh`'s godot3_run,
# as the root crate's and the CLI's tests do) preloads it by a path relative to itself, e.g.
# from tests/godot3/:
#     const H = preload("../../test-support/gdscript/godot3/harness.gd")
# and takes an instance, `H.new()` (or hands its _init over: `H.new().run(self)`, below). A
# script copied into a godot-serde-test-support `Godot3Project` finds it as res://harness.gd.
# Documented for other crates in test-support/README.md.
#
# Case expressions ("expr") are evaluated with Godot's `Expression` class, with an instance of
# this script as the base instance. So an expression may use GDScript literals, constructors,
# operators, built-in functions (with ALL their arguments, e.g. `bytes2var(b, false)`) and the
# helper methods below. Limits of `Expression` in 3.2.3 worth knowing:
#   * no hex literals (`0xff` does not parse);
#   * exponent literals are misparsed (`1e5` evaluates to the int 15, `1.0e5` works but large
#     exponents are rounded): use f64()/f32() for extreme floats;
#   * no `ClassName.new()`, no singletons (`Engine`, `ClassDB`): use obj() below.
extends Reference

const TYPE_NAMES = ["Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3",
	"Transform2D", "Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID",
	"Object", "Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray",
	"PoolStringArray", "PoolVector2Array", "PoolVector3Array", "PoolColorArray"]

var last_error = ""
var _owned_nodes = []

# ---------------------------------------------------------------- expression helpers

# float from a binary64 bit pattern, 16 hex digits, most significant first ("7ff0000000000000").
func f64(bits_hex):
	return bytes2var(hex_to_bytes("03000100") + _le(bits_hex), false)

# float from a binary32 bit pattern, 8 hex digits ("7f7fffff" = FLT_MAX).
func f32(bits_hex):
	return bytes2var(hex_to_bytes("03000000") + _le(bits_hex), false)

# int from a two's complement 64-bit pattern, 16 hex digits ("8000000000000000" = i64 min).
func i64(bits_hex):
	return bytes2var(hex_to_bytes("02000100") + _le(bits_hex), false)

# A new instance of native class `cls` (ClassDB.instance) with the given properties set in
# the order of the dictionary. Instances that are not References are freed by free_owned().
func obj(cls, props = {}):
	var o = ClassDB.instance(cls)
	if o == null:
		last_error = "cannot instance class " + str(cls)
		return null
	for k in props:
		o.set(k, props[k])
	if not (o is Reference):
		_owned_nodes.append(o)
	return o

# What bytes2var returns for an object sent as an id: an EncodedObjectAsID holding `id`.
func objid(id):
	var o = EncodedObjectAsID.new()
	o.set_object_id(id)
	return o

# A Variant of type Object that holds no object (an orphan Node's parent).
func null_object():
	var n = Node.new()
	var p = n.get_parent()
	n.free()
	return p

# Registers the non-Reference objects in v (e.g. decoded with allow_objects) for free_owned().
func adopt(v):
	match typeof(v):
		TYPE_OBJECT:
			if v != null and not (v is Reference) and not _owned_nodes.has(v):
				_owned_nodes.append(v)
		TYPE_ARRAY:
			for e in v:
				adopt(e)
		TYPE_DICTIONARY:
			for k in v:
				adopt(k)
				adopt(v[k])

func free_owned():
	for n in _owned_nodes:
		if is_instance_valid(n):
			n.free()
	_owned_nodes.clear()

# ---------------------------------------------------------------- evaluation and decoding

# Evaluates an expression. Returns [value], or null (reason in last_error).
func evaluate(text):
	var e = Expression.new()
	if e.parse(text) != OK:
		last_error = "parse error: " + e.get_error_text()
		return null
	var v = e.execute([], self, false)
	if e.has_execute_failed():
		last_error = "execute error: " + e.get_error_text()
		return null
	return [v]

# bytes2var wrapped: returns [value], or null when the engine rejected the bytes (bytes2var raises
# a script error, which aborts this function only; the engine prints the reason on stderr).
func try_decode(bytes, allow_objects = false):
	return [bytes2var(bytes, allow_objects)]

# ---------------------------------------------------------------- comparison

func type_name(t):
	return TYPE_NAMES[t] if t >= 0 and t < TYPE_NAMES.size() else "type%d" % t

# "" when a and b are equal, else a short reason. Rules: same Variant type required;
# float: equal bit for bit via var2bytes, except that any NaN equals any NaN (so -0.0 != 0.0);
# math types and Color: equal encodings (bit for bit); Array, Pool arrays: same size and
# elements pairwise; Dictionary: same size, same keys in the SAME order, values pairwise;
# Object: both null (a null Object also equals NIL), or same class and every STORAGE property pairwise (EncodedObjectAsID:
# same object_id); everything else: `==`.
func diff(a, b, path = "$"):
	var ta = typeof(a)
	var tb = typeof(b)
	# A null Object is encoded as NIL: treat the two as equal.
	if (ta == TYPE_NIL or ta == TYPE_OBJECT) and (tb == TYPE_NIL or tb == TYPE_OBJECT) and a == null and b == null:
		return ""
	if ta != tb:
		return "%s: type %s != %s" % [path, type_name(ta), type_name(tb)]
	match ta:
		TYPE_NIL:
			return ""
		TYPE_REAL:
			if is_nan(a) and is_nan(b):
				return ""
			if var2bytes(a) == var2bytes(b):
				return ""
			return "%s: %s != %s" % [path, _num(a), _num(b)]
		TYPE_VECTOR2, TYPE_RECT2, TYPE_VECTOR3, TYPE_TRANSFORM2D, TYPE_PLANE, TYPE_QUAT, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM, TYPE_COLOR:
			if var2bytes(a) == var2bytes(b):
				return ""
			return "%s: %s != %s (bits differ)" % [path, var2str(a), var2str(b)]
		TYPE_ARRAY, TYPE_RAW_ARRAY, TYPE_INT_ARRAY, TYPE_REAL_ARRAY, TYPE_STRING_ARRAY, TYPE_VECTOR2_ARRAY, TYPE_VECTOR3_ARRAY, TYPE_COLOR_ARRAY:
			if a.size() != b.size():
				return "%s: size %d != %d" % [path, a.size(), b.size()]
			for i in range(a.size()):
				var d = diff(a[i], b[i], "%s[%d]" % [path, i])
				if d != "":
					return d
			return ""
		TYPE_DICTIONARY:
			if a.size() != b.size():
				return "%s: size %d != %d" % [path, a.size(), b.size()]
			var ka = a.keys()
			var kb = b.keys()
			for i in range(ka.size()):
				var d = diff(ka[i], kb[i], "%s.key#%d" % [path, i])
				if d != "":
					return d
				d = diff(a[ka[i]], b[kb[i]], "%s[%s]" % [path, var2str(ka[i])])
				if d != "":
					return d
			return ""
		TYPE_OBJECT:
			if a == null or b == null:
				return "" if (a == null and b == null) else "%s: one object is null" % path
			if a.get_class() != b.get_class():
				return "%s: class %s != %s" % [path, a.get_class(), b.get_class()]
			for p in a.get_property_list():
				if p.usage & PROPERTY_USAGE_STORAGE:
					var d = diff(a.get(p.name), b.get(p.name), "%s.%s" % [path, p.name])
					if d != "":
						return d
			return ""
		_:
			if a == b:
				return ""
			return "%s: %s != %s" % [path, var2str(a), var2str(b)]

func _num(x):
	return "%s (%s)" % [str(x), var2bytes(x).hex_encode()]

# ---------------------------------------------------------------- NodePath padding

# Byte offsets, within var2bytes(v, full_objects), of the NodePath name padding bytes that the
# engine leaves unwritten. Computed from the value (NodePaths inside Arrays, Dictionaries and
# full objects are found too).
func pad_offsets(v, full_objects = false):
	var out = []
	_pads(v, 0, full_objects, out)
	return out

func _pads(v, off, full, out):
	match typeof(v):
		TYPE_NODE_PATH:
			var p = off + 16
			var parts = []
			for i in range(v.get_name_count()):
				parts.append(v.get_name(i))
			for i in range(v.get_subname_count()):
				parts.append(v.get_subname(i))
			for s in parts:
				var n = s.to_utf8().size()
				p += 4 + n
				for k in range((4 - n % 4) % 4):
					out.append(p + k)
				p += (4 - n % 4) % 4
		TYPE_ARRAY:
			var p = off + 8
			for e in v:
				_pads(e, p, full, out)
				p += var2bytes(e, full).size()
		TYPE_DICTIONARY:
			var p = off + 8
			for k in v:
				_pads(k, p, full, out)
				p += var2bytes(k, full).size()
				_pads(v[k], p, full, out)
				p += var2bytes(v[k], full).size()
		TYPE_OBJECT:
			if full and v != null:
				# header, class name GString (a String encoding minus its header), property count
				var p = off + 4 + (var2bytes(v.get_class()).size() - 4) + 4
				for prop in v.get_property_list():
					if prop.usage & PROPERTY_USAGE_STORAGE:
						p += var2bytes(prop.name).size() - 4
						var val = v.get(prop.name)
						_pads(val, p, full, out)
						p += var2bytes(val, full).size()

# True if v holds a non-null Object anywhere (its id-form bytes are per process).
func has_object(v):
	match typeof(v):
		TYPE_OBJECT:
			return v != null
		TYPE_ARRAY:
			for e in v:
				if has_object(e):
					return true
		TYPE_DICTIONARY:
			for k in v:
				if has_object(k) or has_object(v[k]):
					return true
	return false

# ---------------------------------------------------------------- running a script

# Runs a script whose `_init` hands over here: `tree.main(user_args())` with this harness in
# `tree.lib`, then frees the objects the cases owned and quits with main's return value (the
# exit status).
func run(tree):
	tree.lib = self
	var code = tree.main(user_args())
	free_owned()
	tree.lib = null
	tree.quit(code)

# ---------------------------------------------------------------- bytes, files, arguments

func hex_to_bytes(h):
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

func _le(bits_hex):
	var b = hex_to_bytes(bits_hex)
	b.invert()
	return b

func zero_at(bytes, offsets):
	var b = PoolByteArray(bytes)
	for o in offsets:
		b[o] = 0
	return b

# Arguments given after `--` on the command line.
static func user_args():
	var all = OS.get_cmdline_args()
	var i = 0
	while i < all.size() and all[i] != "--":
		i += 1
	var out = []
	for j in range(i + 1, all.size()):
		out.append(all[j])
	return out

func read_bytes(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return null
	var b = f.get_buffer(f.get_len())
	f.close()
	return b

# The text whose UTF-8 bytes are `h` in hex (the scripts' inputs carry texts so).
func unhex(h):
	return hex_to_bytes(h).get_string_from_utf8()

# The lines of a text file without their line ends: the non-empty ones, or with `keep_empty`
# every line (an empty line is then a case of its own) but the empty one after the last line
# end. Null when the file cannot be read.
func lines(path, keep_empty = false):
	var text = read_text(path)
	if text == null:
		return null
	var all = Array(text.split("\n", keep_empty))
	if keep_empty and not all.empty() and all[all.size() - 1] == "":
		all.pop_back()
	return all

func read_text(path):
	var b = read_bytes(path)
	return null if b == null else b.get_string_from_utf8()

func write_bytes(path, bytes):
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		return false
	f.store_buffer(bytes)
	f.close()
	return true

# Sorted file names in dir that end with ext (e.g. ".bin"; "" for every file).
func list_files(dir, ext):
	var d = Directory.new()
	var out = []
	if d.open(dir) != OK:
		return null
	d.list_dir_begin(true, true)
	var n = d.get_next()
	while n != "":
		if not d.current_is_dir() and (ext == "" or n.ends_with(ext)):
			out.append(n)
		n = d.get_next()
	d.list_dir_end()
	out.sort()
	return out

func engine_version():
	return Engine.get_version_info()["string"]

# ---------------------------------------------------------------- multiplayer scripts
# Static, for the multiplayer crate's scripts (`H.case(...)` with
# `const H = preload("res://harness.gd")`), as the Godot 4 harness's.

# Prints `CASE <name> ok` or `CASE <name> FAIL <detail>`, the line the multiplayer tests count.
static func case(name, ok, detail = ""):
	print("CASE ", name, " ", "ok" if ok else "FAIL " + str(detail))

# The `i`-th argument after `--` as an int (the multiplayer scripts' port); 0 when missing.
static func int_arg(i):
	var args = user_args()
	return int(args[i]) if i < args.size() else 0

# A new node of `script` (a script or its path) named `name`, added under `parent`.
static func add_node(parent, script, name):
	var node = (load(script) if script is String else script).new()
	node.name = name
	parent.add_child(node)
	return node

# Gives `tree` an ENet or (`transport` "ws") WebSocket peer on 127.0.0.1 and `port`: a client,
# or with `max_clients` above 0 a server for that many clients (WebSocket: any number).
# False after a failed `create_client` / `create_server` case.
static func start_peer(tree, port, transport = "enet", max_clients = 0):
	var peer
	var err
	if transport == "ws" and max_clients > 0:
		peer = WebSocketServer.new()
		err = peer.listen(port, PoolStringArray(), true)
	elif transport == "ws":
		peer = WebSocketClient.new()
		err = peer.connect_to_url("ws://127.0.0.1:" + str(port), PoolStringArray(), true)
	elif max_clients > 0:
		peer = NetworkedMultiplayerENet.new()
		peer.set_bind_ip("127.0.0.1")
		err = peer.create_server(port, max_clients)
	else:
		peer = NetworkedMultiplayerENet.new()
		err = peer.create_client("127.0.0.1", port)
	if err != OK:
		case("create_server" if max_clients > 0 else "create_client", false, err)
		return false
	tree.set_network_peer(peer)
	return true
