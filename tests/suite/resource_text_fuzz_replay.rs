//! Hostile `.tscn` / `.tres` text on the stable toolchain: replays the `resource_text` fuzz
//! target's seed corpus (`fuzz/seeds/resource_text/`: the four engine-saved fixtures and two
//! hand-made files with every tag and field), every prefix of each, and deterministic random
//! mutations of them, through the body the fuzz target runs
//! (`tests/common/resource_text_fuzz.rs`).

use crate::replay;
use crate::resource_text_fuzz::resource_text;

#[test]
fn seed_corpus_and_every_prefix_replay_clean() {
    let seeds = replay::seeds("resource_text");
    assert!(seeds.len() >= 6, "{} seeds", seeds.len());
    let n = replay::every_prefix(&seeds, resource_text);
    assert!(n > 2500, "{n} prefixes");
}

#[test]
fn random_mutations_replay_clean() {
    // The shared seeded generator: deterministic, so a failure reproduces.
    let mut rng = crate::generate::Rng::new(0x7e57_7e57_0b5e_55ed);
    let mut next = move || rng.next();
    // Bytes that matter to the grammar.
    const BYTES: &[u8] = b"[]=\"\\;(){},.:\n 0123456789_abcnodeparentidtype&^#";
    let mut runs = 0;
    for data in replay::seeds("resource_text") {
        for _ in 0..300 {
            let mut m = data.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() as usize) % m.len();
                match next() % 3 {
                    0 => m[at] = BYTES[(next() as usize) % BYTES.len()],
                    1 => {
                        m.remove(at);
                    }
                    _ => {
                        // A span copied elsewhere (a duplicated tag or value).
                        let len = ((next() as usize) % 40).min(m.len() - at);
                        let span = m[at..at + len].to_vec();
                        let to = (next() as usize) % m.len();
                        m.splice(to..to, span);
                    }
                }
                if m.is_empty() {
                    break;
                }
            }
            // RESOURCE_TEXT_FUZZ_DEBUG=1 prints the input that fails.
            if std::env::var_os("RESOURCE_TEXT_FUZZ_DEBUG").is_some() {
                let r = std::panic::catch_unwind(|| resource_text(&m));
                if r.is_err() {
                    eprintln!("INPUT {:?}", String::from_utf8_lossy(&m));
                    panic!();
                }
            }
            resource_text(&m);
            runs += 1;
        }
    }
    assert!(runs >= 1800, "{runs} runs");
}
