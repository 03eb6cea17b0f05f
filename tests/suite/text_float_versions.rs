//! Text-form floats per engine version: Godot 4.0 – 4.4 write `%lg`, 4.5+ the shortest
//! round-trip digits (godot PR #98750).
//!
//! The 4.0 – 4.4 writer is `rtos_fix` in `core/variant/variant_parser.cpp` (4.0 – 4.4): `"0"`
//! for both zeros, `"nan"`, `"inf"`, `"inf_neg"`, else `rtoss` = `String::num_scientific`
//! (`core/string/ustring.cpp`) = `snprintf(buf, 256, "%lg", p_num)`. `%lg` is `%g` with
//! precision 6: round the exact binary value to 6 significant digits (ties to even, as glibc
//! does), take the decimal exponent X of the rounded value; -4 <= X < 6 prints fixed with
//! 5 - X decimals, otherwise `d.ddddde±XX` (at least two exponent digits); trailing zeros of the
//! fraction and a bare point are dropped. A `float` Variant then gets `.0` when the text has
//! no `.`, `e` or `E`. Each expected string below is derived by hand with these rules.
//!
//! The 4.5+ strings are the shortest decimal that reads back to the value (of the `f32` when
//! the value is exactly one), laid out by `grisu2::format_buffer` (plain for 1e-4 <= |x| <
//! 1e15); Godot 4.6 writes them (the live tests in `text_godot4_live` check the writer
//! against the engine).

use godot_serde::config_file::Document;
use godot_serde::{
    Color, Config, GodotVersion, PackedFloat32Array, PackedFloat64Array, Real, Variant, Vector2,
    Vector3, Vector4, text,
};

const OLD: [GodotVersion; 3] = [GodotVersion::V4_0, GodotVersion::V4_3, GodotVersion::V4_4];

fn text_of(v: &Variant, version: GodotVersion) -> String {
    text::variant_to_string_with(v, Config::godot4().with_version(version))
}

/// `Real` from an `f32`, so that the component is the same value in a double-precision build.
fn r(x: f32) -> Real {
    Real::from(x)
}

/// (value, 4.0 – 4.4 text with its derivation, 4.5+ text)
fn float_cases() -> Vec<(f64, &'static str, &'static str)> {
    vec![
        // 0.1: X = -1, 6 decimals: 0.100000 -> "0.1".
        (0.1, "0.1", "0.1"),
        // f32 1/sqrt(2) = 0.707106769084930419921875 widened exactly; X = -1:
        // 0.707106|769... rounds up to 0.707107.
        (
            f64::from(core::f32::consts::FRAC_1_SQRT_2),
            "0.707107",
            "0.70710677",
        ),
        // f64 1/sqrt(2) = 0.70710678118654757...: 0.707106|78... -> 0.707107.
        (
            core::f64::consts::FRAC_1_SQRT_2,
            "0.707107",
            "0.7071067811865476",
        ),
        // 1e-5: X = -5 < -4, scientific: 1.00000e-05 -> "1e-05" (has an `e`: no ".0").
        (1e-5, "1e-05", "1e-05"),
        // 1e-4: X = -4, fixed with 9 decimals: 0.000100000 -> "0.0001".
        (1e-4, "0.0001", "0.0001"),
        // 1e20: X = 20 >= 6 -> "1e+20".
        (1e20, "1e+20", "1e+20"),
        // 123456789: X = 8, scientific: 1.23456|789 rounds up -> "1.23457e+08".
        (123_456_789.0, "1.23457e+08", "123456789.0"),
        // 123456.5: X = 5, fixed with 0 decimals: an exact tie, to even -> "123456", then
        // ".0": the old engines write 123456.5 as 123456.0.
        (123_456.5, "123456.0", "123456.5"),
        // 1234565: exact tie at the sixth digit, to even: 1.23456e+06.
        (1_234_565.0, "1.23456e+06", "1234565.0"),
        // 100: X = 2, 3 decimals: 100.000 -> "100", then ".0".
        (100.0, "100.0", "100.0"),
        // -0.0: rtos_fix writes "0" for both zeros, then ".0".
        (-0.0, "0.0", "0.0"),
        // The specials come from rtos_fix itself, and get no ".0".
        (f64::INFINITY, "inf", "inf"),
        (f64::NEG_INFINITY, "inf_neg", "inf_neg"),
        (f64::NAN, "nan", "nan"),
        // f32::MAX = 340282346638528859811704183484516925440: X = 38,
        // 3.40282|34... -> "3.40282e+38".
        (f64::from(f32::MAX), "3.40282e+38", "3.4028235e+38"),
        // 1/3 = 0.33333333333333331...: 0.333333|33 -> "0.333333".
        (1.0 / 3.0, "0.333333", "0.3333333333333333"),
        // -2.5: X = 0, 5 decimals: -2.50000 -> "-2.5".
        (-2.5, "-2.5", "-2.5"),
    ]
}

