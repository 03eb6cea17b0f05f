//! The marker protocol of every Godot type, pinned at the token level (serde_test), plus how
//! the markers look in a format that knows nothing about them (JSON).
//!
//! Expected component orders come from the wire-format spec §4.6 (e.g. Basis rows, Transform2D
//! columns); expected bytes are the IEEE-754 / two's-complement encodings written out by hand.

use crate::tokens::{ints, marker_map, r, reals, seq, seq_of, tuple_struct, tuple_struct_of};
use godot_serde::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Real, Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i,
    Vector3, Vector3i, Vector4, Vector4i,
};
use serde::{Deserialize, Serialize};
use serde_test::{Configure, Token, assert_de_tokens, assert_de_tokens_error, assert_tokens};
use std::fmt::Debug;

/// Checks a flat marker: serializes as a tuple struct of `fields`, deserializes from that and
/// from the one-entry map with a seq payload.
fn check_flat<T>(value: T, name: &'static str, fields: Vec<Token>)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + Debug + Clone,
{
    assert_tokens(
        &value.clone().compact(),
        &tuple_struct(name, fields.clone()),
    );
    assert_de_tokens(
        &value.clone().compact(),
        &marker_map(name, seq(fields.clone())),
    );
    // Other formats give just the sequence.
    assert_de_tokens(&value.clone().compact(), &seq(fields));
}

#[test]
fn float_math_types_are_tuple_structs_of_reals_in_wire_order() {
    check_flat(
        Vector2::new(1.0, 2.0),
        "$godot_serde::Vector2",
        reals(&[1.0, 2.0]),
    );
    check_flat(
        Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0)),
        "$godot_serde::Rect2",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Vector3::new(1.0, 2.0, 3.0),
        "$godot_serde::Vector3",
        reals(&[1.0, 2.0, 3.0]),
    );
    // Columns: x axis, y axis, origin.
    check_flat(
        Transform2D::new(
            Vector2::new(1.0, 2.0),
            Vector2::new(3.0, 4.0),
            Vector2::new(5.0, 6.0),
        ),
        "$godot_serde::Transform2D",
        reals(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    );
    check_flat(
        Vector4::new(1.0, 2.0, 3.0, 4.0),
        "$godot_serde::Vector4",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Plane::new(Vector3::new(1.0, 2.0, 3.0), 4.0),
        "$godot_serde::Plane",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Quaternion::new(1.0, 2.0, 3.0, 4.0),
        "$godot_serde::Quaternion",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Aabb::new(Vector3::new(1.0, 2.0, 3.0), Vector3::new(4.0, 5.0, 6.0)),
        "$godot_serde::AABB",
        reals(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    );
    // Basis(X, Y, Z) with X = (1,2,3), Y = (4,5,6), Z = (7,8,9) is written row by row:
    // X.x, Y.x, Z.x, X.y, Y.y, Z.y, X.z, Y.z, Z.z.
    let basis = Basis::from_axes(
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(4.0, 5.0, 6.0),
        Vector3::new(7.0, 8.0, 9.0),
    );
    let basis_fields = [1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0];
    check_flat(basis, "$godot_serde::Basis", reals(&basis_fields));
    let mut t3 = basis_fields.to_vec();
    t3.extend([10.0, 11.0, 12.0]);
    check_flat(
        Transform3D::new(basis, Vector3::new(10.0, 11.0, 12.0)),
        "$godot_serde::Transform3D",
        reals(&t3),
    );
    // Column by column.
    let projection = Projection::from_columns(
        Vector4::new(1.0, 2.0, 3.0, 4.0),
        Vector4::new(5.0, 6.0, 7.0, 8.0),
        Vector4::new(9.0, 10.0, 11.0, 12.0),
        Vector4::new(13.0, 14.0, 15.0, 16.0),
    );
    let one_to_sixteen: Vec<f32> = (1..=16u8).map(f32::from).collect();
    check_flat(
        projection,
        "$godot_serde::Projection",
        reals(&one_to_sixteen),
    );
}

#[test]
fn integer_vectors_are_tuple_structs_of_i32() {
    check_flat(
        Vector2i::new(3, -4),
        "$godot_serde::Vector2i",
        ints(&[3, -4]),
    );
    check_flat(
        Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4)),
        "$godot_serde::Rect2i",
        ints(&[1, 2, 3, 4]),
    );
    check_flat(
        Vector3i::new(1, -2, 3),
        "$godot_serde::Vector3i",
        ints(&[1, -2, 3]),
    );
    check_flat(
        Vector4i::new(1, 2, -3, 4),
        "$godot_serde::Vector4i",
        ints(&[1, 2, -3, 4]),
    );
}

