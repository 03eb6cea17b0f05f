# Crafted inputs: reads lines `name hex` from the file given after `--` and writes one JSON line
# per input to the second file: {"name", "ok", "consumed", "error"} for `bytes_to_var` and the
# same with the `objects_` prefix for `bytes_to_var_with_objects`. `ok` is what
# `has_encoded_var` says (it tells a refused input from a real null), `consumed` is
# `decode_var_size`, `error` the engine's error lines (an `OS.add_logger` logger), where the
# decode is refused. Prints `SUMMARY n`.
extends SceneTree


class Capture:
	extends Logger
	var lines := PackedStringArray()

	func _log_error(function: String, file: String, line: int, code: String,
			rationale: String, editor_notify: bool, error_type: int,
			script_backtraces: Array[ScriptBacktrace]) -> void:
		lines.append("%s (%s:%d): %s %s" % [function, file.get_file(), line, code, rationale])

	func _log_message(message: String, error: bool) -> void:
		pass


var capture := Capture.new()


func verdict(bytes: PackedByteArray, objects: bool, prefix: String, into: Dictionary) -> void:
	capture.lines.clear()
	var ok := bytes.has_encoded_var(0, objects)
	into[prefix + "ok"] = ok
	if ok:
		into[prefix + "consumed"] = bytes.decode_var_size(0, objects)
	else:
		# `bytes_to_var` logs why it refuses.
		if objects:
			bytes_to_var_with_objects(bytes)
		else:
			bytes_to_var(bytes)
		into[prefix + "error"] = "; ".join(capture.lines)


func _init():
	OS.add_logger(capture)
	var args := OS.get_cmdline_user_args()
	var input := FileAccess.open(args[0], FileAccess.READ)
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	var n := 0
	while not input.eof_reached():
		var line := input.get_line()
		if line.is_empty():
			continue
		var parts := line.split(" ")
		var rec := {"name": parts[0]}
		var bytes := parts[1].hex_decode() if parts.size() > 1 else PackedByteArray()
		verdict(bytes, false, "", rec)
		verdict(bytes, true, "objects_", rec)
		out.store_line(JSON.stringify(rec))
		n += 1
	out.close()
	OS.remove_logger(capture)
	print("SUMMARY ", n)
	quit(0)
