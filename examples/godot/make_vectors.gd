# Writes Godot 4 test vectors for godot_serde: var_to_bytes() of every case below, one JSON
# object per line.
#
#   godot --headless --path examples/godot -s make_vectors.gd -- "$PWD/out.jsonl"
#
# (run from the crate's root; with --path, relative paths resolve inside that project, so give
# the output path as an absolute one). Read it with `cargo run --example godot_kit`.
#
# Fields (those of the crate's tests/fixtures/godot4/vectors-sample.jsonl): name,
# engine_version, type_id, type, expr, var_to_str, hex (exact var_to_bytes output), decode_ok
# (bytes_to_var of the canonical bytes equals the value), decode_reencoded_hex (var_to_bytes of
# what bytes_to_var gave, only where it differs from hex), hex_full_objects
# (var_to_bytes_with_objects output, only where it differs) and decode_full_objects_ok, and for
# values holding NodePaths nodepath_padding_bytes (how many bytes of NodePath name padding Godot
# left unwritten) and hex_canonical (hex with those bytes zeroed), hex_unstable_between_calls.
# A case whose expression fails (e.g. PackedVector4Array before 4.3) is written with an "error"
# field instead. Exit status: 0 if every case was written, 1 if any failed, 2 on bad arguments.
#
# A case is one line: [name, expression]. Expressions are evaluated with `Expression`, with this
# script as base instance, so they can also call the helpers below (f64, f32, i64, obj,
# typed_array, typed_dict). `Expression` knows no TYPE_* constants: type ids are numbers
# (2 = int, 4 = String, as in `Variant.Type`).
extends SceneTree

const CASES = [
	["nil", "null"],
	["bool_true", "true"],
	["int_0", "0"],
	["int_neg_1", "-1"],
	["int_2p31_minus_1", "2147483647"],
	["int_2p31", "2147483648"],
	["int_neg_2p31", "-2147483648"],
	["int_neg_2p31_minus_1", "-2147483649"],
	["int_2p40", "1 << 40"],
	["int_i64_max", "i64('7fffffffffffffff')"],
	["int_i64_min", "i64('8000000000000000')"],
	["float_0", "0.0"],
	["float_neg_0", "-0.0"],
	["float_0_1", "0.1"],
	["float_1_5", "1.5"],
	["float_inf", "INF"],
	["float_nan", "NAN"],
	["float_1e300", "f64('7e37e43c8800759c')"],
	["float_flt_max", "f32('7f7fffff')"],
	["float_f32_subnormal", "f32('00000001')"],
	["float_f64_subnormal", "f64('0000000000000001')"],
	["string_empty", "''"],
	["string_abcde", "'abcde'"],
	["string_hello_accent", "'héllo'"],
	["string_emoji", "'😀'"],
	["vector2", "Vector2(1, 2)"],
	["vector2i", "Vector2i(1, -2)"],
	["rect2", "Rect2(1, 2, 3, 4)"],
	["rect2i", "Rect2i(1, 2, 3, 4)"],
	["vector3", "Vector3(1, 2, 3)"],
	["vector3i", "Vector3i(1, 2, 3)"],
	["transform2d", "Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))"],
	["vector4", "Vector4(1, 2, 3, 4)"],
	["vector4i", "Vector4i(1, 2, 3, 4)"],
	["plane", "Plane(1, 2, 3, 4)"],
	["quaternion", "Quaternion(1, 2, 3, 4)"],
	["aabb", "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))"],
	["basis", "Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))"],
	["transform3d", "Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))"],
	["projection", "Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))"],
	["color", "Color(0.1, 0.2, 0.3, 0.4)"],
	["string_name", "StringName('abc')"],
	["nodepath_empty", "NodePath('')"],
	["nodepath_abs", "NodePath('/root/Main:position')"],
	["nodepath_a_b", "NodePath('a:b')"],
	["nodepath_only_subnames", "NodePath(':a:b')"],
	["rid_empty", "RID()"],
	["object_refcounted", "obj('RefCounted')"],
	["callable_empty", "Callable()"],
	["signal_empty", "Signal()"],
	["dict_empty", "{}"],
	["dict_mixed_keys", "{'b': 1, 2: 'two', Vector2(1, 2): null, true: 1.5}"],
	["dict_nodepath", "{NodePath('a'): NodePath('abc:d')}"],
	["array_empty", "[]"],
	["array_mixed", "[1, 'a', [2, []], {'k': 0.5}]"],
	["array_typed_int", "typed_array(2, [1, 2])"],  # 2: TYPE_INT
	["dict_typed_string_int", "typed_dict(4, 2, {'a': 1})"],  # 4: TYPE_STRING, 2: TYPE_INT
	["packed_byte_3", "PackedByteArray([1, 2, 3])"],
	["packed_int32_2", "PackedInt32Array([1, -2])"],
	["packed_int64_1", "PackedInt64Array([4294967296])"],
	["packed_float32_2", "PackedFloat32Array([0.5, 0.1])"],
	["packed_float64_1", "PackedFloat64Array([0.1])"],
	["packed_string_2", "PackedStringArray(['ab', 'cde'])"],
	["packed_vector2_1", "PackedVector2Array([Vector2(1, 2)])"],
	["packed_vector3_1", "PackedVector3Array([Vector3(1, 2, 3)])"],
	["packed_color_1", "PackedColorArray([Color(1, 0, 0, 1)])"],
	["packed_vector4_1", "PackedVector4Array([Vector4(1, 2, 3, 4)])"],
]

