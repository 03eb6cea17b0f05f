# Values of every Godot 4 type, and what JSON.stringify(JSON.from_native(v, full_objects))
# makes of them (compact without and with full objects, and indented with a tab), for
# tests/suite/json_native_live.rs.
#
# Output (--out FILE), one value per line, fields separated by spaces:
#   name  var_to_bytes_with_objects(v) in hex (for the values given as bytes, those bytes)
#   compact: "ok"/"err" and the text's UTF-8 in hex ("-" when empty)
#   full:    "ok"/"err" and hex
#   pretty (full objects, "\t"): "ok"/"err" and hex
# "err" means the engine logged an error while converting (it then writes null in place).
extends SceneTree

const H = preload("res://harness.gd")

var errors: H.Errors
var lines := PackedStringArray()

func hex(s: String) -> String:
	var h := s.to_utf8_buffer().hex_encode()
	return h if h != "" else "-"

func stringify_native(v, full: bool, indent: String) -> String:
	errors.take()
	var text := JSON.stringify(JSON.from_native(v, full), indent)
	var flag := "ok" if errors.take().is_empty() else "err"
	return flag + " " + hex(text)

func add(name: String, v) -> void:
	var bytes := var_to_bytes_with_objects(v).hex_encode()
	lines.append("%s %s %s %s %s" % [name, bytes, stringify_native(v, false, ""), stringify_native(v, true, ""), stringify_native(v, true, "\t")])

# A value given as bytes (hex), read as bytes_to_var_with_objects reads them: the line carries
# these bytes, not var_to_bytes of the value (an object sent by id is held as an
# EncodedObjectAsID, which var_to_bytes_with_objects would write as a full object). Where the
# decode logs an error (an element the container's type drops), the three forms are "err".
func add_bytes(name: String, h: String) -> void:
	errors.take()
	var v = bytes_to_var_with_objects(h.hex_decode())
	if not errors.take().is_empty():
		lines.append("%s %s err - err - err -" % [name, h])
		return
	lines.append("%s %s %s %s %s" % [name, h, stringify_native(v, false, ""), stringify_native(v, true, ""), stringify_native(v, true, "\t")])

# OBJECT (24) with bit 16 (as id), then the id as a little-endian 64-bit integer.
func id_hex(id: int) -> String:
	var b := PackedByteArray()
	b.resize(12)
	b.encode_u32(0, 0x10018)
	b.encode_s64(4, id)
	return b.hex_encode()

# A GString: u32 length, the UTF-8 bytes, zero padding to 4.
func gstring_hex(s: String) -> String:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, s.to_utf8_buffer().size())
	b.append_array(s.to_utf8_buffer())
	while b.size() % 4 != 0:
		b.append(0)
	return b.hex_encode()

func double_from_bits(bits: int) -> float:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_s64(0, bits)
	return b.decode_double(0)

