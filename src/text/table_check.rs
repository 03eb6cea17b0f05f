//! The text form against the table of Godot types (`wire::types::TYPES`): every type the
//! table gives a constructor is written under that name and parses back to its type; every
//! older name the table lists parses to the same value; and the names each engine's parser
//! accepts are exactly those of Godot's own parser.

use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid,
    Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use crate::value::{Array, ContainerType, Dictionary, Object};
use crate::wire::VariantType;
use crate::wire::types::{TYPES, Text};
use crate::{Config, Variant};

/// A value of each type (an exhaustive match: a new type needs a sample here).
fn sample(ty: VariantType) -> Variant {
    use VariantType as T;
    match ty {
        T::Nil => Variant::Nil,
        T::Bool => Variant::Bool(true),
        T::Int => Variant::Int(7),
        T::Float => Variant::Float(1.5),
        T::String => Variant::from("s"),
        T::Vector2 => Variant::Vector2(Vector2::new(1.0, 2.0)),
        T::Vector2i => Variant::Vector2i(Vector2i::new(1, 2)),
        T::Rect2 => Variant::Rect2(Rect2 {
            position: Vector2::new(1.0, 2.0),
            size: Vector2::new(3.0, 4.0),
        }),
        T::Rect2i => Variant::Rect2i(Rect2i {
            position: Vector2i::new(1, 2),
            size: Vector2i::new(3, 4),
        }),
        T::Vector3 => Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
        T::Vector3i => Variant::Vector3i(Vector3i::new(1, 2, 3)),
        T::Transform2D => Variant::from(Transform2D::IDENTITY),
        T::Vector4 => Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
        T::Vector4i => Variant::Vector4i(Vector4i::new(1, 2, 3, 4)),
        T::Plane => Variant::Plane(Plane {
            normal: Vector3::new(0.0, 1.0, 0.0),
            d: 2.0,
        }),
        T::Quaternion => Variant::Quaternion(Quaternion::IDENTITY),
        T::Aabb => Variant::from(Aabb {
            position: Vector3::new(1.0, 2.0, 3.0),
            size: Vector3::new(4.0, 5.0, 6.0),
        }),
        T::Basis => Variant::from(Basis::IDENTITY),
        T::Transform3D => Variant::from(Transform3D::IDENTITY),
        T::Projection => Variant::from(Projection::IDENTITY),
        T::Color => Variant::Color(Color::WHITE),
        T::StringName => Variant::StringName(StringName("n".into())),
        T::NodePath => Variant::from(NodePath::from("a/b:c")),
        T::Rid => Variant::Rid(Rid(5)),
        T::Object => Variant::Object(Box::new(Object {
            class: "Node".into(),
            properties: vec![],
        })),
        T::Callable => Variant::Callable(Callable),
        T::Signal => Variant::from(Signal::default()),
        T::Dictionary => {
            let mut d = Dictionary::typed(
                ContainerType::Builtin(VariantType::String),
                ContainerType::Builtin(VariantType::Int),
            );
            d.insert("a".into(), 1.into());
            Variant::from(d)
        }
        T::Array => {
            let mut a = Array::from(vec![Variant::Int(1)]);
            a.element_type = ContainerType::Builtin(VariantType::Int);
            Variant::from(a)
        }
        T::PackedByteArray => Variant::PackedByteArray(PackedByteArray(vec![1, 2])),
        T::PackedInt32Array => Variant::PackedInt32Array(PackedInt32Array(vec![1, 2])),
        T::PackedInt64Array => Variant::PackedInt64Array(PackedInt64Array(vec![1, 2])),
        T::PackedFloat32Array => Variant::PackedFloat32Array(PackedFloat32Array(vec![1.5])),
        T::PackedFloat64Array => Variant::PackedFloat64Array(PackedFloat64Array(vec![1.5])),
        T::PackedStringArray => Variant::PackedStringArray(PackedStringArray(vec!["s".into()])),
        T::PackedVector2Array => {
            Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(1.0, 2.0)]))
        }
        T::PackedVector3Array => {
            Variant::PackedVector3Array(PackedVector3Array(vec![Vector3::new(1.0, 2.0, 3.0)]))
        }
        T::PackedColorArray => Variant::PackedColorArray(PackedColorArray(vec![Color::WHITE])),
        T::PackedVector4Array => {
            Variant::PackedVector4Array(PackedVector4Array(vec![Vector4::new(1.0, 2.0, 3.0, 4.0)]))
        }
    }
}

