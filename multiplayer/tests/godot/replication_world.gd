extends RefCounted
# What replication_client.gd and replication_server.gd share: the player and the
# World/Players + World/Spawner tree, configured by the generated res://replication.gd.

const Rep = preload("res://replication.gd")

# A player: a Node2D with its "Sync" synchronizer (the player config), packable.
static func make_player() -> Node2D:
	var p := Node2D.new()
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	Rep.configure_player(sync)
	p.add_child(sync)
	sync.owner = p
	sync.root_path = NodePath("..")
	return p

# The player of a custom spawn: `make_player()` with an "Input" synchronizer (the input
# config) whose authority is peer `owner`.
static func make_custom(owner: int) -> Node2D:
	var p := make_player()
	var input := MultiplayerSynchronizer.new()
	input.name = "Input"
	Rep.configure_input(input)
	input.set_multiplayer_authority(owner)
	p.add_child(input)
	input.root_path = NodePath("..")
	return p

# Saves the player as the spawnable scene res://player.tscn, then adds World (Players and
# Spawner, spawning into Players with `spawn_function` for custom spawns) under `root`.
# Returns the spawner.
static func build(root: Node, spawn_function: Callable) -> MultiplayerSpawner:
	var packed := PackedScene.new()
	packed.pack(make_player())
	ResourceSaver.save(packed, "res://player.tscn")
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
	Rep.configure_players(spawner)
	spawner.spawn_function = spawn_function
	return spawner
