//! Every worked example of the wire-format spec (§8.1, §8.2), for Godot 3 and Godot 4, through
//! typed Rust values and through `Variant`. The expected bytes are the spec's, which were
//! checked against real 3.2.3 and 4.6 engines.
use crate::common;
use common::*;
use godot_serde::*;

const G3: Config = Config::godot3();
const G4: Config = Config::godot4();

/// Asserts a typed value and its `Variant` against the 3.x and the 4.x bytes.
#[track_caller]
fn both<T>(value: T, variant: Variant, g3: Option<&str>, g4: &str)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for config in GODOT4 {
        check(&value, config, g4);
        check_variant(&variant, config, g4);
    }
    match g3 {
        Some(g3) => {
            check(&value, G3, g3);
            check_variant(&variant, G3, g3);
        }
        None => {
            let e = G3.to_bytes(&value).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::TypeNotInTarget { .. }), "{e}");
        }
    }
}

#[test]
fn scalars_and_strings() {
    both((), Variant::Nil, Some("00000000"), "00000000");
    both(
        true,
        Variant::Bool(true),
        Some("01000000 01000000"),
        "01000000 01000000",
    );
    both(
        false,
        Variant::Bool(false),
        Some("01000000 00000000"),
        "01000000 00000000",
    );
    both(
        1i64,
        Variant::Int(1),
        Some("02000000 01000000"),
        "02000000 01000000",
    );
    both(
        -1i64,
        Variant::Int(-1),
        Some("02000000 ffffffff"),
        "02000000 ffffffff",
    );
    both(
        2147483647i64,
        Variant::Int(2147483647),
        Some("02000000 ffffff7f"),
        "02000000 ffffff7f",
    );
    both(
        2147483648i64,
        Variant::Int(2147483648),
        Some("02000100 00000080 00000000"),
        "02000100 00000080 00000000",
    );
    both(
        -2147483649i64,
        Variant::Int(-2147483649),
        Some("02000100 ffffff7f ffffffff"),
        "02000100 ffffff7f ffffffff",
    );
    both(
        1i64 << 40,
        Variant::Int(1 << 40),
        Some("02000100 00000000 00010000"),
        "02000100 00000000 00010000",
    );
    both(
        1.5f64,
        Variant::Float(1.5),
        Some("03000000 0000c03f"),
        "03000000 0000c03f",
    );
    both(
        0.1f64,
        Variant::Float(0.1),
        Some("03000100 9a999999 9999b93f"),
        "03000100 9a999999 9999b93f",
    );
    both(
        -0.0f64,
        Variant::Float(-0.0),
        Some("03000000 00000080"),
        "03000000 00000080",
    );
    both(
        f64::INFINITY,
        Variant::Float(f64::INFINITY),
        Some("03000000 0000807f"),
        "03000000 0000807f",
    );
    both(
        String::new(),
        Variant::from(""),
        Some("04000000 00000000"),
        "04000000 00000000",
    );
    both(
        "hi".to_string(),
        Variant::from("hi"),
        Some("04000000 02000000 68690000"),
        "04000000 02000000 68690000",
    );
    both(
        "Godot".to_string(),
        Variant::from("Godot"),
        Some("04000000 05000000 476f646f 74000000"),
        "04000000 05000000 476f646f 74000000",
    );
    both(
        "héllo".to_string(),
        Variant::from("héllo"),
        Some("04000000 06000000 68c3a96c 6c6f0000"),
        "04000000 06000000 68c3a96c 6c6f0000",
    );
}

#[test]
fn nan_is_always_64_bit() {
    // GDScript NAN = 0x7FF8000000000000; NaN never equals itself, so compare bytes.
    for config in [G3, G4] {
        let bytes = config.to_bytes(&f64::NAN).unwrap();
        assert_eq!(bytes, hex("03000100 00000000 0000f87f"));
        let back: f64 = config.from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bits(), f64::NAN.to_bits());
        // An f32 NaN is a Godot float (a double) too: still 8 bytes.
        assert_eq!(
            config.to_bytes(&f32::NAN).unwrap(),
            hex("03000100 00000000 0000f87f")
        );
    }
}

