# Live harness: Godot 4's text-form parser (str_to_var) and writer (var_to_str) on a list of
# texts, for tests/suite/text_godot4_live/mod.rs.
#
#   godot --headless --path <project> -s res://text_check.gd -- <texts.hex>
#
# <texts.hex> holds one text per line, hex-encoded UTF-8. For each line i, one stdout line:
#   CASE <i> OK <var_to_str(value) hex> <var_to_bytes_with_objects(value) hex>
#   CASE <i> ERR <0-based line> <parse error message hex>
# The verdict comes from a probe that runs the same VariantParser::parse_value as str_to_var
# (which returns null on failure and reports nothing): a fresh ConfigFile holds a sentinel
# under a key, then ConfigFile.parse("key=" + text); set_value runs only when the value parsed,
# so the sentinel survives exactly when the text failed. The error line and message come from
# ConfigFile's "parse error at <string>:LINE: MESSAGE." line, captured with OS.add_logger.
# The value of an accepted text is str_to_var's own.
# Last stdout line: SUMMARY <cases> cases
extends SceneTree

const H = preload("res://harness.gd")
const SENTINEL = "__godot_serde_sentinel__"


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	var texts = H.lines(args[0], true) if args.size() == 1 else null
	if texts == null:
		printerr("usage: -s text_check.gd -- /abs/texts.hex")
		quit(2)
		return
	var errors := H.log_errors()
	var i := 0
	for line: String in texts:
		var text := H.unhex(line.strip_edges())
		var cf := ConfigFile.new()
		cf.set_value("", "p", SENTINEL)
		errors.take()
		cf.parse("p=" + text)
		var probe = cf.get_value("", "p", null)
		if typeof(probe) == TYPE_STRING and probe == SENTINEL:
			var where := -1
			var message := ""
			var prefix := "ConfigFile parse error at <string>:"
			for e in errors.take():
				var first: String = e.code
				if first.begins_with(prefix) and first.ends_with("."):
					var rest := first.substr(prefix.length(), first.length() - prefix.length() - 1)
					where = int(rest.get_slice(":", 0))
					message = rest.substr(rest.find(": ") + 2)
			print("CASE %d ERR %d %s" % [i, where, message.to_utf8_buffer().hex_encode()])
		else:
			var v = str_to_var(text)
			print("CASE %d OK %s %s" % [i, var_to_str(v).to_utf8_buffer().hex_encode(), var_to_bytes_with_objects(v).hex_encode()])
		i += 1
	print("SUMMARY %d cases" % i)
	OS.remove_logger(errors)
	quit(0)
