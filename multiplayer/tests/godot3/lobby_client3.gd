extends SceneTree
# What the Godot 3.2.3 clients of the generated scripts share (gen_client3.gd,
# typed_client3.gd extend it): a node running the generated script, joined to the Rust ENet
# server on 127.0.0.1 (argument: port), and a timeout of 60 * 30 frames (then "TIMEOUT" and
# exit status 1).

const H = preload("res://harness.gd")

var frames = 0

# Adds /root/<name> running `script` and connects; `_on_connected` runs once the server
# accepted us. Quits 1 when the engine refuses the connection.
func join(script, name):
	var node = H.add_node(get_root(), script, name)
	connect("connected_to_server", self, "_on_connected")
	if not H.start_peer(self, H.int_arg(0)):
		quit(1)
	return node

func _on_connected():
	pass

func _idle(_delta):
	frames += 1
	if frames > 60 * 30:
		print("TIMEOUT")
		quit(1)
	return false
