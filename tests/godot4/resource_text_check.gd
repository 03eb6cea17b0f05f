# Loads the files resource_text_live.rs edited and reports what the engine made of them.
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
	var root = scene.instantiate()
	tree(root, root)
	var hero = root.get_node("Hero")
	print("HERO_POS ", var_to_str(hero.position))
	print("UNIQUE ", root.get_node("%Hero") == hero)
	print("GROUPS ", ",".join(hero.get_groups().map(func(g): return str(g))))
	for c in hero.get_signal_connection_list("renamed"):
		print("CONN renamed %s %s" % [str(root.get_path_to(c.callable.get_object())), c.callable.get_method()])
	for c in hero.get_signal_connection_list("visibility_changed"):
		print("CONN visibility_changed %s %s" % [str(root.get_path_to(c.callable.get_object())), c.callable.get_method()])
	var added = root.get_node("Hero/Added")
	print("MARKER ", added.marker)
	var item = load("res://edited_item.tres")
	print("LOADED item ", item != null)
	print("ITEM_TITLE ", var_to_str(item.title))
	print("ITEM_OFFSETS ", var_to_str(item.stats.offsets))
	print("ITEM_META ", item.has_meta("note"))
	print("ITEM_CHILD ", var_to_str(item.child.title))
	var written = load("res://written_blob.tres")
	print("BLOB ", written.title, " ", written.blob.hex_encode())
	print("DONE")
	quit(0)
