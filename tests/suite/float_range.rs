//! A 64-bit float beyond f32's range is an error where an `f32` receives it, never a silent
//! infinity. Decision: decoding a Godot float into an `f32` and encoding an f64 math-type
//! component into a 32-bit wire slot both fail; infinities and NaN pass through, values
//! within range round to the nearest f32. A double build's math-type components read into
//! single-precision math types are cast as a single-precision Godot engine casts them.
use crate::common;

use common::hex;
#[cfg(feature = "double-precision")]
use godot_serde::Config;

// Godot 4 float with the 64-bit flag (header 0x00010003), then the f64 (little-endian bytes
// from IEEE-754: 1e300 = 0x7e37e43c8800759c, -1e39 = 0xc8078287f49c4a1d).
const FLOAT_1E300: &str = "03000100 9c7500883ce4377e";
const FLOAT_MINUS_1E39: &str = "03000100 1d4a9cf4878207c8";

#[test]
fn f32_field_refuses_a_float_beyond_its_range() {
    for (input, text) in [(FLOAT_1E300, "1e300"), (FLOAT_MINUS_1E39, "-1e39")] {
        let bytes = hex(input);
        let err = godot_serde::from_bytes::<f32>(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("float {text} does not fit in an f32 (beyond ±3.4028235e38) (byte 0)")
        );
        // An f64 receives it exactly.
        let v: f64 = godot_serde::from_bytes(&bytes).unwrap();
        assert_eq!(v, text.parse::<f64>().unwrap());
    }
}

#[test]
fn f32_field_keeps_what_fits() {
    // 1.5 as a 32-bit float (header 3, flag clear).
    assert_eq!(
        godot_serde::from_bytes::<f32>(&hex("03000000 0000c03f")).unwrap(),
        1.5
    );
    // f32::MAX written as a 64-bit float (0x47efffffe0000000) fits exactly.
    let max = godot_serde::from_bytes::<f32>(&hex("03000100 000000e0ffffef47")).unwrap();
    assert_eq!(max, f32::MAX);
    // Infinity stays infinity (32-bit +inf: 0x7f800000).
    let inf = godot_serde::from_bytes::<f32>(&hex("03000000 0000807f")).unwrap();
    assert!(inf.is_infinite());
    // In a struct the error names the field.
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Unit {
        speed: f32,
    }
    // {"speed": 1e300}: Dictionary, 1 entry, key "speed" (5 bytes + 3 padding), the float.
    let bytes = hex(&format!(
        "1b000000 01000000 04000000 05000000 73706565 64000000 {FLOAT_1E300}"
    ));
    let err = godot_serde::from_bytes::<Unit>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("speed"));
}

/// Single-precision math types: a 64-bit component (the 4.x double-build flag) beyond f32's
/// range becomes infinite, as a single-precision Godot engine casts it (`real_t`); documented
/// in `fits_f32`.
#[cfg(not(feature = "double-precision"))]
#[test]
fn wide_vector2_into_single_precision() {
    // Vector2 (id 5) with the 64-bit flag: x = 1e300, y = 0.
    let bytes = hex("05000100 9c7500883ce4377e 0000000000000000");
    let v = godot_serde::from_bytes::<godot_serde::Vector2>(&bytes).unwrap();
    assert!(v.x.is_infinite() && v.y == 0.0, "{v:?}");
}

/// Double-precision math types written to the single-precision wire layout: an f64
/// component beyond f32's range is an error, not an infinity on the wire.
#[cfg(feature = "double-precision")]
#[test]
fn double_vector2_onto_the_single_precision_wire() {
    let v = godot_serde::Vector2::new(1e300, 0.0);
    let err = Config::godot4().to_bytes(&v).unwrap_err();
    assert!(err.to_string().contains("does not fit in an f32"), "{err}");
    let bytes = Config::godot4()
        .with_double_precision(true)
        .to_bytes(&v)
        .unwrap();
    assert_eq!(&bytes[..12], &hex("05000100 9c7500883ce4377e")[..]);
}
