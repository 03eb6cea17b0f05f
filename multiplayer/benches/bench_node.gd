extends Node

@rpc("any_peer")
func ping(seq):
	pong.rpc_id(multiplayer.get_remote_sender_id(), seq)

@rpc
func pong(_seq):
	pass
