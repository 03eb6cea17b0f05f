//! Hostile-input policies: strings (UTF-8 only, no NUL when encoding) and full objects
//! (refused by default, data only when allowed).
use crate::common;
use common::hex;
use godot_serde::{
    Config, ErrorKind, NodePath, Object, ObjectId, PackedStringArray, Signal, StringName, Variant,
};
use serde::de::IgnoredAny;
use std::collections::BTreeMap;

/// A Godot String field (length, bytes, zero padding).
fn field(bytes: &[u8]) -> Vec<u8> {
    let mut v = (bytes.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(bytes);
    v.resize(v.len().next_multiple_of(4), 0);
    v
}

#[test]
fn ill_formed_utf8_is_invalid_utf8_in_godot_3_and_4() {
    let cases: [(&str, &[u8]); 7] = [
        ("lone byte 0xff", &[0xff]),
        ("UTF-16 surrogate U+D800", &[0xed, 0xa0, 0x80]),
        ("5-byte form", &[0xf8, 0x88, 0x80, 0x80, 0x80]),
        ("6-byte form", &[0xfc, 0x84, 0x80, 0x80, 0x80, 0x80]),
        ("overlong '/'", &[0xc0, 0xaf]),
        ("overlong 3-byte", &[0xe0, 0x80, 0xaf]),
        ("above U+10FFFF", &[0xf4, 0x90, 0x80, 0x80]),
    ];
    for (name, bad) in cases {
        let mut text = b"ok".to_vec();
        text.extend_from_slice(bad);
        // String (id 4 in both), StringName (4.x id 21), NodePath name (4.x 22, 3.x 15),
        // PackedStringArray element (4.x 34, 3.x 23).
        let string = [&hex("04000000")[..], &field(&text)].concat();
        let name_ = [&hex("15000000")[..], &field(&text)].concat();
        let path = |id: &str| {
            [
                &hex(id)[..],
                &hex("01000080 00000000 00000000"),
                &field(&text),
            ]
            .concat()
        };
        let psa = |id: &str| [&hex(id)[..], &hex("01000000"), &field(&text)].concat();
        let g4 = Config::godot4();
        let g3 = Config::godot3();
        for (config, bytes, what) in [
            (g4, string.clone(), "String"),
            (g3, string, "String"),
            (g4, name_, "StringName"),
            (g4, path("16000000"), "NodePath name"),
            (g3, path("0f000000"), "NodePath name"),
            (g4, psa("22000000"), "PackedStringArray element"),
            (g3, psa("17000000"), "PackedStringArray element"),
        ] {
            for e in [
                config.from_bytes::<Variant>(&bytes).unwrap_err(),
                config.from_bytes::<IgnoredAny>(&bytes).unwrap_err(),
                config.from_reader::<_, Variant>(&bytes[..]).unwrap_err(),
            ] {
                assert!(
                    matches!(e.kind(), ErrorKind::InvalidUtf8 { what: w } if *w == what),
                    "{name} in {what} ({:?}): {e}",
                    config.version()
                );
                assert!(e.offset().is_some(), "{e}");
            }
        }
    }
}

#[test]
fn well_formed_utf8_of_every_length_decodes() {
    let text = "a\u{e9}\u{20ac}\u{1F600}";
    let bytes = [&hex("04000000")[..], &field(text.as_bytes())].concat();
    for config in [Config::godot3(), Config::godot4()] {
        assert_eq!(config.from_bytes::<String>(&bytes).unwrap(), text);
    }
}

#[test]
fn nul_in_any_string_is_refused_when_encoding() {
    let unsupported = |r: godot_serde::Result<Vec<u8>>, what: &str| {
        let e = r.expect_err(what);
        assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{what}: {e}");
    };
    for config in [Config::godot4(), Config::godot3()] {
        unsupported(config.to_bytes("a\0b"), "String");
        unsupported(config.to_bytes(&'\0'), "char");
        unsupported(
            config.to_bytes(&Variant::String("x\0".into())),
            "Variant String",
        );
        unsupported(
            config.to_bytes(&NodePath {
                names: vec!["root".into(), "a\0".into()],
                subnames: vec![],
                absolute: true,
            }),
            "NodePath name",
        );
        unsupported(
            config.to_bytes(&NodePath {
                names: vec![],
                subnames: vec!["p\0".into()],
                absolute: false,
            }),
            "NodePath subname",
        );
        unsupported(
            config.to_bytes(&PackedStringArray(vec!["ok".into(), "\0".into()])),
            "PackedStringArray element",
        );
        unsupported(
            config.to_bytes(&Object {
                class: "Node".into(),
                properties: vec![("na\0me".into(), Variant::Nil)],
            }),
            "property name",
        );
        unsupported(
            config.to_bytes(&Object {
                class: "No\0de".into(),
                properties: vec![],
            }),
            "class name",
        );
        let key: BTreeMap<String, i32> = [("k\0".to_owned(), 1)].into_iter().collect();
        unsupported(config.to_bytes(&key), "Dictionary key");
        let mut d = godot_serde::Dictionary::new();
        d.insert(Variant::String("k\0".into()), Variant::Nil);
        unsupported(config.to_bytes(&Variant::Dictionary(d)), "Variant key");
    }
    let g4 = Config::godot4();
    unsupported(g4.to_bytes(&StringName("a\0".into())), "StringName");
    unsupported(
        g4.to_bytes(&Signal::new("hit\0", ObjectId(1))),
        "Signal name",
    );
}

#[test]
fn full_objects_are_refused_by_default_and_data_when_allowed() {
    // class "Node2D", 1 property "name" = "Hero"; Godot 4 id 24, Godot 3 id 17.
    let body = [
        field(b"Node2D"),
        hex("01000000"),
        field(b"name"),
        hex("04000000"),
        field(b"Hero"),
    ]
    .concat();
    for (config, id) in [
        (Config::godot4(), "18000000"),
        (Config::godot3(), "11000000"),
    ] {
        let bytes = [hex(id), body.clone()].concat();
        for e in [
            config.from_bytes::<Variant>(&bytes).unwrap_err(),
            config.from_bytes::<IgnoredAny>(&bytes).unwrap_err(),
            config.from_bytes::<Object>(&bytes).unwrap_err(),
            config.from_reader::<_, Variant>(&bytes[..]).unwrap_err(),
        ] {
            match e.kind() {
                ErrorKind::ObjectsNotAllowed { class } => assert_eq!(&**class, "Node2D"),
                other => panic!("expected ObjectsNotAllowed, got {other}"),
            }
            assert_eq!(e.offset(), Some(0));
        }
        let allowed = config.with_allow_objects(true);
        let expected = Object {
            class: "Node2D".into(),
            properties: vec![("name".into(), Variant::String("Hero".into()))],
        };
        assert_eq!(
            allowed.from_bytes::<Variant>(&bytes).unwrap(),
            Variant::Object(Box::new(expected.clone()))
        );
        assert_eq!(allowed.from_bytes::<Object>(&bytes).unwrap(), expected);
        // Data only: encoding it again gives the same bytes.
        assert_eq!(allowed.to_bytes(&expected).unwrap(), bytes);
    }
}

#[test]
fn an_object_id_is_not_a_full_object() {
    // OBJECT with header bit 16: an instance id, accepted without allow_objects.
    let bytes = hex("18000100 2a000000 00000000");
    assert_eq!(
        godot_serde::from_bytes::<Variant>(&bytes).unwrap(),
        Variant::ObjectId(ObjectId(42))
    );
}

/// A Dictionary of `n` distinct int keys (12 bytes each), nil values.
fn many_keys(n: u32) -> Vec<u8> {
    let mut b = hex("1b000000");
    b.extend(n.to_le_bytes());
    for i in 0..n {
        b.extend(hex("02000000"));
        b.extend(i.to_le_bytes());
        b.extend(hex("00000000"));
    }
    b
}

#[test]
fn many_keys_decode_in_linear_time() {
    // 80 000 keys (960 KB) took 16 s in release when every key was compared with every
    // earlier one; duplicates are now found through a hash of the key.
    let bytes = many_keys(80_000);
    let start = std::time::Instant::now();
    let v: Variant = godot_serde::from_bytes(&bytes).unwrap();
    let took = start.elapsed();
    assert_eq!(v.as_dictionary().map(|d| d.len()), Some(80_000));
    assert!(took.as_secs_f64() < 3.0, "{took:?}");
}

#[test]
fn duplicate_keys_keep_the_last_value_in_first_position() {
    // {1: "a", 2: nil, 1: "b", 0.0: 1, -0.0: 2}: Godot keeps one entry per key.
    let bytes = [
        hex("1b000000 05000000"),
        hex("02000000 01000000"),
        hex("04000000"),
        field(b"a"),
        hex("02000000 02000000 00000000"),
        hex("02000000 01000000"),
        hex("04000000"),
        field(b"b"),
        hex("03000000 00000000 02000000 01000000"),
        hex("03000000 00000080 02000000 02000000"),
    ]
    .concat();
    let v: Variant = godot_serde::from_bytes(&bytes).unwrap();
    let d = v.as_dictionary().unwrap();
    let entries: Vec<_> = d.iter().cloned().collect();
    assert_eq!(
        entries,
        vec![
            (Variant::Int(1), Variant::String("b".into())),
            (Variant::Int(2), Variant::Nil),
            (Variant::Float(0.0), Variant::Int(2)),
        ]
    );
}

/// Issue 11.1: `{"id": 1, "$godot_serde::Object": ["OS", {"script": "res://evil.gd"}]}`, a
/// plain Godot 4 Dictionary whose second key is the Object marker name (hex from the issue).
const SMUGGLED_OBJECT: &str = "1b000000 02000000 04000000 02000000 69640000 02000000 01000000
    04000000 14000000 24676f64 6f745f73 65726465 3a3a4f62 6a656374 1c000000 02000000 04000000
    02000000 4f530000 1b000000 01000000 04000000 06000000 73637269 70740000 04000000 0d000000
    7265733a 2f2f6576 696c2e67 64000000";

/// Offset of the marker-name key's header in [`SMUGGLED_OBJECT`]: Dictionary header and
/// count (8), key "id" (4 + 4 + 4), value int 1 (8).
const SMUGGLED_KEY_AT: usize = 28;

#[derive(serde_derive::Deserialize, Debug)]
#[allow(dead_code)]
struct Flattened {
    id: i32,
    #[serde(flatten)]
    rest: Variant,
}

#[derive(serde_derive::Deserialize, Debug)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Tagged {
    Any(Variant),
}

