//! Expected values of the Godot 3 fixtures, shared by the offline and the live tests.

use super::*;
use godot_serde::{
    Aabb, Basis, PackedByteArray, PackedColorArray, PackedFloat32Array, PackedInt32Array,
    PackedStringArray, PackedVector2Array, PackedVector3Array, Plane, Quaternion, Rect2, Rid,
    Transform2D, Transform3D, Variant,
};

/// The value of each `vectors.jsonl` record, from its `expr` (the expression the engine
/// evaluated). Objects are given in their full form (`var2bytes(value, true)`).
pub fn vector_value(name: &str) -> Variant {
    match name {
        "nil" => nil(),
        "bool_true" => b(true),
        "bool_false" => b(false),
        "int_0" => i(0),
        "int_1" => i(1),
        "int_neg_1" => i(-1),
        "int_42" => i(42),
        "int_255" => i(255),
        "int_256" => i(256),
        "int_65535" => i(65535),
        "int_2p31_minus_1" => i(2147483647),
        "int_2p31" => i(2147483648_i64),
        "int_2p31_plus_1" => i(2147483649_i64),
        "int_neg_2p31_plus_1" => i(-2147483647),
        "int_neg_2p31" => i(-2147483648),
        "int_neg_2p31_minus_1" => i(-2147483649),
        "int_2p32_minus_1" => i(4294967295_i64),
        "int_2p32" => i(4294967296_i64),
        "int_2p40" => i(1099511627776_i64),
        "int_neg_2p40" => i(-1099511627776),
        "int_i64_max" => i(0x7fffffffffffffff_u64 as i64),
        "int_i64_min" => i(0x8000000000000000_u64 as i64),
        "int_i64_min_plus_1" => i(0x8000000000000001_u64 as i64),
        "int_0x0123456789abcdef" => i(0x0123456789abcdef_u64 as i64),
        "float_0" => f(0.0),
        "float_neg_0" => f(-0.0),
        "float_0_1" => f(0.1),
        "float_1_5" => f(1.5),
        "float_neg_1_5" => f(-1.5),
        "float_0_5" => f(0.5),
        "float_3" => f(3.0),
        "float_1_over_3" => f(1.0 / 3.0),
        "float_0_1_plus_0_2" => f(0.1 + 0.2),
        "float_pi" => f(std::f64::consts::PI),
        "float_1e300" => fbits(0x7e37e43c8800759c),
        "float_inf" => f(f64::INFINITY),
        "float_neg_inf" => f(f64::NEG_INFINITY),
        "float_nan" => f(f64::NAN),
        "float_nan_negative" => fbits(0xfff8000000000000),
        "float_nan_payload" => fbits(0x7ff8000000000001),
        "float_flt_max" => f32bits(0x7f7fffff),
        "float_neg_flt_max" => f32bits(0xff7fffff),
        "float_flt_max_next_f64" => fbits(0x47efffffe0000001),
        "float_flt_min_normal" => f32bits(0x00800000),
        "float_f32_subnormal_min" => f32bits(0x00000001),
        "float_f32_subnormal_max" => f32bits(0x007fffff),
        "float_f32_subnormal_neg" => f32bits(0x80000001),
        "float_f64_subnormal_min" => fbits(0x0000000000000001),
        "float_f64_subnormal_neg" => fbits(0x800fffffffffffff),
        "float_f64_min_normal" => fbits(0x0010000000000000),
        "float_f64_max" => fbits(0x7fefffffffffffff),
        "float_2p24" => f(16777216.0),
        "float_2p24_plus_1" => f(16777217.0),
        "float_1e10" => f(10000000000.0),
        "string_len0" => s(""),
        "string_len1" => s("a"),
        "string_len2" => s("ab"),
        "string_len3" => s("abc"),
        "string_len4" => s("abcd"),
        "string_len5" => s("abcde"),
        "string_godot" => s("Godot"),
        "string_e_acute_2_bytes" => s("é"),
        "string_euro_3_bytes" => s("€"),
        "string_hello_accent" => s("héllo"),
        "string_cjk" => s("日本語"),
        "string_emoji" => s("😀"),
        "string_mixed_emoji" => s("a😀b"),
        "string_quote_backslash" => s("\"\\"),
        "string_newline_tab" => s("a\nb\tc"),
        "string_len16" => s("0123456789abcdef"),
        "vector2_1_2" => v2(1.0, 2.0),
        "vector2_neg0_0_1" => v2(-0.0, 0.1),
        "vector2_inf_nan" => v2(f32::INFINITY, f32::NAN),
        "rect2_1_4" => Variant::Rect2(Rect2::new(vec2(1.0, 2.0), vec2(3.0, 4.0))),
        "rect2_frac" => Variant::Rect2(Rect2::new(vec2(-1.5, 2.25), vec2(0.1, 10000000000.0))),
        "vector3_1_2_3" => v3(1.0, 2.0, 3.0),
        "vector3_frac" => v3(-1.0, 0.5, 0.1),
        "transform2d_1_6" => Variant::Transform2D(Box::new(Transform2D::new(
            vec2(1.0, 2.0),
            vec2(3.0, 4.0),
            vec2(5.0, 6.0),
        ))),
        "transform2d_identity" => Variant::Transform2D(Box::new(Transform2D::new(
            vec2(1.0, 0.0),
            vec2(0.0, 1.0),
            vec2(0.0, 0.0),
        ))),
        "plane_1_4" => Variant::Plane(Plane::new(vec3(1.0, 2.0, 3.0), r(4.0))),
        "plane_normal_d" => Variant::Plane(Plane::new(vec3(0.0, 1.0, 0.0), r(-5.0))),
        "quat_1_4" => Variant::Quaternion(Quaternion::new(r(1.0), r(2.0), r(3.0), r(4.0))),
        "quat_identity" => Variant::Quaternion(Quaternion::new(r(0.0), r(0.0), r(0.0), r(1.0))),
        "aabb_1_6" => Variant::Aabb(Box::new(Aabb::new(
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
        ))),
        "aabb_neg_size" => Variant::Aabb(Box::new(Aabb::new(
            vec3(-1.0, -2.0, -3.0),
            vec3(-0.5, 0.25, 8.0),
        ))),
        "basis_1_9" => Variant::Basis(Box::new(Basis::from_axes(
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
            vec3(7.0, 8.0, 9.0),
        ))),
        "basis_identity" => Variant::Basis(Box::new(Basis::from_rows(
            vec3(1.0, 0.0, 0.0),
            vec3(0.0, 1.0, 0.0),
            vec3(0.0, 0.0, 1.0),
        ))),
        "transform_1_12" => Variant::Transform3D(Box::new(Transform3D::new(
            Basis::from_axes(
                vec3(1.0, 2.0, 3.0),
                vec3(4.0, 5.0, 6.0),
                vec3(7.0, 8.0, 9.0),
            ),
            vec3(10.0, 11.0, 12.0),
        ))),
        "transform_identity" => Variant::Transform3D(Box::new(Transform3D::new(
            Basis::from_rows(
                vec3(1.0, 0.0, 0.0),
                vec3(0.0, 1.0, 0.0),
                vec3(0.0, 0.0, 1.0),
            ),
            vec3(0.0, 0.0, 0.0),
        ))),
        "color_red" => c(1.0, 0.0, 0.0, 1.0),
        "color_frac" => c(0.1, 0.2, 0.3, 0.4),
        "color_default_alpha" => c(0.25, 0.5, 0.75, 1.0),
        "color_html" => c(1.0, (128.0_f64 / 255.0) as f32, 0.0, 1.0),
        "nodepath_empty" => np(&[], &[], false),
        "nodepath_root_main_position" => np(&["root", "Main"], &["position"], true),
        "nodepath_a_b" => np(&["a"], &["b"], false),
        "nodepath_only_subnames" => np(&[], &["a", "b"], false),
        "nodepath_one_subname" => np(&[], &["position"], false),
        "nodepath_name_len1" => np(&["a"], &[], false),
        "nodepath_name_len2" => np(&["ab"], &[], false),
        "nodepath_name_len3" => np(&["abc"], &[], false),
        "nodepath_name_len4" => np(&["abcd"], &[], false),
        "nodepath_name_len5" => np(&["abcde"], &[], false),
        "nodepath_abs_len1" => np(&["a"], &[], true),
        "nodepath_relative_3" => np(&["a", "bb", "ccc"], &[], false),
        "nodepath_parent" => np(&["..", "x"], &[], false),
        "nodepath_dot" => np(&["."], &[], false),
        "nodepath_issue_44999" => np(
            &["Path2D", "PathFollow2D", "Sprite"],
            &["position", "x"],
            false,
        ),
        "nodepath_non_ascii" => np(&["héllo", "日本"], &["ü"], false),
        "rid_empty" => Variant::Rid(Rid(0)),
        "object_null" => nil(),
        "object_reference" => obj("Reference", vec![("script", nil())]),
        "object_object" => obj("Object", vec![("script", nil())]),
        "object_resource_named" => obj(
            "Resource",
            vec![
                ("resource_local_to_scene", b(false)),
                ("resource_name", s("res")),
                ("script", nil()),
            ],
        ),
        "object_node2d" => obj(
            "Node2D",
            vec![
                ("_import_path", np(&[], &[], false)),
                ("pause_mode", i(0)),
                ("process_priority", i(0)),
                ("visible", b(true)),
                ("modulate", c(1.0, 1.0, 1.0, 1.0)),
                ("self_modulate", c(1.0, 1.0, 1.0, 1.0)),
                ("show_behind_parent", b(false)),
                ("light_mask", i(1)),
                ("material", nil()),
                ("use_parent_material", b(false)),
                ("position", v2(1.0, 2.0)),
                ("rotation", f(0.5)),
                ("scale", v2(1.0, 1.0)),
                ("z_index", i(3)),
                ("z_as_relative", b(true)),
                ("script", nil()),
            ],
        ),
        "array_with_object" => arr(vec![i(1), obj("Reference", vec![("script", nil())])]),
        "dict_empty" => dict(vec![]),
        "dict_a_1" => dict(vec![(s("a"), i(1))]),
        "dict_insertion_order" => dict(vec![
            (s("zeta"), i(1)),
            (s("alpha"), i(2)),
            (s("mid"), i(3)),
        ]),
        "dict_mixed_keys" => dict(vec![
            (s("b"), i(1)),
            (i(2), s("two")),
            (v2(1.0, 2.0), nil()),
            (b(true), f(1.5)),
            (nil(), s("nil")),
            (f(0.5), arr(vec![i(1)])),
        ]),
        "dict_int64_key" => dict(vec![(i(4294967296_i64), i(-1))]),
        "dict_nested" => dict(vec![
            (
                s("outer"),
                dict(vec![(
                    s("inner"),
                    arr(vec![i(1), dict(vec![(s("x"), i(2))])]),
                )]),
            ),
            (s("empty"), dict(vec![])),
        ]),
        "dict_nodepath" => dict(vec![(np(&["a"], &[], false), np(&["abc"], &["d"], false))]),
        "dict_pool_values" => dict(vec![
            (
                s("b"),
                Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3])),
            ),
            (
                s("s"),
                Variant::PackedStringArray(PackedStringArray(vec!["x".into()])),
            ),
        ]),
        "array_empty" => arr(vec![]),
        "array_1_a" => arr(vec![i(1), s("a")]),
        "array_nested_empty" => arr(vec![arr(vec![arr(vec![])])]),
        "array_nested_mixed" => arr(vec![
            i(1),
            arr(vec![i(2), arr(vec![i(3), arr(vec![])])]),
            dict(vec![(s("k"), arr(vec![i(4)]))]),
        ]),
        "array_scalars" => arr(vec![
            nil(),
            b(true),
            i(2147483648_i64),
            f(1.5),
            f(0.1),
            s("str"),
            v2(1.0, 2.0),
            Variant::Rid(Rid(0)),
        ]),
        "array_nodepaths" => arr(vec![
            s("x"),
            np(&["ab"], &["c"], false),
            arr(vec![np(&["a", "bcd"], &[], true)]),
        ]),
        "array_depth_10" => arr(vec![arr(vec![arr(vec![arr(vec![arr(vec![arr(vec![
            arr(vec![arr(vec![arr(vec![arr(vec![i(1)])])])]),
        ])])])])])]),
        "pool_byte_len0" => Variant::PackedByteArray(PackedByteArray(vec![])),
        "pool_byte_len1" => Variant::PackedByteArray(PackedByteArray(vec![1])),
        "pool_byte_len2" => Variant::PackedByteArray(PackedByteArray(vec![1, 2])),
        "pool_byte_len3" => Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3])),
        "pool_byte_len4" => Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3, 255])),
        "pool_byte_len5" => Variant::PackedByteArray(PackedByteArray(vec![0, 128, 254, 255, 7])),
        "pool_int_len0" => Variant::PackedInt32Array(PackedInt32Array(vec![])),
        "pool_int_len1" => Variant::PackedInt32Array(PackedInt32Array(vec![1])),
        "pool_int_len2" => Variant::PackedInt32Array(PackedInt32Array(vec![1, -2])),
        "pool_int_len3" => Variant::PackedInt32Array(PackedInt32Array(vec![1, -2, 2147483647])),
        "pool_int_len4" => {
            Variant::PackedInt32Array(PackedInt32Array(vec![1, -2, 2147483647, -2147483648]))
        }
        "pool_int_len5" => Variant::PackedInt32Array(PackedInt32Array(vec![0, 1, 2, 3, 65536])),
        "pool_int_truncates_i64" => Variant::PackedInt32Array(PackedInt32Array(vec![1])),
        "pool_real_len0" => Variant::PackedFloat32Array(PackedFloat32Array(vec![])),
        "pool_real_len1" => Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5])),
        "pool_real_len2" => Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5, -1.5])),
        "pool_real_len3" => Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5, -1.5, 0.1])),
        "pool_real_len4" => {
            Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5, -1.5, 0.1, f32::INFINITY]))
        }
        "pool_real_len5" => Variant::PackedFloat32Array(PackedFloat32Array(vec![
            0.5,
            -1.5,
            0.1,
            -0.0,
            (1.0_f64 / 3.0) as f32,
        ])),
        "pool_real_nan" => Variant::PackedFloat32Array(PackedFloat32Array(vec![f32::NAN])),
        "pool_string_len0" => Variant::PackedStringArray(PackedStringArray(vec![])),
        "pool_string_len1" => Variant::PackedStringArray(PackedStringArray(vec!["".into()])),
        "pool_string_len2" => {
            Variant::PackedStringArray(PackedStringArray(vec!["ab".into(), "cde".into()]))
        }
        "pool_string_len3" => {
            Variant::PackedStringArray(PackedStringArray(vec!["".into(), "a".into(), "ab".into()]))
        }
        "pool_string_len4" => Variant::PackedStringArray(PackedStringArray(vec![
            "a".into(),
            "ab".into(),
            "abc".into(),
            "abcd".into(),
        ])),
        "pool_string_len5" => Variant::PackedStringArray(PackedStringArray(vec![
            "".into(),
            "a".into(),
            "ab".into(),
            "abc".into(),
            "abcd".into(),
        ])),
        "pool_string_non_ascii" => Variant::PackedStringArray(PackedStringArray(vec![
            "héllo".into(),
            "日本語".into(),
            "😀".into(),
            "ü".into(),
        ])),
        "pool_vector2_len0" => Variant::PackedVector2Array(PackedVector2Array(vec![])),
        "pool_vector2_len1" => {
            Variant::PackedVector2Array(PackedVector2Array(vec![vec2(1.0, 2.0)]))
        }
        "pool_vector2_len2" => {
            Variant::PackedVector2Array(PackedVector2Array(vec![vec2(1.0, 2.0), vec2(3.0, 4.0)]))
        }
        "pool_vector2_len3" => Variant::PackedVector2Array(PackedVector2Array(vec![
            vec2(1.0, 2.0),
            vec2(3.0, 4.0),
            vec2(5.0, 6.0),
        ])),
        "pool_vector2_len4" => Variant::PackedVector2Array(PackedVector2Array(vec![
            vec2(1.0, 2.0),
            vec2(3.0, 4.0),
            vec2(5.0, 6.0),
            vec2(7.0, 8.0),
        ])),
        "pool_vector2_len5" => Variant::PackedVector2Array(PackedVector2Array(vec![
            vec2(1.0, 2.0),
            vec2(3.0, 4.0),
            vec2(5.0, 6.0),
            vec2(7.0, 8.0),
            vec2(-0.5, 0.1),
        ])),
        "pool_vector3_len0" => Variant::PackedVector3Array(PackedVector3Array(vec![])),
        "pool_vector3_len1" => {
            Variant::PackedVector3Array(PackedVector3Array(vec![vec3(1.0, 2.0, 3.0)]))
        }
        "pool_vector3_len2" => Variant::PackedVector3Array(PackedVector3Array(vec![
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
        ])),
        "pool_vector3_len3" => Variant::PackedVector3Array(PackedVector3Array(vec![
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
            vec3(7.0, 8.0, 9.0),
        ])),
        "pool_vector3_len4" => Variant::PackedVector3Array(PackedVector3Array(vec![
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
            vec3(7.0, 8.0, 9.0),
            vec3(10.0, 11.0, 12.0),
        ])),
        "pool_vector3_len5" => Variant::PackedVector3Array(PackedVector3Array(vec![
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
            vec3(7.0, 8.0, 9.0),
            vec3(10.0, 11.0, 12.0),
            vec3(-0.5, 0.1, 0.25),
        ])),
        "pool_color_len0" => Variant::PackedColorArray(PackedColorArray(vec![])),
        "pool_color_len1" => {
            Variant::PackedColorArray(PackedColorArray(vec![color(1.0, 0.0, 0.0, 1.0)]))
        }
        "pool_color_len2" => Variant::PackedColorArray(PackedColorArray(vec![
            color(1.0, 0.0, 0.0, 1.0),
            color(0.1, 0.2, 0.3, 0.4),
        ])),
        "pool_color_len3" => Variant::PackedColorArray(PackedColorArray(vec![
            color(1.0, 0.0, 0.0, 1.0),
            color(0.1, 0.2, 0.3, 0.4),
            color(0.0, 1.0, 0.0, 0.5),
        ])),
        "pool_color_len4" => Variant::PackedColorArray(PackedColorArray(vec![
            color(1.0, 0.0, 0.0, 1.0),
            color(0.1, 0.2, 0.3, 0.4),
            color(0.0, 1.0, 0.0, 0.5),
            color(0.0, 0.0, 1.0, 0.0),
        ])),
        "pool_color_len5" => Variant::PackedColorArray(PackedColorArray(vec![
            color(1.0, 0.0, 0.0, 1.0),
            color(0.1, 0.2, 0.3, 0.4),
            color(0.0, 1.0, 0.0, 0.5),
            color(0.0, 0.0, 1.0, 0.0),
            color(0.5, 0.25, 0.125, 2.0),
        ])),
        other => panic!("vectors.jsonl record {other} has no expected value"),
    }
}

