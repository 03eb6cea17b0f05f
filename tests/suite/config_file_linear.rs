//! ConfigFile reading takes linear time whatever the file holds (issue 22 item 2): many keys,
//! many sections, one key repeated, `key=null` lines erasing keys. Each workload runs at `N`
//! and `4N` lines in the same run, beside a linear baseline over the same text: linear work
//! grows as the baseline does (4 times on an idle machine), quadratic work 4 times more, so
//! a growth below 3 times the baseline's (best of seven runs each, interleaved) separates
//! them on a busy machine.
//!
//! `CONFIG_FILE_LINEAR_N=10000 cargo test --release --all-features --test suite config_file_linear --
//! --nocapture` prints the timings the README's "Security and limits" table gives (`N` is
//! 2,500 by default).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use godot_serde::config_file::{self, Document};
use godot_serde::{Config, Variant};

/// The smaller size (`$CONFIG_FILE_LINEAR_N`, else 2,500).
fn n() -> usize {
    std::env::var("CONFIG_FILE_LINEAR_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_500)
}

/// The timing tests run one at a time, not beside each other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A linear baseline over the same text: each line split at `=`, its key hashed into a map
/// of line lists, its value text copied into a `Variant`. Timed beside the work so that the
/// machine's load and cache effects at the larger size (a shared 2-core machine stretches
/// long runs more than short ones) divide out.
fn baseline(text: &str) -> usize {
    let mut keys: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (k, v) = line.split_once('=').unwrap_or((line, ""));
        keys.entry(k).or_default().push(i);
        values.push(Variant::from(v.to_owned()));
    }
    std::hint::black_box(keys.len() + values.len())
}

/// Times `work` and [`baseline`] on the texts made by `make` for `N` and `4N`, best of seven
/// each, interleaved, and asserts near-linear growth: the work's growth is at most 3 times
/// the baseline's, taken between 4 (linear on an idle machine) and 5 (so that a noisy
/// baseline cannot hide quadratic work, which grows 16 times). The bound is 12 to 15; the
/// quadratic reader of 0.1.0 grew 17.9 to 21.4 times here (debug, N = 2,500).
fn assert_linear(name: &str, make: impl Fn(usize) -> String, work: impl Fn(&str)) {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let n = n();
    let small = make(n);
    let large = make(4 * n);
    let mut best = [Duration::MAX; 4];
    for _ in 0..7 {
        for (i, text) in [&small, &large].into_iter().enumerate() {
            let t = Instant::now();
            work(text);
            best[i] = best[i].min(t.elapsed());
            let t = Instant::now();
            baseline(text);
            best[2 + i] = best[2 + i].min(t.elapsed());
        }
    }
    let growth = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-9);
    let ratio = growth(best[0], best[1]);
    let base = growth(best[2], best[3]);
    println!(
        "{name}: {} lines {:?}, {} lines {:?}, ratio {ratio:.2} (baseline {base:.2})",
        n,
        best[0],
        4 * n,
        best[1]
    );
    assert!(
        ratio < 3.0 * base.clamp(4.0, 5.0),
        "{name}: {n} lines took {:?}, {} lines {:?}: ratio {ratio:.1}, the linear baseline's \
         {base:.1} (linear work grows as the baseline, quadratic 4 times more)",
        best[0],
        4 * n,
        best[1]
    );
}

fn many_keys(n: usize) -> String {
    (0..n).map(|i| format!("k{i}=1\n")).collect()
}

#[test]
fn serde_reader_on_many_keys() {
    assert_linear("from_str::<Variant>, k{i}=1", many_keys, |text| {
        let v: Variant = config_file::from_str(text).unwrap();
        assert!(matches!(v, Variant::Dictionary(ref d) if d.len() >= n()));
    });
}

#[test]
fn sections_of_many_headers() {
    assert_linear(
        "parse + sections(), [s{i}] k=1",
        |n| (0..n).map(|i| format!("[s{i}]\nk=1\n")).collect(),
        |text| {
            let doc = Document::parse(text, Config::godot4()).unwrap();
            let sections = doc.sections();
            assert_eq!(sections.first(), Some(&"s0"));
            assert!(sections.len() >= n());
        },
    );
}

#[test]
fn keys_and_get_of_many_keys() {
    for config in [Config::godot4(), Config::godot3()] {
        assert_linear(
            "parse + keys() + get() of each, k{i}=1",
            many_keys,
            |text| {
                let doc = Document::parse(text, config).unwrap();
                let keys = doc.keys("");
                assert!(keys.len() >= n());
                for k in &keys {
                    assert_eq!(doc.get("", k).unwrap(), Some(Variant::Int(1)));
                }
            },
        );
    }
}

#[test]
fn null_lines_after_many_keys() {
    // `z=null` erases `z` (absent here) each time; the engine does the same in O(1).
    assert_linear(
        "Document::parse, k{i}=1 then z=null",
        |n| many_keys(n) + &"z=null\n".repeat(n),
        |text| {
            let doc = Document::parse(text, Config::godot4()).unwrap();
            assert_eq!(doc.get("", "z").unwrap(), None);
        },
    );
    // Every key erased by its own null line.
    assert_linear(
        "Document::parse + to_variant, k{i}=1 then k{i}=null",
        |n| many_keys(n) + &(0..n).map(|i| format!("k{i}=null\n")).collect::<String>(),
        |text| {
            let doc = Document::parse(text, Config::godot4()).unwrap();
            assert!(doc.sections().is_empty());
            assert_eq!(doc.to_variant().unwrap().to_string(), "{}");
        },
    );
}

#[test]
fn one_key_repeated_after_many_keys() {
    assert_linear(
        "to_variant, k{i}=1 then z=0",
        |n| many_keys(n) + &"z=0\n".repeat(n),
        |text| {
            let doc = Document::parse(text, Config::godot4()).unwrap();
            let v = doc.to_variant().unwrap();
            assert_eq!(v["z"], Variant::Int(0));
        },
    );
    assert_linear(
        "parse + get + to_variant, k=1 repeated (4 lines per unit)",
        // Four times the lines: one key is cheap, and short runs are the noisiest.
        |n| "k=1\n".repeat(4 * n),
        |text| {
            let doc = Document::parse(text, Config::godot3()).unwrap();
            assert_eq!(doc.keys(""), ["k"]);
            assert_eq!(doc.get("", "k").unwrap(), Some(Variant::Int(1)));
            assert_eq!(doc.to_variant().unwrap()["k"], Variant::Int(1));
        },
    );
}