/// Asserts `e` is the reserved-key error for the key whose header is at `at`.
#[track_caller]
fn assert_reserved(e: &godot_serde::Error, at: usize) {
    assert!(
        matches!(e.kind(), ErrorKind::ReservedKey { key } if key.starts_with("$godot_serde::")),
        "expected the reserved-key error, got {e}"
    );
    assert_eq!(e.offset(), Some(at), "{e}");
}

#[test]
fn a_marker_key_after_the_first_cannot_smuggle_an_object_through_flatten() {
    let bytes = hex(SMUGGLED_OBJECT);
    let config = Config::godot4();
    // Before the fix: Ok(Flattened { id: 1, rest: Object { class: "OS", .. } }).
    let e = config.from_bytes::<Flattened>(&bytes).unwrap_err();
    assert_reserved(&e, SMUGGLED_KEY_AT);
    let e = config.from_reader::<_, Flattened>(&bytes[..]).unwrap_err();
    assert_reserved(&e, SMUGGLED_KEY_AT);
    // Objects allowed or not: the bytes encode no Object.
    let e = config
        .with_allow_objects(true)
        .from_bytes::<Flattened>(&bytes)
        .unwrap_err();
    assert_reserved(&e, SMUGGLED_KEY_AT);
}

#[test]
fn a_marker_key_after_the_first_cannot_smuggle_an_object_through_a_tagged_enum() {
    // {"type": "Any", "$godot_serde::Object": [...]}: the tag and the rest of the issue's
    // Dictionary; the marker key's header is after 8 + 12 (key "type") + 12 ("Any") bytes.
    let issue = hex(SMUGGLED_OBJECT);
    let bytes = [
        hex("1b000000 02000000"),
        hex("04000000"),
        field(b"type"),
        hex("04000000"),
        field(b"Any"),
        issue[SMUGGLED_KEY_AT..].to_vec(),
    ]
    .concat();
    let e = Config::godot4().from_bytes::<Tagged>(&bytes).unwrap_err();
    assert_reserved(&e, 32);
    // The issue's bytes as they are.
    let e = Config::godot4().from_bytes::<Tagged>(&issue).unwrap_err();
    assert_reserved(&e, SMUGGLED_KEY_AT);
}