#[test]
fn color_is_always_four_f32() {
    let fields = vec![
        Token::F32(0.5),
        Token::F32(0.25),
        Token::F32(1.0),
        Token::F32(0.75),
    ];
    check_flat(
        Color::new(0.5, 0.25, 1.0, 0.75),
        "$godot_serde::Color",
        fields,
    );
}

#[test]
fn float_payloads_may_be_f32_or_f64() {
    // The header's 64-bit flag gives f64 components; single-precision builds narrow them.
    let v = Vector2::new(1.5, -2.0);
    let tokens = marker_map(
        "$godot_serde::Vector2",
        seq(vec![Token::F64(1.5), Token::F64(-2.0)]),
    );
    assert_de_tokens(&v.compact(), &tokens);
    let tokens = marker_map(
        "$godot_serde::Vector2",
        seq(vec![Token::F32(1.5), Token::F32(-2.0)]),
    );
    assert_de_tokens(&v.compact(), &tokens);
}

#[test]
fn marker_map_errors() {
    // Wrong name.
    // (serde_test wants the tokens to stop where the error is found.)
    assert_de_tokens_error::<serde_test::Compact<Vector2>>(
        &[
            Token::Map { len: Some(1) },
            Token::Str("$godot_serde::Vector3"),
        ],
        "invalid value: string \"$godot_serde::Vector3\", expected the marker name \
         $godot_serde::Vector2",
    );
    // Empty map.
    assert_de_tokens_error::<serde_test::Compact<Vector2>>(
        &[Token::Map { len: Some(0) }, Token::MapEnd],
        "invalid length 0, expected a Vector2 (2 numbers)",
    );
    // A second entry.
    let mut tokens = vec![
        Token::Map { len: Some(2) },
        Token::Str("$godot_serde::Vector2"),
    ];
    tokens.extend(seq(reals(&[1.0, 2.0])));
    tokens.push(Token::Str("extra"));
    assert_de_tokens_error::<serde_test::Compact<Vector2>>(
        &tokens,
        "invalid length 2, expected a Vector2 (2 numbers)",
    );
    // Too few components.
    assert_de_tokens_error::<serde_test::Compact<Vector3>>(
        &[Token::Seq { len: Some(2) }, r(1.0), r(2.0), Token::SeqEnd],
        "invalid length 2, expected a Vector3 (3 numbers)",
    );
}

#[test]
fn string_name_is_a_newtype_around_str() {
    let name = StringName::from("pressed");
    assert_tokens(
        &name.clone().compact(),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::StringName",
            },
            Token::Str("pressed"),
        ],
    );
    assert_de_tokens(
        &name.clone().compact(),
        &marker_map("$godot_serde::StringName", vec![Token::Str("pressed")]),
    );
    // A plain string is accepted too.
    assert_de_tokens(&name.clone().compact(), &[Token::Str("pressed")]);
    assert_de_tokens(&name.clone().compact(), &[Token::String("pressed")]);
}

fn main_position() -> NodePath {
    NodePath {
        names: vec!["root".into(), "Main".into()],
        subnames: vec!["position".into()],
        absolute: true,
    }
}

fn node_path_fields() -> Vec<Token> {
    vec![
        Token::Seq { len: Some(2) },
        Token::Str("root"),
        Token::Str("Main"),
        Token::SeqEnd,
        Token::Seq { len: Some(1) },
        Token::Str("position"),
        Token::SeqEnd,
        Token::Bool(true),
    ]
}

