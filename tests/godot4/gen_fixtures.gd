# Regenerates the Godot 4 engine samples (`scripts/godot4-fixtures.sh` runs it):
#   vectors IN OUT: for each record of IN (`vectors-sample.jsonl`), evaluates its `expr` (an
#     `Expression` with this script as base: the helpers and objects below) and writes the
#     record again from this engine: `var_to_bytes`, `var_to_bytes_with_objects`, `var_to_str`,
#     the NodePath padding, the engine's decoding and re-encoding. Framing records are
#     rebuilt from their names.
#   decode IN OUT: for each record of IN (`decode-sample.jsonl`), decodes its `hex` with and
#     without objects and writes the verdict, the bytes used, the value's text and re-encoding,
#     and the engine's error lines (`OS.add_logger`).
# Prints `SUMMARY n`.
extends SceneTree


const H = preload("res://harness.gd")

var logged: H.Errors
var node := Node.new()
var rc := RefCounted.new()
var res := Resource.new()
var obj := Node.new()
var script_res = load("res://script_res.gd") if FileAccess.file_exists("res://script_res.gd") else null
var input_singleton = Input


# The bit-pattern helpers the sample expressions call (`f64_bits("7ff0000000000001")`).
func f32_bits(hex: String) -> float:
	return H.f32(hex)


func f64_bits(hex: String) -> float:
	return H.f64(hex)


# The engine's error lines since the last `logged.take()`, as its own log prints them.
func error_lines() -> PackedStringArray:
	var lines := PackedStringArray()
	for e in logged.peek():
		var rationale: String = e.rationale
		lines.append("ERROR: [%s%s] at %s (%s:%d)" % [e.code,
				(" " + rationale) if rationale else "", e.function, e.file, e.line])
	return lines


func str_from_code_points(points: Array) -> String:
	var s := ""
	for p in points:
		s += String.chr(p)
	return s


func nest_with(depth: int) -> Array:
	var v: Array = [7]
	for k in depth - 1:
		v = [v]
	return v


func declared_typed(what: String):
	match what:
		"Array[int]":
			var a: Array[int] = [1, 2]
			return a
		"Dictionary[Variant, Object]":
			var d: Dictionary[Variant, Object] = {}
			return d
	return null


func gstring(s: String) -> PackedByteArray:
	var utf8 := s.to_utf8_buffer()
	var out := PackedByteArray()
	out.resize(4)
	out.encode_u32(0, utf8.size())
	out.append_array(utf8)
	while out.size() % 4 != 0:
		out.append(0)
	return out


# `var_to_bytes(v)` with NodePath name padding zeroed (the engine leaves it unwritten), for
# NodePaths at the top level or in untyped Arrays.
func canonical(v) -> PackedByteArray:
	if typeof(v) == TYPE_NODE_PATH:
		var out := var_to_bytes(v).slice(0, 16)
		for k in v.get_name_count():
			out.append_array(gstring(v.get_name(k)))
		for k in v.get_subname_count():
			out.append_array(gstring(v.get_subname(k)))
		return out
	if typeof(v) == TYPE_ARRAY and not v.is_typed():
		var out := var_to_bytes([]).slice(0, 4)
		var count := PackedByteArray()
		count.resize(4)
		count.encode_u32(0, v.size())
		out.append_array(count)
		for e in v:
			out.append_array(canonical(e))
		return out
	return var_to_bytes(v)


const TYPES := {"TYPE_NIL": TYPE_NIL, "TYPE_INT": TYPE_INT, "TYPE_FLOAT": TYPE_FLOAT,
		"TYPE_STRING": TYPE_STRING, "TYPE_VECTOR2": TYPE_VECTOR2,
		"TYPE_STRING_NAME": TYPE_STRING_NAME, "TYPE_RID": TYPE_RID, "TYPE_OBJECT": TYPE_OBJECT,
		"TYPE_ARRAY": TYPE_ARRAY, "TYPE_PACKED_BYTE_ARRAY": TYPE_PACKED_BYTE_ARRAY}


# `Expression` has no `TYPE_*` constants: they are replaced by their values first.
func evaluate(expr: String):
	var names: Array = TYPES.keys()
	# Longest first: `TYPE_STRING_NAME` before `TYPE_STRING`.
	names.sort_custom(func(a, b): return a.length() > b.length())
	for name in names:
		expr = expr.replace(name, str(TYPES[name]))
	var e := Expression.new()
	if e.parse(expr) != OK:
		return [false, e.get_error_text()]
	var v = e.execute([], self)
	if e.has_execute_failed():
		return [false, e.get_error_text()]
	return [true, v]


# The encoder's error lines (not the script runtime's).
func marshalls_errors() -> String:
	return "; ".join(Array(error_lines()).filter(func(l): return "marshalls" in l))


