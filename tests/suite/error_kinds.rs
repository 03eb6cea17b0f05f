//! Each of these malformed-input classes has its own `ErrorKind`, the same from every path
//! (bytes and `Variant`): a reserved Dictionary key, an enum Dictionary of the wrong shape, a
//! float beyond f32's range. Inputs are hand-built Godot 4 bytes (spec §4: header word, then
//! the payload; a String is its length, its UTF-8 bytes and zero padding to 4).

use godot_serde::{ErrorKind, Variant};

fn hex(s: &str) -> Vec<u8> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..clean.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&clean[i..i + 2], 16).unwrap())
        .collect()
}

/// `{"$godot_serde::x": 1}`: Dictionary (27), 1 entry, String (4) of 15 bytes
/// (`24` `$`, `676f646f745f7365726465` `godot_serde`, `3a3a` `::`, `78` `x`) and one byte of
/// padding, then int (2) 1.
const RESERVED: &str = "1b000000 01000000 04000000 0f000000 24676f646f745f7365726465 3a3a7800 \
                        02000000 01000000";

#[test]
fn reserved_key_has_its_own_kind_from_bytes() {
    let err = godot_serde::from_bytes::<Variant>(&hex(RESERVED)).unwrap_err();
    match err.kind() {
        ErrorKind::ReservedKey { key } => assert_eq!(&**key, "$godot_serde::x"),
        other => panic!("{other:?}"),
    }
    // The key's header is at byte 8.
    assert_eq!(err.offset(), Some(8));
    assert_eq!(
        err.to_string(),
        "Dictionary key \"$godot_serde::x\" is reserved for godot_serde's own type markers \
         (byte 8)"
    );
    // Into a plain map too, not only into a self-describing Variant.
    let err = godot_serde::from_bytes::<std::collections::BTreeMap<String, i64>>(&hex(RESERVED))
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ReservedKey { .. }),
        "{err:?}"
    );
}

#[test]
fn reserved_key_has_its_own_kind_from_a_variant() {
    let mut d = godot_serde::Dictionary::new();
    d.insert("$godot_serde::x".into(), 1.into());
    let v = Variant::Dictionary(d);
    let err = godot_serde::from_variant::<Variant>(&v).unwrap_err();
    match err.kind() {
        ErrorKind::ReservedKey { key } => assert_eq!(&**key, "$godot_serde::x"),
        other => panic!("{other:?}"),
    }
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
enum Command {
    Move(i32),
    Stop(i32),
}

/// `{"Move": 1, "Stop": 2}`: Dictionary (27), 2 entries, each a String of 4 bytes
/// (`4d6f7665` `Move`, `53746f70` `Stop`) and an int.
const TWO_ENTRY_ENUM: &str = "1b000000 02000000 04000000 04000000 4d6f7665 02000000 01000000 \
                              04000000 04000000 53746f70 02000000 02000000";

#[test]
fn enum_of_the_wrong_shape_has_its_own_kind() {
    let err = godot_serde::from_bytes::<Command>(&hex(TWO_ENTRY_ENUM)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::EnumShape { entries: 2 }),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(0));
    assert_eq!(
        err.to_string(),
        "invalid enum: a Dictionary of 2 entries, expected 1 (byte 0)"
    );
    // An empty Dictionary (27, count 0) is the wrong shape too.
    let err = godot_serde::from_bytes::<Command>(&hex("1b000000 00000000")).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::EnumShape { entries: 0 }),
        "{err:?}"
    );

    // The same from a Variant.
    let v: Variant = godot_serde::from_bytes(&hex(TWO_ENTRY_ENUM)).unwrap();
    let err = godot_serde::from_variant::<Command>(&v).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::EnumShape { entries: 2 }),
        "{err:?}"
    );
}

/// Float (3) with the 64-bit flag (bit 16), then 1e300 (IEEE-754 0x7e37e43c8800759c).
const FLOAT_1E300: &str = "03000100 9c7500883ce4377e";

#[test]
fn f32_overflow_has_its_own_kind_from_bytes_and_from_a_variant() {
    let err = godot_serde::from_bytes::<f32>(&hex(FLOAT_1E300)).unwrap_err();
    match err.kind() {
        ErrorKind::F32Overflow { value } => assert_eq!(*value, 1e300),
        other => panic!("{other:?}"),
    }
    // A Variant holding the same float refuses an f32 the same way (it used to give an
    // infinity).
    let v = Variant::Float(1e300);
    let err = godot_serde::from_variant::<f32>(&v).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::F32Overflow { value } if *value == 1e300),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "float 1e300 does not fit in an f32 (beyond ±3.4028235e38)"
    );
    // What fits still converts, and an infinity stays one.
    assert_eq!(
        godot_serde::from_variant::<f32>(&Variant::Float(1.5)).unwrap(),
        1.5
    );
    assert!(
        godot_serde::from_variant::<f32>(&Variant::Float(f64::INFINITY))
            .unwrap()
            .is_infinite()
    );
}

/// A double build's f64 component written to the single-precision wire.
#[cfg(feature = "double-precision")]
#[test]
fn f32_overflow_when_encoding_a_wide_component() {
    let v = godot_serde::Vector2::new(-1e39, 0.0);
    let err = godot_serde::Config::godot4().to_bytes(&v).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::F32Overflow { value } if *value == -1e39),
        "{err:?}"
    );
    // After the 4-byte header.
    assert_eq!(err.offset(), Some(4));
}
