# Live harness, Godot 3 encodes values for another decoder.
#
#   godot3-server --no-window --path <project> -s <abs>/encode_cases.gd -- <cases.tsv> <outdir> [--full-objects]
#
# <cases.tsv>: UTF-8 text, one case per line: <name> TAB <expr>. Empty lines and lines starting
# with '#' are skipped. <name> must match [A-Za-z0-9_.-]+ and be unique; <expr> is evaluated with
# Expression and the helpers of the harness. For each case it writes
#   <outdir>/<name>.bin   var2bytes(value)  (var2bytes(value, true) with --full-objects),
#                         exactly as the engine wrote it (NodePath name padding = garbage)
#   <outdir>/<name>.pad   the byte offsets of that NodePath name padding, comma separated on one
#                         line (empty file when there is none): mask them before comparing
# and prints one stdout line:
#   CASE <name> OK <byte count> <padding offsets, comma separated, or ->
#   CASE <name> FAIL <reason>
# Last stdout line: SUMMARY <written> written, <failed> failed
# Exit status: 0 if every case was written, 1 if any failed, 2 on usage errors. <outdir> must exist.
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

var lib

func _init(): H.new().run(self)  # lib = the harness; quit(main(its arguments))

func main(args):
	var full = args.has("--full-objects")
	args.erase("--full-objects")
	if args.size() != 2:
		printerr("usage: ... -s encode_cases.gd -- <cases.tsv> <outdir> [--full-objects]")
		return 2
	var text = lib.read_text(args[0])
	if text == null or not Directory.new().dir_exists(args[1]):
		printerr("cannot read ", args[0], " or no directory ", args[1])
		return 2
	var name_re = RegEx.new()
	name_re.compile("^[A-Za-z0-9_.-]+$")
	var written = 0
	var failed = 0
	var seen = {}
	for line in text.split("\n"):
		line = line.trim_suffix("\r")
		if line.strip_edges() == "" or line.begins_with("#"):
			continue
		var tab = line.find("\t")
		var name = line.substr(0, tab) if tab >= 0 else line
		var reason = ""
		var v = null
		if tab < 0:
			reason = "no TAB in line"
		elif name_re.search(name) == null:
			reason = "bad case name"
		elif seen.has(name):
			reason = "duplicate case name"
		else:
			seen[name] = true
			v = lib.evaluate(line.substr(tab + 1).strip_edges())
			if v == null:
				reason = "expression: " + lib.last_error
		if reason != "":
			failed += 1
			print("CASE %s FAIL %s" % [name, reason])
			continue
		var bytes = var2bytes(v[0], full)
		var pads = lib.pad_offsets(v[0], full)
		var pad_text = PoolStringArray(pads).join(",")
		var base = args[1].plus_file(name)
		if not lib.write_bytes(base + ".bin", bytes) or not lib.write_bytes(base + ".pad", pad_text.to_utf8()):
			failed += 1
			print("CASE %s FAIL cannot write %s.bin/.pad" % [name, base])
			continue
		written += 1
		print("CASE %s OK %d %s" % [name, bytes.size(), pad_text if pad_text != "" else "-"])
	print("SUMMARY %d written, %d failed" % [written, failed])
	return 0 if failed == 0 else 1
