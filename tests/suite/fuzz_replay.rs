//! Hostile input on the stable toolchain: replays the fuzz targets' committed seed corpus and
//! past crashes (`fuzz/seeds/<target>/`), every prefix of every fixture and spec example, and
//! deterministic random mutations of them, through the same checks the fuzz targets run.
use crate::common;
use crate::fuzz_checks;

// main.rs's allocator counts the heap: each replayed decode is held to its budget (`fuzz_checks::heap`).
use common::{hex, on_2_mib_thread};
use fuzz_checks::{SELECTORS, config_for};
use godot_serde::{Config, GodotVersion, Variant};
use serde::de::IgnoredAny;
use std::path::{Path, PathBuf};

/// A fuzz target's body.
type Check = fn(&[u8]);

/// The fuzz targets and their bodies.
const TARGETS: [(&str, Check); 4] = [
    ("decode_variant", fuzz_checks::decode_variant),
    ("typed", fuzz_checks::typed),
    ("slice_vs_reader", fuzz_checks::slice_vs_reader),
    ("roundtrip_variant", fuzz_checks::roundtrip_variant),
];

/// A fixture's bytes and whether they are Godot 3 data.
struct Fixture {
    name: String,
    godot3: bool,
    bytes: Vec<u8>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `hex` field of the Godot 3 and Godot 4 fixtures (vectors, spec examples, engine
/// tests, bad inputs).
fn fixtures() -> Vec<Fixture> {
    let mut out = Vec::new();
    for (dir, godot3) in [("godot4", false), ("godot3", true)] {
        let mut files: Vec<_> = std::fs::read_dir(root().join("tests/fixtures").join(dir))
            .expect("fixtures folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("fixture file");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
                let Some(h) = v["hex"].as_str() else { continue };
                let name = v["name"].as_str().unwrap_or("?");
                out.push(Fixture {
                    name: format!("{dir}-{name}"),
                    godot3,
                    bytes: hex(h),
                });
            }
        }
    }
    assert!(out.len() > 300, "only {} fixtures found", out.len());
    out
}

/// The selector bytes whose engine matches the fixture's.
fn selectors(godot3: bool) -> impl Iterator<Item = u8> {
    SELECTORS
        .into_iter()
        .filter(move |&s| config_for(s).version().is_godot4() != godot3)
}

fn seed_files(target: &str) -> Vec<PathBuf> {
    let dir = root().join("fuzz/seeds").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.expect("entry").path()).collect();
    files.sort();
    files
}

#[test]
fn seed_corpus_and_past_crashes_replay_clean() {
    on_2_mib_thread(seed_corpus_and_past_crashes_replay_clean_body);
}

fn seed_corpus_and_past_crashes_replay_clean_body() {
    for (target, check) in TARGETS {
        let files = seed_files(target);
        assert!(
            files.len() >= 50,
            "fuzz/seeds/{target} has {} files; regenerate with \
             `cargo test --test suite -- --ignored fuzz_replay::write_seed_corpus`",
            files.len()
        );
        for file in files {
            let data = std::fs::read(&file).expect("seed file");
            check(&data);
        }
    }
}

/// Every proper prefix of a value that decodes is an error (or, when only the final padding
/// of a PackedByteArray is cut, the same value: Godot accepts that too), never a panic; the
/// slice and the reader agree on it. Prefixes of the bad inputs must merely not panic.
/// ("Every" is every cut of all fixtures up to 1 KiB; the deep-nesting ones are sampled.)
#[test]
fn every_prefix_of_every_fixture_is_an_error() {
    on_2_mib_thread(every_prefix_of_every_fixture_is_an_error_body);
}

fn every_prefix_of_every_fixture_is_an_error_body() {
    let mut prefixes = 0;
    let mut errors = 0;
    for f in fixtures() {
        for sel in selectors(f.godot3).filter(|s| s & 0b10100 == 0) {
            let config = config_for(sel);
            let whole = config.from_bytes::<Variant>(&f.bytes);
            // All cuts of the usual fixture; for the few deep-nesting ones (up to 12 KB,
            // each cut walking up to the depth limit) the first and last 512 and every 37th.
            let n = f.bytes.len();
            let cuts = (0..n).filter(|&c| n <= 1024 || c < 512 || c + 512 >= n || c % 37 == 0);
            for cut in cuts {
                let prefix = &f.bytes[..cut];
                prefixes += 1;
                let r = config.take_from_bytes::<Variant>(prefix);
                let ignored = config.take_from_bytes::<IgnoredAny>(prefix);
                assert_eq!(r.is_ok(), ignored.is_ok(), "{}: cut at {cut}", f.name);
                let reader = config.from_reader::<_, Variant>(prefix);
                assert_eq!(r.is_ok(), reader.is_ok(), "{}: cut at {cut}", f.name);
                match (&whole, r) {
                    (Ok(w), Ok((v, rest))) => {
                        let padding_only = f.bytes.len() - cut < 4
                            && rest.is_empty()
                            && format!("{w:?}") == format!("{v:?}");
                        assert!(
                            padding_only,
                            "{} cut at {cut} of {} decodes as {v:?}",
                            f.name,
                            f.bytes.len()
                        );
                    }
                    (_, Err(_)) => errors += 1,
                    (Err(_), Ok(_)) => {}
                }
                let mut data = vec![sel];
                data.extend_from_slice(prefix);
                fuzz_checks::decode_variant(&data);
            }
        }
    }
    assert!(prefixes > 10_000, "{prefixes} prefixes");
    assert!(
        errors > prefixes * 9 / 10,
        "{errors} errors in {prefixes} prefixes"
    );
}

