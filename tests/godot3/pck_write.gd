# Writes source files and resource packs of them with Godot 3's PCKPacker (format 1), for
# tests/suite/pck_live.rs. Usage: godot3-server --no-window -s pck_write.gd -- OUT_DIR
extends SceneTree

# The shared harness, copied into the project (user_args).
const H = preload("res://harness.gd")

const NAMES = ["hello.txt", "data/level.bin", "empty.txt", "données/é.txt", "big.bin"]

func content(i):
	var b = PoolByteArray()
	match i:
		0:
			b = "hello".to_utf8()
		1:
			b.resize(5000)
			for j in 5000:
				b[j] = (j * 7 + 3) % 256
		3:
			b = "ünïcödé".to_utf8()
		4:
			b.resize(70000)
			for j in 70000:
				b[j] = (j * j + 1) % 251
	return b

func pack(out, name, alignment):
	var p = PCKPacker.new()
	var err = p.pck_start(out + "/" + name + ".pck", alignment)
	for i in NAMES.size():
		err = err | p.add_file("res://" + NAMES[i], out + "/src_%d" % i)
	err = err | p.flush()
	print("PACK ", name, " ", err)

func _init():
	var out = H.user_args()[0]
	for i in NAMES.size():
		var f = File.new()
		f.open(out + "/src_%d" % i, File.WRITE)
		f.store_buffer(content(i))
		f.close()
	pack(out, "a0", 0)
	pack(out, "a32", 32)
	quit(0)
