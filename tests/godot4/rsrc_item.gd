# A script resource class for tests/suite/resource_binary_live.rs (rsrc_save.gd).
class_name RsrcItem
extends Resource

@export var title := ""
@export var child: Resource
@export var counts: Array[int] = []
@export var table: Dictionary[String, int] = {}
@export var ratio := 0.0
