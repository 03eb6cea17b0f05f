extends SceneTree
# A Godot 4 server doing what the Rust server does in tests/suite/live_replication.rs, so the test can
# compare the engine's bytes with ours: on the first peer, spawn Alice (the spawnable scene) and
# Bob (a custom spawn with {"owner": id}); then per frame f: Alice moves for f <= 3, turns at
# f == 2; Bob is freed at f == 5, Alice at f == 7; RAW "done" at f == 9. Argument: port.

const Rep = preload("res://replication.gd")

var mp := SceneMultiplayer.new()
var players: Node
var spawner: MultiplayerSpawner
var packed := PackedScene.new()
var alice: Node2D
var bob: Node2D
var client := 0
var f := -1

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
	packed.pack(make_player())
	ResourceSaver.save(packed, "res://player.tscn")
	packed = load("res://player.tscn")
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	players = Node.new()
	players.name = "Players"
	world.add_child(players)
	spawner = MultiplayerSpawner.new()
	spawner.name = "Spawner"
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Players")
	Rep.configure_players(spawner)
	spawner.spawn_function = func(data):
		var p := make_player()
		p.name = "Bob"
		p.position = Vector2(3, 4)
		p.z_index = 1
		var input := MultiplayerSynchronizer.new()
		input.name = "Input"
		Rep.configure_input(input)
		input.set_multiplayer_authority(int(data["owner"]))
		p.add_child(input)
		input.root_path = NodePath("..")
		return p
	var peer := ENetMultiplayerPeer.new()
	peer.create_server(port, 4)
	mp.multiplayer_peer = peer
	mp.peer_connected.connect(_on_peer_connected)
	set_multiplayer(mp)
	print("LISTENING")

func _on_peer_connected(id: int) -> void:
	if client != 0:
		return
	client = id
	f = 0
	alice = packed.instantiate()
	alice.name = "Alice"
	alice.position = Vector2(1, 2)
	alice.rotation = 0.5
	alice.z_index = 7
	players.add_child(alice, true)
	bob = spawner.spawn({"owner": id})

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > 30000:
		print("TIMEOUT")
		quit(1)
	if client == 0:
		return false
	f += 1
	if f <= 3:
		alice.position = Vector2(1 + f, 2)
	if f == 2:
		alice.rotation = 1.25
	if f == 5:
		bob.queue_free()
	if f == 7:
		alice.queue_free()
	if f == 9:
		mp.send_bytes("done".to_utf8_buffer(), client)
	if f == 30:
		print("QUIT")
		quit(0)
	return false
