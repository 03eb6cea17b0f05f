# Reads JSON texts and runs them through JSON.parse_string and JSON.to_native, for
# tests/suite/json_native_live.rs.
#
# Input (--in FILE), one text per line: "objects" or "plain" (to_native's allow_objects) and
# the text's UTF-8 in hex ("-" when empty).
# Output (--out FILE), one line per input: "ok" or "err" (whether the engine logged an error
# while parsing or converting) and var_to_bytes_with_objects(result) in hex.
extends SceneTree

class Counter extends Logger:
	var errors := 0
	func _log_error(_function, _file, _line, _code, _rationale, _editor_notify, _error_type, _script_backtraces):
		errors += 1

func _init() -> void:
	var counter := Counter.new()
	OS.add_logger(counter)
	var input := ""
	var out := ""
	var args := OS.get_cmdline_user_args()
	for i in args.size():
		if args[i] == "--in":
			input = args[i + 1]
		elif args[i] == "--out":
			out = args[i + 1]
	print("ENGINE ", Engine.get_version_info().string)
	var lines := PackedStringArray()
	for line in FileAccess.get_file_as_string(input).split("\n", false):
		var fields := line.split(" ")
		var h := fields[1]
		var text := "" if h == "-" else h.hex_decode().get_string_from_utf8()
		counter.errors = 0
		var parsed = JSON.parse_string(text)
		var v = JSON.to_native(parsed, fields[0] == "objects")
		var flag := "ok" if counter.errors == 0 else "err"
		lines.append(flag + " " + var_to_bytes_with_objects(v).hex_encode())
	var f := FileAccess.open(out, FileAccess.WRITE)
	f.store_string("\n".join(lines) + "\n")
	f.close()
	print("TEXTS ", lines.size())
	quit(0)