var _owned: Array = []


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 1:
		printerr("usage: godot --headless --path examples/godot -s make_vectors.gd -- /abs/out.jsonl")
		quit(2)
		return
	quit(run(args[0]))


func run(path: String) -> int:
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		printerr("cannot write ", path)
		return 2
	var version: String = Engine.get_version_info()["string"]
	var failed := 0
	for c in CASES:
		var line := {"name": c[0], "engine_version": version}
		var e := Expression.new()
		var value = null
		var error := ""
		if e.parse(c[1]) != OK:
			error = "parse error: " + e.get_error_text()
		else:
			value = e.execute([], self, false)
			if e.has_execute_failed():
				error = "execute error: " + e.get_error_text()
		if error != "":
			failed += 1
			line["expr"] = c[1]
			line["error"] = error
			printerr(c[0], ": ", error)
		else:
			describe(line, c[1], value)
		f.store_line(JSON.stringify(line, "", false))
	f.close()
	for o in _owned:
		if is_instance_valid(o):
			o.free()
	print("SUMMARY %d cases, %d failed" % [CASES.size(), failed])
	return 0 if failed == 0 else 1


func describe(line: Dictionary, expr: String, v) -> void:
	line["type_id"] = typeof(v)
	line["type"] = type_string(typeof(v))
	line["expr"] = expr
	line["var_to_str"] = var_to_str(v)
	var bytes := var_to_bytes(v)
	var pads := pad_offsets(v, false)
	var canonical := zero_at(bytes, pads)
	line["hex"] = bytes.hex_encode()
	if not pads.is_empty():
		line["hex_unstable_between_calls"] = true
		line["nodepath_padding_bytes"] = pads.size()
		line["hex_canonical"] = canonical.hex_encode()
	var decoded = bytes_to_var(canonical)
	line["decode_ok"] = same(decoded, v)
	var again := var_to_bytes(decoded)
	if zero_at(again, pad_offsets(decoded, false)) != canonical:
		line["decode_reencoded_hex"] = again.hex_encode()
	var full := var_to_bytes_with_objects(v)
	var full_pads := pad_offsets(v, true)
	if zero_at(full, full_pads) != canonical:
		line["hex_full_objects"] = full.hex_encode()
		var full_decoded = bytes_to_var_with_objects(zero_at(full, full_pads))
		if full_decoded is Object and not (full_decoded is RefCounted):
			_owned.append(full_decoded)
		line["decode_full_objects_ok"] = same(full_decoded, v)


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


# ---------------------------------------------------------------- NodePath padding, comparison

func _enc(v, full: bool) -> PackedByteArray:
	return var_to_bytes_with_objects(v) if full else var_to_bytes(v)


func pad_offsets(v, full: bool) -> Array:
	var out := []
	_pads(v, 0, full, out)
	return out


# NodePaths inside Arrays and Dictionaries are found; the container's own header size (typed
# descriptors included) is its encoding minus its children's encodings.
func _pads(v, off: int, full: bool, out: Array) -> void:
	match typeof(v):
		TYPE_NODE_PATH:
			var p := off + 16
			var parts := []
			for i in v.get_name_count():
				parts.append(String(v.get_name(i)))
			for i in v.get_subname_count():
				parts.append(String(v.get_subname(i)))
			for s in parts:
				var n: int = s.to_utf8_buffer().size()
				p += 4 + n
				for k in (4 - n % 4) % 4:
					out.append(p + k)
				p += (4 - n % 4) % 4
		TYPE_ARRAY:
			var children := 0
			for e in v:
				children += _enc(e, full).size()
			var p: int = off + _enc(v, full).size() - children
			for e in v:
				_pads(e, p, full, out)
				p += _enc(e, full).size()
		TYPE_DICTIONARY:
			var children := 0
			for k in v:
				children += _enc(k, full).size() + _enc(v[k], full).size()
			var p: int = off + _enc(v, full).size() - children
			for k in v:
				_pads(k, p, full, out)
				p += _enc(k, full).size()
				_pads(v[k], p, full, out)
				p += _enc(v[k], full).size()


func zero_at(bytes: PackedByteArray, offsets: Array) -> PackedByteArray:
	var b := bytes.duplicate()
	for o in offsets:
		b[o] = 0
	return b


func has_object(v) -> bool:
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
