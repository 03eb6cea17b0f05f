//! Heap use under hostile input, measured with a counting global allocator: decoding never
//! holds more than 64 KiB + 4 × the input size (into `IgnoredAny` and compact typed targets),
//! and a `Variant` never more than 64 KiB + 32 × the input size (a decoded `Variant` is 32
//! bytes, its smallest encoding 4; `size_of::<Variant>()` × with the `double-precision`
//! feature), whatever counts and lengths the input claims. The same for `from_reader` over a
//! reader that hands out 3 bytes at a time, and one that ends early.
//!
//! Run alone with `cargo test --test heap -- --nocapture` to see the worst cases. The tests
//! take turns ([`serial`]), so no other test thread allocates while a case is measured.
use crate::common;
use crate::fuzz_checks;

use common::{hex, with_big_stack};
use fuzz_checks::{Trickle, Typed};
use godot_serde::{Config, GodotVersion, Variant, VariantType};
use peak_alloc::PeakAlloc;
use serde::de::{DeserializeOwned, IgnoredAny};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

const SLACK: usize = 64 * 1024;

/// Held by each `#[test]` while it measures: the counter is global, so tests may not run
/// side by side.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Heap per input byte a decoded `Variant` may hold: every 4 bytes (a Nil) can become a
/// `Variant` (32 bytes, 8 ×; 40 with the `double-precision` feature) in a `Vec` that
/// grows by doubling (2 ×) and holds the old and the new buffer while it moves (1.5 ×):
/// 24 ×, below `size_of::<Variant>()` ×. This is
/// proportional to what was really decoded, never to a count the input claims.
const VARIANT_FACTOR: usize = size_of::<Variant>();

/// Peak heap held above the starting point while `f` runs (its result included).
fn peak_of<T>(f: impl FnOnce() -> T) -> usize {
    let base = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let r = f();
    let peak = HEAP.peak_usage().saturating_sub(base);
    drop(r);
    peak
}

/// The worst case seen for one budget: peak heap, input length, what.
#[derive(Default)]
struct Worst {
    excess: f64,
    peak: usize,
    len: usize,
    what: String,
    cases: usize,
}

impl Worst {
    fn record(&mut self, peak: usize, len: usize, factor: usize, what: impl FnOnce() -> String) {
        self.cases += 1;
        let budget = SLACK + factor * len;
        assert!(
            peak <= budget,
            "{}: {peak} bytes of heap for {len} bytes of input (budget {budget})",
            what()
        );
        let excess = peak as f64 / budget as f64;
        if excess > self.excess {
            *self = Worst {
                excess,
                peak,
                len,
                what: what(),
                cases: self.cases,
            };
        }
    }
}

/// Measures decoding `input` into `T` from a slice, a trickling reader, and a reader that
/// ends halfway, against `factor` × the bytes the decoder was given.
fn measure<T: DeserializeOwned>(
    worst: &mut Worst,
    config: Config,
    input: &[u8],
    factor: usize,
    name: &str,
) {
    let ty = std::any::type_name::<T>();
    let what = |path: &str| format!("{name} as {ty} via {path} ({:?})", config.version());
    let peak = peak_of(|| config.from_bytes::<T>(input));
    worst.record(peak, input.len(), factor, || what("from_bytes"));
    let peak = peak_of(|| {
        config.from_reader::<_, T>(Trickle {
            data: input,
            step: 3,
        })
    });
    worst.record(peak, input.len(), factor, || what("from_reader"));
    let half = &input[..input.len() / 2];
    let peak = peak_of(|| config.from_reader::<_, T>(half));
    worst.record(peak, half.len(), factor, || {
        what("from_reader, ended early")
    });
}

/// [`measure`] of a `Variant`, then the same through the direct path
/// (`variant_from_bytes`, `variant_from_reader`), against the same budget.
fn measure_variant(worst: &mut Worst, config: Config, input: &[u8], name: &str) {
    measure::<Variant>(worst, config, input, VARIANT_FACTOR, name);
    let what = |path: &str| format!("{name} via {path} ({:?})", config.version());
    let peak = peak_of(|| config.variant_from_bytes(input));
    worst.record(peak, input.len(), VARIANT_FACTOR, || {
        what("variant_from_bytes")
    });
    let peak = peak_of(|| {
        config.variant_from_reader(Trickle {
            data: input,
            step: 3,
        })
    });
    worst.record(peak, input.len(), VARIANT_FACTOR, || {
        what("variant_from_reader")
    });
    let half = &input[..input.len() / 2];
    let peak = peak_of(|| config.variant_from_reader(half));
    worst.record(peak, half.len(), VARIANT_FACTOR, || {
        what("variant_from_reader, ended early")
    });
}

