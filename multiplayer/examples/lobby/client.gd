extends SceneTree
# A headless lobby player: joins, authenticates, chats, moves, leaves.
# godot --headless --path multiplayer/examples/lobby -s res://client.gd -- HOST PORT NAME [PASSWORD]

var mp := SceneMultiplayer.new()
var lobby: Node
var player := ""
var password := "lobby"

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var host: String = args[0] if args.size() > 0 else "127.0.0.1"
	var port := int(args[1]) if args.size() > 1 else 7777
	player = args[2] if args.size() > 2 else "player"
	if args.size() > 3:
		password = args[3]
	lobby = preload("res://lobby.gd").new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.event.connect(_on_event)
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
	create_timer(10).timeout.connect(func(): print("timeout"); quit(1))

func _on_connected() -> void:
	print("connected as ", mp.get_unique_id())
	lobby.chat.rpc_id(1, "hello from " + player)
	for i in 3:
		lobby.move.rpc_id(1, Vector2(i, i * 2))

func _on_event(what: String) -> void:
	print(what)
	if what == "said %d hello from %s" % [mp.get_unique_id(), player]:
		await create_timer(0.5).timeout
		mp.multiplayer_peer.close()
		print("bye")
		quit(0)
