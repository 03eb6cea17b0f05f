# Live harness: Godot 3's text-form parser and writer on a list of texts.
#
#   godot3-server --no-window --path <project> -s <abs>/text_check.gd -- <file>
#
# <file> holds one text per line, hex-encoded UTF-8. For each line i, one stdout line:
#   CASE <i> OK <hex of var2str(value)> <var2bytes(value) hex>
#   CASE <i> ERR
# The verdict comes from ConfigFile.parse("__probe__=" + text) (str2var reports no error):
# the sentinel set under the key survives exactly when the value failed to parse.
# Last stdout line: SUMMARY <cases> cases
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

func _init():
	var lib = H.new()
	var args = lib.user_args()
	var texts = lib.lines(args[args.size() - 1], true) if args.size() > 0 else null
	if texts == null:
		print("SUMMARY 0 cases")
		quit(2)
		return
	var i = 0
	for line in texts:
		var text = lib.unhex(line.strip_edges())
		var cf = ConfigFile.new()
		cf.set_value("", "__probe__", "__SENTINEL_9f2c__")
		cf.parse("__probe__=" + text)
		var probe = cf.get_value("", "__probe__", null)
		if typeof(probe) == TYPE_STRING and probe == "__SENTINEL_9f2c__":
			print("CASE %d ERR" % i)
		else:
			var v = str2var(text)
			print("CASE %d OK %s %s" % [i, var2str(v).to_utf8().hex_encode(), var2bytes(v).hex_encode()])
		i += 1
	print("SUMMARY %d cases" % i)
	quit(0)
