# The root script of resource_text_save.gd's scene: the target of its persisted connections.
extends Node2D

func _on_signal(_a = null, _b = null, _c = null):
	pass
