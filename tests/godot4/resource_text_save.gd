# Godot 4's side of tests/godot3_4/resource_text_common.gd (what both engines share, the lines
# it prints): builds scenes and resources, saves them with ResourceSaver.save and reports what
# the engine holds for each saved file; Godot 4 also saves a PackedByteArray in format=4,
# editable children and a unique name.
extends "res://resource_text_common.gd"

func var_text(v):
	return var_to_str(v)

func utf8_hex(s):
	return s.to_utf8_buffer().hex_encode()

func save_res(res, path):
	return ResourceSaver.save(res, path)

func instance_of(packed):
	return packed.instantiate()

func connect_bound(source, sig, target, method, binds, flags):
	source.connect(sig, Callable(target, method).bindv(binds), flags)

func new_sprite():
	return Sprite2D.new()

func colors(list):
	return PackedColorArray(list)

func floats(list):
	return PackedFloat32Array(list)

func int_vector3(x, y, z):
	return Vector3i(x, y, z)

func more_resources():
	# More than 64 bytes in a PackedByteArray: the saver writes format=4 and base64.
	var blob = load("res://resource_text_item.gd").new()
	blob.title = "blob"
	var bytes = PackedByteArray()
	for i in 100:
		bytes.append(i * 7 % 256)
	blob.blob = bytes
	print("SAVE blob ", ResourceSaver.save(blob, "res://blob.tres"))
	return ["res://blob.tres"]

func more_scene(root, inst, player):
	# Editable children: an override on the instance's child is saved too.
	root.set_editable_instance(inst, true)
	inst.get_node("Inner").position = Vector2(9, 9.5)
	player.unique_name_in_owner = true

func _init():
	save_and_report()
	quit(0)
