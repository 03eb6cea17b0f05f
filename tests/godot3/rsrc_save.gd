# Saves binary resources and scenes with Godot 3's ResourceSaver for
# tests/suite/resource_binary_live.rs.
# Usage: godot3-server --no-window -s res://rsrc_save.gd -- save
#   writes res://out/NAME.res|.scn and NAME_c.* (FLAG_COMPRESS) and res://out/NAME.desc: the
#   var2bytes of what ResourceLoader.load reads back (describe() below); prints SAVED NAME E1 E2.
# Or: ... -- check NAME... : loads res://out/ours_NAME.* (our files) and res://out/NAME.* and
#   prints CASE NAME PASS|FAIL (their descriptions equal).
# Or: ... -- totext NAME... : loads res://out/NAME.res|.scn and saves it as engine_NAME.tres|.tscn
#   (the engine's own conversion), loads that and saves it as engine_NAME.res|.scn (its own
#   conversion back); prints TEXT NAME E1 E2.
# Or: ... -- cmp A=B... : loads res://out/A and res://out/B; prints CASE A=B PASS|FAIL (their
#   descriptions equal as Godot 3's text form spells them: text_form()).
# What both engines' scripts share is res://rsrc_common.gd (tests/godot3_4/); this script holds
# Godot 3's spelling of the calls and values, and its text form.
extends "res://rsrc_common.gd"

const H = preload("res://harness.gd")

# Godot 3's text saver writes Dictionary keys sorted (VariantWriter).
func text_keys(d):
	var ks = d.keys()
	ks.sort()
	return ks

func values():
	var sub = Gradient.new()
	return {
		"v_nil": null, "v_true": true, "v_int": -7, "v_big": 1 << 40, "v_float": 0.5,
		"v_double": 0.1, "v_string": "héllo\nworld", "v_empty": "",
		"v_vector2": Vector2(1.5, -2), "v_rect2": Rect2(1, 2, 3, 4),
		"v_vector3": Vector3(1, 2, 3.25), "v_transform2d": Transform2D(0.5, Vector2(3, 4)),
		"v_plane": Plane(0, 1, 0, 2), "v_quat": Quat(0, 0, 0.6, 0.8),
		"v_aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		"v_basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"v_transform": Transform(Basis(), Vector3(1, 2, 3)),
		"v_color": Color(0.25, 0.5, 0.75, 1),
		"v_node_path": NodePath("a/b:c:d"), "v_abs_path": NodePath("/root/x"),
		"v_empty_path": NodePath(""),
		"v_object": sub,
		"v_dict": {1: "a", "k": [1, 2.5], Vector2(1, 1): null},
		"v_array": [1, "x", Vector2(1, 1), [sub]],
		"v_bytes": PoolByteArray([1, 2, 3, 4, 5]),
		"v_ints": PoolIntArray([1, -2, 1 << 30]),
		"v_reals": PoolRealArray([0.5, -1.25]),
		"v_strings": PoolStringArray(["a", "", "ü"]),
		"v_vector2s": PoolVector2Array([Vector2(1, 2), Vector2(3, 4)]),
		"v_vector3s": PoolVector3Array([Vector3(1, 2, 3)]),
		"v_colors": PoolColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)]),
	}

func save_res(res, path, flags):
	return ResourceSaver.save(path, res, flags)

func load_fresh(path):
	return ResourceLoader.load(path, "", true)

func set_containers(item):
	item.counts = [1, 2, 3]
	item.table = {"a": 1, "b": 2}

func instance_of(packed):
	return packed.instance()

func connect_bound(source, sig, target, method, binds, flags):
	source.connect(sig, target, method, binds, flags)

func write_desc(path, res):
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_buffer(var2bytes(describe(res, true)))
	f.close()

func _init():
	var args = H.user_args()
	var d = Directory.new()
	d.make_dir_recursive("res://out")
	if args[0] == "save":
		save_all()
	elif args[0] == "totext":
		to_text(args)
	elif args[0] == "cmp":
		var h = H.new()
		for i in range(1, args.size()):
			var files = args[i].split("=")
			var theirs = load_fresh("res://out/" + files[0])
			var ours = load_fresh("res://out/" + files[1])
			var why = "not loaded"
			if theirs != null and ours != null:
				why = h.diff(text_form(describe(theirs, true)), text_form(describe(ours, true)))
			print("CASE %s %s %s" % [args[i], "PASS" if why == "" else "FAIL", why])
	else:
		var h = H.new()
		for i in range(1, args.size()):
			var name = args[i]
			var ext = "scn" if name.begins_with("scene") else "res"
			var theirs = load_fresh("res://out/%s.%s" % [name, ext])
			var ours = load_fresh("res://out/ours_%s.%s" % [name, ext])
			var why = "not loaded"
			if ours != null:
				why = h.diff(describe(theirs, true), describe(ours, true))
			print("CASE %s %s %s" % [name, "PASS" if why == "" else "FAIL", why])
	quit(0)
