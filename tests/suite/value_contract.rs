//! The value layer's contract, literally (issue 28): for every config of Godot 3 and
//! Godot 4,
//!
//! - `to_variant(x)` is `from_bytes::<Variant>(&to_bytes(x))`, or the error `to_bytes` gives;
//! - `from_variant::<T>(&v)` is `from_bytes::<T>(&to_bytes(&v))`, or the error either gives;
//! - a borrowing `T` (`&str`) succeeds exactly when the wire keeps `v` as it is (`v` decodes
//!   back to itself), whichever Variant it is.
//!
//! The oracle is the byte round trip; the inputs include what the wire changes or refuses
//! (a leading BOM, a NUL, types the target lacks, plain Arrays that inference types,
//! Godot 3 RIDs, integers beyond `i64`).
use crate::generate;
use crate::value_oracle;

use std::collections::BTreeMap;

use generate::Rng;
use godot_serde::*;
use serde::{Deserialize, Serialize};
use value_oracle::{agrees, configs, oracle, shown, to_variant_agrees};

/// A random Variant of any engine, with leaves the wire changes or refuses mixed in.
fn variant(rng: &mut Rng, depth: usize) -> Variant {
    let version = [GodotVersion::V3, GodotVersion::V4_4][rng.below(2) as usize];
    match rng.below(10) {
        0 => Variant::from(format!("\u{FEFF}{}", rng.string())),
        1 => Variant::from(format!("a\0{}", rng.string())),
        2 if depth > 0 => {
            // A plain Array whose elements share a type: typed by inference where it runs.
            let n = 1 + rng.below(3);
            Variant::from((0..n).map(|_| Variant::Int(rng.int())).collect::<Vec<_>>())
        }
        3 if depth > 0 => {
            let mut d = Dictionary::new();
            for _ in 0..rng.below(4) {
                d.insert(rng.string().into(), variant(rng, depth - 1));
            }
            d.into()
        }
        4 if depth > 0 => Variant::from(
            (0..rng.below(4))
                .map(|_| variant(rng, depth - 1))
                .collect::<Vec<_>>(),
        ),
        _ => rng.variant(version, depth),
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Record {
    id: u64,
    name: String,
    tags: Vec<String>,
    pos: Vector2,
    object: ObjectId,
    rid: Rid,
    extra: BTreeMap<String, Variant>,
}

#[test]
fn to_variant_is_the_byte_round_trip() {
    let mut rng = Rng::new(28);
    let mut cases = 0;
    for _ in 0..300 {
        let v = variant(&mut rng, 3);
        let record = Record {
            id: rng.next(),
            name: format!("\u{FEFF}{}", rng.string()),
            tags: vec![rng.string(), rng.string()],
            pos: rng.v2(),
            object: ObjectId(rng.next()),
            rid: Rid(rng.next()),
            extra: [("v".to_owned(), v.clone())].into(),
        };
        for config in configs() {
            to_variant_agrees(config, &v);
            to_variant_agrees(config, &record);
            cases += 2;
        }
    }
    println!("to_variant: {cases} cases");
}

#[test]
fn from_variant_is_the_byte_round_trip() {
    let mut rng = Rng::new(2828);
    let mut cases = 0;
    for _ in 0..300 {
        let v = variant(&mut rng, 3);
        for config in configs() {
            agrees::<Variant>(config, &v);
            agrees::<Vec<Variant>>(config, &v);
            agrees::<BTreeMap<String, Variant>>(config, &v);
            agrees::<String>(config, &v);
            cases += 4;
        }
    }
    println!("from_variant: {cases} cases");
}

/// Whether a borrowing read succeeds depends only on whether the wire keeps the Variant,
/// never on which path ran: every String that decodes back to itself lends its text.
#[test]
fn from_variant_lends_exactly_when_the_wire_keeps_the_value() {
    let mut rng = Rng::new(7);
    let mut lent = 0;
    for _ in 0..200 {
        let text = match rng.below(3) {
            0 => format!("\u{FEFF}{}", rng.string()),
            1 => format!("{}\0", rng.string()),
            _ => rng.string(),
        };
        let v = Variant::from(text.as_str());
        for config in configs() {
            let kept = config
                .to_bytes(&v)
                .ok()
                .and_then(|b| config.variant_from_bytes(&b).ok())
                .is_some_and(|back| back == v);
            match config.from_variant::<&str>(&v) {
                Ok(s) => {
                    assert!(kept, "{config:?} {text:?}");
                    assert_eq!(s, text);
                    lent += 1;
                }
                Err(e) => {
                    assert!(!kept, "{config:?} {text:?}: {e}");
                    // The owned read still gets what the bytes give.
                    assert_eq!(
                        shown(config.from_variant::<String>(&v)),
                        oracle::<_, String>(config, &v)
                    );
                }
            }
        }
    }
    assert!(lent > 0);
}

/// An object id above `i64::MAX` is an object id on every path (it once rode through the
/// value layer as a RID), and a RID stays a RID.
#[test]
fn object_ids_beyond_i64_stay_object_ids() {
    let id = ObjectId(u64::MAX - 1);
    for config in configs() {
        assert_eq!(
            config.to_variant(&id).unwrap(),
            Variant::ObjectId(ObjectId(u64::MAX - 1)),
            "{config:?}"
        );
        let v = config.to_variant(&(id, Rid(5))).unwrap();
        // Hand-derived: Godot 4 keeps a RID's id; Godot 3's wire has none, so it reads as 0.
        let rid = if config.version().is_godot4() { 5 } else { 0 };
        assert_eq!(
            v,
            Variant::from(vec![
                Variant::ObjectId(ObjectId(u64::MAX - 1)),
                Variant::Rid(Rid(rid))
            ]),
            "{config:?}"
        );
        // A plain u64 beyond i64 has no Godot form.
        let err = config.to_variant(&u64::MAX).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::IntegerOutOfRange(_)),
            "{config:?}: {err:?}"
        );
    }
}

