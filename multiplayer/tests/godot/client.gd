extends SceneTree
# A stock Godot 4 client of the Rust server: ENetMultiplayerPeer (or WebSocketMultiplayerPeer)
# + SceneMultiplayer, a Lobby node with @rpc methods. Arguments: port secret role [enet|ws].
# Prints "CASE <name> ok|FAIL <detail>"
# lines for the test, then quits 0 when its role is done (1 on timeout).
#   main: authenticates, sends every Variant type and checks the echoes, the modes, RAW.
#   a, b: two clients that greet each other through the server's relay; a leaves, b sees it.
#   bad:  a wrong secret, refused by the server.

const H = preload("res://harness.gd")

var mp := SceneMultiplayer.new()
var lobby: Node
var role := ""
var secret := ""
var values := []
var echoed := 0
var others := {}
var pending := {}
var frames := 0
var partner := 0
var resend_at := -1

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var port := int(args[0])
	secret = args[1]
	role = args[2]
	values = [
		null, true, false, 0, -1, 127, -128, 128, -129, 32767, -32769, 2147483647, -2147483649,
		1 << 40, -(1 << 62), 1.5, 0.1, -2.5e300, "", "héllo wörld ✓",
		Vector2(1.5, -2), Vector2i(3, -4), Rect2(1, 2, 3, 4), Rect2i(-1, -2, 3, 4),
		Vector3(1, 2, 3), Vector3i(-7, 8, 9), Transform2D(0.5, Vector2(3, 4)),
		Vector4(1, 2, 3, 4), Vector4i(5, 6, 7, -8), Plane(0, 1, 0, 2.5),
		Quaternion(0, 0, 0.5, 0.75), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3)),
		Transform3D(Basis(), Vector3(7, 8, 9)), Projection.IDENTITY, Color(0.25, 0.5, 0.75, 1),
		&"a_string_name", ^"Path/To:prop", RID(),
		{"a": 1, 2: [3, "x"], "nested": {"k": Vector2(1, 1)}}, [1, "two", [3.5, null]],
		Array([1, 2, 3], TYPE_INT, &"", null),
		PackedByteArray([0, 1, 255]), PackedInt32Array([1, -2, 3]),
		PackedInt64Array([1 << 40, -1]), PackedFloat32Array([1.5, -2.25]),
		PackedFloat64Array([0.1, 1e300]), PackedStringArray(["a", "bé"]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0, 1)]), PackedVector4Array([Vector4(1, 2, 3, 4)]),
	]
	lobby = H.add_node(root, "res://lobby.gd", "Lobby")
	lobby.called.connect(_on_called)
	mp.auth_callback = _on_auth
	mp.auth_timeout = 10
	mp.peer_authenticating.connect(_on_authenticating)
	mp.peer_authentication_failed.connect(func(id): H.case("auth_failed_" + str(id), true); _finish_if("bad"))
	mp.peer_connected.connect(_on_peer_connected)
	mp.peer_disconnected.connect(_on_peer_disconnected)
	mp.server_disconnected.connect(func(): print("SERVER_DISCONNECTED"); _finish_if("bad"))
	mp.peer_packet.connect(_on_packet)
	set_multiplayer(mp)
	if not H.start_peer(mp, port, args[3] if args.size() > 3 else "enet"):
		quit(1)

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 1500:
		print("TIMEOUT role=", role, " pending=", pending.keys())
		quit(1)
	# Unreliable calls may be lost: resend until answered.
	if resend_at >= 0 and frames >= resend_at:
		resend_at = frames + 30
		if pending.has("unrel"):
			lobby.rpc_id(1, "unrel", 11)
		if pending.has("ordered"):
			lobby.rpc_id(1, "ordered", 22)
	return false

func _finish_if(r: String) -> void:
	if role == r:
		quit(0)

func _on_auth(id: int, data: PackedByteArray) -> void:
	# The server answers a good secret with "welcome?": then we complete too.
	H.case("auth_data_from_server", id == 1 and data.get_string_from_utf8() == "welcome?", data.get_string_from_utf8())
	mp.complete_auth(id)

func _on_authenticating(id: int) -> void:
	mp.send_auth(id, secret.to_utf8_buffer())

func _on_peer_connected(id: int) -> void:
	print("PEER_CONNECTED ", id)
	if id == 1:
		H.case("connected_to_server", true)
		if role == "main":
			_main_start()
		return
	others[id] = true
	if role == "a" or role == "b":
		lobby.rpc_id(id, "hello", mp.get_unique_id(), "hi from " + role)

func _on_peer_disconnected(id: int) -> void:
	print("PEER_DISCONNECTED ", id)
	if role == "b" and id == partner:
		H.case("relay_peer_left", true)
		quit(0)

func _main_start() -> void:
	# Before the server confirms the path: the call carries the path (Godot's fallback).
	lobby.rpc_id(1, "ping", 5, true)
	for i in values.size():
		pending["echo_%d" % i] = true
		lobby.rpc_id(1, "take", i, values[i], var_to_bytes(values[i]))
	pending["unrel"] = true
	pending["ordered"] = true
	pending["chan"] = true
	pending["raw"] = true
	pending["welcome"] = true

func _after_echoes() -> void:
	# The path is confirmed by now: the compact form.
	lobby.rpc_id(1, "ping", 5, true)
	lobby.rpc_id(1, "unrel", 11)
	lobby.rpc_id(1, "ordered", 22)
	resend_at = frames + 30
	lobby.rpc_id(1, "chan", 33)
	mp.send_bytes(PackedByteArray([9, 8, 7]), 1, MultiplayerPeer.TRANSFER_MODE_RELIABLE, 0)

func _done(key: String) -> void:
	pending.erase(key)
	if pending.is_empty() and role == "main":
		lobby.rpc_id(1, "done", values.size())
		# Let the last packet leave before quitting.
		await create_timer(0.3).timeout
		quit(0)

func _on_called(method: String, args: Array) -> void:
	match method:
		"welcome":
			H.case("welcome", args[0] == "Rusty" and args[1] == mp.get_unique_id(), str(args))
			_done("welcome")
		"echo":
			var i: int = args[0]
			var want = values[i]
			var ok := H.same(args[1], want)
			H.case("echo_%d_%s" % [i, type_string(typeof(want))], ok, "%s != %s" % [var_to_str(args[1]), var_to_str(want)])
			echoed += 1
			if echoed == values.size():
				_after_echoes()
			_done("echo_%d" % i)
		"unrel", "ordered", "chan":
			if not pending.has(method):
				return
			H.case("server_" + method, args[0] == {"unrel": 11, "ordered": 22, "chan": 33}[method] + 1, str(args))
			_done(method)
		"hello":
			var want := "hi from b" if role == "a" else "hi from a"
			if args[1] != want:
				return
			partner = args[0]
			H.case("relay_hello_" + role, others.has(args[0]) and mp.get_remote_sender_id() == args[0], str(args))
			if role == "a":
				# Leave once greeted: b must see it.
				await create_timer(0.5).timeout
				mp.multiplayer_peer.close()
				await create_timer(0.2).timeout
				quit(0)

func _on_packet(id: int, data: PackedByteArray) -> void:
	H.case("raw_echo", id == 1 and data == PackedByteArray([7, 8, 9]), str(data))
	_done("raw")
