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
extends SceneTree

const H = preload("res://harness.gd")

# A value as plain data: a resource with a file of its own is {"@ext": path}, one saved inside
# the file (or the file's main resource, `top`) {"@class": class, property: value...} over its
# stored properties, containers rebuilt untyped (the binary form does not store their types), a
# scene (top) its SceneState.
static func describe(v, top = false):
	if v is Resource:
		if not top and v.resource_path != "" and not v.resource_path.contains("::"):
			return {"@ext": v.resource_path}
		if v is PackedScene:
			return describe_state(v.get_state())
		var d = {"@class": v.get_class()}
		for p in v.get_property_list():
			if p.usage & PROPERTY_USAGE_STORAGE and p.name != "resource_path":
				d[p.name] = describe(v.get(p.name))
		return d
	if v is Array:
		var a = []
		for x in v:
			a.append(describe(x))
		return a
	if v is Dictionary:
		var d = {}
		for k in v:
			d[describe(k)] = describe(v[k])
		return d
	return v

# A description as the text form keeps it, to compare a scene loaded from text with one loaded
# from binary: the text saver writes a connection's from/to simplified (NodePath.simplified()
# drops a leading "./"), the same path spelled shorter, and a node's groups sorted; a node's
# parent is a path in a text-loaded state ("A") and an index in a binary-loaded one, which
# get_node_path spells "./A".
static func text_form(v):
	if v is Array:
		var a = []
		for x in v:
			a.append(text_form(x))
		return a
	if v is Dictionary:
		var d = {}
		for k in v:
			d[k] = text_form(v[k])
		if d.has("from") and d.has("method") and d["from"] is NodePath:
			d["from"] = NodePath(str(d["from"]).trim_prefix("./"))
			d["to"] = NodePath(str(d["to"]).trim_prefix("./"))
		if d.has("groups") and d.has("placeholder"):
			d["parent"] = NodePath(str(d["parent"]).trim_prefix("./"))
			var g = Array(d["groups"])
			g.sort()
			d["groups"] = PackedStringArray(g)
		return d
	return v

static func describe_state(s):
	var nodes = []
	for i in s.get_node_count():
		var props = {}
		for j in s.get_node_property_count(i):
			props[s.get_node_property_name(i, j)] = describe(s.get_node_property_value(i, j))
		var inst = s.get_node_instance(i)
		nodes.append({
			"name": s.get_node_name(i),
			"type": s.get_node_type(i),
			"parent": s.get_node_path(i, true),
			"groups": s.get_node_groups(i),
			"instance": describe(inst) if inst != null else null,
			"placeholder": s.get_node_instance_placeholder(i),
			"props": props,
		})
	var conns = []
	for i in s.get_connection_count():
		conns.append({
			"from": s.get_connection_source(i),
			"to": s.get_connection_target(i),
			"signal": s.get_connection_signal(i),
			"method": s.get_connection_method(i),
			"flags": s.get_connection_flags(i),
			"binds": describe(s.get_connection_binds(i)),
			"unbinds": s.get_connection_unbinds(i),
		})
	return {"@scene": nodes, "@conns": conns}

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

func resources():
	var Item = load("res://rsrc_item.gd")
	var leaf = Item.new()
	leaf.title = "leaf"
	leaf.ratio = 0.25
	var mid = Item.new()
	mid.title = "mid"
	mid.child = leaf
	mid.counts.assign([1, 2, 3])
	mid.table.assign({"a": 1, "b": 2})
	var top = Item.new()
	top.title = "top"
	top.child = mid
	top.ratio = 1.5
	var g = Gradient.new()
	g.add_point(0.5, Color(0.1, 0.2, 0.3))
	var c = Curve.new()
	c.add_point(Vector2(0, 0))
	c.add_point(Vector2(1, 1), 0.5, -0.5)
	var sb = StyleBoxFlat.new()
	sb.bg_color = Color(1, 0, 0)
	sb.corner_radius_top_left = 4
	var an = Animation.new()
	var t = an.add_track(Animation.TYPE_VALUE)
	an.track_set_path(t, "Node:position")
	an.track_insert_key(t, 0.0, Vector2(0, 0))
	an.track_insert_key(t, 1.0, Vector2(10, 5))
	an.length = 2.0
	var types = Resource.new()
	var v = values()
	for k in v:
		types.set_meta(k, v[k])
	return {"custom": top, "gradient": g, "curve": c, "stylebox": sb, "animation": an, "types": types}

