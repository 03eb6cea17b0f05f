//! Hostile packs on the stable toolchain: replays the `pck` fuzz target's seed corpus
//! (`fuzz/seeds/pck/`), every prefix of the engine-written pack fixtures, and deterministic
//! random mutations of them and of packs of our writer, through the body the fuzz target
//! runs (`tests/common/pck_fuzz.rs`).

use crate::{pck_fuzz, replay};

use godot_serde::pck::{self, EngineVersion, PackFormat, PackOptions, PackWriter};

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
        data.extend(std::fs::read(replay::root().join("tests/fixtures/pck").join(name)).unwrap());
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

#[test]
fn pck_seed_corpus_replays_clean() {
    let files = replay::seed_files("pck");
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
    let n = replay::every_prefix(&fixtures(), pck_fuzz::pck);
    assert!(n > 800, "{n} prefixes");
}

#[test]
fn random_mutations_replay_clean() {
    let mut seeds = fixtures();
    seeds.extend(generated());
    let runs = replay::forged_mutations(&seeds, 0x2545_f491_4f6c_dd1d, 60, 1, pck_fuzz::pck);
    assert!(runs >= 600, "{runs} runs");
}

/// Writes `fuzz/seeds/pck/` (run by hand, see the corpus test's message).
#[test]
#[ignore]
fn write_seed_corpus() {
    replay::write_seeds("pck", fixtures().into_iter().chain(generated()));
}
