//! The Variant API: conversions, accessors, indexing, Dictionary order, typed containers.

use godot_serde::{
    Array, Color, ContainerType, Dictionary, ErrorKind, NodePath, ObjectId, StringName, Variant,
    VariantType, Vector2, Vector2i,
};

#[test]
fn from_rust_values() {
    assert_eq!(Variant::from(true), Variant::Bool(true));
    assert_eq!(Variant::from(-5i8), Variant::Int(-5));
    assert_eq!(Variant::from(u32::MAX), Variant::Int(4_294_967_295));
    assert_eq!(Variant::from(i64::MIN), Variant::Int(i64::MIN));
    assert_eq!(Variant::from(0.5f32), Variant::Float(0.5));
    assert_eq!(Variant::from("s"), Variant::String("s".into()));
    assert_eq!(
        Variant::from(String::from("s")),
        Variant::String("s".into())
    );
    assert_eq!(Variant::from(None::<&str>), Variant::Nil);
    assert_eq!(Variant::from(Some(3)), Variant::Int(3));
    let v = Vector2i { x: 1, y: 2 };
    assert_eq!(Variant::from(v), Variant::Vector2i(v));
    assert_eq!(
        Variant::from(vec![Variant::Int(1)]),
        Variant::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items: vec![Variant::Int(1)]
        }))
    );
}

#[test]
fn unsigned_64_bit_values_convert_only_when_they_fit() {
    assert_eq!(Variant::try_from(7u64).ok(), Some(Variant::Int(7)));
    let err = Variant::try_from(u64::MAX).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::IntegerOutOfRange(_)),
        "{err}"
    );
    assert_eq!(Variant::try_from(3usize).ok(), Some(Variant::Int(3)));
}

#[test]
fn try_from_variant_names_both_types() {
    assert_eq!(i64::try_from(Variant::Int(9)).ok(), Some(9));
    let err = i64::try_from(Variant::from("nine")).unwrap_err();
    assert_eq!(err.to_string(), "expected int, found String");
    let err = u8::try_from(Variant::Int(300)).unwrap_err();
    assert_eq!(err.to_string(), "int 300 out of range for u8");
    let err = u64::try_from(Variant::Int(-1)).unwrap_err();
    assert_eq!(err.to_string(), "int -1 out of range for u64");
    let err = Vector2::try_from(Variant::Nil).unwrap_err();
    assert_eq!(err.to_string(), "expected Vector2, found Nil");
    let err = Color::try_from(Variant::ObjectId(ObjectId(4))).unwrap_err();
    assert_eq!(err.to_string(), "expected Color, found Object");
    assert_eq!(f64::try_from(Variant::Int(2)).ok(), Some(2.0));
    assert_eq!(f32::try_from(Variant::Float(0.1)).ok(), Some(0.1f32));
    assert_eq!(bool::try_from(Variant::Bool(true)).ok(), Some(true));
    assert_eq!(
        String::try_from(Variant::StringName(StringName("n".into()))).ok(),
        Some("n".to_owned())
    );
    assert_eq!(Option::<i64>::try_from(Variant::Nil).ok(), Some(None));
    assert_eq!(Option::<i64>::try_from(Variant::Int(1)).ok(), Some(Some(1)));
    assert!(Option::<i64>::try_from(Variant::Bool(false)).is_err());
    let items = Vec::<Variant>::try_from(Variant::from(vec![Variant::Nil])).ok();
    assert_eq!(items, Some(vec![Variant::Nil]));
    let path = NodePath {
        names: vec!["a".into()],
        subnames: vec![],
        absolute: false,
    };
    assert_eq!(
        NodePath::try_from(Variant::NodePath(Box::new(path.clone()))).ok(),
        Some(path)
    );
}