#[test]
fn math_types() {
    both(
        Vector2::new(1.0, 2.0),
        Variant::Vector2(Vector2::new(1.0, 2.0)),
        Some("05000000 0000803f 00000040"),
        "05000000 0000803f 00000040",
    );
    both(
        Vector3::new(1.0, 2.0, 3.0),
        Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
        Some("07000000 0000803f 00000040 00004040"),
        "09000000 0000803f 00000040 00004040",
    );
    both(
        Color::new(1.0, 0.0, 0.0, 1.0),
        Variant::Color(Color::new(1.0, 0.0, 0.0, 1.0)),
        Some("0e000000 0000803f 00000000 00000000 0000803f"),
        "14000000 0000803f 00000000 00000000 0000803f",
    );
    both(
        Transform2D::IDENTITY,
        Variant::Transform2D(Box::new(Transform2D::IDENTITY)),
        Some("08000000 0000803f 00000000 00000000 0000803f 00000000 00000000"),
        "0b000000 0000803f 00000000 00000000 0000803f 00000000 00000000",
    );
    both(
        Basis::IDENTITY,
        Variant::Basis(Box::new(Basis::IDENTITY)),
        Some(
            "0c000000 0000803f 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 0000803f",
        ),
        "11000000 0000803f 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 0000803f",
    );
    both(
        Vector2i::new(1, -2),
        Variant::Vector2i(Vector2i::new(1, -2)),
        None,
        "06000000 01000000 feffffff",
    );
}

#[test]
fn basis_is_written_row_by_row() {
    // Spec §4.6: Basis(X, Y, Z) is written X.x, Y.x, Z.x, X.y, ... With axes X=(1,2,3),
    // Y=(4,5,6), Z=(7,8,9) the words are 1,4,7, 2,5,8, 3,6,9.
    let b = Basis::from_axes(
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(4.0, 5.0, 6.0),
        Vector3::new(7.0, 8.0, 9.0),
    );
    let g4 =
        "11000000 0000803f 00008040 0000e040 00000040 0000a040 00000041 00004040 0000c040 00001041";
    check(&b, G4, g4);
}

#[test]
fn string_name_node_path_rid_object_callable_signal() {
    both(
        StringName::from("abc"),
        Variant::StringName("abc".into()),
        None,
        "15000000 03000000 61626300",
    );
    let np: NodePath = "/root/Main:position".parse().unwrap();
    both(
        np.clone(),
        Variant::NodePath(Box::new(np)),
        Some(
            "0f000000 02000080 01000000 01000000 04000000 726f6f74 04000000 4d61696e 08000000 706f7369 74696f6e",
        ),
        "16000000 02000080 01000000 01000000 04000000 726f6f74 04000000 4d61696e 08000000 706f7369 74696f6e",
    );
    // Godot leaves NodePath name padding unwritten; we write zeros.
    let np: NodePath = "a:b".parse().unwrap();
    both(
        np.clone(),
        Variant::NodePath(Box::new(np)),
        Some("0f000000 01000080 01000000 00000000 01000000 61000000 01000000 62000000"),
        "16000000 01000080 01000000 00000000 01000000 61000000 01000000 62000000",
    );
    let np: NodePath = "".parse().unwrap();
    both(
        np.clone(),
        Variant::NodePath(Box::new(np)),
        Some("0f000000 00000080 00000000 00000000"),
        "16000000 00000080 00000000 00000000",
    );
    // RID: Godot 3 writes no id (and reads back 0).
    check(&Rid(5), G4, "17000000 05000000 00000000");
    check_variant(&Variant::Rid(Rid(5)), G4, "17000000 05000000 00000000");
    assert_eq!(G3.to_bytes(&Rid(5)).unwrap(), hex("10000000"));
    check(&Rid(0), G3, "10000000");
    // Objects as ids; the null object is nil.
    both(
        ObjectId(0x1234),
        Variant::ObjectId(ObjectId(0x1234)),
        Some("11000100 34120000 00000000"),
        "18000100 34120000 00000000",
    );
    assert_eq!(G4.to_bytes(&ObjectId(0)).unwrap(), hex("00000000"));
    assert_eq!(
        G4.from_bytes::<ObjectId>(&hex("00000000")).unwrap(),
        ObjectId(0)
    );
    both(Callable, Variant::Callable(Callable), None, "19000000");
    let s = Signal::new("pressed", ObjectId(0x10));
    both(
        s.clone(),
        Variant::Signal(Box::new(s)),
        None,
        "1a000000 07000000 70726573 73656400 10000000 00000000",
    );
}

