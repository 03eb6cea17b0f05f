extends SceneTree
# The load benchmark's Godot side: an ENet server whose Bench node answers ping(seq) with
# pong(seq), the handler the Rust server runs too. Arguments: port seconds
# [max_clients (default 256) [relay 0/1 (default 1) [frame sleep µs]]]. Headless, the engine
# sleeps OS.low_processor_usage_mode_sleep_usec (6,900 µs by default) after every frame, as
# a window that cannot draw (os.cpp, add_frame_delay); the fifth argument sets it (0: frames
# as fast as the engine runs them).

var mp := SceneMultiplayer.new()

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var bench := preload("res://bench_node.gd").new()
	bench.name = "Bench"
	root.add_child(bench)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	mp.server_relay = args.size() < 4 or args[3] == "1"
	if args.size() > 4:
		OS.low_processor_usage_mode_sleep_usec = int(args[4])
	var err := peer.create_server(int(args[0]), int(args[2]) if args.size() > 2 else 256)
	if err != OK:
		print("FAILED ", err)
		quit(1)
		return
	mp.multiplayer_peer = peer
	print("READY")
	await create_timer(float(args[1])).timeout
	quit(0)
