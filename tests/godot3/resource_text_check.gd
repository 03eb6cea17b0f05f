# Godot 3.2's copy of tests/godot4/resource_text_check.gd: loads the files
# resource_text_live.rs edited and reports what the engine made of them.
extends SceneTree

func tree(node, root):
	var script = node.get_script()
	var sp = script.resource_path if script else ""
	print("TREE %s %s %s" % [str(root.get_path_to(node)), node.get_class(), sp])
	for c in node.get_children():
		tree(c, root)

func _init():
	var scene = load("res://edited_main.tscn")
	print("LOADED main ", scene != null)
	var root = scene.instance()
	tree(root, root)
	var hero = root.get_node("Hero")
	print("HERO_POS ", var2str(hero.position))
	var groups = PoolStringArray()
	for g in hero.get_groups():
		groups.append(str(g))
	print("GROUPS ", groups.join(","))
	for c in hero.get_signal_connection_list("renamed"):
		print("CONN renamed %s %s" % [str(root.get_path_to(c.target)), c.method])
	for c in hero.get_signal_connection_list("visibility_changed"):
		print("CONN visibility_changed %s %s" % [str(root.get_path_to(c.target)), c.method])
	var added = root.get_node("Hero/Added")
	print("MARKER ", added.marker)
	var item = load("res://edited_item.tres")
	print("LOADED item ", item != null)
	print("ITEM_TITLE ", var2str(item.title))
	print("ITEM_OFFSETS ", var2str(item.stats.offsets))
	print("ITEM_META ", item.has_meta("note"))
	print("ITEM_CHILD ", var2str(item.child.title))
	print("DONE")
	quit(0)
