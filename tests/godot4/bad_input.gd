# Crafted inputs: reads lines `name hex` from the file given after `--` and writes one JSON line
# per input to the second file: {"name", "ok", "consumed", "error"} for `bytes_to_var` and the
# same with the `objects_` prefix for `bytes_to_var_with_objects`. `ok` is what
# `has_encoded_var` says (it tells a refused input from a real null), `consumed` is
# `decode_var_size`, `error` the engine's error lines (an `OS.add_logger` logger), where the
# decode is refused. Prints `SUMMARY n`.
extends SceneTree


const H = preload("res://harness.gd")

var errors: H.Errors


func verdict(bytes: PackedByteArray, objects: bool, prefix: String, into: Dictionary) -> void:
	errors.take()
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
		var lines := PackedStringArray()
		for e in errors.take():
			lines.append("%s (%s:%d): %s %s" % [e.function, e.file.get_file(), e.line, e.code,
					e.rationale])
		into[prefix + "error"] = "; ".join(lines)


func _init():
	errors = H.log_errors()
	var args := OS.get_cmdline_user_args()
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	var n := 0
	for line: String in H.lines(args[0]):
		var parts := line.split(" ")
		var rec := {"name": parts[0]}
		var bytes := parts[1].hex_decode() if parts.size() > 1 else PackedByteArray()
		verdict(bytes, false, "", rec)
		verdict(bytes, true, "objects_", rec)
		out.store_line(JSON.stringify(rec))
		n += 1
	out.close()
	OS.remove_logger(errors)
	print("SUMMARY ", n)
	quit(0)