/// A `T` that does not fit gets the bytes' error from `from_variant` (its kind, message and
/// path; no offset, the bytes being internal): the type names are those of the config's engine
/// (Godot 3's `PoolIntArray`, `Quat`, ...), as `from_bytes` names them, not Godot 4's.
#[test]
fn from_variant_mismatch_errors_are_the_bytes_errors() {
    /// `from_variant::<U>` and `from_bytes::<U>(&to_bytes)` fail with the same message and
    /// path, which name `name`; returns `from_variant`'s error as text.
    fn same_error<U: serde::de::DeserializeOwned + core::fmt::Debug>(
        config: Config,
        v: &Variant,
        name: &str,
    ) -> String {
        let bytes = config.to_bytes(v).unwrap();
        // The in-place path runs: the Variant decodes back to itself.
        assert_eq!(&config.variant_from_bytes(&bytes).unwrap(), v);
        let from_bytes = config
            .with_allow_objects(true)
            .from_bytes::<U>(&bytes)
            .unwrap_err();
        let from_variant = config.from_variant::<U>(v).unwrap_err();
        assert_eq!(
            (from_variant.kind().to_string(), from_variant.path()),
            (from_bytes.kind().to_string(), from_bytes.path()),
            "{config:?} {v:?}"
        );
        assert_eq!(from_variant.offset(), None);
        let text = from_variant.to_string();
        assert!(
            text.contains(name),
            "{config:?}: {text:?} should name {name}"
        );
        text
    }
    let ints = Variant::PackedInt32Array(PackedInt32Array(vec![1, 2]));
    let floats = Variant::PackedFloat32Array(PackedFloat32Array(vec![1.5]));
    let quat = Variant::Quaternion(Quaternion::new(0.0, 0.0, 0.0, 1.0));
    let strings = Variant::PackedStringArray(PackedStringArray(vec!["a".into()]));
    let nested = Variant::from(vec![Variant::from(vec![ints.clone()])]);
    // Godot 3's names (`core/variant.cpp`, `Variant::get_type_name` in 3.2.3), then Godot 4's.
    for (config, names) in [
        (
            Config::godot3(),
            ["PoolIntArray", "PoolRealArray", "Quat", "PoolStringArray"],
        ),
        (
            Config::godot4(),
            [
                "PackedInt32Array",
                "PackedFloat32Array",
                "Quaternion",
                "PackedStringArray",
            ],
        ),
    ] {
        same_error::<String>(config, &ints, names[0]);
        same_error::<u8>(config, &floats, names[1]);
        same_error::<Vec<f32>>(config, &quat, names[2]);
        same_error::<bool>(config, &strings, names[3]);
        // Inside containers the message also gives the path.
        let e = same_error::<Vec<Vec<String>>>(config, &nested, names[0]);
        assert!(e.starts_with("[0][0]: "), "{e}");
    }
    // A Godot 3 message names no Godot 4 type.
    let e = same_error::<String>(Config::godot3(), &ints, "PoolIntArray");
    assert_eq!(e, "invalid type: PoolIntArray, expected a string");
}