func vector_record(old: Dictionary) -> Dictionary:
	var name: String = old["name"]
	var rec := {"name": name, "engine_version": Engine.get_version_info().string}
	if old.get("kind") == "framing":
		rec["kind"] = "framing"
		rec["expr"] = old["expr"]
		if name == "framing_streampeer_put_var_godot_rules":
			var peer := StreamPeerBuffer.new()
			peer.put_var("Godot Rules!!!")
			rec["hex"] = peer.data_array.hex_encode()
		else:
			var f := FileAccess.open("user://framing.bin", FileAccess.WRITE)
			f.big_endian = true
			f.store_var("hi")
			f.close()
			rec["hex"] = FileAccess.get_file_as_bytes("user://framing.bin").hex_encode()
		return rec
	var got = evaluate(old["expr"])
	if not got[0]:
		rec["expr"] = old["expr"]
		rec["error"] = got[1]
		return rec
	var v = got[1]
	rec["type_id"] = typeof(v)
	rec["type"] = type_string(typeof(v))
	rec["expr"] = old["expr"]
	rec["var_to_str"] = var_to_str(v) if not name.begins_with("array_depth_") else null
	logged.take()
	var hex := var_to_bytes(v)
	var errors := marshalls_errors()
	rec["hex"] = hex.hex_encode()
	logged.take()
	var full := var_to_bytes_with_objects(v)
	var canon := canonical(v)
	# Recorded where the full form really differs (not only in NodePath padding).
	var differs := full.size() != hex.size()
	for k in hex.size():
		if not differs and full[k] != hex[k] and canon[k] != 0:
			differs = true
	if differs:
		rec["hex_full_objects"] = full.hex_encode()
		if full.is_empty():
			rec["layout_check_full_objects"] = "empty output"
	if errors.is_empty():
		errors = marshalls_errors()
	if canon != hex:
		rec["hex_unstable_between_calls"] = true
		var masked := 0
		for k in hex.size():
			if hex[k] != canon[k]:
				masked += 1
		rec["nodepath_padding_bytes"] = masked
		rec["hex_canonical"] = canon.hex_encode()
	rec["decode_ok"] = hex.has_encoded_var(0, false)
	if rec["decode_ok"]:
		var back = bytes_to_var(hex)
		var again := var_to_bytes(back)
		if again != hex:
			rec["decode_reencoded_hex"] = again.hex_encode()
			rec["decode_var_to_str"] = var_to_str(back)
	if differs and not full.is_empty():
		rec["decode_full_objects_ok"] = full.has_encoded_var(0, true)
	if old.has("note"):
		rec["note"] = old["note"]
	if not errors.is_empty():
		rec["encode_errors"] = errors
	return rec


func decode_side(bytes: PackedByteArray, objects: bool, prefix: String, rec: Dictionary) -> void:
	logged.take()
	var v = bytes_to_var_with_objects(bytes) if objects else bytes_to_var(bytes)
	var ok := bytes.has_encoded_var(0, objects)
	rec[prefix + "ok"] = ok
	rec[prefix + "result_var_to_str"] = var_to_str(v)
	if ok:
		rec[prefix + "consumed"] = bytes.decode_var_size(0, objects)
		rec[prefix + "result_type"] = type_string(typeof(v))
		rec[prefix + "reencoded_hex"] = var_to_bytes(v).hex_encode()
		if objects:
			rec[prefix + "reencoded_full_objects_hex"] = var_to_bytes_with_objects(v).hex_encode()
		match typeof(v):
			TYPE_ARRAY:
				rec[prefix + "result_array_type"] = [v.get_typed_builtin(),
						v.get_typed_class_name(), v.get_typed_script() != null]
			TYPE_DICTIONARY:
				rec[prefix + "result_dict_type"] = [v.get_typed_key_builtin(),
						v.get_typed_key_class_name(), v.get_typed_value_builtin(),
						v.get_typed_value_class_name()]
			TYPE_OBJECT:
				if v != null:
					rec[prefix + "result_class"] = v.get_class()
	var text := "\n".join(error_lines())
	rec[prefix + "stderr_excerpt"] = text
	if not ok:
		# The error code the decoder returned, as its error line names it.
		var at := text.find("Returning: ")
		if at >= 0:
			rec[prefix + "error"] = text.substr(at + 11).get_slice("]", 0).get_slice(" ", 0)


func decode_record(old: Dictionary) -> Dictionary:
	var rec := {"name": old["name"], "engine_version": Engine.get_version_info().string,
			"description": old["description"], "hex": old["hex"], "size": int(old["size"])}
	var bytes: PackedByteArray = old["hex"].hex_decode()
	decode_side(bytes, false, "", rec)
	decode_side(bytes, true, "with_objects_", rec)
	return rec


func _init():
	logged = H.log_errors()
	var args := OS.get_cmdline_user_args()
	var out := FileAccess.open(args[2], FileAccess.WRITE)
	var n := 0
	for line: String in H.lines(args[1]):
		var old: Dictionary = JSON.parse_string(line)
		var rec := vector_record(old) if args[0] == "vectors" else decode_record(old)
		out.store_line(JSON.stringify(rec))
		n += 1
	out.close()
	OS.remove_logger(logged)
	node.free()
	obj.free()
	print("SUMMARY ", n)
	quit(0)
