//! Live round trip with a real Godot 4 engine (`$GODOT4`), one engine start per direction,
//! through the GDScript of `tests/godot4` (the values of `cases.gd`, which
//! `tests/conformance/godot4_values.rs` writes again on the Rust side, by name):
//!
//! - Godot → Rust (`encode_cases.gd`): for every value, `var_to_bytes` and
//!   `var_to_bytes_with_objects` equal our encoding of the same value (NodePath padding, which
//!   the engine leaves unwritten, masked), and our decoding gives that value (objects sent as
//!   ids compared by shape: the ids are per process). The engine's `var_to_str` equals our
//!   text of the value. Which older layouts (4.0, 4.3) write the same bytes is checked by rule.
//! - Rust → Godot (`decode_check.gd`): our bytes of every value, with full objects and (for the
//!   values without object instances) without, decoded by the engine and compared there.
//!
//! The engine is `$GODOT4`, else `godot4` on `PATH` (`test-support/src/engine.rs`). Without it the
//! tests print a banner and pass, unless `GODOT_SERDE_REQUIRE_ENGINE=1` (set by `.ci/run`).

use crate::common;
use crate::conformance;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::engine::{Godot4Project, godot4_or_skip, godot4_version};
use conformance::godot4_values::{NAMES, as_read_without_objects, has_objects, same_shape, value};
use conformance::*;
use godot_serde::{Config, ContainerType, GODOT_MAX_DEPTH, GodotVersion, Variant};
use serde_json::Value;

/// The 4.4+ layout, with Godot's nesting limit (the cases nest 1000 deep).
const PLAIN: Config = Config::godot4().with_max_depth(GODOT_MAX_DEPTH);
/// The same with objects in full (`var_to_bytes_with_objects` / `bytes_to_var_with_objects`).
const FULL: Config = PLAIN.with_allow_objects(true);

/// Values whose engine `var_to_str` differs from our text of the same value, with the reason.
pub const TEXT_DIFFERS: &[(&str, &str)] = &[
    (
        "object_script_instance",
        "a script instance's `script` property travels as its path (a String, which is what we \
         decode and show); the engine's text shows the live script, `Resource(\"res://item.gd\")`",
    ),
    (
        "dict_objects",
        "holds a script instance (as object_script_instance)",
    ),
    (
        "tdict_sn_item",
        "holds a script instance (as object_script_instance)",
    ),
    (
        "array_objects",
        "holds a script instance (as object_script_instance)",
    ),
    (
        "tarray_script_items",
        "holds script instances (as object_script_instance)",
    ),
];

/// Values that the engine, given our bytes (equal to its own), reads as something other than
/// the value, exactly as it reads its own bytes of it (`decode_check.gd` says `ENGINE`): (case,
/// mode, reason).
pub const ENGINE_ROUND_TRIP_LOSES: &[(&str, &str, &str)] = &[(
    "tdict_sn_item",
    "full",
    "`Dictionary[StringName, item.gd]`: the engine's `bytes_to_var_with_objects` of its own \
     `var_to_bytes_with_objects` output (the same bytes as ours) is a `Dictionary[StringName, \
     RefCounted]`: the value type's script is lost, while `Dictionary[item.gd, item.gd]` \
     (tdict_script_script) keeps both",
)];

/// How long one engine run may take.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The scripts of `tests/godot4`.
pub fn scripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/godot4");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gd"))
        .collect();
    out.sort();
    out
}

/// The engine (after printing its version), or `None` after the loud skip.
fn engine(test: &str) -> Option<PathBuf> {
    let engine = godot4_or_skip(test)?;
    eprintln!("{test}: Godot 4 engine {}", godot4_version(&engine));
    Some(engine)
}