#[derive(Deserialize, Debug, PartialEq)]
enum Dir {
    North,
    South,
}

/// The String fields inside a Godot type (a PackedStringArray's elements) read as unit enum
/// variants on every path, as a top-level String does and as serde's own string
/// deserializers answer an enum (`serde_json` reads `["North"]` as `Vec<Dir>` too).
#[test]
fn string_fields_read_as_unit_variants_on_every_path() {
    let v = Variant::from(PackedStringArray(vec!["South".into(), "North".into()]));
    let want = vec![Dir::South, Dir::North];
    for config in configs() {
        let bytes = config.to_bytes(&v).unwrap();
        assert_eq!(config.from_bytes::<Vec<Dir>>(&bytes).unwrap(), want);
        let reader: Vec<Dir> = config.from_reader(bytes.as_slice()).unwrap();
        assert_eq!(reader, want);
        assert_eq!(config.from_variant::<Vec<Dir>>(&v).unwrap(), want);
    }
    // The value layer, borrowed and owned.
    assert_eq!(Vec::<Dir>::deserialize(&v).unwrap(), want);
    assert_eq!(Vec::<Dir>::deserialize(v.clone()).unwrap(), want);
    // A name that is no variant: serde's error, the same text on both paths.
    let bad = Variant::from(PackedStringArray(vec!["Up".into()]));
    let from_bytes = from_bytes::<Vec<Dir>>(&to_bytes(&bad).unwrap()).unwrap_err();
    let from_value = Vec::<Dir>::deserialize(&bad).unwrap_err();
    assert_eq!(
        from_bytes.kind().to_string(),
        "unknown variant `Up`, expected `North` or `South`"
    );
    assert_eq!(from_value.kind().to_string(), from_bytes.kind().to_string());
}

/// A map visitor that asks for a value before its key (a buggy `Deserialize`).
#[derive(Debug)]
struct ValueFirst;

impl<'de> Deserialize<'de> for ValueFirst {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = ValueFirst;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> core::result::Result<ValueFirst, A::Error> {
                map.next_value::<Variant>()?;
                Ok(ValueFirst)
            }
        }
        d.deserialize_map(Visit)
    }
}

/// The value layer's map access answers a value asked for before its key with an error
/// (serde's own `MapDeserializer` panics there).
#[test]
fn value_before_key_is_an_error() {
    let v = variant!({"a": 1});
    let e = ValueFirst::deserialize(&v).unwrap_err();
    assert_eq!(e.to_string(), "Dictionary value requested before its key");
    let e = ValueFirst::deserialize(v).unwrap_err();
    assert_eq!(e.to_string(), "Dictionary value requested before its key");
}

/// The tree compare `from_variant` made on every call before it decided most Variants from
/// the Variant alone: encode, decode the bytes (objects allowed) and compare by Godot's key
/// equality (`DictionaryKey` for `&Variant`), or the kind of the encoding error.
fn kept_by_the_bytes(config: Config, v: &Variant) -> core::result::Result<bool, String> {
    let bytes = config.to_bytes(v).map_err(|e| value_oracle::kind(&e))?;
    Ok(config
        .with_allow_objects(true)
        .variant_from_bytes(&bytes)
        .is_ok_and(|back| DictionaryKey::matches_key(&&back, v)))
}