/// xorshift64*: deterministic, so a failure here reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Words a hostile encoder likes: lengths at and past every limit, type ids with flags.
const WORDS: [u32; 16] = [
    0,
    1,
    3,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x4000_0000,
    0x3fff_ffff,
    0x0001_0000,
    0x0001_001c,
    0x0005_001b,
    0x0001_0018,
    0x0002_001c,
    0x0003_001c,
    0x8000_0002,
    0x0000_0100,
];

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..=rng.below(4) {
        let len = bytes.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = rng.next() as u8;
            }
            2 | 3 if len >= 4 => {
                let i = rng.below(len / 4) * 4;
                let w = WORDS[rng.below(WORDS.len())];
                bytes[i..i + 4].copy_from_slice(&w.to_le_bytes());
            }
            4 if len > 0 => {
                let at = rng.below(len);
                let n = rng.below(len - at) + 1;
                bytes.drain(at..at + n);
            }
            5 if len > 0 => {
                let at = rng.below(len);
                let n = (rng.below(len - at) + 1).min(64);
                let chunk = bytes[at..at + n].to_vec();
                let to = rng.below(len + 1);
                bytes.splice(to..to, chunk);
            }
            6 => {
                let at = rng.below(len + 1);
                let w = WORDS[rng.below(WORDS.len())];
                bytes.splice(at..at, w.to_le_bytes());
            }
            _ => bytes.truncate(rng.below(len + 1)),
        }
    }
}

#[test]
fn random_mutations_of_the_fixtures_never_panic() {
    on_2_mib_thread(random_mutations_of_the_fixtures_never_panic_body);
}

fn random_mutations_of_the_fixtures_never_panic_body() {
    let fixtures = fixtures();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut decoded = 0;
    for round in 0..50_000 {
        let f = &fixtures[rng.below(fixtures.len())];
        let mut bytes = f.bytes.clone();
        mutate(&mut rng, &mut bytes);
        let sels: Vec<u8> = selectors(f.godot3).collect();
        let sel = sels[rng.below(sels.len())];
        let mut data = vec![sel];
        data.extend_from_slice(&bytes);
        let (_, check) = TARGETS[round % 3];
        check(&data);
        if config_for(sel).from_bytes::<Variant>(&bytes).is_ok() {
            decoded += 1;
        }
    }
    // The mutations must reach past the first header most of the time.
    assert!(decoded > 5_000, "only {decoded} mutants decoded");
}

#[test]
fn generated_variants_round_trip() {
    on_2_mib_thread(generated_variants_round_trip_body);
}

fn generated_variants_round_trip_body() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..3_000 {
        let n = rng.below(200);
        let data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        fuzz_checks::roundtrip_variant(&data);
    }
}

/// Writes the seed corpus from the fixtures. Run by hand when fixtures are added:
/// `cargo test --test suite -- --ignored fuzz_replay::write_seed_corpus`. Crash inputs are added
/// next to the seeds by hand, named `crash-<what>`.
#[test]
#[ignore = "writes fuzz/seeds; run by hand"]
fn write_seed_corpus() {
    let fixtures = fixtures();
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = root().join("fuzz/seeds").join(target);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join(name), data).expect("write seed");
    };
    for f in &fixtures {
        // One Godot 4.4 (or 3.x) config per fixture, objects allowed.
        let sel = if f.godot3 { 8 } else { 8 | 3 };
        let mut data = vec![sel];
        data.extend_from_slice(&f.bytes);
        let name = sanitize(&f.name);
        write("decode_variant", &name, &data);
        write("typed", &name, &data);
        let mut with_step = vec![2];
        with_step.extend_from_slice(&data);
        write("slice_vs_reader", &name, &with_step);
    }
    let mut rng = Rng(42);
    for i in 0..64 {
        let n = 8 + rng.below(120);
        let mut data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        data[0] = i as u8 & 31;
        write("roundtrip_variant", &format!("gen-{i:02}"), &data);
    }
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[test]
fn configs_cover_both_engines_double_precision_and_objects() {
    let configs: Vec<Config> = SELECTORS.into_iter().map(config_for).collect();
    assert!(configs.iter().any(|c| c.version() == GodotVersion::V3));
    assert!(configs.iter().any(|c| c.version() == GodotVersion::V4_0));
    assert!(configs.iter().any(|c| c.version() == GodotVersion::V4_3));
    assert!(configs.iter().any(|c| c.version() == GodotVersion::V4_4));
    assert!(configs.iter().any(|c| c.double_precision()));
    assert!(configs.iter().any(|c| c.allow_objects()));
    assert!(configs.iter().any(|c| !c.allow_objects()));
    let _ = Path::new(".");
}

/// The heap budget of the checks is live: a decode over its budget fails the check.
#[test]
#[should_panic(expected = "over its budget")]
fn a_decode_over_its_heap_budget_fails_the_check() {
    // 64 KiB of Nils in an Array: a 4-byte Nil becomes a whole `Variant`, more than 1 byte each.
    let mut input = hex("1c000000 00400000");
    input.resize(8 + 4 * 0x4000, 0);
    let _ = fuzz_checks::heap::within(input.len(), "Variant", || {
        Config::godot4().from_bytes::<Variant>(&input)
    });
}

/// And the same decode passes within the budget the checks give a `Variant`.
#[test]
fn a_decode_within_its_heap_budget_passes_the_check() {
    let mut input = hex("1c000000 00400000");
    input.resize(8 + 4 * 0x4000, 0);
    let v = fuzz_checks::heap::within(fuzz_checks::variant_budget(input.len()), "Variant", || {
        Config::godot4().from_bytes::<Variant>(&input)
    })
    .expect("an Array of 16384 Nils");
    assert_eq!(v.as_array().map(|a| a.items.len()), Some(0x4000));
}