#[test]
fn variant_type_and_accessors() {
    assert_eq!(Variant::Nil.variant_type(), VariantType::Nil);
    assert_eq!(
        Variant::ObjectId(ObjectId(1)).variant_type(),
        VariantType::Object
    );
    assert_eq!(
        Variant::Object(Box::default()).variant_type(),
        VariantType::Object
    );
    assert_eq!(Variant::from(vec![]).variant_type(), VariantType::Array);
    assert!(Variant::Nil.is_nil());
    assert!(!Variant::Bool(false).is_nil());
    assert_eq!(Variant::Bool(true).as_bool(), Some(true));
    assert_eq!(Variant::Int(1).as_bool(), None);
    assert_eq!(Variant::Int(-4).as_int(), Some(-4));
    assert_eq!(Variant::Float(1.0).as_int(), None);
    assert_eq!(Variant::Int(3).as_float(), Some(3.0));
    assert_eq!(Variant::Float(2.5).as_float(), Some(2.5));
    assert_eq!(Variant::Bool(true).as_float(), None);
    assert_eq!(
        Variant::StringName(StringName("sn".into())).as_str(),
        Some("sn")
    );
    assert_eq!(Variant::from("s").as_str(), Some("s"));
    assert_eq!(Variant::NodePath(Box::default()).as_str(), None);
    let v = Variant::Vector2(Vector2 { x: 1.0, y: 2.0 });
    assert_eq!(v.as_vector2(), Some(&Vector2 { x: 1.0, y: 2.0 }));
    assert_eq!(v.as_vector2i(), None);
    let mut a = Variant::from(vec![Variant::Int(1)]);
    assert_eq!(a.as_array().map(|a| a.len()), Some(1));
    assert!(a.as_dictionary().is_none());
    a.as_array_mut().expect("array").push(2);
    assert_eq!(a[1], Variant::Int(2));
}

#[test]
fn index_reads_and_never_panics() {
    let mut inner = Dictionary::new();
    inner.insert(
        Variant::StringName(StringName("hp".into())),
        Variant::Int(7),
    );
    let mut outer = Dictionary::new();
    outer.insert("player".into(), Variant::Dictionary(inner));
    outer.insert(
        "list".into(),
        Variant::from(vec![Variant::from("x"), Variant::Nil]),
    );
    outer.insert(Variant::Int(5), "five".into());
    let v = Variant::Dictionary(outer);
    assert_eq!(v["player"]["hp"], Variant::Int(7)); // StringName key found by &str
    assert_eq!(v["list"][0], Variant::from("x"));
    assert_eq!(v["list"][9], Variant::Nil);
    assert_eq!(v["missing"], Variant::Nil);
    assert_eq!(v[0], Variant::Nil); // a Dictionary is not indexed by position
    assert_eq!(v["player"][0]["x"], Variant::Nil);
    assert_eq!(Variant::Int(1)["a"], Variant::Nil);
}

#[test]
fn dictionary_keeps_insertion_order() {
    let mut d = Dictionary::new();
    for (k, v) in [("z", 1), ("a", 2), ("m", 3)] {
        assert_eq!(d.insert(k.into(), v.into()), None);
    }
    // Inserting an existing key keeps its position and returns the old value.
    assert_eq!(d.insert("z".into(), 10.into()), Some(Variant::Int(1)));
    let keys: Vec<&str> = d.keys().filter_map(Variant::as_str).collect();
    assert_eq!(keys, ["z", "a", "m"]);
    assert_eq!(d.get("z"), Some(&Variant::Int(10)));
    // Removing keeps the order of the rest.
    assert_eq!(d.remove("a"), Some(Variant::Int(2)));
    assert_eq!(d.remove("a"), None);
    let keys: Vec<&str> = d.keys().filter_map(Variant::as_str).collect();
    assert_eq!(keys, ["z", "m"]);
    d.insert("a".into(), 4.into());
    let values: Vec<i64> = d.values().filter_map(Variant::as_int).collect();
    assert_eq!(values, [10, 3, 4]);
    assert_eq!(d.len(), 3);
}

