extends SceneTree
# A stock Godot 4 server (ENetMultiplayerPeer or WebSocketMultiplayerPeer + SceneMultiplayer,
# relay on) that the Rust clients join. Arguments: port secret clients [enet|ws]. Prints "CASE <name> ok|FAIL <detail>"; quits 0
# once `clients` authenticated peers came and left (1 on timeout).

const H = preload("res://harness.gd")

var mp := SceneMultiplayer.new()
var lobby: Node
var secret := ""
var expected := 0
var seen := 0
var left := 0
var frames := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var port := int(args[0])
	secret = args[1]
	expected = int(args[2])
	lobby = H.add_node(root, "res://lobby.gd", "Lobby")
	lobby.called.connect(_on_called)
	mp.auth_callback = _on_auth
	mp.auth_timeout = 10
	mp.peer_connected.connect(_on_peer_connected)
	mp.peer_disconnected.connect(_on_peer_disconnected)
	mp.peer_packet.connect(_on_packet)
	mp.peer_authentication_failed.connect(func(id): H.case("auth_failed", true))
	set_multiplayer(mp)
	if not H.start_peer(mp, port, args[3] if args.size() > 3 else "enet", 8):
		quit(1)
		return
	print("READY")

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 3000:
		print("TIMEOUT")
		quit(1)
	return false

func _on_auth(id: int, data: PackedByteArray) -> void:
	if data.get_string_from_utf8() == secret:
		H.case("auth_secret", true)
		mp.send_auth(id, "welcome?".to_utf8_buffer())
		mp.complete_auth(id)
	else:
		H.case("auth_refused", true)
		mp.disconnect_peer(id)

func _on_peer_connected(id: int) -> void:
	print("PEER_CONNECTED ", id)
	seen += 1
	lobby.rpc_id(id, "welcome", "Godot", id)

func _on_peer_disconnected(id: int) -> void:
	print("PEER_DISCONNECTED ", id)
	left += 1
	if left >= expected and seen >= expected:
		await create_timer(0.2).timeout
		quit(0)

func _on_called(method: String, args: Array) -> void:
	var from := mp.get_remote_sender_id()
	match method:
		"take":
			var want = str_to_var(args[2])
			var ok := H.same(args[1], want)
			H.case("take_%d_%s" % [args[0], type_string(typeof(want))], ok, "%s != %s" % [var_to_str(args[1]), args[2]])
			lobby.rpc_id(from, "echo", args[0], args[1])
		"ping":
			H.case("ping", args == [5, true], str(args))
		"unrel", "ordered", "chan":
			H.case("client_" + method, true)
			lobby.rpc_id(from, method, args[0] + 1)
		"done":
			H.case("done", true)

func _on_packet(id: int, data: PackedByteArray) -> void:
	H.case("raw", data == PackedByteArray([9, 8, 7]), str(data))
	var back := data.duplicate()
	back.reverse()
	mp.send_bytes(back, id, MultiplayerPeer.TRANSFER_MODE_RELIABLE, 0)
