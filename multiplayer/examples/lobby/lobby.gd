extends Node
# The lobby node at /root/Lobby; the Rust server declares the same RPC table.

signal event(what: String)

@rpc("any_peer")
func chat(_text: String) -> void:
	pass # Runs on the server.

@rpc("any_peer", "unreliable_ordered")
func move(_pos: Vector2) -> void:
	pass # Runs on the server.

@rpc
func joined(id: int, player: String) -> void:
	event.emit("joined %d %s" % [id, player])

@rpc
func left(id: int) -> void:
	event.emit("left %d" % id)

@rpc
func said(id: int, text: String) -> void:
	event.emit("said %d %s" % [id, text])

@rpc("authority", "unreliable_ordered")
func moved(id: int, pos: Vector2) -> void:
	event.emit("moved %d %s" % [id, pos])