/// Decodes `input` into every target, each against its budget.
fn measure_all(worst: &mut [Worst; 2], config: Config, input: &[u8], name: &str) {
    let [compact, variant] = worst;
    measure::<IgnoredAny>(compact, config, input, 4, name);
    measure::<Vec<u8>>(compact, config, input, 4, name);
    measure::<String>(compact, config, input, 4, name);
    measure::<serde_bytes::ByteBuf>(compact, config, input, 4, name);
    measure::<Typed>(compact, config, input, 4, name);
    // A 4-byte empty PackedStringArray element is a 24-byte `String`: like a `Variant`, the
    // output itself outgrows 4 × the input, so only proportionality can be asked of it.
    measure::<Vec<String>>(variant, config, input, VARIANT_FACTOR, name);
    measure_variant(variant, config, input, name);
}

fn word(w: u32) -> [u8; 4] {
    w.to_le_bytes()
}

/// A header for `ty` in `version`.
fn header(ty: VariantType, version: GodotVersion, flags: u32) -> [u8; 4] {
    let id = ty.id(version).expect("type exists in this engine");
    word(u32::from(id) | flags)
}

/// Inputs whose counts and lengths claim far more than they hold, for every container and
/// packed type of `version`; some followed by a lot of real data.
fn forged(version: GodotVersion) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let big = [0x7fff_ffff_u32, 0x4000_0000, 0x0100_0000, 0x8000_0000];
    for id in 0..40 {
        let Some(ty) = VariantType::from_id(id, version) else {
            continue;
        };
        for &count in &big {
            let mut bytes = header(ty, version, 0).to_vec();
            match ty {
                VariantType::NodePath => {
                    bytes.extend(word(count | 0x8000_0000));
                    bytes.extend(word(count));
                    bytes.extend(word(0));
                }
                VariantType::Object => {
                    // Class "Node", then the property count.
                    bytes.extend(hex("04000000 4e6f6465"));
                    bytes.extend(word(count));
                }
                VariantType::Signal => {
                    bytes.extend(word(count));
                }
                _ => bytes.extend(word(count)),
            }
            bytes.extend(word(0));
            out.push((format!("{ty} claiming {count:#x}"), bytes.clone()));
            // The same claim followed by 256 KiB of real, small elements: the slice refuses
            // it at once, the reader decodes what arrives.
            let filler: &[u8] = match ty {
                VariantType::Array | VariantType::Dictionary => &[0; 4],
                VariantType::PackedStringArray | VariantType::NodePath => &[0; 4],
                VariantType::Object => &[0; 8],
                _ => &[0x41; 4],
            };
            for _ in 0..(256 * 1024 / filler.len()) {
                bytes.extend_from_slice(filler);
            }
            out.push((format!("{ty} claiming {count:#x}, 256 KiB follow"), bytes));
        }
    }
    // Typed containers (4.3+): the count after a descriptor.
    if version.has_typed_arrays() {
        out.push((
            "Array[int] claiming 2^31-1".into(),
            hex("1c000100 02000000 ffffff7f 00000000"),
        ));
        out.push((
            "Array[Node] claiming 2^31-1, class name 2^31-1".into(),
            hex("1c000200 ffffff7f 4e6f6465"),
        ));
    }
    if version.has_typed_dictionaries() {
        out.push((
            "Dictionary[int, int] claiming 2^31-1".into(),
            hex("1b000500 02000000 02000000 ffffff7f 00000000"),
        ));
    }
    // Real data, large: a 1 MiB PackedByteArray and String, 64 K Array elements.
    let mut pba = header(VariantType::PackedByteArray, version, 0).to_vec();
    pba.extend(word(1 << 20));
    pba.extend(std::iter::repeat_n(0x61, 1 << 20));
    out.push(("PackedByteArray of 1 MiB".into(), pba));
    let mut s = header(VariantType::String, version, 0).to_vec();
    s.extend(word(1 << 20));
    s.extend(std::iter::repeat_n(0x61, 1 << 20));
    out.push(("String of 1 MiB".into(), s));
    let mut a = header(VariantType::Array, version, 0).to_vec();
    a.extend(word(1 << 16));
    for _ in 0..(1 << 16) {
        a.extend(hex("02000000 07000000"));
    }
    out.push(("Array of 64 Ki ints".into(), a));
    out
}

/// The fixtures' bytes, and each with one aligned word replaced by a forged count.
fn fixture_mutants() -> Vec<(String, GodotVersion, Vec<u8>)> {
    let mut out = Vec::new();
    for (dir, version) in [("godot4", GodotVersion::V4_4), ("godot3", GodotVersion::V3)] {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(dir);
        for entry in std::fs::read_dir(folder).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            for line in std::fs::read_to_string(&path).expect("read").lines() {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                    continue;
                };
                let Some(h) = v["hex"].as_str() else { continue };
                let bytes = hex(h);
                let name = format!("{dir}/{}", v["name"].as_str().unwrap_or("?"));
                if bytes.len() <= 512 {
                    for at in (0..bytes.len().saturating_sub(3)).step_by(4) {
                        for forged in [0x7fff_ffff_u32, 0x4000_0000] {
                            let mut m = bytes.clone();
                            m[at..at + 4].copy_from_slice(&forged.to_le_bytes());
                            out.push((format!("{name} word {at} = {forged:#x}"), version, m));
                        }
                    }
                }
                out.push((name, version, bytes));
            }
        }
    }
    out
}

