# Loads resource packs written by godot_serde and checks their files (Godot 3), for
# tests/suite/pck_live.rs. Usage: godot3-server --no-window -s pck_read.gd -- MANIFEST
# The manifest is pck_read.gd's of tests/godot4 (LOAD, PRESENT, ABSENT lines).
extends SceneTree

func bytes_of(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return null
	var b = f.get_buffer(f.get_len())
	f.close()
	return b

# The arguments after `--` (Godot 3.2 has no OS.get_cmdline_user_args).
func user_args():
	var out = []
	var seen = false
	for a in OS.get_cmdline_args():
		if seen:
			out.append(a)
		elif a == "--":
			seen = true
	return out

func _init():
	var m = File.new()
	m.open(user_args()[0], File.READ)
	var manifest = m.get_as_text()
	m.close()
	var file = File.new()
	for line in manifest.split("\n", false):
		var f = line.split("\t")
		match f[0]:
			"LOAD":
				print("LOAD ", f[1], " ", ProjectSettings.load_resource_pack(f[1]))
			"PRESENT":
				var want = bytes_of(f[2])
				var got = bytes_of(f[1]) if file.file_exists(f[1]) else null
				print("OK " if got != null and Marshalls.raw_to_base64(got) == Marshalls.raw_to_base64(want) else "BAD ", line, " ", -1 if got == null else got.size())
			"ABSENT":
				print("OK " if not file.file_exists(f[1]) else "BAD ", line)
	print("DONE")
	quit(0)
