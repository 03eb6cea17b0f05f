extends SceneTree
# A stock Godot 4 client of the Rust replication server: World/Spawner (MultiplayerSpawner,
# spawning under World/Players; its spawnable list and the player's SceneReplicationConfig come
# from res://replication.gd, generated from the Rust declarations). A custom spawn's data is
# a Dictionary {"owner": peer id}: the node gets an "Input" synchronizer (of its `skew`) owned by
# that peer, which this client writes. Argument: port.
# Prints "SPAWNED", "STATE", "DESPAWNED", "COUNT" lines for the test; quits 0 after the server's
# "done" RAW packet (1 on timeout).

const Rep = preload("res://replication.gd")

var mp := SceneMultiplayer.new()
var world: Node
var players: Node
var frames := 0
var last := {}
var syncs := 0
var deltas := 0

func make_player() -> Node2D:
	var p := Node2D.new()
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	Rep.configure_player(sync)
	p.add_child(sync)
	sync.owner = p
	sync.root_path = NodePath("..")
	return p

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	# The spawnable scene, saved into the project so the spawner can list it.
	var packed := PackedScene.new()
	packed.pack(make_player())
	ResourceSaver.save(packed, "res://player.tscn")

	world = Node.new()
	world.name = "World"
	root.add_child(world)
	players = Node.new()
	players.name = "Players"
	world.add_child(players)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Players")
	Rep.configure_players(spawner)
	spawner.spawn_function = func(data):
		var p := make_player()
		p.set_meta("custom", data)
		var input := MultiplayerSynchronizer.new()
		input.name = "Input"
		Rep.configure_input(input)
		input.set_multiplayer_authority(int(data["owner"]))
		p.add_child(input)
		input.root_path = NodePath("..")
		return p
	spawner.spawned.connect(_on_spawned)
	spawner.despawned.connect(func(n): print("DESPAWNED ", n.name))

	var peer := ENetMultiplayerPeer.new()
	peer.create_client("127.0.0.1", port)
	mp.multiplayer_peer = peer
	mp.peer_packet.connect(_on_packet)
	set_multiplayer(mp)

func _on_spawned(n: Node) -> void:
	var how := "custom " + JSON.stringify(n.get_meta("custom")) if n.has_meta("custom") else "scene"
	print("SPAWNED ", n.name, " ", how, " ", n.position, " ", n.rotation, " ", n.z_index)
	var sync: MultiplayerSynchronizer = n.get_node("Sync")
	sync.synchronized.connect(func(): syncs += 1)
	sync.delta_synchronized.connect(func(): deltas += 1)

func _on_packet(_id: int, data: PackedByteArray) -> void:
	if data.get_string_from_utf8() == "done":
		print("COUNT synchronized ", syncs, " delta_synchronized ", deltas)
		quit(0)

func _process(_delta: float) -> bool:
	frames += 1
	for p in players.get_children():
		var now := [p.position, p.rotation, p.z_index]
		if last.get(p.name) != now:
			last[p.name] = now
			print("STATE ", p.name, " ", p.position, " ", p.rotation, " ", p.z_index)
		if p.has_node("Input") and p.get_node("Input").is_multiplayer_authority():
			p.skew = 0.25
	if Time.get_ticks_msec() > 30000:
		print("TIMEOUT")
		quit(1)
	return false
