//! `godot_serde::json`, Godot 4's full-fidelity JSON, without an engine: texts printed by
//! Godot 4.6 (`JSON.stringify(JSON.from_native(v))`, copied from engine runs; the live checks
//! are in `tests/suite/json_native_live.rs`), serde round trips, `serde_json::Value` interop, errors
//! and limits.

use std::collections::BTreeMap;

use godot_serde::{
    Array, Config, ContainerType, Dictionary, ErrorKind, NodePath, Object, PackedByteArray,
    PackedInt64Array, StringName, Variant, VariantType, Vector2, Vector2i, Vector3, json,
};
use serde::{Deserialize, Serialize};

/// Texts the engine printed for these values (Godot 4.6, `JSON.stringify(JSON.from_native(v))`).
#[test]
fn texts_printed_by_the_engine() {
    let mut d = Dictionary::new();
    d.insert("k".into(), 1.into());
    d.insert(2.into(), Variant::from(vec![Variant::from(3)]));
    let mut typed = Array::typed(ContainerType::Builtin(VariantType::Int));
    typed.push(1);
    typed.push(2);
    let mut td = Dictionary::typed(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Builtin(VariantType::Int),
    );
    td.insert("a".into(), 1.into());
    for (v, text) in [
        (Variant::from(1.0), r#""f:1.0""#),
        (Variant::from(0.1 + 0.2), r#""f:0.3""#),
        (Variant::from(1e20), r#""f:100000000000000000000.0""#),
        (Variant::from(f64::INFINITY), r#""f:inf""#),
        (
            Variant::from(9_223_372_036_854_775_807_i64),
            r#""i:9223372036854775807""#,
        ),
        (
            Variant::from("a\"b\\c\n\t\u{8}\u{c}\r\u{b}/\u{1}é😀"),
            "\"s:a\\\"b\\\\c\\n\\t\\b\\f\\r\\v/\u{1}é😀\"",
        ),
        (Variant::StringName(StringName("sn".into())), r#""sn:sn""#),
        (
            Variant::NodePath(Box::new(NodePath::from("a/b:c"))),
            r#""np:a/b:c""#,
        ),
        (
            Variant::Vector2(Vector2 {
                x: godot_serde::Real::from(0.1_f32),
                y: 1.0,
            }),
            r#"{"args":[0.100000001490116,1.0],"type":"Vector2"}"#,
        ),
        (
            Variant::Vector2i(Vector2i { x: 1, y: 2 }),
            r#"{"args":[1,2],"type":"Vector2i"}"#,
        ),
        (
            Variant::Dictionary(d),
            r#"{"args":["s:k","i:1","i:2",["i:3"]],"type":"Dictionary"}"#,
        ),
        (
            Variant::from(typed),
            r#"{"args":["i:1","i:2"],"elem_type":"int","type":"Array"}"#,
        ),
        (
            Variant::Dictionary(td),
            r#"{"args":["s:a","i:1"],"key_type":"String","type":"Dictionary","value_type":"int"}"#,
        ),
        (
            Variant::PackedByteArray(PackedByteArray(vec![1, 2])),
            r#"{"args":[1,2],"type":"PackedByteArray"}"#,
        ),
        (
            Variant::PackedInt64Array(PackedInt64Array(vec![9_007_199_254_740_993])),
            r#"{"args":[9007199254740993],"type":"PackedInt64Array"}"#,
        ),
        (Variant::Rid(godot_serde::Rid(5)), r#"{"type":"RID"}"#),
        (Variant::Nil, "null"),
    ] {
        assert_eq!(
            json::variant_to_string(&v, Config::default()).unwrap(),
            text,
            "{v:?}"
        );
    }
}

/// `JSON.stringify(v, "\t")`, by `_stringify`'s rules: a new line after `[` / `{` and after
/// each `,`, the indent repeated per level, `": "` after a key, `[]` for an empty array.
#[test]
fn pretty_is_stringify_with_a_tab() {
    let v = vec![
        Variant::Vector2i(Vector2i { x: 1, y: 2 }),
        Variant::from(Vec::<Variant>::new()),
    ];
    assert_eq!(
        json::to_string_pretty(&v).unwrap(),
        "[\n\t{\n\t\t\"args\": [\n\t\t\t1,\n\t\t\t2\n\t\t],\n\t\t\"type\": \"Vector2i\"\n\t},\n\t[]\n]"
    );
    assert_eq!(
        json::variant_to_string_indented(
            &Variant::from(vec![Variant::Nil]),
            Config::default(),
            "  "
        )
        .unwrap(),
        "[\n  null\n]"
    );
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Player {
    name: String,
    hp: u32,
    speed: f64,
    pos: Vector3,
    cell: Vector2i,
    tags: Vec<String>,
    inventory: BTreeMap<String, i64>,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    target: Option<NodePath>,
    kind: Kind,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Kind {
    Mage,
    Knight { level: u8 },
}

fn player() -> Player {
    Player {
        name: "Ada \"the\" Brave\n".into(),
        hp: 42,
        speed: 2.5,
        pos: Vector3 {
            x: 1.0,
            y: -2.5,
            z: 0.125,
        },
        cell: Vector2i { x: -3, y: 7 },
        tags: vec!["a".into(), "i:1".into()],
        inventory: [("potion".to_owned(), 3), ("gold".to_owned(), -1)].into(),
        blob: vec![0, 255, 7],
        target: Some(NodePath::from("/root/Main:position")),
        kind: Kind::Knight { level: 9 },
    }
}

#[test]
fn serde_types_round_trip_in_both_forms() {
    let p = player();
    let compact = json::to_string(&p).unwrap();
    // A struct is a Dictionary of its fields in order; the escapes are `json_escape`'s.
    assert!(
        compact.starts_with(
            r#"{"args":["s:name","s:Ada \"the\" Brave\n","s:hp","i:42","s:speed","f:2.5","s:pos",{"args":[1.0,-2.5,0.125],"type":"Vector3"},"#
        ),
        "{compact}"
    );
    assert_eq!(json::from_str::<Player>(&compact).unwrap(), p);
    let pretty = json::to_string_pretty(&p).unwrap();
    assert_eq!(json::from_str::<Player>(&pretty).unwrap(), p);
    assert_eq!(json::from_slice::<Player>(compact.as_bytes()).unwrap(), p);
    // The same Variant as the binary format's.
    assert_eq!(
        json::parse_variant(&compact, Config::default()).unwrap(),
        godot_serde::to_variant(&p).unwrap()
    );
}

#[test]
fn serde_json_value_both_ways() {
    let p = player();
    let value = json::to_value(&p).unwrap();
    // The same tree the text holds.
    let text = json::to_string(&p).unwrap();
    assert_eq!(
        value,
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    );
    assert_eq!(json::from_value::<Player>(&value).unwrap(), p);
    assert_eq!(
        json::value_to_variant(
            &serde_json::json!(["i:1", {"type": "Vector2", "args": [1, 2]}]),
            Config::default()
        )
        .unwrap(),
        Variant::from(vec![
            Variant::from(1),
            Variant::Vector2(Vector2 { x: 1.0, y: 2.0 })
        ])
    );
    // serde_json::Value has no infinity: the engine would print `inf`, which is not JSON.
    let err = json::to_value(&Vector2 {
        x: godot_serde::Real::INFINITY,
        y: 0.0,
    })
    .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    // An int Value is a double to Godot's to_native, as any JSON number.
    let err = json::from_value::<i64>(&serde_json::json!(5)).unwrap_err();
    assert!(err.to_string().contains("not JSON-compliant"), "{err}");
}

#[test]
fn errors_carry_the_position_and_the_engines_words() {
    for (text, message) in [
        (
            "[\"i:1\" \"i:2\"]",
            "Expected ',' at line 1, column 8 (byte 7)",
        ),
        ("{\"a\" 1}", "Expected ':' at line 1, column 6 (byte 5)"),
        (
            "\n  \"s:\\x\"",
            "Invalid escape sequence at line 2, column 6 (byte 6)",
        ),
        ("[\"i:1\"] x", "Expected 'EOF' at line 1, column 9 (byte 8)"),
        (
            "nul",
            "Expected 'true', 'false', or 'null', got 'nul' at line 1, column 1 (byte 0)",
        ),
        (
            "\"s:\\ud800\"",
            "Invalid UTF-16 sequence in string, unpaired lead surrogate at line 1, column 4 (byte 3)",
        ),
        (
            "[1]",
            "a bare number: Variant type \"float\" is not JSON-compliant (ints are \"i:1\", floats \"f:1.0\") at line 1, column 2 (byte 1)",
        ),
        (
            "{\"type\": \"Vector2\", \"args\": [1]}",
            "Vector2 needs 2 numbers in \"args\", got 1 at line 1, column 1 (byte 0)",
        ),
        (
            "\"i:1.5\"",
            "invalid int \"i:1.5\": expected \"i:\" and decimal digits at line 1, column 1 (byte 0)",
        ),
        (
            "{\"type\": \"Vector2i\", \"args\": [1.5, 2]}",
            "1.5 is not a 32-bit int at line 1, column 31 (byte 30)",
        ),
    ] {
        let err = json::parse_variant(text, Config::default()).unwrap_err();
        assert_eq!(err.to_string(), message, "{text:?}");
    }
    let err = json::from_slice::<Variant>(b"[\"s:\xff\"]").unwrap_err();
    assert_eq!(err.offset(), Some(4));
    assert!(matches!(err.kind(), ErrorKind::InvalidUtf8 { .. }));
}

#[test]
fn objects_need_allow_objects_both_ways() {
    let o = Variant::Object(Box::new(Object {
        class: "Resource".into(),
        properties: vec![("resource_name".into(), "x".into())],
    }));
    let err = json::variant_to_string(&o, Config::default()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ObjectsNotAllowed { .. }),
        "{err}"
    );
    let on = Config::default().with_allow_objects(true);
    let text = json::variant_to_string(&o, on).unwrap();
    assert_eq!(
        text,
        r#"{"props":["resource_name","s:x"],"type":"Resource"}"#
    );
    let err = json::parse_variant(&text, Config::default()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ObjectsNotAllowed { .. }),
        "{err}"
    );
    assert_eq!(json::parse_variant(&text, on).unwrap(), o);
    // Typed by a class: the same rule.
    let a = Variant::from(Array::typed(ContainerType::ClassName("Node".into())));
    assert!(json::variant_to_string(&a, Config::default()).is_err());
    assert_eq!(
        json::variant_to_string(&a, on).unwrap(),
        r#"{"args":[],"elem_type":"Node","type":"Array"}"#
    );
}

#[test]
fn what_the_engine_cannot_hold_is_refused_when_writing() {
    let err = json::to_string("a\0b").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
}

/// `{"props":["object_id","i:<id>","script",null],"type":"EncodedObjectAsID"}`: what Godot 4.6
/// writes for an object sent by id (`JSON.from_native(v, true)` of the `EncodedObjectAsID`
/// that `bytes_to_var` makes of it), the id printed as a signed 64-bit int.
fn encoded(id: &str) -> String {
    format!(r#"{{"props":["object_id","i:{id}","script",null],"type":"EncodedObjectAsID"}}"#)
}

/// `18 00 01 00` (OBJECT, bit 16: as id) then the id as a little-endian u64 (wire-format spec,
/// Object section), by hand.
fn id_bytes(id: u64) -> Vec<u8> {
    let mut b = vec![0x18, 0, 1, 0];
    b.extend_from_slice(&id.to_le_bytes());
    b
}

/// A GString by hand: u32 length, the bytes, zero padding to 4.
fn gstring(s: &str) -> Vec<u8> {
    let mut b = (s.len() as u32).to_le_bytes().to_vec();
    b.extend_from_slice(s.as_bytes());
    b.resize(b.len().div_ceil(4) * 4, 0);
    b
}

/// An object sent by id, with full objects, is the engine's `EncodedObjectAsID` (texts from
/// Godot 4.6 for ids 1, 2, 2^63-1, 2^63 and 2^64-1, decoded with or without objects
/// allowed); id 0 is a null object (`null`). Without full objects the engine logs "Condition
/// !p_full_objects" and writes null: refused here.
#[test]
fn an_object_id_is_written_as_the_engines_encoded_object_as_id() {
    let on = Config::godot4().with_allow_objects(true);
    // Id 0 decodes as null (as in the engine); an `ObjectId(0)` built by hand is a null object,
    // `null` with full objects, refused without (the engine logs an error and writes null).
    assert_eq!(on.variant_from_bytes(&id_bytes(0)).unwrap(), Variant::Nil);
    let null = Variant::ObjectId(godot_serde::ObjectId(0));
    assert_eq!(json::variant_to_string(&null, on).unwrap(), "null");
    assert!(json::variant_to_string(&null, Config::godot4()).is_err());
    for (id, text) in [
        (1, encoded("1")),
        (2, encoded("2")),
        (i64::MAX as u64, encoded("9223372036854775807")),
        (1 << 63, encoded("-9223372036854775808")),
        (u64::MAX, encoded("-1")),
    ] {
        for read in [on, Config::godot4()] {
            let v: Variant = read.from_bytes(&id_bytes(id)).unwrap();
            assert_eq!(v, Variant::ObjectId(godot_serde::ObjectId(id)));
            assert_eq!(json::variant_to_string(&v, on).unwrap(), text, "id {id}");
            let err = json::variant_to_string(&v, Config::godot4()).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::ObjectsNotAllowed { .. }),
                "{err}"
            );
        }
        // The same through serde_json::Value.
        let v = Variant::ObjectId(godot_serde::ObjectId(id));
        let value = json::variant_to_value(&v, on).unwrap();
        assert_eq!(
            value,
            serde_json::from_str::<serde_json::Value>(&text).unwrap()
        );
    }
    assert_eq!(
        json::variant_to_string_pretty(&Variant::ObjectId(godot_serde::ObjectId(5)), on).unwrap(),
        "{\n\t\"props\": [\n\t\t\"object_id\",\n\t\t\"i:5\",\n\t\t\"script\",\n\t\tnull\n\t],\n\t\"type\": \"EncodedObjectAsID\"\n}"
    );
}

/// Object ids inside containers, from bytes by hand (wire-format spec: Array 0x1c, Dictionary
/// 0x1b, container type kind BUILTIN 1 / CLASS_NAME 2 in bits 16-17, a Dictionary's value kind
/// in bits 18-19), and the texts Godot 4.6 wrote for the same bytes read by
/// `bytes_to_var_with_objects`. Where the engine's decoder drops the element (an Array of
/// `Resource` or `Node`, a Dictionary keyed by `Resource`: an `EncodedObjectAsID` is neither),
/// writing is refused, not done as a text of a value the engine never holds.
#[test]
fn object_ids_in_containers_are_written_as_the_engine_writes_them() {
    let on = Config::godot4().with_allow_objects(true);
    let k = [4, 0, 0, 0, 1, 0, 0, 0, b'k', 0, 0, 0]; // String "k"
    let one = [2, 0, 0, 0, 1, 0, 0, 0]; // int 1
    let count = [1, 0, 0, 0];
    let cat = |parts: &[&[u8]]| parts.concat();
    for id in [5u64, (-3i64) as u64] {
        let i = id_bytes(id);
        let e = encoded(&(id as i64).to_string());
        let cases: Vec<(&str, Vec<u8>, Option<String>)> = vec![
            (
                "Array",
                cat(&[&[0x1c, 0, 0, 0], &count, &i]),
                Some(format!("[{e}]")),
            ),
            (
                "Array[Object]",
                cat(&[&[0x1c, 0, 2, 0], &gstring("Object"), &count, &i]),
                Some(format!(
                    r#"{{"args":[{e}],"elem_type":"Object","type":"Array"}}"#
                )),
            ),
            (
                "Array typed OBJECT without a class",
                cat(&[&[0x1c, 0, 1, 0], &[24, 0, 0, 0], &count, &i]),
                Some(format!(
                    r#"{{"args":[{e}],"elem_type":"Object","type":"Array"}}"#
                )),
            ),
            (
                "Array[Resource]",
                cat(&[&[0x1c, 0, 2, 0], &gstring("Resource"), &count, &i]),
                None,
            ),
            (
                "Array[Node]",
                cat(&[&[0x1c, 0, 2, 0], &gstring("Node"), &count, &i]),
                None,
            ),
            (
                "Dictionary value",
                cat(&[&[0x1b, 0, 0, 0], &count, &k, &i]),
                Some(format!(r#"{{"args":["s:k",{e}],"type":"Dictionary"}}"#)),
            ),
            (
                "Dictionary key",
                cat(&[&[0x1b, 0, 0, 0], &count, &i, &one]),
                Some(format!(r#"{{"args":[{e},"i:1"],"type":"Dictionary"}}"#)),
            ),
            (
                "Dictionary[String, Object]",
                cat(&[
                    &[0x1b, 0, 9, 0],
                    &[4, 0, 0, 0],
                    &gstring("Object"),
                    &count,
                    &k,
                    &i,
                ]),
                Some(format!(
                    r#"{{"args":["s:k",{e}],"key_type":"String","type":"Dictionary","value_type":"Object"}}"#
                )),
            ),
            (
                "Dictionary[Object, int]",
                cat(&[
                    &[0x1b, 0, 6, 0],
                    &gstring("Object"),
                    &[2, 0, 0, 0],
                    &count,
                    &i,
                    &one,
                ]),
                Some(format!(
                    r#"{{"args":[{e},"i:1"],"key_type":"Object","type":"Dictionary","value_type":"int"}}"#
                )),
            ),
            (
                // Values are not checked by the engine's decoder: it keeps and writes this.
                "Dictionary[String, Resource]",
                cat(&[
                    &[0x1b, 0, 9, 0],
                    &[4, 0, 0, 0],
                    &gstring("Resource"),
                    &count,
                    &k,
                    &i,
                ]),
                Some(format!(
                    r#"{{"args":["s:k",{e}],"key_type":"String","type":"Dictionary","value_type":"Resource"}}"#
                )),
            ),
            (
                // Keys are: the engine drops the pair.
                "Dictionary[Resource, int]",
                cat(&[
                    &[0x1b, 0, 6, 0],
                    &gstring("Resource"),
                    &[2, 0, 0, 0],
                    &count,
                    &i,
                    &one,
                ]),
                None,
            ),
        ];
        for (what, bytes, text) in cases {
            let v: Variant = on.from_bytes(&bytes).unwrap();
            let ours = json::variant_to_string(&v, on);
            match text {
                Some(t) => assert_eq!(ours.unwrap(), t, "{what}, id {id}"),
                None => {
                    let err = ours.unwrap_err();
                    assert!(
                        matches!(err.kind(), ErrorKind::Unsupported(_)),
                        "{what}: {err}"
                    );
                    assert!(err.to_string().contains("EncodedObjectAsID"), "{err}");
                }
            }
            // Without full objects the engine logs an error for each of these.
            assert!(
                json::variant_to_string(&v, Config::godot4()).is_err(),
                "{what}"
            );
        }
    }
}

/// A null object (id 0, which decodes as null) in an Array typed OBJECT without a class name:
/// Godot 4.6 writes `{"args":[null],"elem_type":"Object","type":"Array"}` for these bytes
/// (`1c000100 18000000`: BUILTIN 24; one element, OBJECT as id 0), and reads that text back
/// as an `Array[Object]` holding null.
#[test]
fn a_null_object_in_an_array_typed_object_is_written() {
    let on = Config::godot4().with_allow_objects(true);
    let bytes = [&[0x1c, 0, 1, 0, 24, 0, 0, 0, 1, 0, 0, 0][..], &id_bytes(0)].concat();
    let v: Variant = on.from_bytes(&bytes).unwrap();
    let text = r#"{"args":[null],"elem_type":"Object","type":"Array"}"#;
    assert_eq!(json::variant_to_string(&v, on).unwrap(), text);
    let mut back = Array::typed(ContainerType::ClassName("Object".into()));
    back.push(Variant::Nil);
    assert_eq!(json::parse_variant(text, on).unwrap(), Variant::from(back));
}

/// What the engine's `JSON.to_native(.., true)` makes of that text: a new `EncodedObjectAsID`
/// holding the id, which `var_to_bytes_with_objects` writes as a full object (bytes from Godot
/// 4.6; the id as an int of 32 bits when it fits, of 64 otherwise). Without objects allowed the
/// engine logs "Condition !p_allow_objects" and reads null: refused here.
#[test]
fn the_engines_encoded_object_as_id_text_reads_back_as_the_engine_reads_it() {
    let on = Config::godot4().with_allow_objects(true);
    for (id, bytes) in [
        (
            "1",
            "1800000011000000456e636f6465644f626a6563744173494400000002000000090000006f626a6563745f6964000000020000000100000006000000736372697074000000000000",
        ),
        (
            "9223372036854775807",
            "1800000011000000456e636f6465644f626a6563744173494400000002000000090000006f626a6563745f696400000002000100ffffffffffffff7f06000000736372697074000000000000",
        ),
        (
            "-1",
            "1800000011000000456e636f6465644f626a6563744173494400000002000000090000006f626a6563745f696400000002000000ffffffff06000000736372697074000000000000",
        ),
    ] {
        let v = json::parse_variant(&encoded(id), on).unwrap();
        assert_eq!(
            v,
            Variant::Object(Box::new(Object {
                class: "EncodedObjectAsID".into(),
                properties: vec![
                    (
                        "object_id".into(),
                        Variant::from(id.parse::<i64>().unwrap())
                    ),
                    ("script".into(), Variant::Nil),
                ],
            }))
        );
        let ours: String = on
            .to_bytes(&v)
            .unwrap()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(ours, bytes, "id {id}");
        // Written again, it is the same text.
        assert_eq!(json::variant_to_string(&v, on).unwrap(), encoded(id));
        let err = json::parse_variant(&encoded(id), Config::godot4()).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::ObjectsNotAllowed { .. }),
            "{err}"
        );
    }
}

/// A typed container holding what its type does not admit (our byte decoder keeps such an
/// element; the engine drops it, and neither JSON reader takes it back) is refused, not
/// written as a text that does not read back. Bytes by hand: Dictionary (27) with a builtin
/// key type (flag bit 16) bool (1), one entry, key int 5, value nil.
#[test]
fn a_typed_container_holding_another_type_is_refused_when_writing() {
    let bytes = [
        0x1b, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
    ];
    let config = Config::godot4();
    let v: Variant = config.from_bytes(&bytes).unwrap();
    let err = json::variant_to_string(&v, config).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    assert!(
        err.to_string().contains("a int in a container typed bool"),
        "{err}"
    );
    // What the reader refuses, by the same rule.
    let text = r#"{"args":["i:5",null],"key_type":"bool","type":"Dictionary"}"#;
    let err = json::parse_variant(text, config).unwrap_err();
    assert!(
        err.to_string().contains("a int in a container typed bool"),
        "{err}"
    );
    // A typed Array likewise; the same elements untyped are written.
    let mut a = Array::from(vec![Variant::Int(1), Variant::Bool(true)]);
    a.element_type = ContainerType::Builtin(VariantType::Int);
    assert!(json::variant_to_string(&Variant::from(a.clone()), config).is_err());
    a.element_type = ContainerType::Untyped;
    assert_eq!(
        json::variant_to_string(&Variant::from(a), config).unwrap(),
        "[\"i:1\",true]"
    );
}

/// `n` Arrays, one inside the other: untyped (JSON arrays) or typed (objects holding arrays).
fn nested(n: usize, typed: bool) -> Variant {
    let mut v = Variant::Nil;
    for _ in 0..n {
        let mut a = if typed {
            Array::typed(ContainerType::Builtin(VariantType::Array))
        } else {
            Array::new()
        };
        if !matches!(v, Variant::Nil) || !typed {
            a.push(v);
        }
        v = Variant::from(a);
    }
    v
}

#[test]
fn nesting_fails_exactly_one_past_the_limit_both_ways() {
    for limit in [1, 16, 128] {
        let config = Config::default().with_max_depth(limit);
        for typed in [false, true] {
            let ok = nested(limit, typed);
            let text = json::variant_to_string(&ok, config).unwrap();
            assert_eq!(json::parse_variant(&text, config).unwrap(), ok);
            let deep = nested(limit + 1, typed);
            let err = json::variant_to_string(&deep, config).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DepthLimitExceeded { .. }),
                "{err}"
            );
            let text = json::variant_to_string(&deep, config.with_max_depth(limit + 1)).unwrap();
            let err = json::parse_variant(&text, config).unwrap_err();
            assert!(
                err.to_string().contains("nesting deeper than the limit"),
                "{err}"
            );
        }
    }
}
