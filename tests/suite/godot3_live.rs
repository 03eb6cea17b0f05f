//! Live round trip with a real Godot 3 engine (`godot3-server`), one engine start per
//! direction, through the harness scripts of `tests/godot3` (contracts in their README):
//!
//! - Rust → Godot: we encode every `vectors.jsonl` value, `decode_check --allow-objects
//!   --exact` decodes it and compares it with the record's expression (and with the engine's
//!   own `var2bytes` of it).
//! - Godot → Rust: `encode_cases` encodes every expression, we decode, compare with the
//!   expected Variant and re-encode (NodePath padding masked).
//! - Bad input: `bad_input` runs every crafted input of `bad_inputs.jsonl`; verdicts must
//!   agree with ours except the deliberate differences.
//!
//! The engine is `$GODOT3`, else `godot3-server` on `PATH` (`test-support/src/engine.rs`, the
//! rule of `scripts/godot3-env.sh`). Without it the tests print a banner and pass, unless
//! `GODOT_SERDE_REQUIRE_ENGINE=1` (set by `.ci/run`), which makes them fail.

use crate::common;
use crate::conformance;
use common::temp_dir;

use std::path::Path;
use std::process::Command;

use conformance::godot3_values::{BAD_INPUT_VERDICT_DIFFERS, vector_value};
use conformance::*;
use godot_serde::{Config, GODOT_MAX_DEPTH, Variant};
use serde_json::Value;

const G3: Config = Config::godot3();

/// Whether the engine is installed (the shared lookup of `test-support/src/engine.rs`); a loud
/// skip when it is missing, a failure when it is required.
fn engine_available(test: &str) -> bool {
    common::engine::godot3_or_skip(test).is_some()
}

