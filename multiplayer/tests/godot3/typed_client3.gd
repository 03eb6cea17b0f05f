extends "res://lobby_client3.gd"
# A Godot 3.2.3 client whose Room node runs the typed script generated from a Rust RPC set
# (res://generated_typed3.gd, extended by res://typed_room3.gd). Argument: port. Calls report
# (every argument typed), ping (unreliable) and shout (remotesync) through the typed senders;
# checks the typed reply in the override and in the signal, and shout's local call.

var room
var shouted = false

func _init():
	room = join("res://typed_room3.gd", "Room")
	room.connect("reply_received", self, "_on_reply")
	room.connect("shout_received", self, "_on_shout")

func _on_connected():
	H.case("connected", true)
	room.rpc_report(1, "ann", 5, 2.5, true, Vector2(1, 2), ["a", "b"], Color(1, 0.5, 0.25, 1), Quat(0, 0, 0, 1), PoolByteArray([1, 2, 3]))
	room.rpc_ping(1, 7)
	room.rpc_shout(0, "hey")

# remotesync: the call runs here too, with our own id as the sender.
func _on_shout(sender, text):
	shouted = true
	H.case("shout_local", sender == get_network_unique_id() and text == "hey", str([sender, text]))

func _on_reply(sender, id, tags, turn, blob):
	var ok = sender == 1 and id == get_network_unique_id() and tags == ["x", "y"] and turn == Quat(0, 1, 0, 0) and blob == PoolByteArray([9, 8])
	H.case("signal_reply", ok, str([sender, id, tags, turn, blob]))
	H.case("override_before_signal", room.override_first)
	H.case("shouted_before_reply", shouted)
	print("DONE")
	quit(0)
