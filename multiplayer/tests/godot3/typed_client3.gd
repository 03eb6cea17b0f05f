extends SceneTree
# A Godot 3.2.3 client whose Room node runs the typed script generated from a Rust RPC set
# (res://generated_typed3.gd, extended by res://typed_room3.gd). Argument: port. Calls report
# (every argument typed), ping (unreliable) and shout (remotesync) through the typed senders;
# checks the typed reply in the override and in the signal, and shout's local call.

var room
var frames = 0
var shouted = false

func case(name, ok, detail = ""):
	print("CASE ", name, " ", "ok" if ok else "FAIL " + str(detail))

func _init():
	var args = OS.get_cmdline_args()
	var port = 0
	for i in args.size():
		if args[i] == "--":
			port = int(args[i + 1])
	room = load("res://typed_room3.gd").new()
	room.name = "Room"
	get_root().add_child(room)
	room.connect("reply_received", self, "_on_reply")
	room.connect("shout_received", self, "_on_shout")
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
	room.rpc_report(1, "ann", 5, 2.5, true, Vector2(1, 2), ["a", "b"], Color(1, 0.5, 0.25, 1), Quat(0, 0, 0, 1), PoolByteArray([1, 2, 3]))
	room.rpc_ping(1, 7)
	room.rpc_shout(0, "hey")

# remotesync: the call runs here too, with our own id as the sender.
func _on_shout(sender, text):
	shouted = true
	case("shout_local", sender == get_network_unique_id() and text == "hey", str([sender, text]))

func _on_reply(sender, id, tags, turn, blob):
	var ok = sender == 1 and id == get_network_unique_id() and tags == ["x", "y"] and turn == Quat(0, 1, 0, 0) and blob == PoolByteArray([9, 8])
	case("signal_reply", ok, str([sender, id, tags, turn, blob]))
	case("override_before_signal", room.override_first)
	case("shouted_before_reply", shouted)
	print("DONE")
	quit(0)