#[test]
fn containers() {
    let arr = Variant::from(vec![Variant::Int(1), Variant::from("a")]);
    check_variant(
        &arr,
        G3,
        "13000000 02000000 02000000 01000000 04000000 01000000 61000000",
    );
    check_variant(
        &arr,
        G4,
        "1c000000 02000000 02000000 01000000 04000000 01000000 61000000",
    );
    let mut d = Dictionary::new();
    d.insert("a".into(), 1.into());
    check_variant(
        &Variant::Dictionary(d.clone()),
        G3,
        "12000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
    check_variant(
        &Variant::Dictionary(d),
        G4,
        "1b000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
}

#[test]
fn packed_arrays() {
    both(
        PackedByteArray(vec![1, 2, 3]),
        Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3])),
        Some("14000000 03000000 01020300"),
        "1d000000 03000000 01020300",
    );
    both(
        PackedInt32Array(vec![1, 2]),
        Variant::PackedInt32Array(PackedInt32Array(vec![1, 2])),
        Some("15000000 02000000 01000000 02000000"),
        "1e000000 02000000 01000000 02000000",
    );
    both(
        PackedInt64Array(vec![1]),
        Variant::PackedInt64Array(PackedInt64Array(vec![1])),
        None,
        "1f000000 01000000 01000000 00000000",
    );
    both(
        PackedFloat32Array(vec![0.5]),
        Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5])),
        Some("16000000 01000000 0000003f"),
        "20000000 01000000 0000003f",
    );
    both(
        PackedFloat64Array(vec![0.1]),
        Variant::PackedFloat64Array(PackedFloat64Array(vec![0.1])),
        None,
        "21000000 01000000 9a999999 9999b93f",
    );
    let strings = PackedStringArray(vec!["ab".into(), "cde".into()]);
    both(
        strings.clone(),
        Variant::PackedStringArray(strings),
        Some("17000000 02000000 03000000 61620000 04000000 63646500"),
        "22000000 02000000 03000000 61620000 04000000 63646500",
    );
    let v2 = PackedVector2Array(vec![Vector2::new(1.0, 2.0)]);
    both(
        v2.clone(),
        Variant::PackedVector2Array(v2),
        Some("18000000 01000000 0000803f 00000040"),
        "23000000 01000000 0000803f 00000040",
    );
    let c = PackedColorArray(vec![Color::new(1.0, 0.0, 0.0, 1.0)]);
    both(
        c.clone(),
        Variant::PackedColorArray(c),
        Some("1a000000 01000000 0000803f 00000000 00000000 0000803f"),
        "25000000 01000000 0000803f 00000000 00000000 0000803f",
    );
    // PackedVector4Array: 4.3+ only.
    let v4 = PackedVector4Array(vec![Vector4::new(1.0, 2.0, 3.0, 4.0)]);
    let g4 = "26000000 01000000 0000803f 00000040 00004040 00008040";
    for v in [GodotVersion::V4_3, GodotVersion::V4_4] {
        check(&v4, Config::new(v), g4);
        check_variant(&Variant::PackedVector4Array(v4.clone()), Config::new(v), g4);
    }
    for config in [G3, Config::new(GodotVersion::V4_0)] {
        let e = config.to_bytes(&v4).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::TypeNotInTarget { .. }), "{e}");
    }
}

