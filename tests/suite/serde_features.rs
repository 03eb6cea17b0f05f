//! serde features that rely on a self-describing format, borrowing, and the lenient
//! acceptance rules ("what Godot plausibly sends").
use crate::common;
use common::*;
use godot_serde::{Config, StringName, Variant, Vector2};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Target {
    Point(Vector2),
    Name(String),
    Id(i64),
}

#[test]
fn untagged_enums_keep_marker_types() {
    for t in [
        Target::Point(Vector2::new(1.0, 2.0)),
        Target::Name("base".into()),
        Target::Id(9),
    ] {
        let bytes = godot_serde::to_bytes(&t).unwrap();
        assert_eq!(godot_serde::from_bytes::<Target>(&bytes).unwrap(), t);
    }
    // The Vector2 really is a Vector2 on the wire (type 5), not an Array.
    let bytes = godot_serde::to_bytes(&Target::Point(Vector2::new(1.0, 2.0))).unwrap();
    assert_eq!(bytes, hex("05000000 0000803f 00000040"));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct WithExtra {
    id: u32,
    #[serde(flatten)]
    extra: BTreeMap<String, Variant>,
}

#[test]
fn flatten_collects_unknown_keys() {
    // {"id": 1, "pos": Vector2(1, 2), "hp": 3} as Godot writes it.
    let bytes = hex(
        "1b000000 03000000 04000000 02000000 69640000 02000000 01000000 \
         04000000 03000000 706f7300 05000000 0000803f 00000040 \
         04000000 02000000 68700000 02000000 03000000",
    );
    let v: WithExtra = godot_serde::from_bytes(&bytes).unwrap();
    assert_eq!(v.id, 1);
    assert_eq!(v.extra["pos"], Variant::Vector2(Vector2::new(1.0, 2.0)));
    assert_eq!(v.extra["hp"], Variant::Int(3));
    // Serializing with flatten uses serialize_map(None): the count is patched in.
    let again = godot_serde::to_bytes(&v).unwrap();
    assert_eq!(&again[..8], &hex("1b000000 03000000")[..]);
    assert_eq!(godot_serde::from_bytes::<WithExtra>(&again).unwrap(), v);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Message {
    Join { name: String },
    Move { to: Vector2 },
}

#[test]
fn internally_tagged_enums() {
    let m = Message::Move {
        to: Vector2::new(3.0, 4.0),
    };
    let bytes = godot_serde::to_bytes(&m).unwrap();
    // {"type": "Move", "to": Vector2(3, 4)}
    let v: Variant = godot_serde::from_bytes(&bytes).unwrap();
    assert_eq!(v["type"].as_str(), Some("Move"));
    assert_eq!(godot_serde::from_bytes::<Message>(&bytes).unwrap(), m);
    let j = Message::Join { name: "Ada".into() };
    assert_eq!(
        godot_serde::from_bytes::<Message>(&godot_serde::to_bytes(&j).unwrap()).unwrap(),
        j
    );
}

#[test]
fn serde_json_value_from_godot_bytes() {
    // {"a": 1} (spec §8.1) into serde_json::Value.
    let v: serde_json::Value = godot_serde::from_bytes(&hex(
        "1b000000 01000000 04000000 01000000 61000000 02000000 01000000",
    ))
    .unwrap();
    assert_eq!(v, serde_json::json!({"a": 1}));
}

#[test]
fn strings_and_bytes_borrow_from_the_input() {
    let bytes = hex("04000000 05000000 476f646f 74000000");
    let s: &str = godot_serde::from_bytes(&bytes).unwrap();
    assert_eq!(s, "Godot");
    assert_eq!(s.as_ptr(), bytes[8..].as_ptr(), "points inside the input");
    let raw = hex("1d000000 03000000 01020300");
    let b: &[u8] = godot_serde::from_bytes(&raw).unwrap();
    assert_eq!(b.as_ptr(), raw[8..].as_ptr());
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        name: &'a str,
    }
    let d = hex("1b000000 01000000 04000000 04000000 6e616d65 04000000 02000000 68690000");
    assert_eq!(godot_serde::from_bytes::<Borrowed>(&d).unwrap().name, "hi");
    // A reader cannot lend: it yields owned Strings.
    let s: String = godot_serde::from_reader(&bytes[..]).unwrap();
    assert_eq!(s, "Godot");
}

#[test]
fn lenient_acceptance_of_what_godot_plausibly_sends() {
    let g4 = Config::godot4();
    // A 64-bit int (as Godot 3.0 wrote every int) into a u8.
    assert_eq!(
        g4.from_bytes::<u8>(&hex("02000100 0c000000 00000000"))
            .unwrap(),
        12
    );
    // An int into a float field.
    assert_eq!(
        g4.from_bytes::<f32>(&hex("02000000 03000000")).unwrap(),
        3.0
    );
    // A 64-bit float into an f32 (rounded).
    assert_eq!(
        g4.from_bytes::<f32>(&hex("03000100 9a999999 9999b93f"))
            .unwrap(),
        0.1f32
    );
    // A String into a StringName, a StringName into a String.
    assert_eq!(
        g4.from_bytes::<StringName>(&hex("04000000 01000000 61000000"))
            .unwrap(),
        StringName::from("a")
    );
    assert_eq!(
        g4.from_bytes::<String>(&hex("15000000 01000000 61000000"))
            .unwrap(),
        "a"
    );
    // A packed array into a Vec of its elements; an Array of ints into Vec<u8>.
    assert_eq!(
        g4.from_bytes::<Vec<i32>>(&hex("1e000000 02000000 01000000 02000000"))
            .unwrap(),
        vec![1, 2]
    );
    assert_eq!(
        g4.from_bytes::<Vec<String>>(&hex("22000000 01000000 03000000 61620000"))
            .unwrap(),
        vec!["ab"]
    );
    assert_eq!(
        g4.from_bytes::<Vec<Vector2>>(&hex("23000000 01000000 0000803f 00000040"))
            .unwrap(),
        vec![Vector2::new(1.0, 2.0)]
    );
    assert_eq!(
        g4.from_bytes::<Vec<u8>>(&hex("1c000000 01000000 02000000 07000000"))
            .unwrap(),
        vec![7]
    );
    // A typed Array[int] into a Vec.
    assert_eq!(
        g4.from_bytes::<Vec<i64>>(&hex("1c000100 02000000 01000000 02000000 05000000"))
            .unwrap(),
        vec![5]
    );
    // bool payloads: any non-zero is true (spec §4.2).
    assert!(g4.from_bytes::<bool>(&hex("01000000 07000000")).unwrap());
    // Unused header bits are ignored (spec §2): 0x00000102 is an int.
    assert_eq!(g4.from_bytes::<i32>(&hex("02010000 05000000")).unwrap(), 5);
    // One leading BOM is dropped and text stops at the first NUL (spec §4.5).
    assert_eq!(
        g4.from_bytes::<String>(&hex("04000000 05000000 efbbbf61 00000000"))
            .unwrap(),
        "a"
    );
    assert_eq!(
        g4.from_bytes::<String>(&hex("04000000 03000000 61006200"))
            .unwrap(),
        "a"
    );
    // Counts mask bit 31 (spec §4.15): 0x80000001 means 1.
    assert_eq!(
        g4.from_bytes::<Vec<i32>>(&hex("1c000000 01000080 02000000 09000000"))
            .unwrap(),
        vec![9]
    );
    // A repeated Dictionary key overwrites the earlier value (spec §4.15).
    let v: Variant = g4.from_bytes(&hex("1b000000 02000000 02000000 01000000 02000000 01000000 02000000 01000000 02000000 02000000")).unwrap();
    assert_eq!(v.as_dictionary().unwrap().len(), 1);
    assert_eq!(v[1usize], Variant::Nil);
}