func _init() -> void:
	errors = H.log_errors()
	var out := H.option("--out")
	print("ENGINE ", Engine.get_version_info().string)
	var rng := RandomNumberGenerator.new()
	rng.seed = 29

	add("nil", null)
	add("true", true)
	add("false", false)
	for i in [0, 1, -1, 255, 2147483647, -2147483648, 4294967296, 9223372036854775807, -9223372036854775807 - 1]:
		add("int", i)
	# Floats by bit pattern (exact doubles), then random ones over every magnitude.
	for bits in [0, -9223372036854775807 - 1, 0x3ff0000000000000, 0x3fb999999999999a, 0x3fd3333333333334,
			0x7ff0000000000000, -4503599627370496, 0x7ff8000000000000, 1, 0x000fffffffffffff,
			0x0010000000000000, 0x7fefffffffffffff, 0x43e0000000000000, 0x43dfffffffffffff,
			0x4415af1d78b58c40, 0x3e45798ee2308c3a, -4555631436917080064]:
		add("float_bits", double_from_bits(bits))
	for k in range(-45, 46, 3):
		add("float", rng.randf_range(-1.0, 1.0) * pow(10.0, k))
	for k in range(-20, 21, 5):
		add("float_int", float(rng.randi_range(-1000000, 1000000)) * pow(10.0, k))

	add("string_empty", "")
	add("string", "plain text")
	add("string_escapes", "a\"b\\c\nd\te\bf\fg\rh/i")
	add("string_vt", "a\vb")
	add("string_controls", String.chr(1) + String.chr(31) + String.chr(127))
	add("string_unicode", "é 日本 😀")
	add("string_prefix", "i:1")
	add("string_name", &"a_name")
	add("string_name_empty", &"")
	add("string_name_unicode", &"é😀")
	for p in ["", "a", "a/b/c", "/root/x", "a:b:c", "/a/b:c", "..", "../x", "%Unique"]:
		add("node_path", NodePath(p))

	add("vector2", Vector2(rng.randf_range(-100, 100), rng.randf_range(-1e-3, 1e-3)))
	add("vector2_special", Vector2(INF, -0.0))
	add("vector2_nan", Vector2(NAN, 1e30))
	add("vector2i", Vector2i(2147483647, -2147483648))
	add("rect2", Rect2(0.1, 0.2, 1e10, 3.5))
	add("rect2i", Rect2i(-1, 2, 3, -4))
	add("vector3", Vector3(1.0 / 3.0, 2.0 / 3.0, 1e-20))
	add("vector3i", Vector3i(7, 0, -7))
	add("transform2d", Transform2D(0.5, Vector2(3, -4)))
	add("vector4", Vector4(1, -2.5, 1e-7, 123456.789))
	add("vector4i", Vector4i(1, 2, 3, 4))
	add("plane", Plane(Vector3(0, 1, 0), 2.25))
	add("quaternion", Quaternion(Vector3(1, 1, 0).normalized(), 0.7))
	add("aabb", AABB(Vector3(-1, -2, -3), Vector3(4, 5, 6.5)))
	add("basis", Basis(Vector3(0.3, -0.2, 0.9).normalized(), 1.1))
	add("basis_scaled", Basis.from_scale(Vector3(2, 3, 4)))
	add("transform3d", Transform3D(Basis(Vector3.UP, 0.4), Vector3(10, 20, 30)))
	add("projection", Projection.create_perspective(70, 1.5, 0.1, 1000))
	add("color", Color(0.1, 0.2, 0.3, 0.4))
	add("color_named", Color.CORNFLOWER_BLUE)
	add("rid", RID())
	add("callable", Callable())
	add("signal", Signal())

	add("array_empty", [])
	add("array", [1, 2.5, "s", &"sn", ^"np", null, true, Vector2(1, 2)])
	add("array_nested", [[[]], [[1], {}], {"k": [2]}])
	var ti: Array[int] = [1, 2, 3]
	add("array_typed_int", ti)
	var tv: Array[Vector2] = [Vector2(1, 2)]
	add("array_typed_vector2", tv)
	var ts: Array[String] = []
	add("array_typed_empty", ts)
	var tn: Array[Object] = [null]
	add("array_typed_object", tn)
	var tr: Array[Resource] = []
	add("array_typed_class", tr)
	add("dictionary_empty", {})
	add("dictionary", {"b": 1, "a": 2, 3: "three", 4.5: [1], Vector2(1, 2): null, &"sn": ^"np", null: true})
	var td: Dictionary[String, int] = {"x": 1, "y": 2}
	add("dictionary_typed", td)
	var tk: Dictionary[int, Variant] = {1: "a", 2: [3]}
	add("dictionary_typed_key", tk)
	var tval: Dictionary[Variant, Vector2i] = {"p": Vector2i(1, 2)}
	add("dictionary_typed_value", tval)
	var tcls: Dictionary[String, Resource] = {}
	add("dictionary_typed_class", tcls)

	add("packed_byte_empty", PackedByteArray())
	var pb := PackedByteArray()
	for i in 20:
		pb.append(rng.randi_range(0, 255))
	add("packed_byte", pb)
	add("packed_int32", PackedInt32Array([0, -1, 2147483647, -2147483648]))
	add("packed_int64", PackedInt64Array([0, -1, 9007199254740993, -9223372036854775807 - 1]))
	var pf32 := PackedFloat32Array()
	var pf64 := PackedFloat64Array()
	for k in range(-40, 41, 4):
		var x := rng.randf_range(-1.0, 1.0) * pow(10.0, k)
		pf32.append(x)
		pf64.append(x)
	pf64.append(INF)
	pf64.append(NAN)
	add("packed_float32", pf32)
	add("packed_float64", pf64)
	add("packed_string", PackedStringArray(["", "a", "i:1", "é\n\"x\""]))
	add("packed_vector2", PackedVector2Array([Vector2(1, 2), Vector2(0.1, -0.3)]))
	add("packed_vector3", PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 1e-8, 7e12)]))
	add("packed_color", PackedColorArray([Color(1, 0, 0), Color(0.5, 0.25, 0.125, 0.0625)]))
	add("packed_vector4", PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-1, 0.1, 0.01, 0.001)]))
	add("packed_vector2_empty", PackedVector2Array())

	add("object", Object.new())
	var res := Resource.new()
	res.resource_name = "named"
	add("resource", res)
	add("object_in_array", [1, Resource.new()])
	add("object_in_dictionary", {"r": res})
	add("null_object_in_array", tn)

	# Objects sent by id, alone and in containers (Array 1c, Dictionary 1b; container type kind
	# BUILTIN 1 / CLASS_NAME 2 in header bits 16-17, a Dictionary's value kind in bits 18-19).
	var one := "01000000"
	var k := "04000000010000006b000000"
	var int1 := "0200000001000000"
	# Id 0 is a null object: its rows are named "null_object_id...".
	for id in [0, 1, 2, 9223372036854775807, -9223372036854775807 - 1, -1, -3]:
		var i := id_hex(id)
		var pre := "null_" if id == 0 else ""
		add_bytes(pre + "object_id", i)
		add_bytes(pre + "object_id_in_array", "1c000000" + one + i)
		add_bytes(pre + "object_id_in_array_object", "1c000200" + gstring_hex("Object") + one + i)
		add_bytes(pre + "object_id_in_array_builtin_object", "1c00010018000000" + one + i)
		add_bytes(pre + "object_id_in_array_refcounted", "1c000200" + gstring_hex("RefCounted") + one + i)
		add_bytes(pre + "object_id_in_array_resource", "1c000200" + gstring_hex("Resource") + one + i)
		add_bytes(pre + "object_id_in_array_node", "1c000200" + gstring_hex("Node") + one + i)
		add_bytes(pre + "object_id_dictionary_value", "1b000000" + one + k + i)
		add_bytes(pre + "object_id_dictionary_key", "1b000000" + one + i + int1)
		add_bytes(pre + "object_id_dictionary_string_object", "1b00090004000000" + gstring_hex("Object") + one + k + i)
		add_bytes(pre + "object_id_dictionary_object_int", "1b000600" + gstring_hex("Object") + "02000000" + one + i + int1)
		add_bytes(pre + "object_id_dictionary_string_resource", "1b00090004000000" + gstring_hex("Resource") + one + k + i)
		add_bytes(pre + "object_id_dictionary_resource_int", "1b000600" + gstring_hex("Resource") + "02000000" + one + i + int1)

	H.write_lines(out, lines)
	print("VALUES ", lines.size())
	quit(0)
