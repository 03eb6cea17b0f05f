//! Replaying a fuzz target in `cargo test`, shared by `tests/suite/text_fuzz_replay.rs` and
//! `tests/suite/json_fuzz_replay.rs`: the committed seeds, every prefix of each input and
//! deterministic one-byte mutations, so that a failure reproduces.
#![allow(dead_code)]

use std::path::PathBuf;

/// The crate's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The contents of every file of `fuzz/seeds/<target>/`, sorted by file name.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("fuzz/seeds").join(target))
        .expect("seeds")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| std::fs::read(f).expect("seed"))
        .collect()
}

/// xorshift64 (shifts 13, 7, 17): the same sequence on every run.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next value of the sequence.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Runs `check` on each input, on every proper prefix of it and on 8 mutations of it (one
/// byte after the first, which selects the mode, set to a pseudo-random value); returns how
/// many prefixes and mutations ran.
pub fn prefixes_and_mutations(inputs: &[Vec<u8>], mut check: impl FnMut(&[u8])) -> usize {
    let mut runs = 0usize;
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for input in inputs {
        check(input);
        for end in 1..input.len() {
            check(&input[..end]);
            runs += 1;
        }
        for _ in 0..8 {
            let mut m = input.clone();
            let r = rng.next();
            if m.len() > 1 {
                let i = 1 + (r as usize) % (m.len() - 1);
                m[i] = (r >> 32) as u8;
            }
            check(&m);
            runs += 1;
        }
    }
    runs
}
