# Godot 4 client of examples/tcp_server.rs (StreamPeerTCP.put_var / get_var).
#
#   cargo run --example tcp_server                                   # terminal 1
#   godot --headless --path examples/godot -s client.gd -- 127.0.0.1 4242   # terminal 2 (host and port optional)
#
# Sends {"Hello": player}, checks the Welcome, sends {"Update": changed player}, {"Chat": "gg"}
# and "Bye" in one write, checks the Summary. Prints what it got and exits with 0 when every
# check passed, 1 otherwise. Structs arrive as Dictionaries keyed by field name.
extends SceneTree


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var host := args[0] if args.size() > 0 else "127.0.0.1"
	var port := int(args[1]) if args.size() > 1 else 4242
	var reason := run(host, port)
	if reason == "":
		print("CLIENT OK")
		quit(0)
	else:
		printerr("CLIENT FAIL ", reason)
		quit(1)


func player() -> Dictionary:
	return {
		"name": "Ada",
		"level": 7,
		"position": Vector2(1.5, -2),
		"inventory": [{"name": "potion", "count": 3}, {"name": "sword", "count": 1}],
		"loadout": {
			"color": Color(1, 0.5, 0, 1),
			"slots": [Vector3(1, 2, 3), Vector3(0, 0, 0)],
			"area": Rect2(0, 0, 4, 4),
		},
		"tags": PackedStringArray(["admin", "beta"]),
		"guild": null,
	}


# Waits until a frame's length prefix can be read (get_var then blocks for the rest).
func wait_for_data(tcp: StreamPeerTCP, deadline: int) -> String:
	while true:
		tcp.poll()
		if tcp.get_available_bytes() >= 4:
			return ""
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return "connection lost"
		if Time.get_ticks_msec() > deadline:
			return "timed out waiting for the server"
		OS.delay_msec(5)
	return ""


func run(host: String, port: int) -> String:
	var deadline := Time.get_ticks_msec() + 10000
	var tcp := StreamPeerTCP.new()
	if tcp.connect_to_host(host, port) != OK:
		return "connect_to_host failed"
	while true:
		tcp.poll()
		var status := tcp.get_status()
		if status == StreamPeerTCP.STATUS_CONNECTED:
			break
		if status != StreamPeerTCP.STATUS_CONNECTING or Time.get_ticks_msec() > deadline:
			return "could not connect to %s:%d (is the server running?)" % [host, port]
		OS.delay_msec(5)

	tcp.put_var({"Hello": player()})

	var waited := wait_for_data(tcp, deadline)
	if waited != "":
		return waited
	var welcome = tcp.get_var()
	print("welcome: ", welcome)
	var expected_player := player()
	expected_player["level"] = 8
	expected_player["inventory"] = [{"name": "potion", "count": 6}, {"name": "sword", "count": 2}]
	expected_player["guild"] = "rustaceans"
	var expected := {
		"player_id": 1,
		"motd": "welcome, Ada",
		"spawn": Vector3(10, 0, -5),
		"player": expected_player,
		"scores": PackedInt32Array([10, 20, 30]),
	}
	if welcome != expected:
		return "unexpected welcome %s" % [welcome]

	var changed: Dictionary = welcome["player"].duplicate(true)
	changed["position"] += Vector2(1, 1)
	changed["inventory"].append({"name": "gem", "count": 7})
	var tags: PackedStringArray = changed["tags"]  # packed arrays are values: copy, change, store
	tags.append("veteran")
	changed["tags"] = tags
	changed["guild"] = null
	# Three frames in one write: the server receives them joined and splits them.
	var buf := StreamPeerBuffer.new()
	buf.put_var({"Update": changed})
	buf.put_var({"Chat": "gg"})
	buf.put_var("Bye")
	if tcp.put_data(buf.data_array) != OK:
		return "put_data failed"

	waited = wait_for_data(tcp, deadline)
	if waited != "":
		return waited
	var summary = tcp.get_var()
	print("summary: ", summary)
	if summary != {"updates": 1, "chats": ["gg"], "player": changed}:
		return "unexpected summary %s" % [summary]
	tcp.disconnect_from_host()
	return ""
