# Godot 3 fixture generator: writes one JSON object per case to a JSONL file.
#
#   godot3-server --no-window --path <project> -s <abs>/gen_fixtures.gd -- <abs out.jsonl>
# (scripts/godot3-fixtures.sh does this.)
#
# Every case is one line of CASES: [name, expr]. expr is evaluated with `Expression` and the
# helpers of the harness (f64, f32, i64, obj, null_object). Output fields, per line:
#   name, engine_version, type_id, type        the value's Variant type (3.x ids)
#   expr                                       the expression text
#   var2str                                    var2str(value)
#   hex                                        var2bytes(value).hex_encode()
#   nodepath_padding                           byte offsets in hex of NodePath name padding
#                                              (never written by the engine: garbage)
#   hex_canonical                              hex with those bytes set to 0
#   hex_full_objects (+ nodepath_padding_full_objects, hex_full_objects_canonical)
#                                              only where var2bytes(value, true) differs
#   per_process: true                          the value holds an object id (differs per run)
#   decode_equal                               bytes2var(hex_canonical) equals the value (the harness's diff)
#   decode_full_objects_equal                  same for bytes2var(hex_full_objects_canonical, true)
# Exit status: 0 when every case evaluated and encoded consistently, 1 otherwise.
extends SceneTree

const CASES = [
	["nil", "null"],
	["bool_true", "true"],
	["bool_false", "false"],
	# int: 32-bit unless outside i32
	["int_0", "0"],
	["int_1", "1"],
	["int_neg_1", "-1"],
	["int_42", "42"],
	["int_255", "255"],
	["int_256", "256"],
	["int_65535", "65535"],
	["int_2p31_minus_1", "2147483647"],
	["int_2p31", "2147483648"],
	["int_2p31_plus_1", "2147483649"],
	["int_neg_2p31_plus_1", "-2147483647"],
	["int_neg_2p31", "-2147483648"],
	["int_neg_2p31_minus_1", "-2147483649"],
	["int_2p32_minus_1", "4294967295"],
	["int_2p32", "4294967296"],
	["int_2p40", "1 << 40"],
	["int_neg_2p40", "-(1 << 40)"],
	["int_i64_max", "i64('7fffffffffffffff')"],
	["int_i64_min", "i64('8000000000000000')"],
	["int_i64_min_plus_1", "i64('8000000000000001')"],
	["int_0x0123456789abcdef", "i64('0123456789abcdef')"],
	# float: 32-bit iff exactly representable, NaN always 64-bit
	["float_0", "0.0"],
	["float_neg_0", "-0.0"],
	["float_0_1", "0.1"],
	["float_1_5", "1.5"],
	["float_neg_1_5", "-1.5"],
	["float_0_5", "0.5"],
	["float_3", "3.0"],
	["float_1_over_3", "1.0 / 3.0"],
	["float_0_1_plus_0_2", "0.1 + 0.2"],
	["float_pi", "PI"],
	["float_1e300", "f64('7e37e43c8800759c')"],
	["float_inf", "INF"],
	["float_neg_inf", "-INF"],
	["float_nan", "NAN"],
	["float_nan_negative", "f64('fff8000000000000')"],
	["float_nan_payload", "f64('7ff8000000000001')"],
	["float_flt_max", "f32('7f7fffff')"],
	["float_neg_flt_max", "f32('ff7fffff')"],
	["float_flt_max_next_f64", "f64('47efffffe0000001')"],
	["float_flt_min_normal", "f32('00800000')"],
	["float_f32_subnormal_min", "f32('00000001')"],
	["float_f32_subnormal_max", "f32('007fffff')"],
	["float_f32_subnormal_neg", "f32('80000001')"],
	["float_f64_subnormal_min", "f64('0000000000000001')"],
	["float_f64_subnormal_neg", "f64('800fffffffffffff')"],
	["float_f64_min_normal", "f64('0010000000000000')"],
	["float_f64_max", "f64('7fefffffffffffff')"],
	["float_2p24", "16777216.0"],
	["float_2p24_plus_1", "16777217.0"],
	["float_1e10", "10000000000.0"],
	# String: byte lengths 0-5 (padding 0-3), non-ASCII
	["string_len0", "''"],
	["string_len1", "'a'"],
	["string_len2", "'ab'"],
	["string_len3", "'abc'"],
	["string_len4", "'abcd'"],
	["string_len5", "'abcde'"],
	["string_godot", "'Godot'"],
	["string_e_acute_2_bytes", "'é'"],
	["string_euro_3_bytes", "'€'"],
	["string_hello_accent", "'héllo'"],
	["string_cjk", "'日本語'"],
	["string_emoji", "'😀'"],
	["string_mixed_emoji", "'a😀b'"],
	["string_quote_backslash", "'\"\\\\'"],
	["string_newline_tab", "'a\\nb\\tc'"],
	["string_len16", "'0123456789abcdef'"],
	# math types, distinct components
	["vector2_1_2", "Vector2(1, 2)"],
	["vector2_neg0_0_1", "Vector2(-0.0, 0.1)"],
	["vector2_inf_nan", "Vector2(INF, NAN)"],
	["rect2_1_4", "Rect2(1, 2, 3, 4)"],
	["rect2_frac", "Rect2(-1.5, 2.25, 0.1, 10000000000.0)"],
	["vector3_1_2_3", "Vector3(1, 2, 3)"],
	["vector3_frac", "Vector3(-1, 0.5, 0.1)"],
	["transform2d_1_6", "Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))"],
	["transform2d_identity", "Transform2D()"],
	["plane_1_4", "Plane(1, 2, 3, 4)"],
	["plane_normal_d", "Plane(Vector3(0, 1, 0), -5)"],
	["quat_1_4", "Quat(1, 2, 3, 4)"],
	["quat_identity", "Quat()"],
	["aabb_1_6", "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))"],
	["aabb_neg_size", "AABB(Vector3(-1, -2, -3), Vector3(-0.5, 0.25, 8))"],
	["basis_1_9", "Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))"],
	["basis_identity", "Basis()"],
	["transform_1_12", "Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))"],
	["transform_identity", "Transform()"],
	["color_red", "Color(1, 0, 0, 1)"],
	["color_frac", "Color(0.1, 0.2, 0.3, 0.4)"],
	["color_default_alpha", "Color(0.25, 0.5, 0.75)"],
	["color_html", "Color('#ff8000')"],
	# NodePath: name padding is left unwritten by the engine
	["nodepath_empty", "NodePath('')"],
	["nodepath_root_main_position", "NodePath('/root/Main:position')"],
	["nodepath_a_b", "NodePath('a:b')"],
	["nodepath_only_subnames", "NodePath(':a:b')"],
	["nodepath_one_subname", "NodePath(':position')"],
	["nodepath_name_len1", "NodePath('a')"],
	["nodepath_name_len2", "NodePath('ab')"],
	["nodepath_name_len3", "NodePath('abc')"],
	["nodepath_name_len4", "NodePath('abcd')"],
	["nodepath_name_len5", "NodePath('abcde')"],
	["nodepath_abs_len1", "NodePath('/a')"],
	["nodepath_relative_3", "NodePath('a/bb/ccc')"],
	["nodepath_parent", "NodePath('../x')"],
	["nodepath_dot", "NodePath('.')"],
	["nodepath_issue_44999", "NodePath('Path2D/PathFollow2D/Sprite:position:x')"],
	["nodepath_non_ascii", "NodePath('héllo/日本:ü')"],
	# RID: 3.x writes no payload
	["rid_empty", "RID()"],
	# Object
	["object_null", "null_object()"],
	["object_reference", "obj('Reference')"],
	["object_object", "obj('Object')"],
	["object_resource_named", "obj('Resource', {'resource_name': 'res'})"],
	["object_node2d", "obj('Node2D', {'position': Vector2(1, 2), 'rotation': 0.5, 'z_index': 3})"],
	["array_with_object", "[1, obj('Reference')]"],
	# Dictionary: insertion order is kept
	["dict_empty", "{}"],
	["dict_a_1", "{'a': 1}"],
	["dict_insertion_order", "{'zeta': 1, 'alpha': 2, 'mid': 3}"],
	["dict_mixed_keys", "{'b': 1, 2: 'two', Vector2(1, 2): null, true: 1.5, null: 'nil', 0.5: [1]}"],
	["dict_int64_key", "{4294967296: -1}"],
	["dict_nested", "{'outer': {'inner': [1, {'x': 2}]}, 'empty': {}}"],
	["dict_nodepath", "{NodePath('a'): NodePath('abc:d')}"],
	["dict_pool_values", "{'b': PoolByteArray([1, 2, 3]), 's': PoolStringArray(['x'])}"],
	# Array
	["array_empty", "[]"],
	["array_1_a", "[1, 'a']"],
	["array_nested_empty", "[[[]]]"],
	["array_nested_mixed", "[1, [2, [3, []]], {'k': [4]}]"],
	["array_scalars", "[null, true, 2147483648, 1.5, 0.1, 'str', Vector2(1, 2), RID()]"],
	["array_nodepaths", "['x', NodePath('ab:c'), [NodePath('/a/bcd')]]"],
	["array_depth_10", "[[[[[[[[[[1]]]]]]]]]]"],
	# Pool arrays, lengths 0..5
	["pool_byte_len0", "PoolByteArray()"],
	["pool_byte_len1", "PoolByteArray([1])"],
	["pool_byte_len2", "PoolByteArray([1, 2])"],
	["pool_byte_len3", "PoolByteArray([1, 2, 3])"],
	["pool_byte_len4", "PoolByteArray([1, 2, 3, 255])"],
	["pool_byte_len5", "PoolByteArray([0, 128, 254, 255, 7])"],
	["pool_int_len0", "PoolIntArray()"],
	["pool_int_len1", "PoolIntArray([1])"],
	["pool_int_len2", "PoolIntArray([1, -2])"],
	["pool_int_len3", "PoolIntArray([1, -2, 2147483647])"],
	["pool_int_len4", "PoolIntArray([1, -2, 2147483647, -2147483648])"],
	["pool_int_len5", "PoolIntArray([0, 1, 2, 3, 65536])"],
	["pool_int_truncates_i64", "PoolIntArray([4294967297])"],
	["pool_real_len0", "PoolRealArray()"],
	["pool_real_len1", "PoolRealArray([0.5])"],
	["pool_real_len2", "PoolRealArray([0.5, -1.5])"],
	["pool_real_len3", "PoolRealArray([0.5, -1.5, 0.1])"],
	["pool_real_len4", "PoolRealArray([0.5, -1.5, 0.1, INF])"],
	["pool_real_len5", "PoolRealArray([0.5, -1.5, 0.1, -0.0, 1.0 / 3.0])"],
	["pool_real_nan", "PoolRealArray([NAN])"],
	["pool_string_len0", "PoolStringArray()"],
	["pool_string_len1", "PoolStringArray([''])"],
	["pool_string_len2", "PoolStringArray(['ab', 'cde'])"],
	["pool_string_len3", "PoolStringArray(['', 'a', 'ab'])"],
	["pool_string_len4", "PoolStringArray(['a', 'ab', 'abc', 'abcd'])"],
	["pool_string_len5", "PoolStringArray(['', 'a', 'ab', 'abc', 'abcd'])"],
	["pool_string_non_ascii", "PoolStringArray(['héllo', '日本語', '😀', 'ü'])"],
	["pool_vector2_len0", "PoolVector2Array()"],
	["pool_vector2_len1", "PoolVector2Array([Vector2(1, 2)])"],
	["pool_vector2_len2", "PoolVector2Array([Vector2(1, 2), Vector2(3, 4)])"],
	["pool_vector2_len3", "PoolVector2Array([Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)])"],
	["pool_vector2_len4", "PoolVector2Array([Vector2(1, 2), Vector2(3, 4), Vector2(5, 6), Vector2(7, 8)])"],
	["pool_vector2_len5", "PoolVector2Array([Vector2(1, 2), Vector2(3, 4), Vector2(5, 6), Vector2(7, 8), Vector2(-0.5, 0.1)])"],
	["pool_vector3_len0", "PoolVector3Array()"],
	["pool_vector3_len1", "PoolVector3Array([Vector3(1, 2, 3)])"],
	["pool_vector3_len2", "PoolVector3Array([Vector3(1, 2, 3), Vector3(4, 5, 6)])"],
	["pool_vector3_len3", "PoolVector3Array([Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)])"],
	["pool_vector3_len4", "PoolVector3Array([Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)])"],
	["pool_vector3_len5", "PoolVector3Array([Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12), Vector3(-0.5, 0.1, 0.25)])"],
	["pool_color_len0", "PoolColorArray()"],
	["pool_color_len1", "PoolColorArray([Color(1, 0, 0, 1)])"],
	["pool_color_len2", "PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)])"],
	["pool_color_len3", "PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4), Color(0, 1, 0, 0.5)])"],
	["pool_color_len4", "PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4), Color(0, 1, 0, 0.5), Color(0, 0, 1, 0)])"],
	["pool_color_len5", "PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4), Color(0, 1, 0, 0.5), Color(0, 0, 1, 0), Color(0.5, 0.25, 0.125, 2)])"],
]

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

