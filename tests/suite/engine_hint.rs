//! When decoding fails and the other engine's layout (Godot 3 vs 4) decodes the same bytes
//! into the same type, the error says so.
use crate::common;

use common::hex;
use godot_serde::frame::Framing;
use godot_serde::{Color, Config, GodotVersion, Transform2D, Vector2};
use serde::Deserialize;

/// Godot 3 Color(1, 0.5, 0, 1): type id 14 (Color in 3.x, Plane in 4.x), four f32.
const GODOT3_COLOR: &str = "0e000000 0000803f 0000003f 00000000 0000803f";
/// Godot 4 Transform2D(x = (1, 0), y = (0, 1), origin = (2, 3)): type id 11 (Transform2D in
/// 4.x, AABB in 3.x), six f32.
const GODOT4_TRANSFORM2D: &str = "0b000000 0000803f 00000000 00000000 0000803f 00000040 00004040";

#[test]
fn godot3_color_read_as_godot4() {
    let bytes = hex(GODOT3_COLOR);
    let err = Config::godot4().from_bytes::<Color>(&bytes).unwrap_err();
    assert_eq!(err.decodes_as(), Some(GodotVersion::V3));
    assert_eq!(
        err.to_string(),
        "invalid type: Plane, expected a Color (4 numbers) (byte 0); \
         these bytes decode as Godot 3.x: use Config::godot3()"
    );
    assert_eq!(
        Config::godot3().from_bytes::<Color>(&bytes).unwrap(),
        Color::new(1.0, 0.5, 0.0, 1.0)
    );
}

#[test]
fn godot4_transform2d_read_as_godot3() {
    let bytes = hex(GODOT4_TRANSFORM2D);
    let err = Config::godot3()
        .from_bytes::<Transform2D>(&bytes)
        .unwrap_err();
    assert_eq!(err.decodes_as(), Some(GodotVersion::V4_4));
    assert!(
        err.to_string()
            .ends_with("; these bytes decode as Godot 4.4+: use Config::godot4()"),
        "{err}"
    );
    // take_from_bytes and frames give the hint too.
    let err = Config::godot3()
        .take_from_bytes::<Transform2D>(&bytes)
        .unwrap_err();
    assert_eq!(err.decodes_as(), Some(GodotVersion::V4_4));
    let mut frame = (bytes.len() as u32).to_le_bytes().to_vec();
    frame.extend(&bytes);
    let err = Framing::new(Config::godot3())
        .take_from_bytes::<Transform2D>(&frame)
        .unwrap_err();
    assert_eq!(err.decodes_as(), Some(GodotVersion::V4_4));
}

#[derive(Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    at: Vector2,
}

#[test]
fn godot3_dictionary_read_as_godot4() {
    // {"name": "Bo", "at": Vector2(1, 2)} as Godot 3's var2bytes writes it: Dictionary is
    // id 18 in 3.x (Transform3D in 4.x), so the Godot 4 layout reads a Transform3D.
    let bytes = hex("12000000 02000000 \
         04000000 04000000 6e616d65 04000000 02000000 426f0000 \
         04000000 02000000 61740000 05000000 0000803f 00000040");
    let err = Config::godot4().from_bytes::<Player>(&bytes).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "invalid type: Transform3D, expected struct Player (byte 0); these bytes decode as Godot 3.x"
        ),
        "{err}"
    );
    let player: Player = Config::godot3().from_bytes(&bytes).unwrap();
    assert_eq!(player.at, Vector2::new(1.0, 2.0));
}

#[test]
fn no_hint_when_neither_layout_decodes() {
    // A Color where a String is wanted: wrong in both layouts.
    let bytes = hex(GODOT3_COLOR);
    let err = Config::godot4().from_bytes::<String>(&bytes).unwrap_err();
    assert_eq!(err.decodes_as(), None);
    assert!(!err.to_string().contains("decode as"), "{err}");
    // Truncated: no layout decodes it.
    let err = Config::godot4()
        .from_bytes::<Color>(&bytes[..10])
        .unwrap_err();
    assert_eq!(err.decodes_as(), None);
}

/// Godot 3 bytes of an Array of `n` Ints whose last element has an unknown type id: the
/// Godot 4 layout reads id 19 as a Projection and fails at its end (68 bytes in); the Godot 3
/// layout reads every element before failing at the last.
fn godot3_array_failing_late(n: u32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(19u32.to_le_bytes()); // Array in 3.x
    b.extend(n.to_le_bytes());
    for i in 0..n - 1 {
        b.extend(2u32.to_le_bytes()); // int
        b.extend(i.to_le_bytes());
    }
    b.extend(200u32.to_le_bytes()); // no such type
    b
}

#[test]
fn the_hint_costs_no_more_than_the_decode_that_failed() {
    // Issue 22 item 9: the hint decoded the whole input again under the other layout, so
    // bytes failing early in one layout and late in the other cost a full second decode.
    // Now the hint reads at most what the failed decode read (or 4 KiB): rejecting 4N bytes
    // costs what rejecting N bytes costs. Same-run ratios, fastest of 7 interleaved batches.
    use std::time::{Duration, Instant};
    let (n, reps) = (20_000, 200);
    let small = godot3_array_failing_late(n);
    let large = godot3_array_failing_late(4 * n);
    let g4 = Config::godot4();
    let err = g4.from_bytes::<godot_serde::Variant>(&large).unwrap_err();
    assert_eq!(err.decodes_as(), None, "{err}");
    assert!(
        Config::godot3()
            .from_bytes::<godot_serde::Variant>(&large)
            .is_err()
    );
    let time = |reps: u32, f: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..reps {
            f();
        }
        start.elapsed() / reps
    };
    let (mut t_small, mut t_large, mut t_full) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..7 {
        t_small = t_small.min(time(reps, &|| {
            let _ = g4.variant_from_bytes(&small);
            let _ = g4.from_bytes::<godot_serde::Variant>(&small);
        }));
        t_large = t_large.min(time(reps, &|| {
            let _ = g4.variant_from_bytes(&large);
            let _ = g4.from_bytes::<godot_serde::Variant>(&large);
        }));
        // What the old hint did: decode the whole input under Godot 3.
        t_full = t_full.min(time(1, &|| {
            let _ = Config::godot3().variant_from_bytes(&large);
            let _ = Config::godot3().from_bytes::<godot_serde::Variant>(&large);
        }));
    }
    let growth = t_large.as_secs_f64() / t_small.as_secs_f64();
    let vs_full = t_full.as_secs_f64() / t_large.as_secs_f64();
    println!(
        "rejecting 4N vs N bytes: {growth:.2}; a full Godot 3 decode vs the rejection: {vs_full:.1}"
    );
    assert!(
        growth < 3.0,
        "rejection grows with the input (4 if linear): {growth:.2}"
    );
    assert!(
        vs_full > 10.0,
        "the rejection is not much cheaper than a full decode: {vs_full:.1}"
    );
}