#[test]
fn node_path_is_three_fields_in_compact_formats() {
    let path = main_position();
    assert_tokens(
        &path.clone().compact(),
        &tuple_struct_of("$godot_serde::NodePath", 3, node_path_fields()),
    );
    assert_de_tokens(
        &path.clone().compact(),
        &marker_map("$godot_serde::NodePath", seq_of(3, node_path_fields())),
    );
}

#[test]
fn node_path_is_its_text_in_readable_formats() {
    assert_tokens(
        &main_position().readable(),
        &[Token::Str("/root/Main:position")],
    );
}

#[test]
fn rid_and_object_id_are_newtypes_around_u64() {
    assert_tokens(
        &Rid(7).compact(),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::RID",
            },
            Token::U64(7),
        ],
    );
    assert_de_tokens(
        &Rid(7).compact(),
        &marker_map("$godot_serde::RID", vec![Token::U64(7)]),
    );
    assert_tokens(
        &ObjectId(42).compact(),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::ObjectId",
            },
            Token::U64(42),
        ],
    );
    assert_de_tokens(
        &ObjectId(42).compact(),
        &marker_map("$godot_serde::ObjectId", vec![Token::U64(42)]),
    );
    assert_de_tokens(&ObjectId(42).compact(), &[Token::U64(42)]);
}

#[test]
fn callable_is_a_unit_struct() {
    assert_tokens(
        &Callable.compact(),
        &[Token::UnitStruct {
            name: "$godot_serde::Callable",
        }],
    );
    assert_de_tokens(
        &Callable.compact(),
        &marker_map("$godot_serde::Callable", vec![Token::Unit]),
    );
}

#[test]
fn signal_is_name_and_object_id() {
    let signal = Signal::new("pressed", ObjectId(5));
    let fields = vec![Token::Str("pressed"), Token::U64(5)];
    assert_tokens(
        &signal.clone().compact(),
        &tuple_struct("$godot_serde::Signal", fields.clone()),
    );
    assert_de_tokens(
        &signal.clone().compact(),
        &marker_map("$godot_serde::Signal", seq(fields)),
    );
}

#[test]
fn packed_byte_and_string_arrays_are_newtypes() {
    let bytes = PackedByteArray(vec![1, 2, 255]);
    let tokens = [
        Token::NewtypeStruct {
            name: "$godot_serde::PackedByteArray",
        },
        Token::Bytes(&[1, 2, 255]),
    ];
    assert_tokens(&bytes.clone().compact(), &tokens);
    assert_de_tokens(
        &bytes.clone().compact(),
        &marker_map(
            "$godot_serde::PackedByteArray",
            vec![Token::Bytes(&[1, 2, 255])],
        ),
    );

    let strings: PackedStringArray = ["a".to_owned(), "bc".to_owned()].into_iter().collect();
    let items = vec![Token::Str("a"), Token::Str("bc")];
    let mut tokens = vec![Token::NewtypeStruct {
        name: "$godot_serde::PackedStringArray",
    }];
    tokens.extend(seq(items.clone()));
    assert_tokens(&strings.clone().compact(), &tokens);
    assert_de_tokens(
        &strings.clone().compact(),
        &marker_map("$godot_serde::PackedStringArray", seq(items)),
    );
}

/// Checks a numeric packed array: compact = newtype marker around `bytes`, readable = `items`.
/// `items` are the tokens of the `len` elements.
fn check_packed<T>(
    value: T,
    name: &'static str,
    bytes: &'static [u8],
    len: usize,
    items: Vec<Token>,
) where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + Debug + Clone,
{
    assert_tokens(
        &value.clone().compact(),
        &[Token::NewtypeStruct { name }, Token::Bytes(bytes)],
    );
    assert_de_tokens(
        &value.clone().compact(),
        &marker_map(name, vec![Token::Bytes(bytes)]),
    );
    assert_tokens(&value.readable(), &seq_of(len, items));
}

