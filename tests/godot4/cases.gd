# The values of the live binary tests, built in the engine: `all()` returns [name, value]
# pairs, compared with the harness's deep compare (`H.same`). `tests/conformance/godot4_values.rs`
# holds the same values on the Rust side, by name.
extends RefCounted

const H = preload("res://harness.gd")
const Item = preload("res://item.gd")


static func item(hp: int, tag: String) -> Object:
	var it = Item.new()
	it.hp = hp
	it.tag = tag
	return it


static func nested_arrays(depth: int) -> Array:
	var v: Array = []
	for k in depth:
		v = [v]
	return v


static func nested_dicts(depth: int) -> Dictionary:
	var v := {}
	for k in depth:
		v = {k: v}
	return v


static func all() -> Array:
	var c: Array = []
	c.append(["nil", null])
	c.append(["bool_false", false])
	c.append(["bool_true", true])
	# int: every width edge (32-bit when it fits in i32, else 64-bit).
	for p in [["int_0", 0], ["int_1", 1], ["int_m1", -1], ["int_i32_max", 2147483647],
			["int_i32_min", -2147483648], ["int_i32_max_p1", 2147483648],
			["int_i32_min_m1", -2147483649], ["int_u32_max", 4294967295],
			["int_i64_max", 9223372036854775807], ["int_i64_min", -9223372036854775807 - 1],
			["int_2_pow_53_p1", 9007199254740993]]:
		c.append(p)
	# float: 32-bit when the value survives a round trip through f32, else 64-bit.
	for p in [["float_0", 0.0], ["float_m0", H.f64("8000000000000000")], ["float_1_5", 1.5], ["float_0_1", 0.1],
			["float_third", 1.0 / 3.0], ["float_f32_max", H.f32("7f7fffff")],
			["float_f32_max_next", H.f64("47efffffe0000001")], ["float_f32_min_sub", H.f32("00000001")],
			["float_f64_min_sub", H.f64("0000000000000001")], ["float_f64_max", H.f64("7fefffffffffffff")],
			["float_inf", INF], ["float_minf", -INF], ["float_nan", NAN],
			["float_nan_payload", H.f64("7ff8000000000001")], ["float_1e300", 1e300]]:
		c.append(p)
	c.append(["string_empty", ""])
	c.append(["string_ascii", "hello"])
	c.append(["string_unicode", "é😀\u4e2d"])
	c.append(["string_nul_free_controls", "a\tb\nc"])
	c.append(["string_long", "ab".repeat(5000)])
	c.append(["vector2", Vector2(1.5, -2)])
	c.append(["vector2_inf", Vector2(INF, -0.0)])
	c.append(["vector2i", Vector2i(-2147483648, 2147483647)])
	c.append(["rect2", Rect2(1, 2, 3, 4.5)])
	c.append(["rect2i", Rect2i(-1, 2, 3, 4)])
	c.append(["vector3", Vector3(1, 2.25, -3)])
	c.append(["vector3i", Vector3i(1, -2, 3)])
	c.append(["transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))])
	c.append(["vector4", Vector4(1, 2, 3, 4.5)])
	c.append(["vector4i", Vector4i(1, 2, -3, 4)])
	c.append(["plane", Plane(Vector3(0, 1, 0), 2.5)])
	c.append(["quaternion", Quaternion(0.5, -0.5, 0.5, 0.5)])
	c.append(["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))])
	c.append(["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))])
	c.append(["transform3d", Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6),
			Vector3(7, 8, 9)), Vector3(10, 11, 12))])
	c.append(["projection", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8),
			Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))])
	c.append(["color", Color(0.25, 0.5, 1, 0.75)])
	c.append(["color_hdr", Color(2, -1, 0.1, 1)])
	c.append(["stringname_empty", &""])
	c.append(["stringname", &"position"])
	c.append(["nodepath_empty", NodePath("")])
	c.append(["nodepath_abs", NodePath("/root/Main:position:x")])
	c.append(["nodepath_rel", NodePath("../a/bc")])
	c.append(["nodepath_prop", NodePath(":modulate")])
	c.append(["rid_empty", RID()])
	c.append(["rid_big", rid_from_int64(0x123456789abcdef)])
	c.append(["object_refcounted", RefCounted.new()])
	c.append(["object_resource", Resource.new()])
	c.append(["object_node", Node.new()])
	c.append(["object_script_instance", item(7, "seven")])
	c.append(["callable_empty", Callable()])
	c.append(["signal_empty", Signal()])
	c.append(["dict_empty", {}])
	c.append(["dict_mixed", {1: "a", "b": [2, 3.5], Vector2i(1, 1): null, &"sn": {"in": true}}])
	c.append(["dict_objects", {"r": RefCounted.new(), "i": item(1, "one")}])
	c.append(["tdict_string_int", Dictionary({"a": 1, "b": 2}, TYPE_STRING, &"", null, TYPE_INT, &"", null)])
	c.append(["tdict_key_only", Dictionary({1.5: "x"}, TYPE_FLOAT, &"", null, TYPE_NIL, &"", null)])
	c.append(["tdict_value_only", Dictionary({"k": Vector2(1, 2)}, TYPE_NIL, &"", null, TYPE_VECTOR2, &"", null)])
	c.append(["tdict_int_node_empty", Dictionary({}, TYPE_INT, &"", null, TYPE_OBJECT, &"Node", null)])
	c.append(["tdict_int_refcounted", Dictionary({1: RefCounted.new()}, TYPE_INT, &"", null, TYPE_OBJECT, &"RefCounted", null)])
	c.append(["tdict_script_script", Dictionary({}, TYPE_OBJECT, &"RefCounted", Item, TYPE_OBJECT, &"RefCounted", Item)])
	c.append(["tdict_sn_item", Dictionary({&"a": item(2, "two")}, TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"RefCounted", Item)])
	c.append(["array_empty", []])
	c.append(["array_mixed", [1, "two", 3.0, null, [4], {5: 6}, Vector3i(7, 8, 9)]])
	c.append(["array_objects", [RefCounted.new(), item(4, "four")]])
	c.append(["tarray_int", Array([1, 2, -3], TYPE_INT, &"", null)])
	c.append(["tarray_float", Array([1.0, 0.1], TYPE_FLOAT, &"", null)])
	c.append(["tarray_string", Array(["a", ""], TYPE_STRING, &"", null)])
	c.append(["tarray_vector2", Array([Vector2(1, 2)], TYPE_VECTOR2, &"", null)])
	c.append(["tarray_array", Array([[1], []], TYPE_ARRAY, &"", null)])
	c.append(["tarray_packed_bytes", Array([PackedByteArray([1])], TYPE_PACKED_BYTE_ARRAY, &"", null)])
	c.append(["tarray_node_empty", Array([], TYPE_OBJECT, &"Node", null)])
	c.append(["tarray_object_empty", Array([], TYPE_OBJECT, &"Object", null)])
	c.append(["tarray_classless_object", Array([], TYPE_OBJECT, &"", null)])
	c.append(["tarray_refcounted", Array([RefCounted.new(), RefCounted.new()], TYPE_OBJECT, &"RefCounted", null)])
	c.append(["tarray_resource", Array([Resource.new()], TYPE_OBJECT, &"Resource", null)])
	c.append(["tarray_script_empty", Array([], TYPE_OBJECT, &"RefCounted", Item)])
	c.append(["tarray_script_items", Array([item(5, "five"), item(6, "")], TYPE_OBJECT, &"RefCounted", Item)])
	c.append(["packed_byte_empty", PackedByteArray()])
	c.append(["packed_byte", PackedByteArray([0, 1, 254, 255, 7])])
	c.append(["packed_int32", PackedInt32Array([-2147483648, 0, 2147483647])])
	c.append(["packed_int64", PackedInt64Array([-9223372036854775807 - 1, 0, 9223372036854775807])])
	c.append(["packed_float32", PackedFloat32Array([1.5, H.f32("80000000"), INF])])
	c.append(["packed_float64", PackedFloat64Array([0.1, H.f64("8000000000000000"), H.f64("0000000000000001")])])
	c.append(["packed_string", PackedStringArray(["", "a", "é😀", "abcd"])])
	c.append(["packed_vector2", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])])
	c.append(["packed_vector3", PackedVector3Array([Vector3(1, 2, 3)])])
	c.append(["packed_color", PackedColorArray([Color(0.1, 0.2, 0.3, 0.4)])])
	c.append(["packed_vector4", PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-1, 0, 0.5, 9)])])
	# Deep and large values.
	c.append(["deep_array_1000", nested_arrays(1000)])
	c.append(["deep_dict_300", nested_dicts(300)])
	var big: Array = []
	for k in 20000:
		big.append(k * 7919 - 50000000)
	c.append(["large_array_ints", big])
	var bigd := {}
	for k in 5000:
		bigd["k%d" % k] = k
	c.append(["large_dict", bigd])
	var bytes := PackedByteArray()
	bytes.resize(1 << 18)
	for k in bytes.size():
		bytes[k] = (k * 31) & 255
	c.append(["large_packed_bytes", bytes])
	var strings := PackedStringArray()
	for k in 3000:
		strings.append("s%d" % k)
	c.append(["large_packed_strings", strings])
	return c
