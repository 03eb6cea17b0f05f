# Live harness: values built in Godot 4 and what var_to_str writes for them, for
# tests/suite/text_godot4_live/mod.rs (our writer must print the same text from the bytes).
#
#   godot --headless --path <project> -s res://text_values.gd -- <seed> <random count>
#
# One stdout line per value: the hand-written cases of CASES, then <random count> values of
# every builtin type drawn from a RandomNumberGenerator seeded with <seed> (nested Arrays and
# Dictionaries, typed ones too, floats from random bit patterns, strings with quotes,
# backslashes, control characters and non-ASCII):
#   VALUE <name> <var_to_bytes_with_objects(v) hex> <var_to_str(v) hex> <var_to_bytes_with_objects(str_to_var(var_to_str(v))) hex>
# Last stdout line: SUMMARY <values> values
extends SceneTree

const CASES = [
	["nil", "null"],
	["bool", "true"],
	["int_i64_min", "i64('8000000000000000')"],
	["int_i64_max", "i64('7fffffffffffffff')"],
	["float_neg0", "-0.0"],
	["float_inf", "INF"],
	["float_neg_inf", "-INF"],
	["float_nan", "NAN"],
	["float_1e15", "1e15"],
	["float_1e16", "1e16"],
	["float_1e_4", "0.0001"],
	["float_1e_5", "0.00001"],
	["float_1e10", "1e10"],
	["float_0_1", "0.1"],
	["float_third", "1.0 / 3.0"],
	["float_f32_max", "f32('7f7fffff')"],
	["float_f64_max", "f64('7fefffffffffffff')"],
	["float_f64_subnormal", "f64('0000000000000001')"],
	["float_2p53_plus", "9007199254740993.0"],
	["string_escapes", "'a\"b\\\\c\\n\\t\\r\\u0001é😀'"],
	["vector2", "Vector2(1.5, -0.0)"],
	["vector2_inf_nan", "Vector2(INF, NAN)"],
	["vector2i", "Vector2i(-2147483648, 2147483647)"],
	["rect2", "Rect2(0.1, 2, 3e10, 4e-10)"],
	["rect2i", "Rect2i(1, 2, 3, 4)"],
	["vector3", "Vector3(1, 2, 3)"],
	["vector3i", "Vector3i(1, 2, 3)"],
	["transform2d", "Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))"],
	["vector4", "Vector4(1, 2.5, -3, 1e20)"],
	["vector4i", "Vector4i(1, 2, 3, 4)"],
	["plane", "Plane(1, 2, 3, 4)"],
	["quaternion", "Quaternion(0.1, 0.2, 0.3, 0.4)"],
	["aabb", "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))"],
	["basis", "Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))"],
	["transform3d", "Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))"],
	["projection", "Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))"],
	["color", "Color(0.1, 0.2, 0.3, 0.4)"],
	["color_html", "Color('#ff8000')"],
	["string_name", "StringName('a\"b\\\\c\\n\\t\\u0007\\u000b')"],
	["nodepath", "NodePath('/root/a b:c\"d')"],
	["nodepath_empty", "NodePath('')"],
	["rid_empty", "RID()"],
	["rid_5", "rid_from_int64(5)"],
	["callable_empty", "Callable()"],
	["signal_empty", "Signal()"],
	["object_refcounted", "obj('RefCounted')"],
	["dict_empty", "{}"],
	["dict_mixed_keys", "{'b': 1, 2: 'two', Vector2(1, 2): null, true: 1.5, null: 0, 1.5: [], StringName('s'): 1, [1]: 2, 'a': {'x': 1}}"],
	["dict_ints", "{3: 0, -1: 0, 2: 0, 10: 0}"],
	["dict_strings", "{'b': 0, 'B': 0, 'a': 0, 'ab': 0, '': 0, 'é': 0}"],
	["array_empty", "[]"],
	["array_nested", "[1, 'a', [2, []], {'k': 0.5}]"],
	["array_typed_int", "Array([1, 2], 2, StringName(), null)"],
	["array_typed_object", "Array([], 24, StringName('Node'), null)"],
	["dict_typed", "Dictionary({'a': 1, 'b': 2}, 4, StringName(), null, 2, StringName(), null)"],
	["dict_typed_variant_value", "Dictionary({1: 'x'}, 2, StringName(), null, 0, StringName(), null)"],
	["packed_byte", "PackedByteArray([0, 1, 255])"],
	["packed_int32", "PackedInt32Array([-2147483648, 2147483647])"],
	["packed_int64", "PackedInt64Array([i64('8000000000000000')])"],
	["packed_float32", "PackedFloat32Array([0.1, -0.0, INF])"],
	["packed_float64", "PackedFloat64Array([0.1, 1e300, NAN])"],
	["packed_string", "PackedStringArray(['a\"b', '\\n\\u0007', ''])"],
	["packed_vector2", "PackedVector2Array([Vector2(1, 2), Vector2(0.1, 3)])"],
	["packed_vector3", "PackedVector3Array([Vector3(1, 2, 3)])"],
	["packed_color", "PackedColorArray([Color(1, 0, 0, 1)])"],
	["packed_vector4", "PackedVector4Array([Vector4(1, 2, 3, 4)])"],
	["packed_empty", "PackedVector3Array()"],
]

