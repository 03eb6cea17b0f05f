# Live harness: Godot 3's ConfigFile on files written by another writer, and ConfigFile.save()
# of values given as text.
#
#   godot3-server --no-window --path <project> -s <abs>/cfg_check.gd -- <dir>
#
# For every <dir>/<name>.ours.cfg (name order): ConfigFile.load() it, then one line per key in
# get_sections() / get_section_keys() order:
#   LOAD <name> <error code>
#   KEY <name> <section hex> <key hex> <var2bytes(value) hex>
# For every <dir>/<name>.calls: each line is "<section hex> <key hex> <text hex>" (UTF-8 hex);
# set_value(section, key, str2var(text)) in order, then save() to <dir>/<name>.engine.cfg:
#   SAVED <name> <error code>
# Last stdout line: SUMMARY <files> files
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

func _init():
	var lib = H.new()
	var args = lib.user_args()
	var dir_path = args[args.size() - 1] if args.size() > 0 else ""
	var names = lib.list_files(dir_path, "")
	if names == null:
		print("SUMMARY 0 files")
		quit(2)
		return
	var count = 0
	for file in names:
		if file.ends_with(".ours.cfg"):
			var name = file.substr(0, file.length() - 9)
			var cf = ConfigFile.new()
			var err = cf.load(dir_path + "/" + file)
			print("LOAD %s %d" % [name, err])
			for s in cf.get_sections():
				for k in cf.get_section_keys(s):
					print("KEY %s %s %s %s" % [name, s.to_utf8().hex_encode(), k.to_utf8().hex_encode(), var2bytes(cf.get_value(s, k)).hex_encode()])
			count += 1
		elif file.ends_with(".calls"):
			var name = file.substr(0, file.length() - 6)
			var cf = ConfigFile.new()
			for line in lib.lines(dir_path + "/" + file):
				var parts = line.split(" ")
				cf.set_value(lib.unhex(parts[0]), lib.unhex(parts[1]), str2var(lib.unhex(parts[2])))
			var err = cf.save(dir_path + "/" + name + ".engine.cfg")
			print("SAVED %s %d" % [name, err])
			count += 1
	print("SUMMARY %d files" % count)
	quit(0)
