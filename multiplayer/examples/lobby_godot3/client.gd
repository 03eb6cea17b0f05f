extends SceneTree
# A headless Godot 3.2.3 lobby player: registers, chats, moves, leaves.
# godot3-server --no-window --path multiplayer/examples/lobby_godot3 -s res://client.gd -- HOST PORT NAME [stay]
# With "stay" the player leaves only after seeing another player leave.

var lobby
var player = "player"
var stay = false
var me = 0

func _init():
	var args = OS.get_cmdline_args()
	var user = []
	var after = false
	for a in args:
		if after:
			user.append(a)
		after = after or a == "--"
	var host = user[0] if user.size() > 0 else "127.0.0.1"
	var port = int(user[1]) if user.size() > 1 else 7777
	player = user[2] if user.size() > 2 else "player"
	stay = user.size() > 3 and user[3] == "stay"
	lobby = load("res://lobby.gd").new()
	lobby.name = "Lobby"
	get_root().add_child(lobby)
	lobby.connect("rpc_received", self, "_on_rpc")
	lobby.connect("rset_received", self, "_on_rset")
	connect("connected_to_server", self, "_on_connected")
	connect("server_disconnected", self, "_on_gone")
	var peer = NetworkedMultiplayerENet.new()
	peer.create_client(host, port)
	set_network_peer(peer)
	create_timer(20).connect("timeout", self, "_on_timeout")

func _on_timeout():
	print("timeout")
	quit(1)

func _on_gone():
	print("server gone")
	quit(1)

func _on_connected():
	me = get_network_unique_id()
	print("connected as ", me)
	lobby.rpc_id(1, "register", player)
	lobby.rpc_id(1, "chat", "hello from " + player)
	for i in 3:
		lobby.rpc_unreliable_id(1, "move", Vector2(i, i * 2))

func _on_rset(property, _sender, value):
	print(property, " ", value)

func _on_rpc(method, _sender, args):
	var line = method
	for a in args:
		line += " " + str(a)
	print(line)
	if method == "said" and args[0] == me and not stay:
		yield(create_timer(0.5), "timeout")
		print("bye")
		quit(0)
	if method == "left" and stay:
		print("bye")
		quit(0)
