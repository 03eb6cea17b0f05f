extends Node
# The /root/Chat node of rooms_client.gd: the client says, the server's room answers `said`
# to its peers (the same two methods as the Rust table, so the checksums agree).

signal heard(from: int, text: String)

@rpc("any_peer")
func say(_text: String) -> void:
	pass

@rpc
func said(from: int, text: String) -> void:
	heard.emit(from, text)