#[test]
fn decoding_holds_at_most_64_kib_plus_4_times_the_input() {
    let _serial = serial();
    let mut worst: [Worst; 2] = Default::default();
    let versions = [
        GodotVersion::V3,
        GodotVersion::V4_0,
        GodotVersion::V4_3,
        GodotVersion::V4_4,
    ];
    for version in versions {
        let config = Config::new(version).with_allow_objects(true);
        for (name, input) in forged(version) {
            measure_all(&mut worst, config, &input, &name);
        }
        // Refused objects: the class name is read for the message, bounded as any string.
        let refused = Config::new(version);
        let object = header(VariantType::Object, version, 0);
        for input in [
            [&object[..], &hex("ffffff7f 4e6f6465")].concat(),
            object.to_vec(),
        ] {
            measure_all(&mut worst, refused, &input, "refused Object");
        }
    }
    let mutants = fixture_mutants();
    assert!(mutants.len() > 5_000, "{} mutants", mutants.len());
    for (name, version, input) in &mutants {
        let config = Config::new(*version).with_allow_objects(true);
        let [compact, variant] = &mut worst;
        measure::<IgnoredAny>(compact, config, input, 4, name);
        measure::<Typed>(compact, config, input, 4, name);
        measure_variant(variant, config, input, name);
    }
    for (budget, w) in [
        "64 KiB + 4 × input",
        "64 KiB + size_of::<Variant>() × input",
    ]
    .iter()
    .zip(&worst)
    {
        println!(
            "budget {budget}: {} cases; worst {} bytes for {} input bytes ({:.1}% of its budget): {}",
            w.cases,
            w.peak,
            w.len,
            w.excess * 100.0,
            w.what
        );
    }
    // The forged cases really were measured (a broken counter would pass everything).
    let probe = peak_of(|| vec![0u8; 100_000]);
    assert!(
        (100_000..200_000).contains(&probe),
        "counter broken: {probe}"
    );
}

/// `levels` nested containers each claiming every element the bytes after its own count
/// could hold (issue 11.3): level `i` is `open` (its header, descriptors) and a count of
/// `(total - (i + 1) · level_len) / unit` items, where `level_len` is `open`, the count and
/// `entry` (the key before the next level's value, Dictionaries only); zeros fill the input
/// to `total` bytes.
fn nested_forged(open: &str, entry: &str, unit: usize, levels: usize, total: usize) -> Vec<u8> {
    let (open, entry) = (hex(open), hex(entry));
    let level_len = open.len() + 4 + entry.len();
    let mut out = Vec::with_capacity(total);
    for i in 0..levels {
        let count = (total - (i + 1) * level_len) / unit;
        out.extend_from_slice(&open);
        out.extend(word(u32::try_from(count).unwrap()));
        out.extend_from_slice(&entry);
    }
    out.resize(total, 0);
    out
}

/// A target that nests through untyped sequences (serde's `Vec`).
#[derive(serde_derive::Deserialize)]
#[allow(dead_code)]
struct Deep(Vec<Deep>);

/// A target that nests through maps (serde's `BTreeMap`).
#[derive(serde_derive::Deserialize)]
#[allow(dead_code)]
struct DeepMap(std::collections::BTreeMap<i32, DeepMap>);

/// The nested shapes of [`nested_forged`]: name, `open`, `entry`, bytes per claimed item.
const NESTED_SHAPES: [(&str, &str, &str, usize); 4] = [
    ("Arrays", "1c000000", "", 4),
    // Array[Array] (4.3+): kind 1 in the header, builtin type 28.
    ("typed Arrays", "1c000100 1c000000", "", 4),
    ("Dictionaries", "1b000000", "02000000 00000000", 8),
    // Dictionary[int, Dictionary] (4.4): kinds 1 and 1, types 2 and 27; key int 0.
    (
        "typed Dictionaries",
        "1b000500 02000000 1b000000",
        "02000000 00000000",
        8,
    ),
];