#[test]
fn dictionary_lookups_by_kind_of_key() {
    let mut d = Dictionary::new();
    d.insert(Variant::Int(1), "int".into());
    d.insert(Variant::Float(1.0), "float".into());
    d.insert(Variant::Bool(true), "bool".into());
    d.insert(Variant::StringName(StringName("k".into())), "name".into());
    assert_eq!(d.get(1), Some(&Variant::from("int")));
    assert_eq!(d.get(1i64), Some(&Variant::from("int")));
    assert_eq!(d.get(&Variant::Float(1.0)), Some(&Variant::from("float")));
    assert_eq!(d.get(true), Some(&Variant::from("bool")));
    assert_eq!(d.get(false), None);
    assert_eq!(d.get("k"), Some(&Variant::from("name")));
    assert_eq!(d.get(&String::from("k")), Some(&Variant::from("name")));
    // A &Variant key matches exactly: a String is not the StringName.
    assert_eq!(d.get(&Variant::from("k")), None);
    assert!(d.contains_key(1));
    assert!(!d.contains_key(2));
    if let Some(v) = d.get_mut("k") {
        *v = Variant::Nil;
    }
    assert_eq!(d.get("k"), Some(&Variant::Nil));
    for (_, v) in d.iter_mut() {
        *v = Variant::Int(0);
    }
    assert!(d.values().all(|v| *v == Variant::Int(0)));
    assert_eq!(
        d.remove_entry(true),
        Some((Variant::Bool(true), Variant::Int(0)))
    );
}

#[test]
fn dictionary_collect_extend_and_iterate() {
    let mut d: Dictionary = [("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
    assert_eq!(d.len(), 2);
    assert_eq!(d.get("a"), Some(&Variant::Int(3)));
    d.extend([("c", Variant::Nil)]);
    let pairs: Vec<(Variant, Variant)> = d.clone().into_iter().collect();
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs[2], (Variant::from("c"), Variant::Nil));
    assert_eq!((&d).into_iter().count(), 3);
    d.clear();
    assert!(d.is_empty());
}

#[test]
fn typed_containers() {
    let int = ContainerType::Builtin(VariantType::Int);
    let mut a = Array::typed(int.clone());
    assert!(a.is_typed());
    assert!(!Array::new().is_typed());
    a.push(1);
    a.push(2);
    assert_eq!(a.element_type, int);
    assert_eq!(a.len(), 2); // Vec methods through Deref
    assert_eq!(a.iter().filter_map(Variant::as_int).sum::<i64>(), 3);
    a.retain(|v| *v != Variant::Int(1));
    assert_eq!(a.items, [Variant::Int(2)]);
    let collected: Array = (0..3).map(Variant::from).collect();
    assert!(!collected.is_typed());
    assert_eq!((&collected).into_iter().count(), 3);
    assert_eq!(collected.clone().into_vec().len(), 3);
    assert_eq!(collected.into_iter().last(), Some(Variant::Int(2)));

    let d = Dictionary::typed(ContainerType::ClassName("Node".into()), int);
    assert!(d.is_typed());
    assert!(!Dictionary::new().is_typed());
    assert_eq!(
        Variant::Dictionary(d).to_string(),
        "Dictionary[Node, int]({})"
    );
}

#[test]
fn variant_is_compact() {
    // The largest inline payloads (String, Vec, Rect2 / Vector4 / Color) are 24 bytes with
    // f32 reals, 32 with f64 ones; plus the tag.
    #[cfg(not(feature = "double-precision"))]
    assert_eq!(size_of::<Variant>(), 32);
    #[cfg(feature = "double-precision")]
    assert_eq!(size_of::<Variant>(), 40);
    // A Dictionary is two words inline: its entries' block and its optional boxed types and
    // index; an empty one allocates nothing.
    assert_eq!(size_of::<godot_serde::Dictionary>(), 2 * size_of::<usize>());
}

#[test]
fn variant_macro_builds_every_form() {
    use godot_serde::{
        Color, Dictionary, NodePath, Rect2, Rect2i, StringName, Vector2i, Vector3, Vector3i,
        Vector4, Vector4i, variant,
    };
    assert_eq!(variant!(null), Variant::Nil);
    assert_eq!(variant!([]), Variant::from(Vec::<Variant>::new()));
    assert_eq!(variant!({}), Variant::from(Dictionary::new()));
    assert_eq!(variant!(-5), Variant::Int(-5));
    assert_eq!(variant!(2 + 3), Variant::Int(5));
    assert_eq!(
        variant!([1, -2, "x", [true, null],]),
        Variant::from(vec![
            Variant::Int(1),
            Variant::Int(-2),
            Variant::from("x"),
            Variant::from(vec![Variant::Bool(true), Variant::Nil]),
        ])
    );
    let key = "k";
    let d = variant!({key: 1, (10 + 1): -2.5, "v": Vector2i(1, -2)});
    assert_eq!(d["k"], Variant::Int(1));
    assert_eq!(
        d.as_dictionary().unwrap().get(11),
        Some(&Variant::Float(-2.5))
    );
    assert_eq!(d["v"], Variant::Vector2i(Vector2i::new(1, -2)));
    assert_eq!(
        variant!(Vector3(1, 2, 3.5)),
        Variant::Vector3(Vector3::new(1.0, 2.0, 3.5))
    );
    assert_eq!(variant!(Vector3i(1, 2, 3)), Vector3i::new(1, 2, 3).into());
    assert_eq!(
        variant!(Vector4(1, 2, 3, 4)),
        Vector4::new(1.0, 2.0, 3.0, 4.0).into()
    );
    assert_eq!(
        variant!(Vector4i(1, 2, 3, 4)),
        Vector4i::new(1, 2, 3, 4).into()
    );
    assert_eq!(
        variant!(Rect2(1, 2, 3, 4)),
        Rect2::new(
            godot_serde::Vector2::new(1.0, 2.0),
            godot_serde::Vector2::new(3.0, 4.0)
        )
        .into()
    );
    assert_eq!(
        variant!(Rect2i(1, 2, 3, 4)),
        Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4)).into()
    );
    assert_eq!(
        variant!(Color(1, 0.5, 0, 1)),
        Color::new(1.0, 0.5, 0.0, 1.0).into()
    );
    assert_eq!(variant!(&"n"), StringName::from("n").into());
    assert_eq!(variant!(^"a/b:c"), NodePath::from("a/b:c").into());
}

