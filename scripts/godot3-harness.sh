#!/bin/sh
# Runs one live-harness GDScript of tests/godot3 with a headless Godot 3 engine.
#   scripts/godot3-harness.sh decode_check <dir> [--allow-objects] [--exact]
#   scripts/godot3-harness.sh encode_cases <cases.tsv> <outdir> [--full-objects]
#   scripts/godot3-harness.sh bad_input <dir>
# Paths may be relative to the current directory. stdout/stderr/exit status are the script's
# (see tests/godot3/README.md); 124 means the engine hit the timeout (GODOT3_TIMEOUT, default 120 s).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 decode_check|encode_cases|bad_input ARGS..." >&2; exit 2; }
name=$1
shift
case $name in
decode_check | encode_cases | bad_input | text_check | cfg_check) ;;
*) echo "unknown harness script: $name" >&2; exit 2 ;;
esac
# Make path arguments absolute: the engine changes into its project directory.
n=$#
i=0
while [ $i -lt $n ]; do
	a=$1
	shift
	case $a in
	--*) ;;
	/*) ;;
	*) a="$(pwd)/$a" ;;
	esac
	set -- "$@" "$a"
	i=$((i + 1))
done
. "$root/scripts/godot3-env.sh"
set +e
godot3_run "$root/tests/godot3/$name.gd" "$@"
status=$?
exit $status
