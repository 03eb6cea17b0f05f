//! LiteByte spec vectors (§2–§5, §8, §11 of shared/spec/litebyte.md), typed serde API.
//! Every expected byte string is copied from the spec (or derived by hand in a comment).

use litebyte::{
    self, Ascii, Bit3, Class, Config, ErrorKind, Float8, Float16, Float24, Int24, Int40, Int48,
    Int56, Mode, UInt24, Unicode, Utf8, VarInt32, VarInt64, VarUInt32, VarUnicode,
};
use serde::{Deserialize, Serialize};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[track_caller]
fn enc<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    litebyte::to_bytes(v).unwrap()
}

#[track_caller]
fn roundtrip<T>(v: &T, expected_hex: &str)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let bytes = enc(v);
    assert_eq!(bytes, hex(expected_hex), "encoding {v:?}");
    let back: T = litebyte::from_bytes(&bytes).unwrap();
    assert_eq!(&back, v);
}

// ---------------------------------------------------------------- §2 bit packing

#[test]
fn bit_byte_is_reused_after_byte_data() {
    // Bit1(1), UInt8(0xAA), Bit1(1), UInt8(0xBB) → 03 AA BB
    roundtrip(&(true, 0xAAu8, true, 0xBBu8), "03 AA BB");
}

#[test]
fn bit_field_straddles_bytes() {
    // 7×Bit1(1) then Bit3(5) → FF 02
    roundtrip(
        &(true, true, true, true, true, true, true, Bit3(5)),
        "FF 02",
    );
}

#[test]
fn bit_range_checked() {
    let e = litebyte::to_bytes(&Bit3(8)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
}

// ---------------------------------------------------------------- §3 varints

#[test]
fn varint32_vectors() {
    for (v, h) in [
        (0, "00 00"),
        (127, "00 7F"),
        (-128, "00 80"),
        (128, "01 80 00"),
        (-129, "01 7F FF"),
        (8388608, "03 00 00 80 00"),
    ] {
        roundtrip(&v, h); // i32 → VarInt32 (demo table)
        roundtrip(&VarInt32(v), h);
    }
    roundtrip(&VarUInt32(256), "01 00 01");
    roundtrip(&256u32, "01 00 01");
    roundtrip(&VarInt64(1 << 31), "04 00 00 00 80 00");
    roundtrip(&i64::MIN, "07 00 00 00 00 00 00 00 80");
    // Two VarInt32s share one bit byte.
    roundtrip(&(1i32, 300i32), "04 01 2C 01");
}

#[test]
fn odd_width_ints() {
    roundtrip(&Int24(-1), "FF FF FF");
    roundtrip(&Int24(-8388608), "00 00 80");
    roundtrip(&UInt24(16777215), "FF FF FF");
    roundtrip(&Int40(-(1 << 39)), "00 00 00 00 80");
    roundtrip(&Int48((1 << 47) - 1), "FF FF FF FF FF 7F");
    roundtrip(&Int56(-1), "FF FF FF FF FF FF FF");
    for bad in [
        litebyte::to_bytes(&Int24(8388608)),
        litebyte::to_bytes(&UInt24(16777216)),
        litebyte::to_bytes(&Int40(1 << 39)),
    ] {
        assert!(matches!(
            bad.unwrap_err().kind(),
            ErrorKind::OutOfRange { .. }
        ));
    }
}

// ---------------------------------------------------------------- §3 floats

#[track_caller]
fn f16(v: f32, h: &str, decoded: f32) {
    let b = enc(&Float16(v));
    assert_eq!(b, hex(h), "Float16({v})");
    let back: Float16 = litebyte::from_bytes(&b).unwrap();
    assert_eq!(back.0.to_bits(), decoded.to_bits(), "Float16 decode of {h}");
}

#[track_caller]
fn f24(v: f32, h: &str, decoded: f32) {
    let b = enc(&Float24(v));
    assert_eq!(b, hex(h), "Float24({v})");
    let back: Float24 = litebyte::from_bytes(&b).unwrap();
    assert_eq!(back.0.to_bits(), decoded.to_bits(), "Float24 decode of {h}");
}

/// C#'s `float.NaN`: sign bit set.
const CS_NAN32: f32 = f32::from_bits(0xffc0_0000);

#[test]
fn float16_vectors() {
    f16(1.0, "00 3C", 1.0);
    f16(-2.5, "00 C1", -2.5);
    f16(0.1, "66 2E", 0.1);
    f16(0.0, "00 40", 2.0); // C# bug reproduced: zero decodes as 2.0
    f16(-0.0, "00 C0", -2.0);
    f16(CS_NAN32, "00 BE", -1.5);
    // 1e-5 → 3E F9, raw decode −42944, reported with 3 significant digits (−42900).
    f16(1e-5, "3E F9", -42900.0);
    let e = litebyte::to_bytes(&Float16(131008.0)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }));
    assert!(litebyte::to_bytes(&Float16(f32::INFINITY)).is_err());
}

