extends SceneTree
# benches/scale.rs's Godot 4 server: the game the crate's server runs there, in one world.
# A Game node (scale_game.gd) takes each peer's input(x, y, stamp) and moves the peer's unit;
# World/Spawner (the generated res://replication.gd: spawner "units", synchronizer "unit",
# position and stamp synchronized every frame) spawns a unit "P<id>" per peer, at 20 frames a
# second; each unit's synchronizer has a visibility filter by distance (scale_game.gd), which
# the engine evaluates for every peer on every frame (update_visibility). Relay off.
# Arguments: port side radius seconds. Prints "READY", then "PEERS n" when it quits.

const H = preload("res://harness.gd")
const Rep = preload("res://replication.gd")

var mp := SceneMultiplayer.new()
var game: Node
var players: Node
var packed: PackedScene
var side := 100.0

func make_unit() -> Node2D:
	var u: Node2D = load("res://scale_unit.gd").new()
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	Rep.configure_unit(sync)
	u.add_child(sync)
	sync.owner = u
	sync.root_path = NodePath("..")
	return u

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	side = float(args[1])
	Engine.max_fps = 20
	mp.server_relay = false
	var scene := PackedScene.new()
	scene.pack(make_unit())
	ResourceSaver.save(scene, "res://scale_unit.tscn")
	packed = load("res://scale_unit.tscn")
	game = H.add_node(root, "res://scale_game.gd", "Game")
	game.radius = float(args[2])
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	players = Node.new()
	players.name = "Players"
	world.add_child(players)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../Players")
	Rep.configure_units(spawner)
	mp.peer_connected.connect(_on_peer_connected)
	mp.peer_disconnected.connect(_on_peer_disconnected)
	set_multiplayer(mp)
	if not H.start_peer(mp, int(args[0]), "enet", 4000):
		quit(1)
		return
	print("READY")
	await create_timer(float(args[3])).timeout
	print("PEERS ", mp.get_peers().size())
	quit(0)

func _on_peer_connected(id: int) -> void:
	var u: Node2D = packed.instantiate()
	u.name = "P%d" % id
	# Where the crate's server puts a new peer's unit (benches/scale.rs, `start_at`).
	u.position = Vector2(fmod(id * 0.6180339887, 1.0) * side, fmod(id * 0.7548776662, 1.0) * side)
	u.get_node("Sync").add_visibility_filter(game.sees.bind(u))
	game.units[id] = u
	players.add_child(u, true)

func _on_peer_disconnected(id: int) -> void:
	var u = game.units.get(id)
	game.units.erase(id)
	if u != null:
		u.queue_free()
