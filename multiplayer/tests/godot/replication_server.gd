extends SceneTree
# A Godot 4 server doing what the Rust server does in tests/suite/live_replication.rs, so the test can
# compare the engine's bytes with ours: on the first peer, spawn Alice (the spawnable scene) and
# Bob (a custom spawn with {"owner": id}); then per frame f: Alice moves for f <= 3, turns at
# f == 2; Bob is freed at f == 5, Alice at f == 7; RAW "done" at f == 9. Argument: port.

const H = preload("res://harness.gd")
const World = preload("res://replication_world.gd")

var mp := SceneMultiplayer.new()
var players: Node
var spawner: MultiplayerSpawner
var packed: PackedScene
var alice: Node2D
var bob: Node2D
var client := 0
var f := -1

func _initialize() -> void:
	spawner = World.build(root, func(data):
		var p := World.make_custom(int(data["owner"]))
		p.name = "Bob"
		p.position = Vector2(3, 4)
		p.z_index = 1
		return p)
	players = spawner.get_node(spawner.spawn_path)
	packed = load("res://player.tscn")
	mp.peer_connected.connect(_on_peer_connected)
	set_multiplayer(mp)
	if not H.start_peer(mp, H.int_arg(0), "enet", 4):
		quit(1)
		return
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
