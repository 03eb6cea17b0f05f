# Writes the engine samples the CLI tests read (cli/tests/suite/godot3_engine.rs), into the directory
# given after `--`:
#   save.dat    File.store_var of each value (a Godot 3 save file)
#   stream.bin  StreamPeerBuffer.put_var of each value (what a StreamPeerTCP sends)
#   base64.txt  Marshalls.variant_to_base64 of the last value
#   raw.bin     var2bytes of the last value
#   text.txt    var2str of each value, one after another, each followed by a newline
# No NodePath: Godot leaves its padding bytes unwritten (they would change from run to run).
extends SceneTree

func values():
	return [
		{"level": 3, "name": "Ada", "alive": true},
		[1, -2, 2147483648, 0.5, "text", null],
		Vector2(12.5, -3),
		{"pos": Vector3(1, 2, 3), "color": Color(1, 0.5, 0, 1), "rot": Quat(0, 0, 0, 1)},
		PoolIntArray([10, 20, 30]),
		PoolStringArray(["hero", "mage"]),
		{"inventory": [{"item": "potion", "count": 3}], "xform": Transform2D(0.5, Vector2(4, 5))},
	]

# The shared harness, relative to this script.
const H = preload("../../../test-support/gdscript/godot3/harness.gd")

func _init():
	var lib = H.new()
	var dir = lib.user_args()[0]
	var vs = values()
	var f = File.new()
	if f.open(dir + "/save.dat", File.WRITE) != OK:
		printerr("cannot open save.dat")
		quit(1)
		return
	for v in vs:
		f.store_var(v)
	f.close()
	var peer = StreamPeerBuffer.new()
	for v in vs:
		peer.put_var(v)
	var text = ""
	for v in vs:
		text += var2str(v) + "\n"
	var last = vs[vs.size() - 1]
	var files = {
		"stream.bin": peer.data_array,
		"text.txt": text.to_utf8(),
		"raw.bin": var2bytes(last),
		"base64.txt": Marshalls.variant_to_base64(last).to_utf8(),
	}
	for name in files:
		if not lib.write_bytes(dir + "/" + name, files[name]):
			printerr("cannot open ", name)
			quit(1)
			return
	print("SAMPLES OK")
	quit(0)