#[test]
fn float24_vectors() {
    f24(1.0, "00 00 3F", 1.0);
    f24(-2.5, "00 40 C0", -2.5);
    f24(123.4567, "D4 ED 45", 123.46);
    f24(0.0, "00 00 C0", -2.0);
    f24(-0.0, "00 00 C0", -2.0);
    f24(CS_NAN32, "00 80 BF", -1.5);
    assert!(litebyte::to_bytes(&Float24(f32::NEG_INFINITY)).is_err());
}

#[test]
fn float8_vectors() {
    roundtrip(&Float8(1.0), "FF");
    roundtrip(&Float8(0.2), "33"); // 0.2f*255 = 51 in f32 arithmetic
    roundtrip(&Float8(0.0), "00");
    for bad in [0.5f32, -0.2, 1.5] {
        let e = litebyte::to_bytes(&Float8(bad)).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{bad}");
    }
}

#[test]
fn float32_64_keep_bits() {
    roundtrip(&1.0f32, "00 00 80 3F");
    assert_eq!(enc(&CS_NAN32), hex("00 00 C0 FF"));
    assert_eq!(
        enc(&f64::from_bits(0xfff8_0000_0000_0000)),
        hex("00 00 00 00 00 00 F8 FF")
    );
    assert_eq!(enc(&-0.0f64), hex("00 00 00 00 00 00 00 80"));
    let back: f64 = litebyte::from_bytes(&hex("00 00 00 00 00 00 00 80")).unwrap();
    assert!(back == 0.0 && back.is_sign_negative());
}

// ---------------------------------------------------------------- §4 lengths and strings

#[test]
fn varlength_vectors() {
    // The header of a byte array of n elements is VarLength(n).
    for (n, h) in [
        (0usize, "01"),
        (126, "7F"),
        (127, "80 01"),
        (16382, "FF 7F"),
        (16383, "80 80 01"),
    ] {
        let v = vec![0u8; n];
        let b = enc(&v);
        let hb = hex(h);
        assert_eq!(&b[..hb.len()], &hb[..], "n = {n}");
        assert_eq!(b.len(), hb.len() + n);
        let back: Vec<u8> = litebyte::from_bytes(&b).unwrap();
        assert_eq!(back.len(), n);
    }
    roundtrip(&None::<Vec<u8>>, "00");
}

#[test]
fn string_vectors() {
    let cases = [
        (
            "abc",
            "04 61 62 63",
            "04 61 00 62 00 63 00",
            "04 61 62 63",
            "04 00 61 62 63",
        ),
        ("é", "03 C3 A9", "02 E9 00", "02 3F", "02 00 E9"),
        ("冰", "04 E5 86 B0", "02 B0 51", "02 3F", "02 01 B0 51"),
    ];
    for (s, utf8, unicode, ascii, varuni) in cases {
        roundtrip(&Utf8(s.into()), utf8);
        roundtrip(&s.to_string(), utf8); // String → UTF8 (demo table)
        roundtrip(&Unicode(s.into()), unicode);
        roundtrip(&VarUnicode(s.into()), varuni);
        assert_eq!(enc(&Ascii(s.into())), hex(ascii));
    }
    roundtrip(&None::<String>, "00");
    roundtrip(&Some(String::new()), "01");
    roundtrip(&String::new(), "01");
}

#[test]
fn ascii_high_bytes_strict_vs_compat() {
    // Writer: non-ASCII becomes '?'. Reader: 03 C3 41 (a byte >= 0x80) is rejected in strict
    // mode and read as "?A" in compat mode, like the C# reader (fixture decode_ascii_high_byte).
    assert_eq!(enc(&Ascii("é".into())), hex("02 3F"));
    let b = hex("03 C3 41");
    assert!(litebyte::from_bytes::<Ascii>(&b).is_err());
    let back: Ascii = litebyte::from_bytes_with(&b, Config::compat()).unwrap();
    assert_eq!(back.0, "?A");
}

#[test]
fn null_string_strict_vs_compat() {
    let e = litebyte::from_bytes::<String>(&[0]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedNull(_)));
    let s: String = litebyte::from_bytes_with(&[0], Config::compat()).unwrap();
    assert_eq!(s, "");
}

// ---------------------------------------------------------------- §5 composite types

