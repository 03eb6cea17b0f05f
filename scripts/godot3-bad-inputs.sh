#!/bin/sh
# Regenerates tests/fixtures/godot3/bad_inputs.jsonl: the crafted inputs of
# scripts/godot3-bad-inputs.py and the verdicts of a real Godot 3 engine (tests/godot3/bad_input.gd).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/godot3-env.sh"
python3 "$root/scripts/godot3-bad-inputs.py" "$GODOT3_TMP/cases"
godot3_run "$root/tests/godot3/bad_input.gd" "$GODOT3_TMP/cases" > "$GODOT3_TMP/run.log" 2>&1
python3 - "$GODOT3_TMP/cases/cases.json" "$GODOT3_TMP/run.log" "$root/tests/fixtures/godot3/bad_inputs.jsonl" <<'PY'
import json, re, sys
cases = json.load(open(sys.argv[1], encoding="utf-8"))
lines = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
version, verdict, msgs, cur = None, {}, {}, None
for line in lines:
    if line.startswith("ENGINE "):
        version = line[len("ENGINE "):]
    elif line.startswith("BEGIN_CASE "):
        cur = line.split(" ", 1)[1]
        msgs[cur] = []
    elif line.startswith("END_CASE "):
        cur = None
    elif line.startswith("CASE "):
        parts = line.split(" ")
        verdict[parts[1]] = parts[2:]
    elif cur is not None and not line.startswith("SCRIPT ERROR:") and "harness.gd:" not in line:
        msgs[cur].append(line.strip())
assert version, "no ENGINE line: the engine run failed"
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for c in cases:
        v = verdict[c["name"]]
        rec = dict(c)
        rec["engine_version"] = version
        rec["godot3_ok"] = v[0] == "OK"
        if rec["godot3_ok"]:
            rec["godot3_min_len"] = int(v[1])
            rec["godot3_type_id"] = int(v[2])
            rec["godot3_reencoded_hex"] = v[3]
            raw = bytes.fromhex(v[4]) if len(v) > 4 else b""
            try:
                rec["godot3_var2str"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                rec["godot3_var2str"] = raw.decode("utf-8", errors="replace")
                rec["godot3_var2str_hex"] = raw.hex()
        # "ERROR: ..." with its "At: ..." line joined, and "Unicode error: ..." lines; first 3
        joined = []
        for m in msgs.get(c["name"], []):
            if m.startswith("At:") and joined:
                joined[-1] += " " + m
            elif m:
                joined.append(m)
        rec["godot3_stderr_excerpt"] = "\n".join(joined[:3])
        err = re.search(r"Return(?:ed|ing): (ERR_[A-Z_]+)", rec["godot3_stderr_excerpt"])
        if err:
            rec["godot3_error"] = err.group(1)
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
print("%d cases, %d accepted" % (len(cases), sum(1 for c in cases if verdict[c["name"]][0] == "OK")), file=sys.stderr)
PY
echo "wrote $root/tests/fixtures/godot3/bad_inputs.jsonl"
