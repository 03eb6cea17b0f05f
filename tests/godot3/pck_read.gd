# Loads resource packs written by godot_serde and checks their files (Godot 3), for
# tests/suite/pck_live.rs. Usage: godot3-server --no-window -s pck_read.gd -- MANIFEST
# The manifest is pck_read.gd's of tests/godot4 (LOAD, PRESENT, ABSENT lines).
extends SceneTree

# The shared harness, copied into the project (user_args, read_bytes, read_text).
const H = preload("res://harness.gd")

func _init():
	var h = H.new()
	var manifest = h.read_text(H.user_args()[0])
	var file = File.new()
	for line in manifest.split("\n", false):
		var f = line.split("\t")
		match f[0]:
			"LOAD":
				print("LOAD ", f[1], " ", ProjectSettings.load_resource_pack(f[1]))
			"PRESENT":
				var want = h.read_bytes(f[2])
				var got = h.read_bytes(f[1]) if file.file_exists(f[1]) else null
				print("OK " if got != null and Marshalls.raw_to_base64(got) == Marshalls.raw_to_base64(want) else "BAD ", line, " ", -1 if got == null else got.size())
			"ABSENT":
				print("OK " if not file.file_exists(f[1]) else "BAD ", line)
	print("DONE")
	quit(0)
