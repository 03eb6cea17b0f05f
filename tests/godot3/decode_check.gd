# Live harness, Godot 3 decodes bytes written by another encoder and compares with expectations.
#
#   godot3-server --no-window --path <project> -s <abs>/decode_check.gd -- <dir> [--allow-objects] [--exact]
#
# <dir> holds pairs <case>.bin (the bytes to decode) and <case>.expr (UTF-8 text: one
# expression, evaluated with Expression and the helpers of the harness; surrounding whitespace is
# ignored). Cases are processed in name order. For each case one stdout line:
#   CASE <case> PASS
#   CASE <case> FAIL <reason>          (reason: one line of text)
# A case FAILs when its .bin or .expr is missing, the expression does not evaluate, bytes2var
# rejects the bytes (the engine prints why on stderr), or the decoded value differs from the
# expression's value. Equality is the harness's diff(): same types, floats bit for bit except that NaN
# equals NaN, math types bit for bit, Arrays/Pool arrays element by element, Dictionaries with
# the same keys in the same order, a null Object equal to null.
# Options:
#   --allow-objects  decode with bytes2var(bytes, true): full objects are instanced (this RUNS
#                    any script embedded in the data: only for bytes you produced yourself).
#                    Without it a full object is rejected, as bytes2var(bytes) does.
#   --exact          also require <case>.bin to equal var2bytes(expected) byte for byte (with
#                    --allow-objects: var2bytes(expected, true)), NodePath name padding excepted.
#                    Without --allow-objects, values holding objects are compared by value
#                    only (object ids are per process).
# Last stdout line: SUMMARY <passed> passed, <failed> failed
# Exit status: 0 if every case passed (also when there is none), 1 if any failed, 2 on usage
# errors (bad arguments, unreadable directory). Only lines starting with "CASE " or "SUMMARY "
# belong to the contract (the engine prints a banner first).
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

var lib

func _init(): H.new().run(self)  # lib = the harness; quit(main(its arguments))

func main(args):
	var dir = ""
	var allow_objects = false
	var exact = false
	for a in args:
		if a == "--allow-objects":
			allow_objects = true
		elif a == "--exact":
			exact = true
		elif dir == "" and not a.begins_with("--"):
			dir = a
		else:
			printerr("unknown argument: ", a)
			return 2
	if dir == "":
		printerr("usage: ... -s decode_check.gd -- <dir> [--allow-objects] [--exact]")
		return 2
	var bins = lib.list_files(dir, ".bin")
	var exprs = lib.list_files(dir, ".expr")
	if bins == null or exprs == null:
		printerr("cannot read directory ", dir)
		return 2
	var names = {}
	for f in bins + exprs:
		names[f.get_basename()] = true
	var sorted = names.keys()
	sorted.sort()
	var passed = 0
	var failed = 0
	for name in sorted:
		var reason = check(dir.plus_file(name), allow_objects, exact)
		if reason == "":
			passed += 1
			print("CASE %s PASS" % name)
		else:
			failed += 1
			print("CASE %s FAIL %s" % [name, reason.replace("\n", "\\n")])
	print("SUMMARY %d passed, %d failed" % [passed, failed])
	return 0 if failed == 0 else 1

func check(base, allow_objects, exact):
	var bytes = lib.read_bytes(base + ".bin")
	if bytes == null:
		return "missing or unreadable .bin"
	var text = lib.read_text(base + ".expr")
	if text == null:
		return "missing or unreadable .expr"
	var expected = lib.evaluate(text.strip_edges())
	if expected == null:
		return "expression: " + lib.last_error
	printerr("decode_check: ", base.get_file())  # ties the engine's error lines to the case
	var got = lib.try_decode(bytes, allow_objects)
	if got == null:
		return "bytes2var rejected the bytes (see stderr)"
	if allow_objects:
		lib.adopt(got[0])
	var d = lib.diff(got[0], expected[0])
	if d != "":
		return "value differs: " + d
	if exact and (allow_objects or not lib.has_object(expected[0])):
		var want = var2bytes(expected[0], allow_objects)
		var pads = lib.pad_offsets(expected[0], allow_objects)
		if lib.zero_at(want, pads) != lib.zero_at(bytes, pads if bytes.size() == want.size() else []):
			return "bytes differ from var2bytes(expected): got %s want %s" % [bytes.hex_encode(), lib.zero_at(want, pads).hex_encode()]
	return ""
