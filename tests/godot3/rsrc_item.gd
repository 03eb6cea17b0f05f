# A script resource class for tests/suite/resource_binary_live.rs (rsrc_save.gd).
extends Resource

export var title = ""
export(Resource) var child
export var counts = []
export var table = {}
export var ratio = 0.0
