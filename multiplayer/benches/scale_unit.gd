extends Node2D
# benches/scale.rs's unit: a position and the stamp of the input that put it there.

var stamp := 0
