# What tests/godot3/rsrc_save.gd and tests/godot4/rsrc_save.gd share (both extend this, as
# res://rsrc_common.gd): the plain-data description of a loaded resource or scene, the
# resources and the scene both engines save, and the `save` and `totext` steps.
#
# Written in the GDScript both Godot 3.2 and Godot 4.6 parse: no typed variables, no
# annotations, no methods one engine's String or Array lacks. Where the two spell a call
# otherwise (ResourceSaver.save's argument order, ResourceLoader.load's cache flag, connect,
# instancing, file writing, Godot 4's typed containers) an engine's script overrides the
# methods marked "per engine" below; its Variant values and text form differ in substance
# and stay in its own script.
extends SceneTree

# ---------------------------------------------------------------- per engine

# Every Variant type of the engine, by name: stored as metadata of the `types` resource.
func values():
	return {}

# ResourceSaver.save of `res` at `path` with `flags`: the error code.
func save_res(_res, _path, _flags):
	return FAILED

# ResourceLoader.load of `path`, bypassing the cache (a fresh copy of what the file holds).
func load_fresh(_path):
	return null

# Sets the script resource's typed containers `counts` ([1, 2, 3]) and `table` ({a: 1, b: 2}).
func set_containers(_item):
	pass

# An instance of the PackedScene `packed`.
func instance_of(_packed):
	return null

# A persisted connection of `source`'s signal `sig` to `target`'s `method` with `binds`.
func connect_bound(_source, _sig, _target, _method, _binds, _flags):
	pass

# Writes the bytes of `describe(res, true)` to `path`.
func write_desc(_path, _res):
	pass

# The keys of the Dictionary `d` in the order the engine's text saver writes them.
func text_keys(d):
	return d.keys()

# The node description `d` (of describe_state) as a text-loaded SceneState describes it.
func text_node(d):
	return d

# Further scenes the engine saves after `scene` (name: PackedScene), built once `scene` has
# saved res://out/sub.scn.
func more_scenes():
	return {}

# ---------------------------------------------------------------- shared

# A value as plain data: a resource with a file of its own is {"@ext": path}, one saved inside
# the file (or the file's main resource, `top`) {"@class": class, property: value...} over its
# stored properties (Godot 4: containers rebuilt untyped, the binary form does not store their
# types), a scene (top) its SceneState.
static func describe(v, top = false):
	if v is Resource:
		if not top and v.resource_path != "" and v.resource_path.find("::") < 0:
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

# A SceneState as plain data: its nodes and its connections (with Godot 4's unbinds).
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
		var c = {
			"from": s.get_connection_source(i),
			"to": s.get_connection_target(i),
			"signal": s.get_connection_signal(i),
			"method": s.get_connection_method(i),
			"flags": s.get_connection_flags(i),
			"binds": describe(s.get_connection_binds(i)),
		}
		# Godot 4 only (Callable.unbind); Godot 3's SceneState has no such method.
		if s.has_method("get_connection_unbinds"):
			c["unbinds"] = s.get_connection_unbinds(i)
		conns.append(c)
	return {"@scene": nodes, "@conns": conns}

# A description as the engine's text form keeps it, to compare a resource loaded from text
# with one loaded from binary: the text saver writes a connection's from/to simplified
# (NodePath::simplified drops a leading "./"), the same path spelled shorter; what else it
# writes in another order or form is the engine's (text_keys, text_node).
func text_form(v):
	if v is Array:
		var a = []
		for x in v:
			a.append(text_form(x))
		return a
	if v is Dictionary:
		var d = {}
		for k in text_keys(v):
			d[k] = text_form(v[k])
		if d.has("from") and d.has("method") and d["from"] is NodePath:
			d["from"] = NodePath(str(d["from"]).trim_prefix("./"))
			d["to"] = NodePath(str(d["to"]).trim_prefix("./"))
		if d.has("groups") and d.has("placeholder"):
			d = text_node(d)
		return d
	return v

func resources():
	var Item = load("res://rsrc_item.gd")
	var leaf = Item.new()
	leaf.title = "leaf"
	leaf.ratio = 0.25
	var mid = Item.new()
	mid.title = "mid"
	mid.child = leaf
	set_containers(mid)
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
	save_res(sub, "res://out/sub.scn", 0)
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
	var inst = instance_of(sub_loaded)
	inst.name = "Instance"
	inst.position = Vector2(7, 8)
	root.add_child(inst)
	inst.owner = root
	connect_bound(b, "tree_entered", a, "queue_free", [1, "x"], CONNECT_PERSIST)
	connect_bound(a, "renamed", root, "show", [], CONNECT_PERSIST | CONNECT_DEFERRED)
	var packed = PackedScene.new()
	var err = packed.pack(root)
	if err != OK:
		print("PACK ", err)
	return packed

# Saves `res` as res://out/NAME.EXT and NAME_c.EXT (FLAG_COMPRESS) and the description of what
# loads back from the first as NAME.desc; prints SAVED NAME E1 E2.
func save_both(name, ext, res):
	var path = "res://out/%s.%s" % [name, ext]
	var e1 = save_res(res, path, 0)
	var e2 = save_res(res, "res://out/%s_c.%s" % [name, ext], ResourceSaver.FLAG_COMPRESS)
	write_desc("res://out/%s.desc" % name, load_fresh(path))
	print("SAVED %s %d %d" % [name, e1, e2])

# `-- save`: every resource and scene.
func save_all():
	var all = resources()
	for name in all:
		save_both(name, "res", all[name])
	save_both("scene", "scn", scene())
	var more = more_scenes()
	for name in more:
		save_both(name, "scn", more[name])

# `-- totext NAME...` (`names` = args[1..]): the engine's own conversions to text and back.
func to_text(args):
	for i in range(1, args.size()):
		var name = args[i]
		var ext = "scn" if name.begins_with("scene") else "res"
		var res = load_fresh("res://out/%s.%s" % [name, ext])
		var e = save_res(res, "res://out/engine_%s.t%s" % [name, ext], 0)
		var text = load_fresh("res://out/engine_%s.t%s" % [name, ext])
		var e2 = save_res(text, "res://out/engine_%s.%s" % [name, ext], 0)
		print("TEXT %s %d %d" % [name, e, e2])
