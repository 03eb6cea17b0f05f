#!/bin/sh
# Regenerates the Godot 4 engine samples tests/fixtures/godot4/{vectors,decode}-sample.jsonl
# from a live Godot 4: `$GODOT4` (a path or a command), else `godot4` on PATH. The case lists
# are the current files (each record's `expr`, or crafted `hex`); the engine writes every other
# field again (tests/godot4/gen_fixtures.gd). Then `git diff tests/fixtures/godot4` shows what
# changed. Usage: sh scripts/godot4-fixtures.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
engine=${GODOT4:-godot4}
fixtures="$root/tests/fixtures/godot4"
project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT
printf 'config_version=5\n\n[application]\n\nconfig/name="godot_serde_fixtures"\n' \
  > "$project/project.godot"
cp "$root/tests/godot4/gen_fixtures.gd" "$root/test-support/gdscript/godot4/harness.gd" "$project/"
# The scripted Resource of the samples: its source travels in the full-object bytes of the
# record `object_script_itself` (property `script/source`).
python3 - "$fixtures/vectors-sample.jsonl" > "$project/script_res.gd" <<'PY'
import json, struct, sys
for line in open(sys.argv[1]):
    rec = json.loads(line)
    if rec["name"] == "object_script_itself":
        b = bytes.fromhex(rec["hex_full_objects"])
        i = b.index(b"script/source") + 16  # the name, padded to 4 bytes
        (n,) = struct.unpack_from("<I", b, i + 4)
        sys.stdout.write(b[i + 8 : i + 8 + n].decode())
PY
for kind in vectors decode; do
  HOME="$project" XDG_DATA_HOME="$project/.data" XDG_CONFIG_HOME="$project/.config" \
    XDG_CACHE_HOME="$project/.cache" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
    timeout 120 "$engine" --headless --path "$project" -s res://gen_fixtures.gd -- \
    "$kind" "$fixtures/$kind-sample.jsonl" "$project/$kind-sample.jsonl" \
    2>/dev/null | grep "^SUMMARY" || { echo "gen_fixtures.gd $kind failed" >&2; exit 1; }
  cp "$project/$kind-sample.jsonl" "$fixtures/$kind-sample.jsonl"
done