#[test]
fn bit_array() {
    roundtrip(&vec![true, false, true], "04 05");
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct ClassType2 {
    x: i32,
    y: i32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct ClassType {
    a: Class<Option<ClassType2>>,
    b: Class<Option<ClassType2>>,
    c: Class<Option<ClassType2>>,
}

#[test]
fn class_members_and_root() {
    // class ClassType { ClassType2 a, b, c; } with a={1,2}, b=null, c={3,4} → 40 01 02 00 03 04
    let v = Class(Some(ClassType {
        a: Class(Some(ClassType2 { x: 1, y: 2 })),
        b: Class(None),
        c: Class(Some(ClassType2 { x: 3, y: 4 })),
    }));
    roundtrip(&v, "40 01 02 00 03 04");
    // A null class root is the single byte 01.
    roundtrip(&Class(None::<ClassType>), "01");
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct WithClassAttr {
    #[serde(with = "litebyte::with::class")]
    a: Option<ClassType2>,
    #[serde(with = "litebyte::with::class")]
    b: ClassType2,
}

#[test]
fn class_with_module() {
    // bits: a null (1), b present (0) → 01; then b = {5, 6} with 2-bit tags 00 00 in a new
    // bit byte? No: the bit byte 01 still has room: b's tags go to bits 2..5 → 01, 05, 06.
    roundtrip(
        &WithClassAttr {
            a: None,
            b: ClassType2 { x: 5, y: 6 },
        },
        "01 05 06",
    );
}

#[test]
fn class_array_elements_carry_null_bits() {
    // Two elements {7, 0} and null: VarLength(2)=03; bits: present 0, tag 00, tag 00, null 1
    // → 0b1_00_00_0 = 0x20; bytes 07 00.
    roundtrip(
        &vec![Class(Some(ClassType2 { x: 7, y: 0 })), Class(None)],
        "03 20 07 00",
    );
}

#[test]
fn nested_arrays_maps_enums_rejected() {
    let e = litebyte::to_bytes(&vec![vec![1u8]]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    let mut m = std::collections::BTreeMap::new();
    m.insert(1u8, 2u8);
    assert!(matches!(
        litebyte::to_bytes(&m).unwrap_err().kind(),
        ErrorKind::Unsupported(_)
    ));
    #[derive(Serialize)]
    enum E {
        A(u8),
    }
    assert!(matches!(
        litebyte::to_bytes(&E::A(1)).unwrap_err().kind(),
        ErrorKind::Unsupported(_)
    ));
    assert!(litebyte::to_bytes(&'c').is_err());
    assert!(litebyte::to_bytes(&Some(5i32)).is_err());
}

#[test]
fn trailing_bytes_strict_vs_compat() {
    let e = litebyte::from_bytes::<u8>(&[1, 2]).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::TrailingBytes { count: 1 }),
        "{e}"
    );
    assert_eq!(e.offset(), Some(1));
    let v: u8 = litebyte::from_bytes_with(&[1, 2], Config::compat()).unwrap();
    assert_eq!(v, 1);
    // Empty input: strict error, compat null.
    assert!(litebyte::from_bytes::<Class<Option<ClassType2>>>(&[]).is_err());
    let v: Class<Option<ClassType2>> = litebyte::from_bytes_with(&[], Config::compat()).unwrap();
    assert_eq!(v.0, None);
    // The same through the entry point on `Config`.
    let v: Class<Option<ClassType2>> = Config::compat().from_bytes(&[]).unwrap();
    assert_eq!(v.0, None);
    assert!(
        Config::new()
            .from_bytes::<Class<Option<ClassType2>>>(&[])
            .is_err()
    );
}

#[test]
fn truncated_input_reports_offset() {
    let e = litebyte::from_bytes::<litebyte::Int32>(&[1, 2]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{e}");
    assert!(e.is_eof());
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn strict_rejects_compat_accepts() {
    // Over-long LEB128 length 0 (§11.7): 81 00.
    assert!(litebyte::from_bytes::<Vec<u8>>(&hex("81 00")).is_err());
    let v: Vec<u8> = litebyte::from_bytes_with(&hex("81 80 80 80 00"), Config::compat()).unwrap();
    assert!(v.is_empty());
    // Unused high bits set.
    assert!(litebyte::from_bytes::<bool>(&[0xFF]).is_err());
    assert!(litebyte::from_bytes_with::<bool>(&[0xFF], Config::compat()).unwrap());
    // VarInt32 wider than needed: tag 01, value 5 in 2 bytes.
    assert!(litebyte::from_bytes::<i32>(&hex("01 05 00")).is_err());
    assert_eq!(
        litebyte::from_bytes_with::<i32>(&hex("01 05 00"), Config::compat()).unwrap(),
        5
    );
    // Length larger than the input.
    let e = litebyte::from_bytes::<Vec<u8>>(&hex("FF FF FF FF 07")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. }), "{e}");
    let _ = Mode::Strict;
}

// ---------------------------------------------------------------- §8 vectors

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct PlayerInfo {
    id: u32,
    nickname: String,
    gender: u8,
    is_vip: bool,
    lv: i32,
    hp: i32,
    mp: i32,
    exp: i32,
}

fn player() -> PlayerInfo {
    PlayerInfo {
        id: 100001,
        nickname: "冰封百度".into(),
        gender: 1,
        is_vip: true,
        lv: 999,
        hp: 999999,
        mp: 999999,
        exp: 9999999,
    }
}

#[test]
fn player_info_struct() {
    roundtrip(
        &player(),
        "4E A1 86 01 0D E5 86 B0 E5 B0 81 E7 99 BE E5 BA A6 01 E7 03 3F 42 0F 07 3F 42 0F 7F 96 98 00",
    );
}

#[test]
fn player_info_class() {
    roundtrip(
        &Class(Some(player())),
        "9C A1 86 01 0D E5 86 B0 E5 B0 81 E7 99 BE E5 BA A6 01 E7 03 3F 42 0F 0E 3F 42 0F 7F 96 98 00",
    );
    // Class<T> (always present) writes the same bytes.
    assert_eq!(enc(&Class(player())), enc(&Class(Some(player()))));
}

#[test]
fn more_section8_vectors() {
    roundtrip(&[true, false, true, true, false, false, true, false], "4D");
    roundtrip(&[true; 9], "FF 01");
    roundtrip(
        &(1.12345f32, 2.12345f32, 3.12345f32),
        "36 CD 8F 3F 9B E6 07 40 9B E6 47 40",
    );
    roundtrip(&vec![1i32, -1, 1000], "04 10 01 FF E8 03");
    roundtrip(&None::<Vec<i32>>, "00");
}

// ---------------------------------------------------------------- §11 additions

#[test]
fn with_modules_apply_to_options_and_elements() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct T {
        #[serde(with = "litebyte::with::int24")]
        a: Vec<i32>,
        #[serde(with = "litebyte::with::ascii")]
        s: Option<String>,
        #[serde(with = "litebyte::with::bit3")]
        b: u8,
    }
    // a: VarLength 03, FF FF FF, 01 00 00; s: 02 78; b: bit byte 05
    roundtrip(
        &T {
            a: vec![-1, 1],
            s: Some("x".into()),
            b: 5,
        },
        "03 FF FF FF 01 00 00 02 78 05",
    );
}

#[test]
fn type_map_is_configurable() {
    use litebyte::{BaseType, TypeMap};
    let cfg = Config::new().with_types(TypeMap::from_aliases([(BaseType::Int32, "int")]));
    assert_eq!(
        litebyte::to_bytes_with(&1i32, cfg).unwrap(),
        hex("01 00 00 00")
    );
    assert_eq!(
        litebyte::from_bytes_with::<i32>(&hex("01 00 00 00"), cfg).unwrap(),
        1
    );
}

#[test]
fn unit_enum_extension() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Dir {
        N,
        E,
        S,
    }
    roundtrip(&Dir::S, "02");
    let _ = Dir::N;
    let _ = Dir::E;
}