/// `from_variant`'s decision on `v` against the tree compare: the same answer both ways
/// (in place exactly when the bytes decode back to `v`, the same encoding error), and the
/// answer from the Variant alone only ever a kept Variant. Returns whether the Variant alone
/// decided.
fn decides_as_the_bytes(config: Config, v: &Variant) -> bool {
    let oracle = kept_by_the_bytes(config, v);
    let decided = config
        .__from_variant_in_place(v, false)
        .map_err(|e| value_oracle::kind(&e));
    assert_eq!(decided, oracle, "{config:?} {v:?}");
    let alone = config.__from_variant_in_place(v, true).unwrap();
    assert!(!alone || oracle == Ok(true), "{config:?} {v:?}: {oracle:?}");
    alone
}

/// `configs()`, and the settings that only some Variants meet: sorted maps, a depth limit of
/// 2, objects allowed in Godot 4, f64 math components for Godot 3 (which has none).
fn contract_configs() -> Vec<Config> {
    let mut out = configs();
    out.push(Config::godot3().with_double_precision(true));
    for version in [GodotVersion::V3, GodotVersion::V4_4] {
        out.push(Config::new(version).with_sorted_maps(true));
        out.push(Config::new(version).with_max_depth(2));
    }
    out.push(Config::godot4().with_allow_objects(true));
    out
}

/// Nested plain Arrays: `levels` of them around an int.
fn nested(levels: usize) -> Variant {
    (0..levels).fold(Variant::Int(1), |v, _| Variant::from(vec![v]))
}

