#!/usr/bin/env python3
"""Extracts the worked examples of wire-format.md section 8 into JSONL fixtures.

    python3 scripts/spec-examples.py PATH/TO/wire-format.md

Writes tests/fixtures/godot4/spec_examples.jsonl (4.x column of 8.1, all of 8.2 and 8.4) and
tests/fixtures/godot3/spec_examples.jsonl (3.x column of 8.1 and the 3.x captures of 8.3).
Hex is lower-case without spaces; `??` bytes of the spec (NodePath padding left unwritten by the
engine) are written as 00 and their offsets listed in `nodepath_padding`.
"""
import json
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# 4.x expression -> Godot 3 expression (syntax of tests/godot3/lib.gd), for the rows that a
# Godot 3 engine can check; None = not checkable (per-process object id).
GODOT3_EXPR = {
    "a null Object": "null_object()",
    "RID with raw id 5": "RID()",
    "an Object with instance id 0x1234 (not full)": None,
}
GODOT3_RENAMES = [
    ("PackedByteArray", "PoolByteArray"), ("PackedInt32Array", "PoolIntArray"),
    ("PackedFloat32Array", "PoolRealArray"), ("PackedStringArray", "PoolStringArray"),
    ("PackedVector2Array", "PoolVector2Array"), ("PackedVector3Array", "PoolVector3Array"),
    ("PackedColorArray", "PoolColorArray"), ("Transform2D.IDENTITY", "Transform2D()"),
    ("Basis.IDENTITY", "Basis()"),
]


def section(text, title):
    start = text.index("\n### " + title)
    end = text.index("\n#", start + 5)
    return text[start:end]


def rows(sec):
    for line in sec.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            yield cells


def code(cell):
    m = re.findall(r"`([^`]*)`", cell)
    return m


def hex_of(cell):
    """Returns (hex, padding offsets) from the first hex-looking code span, or (None, [])."""
    for c in code(cell):
        compact = c.replace(" ", "")
        if compact and re.fullmatch(r"([0-9a-f?]{2})+", compact):
            pads = [i // 2 for i in range(0, len(compact), 2) if compact[i:i + 2] == "??"]
            return compact.replace("??", "00"), pads
    return None, []


def slug(text):
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    if s in ('""', "``"):
        return "empty_string"
    s = s.replace("-", "neg_").replace("<<", "shl").replace("&", "")
    s = re.sub(r"[^a-z0-9]+", "_", s).strip("_")
    return s[:60].strip("_")


def unique(name, seen):
    base, n = name, 2
    while name in seen:
        name = "%s_%d" % (base, n)
        n += 1
    seen.add(name)
    return name


def value_expr(cell):
    """(expr, rest): expr is the leading code span of the cell, rest the text after it."""
    c = code(cell)
    if c and cell.strip().startswith("`"):
        return c[0], cell.strip()[len(c[0]) + 2:].strip()
    return None, cell


def put_expr(rec, cell):
    expr, rest = value_expr(cell)
    if expr is None:
        rec["description"] = cell.replace("`", "")
    elif expr.startswith("var "):
        rec["gdscript"] = expr
    else:
        rec["expr"] = expr
    if expr is not None and rest:
        rec["description"] = rest.replace("`", "")
    return expr


def main():
    spec_path = sys.argv[1]
    text = open(spec_path, encoding="utf-8").read()
    g4, g3 = [], []
    seen4, seen3 = set(), set()

    # 8.1: Value | 3.x | 4.x | Notes
    prov = "shared/spec/wire-format.md §8.1"
    for cells in list(rows(section(text, "8.1")))[1:]:
        value, c3, c4, notes = cells[0], cells[1], cells[2], cells[3]
        expr, _ = value_expr(value)
        name = "value_" + slug(expr if expr is not None else value)
        for col, out, seen, ver in ((c4, g4, seen4, "4.x"), (c3, g3, seen3, "3.x")):
            hx, pads = hex_of(col)
            if hx is None:
                continue
            rec = {"name": unique(name, seen)}
            put_expr(rec, value)
            if ver == "3.x":
                if value in GODOT3_EXPR:
                    if GODOT3_EXPR[value] is not None:
                        rec["expr_godot3"] = GODOT3_EXPR[value]
                elif expr is not None:
                    e3 = expr
                    for a, b in GODOT3_RENAMES:
                        e3 = e3.replace(a, b)
                    rec["expr_godot3"] = e3
            rec["godot_versions"] = ver
            rec["hex"] = hx
            rec["nodepath_padding"] = pads
            if notes:
                rec["notes"] = notes
            rec["provenance"] = prov
            out.append(rec)

    # 8.2: Value | Godot version | Bytes | Notes ("same value" refers to the row above)
    prov = "shared/spec/wire-format.md §8.2"
    last_value = None
    for cells in list(rows(section(text, "8.2")))[1:]:
        value, ver, b, notes = cells
        if value.startswith("same"):
            value = last_value + value[len("same value"):] if value == "same value" else last_value + " " + value
        last_value = value.split(", `var_to_bytes")[0] if value.startswith("`var a: Array[Node]") else value
        hx, pads = hex_of(b)
        rec = {"name": unique(slug(value + " " + ver.replace("+", "plus")), seen4)}
        put_expr(rec, value)
        rec["godot_versions"] = ver
        rec["hex"] = hx
        rec["nodepath_padding"] = pads
        if notes:
            rec["notes"] = notes
        rec["provenance"] = prov
        g4.append(rec)

    # 8.3: real 3.x captures (bullets)
    prov = "shared/spec/wire-format.md §8.3"
    sec = section(text, "8.3")
    for item in re.split(r"\n\* ", sec)[1:]:
        head = re.split(r":\n|: `", item)[0]
        hx, pads = hex_of(item.replace("\n  ", " "))
        ver = re.search(r"Godot (\d+\.\d+\.\d+)", item).group(1)
        call = code(head)
        rec = {"name": unique(slug("capture " + ver + " " + call[0]), seen3),
               "description": head.replace("`", "").strip(), "godot_versions": ver,
               "direction": "decode", "hex": hx, "nodepath_padding": pads, "provenance": prov}
        m = re.fullmatch(r"var2bytes\((.*)\)", call[0])
        if m:  # a 3.2.3 capture: also what a 3.2.3 engine must encode
            rec["expr_godot3"] = m.group(1)
            rec["direction"] = "both"
        g3.append(rec)

    # 8.4: Call | Bytes (framing)
    prov = "shared/spec/wire-format.md §8.4"
    last_call = None
    for cells in list(rows(section(text, "8.4")))[1:]:
        call, b = cells
        if call.startswith("same"):
            call = last_call + " " + call[len("same "):]
        last_call = call
        rec = {"name": unique("framing_" + slug(call.split(" / ")[0]), seen4), "kind": "framing",
               "call": call.replace("`", "")}
        spans = code(b)
        if spans and spans[0].startswith('"'):
            rec["text"] = spans[0].strip('"')
            hx, pads = hex_of("`" + spans[1] + "`")
            rec["hex_payload"] = hx
        else:
            hx, pads = hex_of(b)
            rec["hex"] = hx
        rec["godot_versions"] = "4.x"
        rec["provenance"] = prov
        g4.append(rec)

    for path, recs in (("tests/fixtures/godot4/spec_examples.jsonl", g4),
                       ("tests/fixtures/godot3/spec_examples.jsonl", g3)):
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print("%s: %d records" % (path, len(recs)), file=sys.stderr)


if __name__ == "__main__":
    main()
