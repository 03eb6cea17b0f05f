extends SceneTree
# A headless lobby player: joins, authenticates, chats, moves, leaves. The Lobby node
# (res://lobby.gd) is generated from the Rust server's RPC set: this script connects to its typed
# signals (joined_received, said_received, ...) and calls its typed senders (rpc_chat,
# rpc_move), never a method name. Its world (World/Spawner, configured by res://replication.gd,
# generated from the Rust server's declarations) shows the players the server spawns, their
# synchronized positions, and their despawns; each player's synchronizer (res://player_sync.gd,
# generated) checks its SceneReplicationConfig against the Rust declaration at _ready.
# godot --headless --path multiplayer/examples/lobby -s res://client.gd -- HOST PORT NAME [PASSWORD [STAY_UNTIL_LEFT]]
# With STAY_UNTIL_LEFT (a player's name), the client leaves only after seeing that player leave.

const Rep = preload("res://replication.gd")
const PlayerSync = preload("res://player_sync.gd")

var mp := SceneMultiplayer.new()
var lobby: Node
var players: Node
var player := ""
var password := "lobby"
var stay_until_left := ""
var said := false
var own_synced := false
var seen_left := false
var finishing := false
var last_pos := {}

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var host: String = args[0] if args.size() > 0 else "127.0.0.1"
	var port := int(args[1]) if args.size() > 1 else 7777
	player = args[2] if args.size() > 2 else "player"
	if args.size() > 3:
		password = args[3]
	if args.size() > 4:
		stay_until_left = args[4]
	lobby = preload("res://lobby.gd").new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.joined_received.connect(func(_sender: int, id: int, who: String): print("joined %d %s" % [id, who]))
	lobby.left_received.connect(func(_sender: int, id: int): print("left %d" % id))
	lobby.said_received.connect(_on_said)
	lobby.moved_received.connect(func(_sender: int, id: int, pos: Vector2): print("moved %d %s" % [id, pos]))
	_make_world()
	mp.auth_callback = func(_id, _data): pass
	mp.peer_authenticating.connect(func(id):
		mp.send_auth(id, ("%s:%s" % [player, password]).to_utf8_buffer())
		mp.complete_auth(id))
	mp.peer_authentication_failed.connect(func(_id): print("refused"); quit(1))
	mp.connected_to_server.connect(_on_connected)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	peer.create_client(host, port)
	mp.multiplayer_peer = peer
	create_timer(20).timeout.connect(func(): print("timeout"); quit(1))

func _make_world() -> void:
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
	Rep.configure_world(spawner)
	# A custom spawn: the data is the player's name.
	spawner.spawn_function = func(data):
		var p := Node2D.new()
		p.set_meta("player", data)
		var sync: MultiplayerSynchronizer = PlayerSync.new()
		sync.name = "Sync"
		Rep.configure_player(sync)
		p.add_child(sync)
		sync.root_path = NodePath("..")
		return p
	spawner.spawned.connect(func(p): print("spawned %s at %s" % [p.get_meta("player"), p.position]))
	spawner.despawned.connect(func(p):
		print("despawned %s" % p.get_meta("player"))
		if p.get_meta("player") == stay_until_left:
			seen_left = true
			_finish_if_done())

func _process(_delta: float) -> bool:
	for p in players.get_children():
		if last_pos.get(p.name) != p.position:
			last_pos[p.name] = p.position
			print("position %s %s" % [p.get_meta("player"), p.position])
			if p.name == str(mp.get_unique_id()) and p.position == Vector2(2, 4):
				own_synced = true
				_finish_if_done()
	return false

func _on_connected() -> void:
	print("connected as ", mp.get_unique_id())
	lobby.rpc_chat(1, "hello from " + player)
	for i in 3:
		lobby.rpc_move(1, Vector2(i, i * 2))

func _on_said(_sender: int, id: int, text: String) -> void:
	print("said %d %s" % [id, text])
	if id == mp.get_unique_id() and text == "hello from " + player:
		said = true
		_finish_if_done()

func _finish_if_done() -> void:
	if finishing or not said or not own_synced or (stay_until_left != "" and not seen_left):
		return
	finishing = true
	await create_timer(0.5).timeout
	mp.multiplayer_peer.close()
	print("bye")
	quit(0)
