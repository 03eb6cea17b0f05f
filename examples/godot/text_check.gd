# Godot 4: run texts in Godot's text form (var_to_str syntax) through your engine's parser and
# writer, to compare with godot_serde::text.
#
#   godot --headless --path examples/godot -s text_check.gd -- "$PWD/texts.hex"
#
# (from the crate's root; a Godot 4 binary needs --path with a project, and relative paths
# would then resolve inside it, so give the texts file as an absolute path.)
#
# texts.hex holds one text per line as hex-encoded UTF-8 (e.g. what
# `godot_serde::text::to_string` wrote). For each line i, one stdout line:
#   CASE <i> OK <var_to_str(value) as hex> <var_to_bytes(value) hex>
#   CASE <i> ERR <error code> <error name>   (the line and message are on stderr)
# The verdict comes from ConfigFile.parse("__probe__=" + text), which runs the same value
# parser as str_to_var but reports errors (str_to_var returns null instead): the sentinel set
# under the key survives exactly when the value failed to parse.
# Last stdout line: SUMMARY <cases> cases
extends SceneTree

const SENTINEL = "__godot_serde_sentinel__"

func _init():
	var args = OS.get_cmdline_user_args()
	if args.is_empty():
		print("usage: godot --headless --path examples/godot -s text_check.gd -- /abs/texts.hex")
		quit(2)
		return
	var f = FileAccess.open(args[0], FileAccess.READ)
	if f == null:
		print("SUMMARY 0 cases")
		quit(2)
		return
	var i = 0
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line == "" and f.eof_reached():
			break
		var text = line.hex_decode().get_string_from_utf8()
		var cf = ConfigFile.new()
		cf.set_value("", "__probe__", SENTINEL)
		var err = cf.parse("__probe__=" + text)
		var probe = cf.get_value("", "__probe__", null)
		if typeof(probe) == TYPE_STRING and probe == SENTINEL:
			print("CASE %d ERR %d %s" % [i, err, error_string(err)])
		else:
			var v = str_to_var(text)
			print("CASE %d OK %s %s" % [i, var_to_str(v).to_utf8_buffer().hex_encode(), var_to_bytes(v).hex_encode()])
		i += 1
	print("SUMMARY %d cases" % i)
	quit(0)
