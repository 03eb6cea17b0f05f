//! Replays the `parse_text` fuzz target (`tests/common/text_fuzz.rs`) over its seeds
//! (`fuzz/seeds/parse_text/`), every text of the text-form fixtures in both dialects, every
//! prefix of those texts, and deterministic byte mutations of them; and the `roundtrip_text`
//! target (`tests/common/text_roundtrip.rs`) over its seeds and generated inputs.
use crate::text_fuzz;

use crate::text_roundtrip;

use crate::replay;

// main.rs's allocator counts the heap: each replayed decode is held to its budget (`text_fuzz::heap`).
fn inputs() -> Vec<Vec<u8>> {
    let mut out = replay::seeds("parse_text");
    for file in [
        "godot4/str_to_var-sample.jsonl",
        "godot3/str2var-sample.jsonl",
        "godot4/var_to_str-sample.jsonl",
        "godot3/var2str-sample.jsonl",
    ] {
        let text = std::fs::read_to_string(replay::root().join("tests/fixtures/text").join(file))
            .expect("fixture");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            if let Some(t) = v["text"].as_str() {
                for sel in [0u8, 1] {
                    let mut d = vec![sel];
                    d.extend_from_slice(t.as_bytes());
                    out.push(d);
                }
            }
        }
    }
    out
}

#[test]
fn parse_text_replays_seeds_prefixes_and_mutations() {
    let inputs = inputs();
    let runs = replay::prefixes_and_mutations(&inputs, text_fuzz::parse_text);
    assert!(runs > 10_000, "{runs}");
}

/// Deterministic inputs for `roundtrip_text` (xorshift; the same every run).
fn generated(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = replay::XorShift(seed);
    (0..count)
        .map(|_| {
            let n = (rng.next() % 300) as usize;
            (0..n).map(|_| rng.next() as u8).collect()
        })
        .collect()
}

#[test]
fn roundtrip_text_replays_seeds_and_generated_values() {
    let seeds = replay::seeds("roundtrip_text");
    assert!(seeds.len() >= 8, "{} seeds", seeds.len());
    for seed in seeds {
        text_roundtrip::roundtrip_text(&seed);
    }
    for input in generated(4_000, 0x2545_f491_4f6c_dd1d) {
        text_roundtrip::roundtrip_text(&input);
    }
}

/// Writes the `roundtrip_text` seed corpus. Run by hand:
/// `cargo test --test suite -- --ignored text_fuzz_replay::write_roundtrip_text_seeds`.
#[test]
#[ignore = "writes fuzz/seeds; run by hand"]
fn write_roundtrip_text_seeds() {
    let dir = replay::root().join("fuzz/seeds/roundtrip_text");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (i, data) in generated(16, 0x9e37_79b9_7f4a_7c15).into_iter().enumerate() {
        std::fs::write(dir.join(format!("gen-{i:02}")), data).expect("write seed");
    }
}
