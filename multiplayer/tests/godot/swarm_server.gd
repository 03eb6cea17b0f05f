extends SceneTree
# The bot swarm's Godot 4 server (tests/suite/live_swarm.rs), what the Rust server in that test
# does too: a Swarm node (swarm_node.gd) answering echo(seq), and World/Spawner with M objects
# (the generated res://replication.gd: spawner "objects", synchronizer "object", position
# synchronized every network frame) moving each frame, at 30 frames a second (or `fps`; 0: as
# fast as it runs, benches/swarm.rs). With a secret, peers authenticate with it
# (auth_callback); relay 0 turns server_relay off. Arguments: port seconds M
# transport(enet|ws) [secret [fps [relay]]]. Prints
# "PEERS n" at each join, then "MAX_PEERS n", "CALLS n", "AUTH_FAILED n".

const H = preload("res://harness.gd")
const Rep = preload("res://replication.gd")

var mp := SceneMultiplayer.new()
var node: Node
var players: Node
var packed: PackedScene
var objects: Array[Node2D] = []
var m := 0
var frame := 0
var max_peers := 0
var auth_failed := 0
var secret := ""

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
	m = int(args[2])
	if args.size() > 4:
		secret = args[4]
	Engine.max_fps = int(args[5]) if args.size() > 5 else 30
	if args.size() > 6:
		mp.server_relay = args[6] != "0"
	var scene := PackedScene.new()
	scene.pack(make_object())
	ResourceSaver.save(scene, "res://object.tscn")
	packed = load("res://object.tscn")
	node = H.add_node(root, "res://swarm_node.gd", "Swarm")
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
	Rep.configure_objects(spawner)
	if secret != "":
		mp.auth_callback = _on_auth
		mp.peer_authentication_failed.connect(func(_id): auth_failed += 1)
	mp.peer_connected.connect(_on_peer_connected)
	set_multiplayer(mp)
	if not H.start_peer(mp, int(args[0]), args[3], 4000):
		quit(1)
		return
	print("READY")
	await process_frame
	for i in m:
		var o: Node2D = packed.instantiate()
		o.name = "O%d" % i
		players.add_child(o, true)
		objects.append(o)
	await create_timer(float(args[1])).timeout
	print("MAX_PEERS ", max_peers)
	print("CALLS ", node.calls)
	print("AUTH_FAILED ", auth_failed)
	quit(0)

func _on_auth(id: int, data: PackedByteArray) -> void:
	if data.get_string_from_utf8() == secret:
		mp.complete_auth(id)
	else:
		mp.disconnect_peer(id)

func _on_peer_connected(_id: int) -> void:
	var n := mp.get_peers().size()
	max_peers = max(max_peers, n)
	print("PEERS ", n)

func _process(_delta: float) -> bool:
	frame += 1
	for i in objects.size():
		objects[i].position = Vector2(frame + i, i)
	return false
