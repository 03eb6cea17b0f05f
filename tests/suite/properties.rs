//! Property tests: random Variants and random derived structs round-trip for every engine.
use crate::generate;
use generate::{Action, Rng};
use godot_serde::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const VERSIONS: [GodotVersion; 4] = [
    GodotVersion::V3,
    GodotVersion::V4_0,
    GodotVersion::V4_3,
    GodotVersion::V4_4,
];

#[test]
fn random_variants_round_trip_for_every_engine() {
    let mut count = 0;
    for version in VERSIONS {
        let config = Config::new(version).with_allow_objects(true);
        let mut rng = Rng::new(version as u64 + 1);
        for _ in 0..3000 {
            let v = rng.variant(version, 3);
            let bytes = config
                .to_bytes(&v)
                .unwrap_or_else(|e| panic!("{e} for {v:?}"));
            assert_eq!(bytes.len() % 4, 0, "every value is a multiple of 4 bytes");
            assert_eq!(config.serialized_size(&v).unwrap(), bytes.len());
            let back: Variant = config
                .from_bytes(&bytes)
                .unwrap_or_else(|e| panic!("{e} for {v:?}"));
            assert_eq!(back, v);
            assert_eq!(
                config.to_bytes(&back).unwrap(),
                bytes,
                "re-encoding is byte-identical"
            );
            let from_reader: Variant = config.from_reader(&bytes[..]).unwrap();
            assert_eq!(from_reader, v);
            count += 1;
        }
    }
    assert_eq!(count, 12000);
}

#[test]
fn double_precision_variants_round_trip() {
    let config = Config::godot4()
        .with_double_precision(true)
        .with_allow_objects(true);
    let mut rng = Rng::new(99);
    for _ in 0..2000 {
        let v = rng.variant(GodotVersion::V4_4, 2);
        let bytes = config.to_bytes(&v).unwrap();
        let back: Variant = config.from_bytes(&bytes).unwrap();
        // f32 components widen to f64 exactly and narrow back to the same f32.
        assert_eq!(back, v);
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Inner {
    a: i16,
    b: Option<String>,
    c: Vec<u64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    id: u32,
    big: i64,
    ratio: f64,
    name: String,
    flag: bool,
    pos: Vector3,
    color: Color,
    path: NodePath,
    tags: PackedStringArray,
    heights: PackedFloat32Array,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    inner: Vec<Inner>,
    maybe: Option<Inner>,
    actions: Vec<Action>,
    scores: BTreeMap<String, i32>,
    by_id: BTreeMap<u32, (bool, char)>,
    unit: (),
}

fn record(rng: &mut Rng) -> Record {
    let n = rng.below(4) as usize;
    Record {
        id: rng.next() as u32,
        big: rng.int(),
        ratio: rng.float(),
        name: rng.string(),
        flag: rng.bool(),
        pos: rng.v3(),
        color: rng.color(),
        path: rng.node_path(),
        tags: PackedStringArray((0..n).map(|_| rng.string()).collect()),
        heights: PackedFloat32Array((0..n).map(|_| rng.f32()).collect()),
        blob: (0..rng.below(9)).map(|_| rng.next() as u8).collect(),
        inner: (0..n)
            .map(|_| Inner {
                a: rng.next() as i16,
                b: rng.bool().then(|| rng.string()),
                c: vec![rng.next() >> 1; n],
            })
            .collect(),
        maybe: rng.bool().then(|| Inner {
            a: 1,
            b: None,
            c: vec![],
        }),
        actions: (0..n).map(|_| rng.action()).collect(),
        scores: (0..n).map(|_| (rng.string(), rng.next() as i32)).collect(),
        by_id: (0..n)
            .map(|_| (rng.next() as u32, (rng.bool(), 'ß')))
            .collect(),
        unit: (),
    }
}

#[test]
fn random_derived_structs_round_trip_for_every_engine() {
    for version in VERSIONS {
        for repr in [EnumRepr::Name, EnumRepr::Index] {
            for typed in [false, true] {
                let config = Config::new(version)
                    .with_enum_repr(repr)
                    .with_typed_containers(typed);
                let mut rng = Rng::new(7 + version as u64);
                for _ in 0..300 {
                    let r = record(&mut rng);
                    let bytes = config.to_bytes(&r).unwrap();
                    assert_eq!(config.serialized_size(&r).unwrap(), bytes.len());
                    assert_eq!(config.from_bytes::<Record>(&bytes).unwrap(), r);
                    assert_eq!(config.from_reader::<_, Record>(&bytes[..]).unwrap(), r);
                    // Through a Variant and back: nothing is lost.
                    let v: Variant = config.from_bytes(&bytes).unwrap();
                    assert_eq!(config.to_bytes(&v).unwrap(), bytes);
                    assert_eq!(config.from_variant::<Record>(&v).unwrap(), r);
                }
            }
        }
    }
}
