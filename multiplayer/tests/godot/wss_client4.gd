extends SceneTree
# A stock Godot 4 client of the Rust `wss://` server: WebSocketMultiplayerPeer with
# TLSOptions.client_unsafe() (the server's certificate is the self-signed test one) +
# SceneMultiplayer with its own authentication, the Lobby node of lobby.gd.
# Arguments: url secret expect, expect being "join" (authenticate, ping, await the echo and
# the welcome, then quit 0) or "refused" (the upgrade is refused: quit 0 on connection_failed).
# Prints "CASE <name> ok|FAIL <detail>" lines for the test; quits 1 on timeout or surprise.

const H = preload("res://harness.gd")

var mp := SceneMultiplayer.new()
var lobby: Node
var expect := ""
var secret := ""
var frames := 0
var got := {}

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var url: String = args[0]
	secret = args[1]
	expect = args[2]
	lobby = H.add_node(root, "res://lobby.gd", "Lobby")
	lobby.called.connect(_on_called)
	mp.auth_callback = _on_auth
	mp.auth_timeout = 10
	mp.peer_authenticating.connect(func(id): mp.send_auth(id, secret.to_utf8_buffer()))
	mp.connected_to_server.connect(_on_connected)
	mp.connection_failed.connect(_on_failed)
	mp.server_disconnected.connect(func(): print("SERVER_DISCONNECTED"); quit(1 if expect == "join" else 0))
	set_multiplayer(mp)
	var ws := WebSocketMultiplayerPeer.new()
	var tls: TLSOptions = TLSOptions.client_unsafe() if url.begins_with("wss://") else null
	var err := ws.create_client(url, tls)
	if err != OK:
		H.case("create_client", false, str(err))
		quit(1)
		return
	mp.multiplayer_peer = ws

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 60 * 20:
		print("TIMEOUT expect=", expect, " got=", got.keys())
		quit(1)
	return false

func _on_auth(id: int, data: PackedByteArray) -> void:
	H.case("auth_data_from_server", id == 1 and data.get_string_from_utf8() == "welcome?", data.get_string_from_utf8())
	mp.complete_auth(id)

func _on_connected() -> void:
	H.case("connected", expect == "join", "expected " + expect)
	if expect != "join":
		quit(1)
		return
	lobby.rpc_id(1, "ping", 41, true)

func _on_failed() -> void:
	print("CONNECTION_FAILED")
	H.case("refused_at_upgrade", expect == "refused", "expected " + expect)
	quit(0 if expect == "refused" else 1)

func _on_called(method: String, args: Array) -> void:
	got[method] = args
	if method == "welcome":
		H.case("welcome", args[0] == "Rusty" and args[1] == mp.get_unique_id(), str(args))
	elif method == "echo":
		H.case("echo", args == [42, "pong over wss"], str(args))
	if got.has("welcome") and got.has("echo"):
		quit(0)
