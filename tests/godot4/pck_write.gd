# Writes source files and resource packs of them with Godot 4's PCKPacker, for
# tests/suite/pck_live.rs. Usage: godot --headless --path P -s res://pck_write.gd -- OUT_DIR
# Sources: OUT_DIR/src_<i> for the i-th of names(); packs: OUT_DIR/<pack>.pck.
extends SceneTree

const NAMES = ["hello.txt", "data/level.bin", "empty.txt", "données/é.txt", "big.bin"]

# Byte i of the key is (7i + 1) mod 256, as hex (what pck_start takes).
func key_hex():
	var k = PackedByteArray()
	k.resize(32)
	for i in 32:
		k[i] = (i * 7 + 1) % 256
	return k.hex_encode()

func content(i):
	var b = PackedByteArray()
	match i:
		0:
			b = "hello".to_utf8_buffer()
		1:
			b.resize(5000)
			for j in 5000:
				b[j] = (j * 7 + 3) % 256
		2:
			pass
		3:
			b = "ünïcödé".to_utf8_buffer()
		4:
			b.resize(70000)
			for j in 70000:
				b[j] = (j * j + 1) % 251
	return b

func pack(out, name, alignment, key, encrypt_dir, encrypt_files, removal):
	var p = PCKPacker.new()
	var err = p.pck_start(out + "/" + name + ".pck", alignment, key, encrypt_dir)
	for i in NAMES.size():
		err = err | p.add_file("res://" + NAMES[i], out + "/src_%d" % i, encrypt_files)
	if removal:
		err = err | p.add_file_removal("res://gone.txt")
	err = err | p.flush()
	print("PACK ", name, " ", err)

func _init():
	var out = OS.get_cmdline_user_args()[0]
	for i in NAMES.size():
		var f = FileAccess.open(out + "/src_%d" % i, FileAccess.WRITE)
		f.store_buffer(content(i))
		f.close()
	var zero = "0".repeat(64)
	pack(out, "a32", 32, zero, false, false, true)
	pack(out, "a4096", 4096, zero, false, false, false)
	pack(out, "a1", 1, zero, false, false, false)
	pack(out, "enc_dir", 32, key_hex(), true, true, true)
	pack(out, "enc_files", 16, key_hex(), false, true, false)
	pack(out, "zero_key", 32, zero, true, true, false)
	# Alignment 0 is refused (ERR_CANT_CREATE = 20).
	print("ALIGN0 ", PCKPacker.new().pck_start(out + "/a0.pck", 0))
	quit(0)
