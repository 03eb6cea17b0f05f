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

func unhex(h):
	var raw = PoolByteArray()
	for j in range(0, h.length(), 2):
		raw.append(("0x" + h.substr(j, 2)).hex_to_int())
	return raw.get_string_from_utf8()

func _init():
	var args = OS.get_cmdline_args()
	var dir_path = args[args.size() - 1]
	var dir = Directory.new()
	if dir.open(dir_path) != OK:
		print("SUMMARY 0 files")
		quit(2)
		return
	var names = []
	dir.list_dir_begin(true, true)
	var n = dir.get_next()
	while n != "":
		names.append(n)
		n = dir.get_next()
	names.sort()
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
			var f = File.new()
			f.open(dir_path + "/" + file, File.READ)
			var cf = ConfigFile.new()
			while not f.eof_reached():
				var line = f.get_line()
				if line == "":
					continue
				var parts = line.split(" ")
				cf.set_value(unhex(parts[0]), unhex(parts[1]), str2var(unhex(parts[2])))
			var err = cf.save(dir_path + "/" + name + ".engine.cfg")
			print("SAVED %s %d" % [name, err])
			count += 1
	print("SUMMARY %d files" % count)
	quit(0)
