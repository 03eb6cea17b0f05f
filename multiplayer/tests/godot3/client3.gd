extends SceneTree
# A stock Godot 3.2.3 client of the Rust server: NetworkedMultiplayerENet + MultiplayerAPI and
# the Lobby node of lobby3.gd (or WebSocketClient with `gd_mp_api`). Arguments: port role
# values_script lobby_script [enet|ws]. Prints "CASE <name> ok|FAIL <detail>".
#   main: offers every Variant (the server echoes it), calls each mode, rset, RAW, unreliable.
#   a, b: relay through the server; a broadcasts, b answers a alone, a leaves, b sees it.

const H = preload("res://harness.gd")

var lobby
var role = ""
var V
var values = []
var echoed = 0
var frames = 0
var partner = 0

func _init():
	var args = H.user_args()
	var port = int(args[0])
	role = args[1]
	V = load(args[2])
	values = V.values()
	lobby = H.add_node(get_root(), args[3], "Lobby")
	lobby.connect("called", self, "_on_called")
	connect("connected_to_server", self, "_on_connected")
	connect("network_peer_connected", self, "_on_peer_connected")
	connect("network_peer_disconnected", self, "_on_peer_disconnected")
	connect("server_disconnected", self, "_on_server_gone")
	get_multiplayer().connect("network_peer_packet", self, "_on_packet")
	if not H.start_peer(self, port, args[4] if args.size() > 4 else "enet"):
		quit(1)

func _idle(_delta):
	frames += 1
	if frames > 60 * 60:
		print("TIMEOUT")
		quit(1)
	return false

func _on_connected():
	H.case("connected", true)
	print("ID ", get_network_unique_id())
	if role != "main":
		return
	for i in values.size():
		lobby.rpc_id(1, "offer", i, values[i])
	lobby.rpc_id(1, "master_only", 7)
	lobby.rpc_id(1, "puppet_only", 8)
	lobby.rpc_id(1, "undeclared_fn", 9)
	lobby.rset_id(1, "score", 42)
	lobby.rset_id(1, "hp", 5)
	lobby.rpc_unreliable_id(1, "unrel", 3)
	lobby.rset_unreliable_id(1, "score", 43)
	get_multiplayer().send_bytes(PoolByteArray([1, 2, 3]))
	lobby.rpc_id(1, "done", values.size())

func _on_peer_connected(id):
	if id == 1:
		return
	print("PEER ", id)
	if role == "a" and partner == 0:
		partner = id
		lobby.rpc("hello", "broadcast from a")

func _on_peer_disconnected(id):
	if role == "b" and id == partner:
		H.case("peer_left", true)
		quit(0)

func _on_server_gone():
	print("SERVER_DISCONNECTED")
	quit(0 if role == "main" else 1)

func _on_packet(id, packet):
	H.case("raw_from_server", id == 1 and packet == PoolByteArray([9, 8]), str(id) + " " + str(packet))

func _on_called(method, sender, args):
	match method:
		"echo":
			var i = args[0]
			var ok = V.deep_eq(args[1], values[i])
			H.case("echo_" + str(i), ok, str(args[1]) + " != " + str(values[i]))
			if ok:
				echoed += 1
		"finish":
			H.case("finish", args[0] == values.size() and echoed == values.size(), str(args[0]) + " " + str(echoed))
			H.case("rset_color", lobby.color == Color(0.5, 0.25, 1, 1), str(lobby.color))
			print("DONE")
			quit(0)
		"hello":
			H.case("hello_" + role, sender > 1, str(sender) + " " + str(args))
			if role == "b":
				partner = sender
				lobby.rpc_id(sender, "hello", "reply from b")
			else:
				quit(0)
		"both":
			H.case("both", true)
		_:
			H.case("unexpected_" + method, false, str(args))
