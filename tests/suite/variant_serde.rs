//! `Variant` (and `Array`, `Dictionary`, `Object`, `ContainerType`) through serde: what each
//! variant serializes as, and that the one-entry marker maps our deserializer presents come
//! back as the same variant.

use crate::tokens::{marker_map, reals, seq_of, tuple_struct_of};
use godot_serde::{
    Aabb, Array, Basis, Callable, Color, ContainerType, Dictionary, NodePath, Object, ObjectId,
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid, Signal, StringName,
    Transform2D, Transform3D, Variant, VariantType, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use serde_test::{
    Configure, Token, assert_de_tokens, assert_de_tokens_error, assert_ser_tokens, assert_tokens,
};

/// Serializes as `ser`, and comes back from `de` (the marker map).
fn check(v: Variant, ser: &[Token], de: &[Token]) {
    assert_ser_tokens(&v.clone().compact(), ser);
    assert_de_tokens(&v.clone().compact(), de);
}

/// A flat marker: tuple struct of `n` fields; payload a seq of them.
fn check_flat(v: Variant, name: &'static str, fields: Vec<Token>) {
    let n = fields.len();
    check(
        v,
        &tuple_struct_of(name, n, fields.clone()),
        &marker_map(name, seq_of(n, fields)),
    );
}

#[test]
fn plain_values() {
    assert_tokens(&Variant::Nil, &[Token::Unit]);
    assert_tokens(&Variant::Bool(true), &[Token::Bool(true)]);
    assert_tokens(&Variant::Int(-5), &[Token::I64(-5)]);
    assert_tokens(&Variant::Float(0.1), &[Token::F64(0.1)]);
    assert_tokens(&Variant::String("hé".into()), &[Token::Str("hé")]);
    // Other serde shapes map onto the nearest Godot type.
    assert_de_tokens(&Variant::Nil, &[Token::None]);
    assert_de_tokens(&Variant::Int(3), &[Token::Some, Token::U8(3)]);
    assert_de_tokens(&Variant::Int(-3), &[Token::I8(-3)]);
    assert_de_tokens(&Variant::Int(i64::MAX), &[Token::U64(i64::MAX as u64)]);
    assert_de_tokens(&Variant::Float(1.5), &[Token::F32(1.5)]);
    assert_de_tokens(&Variant::String("x".into()), &[Token::String("x")]);
    assert_de_tokens(
        &Variant::Int(7),
        &[Token::NewtypeStruct { name: "Wrapper" }, Token::I32(7)],
    );
    assert_de_tokens(
        &Variant::PackedByteArray(PackedByteArray(vec![1, 2])),
        &[Token::Bytes(&[1, 2])],
    );
}

#[test]
fn integers_beyond_i64_are_rejected() {
    // 2^63 = 9223372036854775808 is one more than i64::MAX.
    assert_de_tokens_error::<serde_test::Compact<Variant>>(
        &[Token::U64(1 << 63)],
        "integer 9223372036854775808 out of range for Godot's 64-bit int",
    );
}

#[test]
fn math_variants() {
    check_flat(
        Variant::Vector2(Vector2::new(1.0, 2.0)),
        "$godot_serde::Vector2",
        reals(&[1.0, 2.0]),
    );
    check_flat(
        Variant::Vector2i(Vector2i::new(1, -2)),
        "$godot_serde::Vector2i",
        vec![Token::I32(1), Token::I32(-2)],
    );
    check_flat(
        Variant::Rect2(Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0))),
        "$godot_serde::Rect2",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Variant::Rect2i(Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4))),
        "$godot_serde::Rect2i",
        [1, 2, 3, 4].map(Token::I32).to_vec(),
    );
    check_flat(
        Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
        "$godot_serde::Vector3",
        reals(&[1.0, 2.0, 3.0]),
    );
    check_flat(
        Variant::Vector3i(Vector3i::new(1, 2, 3)),
        "$godot_serde::Vector3i",
        [1, 2, 3].map(Token::I32).to_vec(),
    );
    check_flat(
        Variant::Transform2D(Box::new(Transform2D::IDENTITY)),
        "$godot_serde::Transform2D",
        reals(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
    );
    check_flat(
        Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
        "$godot_serde::Vector4",
        reals(&[1.0, 2.0, 3.0, 4.0]),
    );
    check_flat(
        Variant::Vector4i(Vector4i::new(1, 2, 3, 4)),
        "$godot_serde::Vector4i",
        [1, 2, 3, 4].map(Token::I32).to_vec(),
    );
    check_flat(
        Variant::Plane(Plane::new(Vector3::new(0.0, 1.0, 0.0), 5.0)),
        "$godot_serde::Plane",
        reals(&[0.0, 1.0, 0.0, 5.0]),
    );
    check_flat(
        Variant::Quaternion(Quaternion::IDENTITY),
        "$godot_serde::Quaternion",
        reals(&[0.0, 0.0, 0.0, 1.0]),
    );
    check_flat(
        Variant::Aabb(Box::new(Aabb::new(Vector3::ZERO, Vector3::ONE))),
        "$godot_serde::AABB",
        reals(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]),
    );
    // Axes X = (1,2,3), Y = (0,1,0), Z = (0,0,1): rows (1,0,0), (2,1,0), (3,0,1).
    let basis = Basis::from_axes(
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.0, 0.0, 1.0),
    );
    let basis_rows = [1.0, 0.0, 0.0, 2.0, 1.0, 0.0, 3.0, 0.0, 1.0];
    check_flat(
        Variant::Basis(Box::new(basis)),
        "$godot_serde::Basis",
        reals(&basis_rows),
    );
    let mut t3 = basis_rows.to_vec();
    t3.extend([7.0, 8.0, 9.0]);
    check_flat(
        Variant::Transform3D(Box::new(Transform3D::new(
            basis,
            Vector3::new(7.0, 8.0, 9.0),
        ))),
        "$godot_serde::Transform3D",
        reals(&t3),
    );
    let mut identity16 = vec![0.0; 16];
    for i in [0, 5, 10, 15] {
        identity16[i] = 1.0;
    }
    check_flat(
        Variant::Projection(Box::new(Projection::IDENTITY)),
        "$godot_serde::Projection",
        reals(&identity16),
    );
    check_flat(
        Variant::Color(Color::new(0.5, 0.25, 1.0, 0.75)),
        "$godot_serde::Color",
        [0.5, 0.25, 1.0, 0.75].map(Token::F32).to_vec(),
    );
}

