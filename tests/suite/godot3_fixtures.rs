//! Godot 3 conformance, no engine needed: every record of `tests/fixtures/godot3/vectors.jsonl`
//! (written by a real Godot 3.2.3) and of `spec_examples.jsonl` (the spec's 3.x examples)
//! decodes into the Variant written per case (in `conformance/godot3_values.rs` and here), and re-encodes byte for byte (NodePath
//! padding, leftover memory in the engine's output, masked).

use crate::common;
use crate::conformance;

use conformance::godot3_values::{BAD_INPUT_VERDICT_DIFFERS, vector_value};
use conformance::spec_values::shared_spec_value;
use conformance::*;
use godot_serde::{Config, Rid, Transform3D, Variant, Vector3};
use serde_json::Value;

const G3: Config = Config::godot3();

/// The value of each 3.x spec example (those the 4.x examples share: `shared_spec_value`).
fn spec_value(name: &str) -> Variant {
    match name {
        // Godot 3 writes no RID payload: it reads back as RID 0.
        "value_rid_with_raw_id_5" => Variant::Rid(Rid(0)),
        // Godot 3.0.x wrote every int in the 64-bit form.
        "capture_3_0_6_put_var_neg_1_12" => arr(vec![i(-1), i(12)]),
        "capture_3_0_6_put_var_test_aze" => arr(vec![s("test"), s("aze")]),
        "capture_3_2_3_var2bytes_nodepath_path2d_pathfollow2d_sprite" => np(
            &["Path2D", "PathFollow2D", "Sprite"],
            &["position", "x"],
            false,
        ),
        other => shared_spec_value(other)
            .unwrap_or_else(|| panic!("spec example {other} has no expected value")),
    }
}

#[test]
fn vectors() {
    let allow = G3.with_allow_objects(true);
    let (mut cases, mut masked_bytes, mut with_padding) = (0, 0, 0);
    let (mut per_process, mut full_objects, mut texts) = (0, 0, 0);
    for rec in records("godot3/vectors.jsonl") {
        let n = name(&rec);
        let want = vector_value(n);
        let bytes = unhex(field(&rec, "hex").unwrap());
        let canonical = unhex(field(&rec, "hex_canonical").unwrap());
        let pad = offsets(&rec, "nodepath_padding");
        assert_eq!(masked(&bytes, &pad), canonical, "{n}: hex_canonical");
        masked_bytes += pad.len();
        with_padding += usize::from(bytes != canonical);

        // Decode the engine's exact bytes (garbage padding included).
        let value: Variant = allow
            .from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{n}: {e}"));
        if rec["per_process"] == Value::Bool(true) {
            // Sent as an instance id of an object of the engine's process: the id is the
            // last 8 bytes in these records.
            assert!(objects_as_ids(&value, &want), "{n}: {value:?}");
            let id = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
            let found = match &value {
                Variant::ObjectId(o) => Some(o.0),
                Variant::Array(a) => a.last().and_then(Variant::as_object_id).map(|o| o.0),
                _ => None,
            };
            assert_eq!(found, Some(id), "{n}: object id");
            per_process += 1;
        } else {
            assert_same(&value, &want, n);
            // Encoding the expected value gives the engine's bytes.
            let ours = G3.to_bytes(&want).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert_eq!(tohex(&ours), tohex(&canonical), "{n}: encoding");
            // var2str agrees too (not for objects: the engine prints the live instance).
            if field(&rec, "type") != Some("Object") {
                let text = field(&rec, "var2str").unwrap();
                assert_eq!(value.to_godot3_string(), text, "{n}: var2str");
                texts += 1;
            }
        }
        // Decoding then encoding gives the same bytes.
        let again = G3.to_bytes(&value).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!(tohex(&again), tohex(&canonical), "{n}: re-encoding");
        if let Some(full) = field(&rec, "hex_full_objects") {
            let full = unhex(full);
            assert!(
                G3.from_bytes::<Variant>(&full).is_err(),
                "{n}: full objects need allow_objects"
            );
            let value: Variant = allow
                .from_bytes(&full)
                .unwrap_or_else(|e| panic!("{n}: full objects: {e}"));
            assert_same(&value, &want, n);
            assert_eq!(tohex(&allow.to_bytes(&value).unwrap()), tohex(&full), "{n}");
            assert_eq!(tohex(&allow.to_bytes(&want).unwrap()), tohex(&full), "{n}");
            full_objects += 1;
        }
        cases += 1;
    }
    eprintln!(
        "godot3 vectors: {cases} records passed ({per_process} with per-process object ids, \
         {full_objects} full-object encodings, {texts} var2str texts); {masked_bytes} NodePath \
         padding bytes masked in {with_padding} records whose padding was not zero"
    );
    assert_eq!((cases, per_process, full_objects), (176, 5, 5));
}