const CHARS = ["a", "Z", "0", " ", "\"", "\\", "\n", "\t", "\r", "\u0001", "\u0007", "\u000b", "\u007f", "é", "ß", "😀", "\u00a0", "\u200b", ";", "#", "=", "[", "]", "{", "'", ":", "/", "$"]
const TYPED = [TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_VECTOR2, TYPE_STRING_NAME, TYPE_COLOR, TYPE_DICTIONARY, TYPE_ARRAY, TYPE_BOOL, TYPE_NODE_PATH, TYPE_VECTOR3I]

var rng := RandomNumberGenerator.new()


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: -s text_values.gd -- <seed> <count>")
		quit(2)
		return
	var count := 0
	for c in CASES:
		var e := Expression.new()
		if e.parse(c[1]) != OK:
			printerr(c[0], ": ", e.get_error_text())
			quit(1)
			return
		var v = e.execute([], self, false)
		if e.has_execute_failed():
			printerr(c[0], ": ", e.get_error_text())
			quit(1)
			return
		emit(c[0], v)
		count += 1
	rng.seed = int(args[0])
	for i in int(args[1]):
		emit("random_%d" % i, value(3))
		count += 1
	print("SUMMARY %d values" % count)
	quit(0)


func emit(name: String, v) -> void:
	var text := var_to_str(v)
	var back = str_to_var(text)
	print("VALUE %s %s %s %s" % [name, var_to_bytes_with_objects(v).hex_encode(), text.to_utf8_buffer().hex_encode(), var_to_bytes_with_objects(back).hex_encode()])


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


func obj(cls: String) -> Object:
	return ClassDB.instantiate(cls)


# ---------------------------------------------------------------- random values

func bits64() -> int:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_u32(0, rng.randi())
	b.encode_u32(4, rng.randi())
	return b.decode_s64(0)


func rint() -> int:
	match rng.randi_range(0, 4):
		0: return rng.randi_range(-100, 100)
		1: return [2147483647, -2147483648, 2147483648, -2147483649][rng.randi_range(0, 3)]
		2: return [i64('7fffffffffffffff'), i64('8000000000000000')][rng.randi_range(0, 1)]
	return bits64()


func rfloat() -> float:
	match rng.randi_range(0, 6):
		0: return rng.randi_range(-4000, 4000) / 8.0
		1:
			var b := PackedByteArray()
			b.resize(8)
			b.encode_s64(0, bits64())
			return b.decode_double(0)
		2:
			var b := PackedByteArray()
			b.resize(4)
			b.encode_u32(0, rng.randi())
			return b.decode_float(0)
		3: return [0.0, -0.0, INF, -INF, NAN, 1e15, 1e16, 1e-4, 1e-5, 0.1, 123456789.0, 5e-324][rng.randi_range(0, 11)]
		4: return rng.randf_range(-1e6, 1e6)
		5: return pow(10.0, rng.randi_range(-30, 30)) * rng.randf()
	return float(rng.randi_range(-100, 100))


func rstring() -> String:
	var s := ""
	for i in rng.randi_range(0, 6):
		s += CHARS[rng.randi_range(0, CHARS.size() - 1)]
	return s


func v2() -> Vector2:
	return Vector2(rfloat(), rfloat())


func v3() -> Vector3:
	return Vector3(rfloat(), rfloat(), rfloat())


func v4() -> Vector4:
	return Vector4(rfloat(), rfloat(), rfloat(), rfloat())


func i32() -> int:
	return rng.randi_range(-2147483648, 2147483647) if rng.randi_range(0, 1) == 0 else rng.randi_range(-9, 9)


func node_path() -> NodePath:
	var s := "/" if rng.randi_range(0, 1) == 0 else ""
	for i in rng.randi_range(0, 3):
		s += ("/" if i > 0 else "") + "n" + rstring().replace("/", "").replace(":", "")
	for i in rng.randi_range(0, 2):
		s += ":s" + rstring().replace("/", "").replace(":", "")
	return NodePath(s)