/// Issue 11.3: each level's hint was checked against the same remaining bytes, so 128
/// nested Arrays each claiming everything left reserved it 128 times (132 KB → 50 MB; typed
/// Arrays 471 KB → 158 MB; with `max_depth` 1024, 482 KB → 1.1 GB). The hints of all open
/// containers now share one budget, the input's length.
#[test]
fn nested_forged_counts_stay_within_the_budget() {
    let _serial = serial();
    with_big_stack(|| {
        let mut worst: [Worst; 2] = Default::default();
        for (depth, total) in [(128, 132 * 1024), (1024, 482 * 1024)] {
            let config = Config::new(GodotVersion::V4_4).with_max_depth(depth);
            for (name, open, entry, unit) in NESTED_SHAPES {
                // One level fewer than the limit: the zeros after the last level are values
                // at the limit.
                let input = nested_forged(open, entry, unit, depth - 1, total);
                let name = format!("{} nested {name} claiming everything left", depth - 1);
                let [compact, variant] = &mut worst;
                measure::<IgnoredAny>(compact, config, &input, 4, &name);
                measure::<Deep>(compact, config, &input, 4, &name);
                measure::<DeepMap>(compact, config, &input, 4, &name);
                measure::<Typed>(compact, config, &input, 4, &name);
                measure_variant(variant, config, &input, &name);
            }
        }
        for w in &worst {
            println!(
                "nested: {} cases; worst {} bytes for {} input bytes ({:.1}% of its budget): {}",
                w.cases,
                w.peak,
                w.len,
                w.excess * 100.0,
                w.what
            );
        }
    });
}

/// A struct whose only field takes a Dictionary's entries through serde's buffering.
#[derive(serde_derive::Deserialize)]
#[allow(dead_code)]
struct Flat {
    #[serde(flatten)]
    rest: Variant,
}

/// An untagged enum: the whole value is buffered, then decoded again.
#[derive(serde_derive::Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Untagged {
    Any(Variant),
}

/// Heap per input byte through serde's buffering: a value is first held as serde's `Content`
/// (32 bytes a value, in `Vec`s growing by doubling), then decoded into the target (here a
/// `Variant`) while the buffer is still alive: about 2 × `size_of::<Variant>()`.
const BUFFERED_FACTOR: usize = 2 * size_of::<Variant>();

/// The measured worst case of each entry point over hostile inputs (forged counts, flat and
/// nested at depth 128 and 1024) and large valid ones, printed as the table of
/// docs/security.md: `cargo test --release --all-features --test heap worst_cases -- --nocapture`
/// (and without `--release` for the debug numbers).
#[test]
fn worst_cases_per_entry_point() {
    let _serial = serial();
    with_big_stack(|| {
        let mut inputs: Vec<(String, Config, Vec<u8>)> = Vec::new();
        for version in [GodotVersion::V3, GodotVersion::V4_4] {
            let config = Config::new(version).with_allow_objects(true);
            for (name, input) in forged(version) {
                inputs.push((name, config, input));
            }
        }
        for (depth, total) in [(128, 132 * 1024), (1024, 482 * 1024)] {
            let config = Config::new(GodotVersion::V4_4).with_max_depth(depth);
            for (name, open, entry, unit) in NESTED_SHAPES {
                let input = nested_forged(open, entry, unit, depth - 1, total);
                inputs.push((
                    format!("{} nested {name}, forged", depth - 1),
                    config,
                    input,
                ));
            }
        }
        // Valid data: 1 MiB of Nils in an Array, a 1 MiB PackedByteArray (into Vec<Variant>).
        let mut nils = hex("1c000000");
        nils.extend(word((1 << 18) - 2));
        nils.resize(1 << 20, 0);
        inputs.push(("Array of 1 MiB of Nils".into(), Config::godot4(), nils));
        let mut pba = hex("1d000000");
        pba.extend(word((1 << 20) - 8));
        pba.resize(1 << 20, 0x61);
        inputs.push(("PackedByteArray of 1 MiB".into(), Config::godot4(), pba));

        type Run = fn(Config, &[u8]) -> usize;
        fn run<T: DeserializeOwned>(config: Config, input: &[u8]) -> usize {
            peak_of(|| config.from_bytes::<T>(input)).max(peak_of(|| {
                config.from_reader::<_, T>(Trickle {
                    data: input,
                    step: 3,
                })
            }))
        }
        let entries: [(&str, usize, Run); 6] = [
            ("IgnoredAny (validation only)", 4, run::<IgnoredAny>),
            ("typed struct (every marker type)", 4, run::<Typed>),
            ("Variant", VARIANT_FACTOR, run::<Variant>),
            // A PackedByteArray's byte is a whole `Variant` here: 4 × the Variant budget.
            ("Vec<Variant>", VARIANT_FACTOR * 4, run::<Vec<Variant>>),
            ("#[serde(flatten)] Variant", BUFFERED_FACTOR, run::<Flat>),
            (
                "#[serde(untagged)] Variant",
                BUFFERED_FACTOR,
                run::<Untagged>,
            ),
        ];
        println!(
            "| entry point | budget | worst share of the budget | largest heap / input (inputs ≥ 64 KiB) |"
        );
        println!("|---|---|---|---|");
        for (entry, factor, f) in entries {
            let mut worst = Worst::default();
            let mut ratio = (0.0, String::new());
            for (name, config, input) in &inputs {
                let peak = f(*config, input);
                worst.record(peak, input.len(), factor, || format!("{entry}: {name}"));
                let r = peak as f64 / input.len() as f64;
                if input.len() >= 64 << 10 && r > ratio.0 {
                    ratio = (r, format!("{peak} B for {} B, {name}", input.len()));
                }
            }
            println!(
                "| {entry} | 64 KiB + {factor} × input | {:.0} % ({} B for {} B, {}) | {:.1} × ({}) |",
                worst.excess * 100.0,
                worst.peak,
                worst.len,
                worst.what.split(": ").nth(1).unwrap_or_default(),
                ratio.0,
                ratio.1
            );
        }
    });
}

