extends Reference
# The Variant values both Godot 3 live roles exchange.

static func values():
	return [
		null, true, false, 0, -1, 127, 2147483647, -2147483648, 1 << 40, -(1 << 62), 1.5, 0.1,
		-2.5e300, "", "héllo wörld ✓", Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3),
		Transform2D(0.5, Vector2(3, 4)), Plane(0, 1, 0, 2.5), Quat(0, 0, 0.5, 0.75),
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3)),
		Transform(Basis(), Vector3(7, 8, 9)), Color(0.25, 0.5, 0.75, 1), NodePath("Path/To:prop"),
		{"a": 1, 2: [3, "x"], "nested": {"k": Vector2(1, 1)}}, [1, "two", [3.5, null]],
		PoolByteArray([0, 1, 255]), PoolIntArray([1, -2, 3]), PoolRealArray([1.5, -2.25]),
		PoolStringArray(["a", "bé"]), PoolVector2Array([Vector2(1, 2)]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0, 1)]),
	]

# Godot 3.2's `==` compares Dictionaries by reference: compare them by content.
static func deep_eq(a, b):
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_DICTIONARY:
		if a.size() != b.size():
			return false
		for k in a:
			if not b.has(k) or not deep_eq(a[k], b[k]):
				return false
		return true
	if typeof(a) == TYPE_ARRAY:
		if a.size() != b.size():
			return false
		for i in a.size():
			if not deep_eq(a[i], b[i]):
				return false
		return true
	return a == b

