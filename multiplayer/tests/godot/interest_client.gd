extends SceneTree
# A stock Godot 4 client of a Rust server with interest management: World/Spawner
# (MultiplayerSpawner into World/Players, configured by the generated res://replication.gd).
# The server spawns and despawns nodes here as they enter and leave this client's radius.
# Argument: port. Prints "ID <unique id>" once connected, "SPAWNED <name> <position>" and
# "DESPAWNED <name>" as they happen, and on the server's "done" RAW packet "HAS <names>" (the
# children of World/Players, sorted), then quits 0 (1 on timeout).

const H = preload("res://harness.gd")
const World = preload("res://replication_world.gd")

var mp := SceneMultiplayer.new()
var players: Node

func _initialize() -> void:
	var spawner := World.build(root, func(_data): return World.make_player())
	players = spawner.get_node(spawner.spawn_path)
	spawner.spawned.connect(func(n): print("SPAWNED ", n.name, " ", n.position))
	spawner.despawned.connect(func(n): print("DESPAWNED ", n.name))
	mp.connected_to_server.connect(func(): print("ID ", mp.get_unique_id()))
	mp.peer_packet.connect(_on_packet)
	set_multiplayer(mp)
	if not H.start_peer(mp, H.int_arg(0)):
		quit(1)

func _on_packet(_id: int, data: PackedByteArray) -> void:
	if data.get_string_from_utf8() == "done":
		var names := PackedStringArray()
		for p in players.get_children():
			names.append(str(p.name))
		names.sort()
		print("HAS ", ",".join(names))
		quit(0)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > 40000:
		print("TIMEOUT")
		quit(1)
	return false
