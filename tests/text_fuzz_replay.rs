//! Replays the `parse_text` fuzz target (`tests/common/text_fuzz.rs`) over its seeds
//! (`fuzz/seeds/parse_text/`), every text of the text-form fixtures in both dialects, every
//! prefix of those texts, and deterministic byte mutations of them.
#[path = "common/text_fuzz.rs"]
mod text_fuzz;

/// Counts the heap so each replayed decode is held to its budget (`text_fuzz::heap`).
#[global_allocator]
static HEAP: text_fuzz::heap::Tracking = text_fuzz::heap::Tracking;

use std::path::PathBuf;

fn inputs() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let seeds = root.join("fuzz/seeds/parse_text");
    let mut files: Vec<_> = std::fs::read_dir(&seeds)
        .expect("seeds")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for f in files {
        out.push(std::fs::read(f).expect("seed"));
    }
    for file in [
        "godot4/str_to_var-sample.jsonl",
        "godot3/str2var-sample.jsonl",
        "godot4/var_to_str-sample.jsonl",
        "godot3/var2str-sample.jsonl",
    ] {
        let text =
            std::fs::read_to_string(root.join("tests/fixtures/text").join(file)).expect("fixture");
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
    let mut runs = 0usize;
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    for input in &inputs {
        text_fuzz::parse_text(input);
        for end in 1..input.len() {
            text_fuzz::parse_text(&input[..end]);
            runs += 1;
        }
        for _ in 0..8 {
            let mut m = input.clone();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if m.len() > 1 {
                let i = 1 + (rng as usize) % (m.len() - 1);
                m[i] = (rng >> 32) as u8;
            }
            text_fuzz::parse_text(&m);
            runs += 1;
        }
    }
    assert!(runs > 10_000, "{runs}");
}