#[test]
fn floats_before_4_5_are_printf_lg() {
    for (x, old, _) in float_cases() {
        for version in OLD {
            assert_eq!(
                text_of(&Variant::Float(x), version),
                old,
                "{x:e} in {version}"
            );
        }
    }
}

#[test]
fn floats_from_4_5_are_the_shortest_form() {
    for (x, _, new) in float_cases() {
        assert_eq!(
            text_of(&Variant::Float(x), GodotVersion::V4_5),
            new,
            "{x:e}"
        );
        // The default config, `Config::godot4()` and `Display` are 4.5+.
        assert_eq!(text::variant_to_string(&Variant::Float(x)), new, "{x:e}");
        assert_eq!(format!("{:#}", Variant::Float(x)), new, "{x:e}");
    }
    assert_eq!(Config::default().version(), GodotVersion::V4_5);
    assert_eq!(Config::godot4().version(), GodotVersion::V4_5);
}

#[test]
fn components_before_4_5_are_printf_lg() {
    let s = core::f32::consts::FRAC_1_SQRT_2;
    let third = 1.0f32 / 3.0; // 0.3333333432674407958984375
    // 0.123456789f32 = 0.12345679104328155517578125: 0.123456|79 -> 0.123457.
    let c = 0.123_456_79_f32;
    let cases: Vec<(Variant, &str, &str)> = vec![
        (
            Variant::Vector2(Vector2 { x: r(s), y: r(-s) }),
            "Vector2(0.707107, -0.707107)",
            "Vector2(0.70710677, -0.70710677)",
        ),
        (
            Variant::Vector3(Vector3 {
                x: r(third),
                y: r(1e-5),
                z: r(100.0),
            }),
            // 1e-5f32 = 0.0000099999997473787516...: X = -6, 9.99999|97 rounds up to
            // 10.0000, so X = -5: "1e-05". 100: "100" (no ".0" inside a constructor).
            "Vector3(0.333333, 1e-05, 100)",
            "Vector3(0.33333334, 1e-05, 100)",
        ),
        (
            // A type Godot 3 lacks: Godot 4 syntax, with the version's floats.
            Variant::Vector4(Vector4 {
                x: r(s),
                y: r(third),
                z: r(0.5),
                w: r(-0.0),
            }),
            "Vector4(0.707107, 0.333333, 0.5, 0)",
            "Vector4(0.70710677, 0.33333334, 0.5, 0)",
        ),
        (
            Variant::Vector2(Vector2 {
                x: r(f32::INFINITY),
                y: r(f32::NEG_INFINITY),
            }),
            "Vector2(inf, inf_neg)",
            "Vector2(inf, inf_neg)",
        ),
        (
            Variant::Color(Color {
                r: s,
                g: third,
                b: c,
                a: 1.0,
            }),
            "Color(0.707107, 0.333333, 0.123457, 1)",
            "Color(0.70710677, 0.33333334, 0.12345679, 1)",
        ),
        (
            Variant::PackedFloat32Array(PackedFloat32Array(vec![third, f32::MAX, -0.0])),
            "PackedFloat32Array(0.333333, 3.40282e+38, 0)",
            "PackedFloat32Array(0.33333334, 3.4028235e+38, 0)",
        ),
        (
            Variant::PackedFloat64Array(PackedFloat64Array(vec![1.0 / 3.0, 123_456_789.0])),
            "PackedFloat64Array(0.333333, 1.23457e+08)",
            "PackedFloat64Array(0.3333333333333333, 123456789)",
        ),
    ];
    for (v, old, new) in &cases {
        for version in OLD {
            assert_eq!(text_of(v, version), *old, "{version}");
        }
        assert_eq!(text_of(v, GodotVersion::V4_5), *new);
    }
}

