# Reads the container files tests/suite/containers_live.rs wrote and compares their values with
# the expected ones in the engine (through var_to_str). Prints `CASE name ok|FAIL detail`
# and `VERDICT name error_code` for files that must be refused.
# Usage: godot --headless --path P -s res://container_read.gd -- IN_DIR
extends SceneTree

const W = preload("res://container_write.gd")

var fails = 0

func check(name, got, want):
	if var_to_str(got) == var_to_str(want):
		print("CASE ", name, " ok")
	else:
		fails += 1
		print("CASE ", name, " FAIL got ", var_to_str(got).left(200))

func read_all(name, f):
	if f == null:
		fails += 1
		print("CASE ", name, " FAIL open error ", FileAccess.get_open_error())
		return
	var got = []
	while f.get_position() < f.get_length():
		got.append(f.get_var())
	check(name, got, W.new().values())

func _init():
	var dir = OS.get_cmdline_user_args()[0]
	var w = W.new()
	for m in 4:
		read_all("save_c%d" % m, FileAccess.open_compressed(dir + "/save_c%d.bin" % m, FileAccess.READ, m))
		var raw = FileAccess.get_file_as_bytes(dir + "/raw_c%d.bin" % m)
		var want = w.values()[4].to_utf8_buffer()
		check("raw_c%d" % m, raw.decompress(want.size(), m).get_string_from_utf8(), w.values()[4])
	read_all("save_pw", FileAccess.open_encrypted_with_pass(dir + "/save_pw.bin", FileAccess.READ, "secret"))
	read_all("save_key", FileAccess.open_encrypted(dir + "/save_key.bin", FileAccess.READ, w.key()))
	for name in ["cfg_pw", "cfg_key"]:
		var cf = ConfigFile.new()
		var err
		if name == "cfg_pw":
			err = cf.load_encrypted_pass(dir + "/cfg_pw.cfg", "secret")
		else:
			err = cf.load_encrypted(dir + "/cfg_key.cfg", w.key())
		var want = w.config()
		var got = {}
		var wanted = {}
		for s in want.get_sections():
			for k in want.get_section_keys(s):
				wanted[s + "/" + k] = want.get_value(s, k)
				got[s + "/" + k] = cf.get_value(s, k) if err == OK else null
		check(name, got, wanted)
	# Files that must be refused: the engine's verdict, compared in Rust with ours.
	var f = FileAccess.open_encrypted_with_pass(dir + "/save_pw.bin", FileAccess.READ, "wrong")
	print("VERDICT wrong_password ", FileAccess.get_open_error() if f == null else 0)
	f = FileAccess.open_encrypted_with_pass(dir + "/corrupt_enc.bin", FileAccess.READ, "secret")
	print("VERDICT corrupt_encrypted ", FileAccess.get_open_error() if f == null else 0)
	f = FileAccess.open_compressed(dir + "/corrupt_deflate.bin", FileAccess.READ, 1)
	print("VERDICT corrupt_deflate ", FileAccess.get_open_error() if f == null else 0)
	var cf = ConfigFile.new()
	print("VERDICT wrong_password_cfg ", cf.load_encrypted_pass(dir + "/cfg_pw.cfg", "wrong"))
	print("SUMMARY fails=", fails)
	quit(1 if fails > 0 else 0)
