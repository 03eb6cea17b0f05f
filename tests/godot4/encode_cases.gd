# Godot → Rust: writes one JSON line per value of `cases.gd` to the file given after `--`:
# {"name", "hex": var_to_bytes, "hex_full": var_to_bytes_with_objects, "text": var_to_str,
#  "hex_again": var_to_bytes(bytes_to_var(hex)), the engine's own round trip,
#  "objects": whether it holds an object instance}. Prints `SUMMARY n`.
extends SceneTree

const Cases = preload("res://cases.gd")
const H = preload("res://harness.gd")


func _init():
	var out := FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
	var n := 0
	for pair in Cases.all():
		var v = pair[1]
		out.store_line(JSON.stringify({
			"name": pair[0],
			"hex": var_to_bytes(v).hex_encode(),
			"hex_full": var_to_bytes_with_objects(v).hex_encode(),
			"hex_again": var_to_bytes(bytes_to_var(var_to_bytes(v))).hex_encode(),
			"text": var_to_str(v) if not pair[0].begins_with("deep_") else "",
			"objects": H.has_objects(v),
		}))
		n += 1
	out.close()
	print("SUMMARY ", n)
	quit(0)
