//! The replay of a fuzz target's committed seeds, shared by the targets' replay tests: every
//! prefix of each seed, and deterministic mutations, through the target's own body.

/// The seeds of fuzz target `target` (`fuzz/seeds/<target>/`), by file name.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Runs `body` on every prefix of every seed (at least `min_seeds` of them).
pub fn prefixes(target: &str, min_seeds: usize, body: impl Fn(&[u8])) {
    let seeds = seeds(target);
    assert!(seeds.len() >= min_seeds, "{} seeds", seeds.len());
    for data in &seeds {
        for end in 0..=data.len() {
            body(&data[..end]);
        }
    }
}

/// Runs `body` on 300 mutations of each seed (1 to 4 bytes overwritten), from an xorshift
/// generator started at `state`: deterministic, no dependency.
pub fn mutations(target: &str, mut state: u64, body: impl Fn(&[u8])) {
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for seed in seeds(target) {
        for _ in 0..300 {
            let mut data = seed.clone();
            for _ in 0..1 + next() % 4 {
                if data.is_empty() {
                    break;
                }
                let at = (next() % data.len() as u64) as usize;
                data[at] = next() as u8;
            }
            body(&data);
        }
    }
}
