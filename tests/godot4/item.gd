# A script class for the script-typed containers and script instances of `cases.gd`.
extends RefCounted

@export var hp := 3
@export var tag := "x"
