# Reads the container files tests/suite/containers_live.rs wrote and compares their values with
# the expected ones in the engine (through var2str). Prints `CASE name ok|FAIL detail` and
# `VERDICT name error_code` for files that must be refused.
# Usage: godot3-server --no-window --path P -s /abs/container_read.gd -- IN_DIR
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")
var W = load(get_script().resource_path.get_base_dir() + "/container_write.gd")
var fails = 0

func check(name, got, want):
	if var2str(got) == var2str(want):
		print("CASE ", name, " ok")
	else:
		fails += 1
		print("CASE ", name, " FAIL got ", var2str(got).left(200))

func read_all(name, f, err):
	if err != OK:
		fails += 1
		print("CASE ", name, " FAIL open error ", err)
		return
	var got = []
	while f.get_position() < f.get_len():
		got.append(f.get_var())
	f.close()
	check(name, got, W.new().values())

func _init():
	var w = W.new()
	var dir = H.new().user_args()[0]
	for m in 4:
		var f = File.new()
		read_all("save_c%d" % m, f, f.open_compressed(dir + "/save_c%d.bin" % m, File.READ, m))
		var raw = File.new()
		raw.open(dir + "/raw_c%d.bin" % m, File.READ)
		var bytes = raw.get_buffer(raw.get_len())
		raw.close()
		var want = w.values()[4].to_utf8()
		check("raw_c%d" % m, bytes.decompress(want.size(), m).get_string_from_utf8(), w.values()[4])
	var f = File.new()
	read_all("save_pw", f, f.open_encrypted_with_pass(dir + "/save_pw.bin", File.READ, "secret"))
	f = File.new()
	read_all("save_key", f, f.open_encrypted(dir + "/save_key.bin", File.READ, w.key()))
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
	f = File.new()
	print("VERDICT wrong_password ", f.open_encrypted_with_pass(dir + "/save_pw.bin", File.READ, "wrong"))
	f = File.new()
	print("VERDICT corrupt_encrypted ", f.open_encrypted_with_pass(dir + "/corrupt_enc.bin", File.READ, "secret"))
	f = File.new()
	print("VERDICT corrupt_deflate ", f.open_compressed(dir + "/corrupt_deflate.bin", File.READ, 1))
	var cf = ConfigFile.new()
	print("VERDICT wrong_password_cfg ", cf.load_encrypted_pass(dir + "/cfg_pw.cfg", "wrong"))
	print("SUMMARY fails=", fails)
	quit(1 if fails > 0 else 0)
