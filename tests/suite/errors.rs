//! Every malformed-input class gets its own error kind and a message with the byte offset.
use crate::common;
use common::*;
use godot_serde::{Config, ErrorKind, GodotVersion, Variant};
use serde::de::IgnoredAny;
use std::collections::BTreeMap;

/// (name, config, hex): decoded as `IgnoredAny`, which walks any value.
fn decode_cases() -> Vec<(&'static str, Config, &'static str)> {
    let g4 = Config::godot4();
    let g3 = Config::godot3();
    vec![
        ("empty input", g4, ""),
        ("3 bytes", g4, "000000"),
        ("unknown type 39 in 4.4", g4, "27000000"),
        (
            "PackedVector4Array id 38 in 4.0-4.2",
            Config::new(GodotVersion::V4_0),
            "26000000 00000000",
        ),
        ("unknown type 27 in 3.x", g3, "1b000000"),
        ("bool without payload", g4, "01000000"),
        ("64-bit int cut short", g4, "02000100 01000000"),
        ("negative string length", g4, "04000000 ffffffff"),
        (
            "string longer than the input",
            g4,
            "04000000 ffffff7f 61626364",
        ),
        ("string padding missing", g4, "04000000 01000000 61"),
        ("invalid UTF-8", g4, "04000000 01000000 ff000000"),
        (
            "UTF-16 surrogate in UTF-8",
            g4,
            "04000000 03000000 eda080 00",
        ),
        (
            "Array count 2^31-1 in 12 bytes",
            g4,
            "1c000000 ffffff7f 00000000",
        ),
        (
            "Dictionary count near 2^31",
            g4,
            "1b000000 ffffff7f 00000000",
        ),
        ("Array element missing", g4, "1c000000 02000000 00000000"),
        ("legacy NodePath", g4, "16000000 01000000 00000000"),
        (
            "NodePath with 2^30 names",
            g4,
            "16000000 ffffffbf 00000000 00000000",
        ),
        (
            "full object refused",
            g4,
            "18000000 04000000 4e6f6465 00000000",
        ),
        ("PackedInt32Array negative count", g4, "1e000000 ffffffff"),
        (
            "PackedVector3Array 2^30 elements",
            g4,
            "24000000 00000040 00000000",
        ),
        (
            "PackedByteArray longer than input",
            g4,
            "1d000000 05000000 01020304",
        ),
        (
            "typed Array with builtin id 99",
            g4,
            "1c000100 63000000 00000000",
        ),
        (
            "5-byte UTF-8 form in Godot 3",
            g3,
            "04000000 05000000 f8888080 80000000",
        ),
        (
            "invalid UTF-8 in a StringName",
            g4,
            "15000000 01000000 ff000000",
        ),
        (
            "invalid UTF-8 in a NodePath name",
            g4,
            "16000000 01000080 00000000 00000000 01000000 ff000000",
        ),
        (
            "PackedStringArray count 2^31-1",
            g4,
            "22000000 ffffff7f 00000000",
        ),
        (
            "object property count 2^31-1",
            g4.with_allow_objects(true),
            "18000000 04000000 4e6f6465 ffffff7f",
        ),
        (
            "full object refused in Godot 3",
            g3,
            "11000000 04000000 4e6f6465 00000000",
        ),
        (
            "typed Array class name longer than the input",
            g4,
            "1c000200 ffffff7f 4e6f6465",
        ),
        (
            "typed Dictionary with builtin id 99",
            g4,
            "1b000500 63000000 02000000 00000000",
        ),
        (
            "Godot 3 PoolVector3Array 2^30 elements",
            g3,
            "18000000 00000040 00000000",
        ),
        (
            "nesting past the limit",
            Config::default().with_max_depth(2),
            "1c000000 01000000 1c000000 01000000 1c000000 01000000 1c000000 00000000",
        ),
    ]
}

