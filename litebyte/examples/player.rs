//! LiteByte: a derived struct and a `.lbs` schema producing the same 31 bytes as the C#
//! reference's README `PlayerInfo` example.
//!
//! Run with `cargo run -p litebyte --example player`.

use litebyte::{Class, Mode, Schema, Value, VarUnicode};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct PlayerInfo {
    id: u32,          // uint   → VarUInt32
    nickname: String, // string → UTF8
    gender: u8,       // byte   → UInt8
    is_vip: bool,     // bool   → Bit1
    lv: i32,          // int    → VarInt32
    hp: i32,
    mp: i32,
    exp: i32,
}

fn main() -> Result<(), litebyte::Error> {
    let player = PlayerInfo {
        id: 100001,
        nickname: "冰封百度".into(),
        gender: 1,
        is_vip: true,
        lv: 999,
        hp: 999999,
        mp: 999999,
        exp: 9999999,
    };

    // Typed: `class PlayerInfo` carries a null bit, which `Class` adds.
    let typed = litebyte::to_bytes(&Class(Some(&player)))?;
    println!("typed   ({} bytes): {}", typed.len(), hex(&typed));
    let back: Class<Option<PlayerInfo>> = litebyte::from_bytes(&typed)?;
    assert_eq!(back.0.as_ref(), Some(&player));

    // Dynamic: the same .lbs file the Unity client loads, with the demo alias table.
    let mut schema = Schema::with_demo_aliases();
    schema.add_lbs(
        "class PlayerInfo {
            uint id; string nickname; byte gender; bool isVip;
            int lv; int hp; int mp; int exp;
        }",
    )?;
    schema.validate()?;
    let value = Value::object([
        ("id", Value::UInt(100001)),
        ("nickname", Value::from("冰封百度")),
        ("gender", Value::UInt(1)),
        ("isVip", Value::Bool(true)),
        ("lv", Value::Int(999)),
        ("hp", Value::Int(999999)),
        ("mp", Value::Int(999999)),
        ("exp", Value::Int(9999999)),
    ]);
    let dynamic = schema.encode("PlayerInfo", &value)?;
    assert_eq!(dynamic, typed);
    let decoded = schema.decode("PlayerInfo", &dynamic, Mode::Strict)?;
    println!("decoded: nickname = {:?}", decoded.get("nickname"));

    // A different string encoding per field: VarUnicode is smaller for CJK text.
    let small = litebyte::to_bytes(&VarUnicode(player.nickname.clone()))?;
    println!("nickname as VarUnicode: {}", hex(&small));
    Ok(())
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}