#[test]
fn packed_scalar_arrays_are_little_endian_bytes_or_a_seq() {
    // 1 = 01 00 00 00; -2 = fe ff ff ff (two's complement).
    check_packed(
        PackedInt32Array(vec![1, -2]),
        "$godot_serde::PackedInt32Array",
        &[1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff],
        2,
        vec![Token::I32(1), Token::I32(-2)],
    );
    check_packed(
        PackedInt64Array(vec![-1]),
        "$godot_serde::PackedInt64Array",
        &[0xff; 8],
        1,
        vec![Token::I64(-1)],
    );
    // 0.5f32 = 0x3f000000, 1.0f32 = 0x3f800000.
    check_packed(
        PackedFloat32Array(vec![0.5, 1.0]),
        "$godot_serde::PackedFloat32Array",
        &[0, 0, 0, 0x3f, 0, 0, 0x80, 0x3f],
        2,
        vec![Token::F32(0.5), Token::F32(1.0)],
    );
    // 0.5f64 = 0x3fe0000000000000.
    check_packed(
        PackedFloat64Array(vec![0.5]),
        "$godot_serde::PackedFloat64Array",
        &[0, 0, 0, 0, 0, 0, 0xe0, 0x3f],
        1,
        vec![Token::F64(0.5)],
    );
    // Color is f32 in every build: (0.5, 1, 0, 1).
    check_packed(
        PackedColorArray(vec![Color::new(0.5, 1.0, 0.0, 1.0)]),
        "$godot_serde::PackedColorArray",
        &[
            0, 0, 0, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0x80, 0x3f,
        ],
        1,
        tuple_struct(
            "$godot_serde::Color",
            vec![
                Token::F32(0.5),
                Token::F32(1.0),
                Token::F32(0.0),
                Token::F32(1.0),
            ],
        ),
    );
}

/// f32 0.5, 1.0, -2.0 (0xc0000000) and 0.0, little-endian.
const F32_HALF: [u8; 4] = [0, 0, 0, 0x3f];
const F32_ONE: [u8; 4] = [0, 0, 0x80, 0x3f];
const F32_MINUS_TWO: [u8; 4] = [0, 0, 0, 0xc0];
const F32_ZERO: [u8; 4] = [0; 4];
/// f64 0.5 (0x3fe0...), 1.0 (0x3ff0...), -2.0 (0xc000...) and 0.0, little-endian.
const F64_HALF: [u8; 8] = [0, 0, 0, 0, 0, 0, 0xe0, 0x3f];
const F64_ONE: [u8; 8] = [0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
const F64_MINUS_TWO: [u8; 8] = [0, 0, 0, 0, 0, 0, 0, 0xc0];
const F64_ZERO: [u8; 8] = [0; 8];

fn concat(parts: &[&[u8]]) -> &'static [u8] {
    Box::leak(parts.concat().into_boxed_slice())
}

#[test]
fn packed_vector_arrays_use_the_builds_real_width() {
    let v2 = PackedVector2Array(vec![Vector2::new(0.5, 1.0)]);
    let v3 = PackedVector3Array(vec![Vector3::new(0.5, 1.0, -2.0)]);
    let v4 = PackedVector4Array(vec![Vector4::new(0.5, 1.0, -2.0, 0.0)]);
    let v2_items = tuple_struct("$godot_serde::Vector2", reals(&[0.5, 1.0]));
    let v3_items = tuple_struct("$godot_serde::Vector3", reals(&[0.5, 1.0, -2.0]));
    let v4_items = tuple_struct("$godot_serde::Vector4", reals(&[0.5, 1.0, -2.0, 0.0]));
    #[cfg(not(feature = "double-precision"))]
    {
        check_packed(
            v2,
            "$godot_serde::PackedVector2Array",
            concat(&[&F32_HALF, &F32_ONE]),
            1,
            v2_items,
        );
        check_packed(
            v3,
            "$godot_serde::PackedVector3Array",
            concat(&[&F32_HALF, &F32_ONE, &F32_MINUS_TWO]),
            1,
            v3_items,
        );
        check_packed(
            v4,
            "$godot_serde::PackedVector4Array",
            concat(&[&F32_HALF, &F32_ONE, &F32_MINUS_TWO, &F32_ZERO]),
            1,
            v4_items,
        );
    }
    #[cfg(feature = "double-precision")]
    {
        check_packed(
            v2,
            "$godot_serde::PackedVector2Array64",
            concat(&[&F64_HALF, &F64_ONE]),
            1,
            v2_items,
        );
        check_packed(
            v3,
            "$godot_serde::PackedVector3Array64",
            concat(&[&F64_HALF, &F64_ONE, &F64_MINUS_TWO]),
            1,
            v3_items,
        );
        check_packed(
            v4,
            "$godot_serde::PackedVector4Array64",
            concat(&[&F64_HALF, &F64_ONE, &F64_MINUS_TWO, &F64_ZERO]),
            1,
            v4_items,
        );
    }
}

