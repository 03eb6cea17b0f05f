# A custom resource for resource_text_save.gd (a script class: the saver writes script_class).
class_name RtItem
extends Resource

@export var title := ""
@export var stats: Resource
@export var child: Resource
@export var tags: Array = []
@export var weights := PackedFloat32Array()
@export var blob := PackedByteArray()