#[test]
fn malformed_input_messages() {
    let mut out = String::new();
    for (name, config, input) in decode_cases() {
        let bytes = hex(input);
        let slice = config.from_bytes::<IgnoredAny>(&bytes).expect_err(name);
        let reader = config
            .from_reader::<_, IgnoredAny>(&bytes[..])
            .expect_err(name);
        // The slice and the reader agree on the kind of failure; only the slice knows the
        // length of the input up front, so a too-long length is LengthTooLarge there and
        // end-of-input from the reader.
        let same = std::mem::discriminant(slice.kind()) == std::mem::discriminant(reader.kind())
            || (matches!(slice.kind(), ErrorKind::LengthTooLarge { .. }) && reader.is_eof());
        assert!(same, "{name}: {slice} vs {reader}");
        assert!(slice.offset().is_some(), "{name}: no offset in {slice}");
        out.push_str(&format!("{name}: {slice}\n"));
    }
    snap!("errors_malformed_input", out);
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
struct Player {
    id: u32,
    name: String,
}

#[test]
fn type_mismatch_messages_name_godot_types() {
    let mut out = String::new();
    let mut line = |name: &str, e: godot_serde::Error| out.push_str(&format!("{name}: {e}\n"));
    // Vector2 (05000000 ...) where a u32 is expected, inside a Dictionary at byte 24.
    let bytes = hex(
        "1b000000 02000000 04000000 02000000 69640000 05000000 0000803f 00000040 04000000 04000000 6e616d65 04000000 01000000 61000000",
    );
    line(
        "Vector2 for u32",
        godot_serde::from_bytes::<Player>(&bytes).unwrap_err(),
    );
    line(
        "negative int for u32",
        godot_serde::from_bytes::<u32>(&hex("02000000 ffffffff")).unwrap_err(),
    );
    line(
        "300 for u8",
        godot_serde::from_bytes::<u8>(&hex("02000000 2c010000")).unwrap_err(),
    );
    line(
        "float for i32",
        godot_serde::from_bytes::<i32>(&hex("03000000 0000c03f")).unwrap_err(),
    );
    line(
        "String for bool",
        godot_serde::from_bytes::<bool>(&hex("04000000 00000000")).unwrap_err(),
    );
    line(
        "Array for a map",
        godot_serde::from_bytes::<BTreeMap<String, i32>>(&hex("1c000000 00000000")).unwrap_err(),
    );
    line(
        "missing field",
        godot_serde::from_bytes::<Player>(&hex("1b000000 00000000")).unwrap_err(),
    );
    line(
        "tuple too short",
        godot_serde::from_bytes::<(i32, i32)>(&hex("1c000000 01000000 02000000 01000000"))
            .unwrap_err(),
    );
    line(
        "tuple too long",
        godot_serde::from_bytes::<(i32,)>(&hex(
            "1c000000 02000000 02000000 01000000 02000000 01000000",
        ))
        .unwrap_err(),
    );
    line(
        "trailing bytes",
        godot_serde::from_bytes::<i32>(&hex("02000000 01000000 00000000")).unwrap_err(),
    );
    snap!("errors_type_mismatch", out);
}

#[test]
fn encoding_errors() {
    let mut out = String::new();
    let mut line = |name: &str, e: godot_serde::Error| out.push_str(&format!("{name}: {e}\n"));
    line(
        "u64 above i64",
        godot_serde::to_bytes(&u64::MAX).unwrap_err(),
    );
    line(
        "i128 below i64",
        godot_serde::to_bytes(&i128::MIN).unwrap_err(),
    );
    line(
        "NUL in a String",
        godot_serde::to_bytes(&"a\0b").unwrap_err(),
    );
    line(
        "NUL in a key",
        godot_serde::to_bytes(&[("a\0", 1)].into_iter().collect::<BTreeMap<_, _>>()).unwrap_err(),
    );
    snap!("errors_encoding", out);
    let _ = Variant::Nil;
}

/// Texts that used to mislead: a String for a NodePath offered "its text", an Array for a
/// packed array offered "a sequence of elements" (the binary format accepts neither), the
/// depth error did not say which setting raises it, "1 more bytes", "at at byte".
#[test]
fn error_texts_say_what_is_accepted() {
    let g4 = Config::godot4();
    // "a": String header, length 1, "a" + 3 bytes of padding.
    let string = hex("04000000 01000000 61000000");
    let err = g4.from_bytes::<godot_serde::NodePath>(&string).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: String, expected a NodePath (byte 0)"
    );
    // [1]: Array header, count 1, int 1.
    let array = hex("1c000000 01000000 02000000 01000000");
    let err = g4
        .from_bytes::<godot_serde::PackedInt32Array>(&array)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: Array, expected a PackedInt32Array (byte 0)"
    );
    // [[1]] with a depth limit of 1.
    let nested = hex("1c000000 01000000 1c000000 01000000 02000000 01000000");
    let err = g4
        .with_max_depth(0)
        .from_bytes::<IgnoredAny>(&nested)
        .unwrap_err();
    assert!(
        err.to_string().contains("(Config::with_max_depth)"),
        "{err}"
    );
    let err = g4.from_bytes::<IgnoredAny>(&hex("000000")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unexpected end of input, 1 more byte needed (byte 0)"
    );
    let err = g4.to_bytes(&"a\0b").unwrap_err();
    assert!(!err.to_string().contains("at at"), "{err}");
}
