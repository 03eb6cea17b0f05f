#!/usr/bin/env python3
"""Cross-checks tests/fixtures/godot3/vectors.jsonl against the layout rules of wire-format.md.

    python3 scripts/godot3-spec-roundtrip.py

Parses every `hex_canonical` (and `hex_full_objects`) following the spec's 3.x layout, re-encodes
the parsed value with the spec's encoder rules (int and float width, zero padding, PoolStringArray
NUL) and reports every record whose bytes differ or do not parse to the end.
"""
import json
import math
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATH = {5: 2, 6: 4, 7: 3, 8: 6, 9: 4, 10: 4, 11: 6, 12: 9, 13: 12, 14: 4}
POOL = {21: ("<i", 4), 22: ("<f", 4), 24: ("<ff", 8), 25: ("<fff", 12), 26: ("<ffff", 16)}


class R:
    def __init__(self, b):
        self.b, self.p = b, 0

    def take(self, n):
        assert self.p + n <= len(self.b), "truncated"
        out = self.b[self.p:self.p + n]
        self.p += n
        return out

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def gstr(self, nul=False):
        n = self.u32()
        s = self.take(n)
        self.take((4 - n % 4) % 4)
        return s[:-1] if nul else s


def dec(r):
    h = r.u32()
    t, flag = h & 0xFF, (h >> 16) & 1
    if t == 0:
        return (0,)
    if t == 1:
        return (1, r.u32())
    if t == 2:
        return (2, struct.unpack("<q" if flag else "<i", r.take(8 if flag else 4))[0])
    if t == 3:
        return (3, struct.unpack("<d" if flag else "<f", r.take(8 if flag else 4))[0], r.b[r.p - (8 if flag else 4):r.p])
    if t == 4:
        return (4, r.gstr())
    if t in MATH:
        return (t, r.take(4 * MATH[t]))
    if t == 15:
        nn = r.u32()
        assert nn & 0x80000000
        ns, fl = r.u32(), r.u32()
        return (15, fl, nn & 0x7FFFFFFF, [r.gstr() for _ in range((nn & 0x7FFFFFFF) + ns)])
    if t == 16:
        return (16,)
    if t == 17:
        if flag:
            return (17, "id", r.take(8))
        cls = r.gstr()
        n = r.u32()
        return (17, "full", cls, [(r.gstr(), dec(r)) for _ in range(n)])
    if t == 18:
        n = r.u32() & 0x7FFFFFFF
        return (18, [(dec(r), dec(r)) for _ in range(n)])
    if t == 19:
        n = r.u32() & 0x7FFFFFFF
        return (19, [dec(r) for _ in range(n)])
    if t == 20:
        n = r.u32()
        data = r.take(n)
        r.take((4 - n % 4) % 4)
        return (20, data)
    if t == 23:
        n = r.u32()
        return (23, [r.gstr(nul=True) for _ in range(n)])
    if t in POOL:
        n = r.u32()
        return (t, n, r.take(n * POOL[t][1]))
    raise AssertionError("type %d" % t)


def u32(v):
    return struct.pack("<I", v)


def gstr(s):
    return u32(len(s)) + s + b"\0" * ((4 - len(s) % 4) % 4)


def enc(v):
    t = v[0]
    if t in (0, 16):
        return u32(t)
    if t == 1:
        return u32(1) + u32(1 if v[1] else 0)
    if t == 2:
        if -2**31 <= v[1] < 2**31:
            return u32(2) + struct.pack("<i", v[1])
        return u32(0x10002) + struct.pack("<q", v[1])
    if t == 3:
        x = v[1]
        if math.isnan(x):
            return u32(0x10003) + (v[2] if len(v[2]) == 8 else struct.pack("<d", x))
        try:
            f = struct.unpack("<f", struct.pack("<f", x))[0]
        except OverflowError:
            f = None
        if f == x:
            return u32(3) + struct.pack("<f", x)
        return u32(0x10003) + struct.pack("<d", x)
    if t == 4:
        return u32(4) + gstr(v[1])
    if t in MATH:
        return u32(t) + v[1]
    if t == 15:
        _, fl, nn, parts = v
        return u32(15) + u32(nn | 0x80000000) + u32(len(parts) - nn) + u32(fl & 1) + b"".join(gstr(p) for p in parts)
    if t == 17:
        if v[1] == "id":
            return u32(0x10011) + v[2]
        return u32(17) + gstr(v[2]) + u32(len(v[3])) + b"".join(gstr(k) + enc(x) for k, x in v[3])
    if t == 18:
        return u32(18) + u32(len(v[1])) + b"".join(enc(k) + enc(x) for k, x in v[1])
    if t == 19:
        return u32(19) + u32(len(v[1])) + b"".join(enc(x) for x in v[1])
    if t == 20:
        return u32(20) + u32(len(v[1])) + v[1] + b"\0" * ((4 - len(v[1]) % 4) % 4)
    if t == 23:
        return u32(23) + u32(len(v[1])) + b"".join(gstr(s + b"\0") for s in v[1])
    if t in POOL:
        return u32(t) + u32(v[1]) + v[2]
    raise AssertionError(t)


def main():
    bad = checked = 0
    for line in open(os.path.join(ROOT, "tests/fixtures/godot3/vectors.jsonl"), encoding="utf-8"):
        rec = json.loads(line)
        for field in ("hex_canonical", "hex_full_objects_canonical", "hex_full_objects"):
            if field not in rec or (field == "hex_full_objects" and "hex_full_objects_canonical" in rec):
                continue
            b = bytes.fromhex(rec[field])
            checked += 1
            try:
                r = R(b)
                v = dec(r)
                assert r.p == len(b), "%d trailing bytes" % (len(b) - r.p)
                out = enc(v)
            except AssertionError as e:
                bad += 1
                print("%s %s: does not parse by the spec: %s" % (rec["name"], field, e))
                continue
            if out != b:
                bad += 1
                print("%s %s: spec re-encoding differs\n  engine %s\n  spec   %s" % (rec["name"], field, b.hex(), out.hex()))
    print("%d encodings checked, %d disagree with the spec" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
