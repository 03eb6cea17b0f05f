//! Replays the `session` fuzz target's committed seeds (`fuzz/seeds/session/`), every prefix
//! of each, and deterministic mutations, through the target's own body.

#[path = "common/fuzz_body.rs"]
mod fuzz_body;

fn seeds() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/session");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn seeds_and_their_prefixes_run_clean() {
    let seeds = seeds();
    assert!(seeds.len() >= 9, "{} seeds", seeds.len());
    for (_, data) in &seeds {
        for end in 0..=data.len() {
            fuzz_body::session(&data[..end]);
        }
    }
}

#[test]
fn mutated_seeds_run_clean() {
    // xorshift: deterministic, no dependency.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (_, seed) in seeds() {
        for _ in 0..300 {
            let mut data = seed.clone();
            for _ in 0..1 + next() % 4 {
                if data.is_empty() {
                    break;
                }
                let at = (next() % data.len() as u64) as usize;
                data[at] = next() as u8;
            }
            fuzz_body::session(&data);
        }
    }
}
