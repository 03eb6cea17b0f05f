# Writes var2bytes of a nested game-state Dictionary; its output is
# tests/fixtures/godot3/game_state.hex (Godot 3.2.3, `scripts/godot3-harness.sh`-style run:
# `source scripts/godot3-env.sh; godot3_run $PWD/tests/godot3/game_state.gd | grep ^HEX`).
extends SceneTree
func _init():
	var item = {"name": "potion", "count": 3}
	var player = {"id": 7, "name": "Ada", "team": "Blue", "position": Vector2(1.5, -2), "hp": 87.5, "items": [item], "tags": PoolStringArray(["admin"]), "target": null}
	var state = {"tick": 4000000000, "players": [player], "spawn": Vector3(1, 2, 3), "bounds": Rect2(0, 0, 64, 32), "tint": Color(1, 0.5, 0.25, 1), "path": NodePath("/root/Main:position"), "heights": PoolRealArray([0.5, 1.5]), "ids": PoolIntArray([1, -2]), "blob": PoolByteArray([1, 2, 3]), "rot": Quat(0, 0, 0, 1), "xf": Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)), "xf2": Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), "ratio": 0.1}
	print("HEX " + var2bytes(state).hex_encode())
	quit(0)