/// The text form (`text::take_from_str` into a `Variant`) has no counts to forge: what it
/// holds is what it built from the text it really read, at most 2 × `size_of::<Variant>()` per
/// byte of text. The densest texts: `[[],[],…]` (3 bytes an Array), `[{},{},…]`, `[0,0,…]`,
/// nested `[[[…]]]`, keys `{0:0,1:0,…}`, and long packed arrays.
#[test]
fn text_parsing_holds_at_most_64_kib_plus_2_variants_per_byte() {
    let _serial = serial();
    let factor = 2 * VARIANT_FACTOR;
    let repeat = |item: &str, n: usize| {
        let mut s = String::from("[");
        for i in 0..n {
            if i > 0 {
                s.push(',');
            }
            s.push_str(item);
        }
        s.push(']');
        s
    };
    let n = 1 << 17;
    let mut keys = String::from("{");
    for i in 0..n {
        keys.push_str(&format!("{i}:0,"));
    }
    keys.push('}');
    let texts: Vec<(&str, String)> = vec![
        ("Arrays of empty Arrays", repeat("[]", n)),
        ("Arrays of empty Dictionaries", repeat("{}", n)),
        ("Arrays of zeros", repeat("0", n)),
        ("Arrays of empty strings", repeat("\"\"", n)),
        ("Arrays of Vector2", repeat("Vector2(0,0)", n / 4)),
        (
            "Arrays of Transform3D",
            repeat("Transform3D(0,0,0,0,0,0,0,0,0,0,0,0)", n / 16),
        ),
        ("Arrays of StringName", repeat("&\"\"", n)),
        ("Arrays of NodePath", repeat("NodePath(\"\")", n)),
        ("a Dictionary of distinct keys", keys),
        (
            "127 nested Arrays",
            format!("{}{}", "[".repeat(127), "]".repeat(127)),
        ),
        (
            "a PackedByteArray",
            format!("PackedByteArray({})", vec!["0"; n].join(",")),
        ),
        (
            "a PackedStringArray",
            format!("PackedStringArray({})", vec!["\"\""; n].join(",")),
        ),
    ];
    let mut worst = Worst::default();
    for (name, text) in &texts {
        let peak = peak_of(|| godot_serde::text::take_from_str(text, Config::godot4()));
        let parsed = godot_serde::text::take_from_str(text, Config::godot4());
        assert!(parsed.is_ok(), "{name} parses: {:?}", parsed.err());
        worst.record(peak, text.len(), factor, || format!("text: {name}"));
    }
    println!(
        "text into Variant, 64 KiB + {factor} × input: worst {} B for {} B of text ({:.0} % of its budget, {:.1} ×): {}",
        worst.peak,
        worst.len,
        worst.excess * 100.0,
        worst.peak as f64 / worst.len as f64,
        worst.what
    );
}

/// A short distinct name for `i`: base 62 over `[0-9A-Za-z]` (one character for the first
/// 62, two for the next 3 844, ...), so that a text of distinct keys or sections is as
/// dense as the format allows.
fn short_name(mut i: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[i % 62]);
        i /= 62;
        if i == 0 {
            break;
        }
        i -= 1;
    }
    String::from_utf8(out).unwrap()
}

/// The ConfigFile texts that cost a `Document` the most heap per byte, each about `len`
/// bytes long: many tiny keys, many sections, empty headers, one key repeated, keys set and
/// erased, deep values, one large value, text without `=`.
fn config_file_shapes(len: usize) -> Vec<(&'static str, String)> {
    let fill = |unit: &dyn Fn(usize) -> String| fuzz_checks::heap::fill_to("", unit, "", len);
    let deep = format!("{}{}", "[".repeat(127), "]".repeat(127));
    vec![
        (
            "distinct keys `k=1`",
            fill(&|i| format!("{}=1\n", short_name(i))),
        ),
        (
            "sections of one key `[s]k=1`",
            fill(&|i| format!("[{}]k=1\n", short_name(i))),
        ),
        ("empty headers `[]`", fill(&|_| "[]".to_owned())),
        ("one key repeated `k=1`", fill(&|_| "k=1\n".to_owned())),
        (
            "one key set and erased",
            fill(&|_| "k=1\nk=null\n".to_owned()),
        ),
        (
            "distinct keys set and erased",
            fill(&|i| format!("{0}=1\n{0}=null\n", short_name(i))),
        ),
        (
            "distinct keys of 127 nested Arrays",
            fill(&|i| format!("{}={deep}\n", short_name(i))),
        ),
        (
            "one value of empty Arrays",
            format!("k=[{}]\n", vec!["[]"; len / 3].join(",")),
        ),
        ("text without `=`", format!("{}=1\n", "a".repeat(len))),
    ]
}

