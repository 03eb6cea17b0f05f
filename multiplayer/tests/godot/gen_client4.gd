extends "res://lobby_client4.gd"
# A Godot 4 client whose Lobby node runs the script generated from the Rust table
# (res://generated4.gd). Argument: port. Calls chat and move; waits for the server's said.

func _initialize() -> void:
	join("res://generated4.gd")
	lobby.rpc_received.connect(_on_rpc)

func _on_connected() -> void:
	H.case("connected", true)
	lobby.rpc_id(1, "chat", "hi", 3)
	lobby.rpc_id(1, "move", Vector2(1, 2))

func _on_rpc(method: StringName, sender: int, args: Array) -> void:
	var me := get_multiplayer().get_unique_id()
	H.case(str(method), method == &"said" and sender == 1 and args == [me, "hi back"], str(method) + " " + str(args))
	quit(0)