#[test]
fn serde_and_config_file_follow_the_version() {
    let v44 = Config::godot4().with_version(GodotVersion::V4_4);
    assert_eq!(
        text::to_string_with(&(1.0f64 / 3.0), v44).unwrap(),
        "0.333333"
    );
    assert_eq!(
        text::to_string_with(&(1.0f64 / 3.0), Config::godot4()).unwrap(),
        "0.3333333333333333"
    );
    // A ConfigFile (`ConfigFile.save`, `project.godot`) writes values with the same writer.
    let file = "[player]\n\nspeed=1.0\n";
    let mut doc = Document::parse(file, v44).unwrap();
    doc.set("player", "speed", &Variant::Float(core::f64::consts::PI))
        .unwrap();
    // pi = 3.14159265...: X = 0, 5 decimals: 3.14159|265 -> "3.14159".
    assert_eq!(doc.to_string(), "[player]\n\nspeed=3.14159\n");
    let mut doc = Document::parse(file, Config::godot4()).unwrap();
    doc.set("player", "speed", &Variant::Float(core::f64::consts::PI))
        .unwrap();
    assert_eq!(doc.to_string(), "[player]\n\nspeed=3.141592653589793\n");
}

#[test]
fn the_binary_layout_of_4_5_is_the_one_of_4_4() {
    let v = Variant::Float(0.1);
    let v44 = Config::godot4().with_version(GodotVersion::V4_4);
    assert_eq!(
        Config::godot4().to_bytes(&v).unwrap(),
        v44.to_bytes(&v).unwrap()
    );
    assert!(GodotVersion::V4_5.has_typed_dictionaries());
    assert!(GodotVersion::V4_5.has_shortest_float_text());
    assert!(!GodotVersion::V4_4.has_shortest_float_text());
    assert!(!GodotVersion::V3.has_shortest_float_text());
    assert_eq!(GodotVersion::V4_4.to_string(), "4.4");
    assert_eq!(GodotVersion::V4_5.to_string(), "4.5+");
}

/// Godot 3.2.3's `var2str` writes a vector's `float` components with the same `rtosfix` →
/// `String::num_scientific` → `snprintf("%lg")` of the widened `f32` as Godot 4.0 – 4.4
/// (`core/variant_parser.cpp`, `core/ustring.cpp` at 3.2.3), so the live 3.2.3 engine checks
/// our `%lg` digits, exact ties included (the C library's rounding: `1234565` and `123456.5`
/// are exact `f32` halfway cases). The engine prints each vector's `var2str` and `var2bytes`;
/// the bytes give the exact components, whose 4.0 – 4.4 text must carry the engine's numbers.
#[test]
fn godot3_engine_prints_the_same_lg_digits() {
    use crate::common::engine::{Godot3Project, godot3_or_skip};
    let Some(engine) = godot3_or_skip("godot3_engine_prints_the_same_lg_digits") else {
        return;
    };
    let vectors = [
        "0.70710677, 0.33333334, 0.00001",
        "123456789.0, 3.4028235e38, 0.1",
        "1234565.0, 123456.5, 0.0001",
        "100.0, -2.5, 8.4765625",
        "1e20, 3e-39, 16777216.0",
        "0.123456789, 999999.5, 0.000099999",
    ];
    let mut script = String::from("extends SceneTree\nfunc _init():\n\tvar v\n");
    for v in vectors {
        script += &format!(
            "\tv = Vector3({v})\n\tprint(\"T \", var2str(v))\n\
             \tprint(\"B \", var2bytes(v).hex_encode())\n"
        );
    }
    script += "\tquit(0)\n";
    let dir = std::env::temp_dir().join(format!("godot_serde_lg_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lg.gd");
    std::fs::write(&path, script).unwrap();
    let project = Godot3Project::new("lg_digits", &[&path]);
    let out = project
        .spawn(
            &engine,
            "lg.gd",
            &[] as &[&str],
            std::time::Duration::from_secs(60),
        )
        .join()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let texts: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("T "))
        .collect();
    let bytes: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("B "))
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(texts.len(), vectors.len(), "{stdout}{stderr}");
    assert_eq!(bytes.len(), vectors.len(), "{stdout}");
    let no_spaces = |s: &str| s.replace(' ', "");
    for (text, hex) in texts.iter().zip(&bytes) {
        let raw: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let v: Variant = Config::godot3().from_bytes(&raw).unwrap();
        for version in OLD {
            assert_eq!(
                no_spaces(&text_of(&v, version)),
                no_spaces(text),
                "{version}"
            );
        }
    }
    // The hand-derived cases agree: the third vector is `Vector3( 1.23456e+06, 123456, 0.0001 )`.
    assert_eq!(texts[2], "Vector3( 1.23456e+06, 123456, 0.0001 )");
}
