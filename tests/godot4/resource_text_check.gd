# Godot 4's side of tests/godot3_4/resource_text_common.gd: loads the files
# resource_text_live.rs edited and reports what the engine made of them (check_edits), with
# the unique name and the format=4 PackedByteArray only Godot 4 has.
extends "res://resource_text_common.gd"

func var_text(v):
	return var_to_str(v)

func instance_of(packed):
	return packed.instantiate()

func conn_target(c):
	return c.callable.get_object()

func conn_method(c):
	return c.callable.get_method()

func more_checks(root, hero):
	print("UNIQUE ", root.get_node("%Hero") == hero)
	var written = load("res://written_blob.tres")
	print("BLOB ", written.title, " ", written.blob.hex_encode())

func _init():
	check_edits()
	quit(0)
