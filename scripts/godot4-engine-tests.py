#!/usr/bin/env python3
"""Writes tests/fixtures/godot4/engine_tests.jsonl: every byte vector asserted by Godot's own
unit tests in tests/core/io/test_marshalls.h, transcribed from the file at the commit below.

    python3 scripts/godot4-engine-tests.py

Fields: name, kind ("variant" = encode_variant/decode_variant, "primitive" = encode_uint16 etc.),
expr (GDScript 4 expression of the value, when one exists), description, hex, direction
("encode", "decode" or "both": which way the engine tests assert the bytes), expect ("ok" or the
error the decoder must return), r_len (bytes consumed asserted by the test, when asserted),
test_cases (the TEST_CASE names), provenance.
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "godotengine/godot@213cd35b48c93d5eabef075e4846f241ee4d61ff tests/core/io/test_marshalls.h"
X = "-1070935975390360081"  # 0x0F123456789ABCDEF as a signed 64-bit int

CASES = [
    # name, kind, expr, description, hex, direction, expect, r_len, test cases
    ("uint16_0x1234", "primitive", None, "encode_uint16(0x1234) / decode_uint16",
     "3412", "both", "ok", 2,
     ["[Marshalls] Unsigned 16 bit integer encoding", "[Marshalls] Unsigned 16 bit integer decoding"]),
    ("uint32_0x12345678", "primitive", None, "encode_uint32(0x12345678) / decode_uint32",
     "78563412", "both", "ok", 4,
     ["[Marshalls] Unsigned 32 bit integer encoding", "[Marshalls] Unsigned 32 bit integer decoding"]),
    ("uint64_0xf123456789abcdef", "primitive", None, "encode_uint64(0x0f123456789abcdef) / decode_uint64",
     "efcdab89674523f1", "both", "ok", 8,
     ["[Marshalls] Unsigned 64 bit integer encoding", "[Marshalls] Unsigned 64 bit integer decoding"]),
    ("half_0_33325195", "primitive", None, "encode_half(0.33325195f) / decode_half (IEEE half 0x3555)",
     "5535", "both", "ok", 2,
     ["[Marshalls] Floating point half precision encoding", "[Marshalls] Floating point half precision decoding"]),
    ("float_0_15625", "primitive", None, "encode_float(0.15625f) / decode_float (0x3E200000)",
     "0000203e", "both", "ok", 4,
     ["[Marshalls] Floating point single precision encoding", "[Marshalls] Floating point single precision decoding"]),
    ("double_one_third", "primitive", None, "encode_double(0.33333333333333333) / decode_double (0x3FD5555555555555)",
     "555555555555d53f", "both", "ok", 8,
     ["[Marshalls] Floating point double precision encoding", "[Marshalls] Floating point double precision decoding"]),
    ("cstring_godot", "primitive", None, "encode_cstring(\"Godot\"): bytes and a NUL, size 6",
     "476f646f7400", "encode", "ok", 6,
     ["[Marshalls] C string encoding"]),
    ("variant_nil", "variant", "null", "Variant() (NIL)",
     "00000000", "both", "ok", 4,
     ["[Marshalls] NIL Variant encoding", "[Marshalls] NIL Variant decoding"]),
    ("variant_int32_0x12345678", "variant", "0x12345678", "INT that fits in 32 bits",
     "0200000078563412", "both", "ok", 8,
     ["[Marshalls] INT 32 bit Variant encoding", "[Marshalls] INT 32 bit Variant decoding"]),
    ("variant_int64_0xf123456789abcdef", "variant", X, "INT uint64_t(0x0f123456789abcdef), 64-bit flag",
     "02000100efcdab89674523f1", "both", "ok", 12,
     ["[Marshalls] INT 64 bit Variant encoding", "[Marshalls] INT 64 bit Variant decoding"]),
    ("variant_float_0_15625", "variant", "0.15625", "FLOAT exact in f32: no flag",
     "030000000000203e", "both", "ok", 8,
     ["[Marshalls] FLOAT single precision Variant encoding", "[Marshalls] FLOAT single precision Variant decoding"]),
    ("variant_float_one_third", "variant", "0.33333333333333333", "FLOAT not exact in f32: flag + f64",
     "03000100555555555555d53f", "both", "ok", 12,
     ["[Marshalls] FLOAT double precision Variant encoding", "[Marshalls] FLOAT double precision Variant decoding"]),
    ("variant_invalid_1_byte", "variant", None, "1 byte: shorter than a header",
     "00", "decode", "ERR_INVALID_DATA", 0,
     ["[Marshalls] Invalid data Variant decoding"]),
    ("variant_invalid_type_0xff", "variant", None, "type id 0xff >= VARIANT_MAX",
     "ff000000", "decode", "ERR_INVALID_DATA", 0,
     ["[Marshalls] Invalid data Variant decoding"]),
    ("variant_typed_array_int", "variant", "Array([" + X + "], TYPE_INT, &\"\", null)",
     "Array typed INT (set_typed) holding uint64_t(0x0f123456789abcdef); decode asserts get_typed_builtin() == INT",
     "1c000100020000000100000002000100efcdab89674523f1", "both", "ok", 24,
     ["[Marshalls] Typed array encoding", "[Marshalls] Typed array decoding"]),
    ("variant_typed_dictionary_int_int", "variant",
     "Dictionary({" + X + ": " + X + "}, TYPE_INT, &\"\", null, TYPE_INT, &\"\", null)",
     "Dictionary typed [int, int] holding {X: X}, X = uint64_t(0x0f123456789abcdef); decode asserts both typed builtins == INT",
     "1b00050002000000020000000100000002000100efcdab89674523f102000100efcdab89674523f1",
     "both", "ok", 40,
     ["[Marshalls] Typed dicttionary encoding", "[Marshalls] Typed dictionary decoding"]),
]


def main():
    path = os.path.join(ROOT, "tests/fixtures/godot4/engine_tests.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for name, kind, expr, desc, hx, direction, expect, r_len, tests in CASES:
            assert len(hx) % 2 == 0 and hx == hx.lower(), name
            if r_len and expect == "ok":
                assert len(hx) // 2 == r_len, (name, len(hx) // 2, r_len)
            rec = {"name": name, "kind": kind}
            if expr is not None:
                rec["expr"] = expr
            rec.update({"description": desc, "hex": hx, "direction": direction, "expect": expect,
                        "r_len": r_len, "test_cases": tests,
                        "provenance": SOURCE + " :: " + "; ".join(tests)})
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("%s: %d records" % (path, len(CASES)))


if __name__ == "__main__":
    main()
