#!/usr/bin/env python3
"""Checks tests/fixtures/godot3/spec_examples.jsonl against a real Godot 3 engine.

    python3 scripts/godot3-check-spec.py

Records with `expr_godot3` are encoded by the engine (tests/godot3/encode_cases.gd) and compared
with the spec's bytes, NodePath padding masked; records with `direction` "decode" or "both" are
also decoded by the engine (bad_input.gd) and must be accepted. Prints one line per
disagreement and exits 1 if there is any.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "scripts", "godot3-harness.sh")


def main():
    recs = [json.loads(l) for l in open(os.path.join(ROOT, "tests/fixtures/godot3/spec_examples.jsonl"), encoding="utf-8")]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        tsv = os.path.join(tmp, "cases.tsv")
        out = os.path.join(tmp, "out")
        dec = os.path.join(tmp, "dec")
        os.mkdir(out)
        os.mkdir(dec)
        with open(tsv, "w", encoding="utf-8") as f:
            for r in recs:
                if "expr_godot3" in r:
                    f.write("%s\t%s\n" % (r["name"], r["expr_godot3"]))
                with open(os.path.join(dec, r["name"] + ".bin"), "wb") as b:
                    b.write(bytes.fromhex(r["hex"]))
        subprocess.run([HARNESS, "encode_cases", tsv, out], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        res = subprocess.run([HARNESS, "bad_input", dec], check=True, capture_output=True, text=True).stdout
        decoded = {l.split()[1]: l.split()[2] for l in res.splitlines() if l.startswith("CASE ")}
        checked = 0
        for r in recs:
            if "expr_godot3" in r:
                got = bytearray(open(os.path.join(out, r["name"] + ".bin"), "rb").read())
                pads = open(os.path.join(out, r["name"] + ".pad")).read().strip()
                for p in (int(x) for x in pads.split(",") if x):
                    if p < len(got):
                        got[p] = 0
                checked += 1
                if got.hex() != r["hex"]:
                    bad += 1
                    print("ENCODE %s: spec %s engine %s" % (r["name"], r["hex"], got.hex()))
            if decoded.get(r["name"]) != "OK":
                bad += 1
                print("DECODE %s: engine rejected spec bytes %s" % (r["name"], r["hex"]))
        print("%d encodings and %d decodings checked, %d disagreements" % (checked, len(recs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