/// Runs `script` in a fresh project holding every script of `tests/godot4`; returns the
/// project (still alive, for the files the script wrote) and the run's output.
fn run(test: &str, engine: &Path, script: &str, args: &[&str]) -> (Godot4Project, Output) {
    let scripts = scripts();
    let refs: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    let project = Godot4Project::new(test, &refs);
    let out = project.run(engine, script, args, TIMEOUT);
    (project, out)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `SUMMARY` line of a run, or a panic showing the whole output.
fn summary(script: &str, out: &Output) -> String {
    let text = stdout(out);
    text.lines()
        .find_map(|l| l.strip_prefix("SUMMARY "))
        .map(str::to_owned)
        .unwrap_or_else(|| {
            panic!(
                "{script}: no SUMMARY (exit {:?})\nstdout:\n{text}\nstderr:\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )
        })
}

/// `ours` equals the engine's bytes, except bytes that are zero in ours where the engine wrote
/// leftover memory: NodePath name padding (only for values holding a NodePath). Returns the
/// number of masked bytes, or a description of the first difference.
fn equal_but_padding(ours: &[u8], engine: &[u8], nodepaths: bool) -> Result<usize, String> {
    if ours.len() != engine.len() {
        return Err(format!("{} bytes, engine {}", ours.len(), engine.len()));
    }
    let mut masked = 0;
    for (k, (a, b)) in ours.iter().zip(engine).enumerate() {
        if a != b {
            if !(nodepaths && *a == 0) {
                return Err(format!("byte {k}: ours {a:02x}, engine {b:02x}"));
            }
            masked += 1;
        }
    }
    Ok(masked)
}

fn holds_nodepath(v: &Variant) -> bool {
    match v {
        Variant::NodePath(_) => true,
        Variant::Array(a) => a.items.iter().any(holds_nodepath),
        Variant::Dictionary(d) => d
            .iter()
            .any(|(k, v)| holds_nodepath(k) || holds_nodepath(v)),
        _ => false,
    }
}

/// Which typed containers a value holds: (typed Array, typed Dictionary).
fn typed_containers(v: &Variant) -> (bool, bool) {
    let or = |a: (bool, bool), b: (bool, bool)| (a.0 || b.0, a.1 || b.1);
    match v {
        Variant::Array(a) => a
            .items
            .iter()
            .map(typed_containers)
            .fold((a.element_type != ContainerType::Untyped, false), or),
        Variant::Dictionary(d) => d
            .iter()
            .map(|(k, v)| or(typed_containers(k), typed_containers(v)))
            .fold((false, d.is_typed()), or),
        _ => (false, false),
    }
}

/// Godot → Rust: the engine encodes every value of `cases.gd`.
#[test]
fn godot_to_rust() {
    let Some(engine) = engine("godot_to_rust") else {
        return;
    };
    let (project, out) = run("g2r", &engine, "encode_cases.gd", &["cases.jsonl"]);
    let count = summary("encode_cases.gd", &out);
    let text = std::fs::read_to_string(project.dir.join("cases.jsonl")).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    drop(project);
    let names: Vec<&str> = records.iter().map(name).collect();
    assert_eq!(
        names, NAMES,
        "cases.gd and godot4_values.rs list the same values"
    );
    assert_eq!(count, records.len().to_string());
    let report = common::with_big_stack(move || check_engine_values(&records));
    eprintln!("{}", report.join("\n"));
}

fn check_engine_values(records: &[Value]) -> Vec<String> {
    let mut failures = Vec::new();
    let (mut encodings, mut decodings, mut texts, mut masked) = (0, 0, 0, 0);
    let mut text_differs = 0;
    let (mut same_4_3, mut same_4_0) = (0, 0);
    for rec in records {
        let n = name(rec);
        let want = value(n);
        let plain_bytes = unhex(field(rec, "hex").unwrap());
        let full_bytes = unhex(field(rec, "hex_full").unwrap());
        let nodepaths = holds_nodepath(&want);
        let objects = has_objects(&want);
        assert_eq!(
            rec["objects"],
            Value::Bool(objects),
            "{n}: object instances"
        );
        let mut fail = |what: &str, detail: String| failures.push(format!("{n}: {what}: {detail}"));

        // With full objects: our bytes of the value and our decoding of the engine's.
        match equal_but_padding(&FULL.to_bytes(&want).unwrap(), &full_bytes, nodepaths) {
            Ok(m) => {
                masked += m;
                encodings += 1;
            }
            Err(e) => fail("var_to_bytes_with_objects", e),
        }
        match FULL.from_bytes::<Variant>(&full_bytes) {
            Ok(got) if format!("{got:?}") == format!("{want:?}") => decodings += 1,
            Ok(got) => fail("bytes_to_var_with_objects", format!("{got:?}")),
            Err(e) => fail("bytes_to_var_with_objects", e.to_string()),
        }

        // Without: objects are ids (per process), class- and script-typed containers carry
        // `EncodedObjectAsID`.
        let want_plain = as_read_without_objects(&want);
        match PLAIN.from_bytes::<Variant>(&plain_bytes) {
            Ok(got) if same_shape(&got, &want_plain) => {
                decodings += 1;
                // What we decoded (the engine's ids included) encodes as the engine encodes
                // what it decoded (for values without objects: with them it writes the new
                // wrappers' ids).
                let again = if objects {
                    plain_bytes.clone()
                } else {
                    unhex(field(rec, "hex_again").unwrap())
                };
                match equal_but_padding(&PLAIN.to_bytes(&got).unwrap(), &again, nodepaths) {
                    Ok(_) => encodings += 1,
                    Err(e) => fail("var_to_bytes of the decoded value", e),
                }
            }
            Ok(got) => fail("bytes_to_var", format!("{got:?}")),
            Err(e) => fail("bytes_to_var", e.to_string()),
        }
        if !objects {
            match equal_but_padding(&PLAIN.to_bytes(&want).unwrap(), &plain_bytes, nodepaths) {
                Ok(_) => encodings += 1,
                Err(e) => fail("var_to_bytes", e),
            }
        }

        // The engine's text of the value (none for the deep ones).
        let text = field(rec, "text").unwrap();
        if !text.is_empty() {
            let listed = TEXT_DIFFERS.iter().any(|(d, _)| *d == n);
            match (format!("{want:#}") == text, listed) {
                (true, false) => texts += 1,
                (false, true) => text_differs += 1,
                (true, true) => fail("var_to_str", "listed in TEXT_DIFFERS but equal".into()),
                (false, false) => fail(
                    "var_to_str",
                    format!("ours {:?}, engine {text:?}", format!("{want:#}")),
                ),
            }
        }

        // Older layouts: 4.3 writes typed Dictionaries untyped, 4.0–4.2 typed Arrays too
        // and have no PackedVector4Array (added in 4.3).
        let (typed_arrays, typed_dicts) = typed_containers(&want);
        let vector4s = matches!(want, Variant::PackedVector4Array(_));
        for (version, differs, count) in [
            (GodotVersion::V4_3, typed_dicts, &mut same_4_3),
            (
                GodotVersion::V4_0,
                typed_dicts || typed_arrays || vector4s,
                &mut same_4_0,
            ),
        ] {
            let old = Config::new(version)
                .with_max_depth(GODOT_MAX_DEPTH)
                .with_allow_objects(true);
            let same = old
                .to_bytes(&want)
                .is_ok_and(|b| equal_but_padding(&b, &full_bytes, nodepaths).is_ok());
            if same == differs {
                failures.push(format!(
                    "{n}: the {version:?} layout {} the engine's bytes",
                    if same {
                        "unexpectedly matches"
                    } else {
                        "differs from"
                    }
                ));
            }
            *count += usize::from(same);
        }
    }
    assert!(
        failures.is_empty(),
        "Godot → Rust:\n{}",
        failures.join("\n")
    );
    let n = records.len();
    assert_eq!(decodings, 2 * n);
    assert_eq!(text_differs, TEXT_DIFFERS.len());
    vec![format!(
        "Godot → Rust: {n} values generated in the engine; {encodings} encodings equal ours \
         ({masked} NodePath padding bytes masked), {decodings} decodings give the value, \
         {texts} var_to_str texts equal ours ({text_differs} listed differences); the 4.3 layout writes the same bytes for \
         {same_4_3}, the 4.0 layout for {same_4_0}"
    )]
}

/// Rust → Godot: the engine decodes our bytes of every value and compares them with its own.
#[test]
fn rust_to_godot() {
    let Some(engine) = engine("rust_to_godot") else {
        return;
    };
    let lines = common::with_big_stack(|| {
        let mut lines = String::new();
        let mut written = 0;
        for &n in NAMES {
            let want = value(n);
            let full = FULL.to_bytes(&want).unwrap();
            lines += &format!("{n} full {}\n", tohex(&full));
            written += 1;
            if !has_objects(&want) {
                let plain = PLAIN.to_bytes(&want).unwrap();
                lines += &format!("{n} plain {}\n", tohex(&plain));
                written += 1;
            }
        }
        (lines, written)
    });
    let (lines, written) = lines;
    let scripts = scripts();
    let refs: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    let project = Godot4Project::new("r2g", &refs);
    std::fs::write(project.dir.join("ours.txt"), lines).unwrap();
    let out = project.run(&engine, "decode_check.gd", &["ours.txt"], TIMEOUT);
    let summary = summary("decode_check.gd", &out);
    let text = stdout(&out);
    let cases: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .collect();
    let mut failed = Vec::new();
    let mut lossy = 0;
    for case in &cases {
        let words: Vec<&str> = case.splitn(4, ' ').collect();
        let listed = ENGINE_ROUND_TRIP_LOSES
            .iter()
            .any(|(n, m, _)| *n == words[0] && *m == words[1]);
        match (words[2], listed) {
            ("PASS", false) => {}
            ("ENGINE", true) => lossy += 1,
            _ => failed.push(format!(
                "{case}{}",
                if listed {
                    " (listed in ENGINE_ROUND_TRIP_LOSES)"
                } else {
                    ""
                }
            )),
        }
    }
    let passed = cases.len() - failed.len() - lossy;
    eprintln!(
        "Rust → Godot: {written} encodings of {} values read by the engine, {passed} equal its \
         value, {lossy} read as the engine reads its own bytes (listed) ({summary})",
        NAMES.len(),
    );
    assert!(failed.is_empty(), "the engine read:\n{}", failed.join("\n"));
    assert_eq!(cases.len(), written);
    assert_eq!(lossy, ENGINE_ROUND_TRIP_LOSES.len());
    assert_eq!(summary, format!("{written} {passed}"));
}

/// Crafted inputs where our verdict deliberately differs from `bytes_to_var` (`"plain"`) or
/// `bytes_to_var_with_objects` (`"objects"`): (input, decode, reason).
pub const VERDICT_DIFFERS: &[(&str, &str, &str)] = &[
    (
        "sample_object_full_abstract_class",
        "objects",
        "objects are data, never instantiated: the engine cannot instantiate `Script` and \
         refuses; we return the class name and properties",
    ),
    (
        "sample_object_full_script_ok",
        "objects",
        "scripts are never loaded: the engine refuses a script path that does not exist in its \
         project; we keep the path as data",
    ),
    (
        "sample_tarray_script_ok",
        "objects",
        "as sample_object_full_script_ok, for a script-typed Array's descriptor",
    ),
    (
        "cut_packed_byte_full_15",
        "plain",
        "a PackedByteArray whose last padding bytes are missing: both accept it, the engine's \
         `decode_var_size` counts the padding that is not there (16 of 15 bytes); we count the \
         bytes used",
    ),
    ("cut_packed_byte_full_15", "objects", "as above"),
    ("cut_packed_byte_plain_15", "plain", "as above"),
    ("cut_packed_byte_plain_15", "objects", "as above"),
    (
        "cut_tarray_packed_bytes_full_23",
        "plain",
        "as cut_packed_byte_full_15, for the PackedByteArray at the end of an Array",
    ),
    ("cut_tarray_packed_bytes_full_23", "objects", "as above"),
    ("cut_tarray_packed_bytes_plain_23", "plain", "as above"),
    ("cut_tarray_packed_bytes_plain_23", "objects", "as above"),
];

/// The crafted inputs: every malformed or unusual input of the recorded decode sample, every
/// value's bytes cut short (at the header, half way, one byte before the end), unknown type
/// ids, and a few hand-made ones (reasons in their names).
fn crafted_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs: Vec<(String, Vec<u8>)> = records("godot4/decode-sample.jsonl")
        .iter()
        .map(|r| {
            (
                format!("sample_{}", name(r)),
                unhex(field(r, "hex").unwrap()),
            )
        })
        .collect();
    for &n in NAMES {
        if n.starts_with("large_") || n.starts_with("deep_") {
            continue;
        }
        let want = value(n);
        let mut encodings = vec![("full", FULL.to_bytes(&want).unwrap())];
        if !has_objects(&want) {
            encodings.push(("plain", PLAIN.to_bytes(&want).unwrap()));
        }
        for (mode, bytes) in encodings {
            let mut cuts = vec![bytes.len() - 1, bytes.len() / 2, 4.min(bytes.len() - 1)];
            cuts.sort_unstable();
            cuts.dedup();
            for cut in cuts {
                inputs.push((format!("cut_{n}_{mode}_{cut}"), bytes[..cut].to_vec()));
            }
        }
    }
    for id in [39u8, 40, 63, 64, 127, 255] {
        inputs.push((format!("type_id_{id}"), vec![id, 0, 0, 0, 0, 0, 0, 0]));
    }
    for (n, hex) in [
        ("empty", ""),
        ("int_trailing_bytes", "0200000005000000ffff"),
        ("int_unknown_flag_bit_17", "0200020005000000"),
        ("int_flag_bit_24", "0200000105000000"),
        ("string_count_huge", "04000000ffffff7f"),
        ("string_invalid_utf8", "0400000002000000c3280000"),
        ("string_with_nul", "040000000300000061006200"),
        ("array_count_huge", "1c000000ffffff7f"),
        ("dict_count_huge", "1b000000ffffff7f"),
        ("packed_bytes_count_huge", "1d000000ffffffff"),
        ("packed_int32_count_huge", "1e000000ffffff3f"),
        ("tarray_builtin_id_39", "1c0001002700000000000000"),
        ("tarray_builtin_id_negative", "1c000100ffffffff00000000"),
        (
            "tarray_kind_3_script_not_res",
            "1c00030004000000612e676400000000",
        ),
        ("tdict_both_kinds_3", "1b000f000000000000000000"),
        ("object_id_zero", "180001000000000000000000"),
        ("object_full_empty_class", "1800000000000000"),
        ("nodepath_old_format", "1600000001000000"),
    ] {
        inputs.push((n.to_owned(), unhex(hex)));
    }
    inputs
}

/// The engine's verdict on every crafted input agrees with ours (refused or accepted, and
/// the bytes used), except the listed differences.
#[test]
fn bad_input_parity() {
    let Some(engine) = engine("bad_input_parity") else {
        return;
    };
    let inputs = common::with_big_stack(crafted_inputs);
    let lines: String = inputs
        .iter()
        .map(|(n, b)| format!("{n} {}\n", tohex(b)))
        .collect();
    let scripts = scripts();
    let refs: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    let project = Godot4Project::new("bad", &refs);
    std::fs::write(project.dir.join("inputs.txt"), lines).unwrap();
    let out = project.run(
        &engine,
        "bad_input.gd",
        &["inputs.txt", "verdicts.jsonl"],
        TIMEOUT,
    );
    let summary = summary("bad_input.gd", &out);
    let text = std::fs::read_to_string(project.dir.join("verdicts.jsonl")).unwrap();
    let verdicts: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), inputs.len(), "{summary}");
    let total = verdicts.len();
    let (report, counts) = common::with_big_stack(move || {
        let mut report = Vec::new();
        let (mut agree, mut refused, mut listed) = (0, 0, 0);
        for ((n, bytes), rec) in inputs.iter().zip(&verdicts) {
            assert_eq!(name(rec), n);
            for (which, config, prefix) in [("plain", PLAIN, ""), ("objects", FULL, "objects_")] {
                let engine_ok = rec[format!("{prefix}ok")].as_bool().unwrap();
                let engine = engine_ok.then(|| rec[format!("{prefix}consumed")].as_u64().unwrap());
                let ours = config.take_from_bytes::<Variant>(bytes);
                let ours_used = ours
                    .as_ref()
                    .ok()
                    .map(|(_, rest)| (bytes.len() - rest.len()) as u64);
                let deliberate = VERDICT_DIFFERS
                    .iter()
                    .any(|(d, w, _)| d == n && *w == which);
                if (ours_used == engine) == deliberate {
                    report.push(format!(
                        "{n} [{which}]: ours {}, engine {}{}",
                        match &ours {
                            Ok((_, rest)) => format!("used {} bytes", bytes.len() - rest.len()),
                            Err(e) => format!("refused ({e})"),
                        },
                        match engine {
                            Some(used) => format!("used {used} bytes"),
                            None => format!(
                                "refused ({})",
                                field(rec, &format!("{prefix}error")).unwrap_or("")
                            ),
                        },
                        if deliberate {
                            " (listed in VERDICT_DIFFERS, but they agree)"
                        } else {
                            ""
                        }
                    ));
                } else if deliberate {
                    listed += 1;
                } else {
                    agree += 1;
                    refused += usize::from(engine.is_none());
                }
                // Every refusal comes with the engine's reason (captured by its logger).
                if engine.is_none()
                    && field(rec, &format!("{prefix}error")).is_none_or(str::is_empty)
                {
                    report.push(format!("{n} [{which}]: refused without an error line"));
                }
            }
        }
        (report, (agree, refused, listed))
    });
    let (agree, refused, listed) = counts;
    eprintln!(
        "crafted inputs: {} inputs, {agree} of {} decodes agree with the engine ({refused} \
         refused by both), {listed} listed differences",
        total,
        2 * total
    );
    assert!(report.is_empty(), "crafted inputs:\n{}", report.join("\n"));
    assert_eq!(listed, VERDICT_DIFFERS.len());
}