/// Inputs of `bad_inputs.jsonl` where our verdict deliberately differs from Godot 3.2.3's
/// `bytes2var`, with the reason. Also listed in `docs/conformance.md`.
pub const BAD_INPUT_VERDICT_DIFFERS: &[(&str, &str)] = &[
    (
        "utf8_overlong_3byte",
        "overlong UTF-8: Godot 3 decodes it to `/`; we reject invalid UTF-8 (RFC 3629), as Godot 4 does",
    ),
    (
        "utf8_overlong_4byte",
        "overlong UTF-8: Godot 3 decodes it to `€`; we reject invalid UTF-8, as Godot 4 does",
    ),
    (
        "utf8_overlong_3byte_max",
        "overlong UTF-8: Godot 3 decodes it to U+07FF; we reject invalid UTF-8, as Godot 4 does",
    ),
    (
        "utf8_overlong_4byte_max",
        "overlong UTF-8: Godot 3 decodes it to U+FFFF; we reject invalid UTF-8, as Godot 4 does",
    ),
    (
        "utf8_surrogate_high",
        "encoded UTF-16 surrogate: Godot 3 keeps it, a Rust `String` cannot hold it",
    ),
    (
        "utf8_surrogate_low",
        "encoded UTF-16 surrogate: Godot 3 keeps it, a Rust `String` cannot hold it",
    ),
    (
        "utf8_surrogate_pair_cesu8",
        "CESU-8 surrogate pair: Godot 3 keeps both surrogates, a Rust `String` cannot hold them",
    ),
    (
        "utf8_above_max_4byte",
        "code point above U+10FFFF: Godot 3 keeps it, a Rust `String` cannot hold it",
    ),
    (
        "utf8_5byte_form",
        "5-byte UTF-8 form: Godot 3 keeps the code point, a Rust `String` cannot hold it",
    ),
    (
        "utf8_6byte_form",
        "6-byte UTF-8 form: Godot 3 keeps the code point, a Rust `String` cannot hold it",
    ),
    (
        "nested_arrays_1030",
        "nesting limit: Godot 3.2.3 has none (it crashes near 20000 levels); we stop at the configured limit, here Godot 4's 1024 (default 128)",
    ),
];
