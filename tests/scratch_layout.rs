mod common;
use common::*;
use godot_serde::Config;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[test]
fn scalars() {
    check_all(&(), "00000000");
    check_all(&true, "01000000 01000000");
    check_all(&false, "01000000 00000000");
    check_all(&1i64, "02000000 01000000");
    check_all(&-1i32, "02000000 ffffffff");
    check_all(&2147483647i64, "02000000 ffffff7f");
    check_all(&2147483648i64, "02000100 00000080 00000000");
    check_all(&-2147483649i64, "02000100 ffffff7f ffffffff");
    check_all(&(1i64 << 40), "02000100 00000000 00010000");
    check_all(&1.5f64, "03000000 0000c03f");
    check_all(&0.1f64, "03000100 9a999999 9999b93f");
    check_all(&-0.0f64, "03000000 00000080");
    check_all(&f64::INFINITY, "03000000 0000807f");
    check_all(&String::new(), "04000000 00000000");
    check_all(&"hi".to_string(), "04000000 02000000 68690000");
    check_all(&"Godot".to_string(), "04000000 05000000 476f646f 74000000");
    check_all(&"héllo".to_string(), "04000000 06000000 68c3a96c 6c6f0000");
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum IntOrStr {
    I(i64),
    S(String),
}

#[test]
fn containers() {
    check(
        &vec![IntOrStr::I(1), IntOrStr::S("a".into())],
        Config::godot3(),
        "13000000 02000000 02000000 01000000 04000000 01000000 61000000",
    );
    check(
        &vec![IntOrStr::I(1), IntOrStr::S("a".into())],
        Config::godot4(),
        "1c000000 02000000 02000000 01000000 04000000 01000000 61000000",
    );
    let m: BTreeMap<String, i32> = [("a".to_string(), 1)].into();
    check(
        &m,
        Config::godot3(),
        "12000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
    check(
        &m,
        Config::godot4(),
        "1b000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
    check(
        &serde_bytes::ByteBuf::from(vec![1u8, 2, 3]),
        Config::godot4(),
        "1d000000 03000000 01020300",
    );
    check(
        &serde_bytes::ByteBuf::from(vec![1u8, 2, 3]),
        Config::godot3(),
        "14000000 03000000 01020300",
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct S {
    a: i32,
    b: Option<String>,
    c: Vec<u8>,
    e: E,
    f: E,
    g: E,
}
#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum E {
    Unit,
    New(i32),
    Tup(i32, i32),
    Str { x: bool },
}

#[test]
fn derived() {
    let s = S {
        a: 1,
        b: None,
        c: vec![1],
        e: E::Unit,
        f: E::New(3),
        g: E::Str { x: true },
    };
    let bytes = godot_serde::to_bytes(&s).unwrap();
    let back: S = godot_serde::from_bytes(&bytes).unwrap();
    assert_eq!(back, s);
    let v = godot_serde::from_bytes::<i32>(&hex("05000000 0000803f 00000040")).unwrap_err();
    assert_eq!(
        v.to_string(),
        "invalid type: Vector2, expected i32 at byte 0"
    );
}