#[test]
fn packed_vector_arrays_accept_both_widths() {
    let v2 = PackedVector2Array(vec![Vector2::new(0.5, 1.0), Vector2::new(-2.0, 0.0)]);
    let narrow = concat(&[&F32_HALF, &F32_ONE, &F32_MINUS_TWO, &F32_ZERO]);
    let wide = concat(&[&F64_HALF, &F64_ONE, &F64_MINUS_TWO, &F64_ZERO]);
    assert_de_tokens(
        &v2.clone().compact(),
        &marker_map(
            "$godot_serde::PackedVector2Array",
            vec![Token::Bytes(narrow)],
        ),
    );
    assert_de_tokens(
        &v2.clone().compact(),
        &marker_map(
            "$godot_serde::PackedVector2Array64",
            vec![Token::Bytes(wide)],
        ),
    );
    let v3 = PackedVector3Array(vec![Vector3::new(0.5, 1.0, -2.0)]);
    assert_de_tokens(
        &v3.clone().compact(),
        &marker_map(
            "$godot_serde::PackedVector3Array64",
            vec![Token::Bytes(concat(&[&F64_HALF, &F64_ONE, &F64_MINUS_TWO]))],
        ),
    );
    let v4 = PackedVector4Array(vec![Vector4::new(0.5, 1.0, -2.0, 0.0)]);
    assert_de_tokens(
        &v4.clone().compact(),
        &marker_map(
            "$godot_serde::PackedVector4Array",
            vec![Token::Bytes(concat(&[
                &F32_HALF,
                &F32_ONE,
                &F32_MINUS_TWO,
                &F32_ZERO,
            ]))],
        ),
    );
}

#[test]
fn packed_bytes_of_a_ragged_length_are_rejected() {
    // A Vector2 of f32 is 8 bytes; 7 is not a multiple.
    assert_de_tokens_error::<serde_test::Compact<PackedVector2Array>>(
        &marker_map(
            "$godot_serde::PackedVector2Array",
            vec![Token::Bytes(&[0; 7])],
        ),
        "PackedVector2Array bytes: length 7 is not a multiple of the element size 8",
    );
    // The 64 name means 16-byte elements.
    assert_de_tokens_error::<serde_test::Compact<PackedVector2Array>>(
        &marker_map(
            "$godot_serde::PackedVector2Array64",
            vec![Token::Bytes(&[0; 8])],
        ),
        "PackedVector2Array bytes: length 8 is not a multiple of the element size 16",
    );
    assert_de_tokens_error::<serde_test::Compact<PackedInt64Array>>(
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::PackedInt64Array",
            },
            Token::Bytes(&[0; 12]),
        ],
        "PackedInt64Array bytes: length 12 is not a multiple of the element size 8",
    );
    // Only vector arrays have a 64 name.
    assert_de_tokens_error::<serde_test::Compact<PackedColorArray>>(
        &[
            Token::Map { len: Some(1) },
            Token::Str("$godot_serde::PackedColorArray64"),
        ],
        "invalid value: string \"$godot_serde::PackedColorArray64\", expected the marker \
         name $godot_serde::PackedColorArray",
    );
}