#[test]
fn a_marker_key_is_refused_at_any_position_in_every_path() {
    use std::collections::{BTreeMap, HashMap};
    // {0: nil, <key>: nil} with <key> a String or StringName reserved name, Godot 4 and 3.
    let name = b"$godot_serde::Vector2";
    for (config, dict, string_ids) in [
        (Config::godot4(), "1b000000", &["04000000", "15000000"][..]),
        (Config::godot3(), "12000000", &["04000000"][..]),
    ] {
        for id in string_ids {
            let bytes = [
                hex(dict),
                hex("02000000 02000000 00000000 00000000"),
                hex(id),
                field(name),
                hex("00000000"),
            ]
            .concat();
            let at = 20;
            let errors = [
                config.from_bytes::<Variant>(&bytes).unwrap_err(),
                config.from_reader::<_, Variant>(&bytes[..]).unwrap_err(),
                config.from_bytes::<IgnoredAny>(&bytes).unwrap_err(),
                config
                    .from_bytes::<godot_serde::Dictionary>(&bytes)
                    .unwrap_err(),
                config
                    .from_bytes::<HashMap<Option<i32>, ()>>(&bytes)
                    .unwrap_err(),
                config.from_bytes::<Flattened>(&bytes).unwrap_err(),
            ];
            for e in &errors {
                assert_reserved(e, at);
            }
        }
        // First position, String keys into a map and a struct.
        let bytes = [
            hex(dict),
            hex("01000000 04000000"),
            field(name),
            hex("00000000"),
        ]
        .concat();
        assert_reserved(
            &config
                .from_bytes::<BTreeMap<String, ()>>(&bytes)
                .unwrap_err(),
            8,
        );
        assert_reserved(&config.from_bytes::<Flattened>(&bytes).unwrap_err(), 8);
    }
    // A typed Dictionary (4.4, keys String): its entries are checked too.
    let bytes = [
        hex("1b000500 04000000 00000000 01000000 04000000"),
        field(name),
        hex("00000000"),
    ]
    .concat();
    for e in [
        Config::godot4().from_bytes::<Variant>(&bytes).unwrap_err(),
        Config::godot4()
            .from_bytes::<godot_serde::Dictionary>(&bytes)
            .unwrap_err(),
    ] {
        assert_reserved(&e, 16);
    }
}

