//! `.lbs` parsing: the sample schemas shipped with the reference (copied from the fixture
//! records) and the parser quirks listed in §6 and §11.9 of the spec.

use litebyte::{self, BaseType, Class, ErrorKind, FieldType, Mode, Schema, Value, parse_type};

fn lbs(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/schemas/{name}.lbs",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

const SAMPLES: &[&str] = &[
    "AllType",
    "BaseType",
    "BoolType",
    "ClassType",
    "ClassType2",
    "Color",
    "Int16Type",
    "NestedType",
    "PlayerInfo",
    "UInt64Type",
    "UInt8Type",
    "UTF8Type",
    "VarInt16Type",
    "VarUInt16Type",
    "VarUnicodeType",
    "Vector3",
];

fn demo_schema() -> Schema {
    let mut s = Schema::with_demo_aliases();
    for n in SAMPLES {
        s.add_lbs(&lbs(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
    s.validate().unwrap();
    s
}

#[test]
fn sample_schemas_parse_and_resolve() {
    let s = demo_schema();
    assert_eq!(s.types().len(), SAMPLES.len());
    // (name, is_class, field count) read off the .lbs files by hand.
    for (name, class, n) in [
        ("PlayerInfo", true, 8),
        ("Vector3", false, 3),
        ("Color", false, 3),
        ("BoolType", false, 8),
        ("ClassType", true, 3),
        ("ClassType2", true, 2),
        ("BaseType", false, 12),
        ("NestedType", false, 3),
        // 39 single fields (7 Bit + 8 Int + 8 UInt + 5 Float + 6 Var + 3 strings + Vector3 +
        // PlayerInfo) and 39 arrays (7 + 8 + 8 + 5 + 6 + 3 + Vector3[] + PlayerInfo[]).
        ("AllType", true, 78),
        ("Int16Type", false, 1),
        ("VarUnicodeType", false, 1),
    ] {
        let t = s.get(name).unwrap();
        assert_eq!(t.is_class, class, "{name}");
        assert_eq!(t.fields.len(), n, "{name}");
    }
    let p = s.get("PlayerInfo").unwrap();
    let names: Vec<_> = p.fields.iter().map(|f| &*f.name).collect();
    assert_eq!(
        names,
        ["id", "nickname", "gender", "isVip", "lv", "hp", "mp", "exp"]
    );
    assert_eq!(
        s.resolve("uint").unwrap(),
        FieldType::Base(BaseType::VarUInt32)
    );
    assert_eq!(
        s.resolve("string").unwrap(),
        FieldType::Base(BaseType::Utf8)
    );
    let all = s.get("AllType").unwrap();
    let last = all.fields.last().unwrap();
    assert_eq!(
        (&*last.name, last.type_name.as_str(), last.is_array),
        ("playerInfos", "PlayerInfo", true)
    );
    // Without the alias table the demo schemas do not resolve (`uint` is not a base type).
    let mut bare = Schema::new();
    bare.add_lbs(&lbs("PlayerInfo")).unwrap();
    assert!(bare.validate().is_err());
}

#[test]
fn dynamic_player_info_matches_spec_and_typed_api() {
    let s = demo_schema();
    let v = Value::object([
        ("id", Value::UInt(100001)),
        ("nickname", Value::from("冰封百度")),
        ("gender", Value::UInt(1)),
        ("isVip", Value::Bool(true)),
        ("lv", Value::Int(999)),
        ("hp", Value::Int(999999)),
        ("mp", Value::Int(999999)),
        ("exp", Value::Int(9999999)),
    ]);
    let bytes = s.encode("PlayerInfo", &v).unwrap();
    // §8, class form.
    let expected = [
        0x9C, 0xA1, 0x86, 0x01, 0x0D, 0xE5, 0x86, 0xB0, 0xE5, 0xB0, 0x81, 0xE7, 0x99, 0xBE, 0xE5,
        0xBA, 0xA6, 0x01, 0xE7, 0x03, 0x3F, 0x42, 0x0F, 0x0E, 0x3F, 0x42, 0x0F, 0x7F, 0x96, 0x98,
        0x00,
    ];
    assert_eq!(bytes, expected);
    assert_eq!(s.decode("PlayerInfo", &bytes, Mode::Strict).unwrap(), v);

    #[derive(serde::Serialize)]
    struct PlayerInfo(u32, String, u8, bool, i32, i32, i32, i32);
    let typed = litebyte::to_bytes(&Class(Some(PlayerInfo(
        100001,
        "冰封百度".into(),
        1,
        true,
        999,
        999999,
        999999,
        9999999,
    ))))
    .unwrap();
    assert_eq!(typed, expected);
    // Null class root.
    assert_eq!(s.encode("PlayerInfo", &Value::Null).unwrap(), [0x01]);
    // A struct cannot be null; a missing member is an error.
    assert!(s.encode("Vector3", &Value::Null).is_err());
    assert!(
        s.encode("Vector3", &Value::object([("x", Value::F32(1.0))]))
            .is_err()
    );
}

#[test]
fn access_modifier_prefix_quirk() {
    // Modifiers are dropped, also as prefixes of longer words.
    let t = parse_type("public class A { private Int8 a; internal UInt8 b; }").unwrap();
    assert_eq!(t.fields.len(), 2);
    // `publicX Int8 b;` silently parses as `Int8 b;` (§11.9).
    let t = parse_type("struct A { publicX Int8 b; }").unwrap();
    assert_eq!(
        (t.fields[0].type_name.as_str(), &*t.fields[0].name),
        ("Int8", "b")
    );
    // `Int8 publicKey;` loses its name and becomes `Int8 ;`: a parse error.
    assert!(parse_type("struct A { Int8 publicKey; }").is_err());
    // Any first word starting with class/struct is accepted.
    assert!(parse_type("structure T { Int8 a; }").unwrap().fields.len() == 1);
    assert!(parse_type("classy T { Int8 a; }").unwrap().is_class);
}

#[test]
fn grammar_errors() {
    for bad in [
        "struct T { }",
        "struct T { Int8 a Int8 b; }",
        "struct T { Int8[][] a; }",
        "struct 1T { Int8 a; }",
        "struct T { Int8 1a; }",
        "enum T { Int8 a; }",
        "struct T { Int8 a; ",
        "struct T { Int8 a; } struct U { Int8 b; }",
        "/* unterminated struct T { Int8 a; }",
    ] {
        let e = parse_type(bad).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Schema(_)), "{bad}: {e}");
    }
    // Comments and odd whitespace are fine.
    let t = parse_type("// c\r\n/* x */struct\tT{/**/Int16\ta;//y\n}").unwrap();
    assert_eq!(t.fields[0].type_name, "Int16");
}

#[test]
fn resolution_rules() {
    // Alias shadows a built-in.
    let mut s = Schema::new();
    s.add_alias(BaseType::UInt16, "Int8");
    s.add_lbs("struct T { Int8 a; }").unwrap();
    s.validate().unwrap();
    assert_eq!(
        s.encode("T", &Value::object([("a", Value::UInt(65535))]))
            .unwrap(),
        [0xFF, 0xFF]
    );
    // A custom type named like a built-in can be registered but the built-in wins.
    let mut s = Schema::new();
    s.add_lbs("struct T { Int8 v; }").unwrap();
    s.add_lbs("struct Int8 { UInt16 x; }").unwrap();
    assert_eq!(s.resolve("Int8").unwrap(), FieldType::Base(BaseType::Int8));
    // Duplicate names and unknown types fail.
    let mut s = Schema::new();
    s.add_lbs("struct T { Int8 a; }").unwrap();
    assert!(s.add_lbs("struct T { Int16 a; }").is_err());
    let mut s = Schema::new();
    s.add_lbs("struct T { Missing a; }").unwrap();
    assert!(s.validate().is_err());
    // Base type names are case-sensitive.
    assert!(BaseType::from_name("int8").is_none());
    for b in BaseType::ALL {
        assert_eq!(BaseType::from_name(b.name()), Some(*b));
    }
}

#[test]
fn deep_self_recursion_is_bounded() {
    let mut s = Schema::new();
    s.add_lbs("class Node { Int8 v; Node next; }").unwrap();
    // Each level: one present bit + one byte. 4096 levels would recurse far; decoding stops
    // with an error instead of exhausting the stack.
    let mut bytes = Vec::new();
    for _ in 0..4096 {
        bytes.push(0x00); // bit byte: 8 present bits
        bytes.extend_from_slice(&[1; 8]);
    }
    let e = s.decode("Node", &bytes, Mode::Compat).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
        "{e}"
    );
}
