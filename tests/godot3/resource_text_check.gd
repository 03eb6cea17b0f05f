# Godot 3.2's side of tests/godot3_4/resource_text_common.gd: loads the files
# resource_text_live.rs edited and reports what the engine made of them (check_edits).
extends "res://resource_text_common.gd"

func var_text(v):
	return var2str(v)

func instance_of(packed):
	return packed.instance()

func conn_target(c):
	return c.target

func conn_method(c):
	return c.method

func _init():
	check_edits()
	quit(0)