/// Every rule by which the wire changes or refuses a Variant, next to the same Variant
/// without it: each must get the tree compare's answer, whichever way it is decided.
fn edge_cases() -> Vec<Variant> {
    let dict = |entries: Vec<(Variant, Variant)>| {
        let mut d = Dictionary::new();
        for (k, v) in entries {
            d.insert(k, v);
        }
        Variant::Dictionary(d)
    };
    let name = |s: &str| Variant::StringName(StringName(s.into()));
    let ints = || vec![Variant::Int(1), Variant::Int(2)];
    let mut typed_ints = Array::typed(ContainerType::Builtin(VariantType::Int));
    typed_ints.extend(ints());
    let mut typed_dict = Dictionary::typed(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Builtin(VariantType::Int),
    );
    typed_dict.insert("a".into(), 1.into());
    let mut by_class = Array::typed(ContainerType::ClassName("Node".into()));
    by_class.push(Variant::ObjectId(ObjectId(3)));
    let mut by_script = Array::typed(ContainerType::Script("res://a.gd".into()));
    by_script.push(Variant::Nil);
    let mut bad_script = Array::typed(ContainerType::Script("a.gd".into()));
    bad_script.push(Variant::Nil);
    // Builtin element types that are no typing on the wire (NIL) or that the object policy
    // rewrites (OBJECT), a type only 4.3+ has, and elements of another type than the Array's.
    let typed = |ty: VariantType, items: Vec<Variant>| {
        let mut a = Array::typed(ContainerType::Builtin(ty));
        a.extend(items);
        Variant::from(a)
    };
    let typed_dicts = [
        (VariantType::Nil, VariantType::Int),
        (VariantType::String, VariantType::Object),
        (VariantType::Vector4, VariantType::PackedVector4Array),
    ]
    .map(|(k, v)| {
        let mut d = Dictionary::typed(ContainerType::Builtin(k), ContainerType::Builtin(v));
        d.insert("k".into(), Variant::Nil);
        Variant::Dictionary(d)
    });
    let mut value_typed = Dictionary::new();
    value_typed.set_value_type(ContainerType::Builtin(VariantType::Int));
    value_typed.insert("k".into(), 1.into());
    vec![
        // Text: a leading BOM is dropped, a NUL refused; elsewhere a BOM stays.
        "".into(),
        "plain".into(),
        "a string longer than the twenty-four inline bytes".into(),
        "\u{FEFF}bom".into(),
        "a\u{FEFF}".into(),
        "nul\0".into(),
        name("sn"),
        name("\u{FEFF}sn"),
        name("a\0"),
        // Keys: two that the wire makes one, reserved marker names, a BOM key.
        dict(vec![("\u{FEFF}a".into(), 1.into()), ("a".into(), 2.into())]),
        dict(vec![("\u{FEFF}a".into(), 1.into())]),
        dict(vec![("$godot_serde::Vector2".into(), ints().into())]),
        dict(vec![(name("$godot_serde::Vector2"), 1.into())]),
        dict(vec![(name("k"), 1.into()), ("k".into(), 2.into())]),
        dict(vec![
            (Variant::Int(1), "x".into()),
            (Variant::Float(1.0), "y".into()),
        ]),
        // Order: sorted maps reorder the first, keep the second.
        dict(vec![("b".into(), 1.into()), ("a".into(), 2.into())]),
        dict(vec![("a".into(), 1.into()), ("b".into(), 2.into())]),
        // Numbers: every int and float comes back (floats as f32 only when exact).
        Variant::Int(i64::MAX),
        Variant::Int(i64::from(i32::MIN)),
        Variant::Float(0.1),
        Variant::Float(-0.0),
        Variant::Float(f64::NAN),
        Variant::Float(1e300),
        Variant::Float(f64::INFINITY),
        Variant::Vector2(Vector2::new(0.1, -2.5)),
        Variant::Vector2i(Vector2i::new(1, 2)),
        Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
        Variant::Color(Color::new(0.1, 0.2, 0.3, 1.0)),
        Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(0.1, 1.0)])),
        Variant::PackedVector4Array(PackedVector4Array(vec![Vector4::new(1.0, 0.0, 0.0, 0.0)])),
        Variant::PackedInt64Array(PackedInt64Array(vec![i64::MIN])),
        Variant::PackedFloat64Array(PackedFloat64Array(vec![0.1])),
        Variant::PackedStringArray(PackedStringArray(vec!["a".into(), String::new()])),
        Variant::PackedStringArray(PackedStringArray(vec!["\u{FEFF}a".into()])),
        Variant::PackedStringArray(PackedStringArray(vec!["a\0".into()])),
        Variant::PackedByteArray(PackedByteArray(vec![0, 1, 2])),
        // Ids: Godot 3's RID has none, object id 0 is nil.
        Variant::Rid(Rid(0)),
        Variant::Rid(Rid(5)),
        Variant::ObjectId(ObjectId(0)),
        Variant::ObjectId(ObjectId(7)),
        Variant::Callable(Callable),
        Variant::Signal(Box::new(Signal::new("hit", ObjectId(9)))),
        Variant::Signal(Box::new(Signal::new("\u{FEFF}hit", ObjectId(9)))),
        Variant::NodePath(Box::new(NodePath {
            names: vec!["a".into()],
            subnames: vec!["\u{FEFF}b".into()],
            absolute: true,
        })),
        Variant::NodePath(Box::new(NodePath {
            names: vec!["a".into(), "\u{FEFF}b".into()],
            subnames: vec!["c".into()],
            absolute: false,
        })),
        Variant::NodePath(Box::new(NodePath {
            names: vec!["a".into(), "b".into()],
            subnames: vec!["c".into()],
            absolute: true,
        })),
        Variant::NodePath(Box::new(NodePath {
            names: vec!["a\0".into()],
            subnames: vec![],
            absolute: false,
        })),
        Variant::NodePath(Box::default()),
        Variant::NodePath(Box::new(NodePath {
            absolute: true,
            ..NodePath::default()
        })),
        Variant::Signal(Box::new(Signal::new("hit", ObjectId(0)))),
        Variant::Signal(Box::new(Signal::new("a\0", ObjectId(1)))),
        Variant::Object(Box::new(Object {
            class: "Node".into(),
            properties: vec![("name".into(), "n".into())],
        })),
        Variant::Object(Box::default()),
        // An object's class and property names follow the text and key rules.
        Variant::Object(Box::new(Object {
            class: "\u{FEFF}Node".into(),
            properties: vec![],
        })),
        Variant::Object(Box::new(Object {
            class: "Node".into(),
            properties: vec![("\u{FEFF}name".into(), 1.into())],
        })),
        Variant::Object(Box::new(Object {
            class: "Node".into(),
            properties: vec![("$godot_serde::Vector2".into(), 1.into())],
        })),
        // Containers: inference types a plain Array of ints, not a mixed one; typing the
        // target lacks or turns into EncodedObjectAsID.
        ints().into(),
        vec![Variant::Int(1), "a".into()].into(),
        Variant::from(Vec::<Variant>::new()),
        Variant::from(typed_ints),
        Variant::Dictionary(typed_dict),
        Variant::from(by_class),
        Variant::from(by_script),
        Variant::from(bad_script),
        typed(VariantType::Nil, ints()),
        typed(VariantType::Object, vec![Variant::ObjectId(ObjectId(4))]),
        typed(VariantType::PackedVector4Array, vec![]),
        typed(VariantType::String, ints()),
        typed(VariantType::Array, vec![ints().into()]),
        Variant::Dictionary(value_typed),
        dict(vec![("k".into(), ints().into())]),
        // Depth: 2 levels fit a limit of 2, 3 do not; an empty container at the limit.
        typed_dicts[0].clone(),
        typed_dicts[1].clone(),
        typed_dicts[2].clone(),
        nested(2),
        nested(3),
        Variant::from(vec![Variant::from(vec![Variant::from(
            Vec::<Variant>::new(),
        )])]),
        Variant::from(vec![dict(vec![("a".into(), dict(vec![]))])]),
    ]
}