#[test]
fn var_unicode_lone_low_surrogate_strict_vs_compat() {
    // "a\u{DC00}b" as VarUnicode: 04 04 61 00 DC 62 (§11.6). A String cannot hold it.
    let b = hex("04 04 61 00 DC 62");
    assert!(litebyte::from_bytes::<VarUnicode>(&b).is_err());
    let v: VarUnicode = litebyte::from_bytes_with(&b, Config::compat()).unwrap();
    assert_eq!(v.0, "a\u{FFFD}b");
}

#[test]
fn typed_recursion_is_bounded() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Node {
        v: i8,
        next: Class<Option<Box<Node>>>,
    }
    // class Node { Int8 v; Node next; }: 1→2→null = bits 0 (root present), 0, 0, 1 → 08;
    // bytes 01 02 (fixture class_self_recursive_list is 08 01 02 03 for three nodes).
    let list = Class(Some(Node {
        v: 1,
        next: Class(Some(Box::new(Node {
            v: 2,
            next: Class(Some(Box::new(Node {
                v: 3,
                next: Class(None),
            }))),
        }))),
    }));
    roundtrip(&list, "08 01 02 03");
    let mut deep = Vec::new();
    for _ in 0..4096 {
        deep.push(0x00);
        deep.extend_from_slice(&[1; 8]);
    }
    let e = litebyte::from_bytes_with::<Class<Option<Node>>>(&deep, Config::compat()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
        "{e}"
    );
}
