# The shared part of the workspace's Godot 4 test scripts: what more than one of them needs, so
# that each script holds only its own cases. godot-serde-test-support copies this file into
# every `Godot4Project` as `res://harness.gd`; a script takes it with
#     const H = preload("res://harness.gd")
# and calls its static functions (`H.same(a, b)`, `H.lines(path)`, ...); `H.Errors` captures
# the engine's error lines. Documented for other crates in test-support/README.md.
extends RefCounted


# The errors the engine logs while this logger is added (`H.log_errors()`), each a Dictionary
# {function, file, line, code, rationale}: why `bytes_to_var` refused an input, a ConfigFile
# parse error, what JSON.from_native complained about. The engine may log from any thread.
class Errors extends Logger:
	var _entries: Array[Dictionary] = []
	var _mutex := Mutex.new()

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			_editor_notify: bool, _error_type: int,
			_script_backtraces: Array[ScriptBacktrace]) -> void:
		_mutex.lock()
		_entries.append({"function": function, "file": file, "line": line, "code": code,
				"rationale": rationale})
		_mutex.unlock()

	func _log_message(_message: String, _error: bool) -> void:
		pass

	# The errors logged since the last take(), oldest first; forgets them.
	func take() -> Array[Dictionary]:
		_mutex.lock()
		var out := _entries
		_entries = []
		_mutex.unlock()
		return out

	# The errors logged since the last take(), kept.
	func peek() -> Array[Dictionary]:
		_mutex.lock()
		var out := _entries.duplicate()
		_mutex.unlock()
		return out


# A new `Errors` logger, added to the engine (remove it with OS.remove_logger before quitting).
static func log_errors() -> Errors:
	var errors := Errors.new()
	OS.add_logger(errors)
	return errors


# ---------------------------------------------------------------- arguments and files

# The value after `name` in the arguments given after `--` ("" when absent): `--out FILE`.
static func option(name: String) -> String:
	var args := OS.get_cmdline_user_args()
	var at := args.find(name)
	return args[at + 1] if at >= 0 and at + 1 < args.size() else ""


# The lines of a text file without their line ends: the non-empty ones, or with `keep_empty`
# every line (an empty line is then a case of its own) but the empty one after the last line
# end. Null when the file cannot be read.
static func lines(path: String, keep_empty := false) -> Variant:
	if not FileAccess.file_exists(path):
		return null
	var all := FileAccess.get_file_as_string(path).split("\n", keep_empty)
	if keep_empty and not all.is_empty() and all[all.size() - 1].is_empty():
		all.resize(all.size() - 1)
	return all


# Writes `lines` to a text file, each ended by a line end.
static func write_lines(path: String, lines: PackedStringArray) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("\n".join(lines) + "\n")
	f.close()


# The text whose UTF-8 bytes are `hex` (the scripts' inputs carry texts so).
static func unhex(hex: String) -> String:
	return hex.hex_decode().get_string_from_utf8()


# ---------------------------------------------------------------- values

# float from a binary64 bit pattern, 16 hex digits, most significant first ("7ff0000000000000").
static func f64(hex: String) -> float:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_u32(4, ("0x" + hex.left(8)).hex_to_int())
	b.encode_u32(0, ("0x" + hex.right(8)).hex_to_int())
	return b.decode_double(0)


# float from a binary32 bit pattern, 8 hex digits ("7f7fffff" = FLT_MAX).
static func f32(hex: String) -> float:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, ("0x" + hex).hex_to_int())
	return b.decode_float(0)


# Whether the engine's value holds an object instance (sent as an id without full objects).
static func has_objects(v) -> bool:
	match typeof(v):
		TYPE_OBJECT:
			return v != null
		TYPE_SIGNAL:
			return not v.is_null()
		TYPE_ARRAY:
			for e in v:
				if has_objects(e):
					return true
		TYPE_DICTIONARY:
			for k in v:
				if has_objects(k) or has_objects(v[k]):
					return true
	return false


