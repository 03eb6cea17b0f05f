# Saves resources and scenes whose values make Godot 4.3+ write `format=4` (a PackedByteArray
# of more than 64 bytes, a PackedVector4Array) and some that stay `format=3`, then reports
# what the engine holds (resource_text_format4_live.rs reads the files and compares):
#   SAVE <file> <error code>
#   P <file> <property> <hex>   a metadata value of the main resource (not a resource),
#                               var_to_str as hex
#   N <file> <property> <hex>   the same for the scene's root node
extends SceneTree

# i * 7 mod 256 for i < n: every byte value differs from its neighbours.
func bytes(n):
	var b = PackedByteArray()
	for i in n:
		b.append(i * 7 % 256)
	return b

func hex(v):
	return var_to_str(v).to_utf8_buffer().hex_encode()

func save_res(file, metas):
	var r = Resource.new()
	for k in metas:
		r.set_meta(k, metas[k])
	print("SAVE %s %d" % [file, ResourceSaver.save(r, "res://" + file)])
	for k in metas:
		if not metas[k] is Object:
			print("P %s %s %s" % [file, k, hex(metas[k])])

func save_scene(file, metas):
	var n = Node.new()
	n.name = "Root"
	for k in metas:
		n.set_meta(k, metas[k])
	var ps = PackedScene.new()
	ps.pack(n)
	print("SAVE %s %d" % [file, ResourceSaver.save(ps, "res://" + file)])
	for k in metas:
		print("N %s %s %s" % [file, k, hex(metas[k])])
	n.free()

func _init():
	var v4 = PackedVector4Array([Vector4(1, 2.5, -3, 0.1), Vector4(-INF, 0, 1e20, 7)])
	# 100 bytes and a PackedVector4Array: format=4, base64.
	save_res("both.tres", {"blob": bytes(100), "v4": v4, "small": bytes(3), "none": PackedByteArray(), "ninf": -INF})
	# An empty PackedVector4Array alone is enough.
	save_res("v4only.tres", {"v4": PackedVector4Array(), "small": bytes(2), "v": Vector2(-INF, 0.5)})
	# 65 bytes inside an Array inside a Dictionary.
	save_res("nested.tres", {"d": {"k": [bytes(65)], bytes(1): 1}})
	# Neither: 64 bytes stay a list of numbers in a format=3 file.
	save_res("neither.tres", {"b64": bytes(64), "ninf": -INF, "v": Vector4(-INF, 1, 2, 3)})
	# A sub-resource holds the bytes.
	var sub = Resource.new()
	sub.set_meta("b", bytes(70))
	save_res("sub.tres", {"s": sub, "small": bytes(4)})
	# Scenes: a node's value decides too.
	save_scene("big.tscn", {"b": bytes(66), "arr": [PackedVector4Array()]})
	save_scene("plain.tscn", {"b": bytes(5), "f": -INF})
	print("DONE")
	quit(0)
