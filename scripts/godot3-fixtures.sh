#!/bin/sh
# Regenerates tests/fixtures/godot3/vectors.jsonl with a real Godot 3 engine (godot3-server,
# see scripts/install-godot3.sh). Installs nothing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/godot3-env.sh"
out="$root/tests/fixtures/godot3/vectors.jsonl"
tmp_out="$GODOT3_TMP/vectors.jsonl"
godot3_run "$root/tests/godot3/gen_fixtures.gd" "$tmp_out"
# Every line must be JSON with a unique name.
python3 - "$tmp_out" <<'PY'
import json, sys
names = set()
with open(sys.argv[1], encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        rec = json.loads(line)
        assert rec["name"] not in names, rec["name"]
        names.add(rec["name"])
        assert len(rec["hex"]) == len(rec["hex_canonical"]), rec["name"]
print(f"{len(names)} cases", file=sys.stderr)
PY
mv "$tmp_out" "$out"
echo "wrote $out"
