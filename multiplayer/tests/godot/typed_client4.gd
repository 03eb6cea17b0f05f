extends "res://lobby_client4.gd"
# A Godot 4 client whose Lobby node runs the typed script generated from the Rust RPC set
# (res://typed4.gd). Argument: port. Calls hello, move and input through the typed senders;
# checks that welcome, empty and tick arrive through their typed signals with the values and
# types the Rust server sent.

var seen := 0

func _initialize() -> void:
	join("res://typed4.gd")
	lobby.welcome_received.connect(_on_welcome)
	lobby.empty_received.connect(_on_empty)
	lobby.tick_received.connect(_on_tick)

func _on_connected() -> void:
	H.case("connected", true)
	var keys: Array[int] = [87, 65, 83]
	H.case("send", lobby.rpc_hello(1, "Ann", 2) == OK
		and lobby.rpc_move(1, Vector2(1.5, -2)) == OK
		and lobby.rpc_input(1, "p1", Vector2(0.5, -0.25), 1 << 40, true, keys) == OK)

func _done() -> void:
	seen += 1
	if seen == 3:
		quit(0)

func _on_welcome(sender: int, players: Array[String], seed: int, spawn: Vector2) -> void:
	H.case("welcome", sender == 1 and players == ["Ann", "Bo"] and players.get_typed_builtin() == TYPE_STRING
		and typeof(seed) == TYPE_INT and seed == 1 << 40 and spawn == Vector2(3, 4),
		str([sender, players, seed, spawn]))
	_done()

func _on_empty(sender: int, keys: Array[int]) -> void:
	H.case("empty", sender == 1 and keys.is_empty() and keys.get_typed_builtin() == TYPE_INT, str([sender, keys]))
	_done()

func _on_tick(sender: int) -> void:
	H.case("tick", sender == 1)
	_done()
