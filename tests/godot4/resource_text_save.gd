# Builds scenes and resources, saves them with ResourceSaver.save and reports what the engine
# holds for each saved file (resource_text_live.rs reads the files and compares):
#   RES <path> <class>                 a resource of the file (sub-resources: path::id)
#   P <path> <property> <hex>          one of its stored properties, var_to_str as hex, with
#                                      resources written as "SUB:<id>" / "EXT:<path>"
#   NODE <i> <name> <type> <parent> <groups>, NP <i> <property> <hex>, CONN <signal> <from>
#   <to> <method> <flags> <hex binds> from the PackedScene's SceneState.
extends SceneTree

func enc(v):
	if v is Resource:
		if v.resource_path.contains("::") or v.resource_path == "":
			return "SUB:" + v.resource_path.get_slice("::", 1)
		return "EXT:" + v.resource_path
	if v is Array:
		var has = false
		for x in v:
			if x is Object:
				has = true
		if not has:
			return v
		var out = []
		for x in v:
			out.append(enc(x))
		return out
	return v

func hex(v):
	return var_to_str(enc(v)).to_utf8_buffer().hex_encode()

func dump(res, seen):
	if seen.has(res):
		return
	seen[res] = true
	print("RES %s %s" % [res.resource_path, res.get_class()])
	for p in res.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			var v = res.get(p.name)
			print("P %s %s %s" % [res.resource_path, p.name, hex(v)])
			walk(v, seen)

func walk(v, seen):
	if v is Resource and v.resource_path.contains("::"):
		dump(v, seen)
	elif v is Array:
		for x in v:
			walk(x, seen)

func dump_scene(path):
	var ps = load(path)
	var st = ps.get_state()
	var seen = {}
	for i in st.get_node_count():
		var groups = []
		for g in st.get_node_groups(i):
			groups.append(str(g))
		print("NODE %d %s %s %s %s" % [i, st.get_node_name(i), st.get_node_type(i), str(st.get_node_path(i, true)), ",".join(groups)])
		for j in st.get_node_property_count(i):
			var v = st.get_node_property_value(i, j)
			print("NP %d %s %s" % [i, st.get_node_property_name(i, j), hex(v)])
			walk(v, seen)
	for c in st.get_connection_count():
		print("CONN %s %s %s %s %d %s" % [st.get_connection_signal(c), str(st.get_connection_source(c)), str(st.get_connection_target(c)), st.get_connection_method(c), st.get_connection_flags(c), hex(st.get_connection_binds(c))])

func own(node, owner):
	for c in node.get_children():
		c.owner = owner
		own(c, owner)

func _init():
	var item = load("res://resource_text_item.gd").new()
	item.title = "Sword \"of\" dawn"
	var g = Gradient.new()
	g.colors = PackedColorArray([Color(1, 0, 0), Color(0, 0, 1, 0.5)])
	g.offsets = PackedFloat32Array([0.0, 0.7])
	item.stats = g
	var inner = load("res://resource_text_item.gd").new()
	inner.title = "gem"
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.25))
	curve.add_point(Vector2(1, 0.75), 0.5, -1.0)
	inner.stats = curve
	item.child = inner
	var sb = StyleBoxFlat.new()
	sb.bg_color = Color(0.2, 0.3, 0.4)
	sb.corner_radius_top_left = 6
	item.tags = [1, 2.5, "x", sb, Vector3i(1, 2, 3)]
	item.weights = PackedFloat32Array([0.1, 1.0 / 3.0])
	item.set_meta("note", "hi")
	print("SAVE item ", ResourceSaver.save(item, "res://item.tres"))

	var anim = Animation.new()
	anim.length = 2.0
	var t = anim.add_track(Animation.TYPE_VALUE)
	anim.track_set_path(t, NodePath("Player:position"))
	anim.track_insert_key(t, 0.0, Vector2(0, 0))
	anim.track_insert_key(t, 1.5, Vector2(10, -4.25))
	print("SAVE anim ", ResourceSaver.save(anim, "res://anim.tres"))
	print("SAVE style ", ResourceSaver.save(sb, "res://style.tres"))
	# More than 64 bytes in a PackedByteArray: the saver writes format=4 and base64.
	var blob = load("res://resource_text_item.gd").new()
	blob.title = "blob"
	var bytes = PackedByteArray()
	for i in 100:
		bytes.append(i * 7 % 256)
	blob.blob = bytes
	print("SAVE blob ", ResourceSaver.save(blob, "res://blob.tres"))

	var sroot = Node2D.new()
	sroot.name = "Sub"
	var inner_node = Node2D.new()
	inner_node.name = "Inner"
	inner_node.position = Vector2(1, 2)
	sroot.add_child(inner_node)
	own(sroot, sroot)
	var sps = PackedScene.new()
	sps.pack(sroot)
	print("SAVE sub ", ResourceSaver.save(sps, "res://sub.tscn"))

	var root = Node2D.new()
	root.name = "Main"
	root.set_script(load("res://resource_text_main.gd"))
	var player = Sprite2D.new()
	player.name = "Player"
	player.position = Vector2(3, 4.5)
	player.add_to_group("players", true)
	player.add_to_group("alpha", true)
	player.set_meta("hp", 10)
	root.add_child(player)
	var deep = Node.new()
	deep.name = "Deep"
	player.add_child(deep)
	var gone = Node.new()
	gone.name = "Gone"
	root.add_child(gone)
	var gone_child = Node2D.new()
	gone_child.name = "GoneChild"
	gone.add_child(gone_child)
	var inst = load("res://sub.tscn").instantiate()
	inst.name = "SubInst"
	own(root, root)
	root.add_child(inst)
	inst.owner = root
	inst.position = Vector2(7, 8)
	# Editable children: an override on the instance's child is saved too.
	root.set_editable_instance(inst, true)
	inst.get_node("Inner").position = Vector2(9, 9.5)
	player.unique_name_in_owner = true
	player.connect("visibility_changed", Callable(root, "_on_signal").bind(1, "a"), CONNECT_PERSIST)
	gone.connect("tree_entered", Callable(root, "_on_signal"), CONNECT_PERSIST)
	var ps = PackedScene.new()
	print("PACK ", ps.pack(root))
	print("SAVE main ", ResourceSaver.save(ps, "res://main.tscn"))

	for path in ["res://item.tres", "res://anim.tres", "res://style.tres", "res://blob.tres"]:
		print("FILE ", path)
		dump(load(path), {})
	for path in ["res://sub.tscn", "res://main.tscn"]:
		print("FILE ", path)
		dump_scene(path)
	print("DONE")
	quit(0)
