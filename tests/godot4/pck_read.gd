# Loads resource packs written by godot_serde and checks their files, for
# tests/suite/pck_live.rs. Usage: godot --headless --path P -s res://pck_read.gd -- MANIFEST
# MANIFEST lines, run in order (fields separated by TAB):
#   LOAD <pack path>                -> "LOAD <pack> true|false" (load_resource_pack)
#   PRESENT <res path> <source>     -> "OK ..." when the file exists and its bytes equal the
#                                      source file's, else "BAD ..."
#   ABSENT <res path>               -> "OK ..." when no such file, else "BAD ..."
extends SceneTree

func _init():
	var manifest = FileAccess.get_file_as_string(OS.get_cmdline_user_args()[0])
	for line in manifest.split("\n", false):
		var f = line.split("\t")
		match f[0]:
			"LOAD":
				print("LOAD ", f[1], " ", ProjectSettings.load_resource_pack(f[1]))
			"PRESENT":
				var want = FileAccess.get_file_as_bytes(f[2])
				var got = FileAccess.get_file_as_bytes(f[1]) if FileAccess.file_exists(f[1]) else null
				print("OK " if got == want else "BAD ", line, " ", -1 if got == null else got.size())
			"ABSENT":
				print("OK " if not FileAccess.file_exists(f[1]) else "BAD ", line)
	print("DONE")
	quit(0)