/// Struct keys take a direct path when they are the field names in order; every other key
/// (out of order, unknown, a StringName, a name spelled like a marker) is still checked.
#[test]
fn struct_keys_are_checked_unless_they_are_plain_field_names() {
    #[derive(serde_derive::Deserialize, Debug, PartialEq)]
    struct Plain {
        id: i32,
        name: String,
    }
    #[derive(serde_derive::Deserialize, Debug, PartialEq)]
    struct Marked {
        id: i32,
        #[serde(rename = "$godot_serde::Object")]
        object: i32,
    }
    #[derive(serde_derive::Deserialize, Debug, PartialEq)]
    struct Nul {
        #[serde(rename = "a\0b")]
        a: i32,
    }
    #[derive(serde_derive::Deserialize, Debug, PartialEq)]
    enum Enum {
        Tuple(i32),
    }
    let int = |v: &str| [hex("02000000"), hex(v)].concat();
    let key = |id: &str, name: &[u8]| [hex(id), field(name)].concat();
    let dict = |n: &str, entries: &[Vec<u8>]| [hex("1b000000"), hex(n), entries.concat()].concat();
    let config = Config::godot4();
    let plain = Plain {
        id: 7,
        name: "x".into(),
    };
    let name_value = [hex("04000000"), field(b"x")].concat();
    // In order, out of order, as StringName keys: the same value.
    for bytes in [
        dict(
            "02000000",
            &[
                key("04000000", b"id"),
                int("07000000"),
                key("04000000", b"name"),
                name_value.clone(),
            ],
        ),
        dict(
            "02000000",
            &[
                key("04000000", b"name"),
                name_value.clone(),
                key("04000000", b"id"),
                int("07000000"),
            ],
        ),
        dict(
            "02000000",
            &[
                key("15000000", b"id"),
                int("07000000"),
                key("15000000", b"name"),
                name_value.clone(),
            ],
        ),
    ] {
        assert_eq!(config.from_bytes::<Plain>(&bytes).unwrap(), plain);
        assert_eq!(config.from_reader::<_, Plain>(&bytes[..]).unwrap(), plain);
    }
    // A reserved key that is no field, after a field (header at 8 + 12 + 8 = 28): refused,
    // as String and as StringName, from a slice and from a reader.
    for id in ["04000000", "15000000"] {
        let bytes = dict(
            "02000000",
            &[
                key("04000000", b"id"),
                int("07000000"),
                key(id, b"$godot_serde::Object"),
                int("01000000"),
            ],
        );
        assert_reserved(&config.from_bytes::<Plain>(&bytes).unwrap_err(), 28);
        assert_reserved(&config.from_reader::<_, Plain>(&bytes[..]).unwrap_err(), 28);
        // A field renamed to a reserved name is no exception.
        assert_reserved(&config.from_bytes::<Marked>(&bytes).unwrap_err(), 28);
        assert_reserved(
            &config.from_reader::<_, Marked>(&bytes[..]).unwrap_err(),
            28,
        );
    }
    // An enum variant key that is a reserved name.
    let bytes = dict(
        "01000000",
        &[key("04000000", b"$godot_serde::Object"), int("01000000")],
    );
    assert_reserved(&config.from_bytes::<Enum>(&bytes).unwrap_err(), 8);
    // A field name with a NUL is never a key's text: the key "a\0b" reads as "a".
    let bytes = dict("01000000", &[key("04000000", b"a\0b"), int("01000000")]);
    let e = config.from_bytes::<Nul>(&bytes).unwrap_err();
    assert!(e.to_string().contains("missing field"), "{e}");
}