#[test]
fn float_math_payloads_in_f64() {
    // The 64-bit flag: f64 payload components.
    assert_de_tokens(
        &Variant::Vector3(Vector3::new(0.5, -1.0, 2.0)),
        &marker_map(
            "$godot_serde::Vector3",
            seq_of(3, vec![Token::F64(0.5), Token::F64(-1.0), Token::F64(2.0)]),
        ),
    );
}

#[test]
fn string_and_handle_variants() {
    check(
        Variant::StringName(StringName::from("ready")),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::StringName",
            },
            Token::Str("ready"),
        ],
        &marker_map("$godot_serde::StringName", vec![Token::Str("ready")]),
    );
    let path_fields = vec![
        Token::Seq { len: Some(1) },
        Token::Str("a"),
        Token::SeqEnd,
        Token::Seq { len: Some(1) },
        Token::Str("b"),
        Token::SeqEnd,
        Token::Bool(false),
    ];
    check(
        Variant::NodePath(Box::new(NodePath::from("a:b"))),
        &tuple_struct_of("$godot_serde::NodePath", 3, path_fields.clone()),
        &marker_map("$godot_serde::NodePath", seq_of(3, path_fields)),
    );
    // Human-readable formats get the text.
    assert_ser_tokens(
        &Variant::NodePath(Box::new(NodePath::from("a:b"))).readable(),
        &[Token::Str("a:b")],
    );
    check(
        Variant::Rid(Rid(9)),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::RID",
            },
            Token::U64(9),
        ],
        &marker_map("$godot_serde::RID", vec![Token::U64(9)]),
    );
    check(
        Variant::ObjectId(ObjectId(77)),
        &[
            Token::NewtypeStruct {
                name: "$godot_serde::ObjectId",
            },
            Token::U64(77),
        ],
        &marker_map("$godot_serde::ObjectId", vec![Token::U64(77)]),
    );
    check(
        Variant::Callable(Callable),
        &[Token::UnitStruct {
            name: "$godot_serde::Callable",
        }],
        &marker_map("$godot_serde::Callable", vec![Token::Unit]),
    );
    let signal_fields = vec![Token::Str("hit"), Token::U64(3)];
    check(
        Variant::Signal(Box::new(Signal::new("hit", ObjectId(3)))),
        &tuple_struct_of("$godot_serde::Signal", 2, signal_fields.clone()),
        &marker_map("$godot_serde::Signal", seq_of(2, signal_fields)),
    );
}