/// The four framed files of `stream_file.gd`: (file, big-endian, full objects).
const FRAMED: [(&str, bool); 4] = [
    ("stream.bin", false),
    ("stream_be.bin", true),
    ("file.bin", false),
    ("file_be.bin", true),
];

/// The values of one framed file, as written and as read back: every value with full objects
/// (little-endian files), or the values without object instances, read as `bytes_to_var`
/// reads them (big-endian files).
fn framed_values(big_endian: bool) -> Vec<(&'static str, Variant, Variant)> {
    NAMES
        .iter()
        .map(|&n| (n, value(n)))
        .filter(|(_, v)| !big_endian || !has_objects(v))
        .map(|(n, v)| {
            let read = if big_endian {
                as_read_without_objects(&v)
            } else {
                v.clone()
            };
            (n, v, read)
        })
        .collect()
}

fn framing(big_endian: bool) -> godot_serde::frame::Framing {
    let config = if big_endian { PLAIN } else { FULL };
    godot_serde::frame::Framing::new(config)
        .with_big_endian(big_endian)
        .with_max_frame_size(1 << 24)
}

/// `StreamPeer.put_var` (a StreamPeerBuffer) and `FileAccess.store_var`, both ways: the
/// engine's files equal ours byte for byte (NodePath padding masked) and read back as the
/// values; the engine reads our files with `get_var` and compares every value.
#[test]
fn stream_and_file_framing() {
    let Some(engine) = engine("stream_and_file_framing") else {
        return;
    };
    // Godot → Rust.
    let (project, out) = run("framing_w", &engine, "stream_file.gd", &["write", "."]);
    summary("stream_file.gd write", &out);
    let files: Vec<Vec<u8>> = FRAMED
        .iter()
        .map(|(f, _)| std::fs::read(project.dir.join(f)).unwrap())
        .collect();
    drop(project);
    let (ours, checked) = common::with_big_stack(move || {
        let mut ours = Vec::new();
        let mut checked = 0;
        for ((file, big_endian), engine_bytes) in FRAMED.iter().zip(&files) {
            let values = framed_values(*big_endian);
            let framing = framing(*big_endian);
            let mut written = Vec::new();
            let mut nodepaths = false;
            for (_, v, _) in &values {
                framing.write(&mut written, v).unwrap();
                nodepaths |= holds_nodepath(v);
            }
            if let Err(e) = equal_but_padding(&written, engine_bytes, nodepaths) {
                panic!("{file}: ours differs from the engine's: {e}");
            }
            let mut rest = &engine_bytes[..];
            for (n, _, want) in &values {
                let (got, tail): (Variant, _) = framing
                    .take_from_bytes(rest)
                    .unwrap_or_else(|e| panic!("{file} {n}: {e}"));
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{file} {n}");
                rest = tail;
                checked += 1;
            }
            assert!(rest.is_empty(), "{file}: {} bytes left", rest.len());
            ours.push(written);
        }
        (ours, checked)
    });

    // Rust → Godot: our files (the ones just compared with the engine's).
    let scripts = scripts();
    let refs: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    let project = Godot4Project::new("framing_r", &refs);
    for ((file, _), bytes) in FRAMED.iter().zip(&ours) {
        std::fs::write(project.dir.join(file), bytes).unwrap();
    }
    let out = project.run(&engine, "stream_file.gd", &["read", "."], TIMEOUT);
    let summary = summary("stream_file.gd read", &out);
    let text = stdout(&out);
    // The bytes are the engine's own (compared above): a value it reads back as something
    // else is one of ENGINE_ROUND_TRIP_LOSES.
    let engine_loses = |c: &str| {
        let words: Vec<&str> = c.splitn(4, ' ').collect();
        ENGINE_ROUND_TRIP_LOSES
            .iter()
            .any(|(n, m, _)| *n == words[1] && (*m == "full") != words[0].ends_with("_be"))
            && words[2] == "FAIL"
    };
    let cases: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .collect();
    let lost = cases.iter().filter(|c| engine_loses(c)).count();
    let failed: Vec<&str> = cases
        .iter()
        .copied()
        .filter(|c| !c.ends_with(" PASS") && !engine_loses(c))
        .collect();
    assert!(failed.is_empty(), "the engine read:\n{}", failed.join("\n"));
    assert_eq!(
        lost, 2,
        "ENGINE_ROUND_TRIP_LOSES, in the stream and in the file"
    );
    assert_eq!(summary, format!("{checked} {}", checked - lost));
    eprintln!(
        "framing: {checked} framed values of the engine's 2 StreamPeerBuffer streams and 2 \
         store_var files (little- and big-endian) equal ours and decode; the engine read \
         {} of ours back as the value, {lost} as it reads its own bytes (listed) ({summary})",
        checked - lost
    );
}
