extends SceneTree
# A stock Godot 3.2.3 server for a Rust client: NetworkedMultiplayerENet + MultiplayerAPI and
# the Lobby node of lobby3.gd (or WebSocketServer with `gd_mp_api`). Arguments: port role
# values_script lobby_script [enet|ws].
# Offers every Variant to the client (which sends it back with `take`), sets `color` on it,
# calls `master_only` on it (refused by the client), sends RAW; checks the client's rset of
# `score`, its `both` (remotesync) call; quits 0 once the client left.

const H = preload("res://harness.gd")

var V
var lobby
var values = []
var taken = 0
var frames = 0
var client = 0

func _init():
	var args = H.user_args()
	var port = int(args[0])
	V = load(args[2])
	values = V.values()
	lobby = H.add_node(get_root(), args[3], "Lobby")
	lobby.connect("called", self, "_on_called")
	connect("network_peer_connected", self, "_on_peer_connected")
	connect("network_peer_disconnected", self, "_on_peer_disconnected")
	get_multiplayer().connect("network_peer_packet", self, "_on_packet")
	if not H.start_peer(self, port, args[4] if args.size() > 4 else "enet", 4):
		quit(1)
		return
	print("LISTENING")

func _idle(_delta):
	frames += 1
	if frames > 60 * 60:
		print("TIMEOUT")
		quit(1)
	return false

func _on_peer_connected(id):
	H.case("client_joined", id > 1, id)
	client = id
	for i in values.size():
		lobby.rpc_id(id, "offer", i, values[i])
	lobby.rpc_id(id, "master_only", 1)
	lobby.rset_id(id, "color", Color(0.5, 0.25, 1, 1))
	lobby.rpc_unreliable_id(id, "unrel", 5)
	get_multiplayer().send_bytes(PoolByteArray([9, 8]), id)

func _on_peer_disconnected(id):
	H.case("client_left", id == client, id)
	print("DONE")
	quit(0)

func _on_packet(id, packet):
	H.case("raw_from_client", id == client and packet == PoolByteArray([1, 2, 3]), str(id) + " " + str(packet))

func _on_called(method, sender, args):
	match method:
		"take":
			var i = args[0]
			var ok = V.deep_eq(args[1], values[i])
			H.case("take_" + str(i), ok, str(args[1]) + " != " + str(values[i]))
			if ok:
				taken += 1
		"both":
			H.case("both", sender == client and args[0] == 11, str(sender) + " " + str(args))
		"unrel":
			H.case("unrel", sender == client and args[0] == 6, str(args))
		"done":
			H.case("done", args[0] == values.size() and taken == values.size(), str(args[0]) + " " + str(taken))
			H.case("rset_score", lobby.score == 42, lobby.score)
			H.case("hp_untouched", lobby.hp == 100, lobby.hp)
			lobby.rpc_id(sender, "finish", taken)
		_:
			H.case("unexpected_" + method, false, str(args))
