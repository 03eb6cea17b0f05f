//! Hostile packs on the stable toolchain: replays the `pck` fuzz target's seed corpus
//! (`fuzz/seeds/pck/`), every prefix of the engine-written pack fixtures, and deterministic
//! random mutations of them and of packs of our writer, through the body the fuzz target
//! runs (`tests/common/pck_fuzz.rs`).

use crate::pck_fuzz;

use godot_serde::pck::{self, EngineVersion, PackFormat, PackOptions, PackWriter};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The engine-written fixtures, each with the selector byte of its key.
fn fixtures() -> Vec<Vec<u8>> {
    [
        ("godot4_plain.pck", 0u8),
        ("godot4_encrypted.pck", 1),
        ("godot3.pck", 0),
    ]
    .iter()
    .map(|(name, selector)| {
        let mut data = vec![*selector];
        data.extend(std::fs::read(root().join("tests/fixtures/pck").join(name)).unwrap());
        data
    })
    .collect()
}

/// Packs of our writer: every layout, plain and (v2, v3) encrypted under key 1, one embedded.
fn generated() -> Vec<Vec<u8>> {
    let key = pck_fuzz::key(1).unwrap();
    let mut out = Vec::new();
    for format in [PackFormat::V1, PackFormat::V2, PackFormat::V3] {
        for encrypt in [false, true] {
            if encrypt && format == PackFormat::V1 {
                continue;
            }
            let mut options =
                PackOptions::new(format, EngineVersion::new(4, 4, 0)).with_alignment(16);
            if encrypt {
                options = options.with_key(key.clone()).with_encrypted_directory(true);
            }
            let mut writer = PackWriter::new(Vec::new(), options);
            writer.add_file("a.txt", b"alpha".to_vec()).unwrap();
            writer
                .add_file(
                    "dir/b.bin",
                    (0..300u32).map(|i| i as u8).collect::<Vec<u8>>(),
                )
                .unwrap();
            writer.add_file("empty", Vec::new()).unwrap();
            if encrypt {
                writer
                    .add_file_encrypted("secret.txt", b"hidden".to_vec())
                    .unwrap();
            }
            if format != PackFormat::V1 {
                writer.add_removal("gone.txt").unwrap();
            }
            let pack = writer.finish().unwrap();
            let mut data = vec![u8::from(encrypt)];
            data.extend(&pack);
            out.push(data);
            if format == PackFormat::V3 {
                let exe = [0x55u8; 37];
                let embedded =
                    pck::embed(&mut exe.as_slice(), &mut pack.as_slice(), Vec::new()).unwrap();
                let mut data = vec![u8::from(encrypt)];
                data.extend(embedded);
                out.push(data);
            }
        }
    }
    out
}

fn seed_files() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("fuzz/seeds/pck")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn pck_seed_corpus_replays_clean() {
    let files = seed_files();
    assert!(
        files.len() >= 10,
        "fuzz/seeds/pck has {} files; regenerate with \
         `cargo test --all-features --test suite -- --ignored pck_fuzz_replay::write_seed_corpus`",
        files.len()
    );
    for file in files {
        pck_fuzz::pck(&std::fs::read(&file).unwrap());
    }
}

#[test]
fn every_prefix_of_every_pack_fixture_replays_clean() {
    let mut n = 0;
    for data in fixtures() {
        for cut in 0..=data.len() {
            pck_fuzz::pck(&data[..cut]);
            n += 1;
        }
    }
    assert!(n > 800, "{n} prefixes");
}

#[test]
fn random_mutations_replay_clean() {
    // The shared seeded generator: deterministic, so a failure reproduces.
    let mut rng = crate::generate::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next();
    let mut seeds = fixtures();
    seeds.extend(generated());
    let mut runs = 0;
    for data in &seeds {
        for _ in 0..60 {
            let mut m = data.clone();
            for _ in 0..1 + next() % 4 {
                let at = 1 + (next() as usize) % (m.len() - 1);
                match next() % 3 {
                    0 => m[at] ^= 1 << (next() % 8),
                    1 => m[at] = [0, 0xff, 0x7f, 0x80][(next() % 4) as usize],
                    _ => {
                        // A 32-bit field forged to a large value.
                        let v = [u32::MAX, 0x8000_0000, 1 << 20, 4097][(next() % 4) as usize];
                        let end = (at + 4).min(m.len());
                        m[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
                    }
                }
            }
            pck_fuzz::pck(&m);
            runs += 1;
        }
    }
    assert!(runs >= 600, "{runs} runs");
}

/// Writes `fuzz/seeds/pck/` (run by hand, see the corpus test's message).
#[test]
#[ignore]
fn write_seed_corpus() {
    let dir = root().join("fuzz/seeds/pck");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, data) in fixtures().into_iter().chain(generated()).enumerate() {
        std::fs::write(dir.join(format!("seed_{i:02}")), data).unwrap();
    }
}