func of_type(t: int, depth: int):
	match t:
		TYPE_NIL: return null
		TYPE_BOOL: return rng.randi_range(0, 1) == 1
		TYPE_INT: return rint()
		TYPE_FLOAT: return rfloat()
		TYPE_STRING: return rstring()
		TYPE_VECTOR2: return v2()
		TYPE_VECTOR2I: return Vector2i(i32(), i32())
		TYPE_RECT2: return Rect2(v2(), v2())
		TYPE_RECT2I: return Rect2i(i32(), i32(), i32(), i32())
		TYPE_VECTOR3: return v3()
		TYPE_VECTOR3I: return Vector3i(i32(), i32(), i32())
		TYPE_TRANSFORM2D: return Transform2D(v2(), v2(), v2())
		TYPE_VECTOR4: return v4()
		TYPE_VECTOR4I: return Vector4i(i32(), i32(), i32(), i32())
		TYPE_PLANE: return Plane(v3(), rfloat())
		TYPE_QUATERNION: return Quaternion(rfloat(), rfloat(), rfloat(), rfloat())
		TYPE_AABB: return AABB(v3(), v3())
		TYPE_BASIS: return Basis(v3(), v3(), v3())
		TYPE_TRANSFORM3D: return Transform3D(Basis(v3(), v3(), v3()), v3())
		TYPE_PROJECTION: return Projection(v4(), v4(), v4(), v4())
		TYPE_COLOR: return Color(rfloat(), rfloat(), rfloat(), rfloat())
		TYPE_STRING_NAME: return StringName(rstring())
		TYPE_NODE_PATH: return node_path()
		TYPE_RID: return rid_from_int64(bits64() & 0x7fffffffffffffff) if rng.randi_range(0, 3) > 0 else RID()
		TYPE_DICTIONARY:
			var d := {}
			for i in rng.randi_range(0, 4):
				d[value(depth - 1)] = value(depth - 1)
			if rng.randi_range(0, 3) == 0:
				var kt: int = TYPED[rng.randi_range(0, TYPED.size() - 1)]
				var vt: int = TYPED[rng.randi_range(0, TYPED.size() - 1)]
				var td := {}
				for i in rng.randi_range(0, 3):
					td[of_type(kt, depth - 1)] = of_type(vt, depth - 1)
				return Dictionary(td, kt, &"", null, vt, &"", null)
			return d
		TYPE_ARRAY:
			if rng.randi_range(0, 2) == 0:
				var et: int = TYPED[rng.randi_range(0, TYPED.size() - 1)]
				var items := []
				for i in rng.randi_range(0, 3):
					items.append(of_type(et, depth - 1))
				return Array(items, et, &"", null)
			var a := []
			for i in rng.randi_range(0, 4):
				a.append(value(depth - 1))
			return a
		TYPE_PACKED_BYTE_ARRAY:
			var p := PackedByteArray()
			for i in rng.randi_range(0, 5):
				p.append(rng.randi_range(0, 255))
			return p
		TYPE_PACKED_INT32_ARRAY:
			var p := PackedInt32Array()
			for i in rng.randi_range(0, 4):
				p.append(i32())
			return p
		TYPE_PACKED_INT64_ARRAY:
			var p := PackedInt64Array()
			for i in rng.randi_range(0, 4):
				p.append(rint())
			return p
		TYPE_PACKED_FLOAT32_ARRAY:
			var p := PackedFloat32Array()
			for i in rng.randi_range(0, 4):
				p.append(rfloat())
			return p
		TYPE_PACKED_FLOAT64_ARRAY:
			var p := PackedFloat64Array()
			for i in rng.randi_range(0, 4):
				p.append(rfloat())
			return p
		TYPE_PACKED_STRING_ARRAY:
			var p := PackedStringArray()
			for i in rng.randi_range(0, 4):
				p.append(rstring())
			return p
		TYPE_PACKED_VECTOR2_ARRAY:
			var p := PackedVector2Array()
			for i in rng.randi_range(0, 3):
				p.append(v2())
			return p
		TYPE_PACKED_VECTOR3_ARRAY:
			var p := PackedVector3Array()
			for i in rng.randi_range(0, 3):
				p.append(v3())
			return p
		TYPE_PACKED_COLOR_ARRAY:
			var p := PackedColorArray()
			for i in rng.randi_range(0, 3):
				p.append(Color(rfloat(), rfloat(), rfloat(), rfloat()))
			return p
		TYPE_PACKED_VECTOR4_ARRAY:
			var p := PackedVector4Array()
			for i in rng.randi_range(0, 3):
				p.append(v4())
			return p
	return null


# Any builtin type but Object, Callable and Signal (the text form holds no contents for the
# last two); containers only while depth lasts.
func value(depth: int):
	while true:
		var t := rng.randi_range(0, TYPE_MAX - 1)
		if t == TYPE_OBJECT or t == TYPE_CALLABLE or t == TYPE_SIGNAL:
			continue
		if (t == TYPE_ARRAY or t == TYPE_DICTIONARY) and depth <= 0:
			continue
		return of_type(t, depth)
	return null
