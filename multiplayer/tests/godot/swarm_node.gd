extends Node
# The bot swarm's echo node (tests/suite/live_swarm.rs): echo(seq) answers its caller with
# echo(seq); the Rust server's handler does the same.

var calls := 0

@rpc("any_peer")
func echo(seq):
	calls += 1
	echo.rpc_id(multiplayer.get_remote_sender_id(), seq)
