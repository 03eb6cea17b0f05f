# Writes examples/data/godot3_save.dat with a real Godot 3 engine: four values stored with
# File.store_var, as a Godot 3 game's save code would.
#
#   . scripts/godot3-env.sh && godot3_run "$PWD/examples/data/make_godot3_save.gd" "$PWD/examples/data/godot3_save.dat"
extends SceneTree

func _init():
	var args = OS.get_cmdline_args()
	var out = args[args.size() - 1]
	var owner = Reference.new()
	var values = [
		{"version": 3, "game": "demo", "saved_at": 1700000000},
		{
			"name": "Ada",
			"position": Vector2(12.5, -3),
			"transform": Transform(Basis(Vector3(0, 1, 0), 0.5), Vector3(1, 2, 3)),
			"inventory": [{"item": "potion", "count": 3}, {"item": "sword", "count": 1}],
			"color": Color(1, 0.5, 0, 1),
			"tags": PoolStringArray(["hero", "mage"]),
			"scores": PoolIntArray([10, 20, 30]),
			"path": NodePath("World/Player:position"),
		},
		{
			"seed": 42,
			"chunks": PoolVector3Array([Vector3(0, 0, 0), Vector3(16, 0, 16)]),
			"rotation": Quat(0, 0, 0, 1),
			"bounds": AABB(Vector3(-1, -1, -1), Vector3(2, 2, 2)),
			"navmesh": RID(),
			"owner": owner,
		},
		"end",
	]
	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		printerr("cannot open ", out)
		quit(1)
		return
	for v in values:
		f.store_var(v)
	f.close()
	print("wrote ", out)
	quit(0)
