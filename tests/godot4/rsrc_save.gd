# Saves binary resources and scenes with ResourceSaver for tests/suite/resource_binary_live.rs.
# Usage: godot --headless --path P -s res://rsrc_save.gd -- save
#   writes res://out/NAME.res|.scn and NAME_c.* (FLAG_COMPRESS) and res://out/NAME.desc: the
#   var_to_bytes of what ResourceLoader.load reads back (describe() below); prints SAVED NAME E1 E2.
# Or: ... -- check NAME... : loads res://out/ours_NAME.* (our files) and res://out/NAME.* and
#   prints CASE NAME PASS|FAIL (their descriptions equal).
# Or: ... -- totext NAME... : loads res://out/NAME.res|.scn and saves it as engine_NAME.tres|.tscn
#   (the engine's own conversion), loads that and saves it as engine_NAME.res|.scn (its own
#   conversion back); prints TEXT NAME E1 E2.
# Or: ... -- cmp A=B... : loads res://out/A and res://out/B; prints CASE A=B PASS|FAIL (their
#   descriptions equal as the text form spells them: text_form()).
# What both engines' scripts share is res://rsrc_common.gd (tests/godot3_4/); this script holds
# Godot 4's spelling of the calls and values, its text form and the scene with `id_paths`.
extends "res://rsrc_common.gd"

const H = preload("res://harness.gd")

# Godot 4's text saver writes a node's groups sorted; a node's parent is a path in a
# text-loaded state ("A") and an index in a binary-loaded one, which get_node_path spells "./A".
func text_node(d):
	d["parent"] = NodePath(str(d["parent"]).trim_prefix("./"))
	var g = Array(d["groups"])
	g.sort()
	d["groups"] = PackedStringArray(g)
	return d

func values():
	var ta: Array[int] = [1, 2]
	var td: Dictionary[String, float] = {"x": 0.5}
	var sub = Gradient.new()
	return {
		"v_nil": null, "v_true": true, "v_int": -7, "v_big": 1 << 40, "v_float": 0.5,
		"v_double": 0.1, "v_string": "héllo\nworld", "v_empty": "",
		"v_vector2": Vector2(1.5, -2), "v_vector2i": Vector2i(1, -2),
		"v_rect2": Rect2(1, 2, 3, 4), "v_rect2i": Rect2i(-1, 2, 3, 4),
		"v_vector3": Vector3(1, 2, 3.25), "v_vector3i": Vector3i(1, 2, -3),
		"v_transform2d": Transform2D(0.5, Vector2(3, 4)),
		"v_vector4": Vector4(1, 2, 3, 4), "v_vector4i": Vector4i(1, 2, 3, -4),
		"v_plane": Plane(0, 1, 0, 2), "v_quaternion": Quaternion(0, 0, 0.6, 0.8),
		"v_aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		"v_basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"v_transform3d": Transform3D(Basis.IDENTITY, Vector3(1, 2, 3)),
		"v_projection": Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		"v_color": Color(0.25, 0.5, 0.75, 1), "v_string_name": &"name",
		"v_node_path": NodePath("a/b:c:d"), "v_abs_path": NodePath("/root/x"),
		"v_empty_path": NodePath(""),
		"v_object": sub,
		"v_dict": {1: "a", "k": [1, 2.5], Vector2(1, 1): null},
		"v_array": [1, "x", Vector2(1, 1), [sub]],
		"v_typed_array": ta, "v_typed_dict": td,
		"v_bytes": PackedByteArray([1, 2, 3, 4, 5]),
		"v_int32s": PackedInt32Array([1, -2, 1 << 30]),
		"v_int64s": PackedInt64Array([1, -2, 1 << 40]),
		"v_float32s": PackedFloat32Array([0.5, -1.25]),
		"v_float64s": PackedFloat64Array([0.1, -2.5]),
		"v_strings": PackedStringArray(["a", "", "ü"]),
		"v_vector2s": PackedVector2Array([Vector2(1, 2), Vector2(3, 4)]),
		"v_vector3s": PackedVector3Array([Vector3(1, 2, 3)]),
		"v_colors": PackedColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)]),
		"v_vector4s": PackedVector4Array([Vector4(1, 2, 3, 4)]),
	}

func save_res(res, path, flags):
	return ResourceSaver.save(res, path, flags)

func load_fresh(path):
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)

# The properties are typed (Array[int], Dictionary[String, int]): assign() converts the
# untyped literals.
func set_containers(item):
	item.counts.assign([1, 2, 3])
	item.table.assign({"a": 1, "b": 2})

func instance_of(packed):
	return packed.instantiate()

func connect_bound(source, sig, target, method, binds, flags):
	source.connect(sig, Callable(target, method).bindv(binds), flags)

func write_desc(path, res):
	var f = FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(var_to_bytes(describe(res, true)))

func more_scenes():
	return {"scene_ids": scene_ids()}

# A scene reaching into an instanced scene (Godot 4.6 writes the unique ids along such paths,
# `id_paths`): the instance's children editable, a node added under its `Inner`, and a
# persisted connection from `Inner`.
func scene_ids():
	var root = Node2D.new()
	root.name = "Root"
	var inst = load("res://out/sub.scn").instantiate()
	inst.name = "Instance"
	root.add_child(inst)
	inst.owner = root
	root.set_editable_instance(inst, true)
	var extra = Node.new()
	extra.name = "Extra"
	inst.get_node("Inner").add_child(extra)
	extra.owner = root
	inst.get_node("Inner").connect("renamed", Callable(root, "show"), CONNECT_PERSIST)
	var packed = PackedScene.new()
	var err = packed.pack(root)
	if err != OK:
		print("PACK ", err)
	return packed

func _init():
	var args = OS.get_cmdline_user_args()
	DirAccess.make_dir_recursive_absolute("res://out")
	if args[0] == "save":
		save_all()
	elif args[0] == "totext":
		to_text(args)
	elif args[0] == "cmp":
		for pair in args.slice(1):
			var files = pair.split("=")
			var theirs = load_fresh("res://out/" + files[0])
			var ours = load_fresh("res://out/" + files[1])
			var ok = theirs != null and ours != null and H.same(text_form(describe(theirs, true)), text_form(describe(ours, true)))
			print("CASE %s %s" % [pair, "PASS" if ok else "FAIL"])
			if not ok and theirs != null and ours != null:
				print("THEIRS ", var_to_str(text_form(describe(theirs, true))))
				print("OURS ", var_to_str(text_form(describe(ours, true))))
	else:
		for name in args.slice(1):
			var ext = "scn" if name.begins_with("scene") else "res"
			var theirs = load_fresh("res://out/%s.%s" % [name, ext])
			var ours = load_fresh("res://out/ours_%s.%s" % [name, ext])
			var ok = ours != null and H.same(describe(theirs, true), describe(ours, true))
			print("CASE %s %s" % [name, "PASS" if ok else "FAIL"])
	quit(0)