/// A packed array: `{name: bytes}` both ways.
fn check_packed(v: Variant, name: &'static str, bytes: &'static [u8]) {
    check(
        v,
        &[Token::NewtypeStruct { name }, Token::Bytes(bytes)],
        &marker_map(name, vec![Token::Bytes(bytes)]),
    );
}

#[test]
fn packed_variants() {
    check_packed(
        Variant::PackedByteArray(PackedByteArray(vec![7, 8])),
        "$godot_serde::PackedByteArray",
        &[7, 8],
    );
    // 258 = 0x0102.
    check_packed(
        Variant::PackedInt32Array(PackedInt32Array(vec![258])),
        "$godot_serde::PackedInt32Array",
        &[2, 1, 0, 0],
    );
    check_packed(
        Variant::PackedInt64Array(PackedInt64Array(vec![258])),
        "$godot_serde::PackedInt64Array",
        &[2, 1, 0, 0, 0, 0, 0, 0],
    );
    // 2.0f32 = 0x40000000; 2.0f64 = 0x4000000000000000.
    check_packed(
        Variant::PackedFloat32Array(PackedFloat32Array(vec![2.0])),
        "$godot_serde::PackedFloat32Array",
        &[0, 0, 0, 0x40],
    );
    check_packed(
        Variant::PackedFloat64Array(PackedFloat64Array(vec![2.0])),
        "$godot_serde::PackedFloat64Array",
        &[0, 0, 0, 0, 0, 0, 0, 0x40],
    );
    check_packed(
        Variant::PackedColorArray(PackedColorArray(vec![Color::new(2.0, 0.0, 0.0, 2.0)])),
        "$godot_serde::PackedColorArray",
        &[0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40],
    );
    let strings = vec![Token::Str("x")];
    let mut ser = vec![Token::NewtypeStruct {
        name: "$godot_serde::PackedStringArray",
    }];
    ser.extend(seq_of(1, strings.clone()));
    check(
        Variant::PackedStringArray(PackedStringArray(vec!["x".into()])),
        &ser,
        &marker_map("$godot_serde::PackedStringArray", seq_of(1, strings)),
    );
    #[cfg(not(feature = "double-precision"))]
    {
        check_packed(
            Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(2.0, 0.0)])),
            "$godot_serde::PackedVector2Array",
            &[0, 0, 0, 0x40, 0, 0, 0, 0],
        );
        check_packed(
            Variant::PackedVector3Array(PackedVector3Array(vec![Vector3::new(0.0, 2.0, 0.0)])),
            "$godot_serde::PackedVector3Array",
            &[0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0],
        );
        check_packed(
            Variant::PackedVector4Array(PackedVector4Array(vec![Vector4::new(0.0, 0.0, 0.0, 2.0)])),
            "$godot_serde::PackedVector4Array",
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40],
        );
    }
    #[cfg(feature = "double-precision")]
    {
        check_packed(
            Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(2.0, 0.0)])),
            "$godot_serde::PackedVector2Array64",
            &[0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0],
        );
        check_packed(
            Variant::PackedVector4Array(PackedVector4Array(vec![Vector4::new(0.0, 0.0, 0.0, 2.0)])),
            "$godot_serde::PackedVector4Array64",
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0x40,
            ],
        );
    }
    // The 64 names hold f64 components in every build.
    assert_de_tokens(
        &Variant::PackedVector3Array(PackedVector3Array(vec![Vector3::new(0.0, 2.0, 0.0)]))
            .compact(),
        &marker_map(
            "$godot_serde::PackedVector3Array64",
            vec![Token::Bytes(&[
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0,
            ])],
        ),
    );
}

