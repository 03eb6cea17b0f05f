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
    let err = json::variant_to_string(
        &Variant::ObjectId(godot_serde::ObjectId(7)),
        Config::default().with_allow_objects(true),
    )
    .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    assert_eq!(
        json::variant_to_string(
            &Variant::ObjectId(godot_serde::ObjectId(0)),
            Config::default().with_allow_objects(true)
        )
        .unwrap(),
        "null"
    );
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
