extends SceneTree
# A stock Godot 4 client (ENetMultiplayerPeer + SceneMultiplayer, server_relay on as by
# default) that reports what it learns of the other clients. Arguments: port seconds.
# Once connected it waits 1.5 s, sends one RAW packet to everyone (send_bytes to 0, which the
# server relays), and at `seconds` prints:
#   CONNECTED <ids of its peer_connected signals, sorted>
#   PEERS <get_peers(), sorted>
#   PACKETS <senders of the peer_packet signals, sorted>
# then quits 0 (1 if it never connected).

var mp := SceneMultiplayer.new()
var connected := []
var packets := []
var joined := false

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	mp.peer_connected.connect(func(id): connected.append(id))
	mp.peer_packet.connect(func(id, _data): packets.append(id))
	mp.connected_to_server.connect(_on_joined)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	if peer.create_client("127.0.0.1", int(args[0])) != OK:
		quit(1)
		return
	mp.multiplayer_peer = peer
	await create_timer(float(args[1])).timeout
	connected.sort()
	var peers := Array(mp.get_peers())
	peers.sort()
	packets.sort()
	print("CONNECTED ", connected)
	print("PEERS ", peers)
	print("PACKETS ", packets)
	quit(0 if joined else 1)

func _on_joined() -> void:
	joined = true
	await create_timer(1.5).timeout
	mp.send_bytes(PackedByteArray([1, 2, 3]), 0)
