//! Replaying a fuzz target in `cargo test`, shared by the `*_fuzz_replay.rs` modules of
//! `tests/suite/`: the committed seeds, every prefix of each input and deterministic mutations
//! (one-byte, or forged counts), so that a failure reproduces.
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

/// The files of `fuzz/seeds/<target>/`, sorted by name; none when the folder is missing (a
/// corpus test then says how to write it).
pub fn seed_files(target: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("fuzz/seeds").join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.expect("entry").path()).collect();
    files.sort();
    files
}

/// Writes `inputs` as `fuzz/seeds/<target>/seed_00`, `seed_01`...
pub fn write_seeds(target: &str, inputs: impl IntoIterator<Item = Vec<u8>>) {
    let dir = root().join("fuzz/seeds").join(target);
    std::fs::create_dir_all(&dir).expect("seed folder");
    for (i, data) in inputs.into_iter().enumerate() {
        std::fs::write(dir.join(format!("seed_{i:02}")), data).expect("seed");
    }
}

/// Runs `check` on every prefix of every input, the empty one and the whole input included;
/// returns how many ran.
pub fn every_prefix(inputs: &[Vec<u8>], mut check: impl FnMut(&[u8])) -> usize {
    let mut n = 0;
    for data in inputs {
        for cut in 0..=data.len() {
            check(&data[..cut]);
            n += 1;
        }
    }
    n
}

/// Runs `check` on `per_input` mutations of each input, drawn from the shared seeded generator
/// (`crate::generate::Rng::new(seed)`: deterministic, so a failure reproduces). A mutation is 1
/// to 4 edits, each at a byte from `from` on (1 keeps a format's first byte): a bit flipped, the
/// byte set to 0, 0xff, 0x7f or 0x80, or the 32-bit little-endian field there forged to a large
/// count (u32::MAX, 2^31, 2^20, 4097; cut at the end of the input). Returns how many ran.
pub fn forged_mutations(
    inputs: &[Vec<u8>],
    seed: u64,
    per_input: usize,
    from: usize,
    mut check: impl FnMut(&[u8]),
) -> usize {
    let mut rng = crate::generate::Rng::new(seed);
    let mut next = move || rng.next();
    let mut runs = 0;
    for data in inputs {
        for _ in 0..per_input {
            let mut m = data.clone();
            for _ in 0..1 + next() % 4 {
                let at = from + (next() as usize) % (m.len() - from);
                match next() % 3 {
                    0 => m[at] ^= 1 << (next() % 8),
                    1 => m[at] = [0, 0xff, 0x7f, 0x80][(next() % 4) as usize],
                    _ => {
                        let v = [u32::MAX, 0x8000_0000, 1 << 20, 4097][(next() % 4) as usize];
                        let end = (at + 4).min(m.len());
                        m[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
                    }
                }
            }
            check(&m);
            runs += 1;
        }
    }
    runs
}
