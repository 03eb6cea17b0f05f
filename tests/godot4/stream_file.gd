# Framing both ways: `StreamPeer.put_var` (a StreamPeerBuffer) and `FileAccess.store_var`.
# Files, in the directory given after `write` or `read`: `stream.bin` (every value of
# `cases.gd`, full objects, little-endian prefixes), `stream_be.bin` (the values without object
# instances, `bytes_to_var` form, `big_endian`), and the same for files: `file.bin`,
# `file_be.bin`.
#   write DIR: the engine writes the four files. Prints `SUMMARY n`.
#   read DIR: the engine reads ours with `get_var` and compares every value; prints
#   `CASE file name PASS|FAIL got`, then `SUMMARY checked passed`.
extends SceneTree

const Cases = preload("res://cases.gd")
const H = preload("res://harness.gd")


func _init():
	var args := OS.get_cmdline_user_args()
	var dir: String = args[1]
	var all := Cases.all()
	var plain: Array = all.filter(func(p): return not H.has_objects(p[1]))
	if args[0] == "write":
		for big_endian in [false, true]:
			var list: Array = plain if big_endian else all
			var suffix := "_be" if big_endian else ""
			var peer := StreamPeerBuffer.new()
			peer.big_endian = big_endian
			var file := FileAccess.open(dir.path_join("file%s.bin" % suffix), FileAccess.WRITE)
			file.big_endian = big_endian
			for pair in list:
				peer.put_var(pair[1], not big_endian)
				file.store_var(pair[1], not big_endian)
			file.close()
			var out := FileAccess.open(dir.path_join("stream%s.bin" % suffix), FileAccess.WRITE)
			out.store_buffer(peer.data_array)
			out.close()
		print("SUMMARY ", all.size() + plain.size())
	else:
		var checked := 0
		var passed := 0
		for big_endian in [false, true]:
			var list: Array = plain if big_endian else all
			var suffix := "_be" if big_endian else ""
			var peer := StreamPeerBuffer.new()
			peer.big_endian = big_endian
			peer.data_array = FileAccess.get_file_as_bytes(dir.path_join("stream%s.bin" % suffix))
			var file := FileAccess.open(dir.path_join("file%s.bin" % suffix), FileAccess.READ)
			file.big_endian = big_endian
			for pair in list:
				var want = pair[1] if not big_endian else bytes_to_var(var_to_bytes(pair[1]))
				for source in ["stream", "file"]:
					var got = peer.get_var(not big_endian) if source == "stream" \
							else file.get_var(not big_endian)
					checked += 1
					if H.same(got, want):
						passed += 1
						print("CASE ", source, suffix, " ", pair[0], " PASS")
					else:
						print("CASE ", source, suffix, " ", pair[0], " FAIL ",
								var_to_str(got).left(200).replace("\n", " "))
			if peer.get_available_bytes() != 0 or file.get_position() != file.get_length():
				print("CASE ", suffix, " trailing FAIL bytes left over")
				checked += 1
		print("SUMMARY ", checked, " ", passed)
	quit(0)
