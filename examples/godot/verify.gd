# Checks bytes written by godot_serde against a Godot 4 engine.
#
#   godot --headless --path examples/godot -s verify.gd -- /abs/path/to/dir [--allow-objects]
#
# (from the crate's root; `cargo run --example godot_kit -- write VECTORS.jsonl DIR` writes
# such a directory).
# <dir> holds pairs <case>.bin (bytes produced by the crate) and <case>.expr (one GDScript
# expression of the expected value, UTF-8; evaluated with `Expression` and the helpers below:
# f64('7ff8000000000001'), f32('7f7fffff'), i64('8000000000000000') build values from bit
# patterns; obj('Node', {...}) instantiates a class; objid(1234) is what an object sent as id
# decodes to; typed_array(2, [1, 2]); typed_dict(4, 2, {'a': 1}): `Expression` knows no TYPE_*
# constants, type ids are numbers as in `Variant.Type`, 2 = int, 4 = String).
# For each case, in name order, it decodes the bytes with bytes_to_var (bytes_to_var_with_objects
# with --allow-objects, which instantiates classes: only for data you trust) and prints
#   CASE <case> PASS
#   CASE <case> FAIL <reason>
# then SUMMARY <passed> passed, <failed> failed.
# Equality: same type; floats and vector/matrix/Color types bit for bit (any NaN float equals
# any NaN); Arrays, Dictionaries (keys in the same order) and packed arrays element by element,
# with the same container typing; a decoded EncodedObjectAsID equals the object with that id;
# a full object equals one of the same class with the same stored properties.
# Exit status: 0 if every case passed, 1 if any failed, 2 on bad arguments.
extends SceneTree

var _owned: Array = []


func _initialize() -> void:
	var dir := ""
	var allow_objects := false
	for a in OS.get_cmdline_user_args():
		if a == "--allow-objects":
			allow_objects = true
		elif dir == "":
			dir = a
		else:
			printerr("unexpected argument: ", a)
			quit(2)
			return
	if dir == "" or not DirAccess.dir_exists_absolute(dir):
		printerr("usage: godot --headless --path examples/godot -s verify.gd -- /abs/dir [--allow-objects]")
		quit(2)
		return
	var names := {}
	for f in DirAccess.get_files_at(dir):
		if f.ends_with(".bin") or f.ends_with(".expr"):
			names[f.get_basename()] = true
	var sorted: Array = names.keys()
	sorted.sort()
	var passed := 0
	var failed := 0
	for name in sorted:
		var reason := check(dir.path_join(name), allow_objects)
		if reason == "":
			passed += 1
			print("CASE %s PASS" % name)
		else:
			failed += 1
			print("CASE %s FAIL %s" % [name, reason.replace("\n", "\\n")])
	print("SUMMARY %d passed, %d failed" % [passed, failed])
	for o in _owned:
		if is_instance_valid(o):
			o.free()
	quit(0 if failed == 0 else 1)


func check(base: String, allow_objects: bool) -> String:
	if not FileAccess.file_exists(base + ".bin"):
		return "missing .bin"
	if not FileAccess.file_exists(base + ".expr"):
		return "missing .expr"
	var bytes := FileAccess.get_file_as_bytes(base + ".bin")
	var text := FileAccess.get_file_as_string(base + ".expr").strip_edges()
	var e := Expression.new()
	if e.parse(text) != OK:
		return "expression: parse error: " + e.get_error_text()
	var expected = e.execute([], self, false)
	if e.has_execute_failed():
		return "expression: execute error: " + e.get_error_text()
	# bytes_to_var returns null on failure (the reason goes to stderr): a null result is only
	# a real value when the header says NIL or OBJECT.
	var got = bytes_to_var_with_objects(bytes) if allow_objects else bytes_to_var(bytes)
	if got == null and (bytes.size() < 4 or not ((bytes.decode_u32(0) & 0xFF) in [TYPE_NIL, TYPE_OBJECT])):
		return "decoding failed (see the engine error on stderr)"
	# A full object (an OBJECT header without the as-id flag, bit 16) that came back null was
	# refused (bytes_to_var without --allow-objects) or could not be built.
	if got == null and expected != null and bytes.size() >= 4 and (bytes.decode_u32(0) & 0xFF) == TYPE_OBJECT and (bytes.decode_u32(0) & (1 << 16)) == 0:
		return "decoding failed (a full object: refused without --allow-objects, or see the engine error on stderr)"
	if allow_objects and got is Object and not (got is RefCounted):
		_owned.append(got)
	if not same(got, expected):
		return "value differs: got %s, expected %s" % [var_to_str(got).replace("\n", " "), var_to_str(expected).replace("\n", " ")]
	return ""