#[test]
fn untyped_containers() {
    let array = Variant::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![Variant::Int(1), Variant::String("a".into())],
    }));
    assert_tokens(
        &array.clone().compact(),
        &seq_of(2, vec![Token::I64(1), Token::Str("a")]),
    );

    let mut dict = Dictionary::new();
    dict.insert(Variant::String("b".into()), Variant::Int(1));
    dict.insert(Variant::Int(2), Variant::Nil);
    dict.insert(Variant::String("a".into()), Variant::Bool(false));
    // Insertion order is kept (b before a).
    assert_tokens(
        &Variant::Dictionary(dict.clone()),
        &[
            Token::Map { len: Some(3) },
            Token::Str("b"),
            Token::I64(1),
            Token::I64(2),
            Token::Unit,
            Token::Str("a"),
            Token::Bool(false),
            Token::MapEnd,
        ],
    );
    // A reserved name that is not the first key is an ordinary key.
    let mut dict = Dictionary::new();
    dict.insert(Variant::Int(0), Variant::Int(1));
    dict.insert(
        Variant::String("$godot_serde::Vector2".into()),
        Variant::Int(2),
    );
    assert_de_tokens(
        &Variant::Dictionary(dict),
        &[
            Token::Map { len: Some(2) },
            Token::I64(0),
            Token::I64(1),
            Token::Str("$godot_serde::Vector2"),
            Token::I64(2),
            Token::MapEnd,
        ],
    );
    assert_tokens(
        &Variant::Dictionary(Dictionary::new()),
        &[Token::Map { len: Some(0) }, Token::MapEnd],
    );
}

#[test]
fn a_marker_map_with_more_entries_is_an_error() {
    let mut tokens = vec![
        Token::Map { len: Some(2) },
        Token::Str("$godot_serde::Vector2"),
    ];
    tokens.extend(seq_of(2, reals(&[1.0, 2.0])));
    tokens.push(Token::Str("x"));
    assert_de_tokens_error::<serde_test::Compact<Variant>>(
        &tokens,
        "a $godot_serde::Vector2 marker map must have exactly one entry",
    );
}

/// `(kind, id, name)` as a 3-tuple.
fn container_type(kind: u8, id: u32, name: &'static str) -> Vec<Token> {
    vec![
        Token::Tuple { len: 3 },
        Token::U8(kind),
        Token::U32(id),
        Token::Str(name),
        Token::TupleEnd,
    ]
}

#[test]
fn typed_array() {
    // Array[int]: builtin kind 1, Godot 4 id of int = 2.
    let array = Array {
        element_type: ContainerType::Builtin(VariantType::Int),
        items: vec![Variant::Int(1), Variant::Int(2)],
    };
    let mut fields = container_type(1, 2, "");
    fields.extend(seq_of(2, vec![Token::I64(1), Token::I64(2)]));
    let ser = tuple_struct_of("$godot_serde::TypedArray", 2, fields.clone());
    let de = marker_map("$godot_serde::TypedArray", seq_of(2, fields));
    check(Variant::Array(Box::new(array.clone())), &ser, &de);
    assert_ser_tokens(&array.clone().compact(), &ser);
    assert_de_tokens(&array.clone().compact(), &de);
}

#[test]
fn typed_dictionary() {
    // Dictionary[String, Node]: key builtin String (id 4), value class "Node" (kind 2).
    let mut dict = Dictionary::new();
    dict.set_key_type(ContainerType::Builtin(VariantType::String));
    dict.set_value_type(ContainerType::ClassName("Node".into()));
    dict.insert(Variant::String("k".into()), Variant::ObjectId(ObjectId(5)));
    let mut fields = container_type(1, 4, "");
    fields.extend(container_type(2, 0, "Node"));
    fields.extend([
        Token::Map { len: Some(1) },
        Token::Str("k"),
        Token::NewtypeStruct {
            name: "$godot_serde::ObjectId",
        },
        Token::U64(5),
        Token::MapEnd,
    ]);
    let ser = tuple_struct_of("$godot_serde::TypedDictionary", 3, fields);
    assert_ser_tokens(&Variant::Dictionary(dict.clone()), &ser);
    let mut payload = container_type(1, 4, "");
    payload.extend(container_type(2, 0, "Node"));
    payload.extend([Token::Map { len: Some(1) }, Token::Str("k")]);
    payload.extend(marker_map("$godot_serde::ObjectId", vec![Token::U64(5)]));
    payload.push(Token::MapEnd);
    let de = marker_map("$godot_serde::TypedDictionary", seq_of(3, payload));
    assert_de_tokens(&Variant::Dictionary(dict.clone()), &de);
    assert_de_tokens(&dict.clone().compact(), &de);
}

