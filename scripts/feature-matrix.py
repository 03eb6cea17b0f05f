#!/usr/bin/env python3
"""The per-feature CI matrix of the root package, derived from its manifest and test sources.

Reads `cargo metadata --no-deps --format-version 1` on stdin; prints one line per additive
feature (every feature but `default` and `double-precision`, which switches the `Real` type
and is tested on its own):

    <feature> <suite modules> <heap modules> <limits modules> <examples>

each list comma-separated, `-` when empty. A test module is gated by a feature when its
`mod` line in `tests/<binary>/main.rs` has a `cfg` naming it or its own source does
(`feature = "<name>"` anywhere in `tests/<binary>/<module>.rs` or `<module>/`); an example
(printed as `<package>:<example>`) when its `[[example]]` entry requires the feature, as
`<name>` in the root package or `godot-serde/<name>` in another (`godot-serde-examples`). `.ci/run` builds the library and those
targets with the feature alone and runs the gated modules (`cargo test --test suite --
<module>::`).
"""
import json
import os
import re
import sys

NOT_ADDITIVE = {"default", "double-precision"}


def modules(binary_dir):
    """(module name, text of its `cfg` attributes in main.rs, its source) per module."""
    main = open(os.path.join(binary_dir, "main.rs"), encoding="utf-8").read()
    out = []
    attrs = []
    for line in main.splitlines():
        if line.startswith("#["):
            attrs.append(line)
            continue
        m = re.match(r"mod (\w+);", line)
        if m and not any(a.startswith("#[path") for a in attrs):
            name = m.group(1)
            path = os.path.join(binary_dir, name + ".rs")
            files = [path] if os.path.exists(path) else []
            sub = os.path.join(binary_dir, name)
            if os.path.isdir(sub):
                files += [os.path.join(sub, f) for f in sorted(os.listdir(sub)) if f.endswith(".rs")]
            source = "".join(open(f, encoding="utf-8").read() for f in files)
            out.append((name, " ".join(attrs), source))
        attrs = []
    return out


def gated(mods, feature):
    needle = f'feature = "{feature}"'
    return ",".join(n for n, cfg, src in mods if needle in cfg or needle in src) or "-"


def main():
    meta = json.load(sys.stdin)
    root = next(p for p in meta["packages"] if p["name"] == "godot-serde")
    base = os.path.dirname(root["manifest_path"])
    suite = modules(os.path.join(base, "tests", "suite"))
    heap = modules(os.path.join(base, "tests", "heap"))
    limits = modules(os.path.join(base, "tests", "limits"))
    for feature in sorted(root["features"]):
        if feature in NOT_ADDITIVE:
            continue
        examples = ",".join(
            f"{p['name']}:{t['name']}"
            for p in meta["packages"]
            for t in p["targets"]
            if "example" in t["kind"]
            and (
                (p is root and feature in (t.get("required-features") or []))
                or f"godot-serde/{feature}" in (t.get("required-features") or [])
            )
        ) or "-"
        print(feature, gated(suite, feature), gated(heap, feature), gated(limits, feature), examples)


main()