#[test]
fn typed_containers_in_variant() {
    // §8.2: Array[int] = [1, 2] in 4.3+, and untyped in 4.0-4.2.
    let typed = Variant::Array(Box::new(Array {
        element_type: ContainerType::Builtin(VariantType::Int),
        items: vec![1.into(), 2.into()],
    }));
    let g43 = "1c000100 02000000 02000000 02000000 01000000 02000000 02000000";
    check_variant(&typed, Config::new(GodotVersion::V4_3), g43);
    check_variant(&typed, G4, g43);
    assert_eq!(
        Config::new(GodotVersion::V4_0).to_bytes(&typed).unwrap(),
        hex("1c000000 02000000 02000000 01000000 02000000 02000000")
    );
    // Array[Node] without full objects: class "EncodedObjectAsID".
    let nodes = Variant::Array(Box::new(Array {
        element_type: ContainerType::ClassName("EncodedObjectAsID".into()),
        items: vec![],
    }));
    check_variant(
        &nodes,
        G4,
        "1c000200 11000000 456e636f 6465644f 626a6563 74417349 44000000 00000000",
    );
    let nodes = Variant::Array(Box::new(Array {
        element_type: ContainerType::ClassName("Node".into()),
        items: vec![],
    }));
    // `var_to_bytes_with_objects` keeps the class (spec §8.2); `var_to_bytes` writes
    // `EncodedObjectAsID` for it, and reading without objects gives `EncodedObjectAsID` back
    // (both seen on a 4.6 engine, `tests/suite/godot4_live.rs`).
    check_variant(
        &nodes,
        G4.with_allow_objects(true),
        "1c000200 04000000 4e6f6465 00000000",
    );
    let as_ids = "1c000200 11000000 456e636f 6465644f 626a6563 74417349 44000000 00000000";
    assert_eq!(G4.to_bytes(&nodes).unwrap(), hex(as_ids));
    // An empty class name is the class-less OBJECT container, which a 4.6 engine writes as
    // BUILTIN 24 with or without full objects; a script path must be a `res://` one.
    let classless = Variant::Array(Box::new(Array {
        element_type: ContainerType::ClassName(String::new()),
        items: vec![],
    }));
    for config in [G4, G4.with_allow_objects(true)] {
        assert_eq!(
            config.to_bytes(&classless).unwrap(),
            hex("1c000100 18000000 00000000")
        );
    }
    let scripted = |path: &str| {
        Variant::Array(Box::new(Array {
            element_type: ContainerType::Script(path.into()),
            items: vec![],
        }))
    };
    assert_eq!(G4.to_bytes(&scripted("a.gd")).unwrap(), hex(as_ids));
    assert!(
        G4.with_allow_objects(true)
            .to_bytes(&scripted("a.gd"))
            .is_err()
    );
    assert_eq!(
        G4.with_allow_objects(true)
            .to_bytes(&scripted("res://a.gd"))
            .unwrap(),
        hex("1c000300 0a000000 7265733a 2f2f612e 67640000 00000000")
    );
    let back: Variant = G4
        .from_bytes(&hex("1c000200 04000000 4e6f6465 00000000"))
        .unwrap();
    assert_eq!(
        back.as_array().unwrap().element_type,
        ContainerType::ClassName("EncodedObjectAsID".into())
    );
    // Dictionary[String, int] = {"a": 1}, 4.4+.
    let mut d = Dictionary::typed(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Builtin(VariantType::Int),
    );
    d.insert("a".into(), 1.into());
    check_variant(
        &Variant::Dictionary(d.clone()),
        G4,
        "1b000500 04000000 02000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
    // 4.3 cannot read typed dictionaries: written untyped.
    assert_eq!(
        Config::new(GodotVersion::V4_3)
            .to_bytes(&Variant::Dictionary(d))
            .unwrap(),
        hex("1b000000 01000000 04000000 01000000 61000000 02000000 01000000")
    );
    let mut d = Dictionary::typed(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Untyped,
    );
    d.insert("a".into(), 1.into());
    check_variant(
        &Variant::Dictionary(d),
        G4,
        "1b000100 04000000 01000000 04000000 01000000 61000000 02000000 01000000",
    );
    let d = Dictionary::typed(
        ContainerType::Untyped,
        ContainerType::Builtin(VariantType::Int),
    );
    check_variant(&Variant::Dictionary(d), G4, "1b000400 02000000 00000000");
    // Engine tests (test_marshalls.h): Array[int] holding 0xF123456789ABCDEF, and
    // Dictionary[int, int] {X: X}.
    let x = 0xF123456789ABCDEFu64 as i64;
    let a = Variant::Array(Box::new(Array {
        element_type: ContainerType::Builtin(VariantType::Int),
        items: vec![x.into()],
    }));
    check_variant(
        &a,
        G4,
        "1c000100 02000000 01000000 02000100 efcdab89 674523f1",
    );
    let mut d = Dictionary::typed(
        ContainerType::Builtin(VariantType::Int),
        ContainerType::Builtin(VariantType::Int),
    );
    d.insert(x.into(), x.into());
    check_variant(
        &Variant::Dictionary(d),
        G4,
        "1b000500 02000000 02000000 01000000 02000100 efcdab89 674523f1 02000100 efcdab89 674523f1",
    );
}

#[test]
fn double_precision_builds() {
    // §8.2: Vector2(1, 2) from a double build: flag + two f64.
    let config = G4.with_double_precision(true);
    check(
        &Vector2::new(1.0, 2.0),
        config,
        "05000100 00000000 0000f03f 00000000 00000040",
    );
    check_variant(
        &Variant::Vector2(Vector2::new(1.0, 2.0)),
        config,
        "05000100 00000000 0000f03f 00000000 00000040",
    );
    // A single-precision reader still decodes it (the flag decides, not the config).
    assert_eq!(
        G4.from_bytes::<Vector2>(&hex("05000100 00000000 0000f03f 00000000 00000040"))
            .unwrap(),
        Vector2::new(1.0, 2.0)
    );
    // Color and the integer vectors are never widened.
    check(
        &Color::new(1.0, 0.0, 0.0, 1.0),
        config,
        "14000000 0000803f 00000000 00000000 0000803f",
    );
    check(&Vector2i::new(1, -2), config, "06000000 01000000 feffffff");
    check(
        &PackedVector2Array(vec![Vector2::new(1.0, 2.0)]),
        config,
        "23000100 01000000 00000000 0000f03f 00000000 00000040",
    );
    // Godot 3 has no double-precision layout.
    assert!(
        G3.with_double_precision(true)
            .to_bytes(&Vector2::new(1.0, 2.0))
            .is_err()
    );
}

#[test]
fn godot3_ignores_the_64_bit_flag_on_math_types() {
    // Spec §2: 3.x never sets bit 16 on Vector2 and ignores it (always f32).
    assert_eq!(
        G3.from_bytes::<Vector2>(&hex("05000100 0000803f 00000040"))
            .unwrap(),
        Vector2::new(1.0, 2.0)
    );
}

#[test]
fn enums_by_name_and_by_index() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    enum State {
        Idle,
        Move(i32),
        At { x: i32 },
    }
    // "Idle" → String; Move(3) → {"Move": 3}.
    check(&State::Idle, G4, "04000000 04000000 49646c65");
    check(
        &State::Move(3),
        G4,
        "1b000000 01000000 04000000 04000000 4d6f7665 02000000 03000000",
    );
    check(
        &State::At { x: 1 },
        G4,
        "1b000000 01000000 04000000 02000000 41740000 1b000000 01000000 04000000 01000000 78000000 02000000 01000000",
    );
    let by_index = G4.with_enum_repr(EnumRepr::Index);
    check(&State::Idle, by_index, "02000000 00000000");
    check(
        &State::Move(3),
        by_index,
        "1b000000 01000000 02000000 01000000 02000000 03000000",
    );
    // Decoding reads names in both modes, an index only with EnumRepr::Index (issue 27.2,
    // tests/suite/enum_index.rs).
    assert!(G4.from_bytes::<State>(&hex("02000000 00000000")).is_err());
    assert_eq!(
        by_index
            .from_bytes::<State>(&hex("02000000 00000000"))
            .unwrap(),
        State::Idle
    );
    assert_eq!(
        by_index
            .from_bytes::<State>(&hex("04000000 04000000 49646c65"))
            .unwrap(),
        State::Idle
    );
}
