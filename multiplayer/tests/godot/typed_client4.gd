extends SceneTree
# A Godot 4 client whose Lobby node runs the typed script generated from the Rust RPC set
# (res://typed4.gd). Argument: port. Calls hello, move and input through the typed senders;
# checks that welcome, empty and tick arrive through their typed signals with the values and
# types the Rust server sent.

var lobby
var frames := 0
var seen := 0

func case(name: String, ok: bool, detail := "") -> void:
	print("CASE ", name, " ", "ok" if ok else "FAIL " + detail)

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	lobby = load("res://typed4.gd").new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.welcome_received.connect(_on_welcome)
	lobby.empty_received.connect(_on_empty)
	lobby.tick_received.connect(_on_tick)
	var peer := ENetMultiplayerPeer.new()
	var err := peer.create_client("127.0.0.1", port)
	if err != OK:
		case("create_client", false, str(err))
		quit(1)
	get_multiplayer().multiplayer_peer = peer
	get_multiplayer().connected_to_server.connect(_on_connected)

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 60 * 30:
		print("TIMEOUT")
		quit(1)
	return false

func _on_connected() -> void:
	case("connected", true)
	var keys: Array[int] = [87, 65, 83]
	case("send", lobby.rpc_hello(1, "Ann", 2) == OK
		and lobby.rpc_move(1, Vector2(1.5, -2)) == OK
		and lobby.rpc_input(1, "p1", Vector2(0.5, -0.25), 1 << 40, true, keys) == OK)

func _done() -> void:
	seen += 1
	if seen == 3:
		quit(0)

func _on_welcome(sender: int, players: Array[String], seed: int, spawn: Vector2) -> void:
	case("welcome", sender == 1 and players == ["Ann", "Bo"] and players.get_typed_builtin() == TYPE_STRING
		and typeof(seed) == TYPE_INT and seed == 1 << 40 and spawn == Vector2(3, 4),
		str([sender, players, seed, spawn]))
	_done()

func _on_empty(sender: int, keys: Array[int]) -> void:
	case("empty", sender == 1 and keys.is_empty() and keys.get_typed_builtin() == TYPE_INT, str([sender, keys]))
	_done()

func _on_tick(sender: int) -> void:
	case("tick", sender == 1)
	_done()
