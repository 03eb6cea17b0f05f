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
use value_oracle::{configs, oracle, shown};

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
            assert_eq!(
                shown(config.to_variant(&v)),
                oracle::<_, Variant>(config, &v),
                "{config:?} {v:?}"
            );
            assert_eq!(
                shown(config.to_variant(&record)),
                oracle::<_, Variant>(config, &record),
                "{config:?} {record:?}"
            );
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
            assert_eq!(
                shown(config.from_variant::<Variant>(&v)),
                oracle::<_, Variant>(config, &v),
                "{config:?} {v:?}"
            );
            assert_eq!(
                shown(config.from_variant::<Vec<Variant>>(&v)),
                oracle::<_, Vec<Variant>>(config, &v),
                "{config:?} {v:?}"
            );
            assert_eq!(
                shown(config.from_variant::<BTreeMap<String, Variant>>(&v)),
                oracle::<_, BTreeMap<String, Variant>>(config, &v),
                "{config:?} {v:?}"
            );
            assert_eq!(
                shown(config.from_variant::<String>(&v)),
                oracle::<_, String>(config, &v),
                "{config:?} {v:?}"
            );
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
