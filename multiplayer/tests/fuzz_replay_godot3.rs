//! Replays the `godot3` fuzz target's committed seeds (`fuzz/seeds/godot3/`), every prefix of
//! each, and deterministic mutations, through the target's own body.

#[path = "common/fuzz_godot3.rs"]
mod fuzz_godot3;

fn seeds() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/godot3");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn seeds_and_their_prefixes_run_clean() {
    let seeds = seeds();
    assert!(seeds.len() >= 6, "{} seeds", seeds.len());
    for data in &seeds {
        for end in 0..=data.len() {
            fuzz_godot3::session(&data[..end]);
        }
    }
}

#[test]
fn mutated_seeds_run_clean() {
    // xorshift: deterministic, no dependency.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for seed in seeds() {
        for _ in 0..300 {
            let mut data = seed.clone();
            for _ in 0..1 + next() % 4 {
                if data.is_empty() {
                    break;
                }
                let at = (next() % data.len() as u64) as usize;
                data[at] = next() as u8;
            }
            fuzz_godot3::session(&data);
        }
    }
}