/// `from_variant` decides in place or from the bytes exactly as the tree compare it replaced
/// (encode, decode into a second tree, compare) does, on every contract edge case and on
/// random Variants, in every config; and the Variant alone decides the common values.
#[test]
fn from_variant_decides_as_the_tree_compare() {
    let mut alone = 0;
    let mut cases = 0;
    for v in edge_cases() {
        for config in contract_configs() {
            alone += usize::from(decides_as_the_bytes(config, &v));
            cases += 1;
            // And what it then reads is what the bytes give.
            agrees::<Variant>(config, &v);
        }
        // Inside containers too, where the depth, the keys and inference apply.
        let wrapped = Variant::from(vec![Variant::from(vec![v.clone()]), 1.into()]);
        let mut d = Dictionary::new();
        d.insert("v".into(), v.clone());
        d.insert(v.clone(), Variant::Nil);
        for config in contract_configs() {
            decides_as_the_bytes(config, &wrapped);
            decides_as_the_bytes(config, &Variant::Dictionary(d.clone()));
            cases += 2;
        }
    }
    let mut rng = Rng::new(3737);
    for _ in 0..400 {
        let v = variant(&mut rng, 3);
        for config in contract_configs() {
            alone += usize::from(decides_as_the_bytes(config, &v));
            cases += 1;
        }
    }
    println!("{cases} cases, {alone} decided from the Variant alone");

    // The common values are decided without bytes: what `to_variant` gives for plain records
    // (no BOM, no NUL, no ids) wherever no inference types its Arrays.
    #[derive(Serialize)]
    struct Player {
        name: String,
        hp: i32,
        pos: Vector2,
        tags: Vec<String>,
        stats: BTreeMap<String, f64>,
    }
    let players: Vec<Player> = (0..3)
        .map(|i| Player {
            name: format!("player{i}"),
            hp: i * 7,
            pos: Vector2::new(0.5, -1.0),
            tags: vec!["a".into(), "b".into()],
            stats: [("speed".to_owned(), 1.5)].into(),
        })
        .collect();
    for config in contract_configs() {
        // The tags are Strings at depth 3; Godot 3 has no f64 components to write `pos` with.
        if config.max_depth() < 3 || (config.double_precision() && !config.version().is_godot4()) {
            continue;
        }
        let v = config.to_variant(&players).unwrap();
        let inferring = config.typed_containers() && config.version().has_typed_arrays();
        // With the `double-precision` feature, f64 components written as f32 are rounded.
        let reals = size_of::<Real>() == 4 || config.double_precision();
        // Sorted maps write the record's keys in another order.
        let sorted = config != config.with_sorted_maps(false);
        assert_eq!(
            decides_as_the_bytes(config, &v),
            !inferring && reals && !sorted,
            "{config:?}"
        );
    }
}