/// Heap per byte of text a `Document` may hold for its index of sections and keys (the
/// text itself included): one-key sections cost the most, about 240 bytes each for 8 to 10
/// bytes of text (24 ×).
const CONFIG_FILE_INDEX_FACTOR: usize = 32;

/// A `Document` holds its text and a fixed amount per section and key: values, repeated
/// and erased lines and headers cost nothing once read, so every shape but one large value
/// stays within 32 × its text (it held 92 × for deep values, 75 × for one-key sections, 30 ×
/// for empty headers, 22 × for one repeated key). One value is read as the text form reads
/// it, within 2 × `size_of::<Variant>()` per byte (`text_parsing_holds_...` above).
#[test]
fn config_file_document_heap_per_byte_of_text() {
    let _serial = serial();
    with_big_stack(|| {
        let mut worst = Worst::default();
        let mut value = Worst::default();
        for (name, text) in config_file_shapes(256 << 10) {
            let peak =
                peak_of(|| godot_serde::config_file::Document::parse(&text, Config::godot4()));
            let doc = godot_serde::config_file::Document::parse(&text, Config::godot4());
            assert!(doc.is_ok(), "{name}: {:?}", doc.err());
            println!(
                "ConfigFile {name}: {peak} B for {} B of text ({:.1} ×)",
                text.len(),
                peak as f64 / text.len() as f64
            );
            if name == "one value of empty Arrays" {
                value.record(peak, text.len(), 2 * VARIANT_FACTOR, || name.to_owned());
            } else {
                worst.record(peak, text.len(), CONFIG_FILE_INDEX_FACTOR, || {
                    name.to_owned()
                });
            }
        }
        println!(
            "ConfigFile Document, 64 KiB + {CONFIG_FILE_INDEX_FACTOR} × text: worst {} B for {} B \
             ({:.1} ×): {}; one value: {:.1} ×",
            worst.peak,
            worst.len,
            worst.peak as f64 / worst.len as f64,
            worst.what,
            value.peak as f64 / value.len.max(1) as f64
        );
    });
}

/// Over a limit, reading stops where the limit is crossed: an error at that byte, and no
/// more heap than the limit allowed so far.
#[test]
fn config_file_limits_refuse_early() {
    use godot_serde::ErrorKind;
    use godot_serde::config_file::{Document, Limits};
    let _serial = serial();
    // 100 one-key sections (`[s0]k=1\n` ...): the key line that would open the 51st is
    // refused, at its first byte.
    let text: String = (0..100).map(|i| format!("[s{i}]k=1\n")).collect();
    let fifty_first = text.find("[s50]").unwrap() + "[s50]".len();
    let limits = Limits::new().with_max_sections(50);
    let err = Document::parse_with_limits(&text, Config::godot4(), &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max: 50, .. }),
        "{err}"
    );
    assert_eq!(err.offset(), Some(fifty_first), "{err}");
    assert!(err.to_string().contains("sections"), "{err}");
    // Refusing stops the reading there: 100 000 sections (1.1 MB of text) past a limit of 50
    // hold no more than 50 would.
    let many: String = (0..100_000).map(|i| format!("[s{i}]k=1\n")).collect();
    let mut refused = None;
    let peak = peak_of(|| {
        refused = Document::parse_with_limits(&many, Config::godot4(), &limits).err();
    });
    assert!(
        matches!(
            refused.as_ref().map(godot_serde::Error::kind),
            Some(ErrorKind::LimitExceeded { max: 50, .. })
        ),
        "{refused:?}"
    );
    assert!(
        peak < SLACK,
        "{peak} B held to refuse the 51st of 100 000 sections"
    );
    // Keys: a repeated key counts once, an erased one not at all.
    let text = "a=1\na=2\nb=1\nb=null\nc=1\nd=1\n";
    let limits = Limits::new().with_max_keys(2);
    let err = Document::parse_with_limits(text, Config::godot4(), &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max: 2, .. }),
        "{err}"
    );
    assert_eq!(err.offset(), Some(text.find("d=1").unwrap()), "{err}");
    let before_d = &text[..text.find("d=1").unwrap()];
    assert!(Document::parse_with_limits(before_d, Config::godot4(), &limits).is_ok());
    // The text's size, before anything is read or copied.
    let big = "k=1\n".repeat(1 << 18); // 1 MiB
    let limits = Limits::new().with_max_text_size(1 << 19);
    let (peak, err) = {
        let mut err = None;
        let peak = peak_of(|| {
            err = Document::parse_with_limits(&big, Config::godot4(), &limits).err();
        });
        (peak, err.unwrap())
    };
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max, .. } if *max == 1 << 19),
        "{err}"
    );
    assert!(peak < 4096, "{peak} B held to refuse 1 MiB of text");
    // The default: 16 MiB of text.
    assert_eq!(Limits::new().max_text_size(), 16 << 20);
    let huge = "k=1\n".repeat((16 << 18) + 1);
    let err = Document::parse(&huge, Config::godot4()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max, .. } if *max == 16 << 20),
        "{err}"
    );
}