/// Runs one harness script; returns its `CASE` lines split into words and the `SUMMARY`.
fn harness(script: &str, args: &[&Path], flags: &[&str]) -> (Vec<Vec<String>>, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("sh")
        .arg(format!("{root}/scripts/godot3-harness.sh"))
        .arg(script)
        .args(args)
        .args(flags)
        .output()
        .expect("run the Godot 3 harness");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let cases: Vec<Vec<String>> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .map(|l| l.split(' ').map(str::to_owned).collect())
        .collect();
    let summary = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SUMMARY "))
        .unwrap_or_else(|| {
            panic!(
                "{script}: no SUMMARY (exit {:?})\nstdout:\n{stdout}\nstderr:\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .to_owned();
    (cases, summary)
}

fn vectors() -> Vec<Value> {
    records("godot3/vectors.jsonl")
}

fn is_per_process(rec: &Value) -> bool {
    rec["per_process"] == Value::Bool(true)
}

/// Rust encodes, Godot decodes and compares with `==` (and with its own `var2bytes`).
#[test]
fn rust_to_godot() {
    if !engine_available("rust_to_godot") {
        return;
    }
    let dir = temp_dir("rust_to_godot");
    let allow = G3.with_allow_objects(true);
    let mut written = 0;
    for rec in vectors() {
        let n = name(&rec);
        // Values holding objects go in full form (an instance id means nothing to another
        // process); the engine instances them from our bytes.
        let bytes = allow.to_bytes(&vector_value(n)).unwrap();
        std::fs::write(dir.join(format!("{n}.bin")), bytes).unwrap();
        std::fs::write(dir.join(format!("{n}.expr")), field(&rec, "expr").unwrap()).unwrap();
        written += 1;
    }
    let (cases, summary) = harness("decode_check", &[&dir], &["--allow-objects", "--exact"]);
    let failed: Vec<String> = cases
        .iter()
        .filter(|c| c.get(1).map(String::as_str) != Some("PASS"))
        .map(|c| c.join(" "))
        .collect();
    let passed = cases.len() - failed.len();
    eprintln!("Rust → Godot: {written} cases, {passed} passed ({summary})");
    assert!(failed.is_empty(), "Godot rejected:\n{}", failed.join("\n"));
    assert_eq!(cases.len(), written, "{summary}");
    assert!(written >= 150);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Godot encodes, Rust decodes, compares and re-encodes.
#[test]
fn godot_to_rust() {
    if !engine_available("godot_to_rust") {
        return;
    }
    let dir = temp_dir("godot_to_rust");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let records = vectors();
    let tsv: String = records
        .iter()
        .map(|r| format!("{}\t{}\n", name(r), field(r, "expr").unwrap()))
        .collect();
    let tsv_path = dir.join("cases.tsv");
    std::fs::write(&tsv_path, tsv).unwrap();
    let (cases, summary) = harness("encode_cases", &[&tsv_path, &out], &[]);
    let engine_failed: Vec<String> = cases
        .iter()
        .filter(|c| c.get(1).map(String::as_str) != Some("OK"))
        .map(|c| c.join(" "))
        .collect();
    assert!(
        engine_failed.is_empty(),
        "the engine could not encode:\n{}",
        engine_failed.join("\n")
    );

    let allow = G3.with_allow_objects(true);
    let (mut passed, mut masked_bytes) = (0, 0);
    let mut failures = Vec::new();
    for rec in &records {
        let n = name(rec);
        let bytes = std::fs::read(out.join(format!("{n}.bin"))).unwrap();
        let pad_text = std::fs::read_to_string(out.join(format!("{n}.pad"))).unwrap();
        let pad: Vec<usize> = pad_text
            .trim()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        masked_bytes += pad.len();
        let want = vector_value(n);
        let value: Variant = match allow.from_bytes(&bytes) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{n}: decode: {e}"));
                continue;
            }
        };
        let same = if is_per_process(rec) {
            objects_as_ids(&value, &want)
        } else {
            format!("{value:?}") == format!("{want:?}")
        };
        if !same {
            failures.push(format!("{n}: decoded {value:?}, want {want:?}"));
            continue;
        }
        let again = G3.to_bytes(&value).unwrap();
        if again != masked(&bytes, &pad) {
            failures.push(format!(
                "{n}: re-encoded {}, engine {} (padding {pad:?})",
                tohex(&again),
                tohex(&bytes)
            ));
            continue;
        }
        passed += 1;
    }
    eprintln!(
        "Godot → Rust: {} cases, {passed} passed, {masked_bytes} NodePath padding bytes \
         masked ({summary})",
        records.len()
    );
    assert!(
        failures.is_empty(),
        "Godot → Rust:\n{}",
        failures.join("\n")
    );
    assert_eq!(cases.len(), records.len(), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live engine's verdict on every crafted input agrees with ours, except the deliberate
/// differences.
#[test]
fn bad_input_parity() {
    if !engine_available("bad_input_parity") {
        return;
    }
    let dir = temp_dir("bad_input_parity");
    let records = records("godot3/bad_inputs.jsonl");
    for rec in &records {
        let bytes = unhex(field(rec, "hex").unwrap());
        std::fs::write(dir.join(format!("{}.bin", name(rec))), bytes).unwrap();
    }
    let (cases, summary) = harness("bad_input", &[&dir], &[]);
    let config = G3.with_max_depth(GODOT_MAX_DEPTH);
    let (mismatches, agree) = common::with_big_stack(move || {
        let mut mismatches = Vec::new();
        let mut agree = 0;
        for rec in &records {
            let n = name(rec);
            let case = cases
                .iter()
                .find(|c| c.first().map(String::as_str) == Some(n));
            let Some(engine_ok) = case.and_then(|c| c.get(1)).map(|v| v == "OK") else {
                mismatches.push(format!("{n}: no verdict from the engine"));
                continue;
            };
            let bytes = unhex(field(rec, "hex").unwrap());
            let ours_ok = config.take_from_bytes::<Variant>(&bytes).is_ok();
            let deliberate = BAD_INPUT_VERDICT_DIFFERS.iter().any(|(d, _)| *d == n);
            if (ours_ok != engine_ok) != deliberate {
                mismatches.push(format!(
                    "{n}: ours ok={ours_ok}, engine ok={engine_ok}{}",
                    if deliberate {
                        " (listed as deliberate, but they agree)"
                    } else {
                        ""
                    }
                ));
            } else if !deliberate {
                agree += 1;
            }
        }
        (mismatches, agree)
    });
    eprintln!(
        "bad input: {agree} verdicts agree, {} deliberate differences ({summary})",
        BAD_INPUT_VERDICT_DIFFERS.len()
    );
    assert!(
        mismatches.is_empty(),
        "bad input:\n{}",
        mismatches.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
