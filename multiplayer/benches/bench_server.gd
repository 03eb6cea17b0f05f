extends SceneTree
# The load benchmark's Godot side: an ENet server whose Bench node answers ping(seq) with
# pong(seq), the handler the Rust server runs too. Arguments: port seconds.

var mp := SceneMultiplayer.new()

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var bench := preload("res://bench_node.gd").new()
	bench.name = "Bench"
	root.add_child(bench)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	var err := peer.create_server(int(args[0]), 256)
	if err != OK:
		print("FAILED ", err)
		quit(1)
		return
	mp.multiplayer_peer = peer
	print("READY")
	await create_timer(float(args[1])).timeout
	quit(0)
