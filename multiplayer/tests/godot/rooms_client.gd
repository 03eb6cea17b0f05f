extends SceneTree
# A stock Godot 4 client of the Rust rooms server (tests/suite/live_rooms.rs). Arguments:
# port, name. It builds /root/Chat (rooms_chat.gd) and World/Spawner (a MultiplayerSpawner of
# res://thing.tscn into World/Things; World/Extra the same into World/Extras), joins, and prints what it sees: "ID", "SPAWNED",
# "DESPAWNED", "SAID from text", "PEER+ id", "PEER- id". What it says:
# - "cat" says "/move 2" on joining (its room moves it);
# - on its first spawn, "hello from NAME" (but "cat", which is moved at once);
# - on a spawn after a despawn (it was moved), "moved NAME".
# Quits 0 on the server's RAW "done" (1 after 40 s).

const H = preload("res://harness.gd")
const Chat = preload("res://rooms_chat.gd")

var mp := SceneMultiplayer.new()
var me := ""
var chat: Node
var spawns := 0
var despawns := 0

# A spawner `name` of res://thing.tscn under `world`, spawning into its sibling `into`.
func add_spawner(world: Node, name: String, into: String) -> MultiplayerSpawner:
	var holder := Node.new()
	holder.name = into
	world.add_child(holder)
	var spawner := MultiplayerSpawner.new()
	spawner.name = name
	world.add_child(spawner)
	spawner.spawn_path = NodePath("../" + into)
	spawner.add_spawnable_scene("res://thing.tscn")
	return spawner

func _initialize() -> void:
	me = OS.get_cmdline_user_args()[1]
	chat = Chat.new()
	chat.name = "Chat"
	root.add_child(chat)
	chat.heard.connect(func(from, text): print("SAID ", from, " ", text))
	var thing := Node2D.new()
	var packed := PackedScene.new()
	packed.pack(thing)
	ResourceSaver.save(packed, "res://thing.tscn")
	var world := Node.new()
	world.name = "World"
	root.add_child(world)
	var spawner := add_spawner(world, "Spawner", "Things")
	spawner.spawned.connect(_on_spawned)
	spawner.despawned.connect(func(n):
		despawns += 1
		print("DESPAWNED ", n.name))
	# Room A's first spawner: its path-cache id is A's first, another path than B's first.
	var extra := add_spawner(world, "Extra", "Extras")
	extra.spawned.connect(func(n): print("SPAWNED ", n.name))
	extra.despawned.connect(func(n): print("DESPAWNED ", n.name))
	mp.peer_connected.connect(func(id): print("PEER+ ", id))
	mp.peer_disconnected.connect(func(id): print("PEER- ", id))
	mp.connected_to_server.connect(_on_connected)
	mp.peer_packet.connect(func(_id, data):
		if data.get_string_from_utf8() == "done":
			print("DONE")
			quit(0))
	set_multiplayer(mp)
	if not H.start_peer(mp, H.int_arg(0)):
		quit(1)

func _on_connected() -> void:
	print("ID ", mp.get_unique_id())
	if me == "cat":
		chat.rpc_id(1, "say", "/move 2")

func _on_spawned(n: Node) -> void:
	spawns += 1
	print("SPAWNED ", n.name)
	if spawns == 1 and me != "cat":
		chat.rpc_id(1, "say", "hello from " + me)
	elif despawns > 0:
		chat.rpc_id(1, "say", "moved " + me)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > 40000:
		print("TIMEOUT")
		quit(1)
	return false