fn config(godot3: bool) -> Config {
    let c = if godot3 {
        Config::godot3()
    } else {
        Config::godot4()
    };
    c.with_allow_objects(true)
}

/// Written as `var_to_str` would, parsed back as `str_to_var` would.
fn write(v: &Variant, godot3: bool) -> String {
    super::variant_to_string_with(v, config(godot3))
}

fn parse(text: &str, godot3: bool) -> crate::Result<Variant> {
    super::parse_variant_with(text, config(godot3))
}

/// The types whose constructors are written in `godot3`'s text, with their names.
fn constructors(godot3: bool) -> Vec<(VariantType, &'static str)> {
    VariantType::ALL
        .into_iter()
        .filter_map(|ty| Some((ty, ty.text_name(godot3)?)))
        .collect()
}

#[test]
fn every_constructor_in_the_table_is_written_under_its_name_and_parses_back() {
    for godot3 in [true, false] {
        let ctors = constructors(godot3);
        for &(ty, name) in &ctors {
            // Godot 3's `var_to_str` writes nothing for a RID (`VariantWriter::write`, 3.x).
            if godot3 && ty == VariantType::Rid {
                assert_eq!(write(&sample(ty), godot3), "");
                continue;
            }
            let v = sample(ty);
            let text = write(&v, godot3);
            // Typed containers: `Array[int]([1])`, `Dictionary[String, int]({...})`.
            let open = if ty.row().text == Text::Ctor4 {
                '['
            } else {
                '('
            };
            assert!(
                text.starts_with(&format!("{name}{open}")),
                "{ty:?} in Godot {}: {text}",
                if godot3 { 3 } else { 4 }
            );
            let back = parse(&text, godot3).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.variant_type(), ty, "{text}");
            assert_eq!(write(&back, godot3), text);
        }
        // Literal types are written without any constructor name.
        for ty in VariantType::ALL {
            if ty.row().text != Text::Literal {
                continue;
            }
            let text = write(&sample(ty), godot3);
            assert!(
                !ctors
                    .iter()
                    .any(|(_, n)| text.starts_with(&format!("{n}("))),
                "{ty:?}: {text}"
            );
        }
    }
}

#[test]
fn every_older_name_in_the_table_parses_to_the_same_value() {
    for godot3 in [true, false] {
        for (ty, name) in constructors(godot3) {
            let row = ty.row();
            // Godot 3 writes no RID text and reads `RID(n)` as the number `n`.
            let text = match ty {
                VariantType::Rid if godot3 => "RID(5)".to_owned(),
                _ => write(&sample(ty), godot3),
            };
            let mut others: Vec<&str> = row
                .aliases
                .iter()
                .filter(|a| a.godot3 || !godot3)
                .map(|a| a.name)
                .collect();
            if let (false, Some((_, g3))) = (godot3, row.godot3) {
                others.push(g3);
            }
            for other in others {
                let renamed = format!("{other}{}", &text[name.len()..]);
                let v = parse(&renamed, godot3).unwrap_or_else(|e| panic!("{renamed}: {e}"));
                let original = parse(&text, godot3).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(write(&v, godot3), write(&original, godot3), "{renamed}");
            }
        }
    }
}

