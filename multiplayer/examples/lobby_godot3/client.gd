extends SceneTree
# A headless Godot 3.2.3 lobby player: registers, chats, moves, leaves. The Lobby node
# (res://lobby.gd) is generated from the Rust server's RPC set: this script connects to its
# signals (welcome_received, joined_received, ...) and calls its typed senders (rpc_register,
# rpc_chat, rpc_move), never a method name.
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
	lobby.connect("welcome_received", self, "_on_welcome")
	lobby.connect("joined_received", self, "_on_joined")
	lobby.connect("left_received", self, "_on_left")
	lobby.connect("said_received", self, "_on_said")
	lobby.connect("moved_received", self, "_on_moved")
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
	lobby.rpc_register(1, player)
	lobby.rpc_chat(1, "hello from " + player)
	for i in 3:
		lobby.rpc_move(1, Vector2(i, i * 2))

func _on_welcome(_sender: int, motd: String):
	print("welcome ", motd)

func _on_joined(_sender: int, id: int, who: String):
	print("joined %d %s" % [id, who])

func _on_moved(_sender: int, id: int, position: Vector2):
	print("moved %d %s" % [id, position])

func _on_said(_sender: int, id: int, text: String):
	print("said %d %s" % [id, text])
	if id == me and not stay:
		yield(create_timer(0.5), "timeout")
		print("bye")
		quit(0)

func _on_left(_sender: int, id: int):
	print("left %d" % id)
	if stay:
		print("bye")
		quit(0)
