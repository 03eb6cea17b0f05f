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

func _init():
	var args = OS.get_cmdline_args()
	var path = args[args.size() - 1]
	var f = File.new()
	if f.open(path, File.READ) != OK:
		print("SUMMARY 0 cases")
		quit(2)
		return
	var i = 0
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line == "" and f.eof_reached():
			break
		var raw = PoolByteArray()
		for j in range(0, line.length(), 2):
			raw.append(("0x" + line.substr(j, 2)).hex_to_int())
		var text = raw.get_string_from_utf8()
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
