extends Node
# benches/scale.rs's Godot 4 game node (scale_server.gd): each peer's unit, moved by its input.

var units := {}
var radius := 50.0

@rpc("any_peer", "unreliable_ordered")
func input(x: float, y: float, stamp: int) -> void:
	var u = units.get(multiplayer.get_remote_sender_id())
	if u != null:
		u.position = Vector2(x, y)
		u.stamp = stamp

# The visibility filter of unit `u`'s synchronizer: its own peer, and the peers whose unit is
# within `radius`.
func sees(peer: int, u: Node2D) -> bool:
	var p = units.get(peer)
	if p == null:
		return false
	return p == u or p.position.distance_squared_to(u.position) <= radius * radius
