# What tests/godot3/resource_text_{save,check}.gd and tests/godot4/resource_text_{save,check}.gd
# share (all four extend this, as res://resource_text_common.gd): the report of a saved file,
# the resources and scenes both engines save (`save_and_report`), and the report of the files
# resource_text_live.rs edited (`check_edits`).
#
# Written in the GDScript both Godot 3.2 and Godot 4.6 parse (no typed variables, annotations,
# lambdas, or methods one engine's String or Array lacks). Where the two spell a call or a
# class otherwise, or where Godot 4 saves more (a PackedByteArray in format=4, editable
# children, a unique name), an engine's script overrides the methods marked "per engine".
#
# save_and_report prints (resource_text_live.rs reads the files and compares):
#   RES <path> <class>                 a resource of the file (sub-resources: path::id)
#   P <path> <property> <hex>          one of its stored properties, var2str / var_to_str as hex,
#                                      with resources written as "SUB:<id>" / "EXT:<path>"
#   NODE <i> <name> <type> <parent> <groups>, NP <i> <property> <hex>, CONN <signal> <from>
#   <to> <method> <flags> <hex binds> from the PackedScene's SceneState.
extends SceneTree

# ---------------------------------------------------------------- per engine

# The text form of a Variant (var2str / var_to_str).
func var_text(_v):
	return ""

# The hex of the UTF-8 bytes of the string `s`.
func utf8_hex(_s):
	return ""

# ResourceSaver.save of `res` at `path`: the error code.
func save_res(_res, _path):
	return FAILED

# An instance of the PackedScene `packed`.
func instance_of(_packed):
	return null

# A persisted connection of `source`'s signal `sig` to `target`'s `method` with `binds`.
func connect_bound(_source, _sig, _target, _method, _binds, _flags):
	pass

# A new 2D sprite node (Sprite / Sprite2D).
func new_sprite():
	return null

# A packed array of colors and one of 32-bit floats from `list`.
func colors(_list):
	return null

func floats(_list):
	return null

# The 3D vector of ints in an item's tags (Godot 3 has no Vector3i: a Vector3).
func int_vector3(_x, _y, _z):
	return null

# Saves the further resources of the engine; returns their paths, to report.
func more_resources():
	return []

# Sets what the engine saves further in the main scene, before its connections are made.
func more_scene(_root, _inst, _player):
	pass

# The target and the method of a signal connection (get_signal_connection_list).
func conn_target(_c):
	return null

func conn_method(_c):
	return ""

# Prints the engine's further checks of the edited files (`root` the edited main scene).
func more_checks(_root, _hero):
	pass

# ---------------------------------------------------------------- shared

func enc(v):
	if v is Resource:
		if v.resource_path.find("::") != -1 or v.resource_path == "":
			var parts = v.resource_path.split("::")
			return "SUB:" + (parts[1] if parts.size() > 1 else "")
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
	return utf8_hex(var_text(enc(v)))

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
	if v is Resource and v.resource_path.find("::") != -1:
		dump(v, seen)
	elif v is Array:
		for x in v:
			walk(x, seen)

# The names in `list`, as strings joined by ",".
static func joined(list):
	var s = ""
	for x in list:
		s += ("," if s != "" else "") + str(x)
	return s

func dump_scene(path):
	var ps = load(path)
	var st = ps.get_state()
	var seen = {}
	for i in st.get_node_count():
		print("NODE %d %s %s %s %s" % [i, st.get_node_name(i), st.get_node_type(i), str(st.get_node_path(i, true)), joined(st.get_node_groups(i))])
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

func save_and_report():
	var item = load("res://resource_text_item.gd").new()
	item.title = "Sword \"of\" dawn"
	var g = Gradient.new()
	g.colors = colors([Color(1, 0, 0), Color(0, 0, 1, 0.5)])
	g.offsets = floats([0.0, 0.7])
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
	item.tags = [1, 2.5, "x", sb, int_vector3(1, 2, 3)]
	item.weights = floats([0.1, 1.0 / 3.0])
	item.set_meta("note", "hi")
	print("SAVE item ", save_res(item, "res://item.tres"))

	var anim = Animation.new()
	anim.length = 2.0
	var t = anim.add_track(Animation.TYPE_VALUE)
	anim.track_set_path(t, NodePath("Player:position"))
	anim.track_insert_key(t, 0.0, Vector2(0, 0))
	anim.track_insert_key(t, 1.5, Vector2(10, -4.25))
	print("SAVE anim ", save_res(anim, "res://anim.tres"))
	print("SAVE style ", save_res(sb, "res://style.tres"))
	var files = ["res://item.tres", "res://anim.tres", "res://style.tres"] + more_resources()

	var sroot = Node2D.new()
	sroot.name = "Sub"
	var inner_node = Node2D.new()
	inner_node.name = "Inner"
	inner_node.position = Vector2(1, 2)
	sroot.add_child(inner_node)
	own(sroot, sroot)
	var sps = PackedScene.new()
	sps.pack(sroot)
	print("SAVE sub ", save_res(sps, "res://sub.tscn"))

	var root = Node2D.new()
	root.name = "Main"
	root.set_script(load("res://resource_text_main.gd"))
	var player = new_sprite()
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
	var inst = instance_of(load("res://sub.tscn"))
	inst.name = "SubInst"
	own(root, root)
	root.add_child(inst)
	inst.owner = root
	inst.position = Vector2(7, 8)
	more_scene(root, inst, player)
	connect_bound(player, "visibility_changed", root, "_on_signal", [1, "a"], CONNECT_PERSIST)
	connect_bound(gone, "tree_entered", root, "_on_signal", [], CONNECT_PERSIST)
	var ps = PackedScene.new()
	print("PACK ", ps.pack(root))
	print("SAVE main ", save_res(ps, "res://main.tscn"))

	for path in files:
		print("FILE ", path)
		dump(load(path), {})
	for path in ["res://sub.tscn", "res://main.tscn"]:
		print("FILE ", path)
		dump_scene(path)
	print("DONE")

func tree(node, root):
	var script = node.get_script()
	var sp = script.resource_path if script else ""
	print("TREE %s %s %s" % [str(root.get_path_to(node)), node.get_class(), sp])
	for c in node.get_children():
		tree(c, root)

# Loads the files resource_text_live.rs edited and reports what the engine made of them.
func check_edits():
	var scene = load("res://edited_main.tscn")
	print("LOADED main ", scene != null)
	var root = instance_of(scene)
	tree(root, root)
	var hero = root.get_node("Hero")
	print("HERO_POS ", var_text(hero.position))
	print("GROUPS ", joined(hero.get_groups()))
	for sig in ["renamed", "visibility_changed"]:
		for c in hero.get_signal_connection_list(sig):
			print("CONN %s %s %s" % [sig, str(root.get_path_to(conn_target(c))), conn_method(c)])
	var added = root.get_node("Hero/Added")
	print("MARKER ", added.marker)
	var item = load("res://edited_item.tres")
	print("LOADED item ", item != null)
	print("ITEM_TITLE ", var_text(item.title))
	print("ITEM_OFFSETS ", var_text(item.stats.offsets))
	print("ITEM_META ", item.has_meta("note"))
	print("ITEM_CHILD ", var_text(item.child.title))
	more_checks(root, hero)
	print("DONE")
