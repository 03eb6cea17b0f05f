extends SceneTree
# What the clients of the generated scripts share (gen_client4.gd, typed_client4.gd extend it):
# a Lobby node running the generated script, joined to the Rust ENet server on 127.0.0.1
# (argument: port), and a timeout of 60 * 30 frames (then "TIMEOUT" and exit status 1).

const H = preload("res://harness.gd")

var lobby
var frames := 0

# Adds /root/Lobby running `script` and connects; `_on_connected` runs once the server
# accepted us. Quits 1 when the engine refuses the connection.
func join(script: String) -> void:
	lobby = H.add_node(root, script, "Lobby")
	if not H.start_peer(get_multiplayer(), H.int_arg(0)):
		quit(1)
		return
	get_multiplayer().connected_to_server.connect(_on_connected)

func _on_connected() -> void:
	pass

func _process(_delta: float) -> bool:
	frames += 1
	if frames > 60 * 30:
		print("TIMEOUT")
		quit(1)
	return false