/// The constructor names of `VariantParser::parse_value` (`core/variant/variant_parser.cpp`),
/// Godot 4.6 and Godot 3.2, copied by hand from the engines' sources.
const GODOT4_NAMES: &[(&str, VariantType)] = {
    use VariantType as T;
    &[
        ("Vector2", T::Vector2),
        ("Vector2i", T::Vector2i),
        ("Rect2", T::Rect2),
        ("Rect2i", T::Rect2i),
        ("Vector3", T::Vector3),
        ("Vector3i", T::Vector3i),
        ("Vector4", T::Vector4),
        ("Vector4i", T::Vector4i),
        ("Transform2D", T::Transform2D),
        ("Matrix32", T::Transform2D),
        ("Plane", T::Plane),
        ("Quaternion", T::Quaternion),
        ("Quat", T::Quaternion),
        ("AABB", T::Aabb),
        ("Rect3", T::Aabb),
        ("Basis", T::Basis),
        ("Matrix3", T::Basis),
        ("Transform3D", T::Transform3D),
        ("Transform", T::Transform3D),
        ("Projection", T::Projection),
        ("Color", T::Color),
        ("NodePath", T::NodePath),
        ("RID", T::Rid),
        ("Signal", T::Signal),
        ("Callable", T::Callable),
        ("Object", T::Object),
        ("Dictionary", T::Dictionary),
        ("Array", T::Array),
        ("PackedByteArray", T::PackedByteArray),
        ("PoolByteArray", T::PackedByteArray),
        ("ByteArray", T::PackedByteArray),
        ("PackedInt32Array", T::PackedInt32Array),
        ("PackedIntArray", T::PackedInt32Array),
        ("PoolIntArray", T::PackedInt32Array),
        ("IntArray", T::PackedInt32Array),
        ("PackedInt64Array", T::PackedInt64Array),
        ("PackedFloat32Array", T::PackedFloat32Array),
        ("PackedRealArray", T::PackedFloat32Array),
        ("PoolRealArray", T::PackedFloat32Array),
        ("FloatArray", T::PackedFloat32Array),
        ("PackedFloat64Array", T::PackedFloat64Array),
        ("PackedStringArray", T::PackedStringArray),
        ("PoolStringArray", T::PackedStringArray),
        ("StringArray", T::PackedStringArray),
        ("PackedVector2Array", T::PackedVector2Array),
        ("PoolVector2Array", T::PackedVector2Array),
        ("Vector2Array", T::PackedVector2Array),
        ("PackedVector3Array", T::PackedVector3Array),
        ("PoolVector3Array", T::PackedVector3Array),
        ("Vector3Array", T::PackedVector3Array),
        ("PackedColorArray", T::PackedColorArray),
        ("PoolColorArray", T::PackedColorArray),
        ("ColorArray", T::PackedColorArray),
        ("PackedVector4Array", T::PackedVector4Array),
        ("PoolVector4Array", T::PackedVector4Array),
        ("Vector4Array", T::PackedVector4Array),
    ]
};

const GODOT3_NAMES: &[(&str, VariantType)] = {
    use VariantType as T;
    &[
        ("Vector2", T::Vector2),
        ("Rect2", T::Rect2),
        ("Vector3", T::Vector3),
        ("Transform2D", T::Transform2D),
        ("Matrix32", T::Transform2D),
        ("Plane", T::Plane),
        ("Quat", T::Quaternion),
        ("AABB", T::Aabb),
        ("Rect3", T::Aabb),
        ("Basis", T::Basis),
        ("Matrix3", T::Basis),
        ("Transform", T::Transform3D),
        ("Color", T::Color),
        ("NodePath", T::NodePath),
        ("RID", T::Rid),
        ("Object", T::Object),
        ("PoolByteArray", T::PackedByteArray),
        ("ByteArray", T::PackedByteArray),
        ("PoolIntArray", T::PackedInt32Array),
        ("IntArray", T::PackedInt32Array),
        ("PoolRealArray", T::PackedFloat32Array),
        ("FloatArray", T::PackedFloat32Array),
        ("PoolStringArray", T::PackedStringArray),
        ("StringArray", T::PackedStringArray),
        ("PoolVector2Array", T::PackedVector2Array),
        ("Vector2Array", T::PackedVector2Array),
        ("PoolVector3Array", T::PackedVector3Array),
        ("Vector3Array", T::PackedVector3Array),
        ("PoolColorArray", T::PackedColorArray),
        ("ColorArray", T::PackedColorArray),
    ]
};

#[test]
fn the_table_gives_each_parser_exactly_the_engines_constructor_names() {
    for (godot3, engine) in [(true, GODOT3_NAMES), (false, GODOT4_NAMES)] {
        // Every name the table gives, from every column that holds one.
        let mut from_table: Vec<(&str, VariantType)> = Vec::new();
        for row in &TYPES {
            let names = [Some(row.name), row.godot3.map(|(_, n)| n)]
                .into_iter()
                .flatten()
                .chain(row.aliases.iter().map(|a| a.name));
            for name in names {
                if let Some(ty) = VariantType::from_text_name(name, godot3) {
                    if !from_table.contains(&(name, ty)) {
                        from_table.push((name, ty));
                    }
                }
            }
        }
        let mut want = engine.to_vec();
        want.sort_unstable();
        from_table.sort_unstable();
        assert_eq!(from_table, want, "Godot {}", if godot3 { 3 } else { 4 });
    }
    // Names of literal types are no constructors.
    for name in [
        "Nil",
        "bool",
        "int",
        "float",
        "real",
        "String",
        "StringName",
    ] {
        assert_eq!(VariantType::from_text_name(name, false), None, "{name}");
        assert_eq!(VariantType::from_text_name(name, true), None, "{name}");
    }
}