#[test]
fn index_mut_inserts_and_pointer_walks() {
    use godot_serde::variant;
    let mut v = Variant::Nil;
    v["a"]["b"] = 1.into();
    assert_eq!(v, variant!({"a": {"b": 1}}));
    v["a"]["list"] = variant!([0, 1]);
    v["a"]["list"][1] = "one".into();
    assert_eq!(v.pointer("/a/list/1"), Some(&Variant::from("one")));
    assert_eq!(v.pointer("/a/list/01"), None); // no leading zeros
    assert_eq!(v.pointer("a"), None); // must start with '/'
    *v.pointer_mut("/a/b").unwrap() = 2.into();
    assert_eq!(v["a"]["b"], Variant::Int(2));
    // A StringName key is found and written through, not duplicated.
    let mut s = variant!({&"hp": 1});
    s["hp"] = 2.into();
    assert_eq!(s, variant!({&"hp": 2}));
    assert_eq!(s.get(String::from("hp")), Some(&Variant::Int(2)));
    let taken = v["a"].take();
    assert_eq!(taken["b"], Variant::Int(2));
    assert_eq!(v, variant!({"a": null}));
}

#[test]
#[should_panic(expected = "cannot index int with \"x\"")]
fn index_mut_on_a_non_dictionary_panics() {
    let mut v = Variant::Int(3);
    v["x"] = 1.into();
}

#[test]
#[should_panic(expected = "cannot index an Array of length 1 with 4")]
fn index_mut_past_the_end_panics() {
    let mut v = godot_serde::variant!([1]);
    v[4] = 1.into();
}
