# Godot 3.2's side of tests/godot3_4/resource_text_common.gd (what both engines share, the
# lines it prints): builds scenes and resources, saves them with ResourceSaver.save and reports
# what the engine holds for each saved file.
extends "res://resource_text_common.gd"

func var_text(v):
	return var2str(v)

func utf8_hex(s):
	return s.to_utf8().hex_encode()

func save_res(res, path):
	return ResourceSaver.save(path, res)

func instance_of(packed):
	return packed.instance()

func connect_bound(source, sig, target, method, binds, flags):
	source.connect(sig, target, method, binds, flags)

func new_sprite():
	return Sprite.new()

func colors(list):
	return PoolColorArray(list)

func floats(list):
	return PoolRealArray(list)

func int_vector3(x, y, z):
	return Vector3(x, y, z)

func _init():
	save_and_report()
	quit(0)
