extends SceneTree
# A stock Godot 4 client of the Rust replication server: World/Spawner (MultiplayerSpawner,
# spawning under World/Players; its spawnable list and the player's SceneReplicationConfig come
# from res://replication.gd, generated from the Rust declarations). A custom spawn's data is
# a Dictionary {"owner": peer id}: the node gets an "Input" synchronizer (of its `skew`) owned by
# that peer, which this client writes. Argument: port.
# Prints "SPAWNED", "STATE", "DESPAWNED", "COUNT" lines for the test; quits 0 after the server's
# "done" RAW packet (1 on timeout).

const H = preload("res://harness.gd")
const World = preload("res://replication_world.gd")

var mp := SceneMultiplayer.new()
var players: Node
var frames := 0
var last := {}
var syncs := 0
var deltas := 0

func _initialize() -> void:
	var spawner := World.build(root, func(data):
		var p := World.make_custom(int(data["owner"]))
		p.set_meta("custom", data)
		return p)
	players = spawner.get_node(spawner.spawn_path)
	spawner.spawned.connect(_on_spawned)
	spawner.despawned.connect(func(n): print("DESPAWNED ", n.name))

	mp.peer_packet.connect(_on_packet)
	set_multiplayer(mp)
	if not H.start_peer(mp, H.int_arg(0)):
		quit(1)

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