// ---------------------------------------------------------------------------------------------
// JSON: markers look like plain data.

#[test]
fn markers_in_json() {
    let json = |v: &dyn erased::Ser| v.json();
    assert_eq!(json(&Vector2::new(1.0, 2.0)), "[1.0,2.0]");
    assert_eq!(json(&Vector2i::new(1, -2)), "[1,-2]");
    assert_eq!(
        json(&Color::new(0.5, 0.25, 1.0, 0.75)),
        "[0.5,0.25,1.0,0.75]"
    );
    assert_eq!(json(&main_position()), "\"/root/Main:position\"");
    assert_eq!(json(&StringName::from("hi")), "\"hi\"");
    assert_eq!(json(&Rid(3)), "3");
    assert_eq!(json(&Callable), "null");
    assert_eq!(
        json(&Signal::new("pressed", ObjectId(5))),
        "[\"pressed\",5]"
    );
    assert_eq!(json(&PackedFloat32Array(vec![0.5, 1.0])), "[0.5,1.0]");
    assert_eq!(json(&PackedInt32Array(vec![1, -2])), "[1,-2]");
    assert_eq!(json(&PackedByteArray(vec![1, 2])), "[1,2]");
    assert_eq!(json(&PackedStringArray(vec!["a".into()])), "[\"a\"]");
    assert_eq!(
        json(&PackedVector2Array(vec![Vector2::new(0.5, 1.0)])),
        "[[0.5,1.0]]"
    );
}

