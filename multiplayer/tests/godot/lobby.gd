extends Node
# The node both sides declare at /root/Lobby. Sorted RPC names give the ids:
# chan 0, done 1, echo 2, hello 3, ordered 4, ping 5, take 6, unrel 7, welcome 8.

signal called(method: String, args: Array)

@rpc("any_peer", "call_remote", "reliable", 2)
func chan(x):
	called.emit("chan", [x])

@rpc("any_peer")
func done(n):
	called.emit("done", [n])

@rpc("authority")
func echo(index, value):
	called.emit("echo", [index, value])

@rpc("any_peer")
func hello(from_id, text):
	called.emit("hello", [from_id, text])

@rpc("any_peer", "unreliable_ordered")
func ordered(x):
	called.emit("ordered", [x])

@rpc("any_peer")
func ping(a, b):
	called.emit("ping", [a, b])

@rpc("any_peer")
func take(index, value, bytes):
	called.emit("take", [index, value, bytes])

@rpc("any_peer", "unreliable")
func unrel(x):
	called.emit("unrel", [x])

@rpc("authority")
func welcome(name, id):
	called.emit("welcome", [name, id])
