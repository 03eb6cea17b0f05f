//! Replays the `json_native` fuzz target (`tests/common/json_fuzz.rs`) over its seeds
//! (`fuzz/seeds/json_native/`), every Godot 4 binary fixture (bytes mode), the JSON of each
//! fixture (text mode), every prefix of those inputs, and deterministic byte mutations of them.

use crate::json_fuzz;

use crate::replay;

// main.rs's allocator counts the heap: each replayed decode is held to its budget (`json_fuzz::heap`).
use godot_serde::{Config, Variant, json};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn inputs() -> Vec<Vec<u8>> {
    let mut out = replay::seeds("json_native");
    let config = Config::godot4().with_allow_objects(true);
    for file in [
        "vectors-sample.jsonl",
        "engine_tests.jsonl",
        "spec_examples.jsonl",
    ] {
        let text = std::fs::read_to_string(replay::root().join("tests/fixtures/godot4").join(file))
            .expect("fixture");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let Some(h) = v["hex"].as_str() else { continue };
            let bytes = unhex(h);
            let mut d = vec![1u8];
            d.extend_from_slice(&bytes);
            out.push(d);
            if let Ok(value) = config.variant_from_bytes(&bytes) {
                if let Ok(t) = json::variant_to_string(&value, config) {
                    let mut d = vec![0u8];
                    d.extend_from_slice(t.as_bytes());
                    out.push(d);
                }
            }
        }
    }
    out
}

#[test]
fn json_native_replays_seeds_fixtures_prefixes_and_mutations() {
    let inputs = inputs();
    assert!(inputs.len() > 300, "only {} inputs", inputs.len());
    let runs = replay::prefixes_and_mutations(&inputs, json_fuzz::json_native);
    println!("{} inputs, {runs} runs", inputs.len());
    assert!(runs > 10_000, "{runs}");
    // The texts of the fixtures are what the binary values become: at least one of each kind.
    let texts = inputs.iter().filter(|i| i.first() == Some(&0)).count();
    assert!(texts > 100, "{texts}");
    let _ = Variant::Nil;
}