var lib

func _init():
	lib = H.new()
	var args = lib.user_args()
	if args.size() != 1:
		printerr("usage: ... -s gen_fixtures.gd -- <out.jsonl>")
		quit(2)
		return
	var code = run(args[0])
	lib = null
	quit(code)

func run(out_path):
	var f = File.new()
	if f.open(out_path, File.WRITE) != OK:
		printerr("cannot write ", out_path)
		return 2
	var version = lib.engine_version()
	var failures = 0
	var seen = {}
	for c in CASES:
		var name = c[0]
		var expr = c[1]
		if seen.has(name):
			printerr("duplicate case name ", name)
			failures += 1
			continue
		seen[name] = true
		var res = lib.evaluate(expr)
		if res == null:
			printerr("CASE ", name, ": ", lib.last_error)
			failures += 1
			continue
		var line = encode_case(name, expr, res[0], version)
		if line.has("error"):
			printerr("CASE ", name, ": ", line["error"])
			failures += 1
		f.store_line(JSON.print(line))
	f.close()
	lib.free_owned()
	print("SUMMARY %d cases, %d failed" % [CASES.size(), failures])
	return 0 if failures == 0 else 1

func encode_case(name, expr, v, version):
	var t = typeof(v)
	var line = {"name": name, "engine_version": version, "type_id": t, "type": lib.type_name(t),
		"expr": expr, "var2str": var2str(v)}
	var bytes = var2bytes(v)
	var pads = lib.pad_offsets(v, false)
	var canonical = lib.zero_at(bytes, pads)
	line["hex"] = bytes.hex_encode()
	line["nodepath_padding"] = pads
	line["hex_canonical"] = canonical.hex_encode()
	# Encoding again must only change the padding bytes.
	for _i in range(3):
		if lib.zero_at(var2bytes(v), pads) != canonical:
			line["error"] = "encoding differs between calls outside the NodePath padding"
	var full = var2bytes(v, true)
	var pads_full = lib.pad_offsets(v, true)
	var canonical_full = lib.zero_at(full, pads_full)
	if canonical_full != canonical:
		line["hex_full_objects"] = full.hex_encode()
		if pads_full.size() > 0:
			line["nodepath_padding_full_objects"] = pads_full
			line["hex_full_objects_canonical"] = canonical_full.hex_encode()
	if lib.has_object(v):
		line["per_process"] = true
	var dec = lib.try_decode(canonical, false)
	line["decode_equal"] = dec != null and lib.diff(dec[0], v) == ""
	if line.has("hex_full_objects"):
		var decf = lib.try_decode(canonical_full, true)
		if decf != null:
			lib.adopt(decf[0])
		line["decode_full_objects_equal"] = decf != null and lib.diff(decf[0], v) == ""
	return line
