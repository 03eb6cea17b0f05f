#!/usr/bin/env python3
"""Crafted malformed or unusual inputs for the Godot 3 decoder.

    python3 scripts/godot3-bad-inputs.py OUTDIR

Writes OUTDIR/<name>.bin for every case and OUTDIR/cases.json ([{name, description, hex}]).
scripts/godot3-bad-inputs.sh feeds them to a real engine and records its verdicts.
"""
import json
import os
import struct
import sys


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def gstr(b, pad=True):
    out = u32(len(b)) + b
    if pad:
        out += b"\0" * ((4 - len(b) % 4) % 4)
    return out


def string(b, pad=True):
    return u32(4) + gstr(b, pad)


INT5 = u32(2) + u32(5)
NP_HEAD = u32(15) + u32(0x80000001) + u32(1) + u32(0)  # one name, one subname, relative

CASES = [
    # --- truncation at every field
    ("trunc_empty", "no bytes at all", b""),
    ("trunc_header_3_bytes", "3 bytes, shorter than a header", b"\0\0\0"),
    ("trunc_bool_payload", "bool header and 2 of its 4 payload bytes", u32(1) + b"\1\0"),
    ("trunc_int32_payload", "int header and 3 of 4 payload bytes", u32(2) + b"\5\0\0"),
    ("trunc_int64_payload", "int with the 64-bit flag and only 4 payload bytes", u32(0x10002) + u32(5)),
    ("trunc_float32_payload", "float header and 2 payload bytes", u32(3) + b"\0\0"),
    ("trunc_float64_payload", "float with the 64-bit flag and only 4 payload bytes", u32(0x10003) + u32(0)),
    ("trunc_string_length", "String header and 2 bytes of the length word", u32(4) + b"\5\0"),
    ("trunc_string_data", "String of length 5 with only 3 bytes of text", u32(4) + u32(5) + b"abc"),
    ("string_missing_padding", "String 'abcde' with its 3 padding bytes missing (end of input)", string(b"abcde", pad=False)),
    ("trunc_vector2", "Vector2 with 4 of 8 payload bytes", u32(5) + u32(0)),
    ("trunc_transform", "Transform with 44 of 48 payload bytes", u32(13) + b"\0" * 44),
    ("trunc_color", "Color with 12 of 16 payload bytes", u32(14) + b"\0" * 12),
    ("trunc_nodepath_counts", "NodePath with 8 of its 12 count/flag bytes", u32(15) + u32(0x80000001) + u32(1)),
    ("trunc_nodepath_name", "NodePath whose first name (length 5) has 2 bytes", NP_HEAD + u32(5) + b"ab"),
    ("trunc_array_count", "Array header and 2 bytes of the count", u32(19) + b"\2\0"),
    ("trunc_array_elements", "Array of count 2 holding only one element", u32(19) + u32(2) + INT5),
    ("trunc_dict_value", "Dictionary of count 1 with a key and no value", u32(18) + u32(1) + string(b"a")),
    ("trunc_object_id", "object-as-id with 4 of 8 id bytes", u32(0x10011) + u32(5)),
    ("trunc_pool_int", "PoolIntArray of count 2 with one element", u32(21) + u32(2) + u32(1)),
    ("trunc_pool_vector3", "PoolVector3Array of count 1 with 8 of 12 bytes", u32(25) + u32(1) + b"\0" * 8),
    ("trunc_pool_string", "PoolStringArray of count 2 with one element", u32(23) + u32(2) + gstr(b"a\0")),
    ("trunc_pool_color", "PoolColorArray of count 1 with 12 of 16 bytes", u32(26) + u32(1) + b"\0" * 12),
    # --- header
    ("type_27", "type id 27 = VARIANT_MAX of 3.x", u32(27)),
    ("type_255", "type id 255", u32(255)),
    ("type_27_with_bit8", "type id 27 with header bit 8 set (0x11b)", u32(0x11B)),
    ("header_bits_8_15_int", "int 5 with header bits 8-15 set (0x0000ff02)", u32(0xFF02) + u32(5)),
    ("header_bit8_nil", "header 0x00000100: type 0 with bit 8 set", u32(0x100)),
    ("header_flag_on_bool", "bool with bit 16 set (unused for bool)", u32(0x10001) + u32(1)),
    ("vector2_with_flag64", "Vector2 with bit 16 set and 8 f32 payload bytes: 3.x ignores the flag", u32(0x10005) + struct.pack("<ff", 1, 2)),
    ("bool_value_2", "bool payload 2", u32(1) + u32(2)),
    ("int_small_as_64bit", "int 5 written with the 64-bit flag (as Godot 3.0 did)", u32(0x10002) + struct.pack("<q", 5)),
    ("float_1_5_as_64bit", "float 1.5 written as f64", u32(0x10003) + struct.pack("<d", 1.5)),
    ("trailing_garbage", "int 5 followed by 4 more bytes", INT5 + b"\xff\xff\xff\xff"),
    ("rid_with_payload", "RID header followed by a u64 (the 4.x layout): 3.x reads no payload", u32(16) + struct.pack("<Q", 5)),
    # --- lengths and counts
    ("string_negative_length", "String length 0xffffffff (-1)", u32(4) + u32(0xFFFFFFFF)),
    ("string_length_i32_max", "String length 0x7fffffff", u32(4) + u32(0x7FFFFFFF) + b"abcd"),
    ("string_length_pad_overflow", "String length 0x7ffffffd: length + padding overflows i32", u32(4) + u32(0x7FFFFFFD) + b"abcd"),
    ("array_count_0x80000001", "Array count 0x80000001 with one element (bit 31 is masked off)", u32(19) + u32(0x80000001) + INT5),
    ("array_count_0x7fffffff", "Array count 0x7fffffff with one element", u32(19) + u32(0x7FFFFFFF) + INT5),
    ("dict_count_0x80000001", "Dictionary count 0x80000001 with one pair", u32(18) + u32(0x80000001) + string(b"a") + INT5),
    ("dict_repeated_key", "Dictionary count 2: 'a': 1 then 'a': 2", u32(18) + u32(2) + string(b"a") + u32(2) + u32(1) + string(b"a") + u32(2) + u32(2)),
    ("pool_byte_negative_count", "PoolByteArray count -1", u32(20) + u32(0xFFFFFFFF)),
    ("pool_byte_count_gt_data", "PoolByteArray count 8 with 4 bytes", u32(20) + u32(8) + b"\1\2\3\4"),
    ("pool_byte_at_end_unpadded", "PoolByteArray [1, 2, 3] at the end without its padding byte", u32(20) + u32(3) + b"\1\2\3"),
    ("pool_int_negative_count", "PoolIntArray count -1", u32(21) + u32(0xFFFFFFFF)),
    ("pool_int_count_overflow", "PoolIntArray count 0x40000001 (count * 4 overflows)", u32(21) + u32(0x40000001) + u32(1)),
    ("pool_real_count_gt_data", "PoolRealArray count 3 with 2 elements", u32(22) + u32(3) + b"\0" * 8),
    ("pool_string_negative_count", "PoolStringArray count -1", u32(23) + u32(0xFFFFFFFF)),
    ("pool_string_count_0x80000001", "PoolStringArray count 0x80000001 (not masked: negative)", u32(23) + u32(0x80000001) + gstr(b"a\0")),
    ("pool_string_without_nul", "PoolStringArray element 'ab' written without the NUL (length 2)", u32(23) + u32(1) + gstr(b"ab")),
    ("pool_vector2_negative_count", "PoolVector2Array count -1", u32(24) + u32(0xFFFFFFFF)),
    ("pool_color_count_overflow", "PoolColorArray count 0x10000001 (count * 16 overflows)", u32(26) + u32(0x10000001) + b"\0" * 16),
    # --- UTF-8
    ("utf8_lone_continuation", "String: a lone continuation byte 80", string(b"\x80")),
    ("utf8_overlong_c0", "String: overlong 2-byte C0 AF ('/')", string(b"\xc0\xaf")),
    ("utf8_overlong_3byte", "String: overlong 3-byte E0 80 AF ('/')", string(b"\xe0\x80\xaf")),
    ("utf8_overlong_4byte", "String: overlong 4-byte F0 82 82 AC (euro sign)", string(b"\xf0\x82\x82\xac")),
    ("utf8_overlong_c1", "String: overlong 2-byte C1 BF (U+007F)", string(b"\xc1\xbf")),
    ("utf8_overlong_3byte_nul", "String: overlong 3-byte E0 80 80 (U+0000)", string(b"\xe0\x80\x80")),
    ("utf8_overlong_3byte_max", "String: overlong 3-byte E0 9F BF (U+07FF)", string(b"\xe0\x9f\xbf")),
    ("utf8_overlong_4byte_nul", "String: overlong 4-byte F0 80 80 80 (U+0000)", string(b"\xf0\x80\x80\x80")),
    ("utf8_overlong_4byte_max", "String: overlong 4-byte F0 8F BF BF (U+FFFF)", string(b"\xf0\x8f\xbf\xbf")),
    ("utf8_overlong_5byte", "String: overlong 5-byte F8 80 80 80 AF ('/')", string(b"\xf8\x80\x80\x80\xaf")),
    ("utf8_bad_continuation", "String: C3 followed by '(' instead of a continuation byte", string(b"\xc3(")),
    ("utf8_truncated_sequence", "String: E2 82 at the end of the field (3-byte sequence cut)", string(b"a\xe2\x82")),
    ("utf8_surrogate_high", "String: high surrogate U+D800 as ED A0 80", string(b"\xed\xa0\x80")),
    ("utf8_surrogate_low", "String: low surrogate U+DFFF as ED BF BF", string(b"\xed\xbf\xbf")),
    ("utf8_surrogate_pair_cesu8", "String: U+1F600 as a CESU-8 surrogate pair ED A0 BD ED B8 80", string(b"\xed\xa0\xbd\xed\xb8\x80")),
    ("utf8_above_max_4byte", "String: F4 90 80 80 (U+110000)", string(b"\xf4\x90\x80\x80")),
    ("utf8_5byte_form", "String: 5-byte form F8 88 80 80 80 (U+200000)", string(b"\xf8\x88\x80\x80\x80")),
    ("utf8_6byte_form", "String: 6-byte form FC 84 80 80 80 80 (U+4000000)", string(b"\xfc\x84\x80\x80\x80\x80")),
    ("utf8_byte_fe", "String: byte FE", string(b"\xfe")),
    ("utf8_byte_ff", "String: byte FF", string(b"\xff")),
    ("string_embedded_nul", "String 'a\\0b' (length 3): text stops at the NUL", string(b"a\0b")),
    ("string_bom", "String: BOM EF BB BF then 'hi'", string(b"\xef\xbb\xbfhi")),
    ("string_double_bom", "String: two BOMs then 'hi'", string(b"\xef\xbb\xbf\xef\xbb\xbfhi")),
    # --- NodePath
    ("nodepath_legacy_format", "NodePath in the old format (bit 31 clear): a plain string 'abc'", u32(15) + gstr(b"abc")),
    ("nodepath_property_flag", "NodePath 'a' with flags bit 1 (legacy property): one extra subname 'b' is read", u32(15) + u32(0x80000001) + u32(0) + u32(2) + gstr(b"a") + gstr(b"b")),
    ("nodepath_unknown_flags", "NodePath '/a' with flags 0xfffffff1 (bits 4-31 set, bit 1 clear)", u32(15) + u32(0x80000001) + u32(0) + u32(0xFFFFFFF1) + gstr(b"a")),
    ("nodepath_name_unpadded_at_end", "NodePath 'a' whose name padding is missing at the end", u32(15) + u32(0x80000001) + u32(0) + u32(0) + gstr(b"a", pad=False)),
    # --- objects
    ("full_object_without_allow", "full object of class Reference, 0 properties, decoded without allow_objects", u32(17) + gstr(b"Reference") + u32(0)),
    ("full_object_empty_class", "full object with an empty class name (old null form), without allow_objects", u32(17) + gstr(b"")),
    ("object_as_id_0", "object-as-id with id 0", u32(0x10011) + struct.pack("<Q", 0)),
    ("object_as_id_12345", "object-as-id with id 12345", u32(0x10011) + struct.pack("<Q", 12345)),
    # --- nesting (moderate: Godot 3.2.3 has no depth limit and crashes near 20000 levels)
    ("nested_arrays_100", "100 nested Arrays of one element, innermost holds null", (u32(19) + u32(1)) * 100 + u32(0)),
    ("nested_arrays_1030", "1030 nested Arrays, innermost empty (deeper than the 1024 limit of later versions)", (u32(19) + u32(1)) * 1029 + u32(19) + u32(0)),
    ("nested_dicts_100", "100 nested Dictionaries {'k': ...}, innermost value 5", (u32(18) + u32(1) + string(b"k")) * 100 + INT5),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = set()
    meta = []
    for name, desc, data in CASES:
        assert name not in names, name
        names.add(name)
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(data)
        meta.append({"name": name, "description": desc, "hex": data.hex()})
    with open(os.path.join(out, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False)
    print("%d cases" % len(meta), file=sys.stderr)


if __name__ == "__main__":
    main()
