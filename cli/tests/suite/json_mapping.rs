//! The JSON mapping of cli/README.md: each form encodes to the bytes derived by hand from the
//! wire format (docs/wire-format.md), and `inspect --json` gives the same JSON back.

use crate::common;

use common::run;

/// `encode -e JSON --hex` with extra arguments.
fn encode(json: &str, args: &[&str]) -> String {
    let mut all = vec!["encode", "--hex", "-e", json];
    all.extend(args);
    let r = run(&all, b"");
    assert_eq!(r.code, Some(0), "{json}: {}", r.stderr);
    r.out().trim_end().to_owned()
}

/// `inspect --raw --json` of hex, compact.
fn inspect(hex: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["inspect", "--raw", "--json", "--hex", hex];
    all.extend(args);
    let r = run(&all, b"");
    assert_eq!(r.code, Some(0), "{hex}: {}", r.stderr);
    serde_json::from_str(&r.out()).unwrap()
}

#[test]
fn each_form_encodes_to_hand_derived_bytes_and_back() {
    // (JSON, Godot 4.4 bytes): header word (type id | flags << 16), then the payload.
    let cases: &[(&str, &str)] = &[
        ("null", "00000000"),
        ("true", "01000000 01000000"),
        // 2^31 does not fit in 32 bits: flag bit 16, 8 bytes.
        ("2147483648", "02000100 00000080 00000000"),
        ("-7", "02000000 f9ffffff"),
        // 0.1 is not exactly an f32: flag bit 16, f64 0x3fb999999999999a.
        ("0.1", "03000100 9a999999 9999b93f"),
        // -inf is exactly an f32 (4 bytes); NaN is always written as f64 (README, type mapping).
        (
            r#"{"$type": "float", "value": "-inf"}"#,
            "03000000 000080ff",
        ),
        (
            r#"{"$type": "float", "value": "nan"}"#,
            "03000100 00000000 0000f87f",
        ),
        (r#""hé""#, "04000000 03000000 68c3a900"),
        (
            r#"{"$type": "Vector2", "value": [12.5, -3.0]}"#,
            "05000000 00004841 000040c0",
        ),
        (
            r#"{"$type": "Vector2i", "value": [1, -1]}"#,
            "06000000 01000000 ffffffff",
        ),
        (
            r#"{"$type": "Rect2", "value": [1.0, 2.0, 3.0, 4.0]}"#,
            "07000000 0000803f 00000040 00004040 00008040",
        ),
        (
            r#"{"$type": "Color", "value": [1.0, 0.5, 0.0, 1.0]}"#,
            "14000000 0000803f 0000003f 00000000 0000803f",
        ),
        (
            r#"{"$type": "StringName", "value": "go"}"#,
            "15000000 02000000 676f0000",
        ),
        // NodePath: new-format flag in the name count, 1 name, 1 subname, not absolute.
        (
            r#"{"$type": "NodePath", "value": "a:b"}"#,
            "16000000 01000080 01000000 00000000 01000000 61000000 01000000 62000000",
        ),
        (
            r#"{"$type": "RID", "value": 5}"#,
            "17000000 05000000 00000000",
        ),
        // Object by instance id: header flag bit 16, u64 id.
        (
            r#"{"$type": "ObjectId", "value": 1288}"#,
            "18000100 08050000 00000000",
        ),
        (r#"{"$type": "Callable"}"#, "19000000"),
        (
            r#"{"$type": "Signal", "name": "hit", "object": 3}"#,
            "1a000000 03000000 68697400 03000000 00000000",
        ),
        (
            r#"{"a": 1}"#,
            "1b000000 01000000 04000000 01000000 61000000 02000000 01000000",
        ),
        (
            r#"{"$type": "Dictionary", "entries": [[1, "one"]]}"#,
            "1b000000 01000000 02000000 01000000 04000000 03000000 6f6e6500",
        ),
        // Typed Dictionary[int, String] (4.4): key type in bits 16-17, value type in 18-19
        // (1 = builtin), each followed by its type id.
        (
            r#"{"$type": "Dictionary", "key_type": "int", "value_type": "String", "entries": []}"#,
            "1b000500 02000000 04000000 00000000",
        ),
        (
            r#"[1, "two"]"#,
            "1c000000 02000000 02000000 01000000 04000000 03000000 74776f00",
        ),
        (
            r#"{"$type": "Array", "element_type": "int", "value": [5]}"#,
            "1c000100 02000000 01000000 02000000 05000000",
        ),
        (
            r#"{"$type": "PackedByteArray", "value": [1, 2, 3]}"#,
            "1d000000 03000000 01020300",
        ),
        (
            r#"{"$type": "PackedInt64Array", "value": [-1]}"#,
            "1f000000 01000000 ffffffff ffffffff",
        ),
        // Element lengths count a NUL terminator (wire-format.md §4.19): "x" is 2 bytes.
        (
            r#"{"$type": "PackedStringArray", "value": ["x"]}"#,
            "22000000 01000000 02000000 78000000",
        ),
        (
            r#"{"$type": "PackedVector2Array", "value": [[1.0, 2.0]]}"#,
            "23000000 01000000 0000803f 00000040",
        ),
    ];
    for (json, hex) in cases {
        assert_eq!(encode(json, &[]), *hex, "{json}");
        let back = inspect(hex, &[]);
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(json).unwrap(),
            "{hex}"
        );
    }
}

#[test]
fn objects_and_godot3_names() {
    // A full object needs --allow-objects to be read; written, it is header 24 without the
    // id flag, the class name, the property count and name/value pairs.
    let obj = r#"{"$type": "Object", "class": "Node", "properties": [["name", "n"]]}"#;
    let hex = "18000000 04000000 4e6f6465 01000000 04000000 6e616d65 04000000 01000000 6e000000";
    assert_eq!(encode(obj, &[]), hex);
    assert_eq!(
        inspect(hex, &["--allow-objects"]),
        serde_json::from_str::<serde_json::Value>(obj).unwrap()
    );
    let r = run(&["inspect", "--raw", "--hex", hex], b"");
    assert_eq!(
        r.code,
        Some(1),
        "objects are refused without --allow-objects"
    );
    // A container typed with a class: with objects allowed (`var_to_bytes_with_objects`) it
    // carries the class name (header 28 with container kind 2 in bits 16-17, "Node", count 0);
    // without, the engine writes the class `EncodedObjectAsID` instead (17 bytes + 3 padding),
    // as Godot 4.6's `var_to_bytes` does (checked live in tests/suite/godot4_live.rs).
    let typed = r#"{"$type": "Array", "element_type": {"class": "Node"}, "value": []}"#;
    let with_objects = "1c000200 04000000 4e6f6465 00000000";
    assert_eq!(encode(typed, &["--allow-objects"]), with_objects);
    assert_eq!(
        inspect(with_objects, &["--allow-objects"]),
        serde_json::from_str::<serde_json::Value>(typed).unwrap()
    );
    assert_eq!(
        encode(typed, &[]),
        "1c000200 11000000 456e636f 6465644f 626a6563 74417349 44000000 00000000"
    );
    // Godot 3 names are accepted as input: Quat and PoolIntArray (ids 10 and 21 in Godot 3).
    assert_eq!(
        encode(
            r#"{"$type": "Quat", "value": [0.0, 0.0, 0.0, 1.0]}"#,
            &["--godot3"]
        ),
        "0a000000 00000000 00000000 00000000 0000803f"
    );
    assert_eq!(
        encode(r#"{"$type": "PoolIntArray", "value": [10]}"#, &["--godot3"]),
        "15000000 01000000 0a000000"
    );
}

#[test]
fn malformed_mapping_is_an_error_with_its_place() {
    for (json, message) in [
        (r#"{"$type": 5}"#, "\"$type\" must be a type name at $"),
        (
            r#"[{"$type": "Vector2i", "value": [1, 2.5]}]"#,
            "expected an integer in the range of a 32-bit int at $[0].value[1]",
        ),
        (
            r#"{"$type": "PackedByteArray", "value": [256]}"#,
            "expected an integer in the range of a byte at $.value[0]",
        ),
        (
            r#"{"$type": "Dictionary", "entries": [[1, 2], [1, 3]]}"#,
            "duplicate Dictionary key at $.entries[1]",
        ),
        (
            r#"{"$type": "Array", "element_type": "Nope", "value": []}"#,
            "unknown type name \"Nope\" at $",
        ),
        (
            r#"{"$type": "Signal", "name": "x"}"#,
            "Signal needs a \"object\" field at $",
        ),
        (
            r#"{"$type": "int", "value": "1"}"#,
            "int: \"value\" is a String at $",
        ),
    ] {
        let r = run(&["encode", "--hex", "-e", json], b"");
        assert_eq!(r.code, Some(1), "{json}");
        assert_eq!(
            r.stderr,
            format!("error: JSON input, value 0: {message}\n"),
            "{json}"
        );
    }
}

#[test]
fn double_precision_builds() {
    // wire-format.md §8.2 (tests/fixtures/godot4/spec_examples.jsonl): Vector2(1, 2) from a
    // Godot 4 engine built with precision=double: flag bit 16, two f64 per component.
    let double = "05000100 00000000 0000f03f 00000000 00000040";
    let json = r#"{"$type": "Vector2", "value": [1.0, 2.0]}"#;
    assert_eq!(
        inspect(double, &[]),
        serde_json::from_str::<serde_json::Value>(json).unwrap()
    );
    assert_eq!(encode(json, &["--double-precision"]), double);
    assert_eq!(encode(json, &[]), "05000000 0000803f 00000040");
    let r = run(
        &["encode", "--double-precision", "--godot3", "-e", "1"],
        b"",
    );
    assert_eq!(r.code, Some(2));
}
