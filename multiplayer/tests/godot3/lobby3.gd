extends Node
# The Lobby node of the Godot 3.2.3 live tests, on both sides (the Rust side declares the same
# members in tests/suite/live_godot3.rs). Every received call is forwarded to the `called` signal.

signal called(method, sender, args)

remote var score = 0
puppet var hp = 100
puppet var color = Color(0, 0, 0, 1)

func _fwd(method, args):
	emit_signal("called", method, get_tree().get_rpc_sender_id(), args)

remote func take(i, v):
	_fwd("take", [i, v])

remote func offer(i, v):
	_fwd("offer", [i, v])

puppet func echo(i, v):
	_fwd("echo", [i, v])

master func master_only(x):
	_fwd("master_only", [x])

puppet func puppet_only(x):
	_fwd("puppet_only", [x])

remote func unrel(x):
	_fwd("unrel", [x])

remotesync func both(x):
	_fwd("both", [x])

remote func hello(text):
	_fwd("hello", [text])

remote func done(n):
	_fwd("done", [n])

puppet func finish(n):
	_fwd("finish", [n])
