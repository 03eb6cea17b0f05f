extends "res://lobby_client3.gd"
# A Godot 3.2.3 client whose Lobby node runs the script generated from the Rust table
# (res://generated3.gd). Argument: port. Calls chat, sets score; waits for said and hp.

var lobby
var said = false
var hp = false

func _init():
	lobby = join("res://generated3.gd", "Lobby")
	lobby.connect("rpc_received", self, "_on_rpc")
	lobby.connect("rset_received", self, "_on_rset")

func _on_connected():
	H.case("connected", true)
	lobby.rpc_id(1, "chat", "hi", 3)
	lobby.rset_id(1, "score", 5)

func _on_rpc(method, sender, args):
	said = method == "said" and sender == 1 and args == [get_network_unique_id(), "hi back"]
	H.case(method, said, str(args))
	_finish()

func _on_rset(property, sender, value):
	hp = property == "hp" and sender == 1 and value == 77 and lobby.hp == 77
	H.case("rset_" + property, hp, str(value))
	_finish()

func _finish():
	if said and hp:
		print("DONE")
		quit(0)
