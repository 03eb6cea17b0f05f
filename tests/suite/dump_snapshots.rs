//! Annotated dumps of one value per type family, per engine, as reviewed snapshots.
use godot_serde::*;

fn families() -> Vec<(&'static str, Variant)> {
    let mut d = Dictionary::new();
    d.insert("hp".into(), 87.5.into());
    d.insert(Variant::Int(3), Variant::Nil);
    vec![
        (
            "scalars",
            Variant::from(vec![
                Variant::Nil,
                true.into(),
                7.into(),
                (-5_000_000_000i64).into(),
                1.5.into(),
                0.1.into(),
                "héllo".into(),
            ]),
        ),
        (
            "math",
            Variant::from(vec![
                Variant::Vector2(Vector2::new(1.0, 2.0)),
                Variant::Rect2(Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0))),
                Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
                Variant::Transform2D(Box::new(Transform2D::IDENTITY)),
                Variant::Plane(Plane::new(Vector3::new(0.0, 1.0, 0.0), 5.0)),
                Variant::Quaternion(Quaternion::IDENTITY),
                Variant::Aabb(Box::new(Aabb::new(
                    Vector3::new(1.0, 2.0, 3.0),
                    Vector3::new(4.0, 5.0, 6.0),
                ))),
                Variant::Basis(Box::new(Basis::IDENTITY)),
                Variant::Transform3D(Box::new(Transform3D::IDENTITY)),
                Variant::Color(Color::new(1.0, 0.5, 0.25, 1.0)),
            ]),
        ),
        (
            "godot4_only",
            Variant::from(vec![
                Variant::Vector2i(Vector2i::new(1, -2)),
                Variant::Rect2i(Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4))),
                Variant::Vector3i(Vector3i::new(1, 2, 3)),
                Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
                Variant::Vector4i(Vector4i::new(1, 2, 3, 4)),
                Variant::Projection(Box::new(Projection::IDENTITY)),
                Variant::StringName("name".into()),
                Variant::Callable(Callable),
                Variant::Signal(Box::new(Signal::new("pressed", ObjectId(16)))),
                Variant::PackedInt64Array(PackedInt64Array(vec![1 << 40])),
                Variant::PackedFloat64Array(PackedFloat64Array(vec![0.1])),
            ]),
        ),
        (
            "handles",
            Variant::from(vec![
                Variant::NodePath(Box::new("/root/Main:position".parse().unwrap())),
                Variant::NodePath(Box::new("a:b".parse().unwrap())),
                Variant::Rid(Rid(5)),
                Variant::ObjectId(ObjectId(0x1234)),
            ]),
        ),
        (
            "containers",
            Variant::from(vec![
                Variant::Dictionary(d),
                Variant::Array(Box::new(Array {
                    element_type: ContainerType::Builtin(VariantType::Int),
                    items: vec![1.into()],
                })),
            ]),
        ),
        (
            "packed",
            Variant::from(vec![
                Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3, 4, 5])),
                Variant::PackedInt32Array(PackedInt32Array(vec![1, -2])),
                Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5])),
                Variant::PackedStringArray(PackedStringArray(vec!["ab".into(), "cde".into()])),
                Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(1.0, 2.0)])),
                Variant::PackedVector3Array(PackedVector3Array(vec![Vector3::new(1.0, 2.0, 3.0)])),
                Variant::PackedColorArray(PackedColorArray(vec![Color::new(1.0, 0.0, 0.0, 1.0)])),
            ]),
        ),
    ]
}

#[test]
fn annotated_dumps() {
    for (family, value) in families() {
        for (engine, config) in [("godot4", Config::godot4()), ("godot3", Config::godot3())] {
            let dump = match config.to_bytes(&value) {
                Ok(bytes) => {
                    // The dump walks the same bytes the decoder reads: both must agree.
                    let back: Variant = config.from_bytes(&bytes).unwrap();
                    if engine == "godot4" {
                        assert_eq!(back, value);
                    }
                    dump::annotate(&bytes, config)
                }
                Err(e) => format!("not encodable: {e}\n"),
            };
            snap!(format!("dump_{family}_{engine}"), dump);
        }
    }
}

#[test]
fn dump_never_panics_on_truncated_or_garbage_input() {
    for (_, value) in families() {
        let bytes = Config::godot4().to_bytes(&value).unwrap();
        for end in 0..bytes.len() {
            let text = dump::annotate(&bytes[..end], Config::godot4());
            assert!(
                end == 0 || text.contains("!!"),
                "prefix {end} of {value:?} should report an error"
            );
        }
    }
    let text = dump::annotate(&[0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f], Config::godot4());
    assert!(text.contains("!! unexpected end of input"), "{text}");
}
