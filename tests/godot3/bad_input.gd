# Live harness, what Godot 3 makes of malformed or unusual bytes.
#
#   godot3-server --no-window --path <project> -s <abs>/bad_input.gd -- <dir>
#
# First stdout line of the contract: ENGINE <Engine.get_version_info()["string"]>
# Then for each <case>.bin in <dir> (name order) it calls bytes2var(bytes) (allow_objects =
# false; a full object is therefore always rejected) and prints one stdout line:
#   CASE <name> ERR
#   CASE <name> OK <min_len> <type_id> <reencoded_hex> <var2str_hex>
# min_len:       the length of the shortest prefix of the bytes that bytes2var accepts (found by
#                bisection; decoding is monotone in the input length). This is the number of
#                bytes the decoder needs; it equals Godot's consumed length (r_len) except that
#                the zero padding after a final PoolByteArray is counted in r_len but is not
#                required. Trailing bytes after the value are ignored by bytes2var.
# type_id:       typeof() of the result (3.x type ids)
# reencoded_hex: var2bytes(result).hex_encode()
# var2str_hex:   var2str(result) as UTF-8 bytes, hex (lossless: the text may hold anything)
# On stderr every case is framed by the lines "BEGIN_CASE <name>" and "END_CASE <name>": the
# engine's error lines for the main decode come between them. The errors of the bisection probes
# come after END_CASE, between "BEGIN_PROBES <name>" and "END_PROBES <name>". The engine prints
# some decoding complaints ("Unicode error: ...") on stdout instead: run with stderr and stdout
# merged into one stream (2>&1) to keep every message between its markers.
# Last stdout line: SUMMARY <ok> ok, <err> err
# Exit status: 0 when every file was processed, 2 on usage errors.
# What this cannot show: Godot's exact r_len (see min_len), the Error code (only on stderr), or
# behaviour that kills the engine. Godot 3.2.3 has no nesting limit and crashes (SIGSEGV) on
# about 20000 nested arrays: keep such inputs out of the directory.
extends SceneTree

# The shared harness, relative to this script.
const H = preload("../../test-support/gdscript/godot3/harness.gd")

var lib

func _init(): H.new().run(self)  # lib = the harness; quit(main(its arguments))

func main(args):
	if args.size() != 1:
		printerr("usage: ... -s bad_input.gd -- <dir>")
		return 2
	var files = lib.list_files(args[0], ".bin")
	if files == null:
		printerr("cannot read directory ", args[0])
		return 2
	print("ENGINE ", lib.engine_version())
	var ok = 0
	var err = 0
	for f in files:
		var name = f.get_basename()
		var bytes = lib.read_bytes(args[0].plus_file(f))
		printerr("BEGIN_CASE ", name)
		var r = lib.try_decode(bytes, false)
		printerr("END_CASE ", name)
		if r == null:
			err += 1
			print("CASE %s ERR" % name)
			continue
		ok += 1
		printerr("BEGIN_PROBES ", name)
		var min_len = shortest_accepted_prefix(bytes)
		printerr("END_PROBES ", name)
		var v = r[0]
		print("CASE %s OK %d %d %s %s" % [name, min_len, typeof(v), var2bytes(v).hex_encode(), var2str(v).to_utf8().hex_encode()])
	print("SUMMARY %d ok, %d err" % [ok, err])
	return 0

func shortest_accepted_prefix(bytes):
	var lo = 0  # rejected (a header needs 4 bytes)
	var hi = bytes.size()  # accepted
	while hi - lo > 1:
		var mid = (lo + hi) / 2
		if lib.try_decode(bytes.subarray(0, mid - 1), false) == null:
			lo = mid
		else:
			hi = mid
	return hi