func scene():
	# The sub-scene, instanced below.
	var sub_root = Node2D.new()
	sub_root.name = "Sub"
	var inner = Node.new()
	inner.name = "Inner"
	sub_root.add_child(inner)
	inner.owner = sub_root
	var sub = PackedScene.new()
	sub.pack(sub_root)
	ResourceSaver.save(sub, "res://out/sub.scn")
	var sub_loaded = load("res://out/sub.scn")
	var root = Node2D.new()
	root.name = "Root"
	root.position = Vector2(3, 4)
	root.add_to_group("roots", true)
	var a = Node2D.new()
	a.name = "A"
	a.rotation = 0.5
	a.add_to_group("things", true)
	a.add_to_group("more", true)
	a.set_meta("tag", "x")
	root.add_child(a)
	a.owner = root
	var b = Node.new()
	b.name = "B"
	a.add_child(b)
	b.owner = root
	var inst = sub_loaded.instantiate()
	inst.name = "Instance"
	inst.position = Vector2(7, 8)
	root.add_child(inst)
	inst.owner = root
	b.connect("tree_entered", Callable(a, "queue_free").bind(1, "x"), CONNECT_PERSIST)
	a.connect("renamed", Callable(root, "show"), CONNECT_PERSIST | CONNECT_DEFERRED)
	var packed = PackedScene.new()
	var err = packed.pack(root)
	if err != OK:
		print("PACK ", err)
	return packed

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

func write_desc(path, res):
	var f = FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(var_to_bytes(describe(res, true)))

func _init():
	var args = OS.get_cmdline_user_args()
	DirAccess.make_dir_recursive_absolute("res://out")
	if args[0] == "save":
		var all = resources()
		for name in all:
			var e1 = ResourceSaver.save(all[name], "res://out/%s.res" % name)
			var e2 = ResourceSaver.save(all[name], "res://out/%s_c.res" % name, ResourceSaver.FLAG_COMPRESS)
			write_desc("res://out/%s.desc" % name, ResourceLoader.load("res://out/%s.res" % name, "", ResourceLoader.CACHE_MODE_IGNORE))
			print("SAVED %s %d %d" % [name, e1, e2])
		var s = scene()
		var e1 = ResourceSaver.save(s, "res://out/scene.scn")
		var e2 = ResourceSaver.save(s, "res://out/scene_c.scn", ResourceSaver.FLAG_COMPRESS)
		write_desc("res://out/scene.desc", ResourceLoader.load("res://out/scene.scn", "", ResourceLoader.CACHE_MODE_IGNORE))
		print("SAVED scene %d %d" % [e1, e2])
		var s2 = scene_ids()
		e1 = ResourceSaver.save(s2, "res://out/scene_ids.scn")
		e2 = ResourceSaver.save(s2, "res://out/scene_ids_c.scn", ResourceSaver.FLAG_COMPRESS)
		write_desc("res://out/scene_ids.desc", ResourceLoader.load("res://out/scene_ids.scn", "", ResourceLoader.CACHE_MODE_IGNORE))
		print("SAVED scene_ids %d %d" % [e1, e2])
	elif args[0] == "totext":
		for name in args.slice(1):
			var ext = "scn" if name.begins_with("scene") else "res"
			var res = ResourceLoader.load("res://out/%s.%s" % [name, ext], "", ResourceLoader.CACHE_MODE_IGNORE)
			var e = ResourceSaver.save(res, "res://out/engine_%s.t%s" % [name, ext])
			var text = ResourceLoader.load("res://out/engine_%s.t%s" % [name, ext], "", ResourceLoader.CACHE_MODE_IGNORE)
			var e2 = ResourceSaver.save(text, "res://out/engine_%s.%s" % [name, ext])
			print("TEXT %s %d %d" % [name, e, e2])
	elif args[0] == "cmp":
		for pair in args.slice(1):
			var files = pair.split("=")
			var theirs = ResourceLoader.load("res://out/" + files[0], "", ResourceLoader.CACHE_MODE_IGNORE)
			var ours = ResourceLoader.load("res://out/" + files[1], "", ResourceLoader.CACHE_MODE_IGNORE)
			var ok = theirs != null and ours != null and H.same(text_form(describe(theirs, true)), text_form(describe(ours, true)))
			print("CASE %s %s" % [pair, "PASS" if ok else "FAIL"])
			if not ok and theirs != null and ours != null:
				print("THEIRS ", var_to_str(text_form(describe(theirs, true))))
				print("OURS ", var_to_str(text_form(describe(ours, true))))
	else:
		for name in args.slice(1):
			var ext = "scn" if name.begins_with("scene") else "res"
			var theirs = ResourceLoader.load("res://out/%s.%s" % [name, ext], "", ResourceLoader.CACHE_MODE_IGNORE)
			var ours = ResourceLoader.load("res://out/ours_%s.%s" % [name, ext], "", ResourceLoader.CACHE_MODE_IGNORE)
			var ok = ours != null and H.same(describe(theirs, true), describe(ours, true))
			print("CASE %s %s" % [name, "PASS" if ok else "FAIL"])
	quit(0)
