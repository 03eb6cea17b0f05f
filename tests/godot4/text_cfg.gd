# Live harness: Godot 4's ConfigFile on files another writer wrote, its save() and
# encode_to_text() of set_value calls, and its view of a file after set_value edits, for
# tests/suite/text_godot4_live/config_file.rs.
#
#   godot --headless --path <project> -s res://text_cfg.gd -- <dir>
#
# Every file of <dir>, in name order (files written by this script are not read):
# - <name>.calls: lines "<section hex> <key hex> <value bytes hex>" (UTF-8 hex; the value as
#   var_to_bytes, 00000000 = null, which erases): set_value on a fresh ConfigFile in order,
#   then save() to <name>.engine.out and encode_to_text() into <name>.encoded.out:
#     SAVED <name> <save error code>
# - <name>.cfg (any other .cfg): ConfigFile.load() of it, then ConfigFile.parse() of its text:
#     LOAD <name> <error code>      PARSE <name> <error code>
#   each followed by its keys in get_sections() / get_section_keys() order:
#     KEY <name> <L|P> <section hex> <key hex> <var_to_bytes_with_objects(value) hex>
# - <name>.edits with <name>.base: load() the base, then set_value each line as in .calls:
#     EDITED <name> <load error code>   and its keys as KEY <name> E ...
# Last stdout line: SUMMARY <files> files
extends SceneTree

const H = preload("res://harness.gd")


func list_keys(cf: ConfigFile, name: String, mode: String) -> void:
	for s in cf.get_sections():
		for k in cf.get_section_keys(s):
			print("KEY %s %s %s %s %s" % [name, mode, s.to_utf8_buffer().hex_encode(), k.to_utf8_buffer().hex_encode(), var_to_bytes_with_objects(cf.get_value(s, k)).hex_encode()])


func apply(cf: ConfigFile, path: String) -> void:
	for line: String in H.lines(path):
		var p := line.split(" ")
		cf.set_value(H.unhex(p[0]), H.unhex(p[1]), bytes_to_var(p[2].hex_decode()))


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 1 or not DirAccess.dir_exists_absolute(args[0]):
		printerr("usage: -s text_cfg.gd -- /abs/dir")
		quit(2)
		return
	var dir: String = args[0]
	var files := Array(DirAccess.get_files_at(dir))
	files.sort()
	var count := 0
	for file: String in files:
		var path := dir.path_join(file)
		if file.ends_with(".calls"):
			var name := file.get_basename()
			var cf := ConfigFile.new()
			apply(cf, path)
			var err := cf.save(dir.path_join(name + ".engine.out"))
			var out := FileAccess.open(dir.path_join(name + ".encoded.out"), FileAccess.WRITE)
			out.store_string(cf.encode_to_text())
			out.close()
			print("SAVED %s %d" % [name, err])
		elif file.ends_with(".cfg"):
			var name := file.get_basename()
			var cf := ConfigFile.new()
			print("LOAD %s %d" % [name, cf.load(path)])
			list_keys(cf, name, "L")
			cf = ConfigFile.new()
			print("PARSE %s %d" % [name, cf.parse(FileAccess.get_file_as_string(path))])
			list_keys(cf, name, "P")
		elif file.ends_with(".edits"):
			var name := file.get_basename()
			var cf := ConfigFile.new()
			var err := cf.load(dir.path_join(name + ".base"))
			apply(cf, path)
			print("EDITED %s %d" % [name, err])
			list_keys(cf, name, "E")
		else:
			continue
		count += 1
	print("SUMMARY %d files" % count)
	quit(0)
