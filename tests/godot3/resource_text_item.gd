# A custom resource for resource_text_save.gd.
extends Resource

export var title := ""
export var stats: Resource
export var child: Resource
export var tags: Array = []
export var weights := PoolRealArray()
