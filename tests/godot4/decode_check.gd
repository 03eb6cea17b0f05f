# Rust → Godot: reads lines `name mode hex` from the file given after `--` (mode `plain`:
# `bytes_to_var`, compared with `bytes_to_var(var_to_bytes(value))`; mode `full`:
# `bytes_to_var_with_objects`, compared with the value itself, `value` being the case of that
# name in `cases.gd`). The bytes must also be one whole Variant (`decode_var_size`).
# Prints `CASE name mode PASS`, `CASE name mode ENGINE reason` when the engine reads its own
# bytes of the value the same way (its round trip loses something), or `CASE name mode FAIL
# reason`, then `SUMMARY checked passed`.
extends SceneTree

const Cases = preload("res://cases.gd")
const H = preload("res://harness.gd")


func _init():
	var by_name := {}
	for pair in Cases.all():
		by_name[pair[0]] = pair[1]
	var checked := 0
	var passed := 0
	for line: String in H.lines(OS.get_cmdline_user_args()[0]):
		var parts := line.split(" ")
		var name := parts[0]
		var full := parts[1] == "full"
		var bytes := parts[2].hex_decode()
		checked += 1
		var verdict := check(by_name, name, full, bytes)
		if verdict.is_empty():
			passed += 1
			print("CASE ", name, " ", parts[1], " PASS")
		else:
			print("CASE ", name, " ", parts[1], " ", verdict.replace("\n", " ").left(300))
	print("SUMMARY ", checked, " ", passed)
	quit(0)


func check(by_name: Dictionary, name: String, full: bool, bytes: PackedByteArray) -> String:
	if not by_name.has(name):
		return "FAIL no such case"
	var value = by_name[name]
	if not bytes.has_encoded_var(0, full):
		return "FAIL not an encoded Variant"
	if bytes.decode_var_size(0, full) != bytes.size():
		return "FAIL decode_var_size %d of %d bytes" % [bytes.decode_var_size(0, full), bytes.size()]
	var got = bytes_to_var_with_objects(bytes) if full else bytes_to_var(bytes)
	var want = value if full else bytes_to_var(var_to_bytes(value))
	if H.same(got, want):
		return ""
	var own = var_to_bytes_with_objects(value) if full else var_to_bytes(value)
	var again = bytes_to_var_with_objects(own) if full else bytes_to_var(own)
	if H.same(got, again):
		return "ENGINE " + var_to_str(got).left(200)
	return "FAIL " + var_to_str(got).left(200)