# The deep compare: equality that tells types apart (1 from 1.0), floats by their bits (-0.0,
# NaN), typed containers by their types, Dictionaries by their keys' order, objects by class,
# script and stored properties.
static func same(a, b) -> bool:
	if typeof(a) != typeof(b):
		return false
	match typeof(a):
		TYPE_ARRAY:
			if a.get_typed_builtin() != b.get_typed_builtin() \
					or a.get_typed_class_name() != b.get_typed_class_name() \
					or a.get_typed_script() != b.get_typed_script() or a.size() != b.size():
				return false
			for k in a.size():
				if not same(a[k], b[k]):
					return false
			return true
		TYPE_DICTIONARY:
			if a.get_typed_key_builtin() != b.get_typed_key_builtin() \
					or a.get_typed_key_class_name() != b.get_typed_key_class_name() \
					or a.get_typed_key_script() != b.get_typed_key_script() \
					or a.get_typed_value_builtin() != b.get_typed_value_builtin() \
					or a.get_typed_value_class_name() != b.get_typed_value_class_name() \
					or a.get_typed_value_script() != b.get_typed_value_script() \
					or a.size() != b.size():
				return false
			var ka: Array = a.keys()
			var kb: Array = b.keys()
			for k in ka.size():
				if not same(ka[k], kb[k]) or not same(a[ka[k]], b[kb[k]]):
					return false
			return true
		TYPE_OBJECT:
			if a == null or b == null:
				return a == null and b == null
			if a.get_class() != b.get_class() or a.get_script() != b.get_script():
				return false
			for p in a.get_property_list():
				if p.usage & PROPERTY_USAGE_STORAGE and not same(a.get(p.name), b.get(p.name)):
					return false
			return true
		TYPE_NODE_PATH, TYPE_CALLABLE, TYPE_SIGNAL:
			return a == b
	return var_to_bytes(a) == var_to_bytes(b)


# ---------------------------------------------------------------- cases, nodes and peers

# Prints a case line for the Rust test to count: "CASE <name> ok", or "CASE <name> FAIL
# <detail>" (the multiplayer crate's scripts report so).
static func case(name: String, ok: bool, detail := "") -> void:
	print("CASE ", name, " ", "ok" if ok else "FAIL " + detail)


# The argument after `--` at `index` as an int (the multiplayer scripts' first is the port).
static func int_arg(index: int) -> int:
	return int(OS.get_cmdline_user_args()[index])


# A new node of `script` (a Script, or the path of one) named `name`, added under `parent`.
static func add_node(parent: Node, script: Variant, name: String) -> Node:
	var node: Node = (load(script) if script is String else script).new()
	node.name = name
	parent.add_child(node)
	return node


# Gives `api` (a SceneMultiplayer) a multiplayer peer on 127.0.0.1 port `port`, ENet or
# (`transport` "ws") WebSocket: a client, or with `max_clients` above 0 a server (for that many
# ENet clients) bound to 127.0.0.1 only. False, after a failed "create_client" /
# "create_server" case, when the engine refuses (the script then quits 1).
static func start_peer(api: MultiplayerAPI, port: int, transport := "enet", max_clients := 0) -> bool:
	var peer: MultiplayerPeer
	var err := OK
	if transport == "ws":
		var ws := WebSocketMultiplayerPeer.new()
		if max_clients > 0:
			err = ws.create_server(port, "127.0.0.1")
		else:
			err = ws.create_client("ws://127.0.0.1:%d" % port)
		peer = ws
	else:
		var enet := ENetMultiplayerPeer.new()
		if max_clients > 0:
			enet.set_bind_ip("127.0.0.1")
			err = enet.create_server(port, max_clients)
		else:
			err = enet.create_client("127.0.0.1", port)
		peer = enet
	if err != OK:
		case("create_server" if max_clients > 0 else "create_client", false, str(err))
		return false
	api.multiplayer_peer = peer
	return true
