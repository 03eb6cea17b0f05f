//! Hostile container input on the stable toolchain: replays the container fuzz targets' seed
//! corpus (`fuzz/seeds/container_*/`), every prefix of the engine-written container fixtures
//! and deterministic random mutations of them, through the bodies the fuzz targets run
//! (`tests/common/container_fuzz.rs`).

use crate::container_fuzz;

use godot_serde::container::{self, CompressionMode, Key};
use std::path::PathBuf;

type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 2] = [
    ("container_encrypted", container_fuzz::encrypted),
    ("container_compressed", container_fuzz::compressed),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The engine-written fixtures, each with the selector byte that fits it.
fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    for engine in ["godot3", "godot4"] {
        let dir = root().join("tests/fixtures/containers").join(engine);
        for (name, target, selector) in [
            ("enc", "container_encrypted", 0u8),
            ("enck", "container_encrypted", 1),
            ("c0", "container_compressed", 0),
            ("c1", "container_compressed", 1),
            ("c2", "container_compressed", 2),
            ("c3", "container_compressed", 3),
        ] {
            let mut data = vec![selector];
            data.extend(std::fs::read(dir.join(format!("{name}.bin"))).unwrap());
            out.push((target, data));
        }
    }
    out
}

/// Seeds made by our writer: files and streams in every mode, several sizes.
fn generated() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    let texts: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"a".to_vec(),
        b"hello hello hello hello".to_vec(),
        (0..5000u32).map(|i| (i * 31 % 251) as u8).collect(),
        "save ".repeat(2000).into_bytes(),
    ];
    for (i, text) in texts.iter().enumerate() {
        for (sel, key) in [
            (0u8, Key::from_password("pw")),
            (1, {
                let mut k = [0u8; 32];
                for (j, b) in k.iter_mut().enumerate() {
                    *b = j as u8;
                }
                Key::from_bytes(k)
            }),
        ] {
            let mut a = vec![sel];
            a.extend(container::encrypt_godot3(text, &key));
            out.push(("container_encrypted", a));
            let mut b = vec![sel];
            b.extend(container::encrypt_godot4_with_iv(text, &key, [i as u8; 16]));
            out.push(("container_encrypted", b));
        }
        for mode in CompressionMode::WRITABLE {
            for block in [4096, 64, 1000] {
                let mut f = vec![mode.id() as u8];
                f.extend(container::write_compressed(text, mode, block).unwrap());
                out.push(("container_compressed", f));
            }
            let mut s = vec![mode.id() as u8];
            s.extend(container::compress(text, mode).unwrap());
            out.push(("container_compressed", s));
        }
    }
    out
}

fn seed_files(target: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("fuzz/seeds").join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

fn check_for(target: &str) -> Check {
    TARGETS.iter().find(|(t, _)| *t == target).unwrap().1
}

#[test]
fn container_seed_corpus_replays_clean() {
    for (target, check) in TARGETS {
        let files = seed_files(target);
        assert!(
            files.len() >= 20,
            "fuzz/seeds/{target} has {} files; regenerate with \
             `cargo test --all-features --test suite -- --ignored container_fuzz_replay::write_seed_corpus`",
            files.len()
        );
        for file in files {
            check(&std::fs::read(&file).unwrap());
        }
    }
}

#[test]
fn every_prefix_of_every_container_fixture_replays_clean() {
    let mut n = 0;
    for (target, data) in fixtures() {
        let check = check_for(target);
        for cut in 0..=data.len() {
            check(&data[..cut]);
            n += 1;
        }
    }
    assert!(n > 500, "{n} prefixes");
}

#[test]
fn random_mutations_replay_clean() {
    // xorshift64*: deterministic, so a failure reproduces.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut seeds = fixtures();
    seeds.extend(generated());
    let mut runs = 0;
    for (target, data) in &seeds {
        let check = check_for(target);
        for _ in 0..40 {
            let mut m = data.clone();
            for _ in 0..1 + next() % 4 {
                let r = next();
                let at = (r >> 8) as usize % m.len().max(1);
                match r % 4 {
                    0 if !m.is_empty() => m[at] ^= 1 << ((r >> 40) % 8),
                    1 if !m.is_empty() => m[at] = (r >> 32) as u8,
                    2 if at + 4 <= m.len() => {
                        m[at..at + 4].copy_from_slice(&((r >> 32) as u32).to_le_bytes());
                    }
                    _ => m.truncate(at),
                }
            }
            check(&m);
            runs += 1;
        }
    }
    assert!(runs > 2000, "{runs} mutations");
}

/// Writes the seed corpus of both targets (run by hand after changing the generators).
#[test]
#[ignore = "writes fuzz/seeds/container_*; run by hand"]
fn write_seed_corpus() {
    let mut all = fixtures();
    all.extend(generated());
    for (i, (target, data)) in all.iter().enumerate() {
        let dir = root().join("fuzz/seeds").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed_{i:03}")), data).unwrap();
    }
}