#[test]
fn container_type_kinds() {
    assert_tokens(&ContainerType::Untyped, &container_type(0, 0, ""));
    assert_tokens(
        &ContainerType::Builtin(VariantType::Vector3),
        &container_type(1, 9, ""),
    );
    assert_tokens(
        &ContainerType::ClassName("Node".into()),
        &container_type(2, 0, "Node"),
    );
    assert_tokens(
        &ContainerType::Script("res://a.gd".into()),
        &container_type(3, 0, "res://a.gd"),
    );
    assert_de_tokens_error::<serde_test::Compact<ContainerType>>(
        &container_type(4, 0, "")[..4],
        "invalid container type: kind 4 is not 0 (untyped), 1 (builtin), 2 (class name) or \
         3 (script)",
    );
    // Godot 4.3+ has ids 0..=38.
    assert_de_tokens_error::<serde_test::Compact<ContainerType>>(
        &container_type(1, 39, "")[..4],
        "invalid container type: unknown Godot 4 type id 39",
    );
}

#[test]
fn full_object() {
    let object = Object {
        class: "Node2D".into(),
        properties: vec![
            ("position".into(), Variant::Vector2(Vector2::new(1.0, 2.0))),
            ("name".into(), Variant::StringName(StringName::from("N"))),
        ],
    };
    let mut props = vec![Token::Map { len: Some(2) }, Token::Str("position")];
    props.extend(tuple_struct_of(
        "$godot_serde::Vector2",
        2,
        reals(&[1.0, 2.0]),
    ));
    props.extend([
        Token::Str("name"),
        Token::NewtypeStruct {
            name: "$godot_serde::StringName",
        },
        Token::Str("N"),
        Token::MapEnd,
    ]);
    let mut fields = vec![Token::Str("Node2D")];
    fields.extend(props);
    let ser = tuple_struct_of("$godot_serde::Object", 2, fields);
    assert_ser_tokens(&Variant::Object(Box::new(object.clone())), &ser);

    let mut payload = vec![
        Token::Str("Node2D"),
        Token::Map { len: Some(2) },
        Token::Str("position"),
    ];
    payload.extend(marker_map(
        "$godot_serde::Vector2",
        seq_of(2, reals(&[1.0, 2.0])),
    ));
    payload.push(Token::Str("name"));
    payload.extend(marker_map(
        "$godot_serde::StringName",
        vec![Token::Str("N")],
    ));
    payload.push(Token::MapEnd);
    let de = marker_map("$godot_serde::Object", seq_of(2, payload));
    assert_de_tokens(&Variant::Object(Box::new(object.clone())), &de);
    assert_de_tokens(&object.clone().compact(), &de);
}

#[test]
fn standalone_containers_reject_other_markers() {
    assert_de_tokens_error::<serde_test::Compact<Dictionary>>(
        &marker_map(
            "$godot_serde::Vector2i",
            seq_of(2, vec![Token::I32(1), Token::I32(2)]),
        ),
        "invalid type: another Godot type, expected a Dictionary",
    );
}

// ---------------------------------------------------------------------------------------------
// JSON

#[test]
fn variant_json_round_trip_of_plain_data() {
    let json = r#"{"name":"Bob","hp":3,"speed":1.5,"tags":["a",null,true],"nested":{}}"#;
    let v: Variant = serde_json::from_str(json).unwrap();
    let Variant::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(d.len(), 5);
    assert_eq!(
        d.as_slice()[1],
        (Variant::String("hp".into()), Variant::Int(3))
    );
    assert_eq!(d.as_slice()[2].1, Variant::Float(1.5));
    assert_eq!(serde_json::to_string(&v).unwrap(), json);
}

#[test]
fn variant_from_json_marker_maps() {
    let v: Variant = serde_json::from_str(r#"{"$godot_serde::Vector2": [1, 2.5]}"#).unwrap();
    assert_eq!(v, Variant::Vector2(Vector2::new(1.0, 2.5)));
    let v: Variant = serde_json::from_str(r#"{"$godot_serde::StringName": "x"}"#).unwrap();
    assert_eq!(v, Variant::StringName(StringName::from("x")));
    // Markers serialize as plain data in JSON.
    let v = Variant::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![
            Variant::Vector2(Vector2::new(1.0, 2.0)),
            Variant::NodePath(Box::new(NodePath::from("/root/Main:position"))),
            Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5, 1.0])),
        ],
    }));
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        r#"[[1.0,2.0],"/root/Main:position",[0.5,1.0]]"#
    );
}
