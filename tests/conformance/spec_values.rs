//! The expected values of the spec examples that Godot 3 and Godot 4 share (same name, same
//! value), hand derived from the spec's expressions; `tests/suite/godot3_fixtures.rs` and
//! `tests/suite/godot4_fixtures.rs` add the examples of their own version.

use super::*;
use godot_serde::{
    Basis, ObjectId, PackedByteArray, PackedColorArray, PackedFloat32Array, PackedInt32Array,
    PackedStringArray, PackedVector2Array, Transform2D, Variant,
};

/// The value of a spec example both versions have, `None` for any other name.
pub fn shared_spec_value(name: &str) -> Option<Variant> {
    Some(match name {
        "value_null" | "value_a_null_object" => nil(),
        "value_true" => b(true),
        "value_false" => b(false),
        "value_1" => i(1),
        "value_neg_1" => i(-1),
        "value_2147483647" => i(2_147_483_647),
        "value_2147483648" => i(2_147_483_648),
        "value_neg_2147483649" => i(-2_147_483_649),
        "value_1_shl_40" => i(1 << 40),
        "value_1_5" => f(1.5),
        "value_0_1" => f(0.1),
        "value_neg_0_0" => f(-0.0),
        "value_inf" => f(f64::INFINITY),
        "value_nan" => fbits(0x7FF8_0000_0000_0000),
        "value_empty_string" => s(""),
        "value_hi" => s("hi"),
        "value_godot" => s("Godot"),
        "value_hello" => s("héllo"),
        "value_vector2_1_2" => v2(1.0, 2.0),
        "value_vector3_1_2_3" => v3(1.0, 2.0, 3.0),
        "value_color_1_0_0_1" => c(1.0, 0.0, 0.0, 1.0),
        "value_transform2d_identity" => Variant::Transform2D(Box::new(Transform2D::new(
            vec2(1.0, 0.0),
            vec2(0.0, 1.0),
            vec2(0.0, 0.0),
        ))),
        "value_basis_identity" => Variant::Basis(Box::new(Basis::from_rows(
            vec3(1.0, 0.0, 0.0),
            vec3(0.0, 1.0, 0.0),
            vec3(0.0, 0.0, 1.0),
        ))),
        "value_nodepath_root_main_position" => np(&["root", "Main"], &["position"], true),
        "value_nodepath_a_b" => np(&["a"], &["b"], false),
        "value_nodepath" => np(&[], &[], false),
        "value_1_a" => arr(vec![i(1), s("a")]),
        "value_a_1" => dict(vec![(s("a"), i(1))]),
        "value_packedbytearray_1_2_3" => Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3])),
        "value_packedint32array_1_2" => Variant::PackedInt32Array(PackedInt32Array(vec![1, 2])),
        "value_packedfloat32array_0_5" => {
            Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5]))
        }
        "value_packedstringarray_ab_cde" => {
            Variant::PackedStringArray(PackedStringArray(vec!["ab".into(), "cde".into()]))
        }
        "value_packedvector2array_vector2_1_2" => {
            Variant::PackedVector2Array(PackedVector2Array(vec![vec2(1.0, 2.0)]))
        }
        "value_packedcolorarray_color_1_0_0_1" => {
            Variant::PackedColorArray(PackedColorArray(vec![color(1.0, 0.0, 0.0, 1.0)]))
        }
        "value_an_object_with_instance_id_0x1234_not_full" => Variant::ObjectId(ObjectId(0x1234)),
        _ => return None,
    })
}
