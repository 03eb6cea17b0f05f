extends SceneTree
# A Godot 3.2.3 client whose Lobby node runs the script generated from the Rust table
# (res://generated3.gd). Argument: port. Calls chat, sets score; waits for said and hp.

var lobby
var frames = 0
var said = false
var hp = false

func case(name, ok, detail = ""):
	print("CASE ", name, " ", "ok" if ok else "FAIL " + str(detail))

func _init():
	var args = OS.get_cmdline_args()
	var port = 0
	for i in args.size():
		if args[i] == "--":
			port = int(args[i + 1])
	lobby = load("res://generated3.gd").new()
	lobby.name = "Lobby"
	get_root().add_child(lobby)
	lobby.connect("rpc_received", self, "_on_rpc")
	lobby.connect("rset_received", self, "_on_rset")
	connect("connected_to_server", self, "_on_connected")
	var peer = NetworkedMultiplayerENet.new()
	var err = peer.create_client("127.0.0.1", port)
	if err != OK:
		case("create_client", false, err)
		quit(1)
	set_network_peer(peer)

func _idle(_delta):
	frames += 1
	if frames > 60 * 30:
		print("TIMEOUT")
		quit(1)
	return false

func _on_connected():
	case("connected", true)
	lobby.rpc_id(1, "chat", "hi", 3)
	lobby.rset_id(1, "score", 5)

func _on_rpc(method, sender, args):
	said = method == "said" and sender == 1 and args == [get_network_unique_id(), "hi back"]
	case(method, said, str(args))
	_finish()

func _on_rset(property, sender, value):
	hp = property == "hp" and sender == 1 and value == 77 and lobby.hp == 77
	case("rset_" + property, hp, str(value))
	_finish()

func _finish():
	if said and hp:
		print("DONE")
		quit(0)