/// A small compressed ConfigFile that decompresses past the limit (16 MiB by default: a
/// 17 MiB text of `k=1` lines compresses to 340 KB with Zstd) is refused from its header,
/// before any of it is decompressed or parsed; under the limit, the `Document` holds its
/// text once (not copied out of the decompressed bytes), within the index budget.
#[cfg(feature = "compression")]
#[test]
fn compressed_config_file_is_refused_past_its_text_limit() {
    use godot_serde::ErrorKind;
    use godot_serde::config_file::Limits;
    use godot_serde::container::{self, CompressionMode, DEFAULT_BLOCK_SIZE};
    let _serial = serial();
    let text = "k=1\n".repeat(17 << 18); // 17 MiB, one key repeated
    let file =
        container::write_compressed(text.as_bytes(), CompressionMode::Zstd, DEFAULT_BLOCK_SIZE)
            .unwrap();
    drop(text);
    println!("17 MiB of ConfigFile text compressed to {} B", file.len());
    let mut result = None;
    let peak = peak_of(|| {
        result = Some(container::load_config_file(&file, None, Config::godot4()).map(|_| ()));
    });
    let err = result.unwrap().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DecompressedTooLarge { max, .. } if *max == 16 << 20),
        "{err}"
    );
    assert!(peak <= SLACK, "{peak} B held to refuse it");
    // A lower limit through the limits-taking entry point: 1 MiB.
    let limits = Limits::new().with_max_text_size(1 << 20);
    let text = "k=1\n".repeat(1 << 18); // exactly 1 MiB: accepted
    let file =
        container::write_compressed(text.as_bytes(), CompressionMode::Zstd, DEFAULT_BLOCK_SIZE)
            .unwrap();
    let peak = peak_of(|| {
        container::load_config_file_with_limits(&file, None, Config::godot4(), &limits).unwrap()
    });
    // The decompressed bytes become the document's text: 2 × the text while the output
    // grows by doubling, then 1 × (it held 24 ×: a copy of the text and a record per line).
    assert!(
        peak <= SLACK + 2 * text.len(),
        "{peak} B for {} B",
        text.len()
    );
    let text = format!("{text}k=1\n"); // one line more
    let file =
        container::write_compressed(text.as_bytes(), CompressionMode::Zstd, DEFAULT_BLOCK_SIZE)
            .unwrap();
    let err = container::load_config_file_with_limits(&file, None, Config::godot4(), &limits)
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DecompressedTooLarge { max, .. } if *max == 1 << 20),
        "{err}"
    );
    // A plain file past the limit is refused before it is copied.
    let err =
        container::load_config_file_with_limits(text.as_bytes(), None, Config::godot4(), &limits)
            .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max, .. } if *max == 1 << 20),
        "{err}"
    );
}

/// The text form's costliest shapes per byte, each an element repeated in one outer Array of
/// 384 KiB: containers nested in every way (ten Arrays deep, `[{}]`, `{"a":[[]]}`,
/// Dictionaries of Arrays, typed containers, objects) and long runs of tiny values.
fn text_shapes(len: usize) -> Vec<(&'static str, String)> {
    let run = fuzz_checks::heap::run_of;
    let keys_of_arrays = fuzz_checks::heap::fill_to("{", |i| format!("{i}:[],"), "}", len);
    vec![
        ("[]", run("[]", len)),
        ("0", run("0", len)),
        ("[0]", run("[0]", len)),
        ("[[]]", run("[[]]", len)),
        ("[[[[[[[[[[]]]]]]]]]]", run("[[[[[[[[[[]]]]]]]]]]", len)),
        (
            "100 nested Arrays",
            run(&format!("{}{}", "[".repeat(100), "]".repeat(100)), len),
        ),
        ("{}", run("{}", len)),
        ("[{}]", run("[{}]", len)),
        ("{0:[]}", run("{0:[]}", len)),
        ("{\"a\":[[]]}", run("{\"a\":[[]]}", len)),
        ("{0:{0:{0:{0:{}}}}}", run("{0:{0:{0:{0:{}}}}}", len)),
        ("{0:[],1:[],…} (one Dictionary)", keys_of_arrays),
        ("[\"\"]", run("[\"\"]", len)),
        ("Array[int]([0])", run("Array[int]([0])", len)),
        ("Array[Array]([[]])", run("Array[Array]([[]])", len)),
        (
            "Dictionary[int,Array]({0:[]})",
            run("Dictionary[int,Array]({0:[]})", len),
        ),
        ("Object(Node,\"a\":[])", run("Object(Node,\"a\":[])", len)),
        ("one Object, properties 0, 1, …, 0", {
            let mut o = String::from("Object(Node,");
            for i in 0.. {
                if o.len() + 24 > len {
                    break;
                }
                o.push_str(&format!("\"{i}\":0,"));
            }
            o.push_str("\"0\":1)");
            o
        }),
        ("PackedByteArray()", run("PackedByteArray()", len)),
        // One byte of the value per 2 of text; a `Variant` per byte in a `Vec<Variant>`.
        (
            "PackedByteArray(0,0,…) (one)",
            format!("PackedByteArray({}0)", "0,".repeat(len / 2 - 9)),
        ),
    ]
}

