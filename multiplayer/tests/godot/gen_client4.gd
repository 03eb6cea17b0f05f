extends SceneTree
# A Godot 4 client whose Lobby node runs the script generated from the Rust table
# (res://generated4.gd). Argument: port. Calls chat and move; waits for the server's said.

var lobby
var frames := 0

func case(name: String, ok: bool, detail := "") -> void:
	print("CASE ", name, " ", "ok" if ok else "FAIL " + detail)

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	lobby = load("res://generated4.gd").new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.rpc_received.connect(_on_rpc)
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
	lobby.rpc_id(1, "chat", "hi", 3)
	lobby.rpc_id(1, "move", Vector2(1, 2))

func _on_rpc(method: StringName, sender: int, args: Array) -> void:
	var me := get_multiplayer().get_unique_id()
	case(str(method), method == &"said" and sender == 1 and args == [me, "hi back"], str(method) + " " + str(args))
	quit(0)
