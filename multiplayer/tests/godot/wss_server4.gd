extends SceneTree
# A stock Godot 4 `wss://` server (WebSocketMultiplayerPeer with TLSOptions.server +
# SceneMultiplayer) that the Rust TLS client joins. Arguments: port cert.pem key.pem.
# Welcomes each peer, answers ping(a, b) with echo(a + 1, "pong from godot"), and quits 0 once
# a peer came and left (1 on timeout or failure). Prints "CASE <name> ok|FAIL <detail>".

const H = preload("res://harness.gd")

var mp := SceneMultiplayer.new()
var lobby: Node
var frames := 0
var seen := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var port := int(args[0])
	var cert := X509Certificate.new()
	var key := CryptoKey.new()
	if cert.load(args[1]) != OK or key.load(args[2]) != OK:
		H.case("load_certificate", false, args[1] + " " + args[2])
		quit(1)
		return
	lobby = H.add_node(root, "res://lobby.gd", "Lobby")
	lobby.called.connect(_on_called)
	mp.peer_connected.connect(_on_peer_connected)
	mp.peer_disconnected.connect(_on_peer_disconnected)
	set_multiplayer(mp)
	var ws := WebSocketMultiplayerPeer.new()
	var err := ws.create_server(port, "127.0.0.1", TLSOptions.server(key, cert))
	if err != OK:
		H.case("create_server", false, str(err))
		quit(1)
		return
	mp.multiplayer_peer = ws
	print("READY")

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 60 * 30:
		print("TIMEOUT")
		quit(1)
	return false

func _on_peer_connected(id: int) -> void:
	print("PEER_CONNECTED ", id)
	seen += 1
	lobby.rpc_id(id, "welcome", "Godot", id)

func _on_peer_disconnected(id: int) -> void:
	print("PEER_DISCONNECTED ", id)
	H.case("peer_left", seen == 1, str(seen))
	quit(0)

func _on_called(method: String, args: Array) -> void:
	if method == "ping":
		var from := mp.get_remote_sender_id()
		H.case("ping", args == [41, true], str(args))
		lobby.rpc_id(from, "echo", args[0] + 1, "pong from godot")
