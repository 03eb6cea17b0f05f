extends SceneTree
# The burst benchmark's Godot side: an ENet server for up to 4,095 clients, with the relay on
# or off, doing nothing but serving the multiplayer. Arguments: port seconds relay(0/1).
# Prints READY once listening, then at the end the peers it holds and its longest frame.

var mp := SceneMultiplayer.new()
var longest := 0
var last := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	set_multiplayer(mp)
	mp.server_relay = args[2] == "1"
	var peer := ENetMultiplayerPeer.new()
	var err := peer.create_server(int(args[0]), 4095)
	if err != OK:
		print("FAILED ", err)
		quit(1)
		return
	mp.multiplayer_peer = peer
	print("READY")
	last = Time.get_ticks_usec()
	await create_timer(float(args[1])).timeout
	print("PEERS ", mp.get_peers().size(), " LONGEST_US ", longest)
	quit(0)

func _process(_delta: float) -> bool:
	var now := Time.get_ticks_usec()
	longest = max(longest, now - last)
	last = now
	return false
