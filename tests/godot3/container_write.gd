# Writes the container files of tests/suite/containers_live.rs with Godot 3's own APIs.
# Usage: godot3-server --no-window --path P -s /abs/container_write.gd -- OUT_DIR
extends SceneTree

func values():
	var big = ""
	for i in 1000:
		big += "godot_serde "
	return [42, "hero", [1, 2.5, "x"], {"hp": 10, "pos": Vector2(1, 2)}, big]

func key():
	var k = PoolByteArray()
	k.resize(32)
	for i in 32:
		k[i] = (i * 7 + 1) % 256
	return k

func store_all(f, err):
	if err != OK:
		print("OPEN FAILED ", err)
		return
	for v in values():
		f.store_var(v)
	f.close()

func config():
	var cf = ConfigFile.new()
	cf.set_value("player", "name", "hero")
	cf.set_value("player", "hp", 10)
	cf.set_value("world", "pos", Vector2(1, 2))
	return cf

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

func _init():
	var out = H.new().user_args()[0]
	for m in 4:
		var f = File.new()
		store_all(f, f.open_compressed(out + "/save_c%d.bin" % m, File.WRITE, m))
		var raw = File.new()
		raw.open(out + "/raw_c%d.bin" % m, File.WRITE)
		raw.store_buffer(values()[4].to_utf8().compress(m))
		raw.close()
	var f = File.new()
	store_all(f, f.open_encrypted_with_pass(out + "/save_pw.bin", File.WRITE, "secret"))
	f = File.new()
	store_all(f, f.open_encrypted(out + "/save_key.bin", File.WRITE, key()))
	var cf = config()
	var e1 = cf.save_encrypted_pass(out + "/cfg_pw.cfg", "secret")
	var e2 = cf.save_encrypted(out + "/cfg_key.cfg", key())
	print("WROTE ", e1, " ", e2)
	quit(0)
