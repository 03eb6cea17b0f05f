extends SceneTree
# The load benchmark's sync scenario, Godot side: an ENet server with M spawned objects under
# World/Players (each a Node2D with a MultiplayerSynchronizer configured by the generated
# res://replication.gd), at 30 network frames a second: every object moves each frame and
# turns every 10th frame; the multiplayer poll (receive, spawn, SYNC, delta SYNC, send) is
# timed. Arguments: port seconds M. Prints "TICKS <n> <total µs in poll>" (and writes it to
# res://ticks.txt). The objects enter the tree on the first frame: adding them in
# _initialize crashes this engine build.

const Rep = preload("res://replication.gd")

var mp := SceneMultiplayer.new()
var objects: Array[Node2D] = []
var ticks := 0
var busy_us := 0
var frame := 0

func make_object() -> Node2D:
	var p := Node2D.new()
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	Rep.configure_object(sync)
	p.add_child(sync)
	sync.owner = p
	sync.root_path = NodePath("..")
	return p

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var m := int(args[2])
	Engine.max_fps = 30
	multiplayer_poll = false
	var packed := PackedScene.new()
	packed.pack(make_object())
	ResourceSaver.save(packed, "res://object.tscn")
	packed = load("res://object.tscn")
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	var players := Node.new()
	players.name = "Players"
	world.add_child(players)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Players")
	Rep.configure_objects(spawner)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	var err := peer.create_server(int(args[0]), 256)
	if err != OK:
		print("FAILED ", err)
		quit(1)
		return
	mp.multiplayer_peer = peer
	print("READY")
	await process_frame
	for i in m:
		var o: Node2D = packed.instantiate()
		o.name = "O%d" % i
		players.add_child(o, true)
		objects.append(o)
	await create_timer(float(args[1])).timeout
	# Also to a file: the engine may crash while freeing the tree at exit, before stdout is
	# flushed.
	var f := FileAccess.open("res://ticks.txt", FileAccess.WRITE)
	f.store_string("TICKS %d %d\n" % [ticks, busy_us])
	f.close()
	print("TICKS ", ticks, " ", busy_us)
	quit(0)

func _process(_delta: float) -> bool:
	frame += 1
	for i in objects.size():
		objects[i].position = Vector2(frame + i, i)
		if frame % 10 == 0:
			objects[i].rotation = frame * 0.01
	var t0 := Time.get_ticks_usec()
	mp.poll()
	busy_us += Time.get_ticks_usec() - t0
	if mp.get_peers().size() > 0:
		ticks += 1
	return false
