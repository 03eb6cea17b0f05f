# Godot 3 client of examples/tcp_server.rs, run by tests/suite/godot3_tcp.rs:
#
#   godot3-server --no-window --path <project> -s <abs>/tcp_client.gd -- <host> <port>
#
# Connects with StreamPeerTCP and runs the example's protocol: put_var({"Hello": player}),
# get_var() of the Welcome (checked against the expected Dictionary with the harness's diff()), then
# {"Update": modified player}, {"Chat": "gg"} and "Bye" written with a single put_data (three
# frames in one segment, framed by a StreamPeerBuffer's put_var), then get_var() of the
# Summary, checked too. Prints "CLIENT OK" and quits with 0, or "CLIENT FAIL <reason>" and 1.
# The caller must run it under `timeout` (get_var blocks until its frame has arrived).
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

var lib

func _init():
	lib = H.new()
	var reason = main(lib.user_args())
	if reason == "":
		print("CLIENT OK")
		quit(0)
	else:
		print("CLIENT FAIL ", reason)
		quit(1)

func player():
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
		"tags": PoolStringArray(["admin", "beta"]),
		"guild": null,
	}

# Waits until `n` bytes can be read, the peer is gone, or the deadline passes.
func wait_bytes(tcp, n, deadline):
	while tcp.get_available_bytes() < n:
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return "connection lost"
		if OS.get_ticks_msec() > deadline:
			return "timed out waiting for data"
		OS.delay_msec(5)
	return ""

func main(args):
	if args.size() != 2:
		return "usage: -- <host> <port>"
	var deadline = OS.get_ticks_msec() + 30000
	var tcp = StreamPeerTCP.new()
	if tcp.connect_to_host(args[0], int(args[1])) != OK:
		return "connect_to_host failed"
	while tcp.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if OS.get_ticks_msec() > deadline:
			return "timed out connecting"
		OS.delay_msec(5)
	if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return "could not connect"

	tcp.put_var({"Hello": player()})

	var w = wait_bytes(tcp, 4, deadline)
	if w != "":
		return w
	var welcome = tcp.get_var()
	var expected_player = player()
	expected_player["level"] = 8
	expected_player["inventory"] = [{"name": "potion", "count": 6}, {"name": "sword", "count": 2}]
	expected_player["guild"] = "rustaceans"
	var expected = {
		"player_id": 1,
		"motd": "welcome, Ada",
		"spawn": Vector3(10, 0, -5),
		"player": expected_player,
		"scores": PoolIntArray([10, 20, 30]),
	}
	var d = lib.diff(welcome, expected, "welcome")
	if d != "":
		return d

	# Send back the player the server gave us, changed.
	var changed = welcome["player"].duplicate(true)
	changed["position"] = changed["position"] + Vector2(1, 1)
	var inventory = changed["inventory"]
	inventory.append({"name": "gem", "count": 7})
	changed["inventory"] = inventory
	var tags = changed["tags"]
	tags.append("veteran")
	changed["tags"] = tags
	changed["guild"] = null
	var buf = StreamPeerBuffer.new()
	buf.put_var({"Update": changed})
	buf.put_var({"Chat": "gg"})
	buf.put_var("Bye")
	if tcp.put_data(buf.data_array) != OK:
		return "put_data failed"

	w = wait_bytes(tcp, 4, deadline)
	if w != "":
		return w
	var summary = tcp.get_var()
	d = lib.diff(summary, {"updates": 1, "chats": ["gg"], "player": changed}, "summary")
	if d != "":
		return d
	tcp.disconnect_from_host()
	return ""