mod erased {
    /// Object-safe JSON encoding, so one helper takes every marker type.
    pub trait Ser {
        fn json(&self) -> String;
    }

    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

fn from_json<T: for<'de> Deserialize<'de>>(s: &str) -> T {
    serde_json::from_str(s).unwrap()
}

#[test]
fn markers_from_json() {
    assert_eq!(from_json::<Vector2>("[1, 2.5]"), Vector2::new(1.0, 2.5));
    assert_eq!(
        from_json::<NodePath>(r#""/root/Main:position""#),
        main_position()
    );
    assert_eq!(from_json::<StringName>(r#""x""#), StringName::from("x"));
    assert_eq!(
        from_json::<PackedFloat32Array>("[0.5, 1]"),
        PackedFloat32Array(vec![0.5, 1.0])
    );
    assert_eq!(
        from_json::<PackedByteArray>("[1, 2]"),
        PackedByteArray(vec![1, 2])
    );
    assert_eq!(
        from_json::<PackedVector3Array>("[[1, 2, 3]]"),
        PackedVector3Array(vec![Vector3::new(1.0, 2.0, 3.0)])
    );
    assert_eq!(
        from_json::<Signal>(r#"["pressed", 5]"#),
        Signal::new("pressed", ObjectId(5))
    );
    assert_eq!(from_json::<Callable>("null"), Callable);
    let t: Transform3D = from_json(&serde_json::to_string(&Transform3D::IDENTITY).unwrap());
    assert_eq!(t, Transform3D::IDENTITY);
    assert!(serde_json::from_str::<Vector3>("[1, 2]").is_err());
}

// ---------------------------------------------------------------------------------------------
// NodePath text form.

fn path(names: &[&str], subnames: &[&str], absolute: bool) -> NodePath {
    NodePath {
        names: names.iter().map(|s| s.to_string()).collect(),
        subnames: subnames.iter().map(|s| s.to_string()).collect(),
        absolute,
    }
}

#[test]
fn node_path_parses_godots_text_form() {
    let cases: &[(&str, NodePath)] = &[
        (
            "/root/Main:position",
            path(&["root", "Main"], &["position"], true),
        ),
        ("a/b", path(&["a", "b"], &[], false)),
        (":a:b", path(&[], &["a", "b"], false)),
        ("", NodePath::default()),
        ("/", path(&[], &[], true)),
        (
            "Sprite:texture:size",
            path(&["Sprite"], &["texture", "size"], false),
        ),
        ("../Sibling", path(&["..", "Sibling"], &[], false)),
        (".", path(&["."], &[], false)),
        ("/:a", path(&[], &["a"], true)),
    ];
    for (text, expected) in cases {
        let parsed: NodePath = text.parse().unwrap();
        assert_eq!(&parsed, expected, "{text:?}");
        assert_eq!(NodePath::from(*text), parsed, "{text:?}");
        // Godot prints these back unchanged.
        assert_eq!(parsed.to_string(), *text, "{text:?}");
    }
}

#[test]
fn node_path_drops_empty_segments() {
    // Godot: "a//b" has names a, b; a trailing ':' adds no subname; so does a leading '/'
    // repeated.
    assert_eq!(NodePath::from("a//b/"), path(&["a", "b"], &[], false));
    assert_eq!(NodePath::from("a:"), path(&["a"], &[], false));
    assert_eq!(NodePath::from("//a"), path(&["a"], &[], true));
    assert_eq!(NodePath::from("a::b"), path(&["a"], &["b"], false));
    assert_eq!(NodePath::from("a//b/").to_string(), "a/b");
    assert!(NodePath::from("").is_empty());
    assert!(!NodePath::from("/").is_empty());
}

#[test]
fn node_path_display_then_parse_round_trips() {
    for p in [
        path(&["root", "Main", "Player"], &["position", "x"], true),
        path(&["a"], &[], false),
        path(&[], &["modulate"], false),
        path(&[], &[], true),
        NodePath::default(),
    ] {
        assert_eq!(NodePath::from(p.to_string().as_str()), p, "{p}");
    }
}

// ---------------------------------------------------------------------------------------------
// Conveniences.

#[test]
fn constants_match_godot() {
    assert_eq!(Vector2::ZERO, Vector2::new(0.0, 0.0));
    assert_eq!(Vector3::ONE, Vector3::new(1.0, 1.0, 1.0));
    assert_eq!(Vector4i::ONE, Vector4i::new(1, 1, 1, 1));
    assert_eq!(Quaternion::IDENTITY, Quaternion::new(0.0, 0.0, 0.0, 1.0));
    assert_eq!(Color::WHITE, Color::new(1.0, 1.0, 1.0, 1.0));
    assert_eq!(Color::BLACK, Color::rgb(0.0, 0.0, 0.0));
    assert_eq!(
        Transform2D::IDENTITY,
        Transform2D::new(
            Vector2::new(1.0, 0.0),
            Vector2::new(0.0, 1.0),
            Vector2::ZERO
        )
    );
    // The identity's axes are the unit vectors, and it is symmetric.
    let i = Basis::from_axes(
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.0, 0.0, 1.0),
    );
    assert_eq!(Basis::IDENTITY, i);
    assert_eq!(Transform3D::IDENTITY.basis, i);
    assert_eq!(
        Projection::IDENTITY.columns[2],
        Vector4::new(0.0, 0.0, 1.0, 0.0)
    );
}

#[test]
fn basis_from_axes_puts_axes_in_columns() {
    let b = Basis::from_axes(
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(4.0, 5.0, 6.0),
        Vector3::new(7.0, 8.0, 9.0),
    );
    // rows[i] = (X[i], Y[i], Z[i]).
    assert_eq!(b.rows[0], Vector3::new(1.0, 4.0, 7.0));
    assert_eq!(b.rows[1], Vector3::new(2.0, 5.0, 8.0));
    assert_eq!(b.rows[2], Vector3::new(3.0, 6.0, 9.0));
}

#[test]
fn vector_conversions() {
    let a: [Real; 3] = [1.0, 2.0, 3.0];
    assert_eq!(Vector3::from(a), Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(Vector2::from((1.0, 2.0)), Vector2::new(1.0, 2.0));
    assert_eq!(Vector2i::from([1, 2]), Vector2i::new(1, 2));
    assert_eq!(<[i32; 4]>::from(Vector4i::new(1, 2, 3, 4)), [1, 2, 3, 4]);
    assert_eq!(ObjectId::from(9), ObjectId(9));
    assert_eq!(Rid::from(9), Rid(9));
}

#[test]
fn packed_arrays_behave_like_vecs() {
    let mut a: PackedInt32Array = (1..=3).collect();
    a.push(4);
    assert_eq!(a.len(), 4);
    assert_eq!(&a[..], &[1, 2, 3, 4]);
    let doubled: Vec<i32> = a.iter().map(|x| x * 2).collect();
    assert_eq!(doubled, [2, 4, 6, 8]);
    let owned: Vec<i32> = a.clone().into_iter().collect();
    assert_eq!(owned, [1, 2, 3, 4]);
    assert_eq!(PackedInt32Array::from(vec![1, 2, 3, 4]), a);
    let mut sum = 0;
    for x in &a {
        sum += x;
    }
    assert_eq!(sum, 10);
}

#[test]
fn string_name_conveniences() {
    let s = StringName::from(String::from("ready"));
    assert_eq!(&*s, "ready");
    assert_eq!(s.len(), 5);
    assert_eq!(s.to_string(), "ready");
}

/// A hand-made marker tuple struct with `fields` of a Signal's fields (name, object id, then
/// another id): the encoder accepts exactly the marker's 2 fields.
struct SignalFields(usize);

impl Serialize for SignalFields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTupleStruct;
        let mut t = s.serialize_tuple_struct("$godot_serde::Signal", self.0)?;
        if self.0 > 0 {
            t.serialize_field("go")?;
        }
        for _ in 1..self.0 {
            t.serialize_field(&7u64)?;
        }
        t.end()
    }
}

#[test]
fn a_marker_with_the_wrong_number_of_fields_is_refused() {
    // Two fields: SIGNAL (4.x id 26) header 1a000000, the name as a String (len 2, "go",
    // padded to 4), the object id as a u64.
    assert_eq!(
        godot_serde::to_bytes(&SignalFields(2)).unwrap(),
        [
            0x1a, 0, 0, 0, 2, 0, 0, 0, b'g', b'o', 0, 0, 7, 0, 0, 0, 0, 0, 0, 0
        ]
    );
    for n in [0, 1, 3] {
        let err = godot_serde::to_bytes(&SignalFields(n)).unwrap_err();
        assert!(
            err.to_string().contains("Signal has 2 marker fields"),
            "{n} fields: {err}"
        );
    }
}

/// A marker tuple struct whose one field is `field`: a payload the marker's component kind
/// must refuse.
struct BadField<F>(&'static str, F);

impl<F: Serialize> Serialize for BadField<F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTupleStruct;
        let mut t = s.serialize_tuple_struct(self.0, 2)?;
        t.serialize_field(&self.1)?;
        t.end()
    }
}

#[test]
fn component_fields_refuse_other_kinds() {
    // Each math type's component kind (spec §4.6: float types real_t, integer vectors i32,
    // Color f32) names what it expected.
    let cases: [(String, &str); 4] = [
        (
            godot_serde::to_bytes(&BadField("$godot_serde::Vector2", "x"))
                .unwrap_err()
                .to_string(),
            "invalid marker field: a string, expected a float component",
        ),
        (
            godot_serde::to_bytes(&BadField("$godot_serde::Vector2i", 1.5f32))
                .unwrap_err()
                .to_string(),
            "invalid marker field: a value outside i32, expected an i32 component",
        ),
        (
            godot_serde::to_bytes(&BadField("$godot_serde::Vector2i", 1i64 << 40))
                .unwrap_err()
                .to_string(),
            "invalid marker field: a value outside i32, expected an i32 component",
        ),
        (
            godot_serde::to_bytes(&BadField("$godot_serde::Color", "red"))
                .unwrap_err()
                .to_string(),
            "invalid marker field: a string, expected an f32 component",
        ),
    ];
    for (got, want) in cases {
        assert!(got.contains(want), "{got:?} does not contain {want:?}");
    }
}