/// Every text shape through every reading entry point of the text form, against the text
/// form's budget: 64 KiB + 2 × `size_of::<Variant>()` × the text. Prints each shape's heap per
/// byte of text: `cargo test --release --test heap text_shapes -- --nocapture`.
#[test]
fn text_shapes_hold_at_most_64_kib_plus_2_variants_per_byte() {
    use godot_serde::text;
    let _serial = serial();
    let factor = 2 * VARIANT_FACTOR;
    let config = Config::godot4().with_allow_objects(true);
    type Read = fn(&str, Config) -> bool;
    let entries: [(&str, Read); 4] = [
        ("parse_variant_with", |t, c| {
            text::parse_variant_with(t, c).is_ok()
        }),
        ("from_str_with::<Variant>", |t, c| {
            text::from_str_with::<Variant>(t, c).is_ok()
        }),
        // The bound holds for a typed target's errors too.
        ("from_str_with::<Vec<Variant>>", |t, c| {
            text::from_str_with::<Vec<Variant>>(t, c).is_ok()
        }),
        ("from_str_with::<IgnoredAny>", |t, c| {
            text::from_str_with::<IgnoredAny>(t, c).is_ok()
        }),
    ];
    let mut worst = Worst::default();
    let mut over = Vec::new();
    println!(
        "| shape | text bytes | {} |",
        entries.map(|e| e.0).join(" | ")
    );
    for (shape, input) in text_shapes(384 << 10) {
        let mut row = format!("| `{shape}` | {} |", input.len());
        for (i, (entry, read)) in entries.into_iter().enumerate() {
            let mut ok = false;
            let peak = peak_of(|| ok = read(&input, config));
            // Typed targets may refuse a shape (an Object is no `Vec`).
            assert!(ok || i >= 2, "{shape} via {entry} reads");
            let budget = SLACK + factor * input.len();
            if peak > budget {
                over.push(format!("{shape} via {entry}: {peak} B > {budget} B"));
            } else {
                worst.record(peak, input.len(), factor, || format!("{shape} via {entry}"));
            }
            row.push_str(&format!(" {:.1} |", peak as f64 / input.len() as f64));
        }
        println!("{row}");
    }
    println!(
        "worst within the budget: {} B for {} B ({:.0} %): {}",
        worst.peak,
        worst.len,
        worst.excess * 100.0,
        worst.what
    );
    assert!(over.is_empty(), "over the budget:\n{}", over.join("\n"));
}

/// Writing the text form: every shape read is written again; `variant_to_string_with` holds
/// only the text (a `String` growing by doubling, up to 3 × while it moves): at most
/// 64 KiB and 4 bytes per byte written. `to_string_with` (serde) first makes the value a
/// Variant (`to_variant`), which it holds too: printed, not bounded here.
#[test]
fn text_writing_holds_at_most_64_kib_plus_4_bytes_per_byte_written() {
    use godot_serde::text;
    let _serial = serial();
    let config = Config::godot4().with_allow_objects(true);
    println!("| shape | text written | variant_to_string_with | to_string_with |");
    for (shape, input) in text_shapes(384 << 10) {
        let v = text::parse_variant_with(&input, config).unwrap();
        let mut written = String::new();
        let peak = peak_of(|| written = text::variant_to_string_with(&v, config));
        let peak_serde = peak_of(|| text::to_string_with(&v, config).unwrap());
        let len = written.len();
        let budget = SLACK + 4 * len;
        assert!(peak <= budget, "{shape}: {peak} B > {budget} B");
        println!(
            "| `{shape}` | {len} | {:.1} | {:.1} |",
            peak as f64 / len as f64,
            peak_serde as f64 / len as f64
        );
    }
}

#[cfg(feature = "resource")]
mod resource_text;