#[test]
fn spec_examples() {
    let mut cases = 0;
    for rec in records("godot3/spec_examples.jsonl") {
        let n = name(&rec);
        let bytes = unhex(field(&rec, "hex").unwrap());
        assert!(
            offsets(&rec, "nodepath_padding")
                .iter()
                .all(|&o| bytes[o] == 0)
        );
        let want = spec_value(n);
        let back: Variant = G3.from_bytes(&bytes).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_same(&back, &want, n);
        if field(&rec, "direction") != Some("decode") {
            // Godot 3 writes a RID without its id: any RID gives the example's bytes.
            let value = if n == "value_rid_with_raw_id_5" {
                Variant::Rid(Rid(5))
            } else {
                want
            };
            assert_eq!(tohex(&G3.to_bytes(&value).unwrap()), tohex(&bytes), "{n}");
        }
        cases += 1;
    }
    assert_eq!(cases, 40);
}

/// A handful of engine values decoded into typed Rust values.
#[test]
fn vectors_into_typed_values() {
    let all = records("godot3/vectors.jsonl");
    let by_name = |n: &str, key: &str| -> Vec<u8> {
        let rec = all.iter().find(|r| name(r) == n).unwrap();
        unhex(field(rec, key).unwrap())
    };
    let canonical = |n: &str| by_name(n, "hex_canonical");
    assert_eq!(
        G3.from_bytes::<Vector3>(&canonical("vector3_1_2_3"))
            .unwrap(),
        vec3(1.0, 2.0, 3.0)
    );
    assert_eq!(
        G3.from_bytes::<Vec<i32>>(&canonical("pool_int_len5"))
            .unwrap(),
        [0, 1, 2, 3, 65536]
    );
    assert_eq!(
        G3.from_bytes::<i64>(&canonical("int_i64_min")).unwrap(),
        i64::MIN
    );
    assert_eq!(G3.from_bytes::<f64>(&canonical("float_0_1")).unwrap(), 0.1);
    assert_eq!(
        G3.from_bytes::<(i32, String)>(&canonical("array_1_a"))
            .unwrap(),
        (1, "a".to_owned())
    );
    assert_eq!(
        G3.from_bytes::<Transform3D>(&canonical("transform_1_12"))
            .unwrap()
            .origin,
        vec3(10.0, 11.0, 12.0)
    );
    // The engine's exact bytes, garbage NodePath padding included.
    let path: godot_serde::NodePath = G3
        .from_bytes(&by_name("nodepath_issue_44999", "hex"))
        .unwrap();
    assert_eq!(path.to_string(), "Path2D/PathFollow2D/Sprite:position:x");

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Order {
        zeta: u8,
        alpha: u8,
        mid: u8,
    }
    assert_eq!(
        G3.from_bytes::<Order>(&canonical("dict_insertion_order"))
            .unwrap(),
        Order {
            zeta: 1,
            alpha: 2,
            mid: 3
        }
    );
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Pools {
        #[serde(with = "serde_bytes")]
        b: Vec<u8>,
        s: Vec<String>,
    }
    assert_eq!(
        G3.from_bytes::<Pools>(&canonical("dict_pool_values"))
            .unwrap(),
        Pools {
            b: vec![1, 2, 3],
            s: vec!["x".into()]
        }
    );
}

/// Inputs both accept where our re-encoding differs from the engine's `var2bytes` of its result.
const BAD_INPUT_REENCODING_DIFFERS: &[(&str, &str)] = &[
    (
        "nodepath_unknown_flags",
        "not a difference: the engine's re-encoding has garbage NodePath padding (0x55), ours zeros",
    ),
    (
        "object_as_id_12345",
        "engine artifact: `bytes2var` wraps the id in a new `EncodedObjectAsID` and `var2bytes` then writes that wrapper's own instance id; we keep the id that was sent",
    ),
];

/// Bad-input parity against the verdicts Godot 3.2.3 recorded (the live engine run is in
/// `godot3_live.rs`).
#[test]
fn bad_inputs_parity() {
    let config = G3.with_max_depth(godot_serde::GODOT_MAX_DEPTH);
    let report = common::with_big_stack(move || {
        let mut report = Vec::new();
        for rec in records("godot3/bad_inputs.jsonl") {
            let n = name(&rec).to_owned();
            let bytes = unhex(field(&rec, "hex").unwrap());
            let engine_ok = rec["godot3_ok"].as_bool().unwrap();
            let ours = config.take_from_bytes::<Variant>(&bytes);
            let verdict_differs = BAD_INPUT_VERDICT_DIFFERS.iter().any(|(d, _)| *d == n);
            if (ours.is_ok() != engine_ok) != verdict_differs {
                report.push(format!(
                    "{n}: ours {:?}, engine ok={engine_ok}",
                    ours.as_ref().map(|_| ())
                ));
                continue;
            }
            let Ok((value, rest)) = ours else { continue };
            if !engine_ok {
                continue;
            }
            let consumed = bytes.len() - rest.len();
            let min_len = usize::try_from(rec["godot3_min_len"].as_u64().unwrap()).unwrap();
            let again = tohex(&config.to_bytes(&value).unwrap());
            let want = field(&rec, "godot3_reencoded_hex").unwrap();
            let differs = BAD_INPUT_REENCODING_DIFFERS.iter().any(|(d, _)| *d == n);
            if consumed < min_len || (again != want) != differs {
                report.push(format!(
                    "{n}: consumed {consumed} (engine needs {min_len}), re-encoded {again}, \
                     engine {want}"
                ));
            }
        }
        report
    });
    assert!(report.is_empty(), "bad inputs:\n{}", report.join("\n"));
}