#[test]
fn a_reserved_name_that_is_not_a_key_is_ordinary_text() {
    // ["$godot_serde::Object"] and {["$godot_serde::Object"]: "$godot_serde::Object"}.
    let name = b"$godot_serde::Object";
    let array = [hex("1c000000 01000000 04000000"), field(name)].concat();
    let v: Variant = godot_serde::from_bytes(&array).unwrap();
    assert_eq!(
        v,
        Variant::from(godot_serde::Array::from(vec![Variant::String(
            "$godot_serde::Object".into()
        )]))
    );
    let dict = [
        hex("1b000000 01000000"),
        array.clone(),
        hex("04000000"),
        field(name),
    ]
    .concat();
    let v: Variant = godot_serde::from_bytes(&dict).unwrap();
    let d = v.as_dictionary().unwrap();
    assert_eq!(d.len(), 1);
}

/// Issue 11.8: `dump::annotate` indented each line by its depth, so 1 MiB nested 1024 deep
/// became 1.05 GB of text. Indentation now stops growing at `dump::MAX_INDENT` levels.
#[test]
fn annotate_output_is_proportional_to_the_input_at_any_depth() {
    let text = common::with_big_stack(|| {
        // 1023 Arrays of one element, the innermost Array holding Nils up to 1 MiB.
        let mut bytes = Vec::with_capacity(1 << 20);
        for _ in 0..1023 {
            bytes.extend(hex("1c000000 01000000"));
        }
        let nils = ((1 << 20) - bytes.len() - 8) / 4;
        bytes.extend(hex("1c000000"));
        bytes.extend(u32::try_from(nils).unwrap().to_le_bytes());
        bytes.resize(1 << 20, 0);
        let config = Config::godot4().with_max_depth(godot_serde::GODOT_MAX_DEPTH);
        godot_serde::dump::annotate(&bytes, config)
    });
    assert!(!text.contains("!!"), "{}", &text[..200]);
    let lines = text.lines().count();
    assert_eq!(lines, (1 << 20) / 4);
    // Each line: 11 columns of bytes, 2 spaces, at most 64 of indentation, a caption.
    let widest = text.lines().map(str::len).max().unwrap_or(0);
    assert!(
        widest <= 11 + 2 + 2 * godot_serde::dump::MAX_INDENT + 40,
        "{widest}"
    );
    println!(
        "annotate: {} bytes of text for 1 MiB at depth 1024",
        text.len()
    );
    assert!(text.len() <= 40 << 20, "{} bytes of text", text.len());
}
