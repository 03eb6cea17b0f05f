# Reads JSON texts and runs them through JSON.parse_string and JSON.to_native, for
# tests/suite/json_native_live.rs.
#
# Input (--in FILE), one text per line: "objects" or "plain" (to_native's allow_objects) and
# the text's UTF-8 in hex ("-" when empty).
# Output (--out FILE), one line per input: "ok" or "err" (whether the engine logged an error
# while parsing or converting) and var_to_bytes_with_objects(result) in hex.
extends SceneTree

const H = preload("res://harness.gd")

func _init() -> void:
	var errors := H.log_errors()
	var input := H.option("--in")
	var out := H.option("--out")
	print("ENGINE ", Engine.get_version_info().string)
	var lines := PackedStringArray()
	for line: String in H.lines(input):
		var fields := line.split(" ")
		var h := fields[1]
		var text := "" if h == "-" else h.hex_decode().get_string_from_utf8()
		errors.take()
		var parsed = JSON.parse_string(text)
		var v = JSON.to_native(parsed, fields[0] == "objects")
		var flag := "ok" if errors.take().is_empty() else "err"
		lines.append(flag + " " + var_to_bytes_with_objects(v).hex_encode())
	H.write_lines(out, lines)
	print("TEXTS ", lines.size())
	quit(0)