# ---------------------------------------------------------------- helpers for expressions

func f64(bits_hex: String) -> float:
	return _bits(bits_hex).decode_double(0)


func f32(bits_hex: String) -> float:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, bits_hex.hex_to_int())
	return b.decode_float(0)


func i64(bits_hex: String) -> int:
	return _bits(bits_hex).decode_s64(0)


func _bits(bits_hex: String) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_u32(0, bits_hex.substr(8, 8).hex_to_int())
	b.encode_u32(4, bits_hex.substr(0, 8).hex_to_int())
	return b


func obj(cls: String, props: Dictionary = {}) -> Object:
	var o: Object = ClassDB.instantiate(cls)
	for k in props:
		o.set(k, props[k])
	if not (o is RefCounted):
		_owned.append(o)
	return o


func typed_array(type_id: int, items: Array) -> Array:
	return Array(items, type_id, &"", null)


# Typed dictionaries exist from Godot 4.4; built through Expression so that this script still
# loads on older 4.x versions (the case then fails alone).
func typed_dict(key_type: int, value_type: int, items: Dictionary):
	var e := Expression.new()
	if e.parse("Dictionary(items, kt, StringName(), null, vt, StringName(), null)", ["items", "kt", "vt"]) != OK:
		return null
	return e.execute([items, key_type, value_type], null, false)


func objid(id: int) -> EncodedObjectAsID:
	var o := EncodedObjectAsID.new()
	o.set_object_id(id)
	return o


# ---------------------------------------------------------------- comparison

# Equality: same type; floats and all vector/matrix/Color types bit for bit (any NaN float equals
# any NaN); containers element by element, Dictionary keys in the same order, same typing.
func same(a, b) -> bool:
	if typeof(a) != typeof(b):
		return false
	match typeof(a):
		TYPE_FLOAT:
			return (is_nan(a) and is_nan(b)) or var_to_bytes(a) == var_to_bytes(b)
		TYPE_ARRAY:
			if a.size() != b.size() or a.get_typed_builtin() != b.get_typed_builtin() or a.get_typed_class_name() != b.get_typed_class_name():
				return false
			for i in a.size():
				if not same(a[i], b[i]):
					return false
			return true
		TYPE_DICTIONARY:
			if a.size() != b.size() or _dict_typing(a) != _dict_typing(b):
				return false
			var ka: Array = a.keys()
			var kb: Array = b.keys()
			for i in ka.size():
				if not same(ka[i], kb[i]) or not same(a[ka[i]], b[kb[i]]):
					return false
			return true
		TYPE_OBJECT:
			if a == null or b == null:
				return a == null and b == null
			if a is EncodedObjectAsID or b is EncodedObjectAsID:
				return _id_of(a) == _id_of(b)
			return same_object(a, b)
	if typeof(a) >= TYPE_VECTOR2 and typeof(a) <= TYPE_COLOR:
		return var_to_bytes(a) == var_to_bytes(b)
	if typeof(a) >= TYPE_PACKED_BYTE_ARRAY:  # every packed array type (PackedVector4Array: 4.3+)
		if a.size() != b.size():
			return false
		for i in a.size():
			if not same(a[i], b[i]):
				return false
		return true
	return a == b


# Full objects: a decoded object is a new instance, so compare what the encoding carries, the
# class and the stored properties (PROPERTY_USAGE_STORAGE, what var_to_bytes_with_objects
# writes), not the identity.
func same_object(a: Object, b: Object) -> bool:
	if a == b:
		return true
	if a.get_class() != b.get_class():
		return false
	for p in a.get_property_list():
		if p["usage"] & PROPERTY_USAGE_STORAGE:
			if not same(a.get(p["name"]), b.get(p["name"])):
				return false
	return true

func _id_of(o: Object) -> int:
	return o.get_object_id() if o is EncodedObjectAsID else o.get_instance_id()


# [key type, value type] of a typed Dictionary (4.4+); [] on versions without typed dictionaries.
func _dict_typing(d: Dictionary) -> Array:
	var e := Expression.new()
	e.parse("[d.get_typed_key_builtin(), d.get_typed_value_builtin()]", ["d"])
	var r = e.execute([d], null, false)
	return [] if e.has_execute_failed() or r == null else r
