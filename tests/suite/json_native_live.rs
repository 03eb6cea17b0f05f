//! Godot 4's full-fidelity JSON against the live engine (`$GODOT4`), one engine start per
//! direction:
//!
//! - `our_json_is_the_engines_from_native`: values of every Godot 4 type made in the engine
//!   (`tests/godot4/json_from_native.gd`) reach us as `var_to_bytes` bytes; our
//!   `json::variant_to_string` must equal `JSON.stringify(JSON.from_native(v, full))` byte for
//!   byte, compact without and with full objects and indented with a tab, or fail where the
//!   engine logs an error. Objects sent by id (ids 0, 1, 2, 2^63-1 and three with the top bit
//!   set), alone and in untyped and typed Arrays and Dictionaries, come as hand-made bytes
//!   that the engine reads with `bytes_to_var_with_objects` (an `EncodedObjectAsID` each).
//! - `the_engines_to_native_reads_our_json`: our JSON of those values, and a set of malformed
//!   texts, go through `JSON.parse_string` + `JSON.to_native` in the engine
//!   (`tests/godot4/json_to_native.gd`); our `json::parse_variant` must give the same value
//!   (compared by `var_to_bytes`) or fail where the engine logs an error, except for the
//!   texts listed as deliberate differences (module docs of `godot_serde::json`).

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use common::engine::{Engine, Godot4Project};
use godot_serde::{Config, Variant, json};

fn unhex(s: &str) -> Vec<u8> {
    if s == "-" {
        return Vec::new();
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".to_owned();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot4")
        .join(name)
}

/// One value from the engine: its bytes and the engine's three JSON texts (`None`: the engine
/// logged an error).
struct Case {
    name: String,
    bytes: Vec<u8>,
    compact: Option<String>,
    full: Option<String>,
    pretty: Option<String>,
    /// The compact text the engine wrote while logging an error (it writes `null` in place of
    /// what it refuses).
    compact_logged: Option<String>,
}

fn text_field(flag: &str, h: &str) -> Option<String> {
    (flag == "ok").then(|| String::from_utf8(unhex(h)).unwrap())
}

/// Runs `json_from_native.gd` once for the whole binary.
fn engine_cases() -> Option<&'static Vec<Case>> {
    static CASES: OnceLock<Option<Vec<Case>>> = OnceLock::new();
    CASES
        .get_or_init(|| {
            let engine = Engine::Godot4.find_or_skip("json_native_live")?;
            let project = Godot4Project::new("json_from_native", &[&script("json_from_native.gd")]);
            let out = project.dir.join("values.txt");
            let run = project.run(
                &engine,
                "json_from_native.gd",
                &["--out", out.to_str().unwrap()],
                Duration::from_secs(120),
            );
            let stdout = String::from_utf8_lossy(&run.stdout);
            assert_eq!(run.status.code(), Some(0), "{stdout}");
            for line in stdout.lines().filter(|l| l.starts_with("ENGINE ")) {
                println!("Godot 4 engine: {}", &line[7..]);
            }
            let text = std::fs::read_to_string(&out).unwrap();
            Some(
                text.lines()
                    .map(|line| {
                        let f: Vec<&str> = line.split(' ').collect();
                        assert_eq!(f.len(), 8, "{line}");
                        Case {
                            name: f[0].to_owned(),
                            bytes: unhex(f[1]),
                            compact: text_field(f[2], f[3]),
                            full: text_field(f[4], f[5]),
                            pretty: text_field(f[6], f[7]),
                            compact_logged: (f[2] == "err" && f[3] != "-")
                                .then(|| String::from_utf8(unhex(f[3])).unwrap()),
                        }
                    })
                    .collect(),
            )
        })
        .as_ref()
}

fn objects() -> Config {
    Config::default().with_allow_objects(true)
}

#[test]
fn our_json_is_the_engines_from_native() {
    let Some(cases) = engine_cases() else {
        return;
    };
    let mut mismatches = Vec::new();
    let (mut errors, mut null_objects) = (0, 0);
    for c in cases {
        let v: Variant = objects().variant_from_bytes(&c.bytes).unwrap();
        for (form, engine, ours) in [
            (
                "compact",
                &c.compact,
                json::variant_to_string(&v, Config::default()),
            ),
            ("full", &c.full, json::variant_to_string(&v, objects())),
            (
                "pretty",
                &c.pretty,
                json::variant_to_string_pretty(&v, objects()),
            ),
        ] {
            match (engine, &ours) {
                (Some(e), Ok(o)) if e == o => {}
                (None, Err(_)) => errors += 1,
                // A null object (id 0) decodes as null here: without full objects the engine
                // logs "Condition !p_full_objects" for it and writes null, which is what we
                // write for null, without an error.
                (None, Ok(o))
                    if c.name.starts_with("null_object_id")
                        && form == "compact"
                        && c.compact_logged.as_ref() == Some(o) =>
                {
                    null_objects += 1;
                }
                _ => mismatches.push(format!(
                    "{} {form} ({}): engine {engine:?}, ours {ours:?}",
                    c.name,
                    hex(&c.bytes)
                )),
            }
        }
    }
    println!(
        "{} values, 3 forms each: {} texts equal, {errors} refused by both, {null_objects} \
         null objects written as null (the engine logs an error)",
        cases.len(),
        cases.len() * 3 - errors - null_objects - mismatches.len()
    );
    // Objects sent by id: the engine's texts are EncodedObjectAsID objects, and ours are equal.
    let ids = cases
        .iter()
        .filter(|c| c.name.starts_with("object_id"))
        .filter(|c| {
            c.full
                .as_ref()
                .is_some_and(|t| t.contains("EncodedObjectAsID"))
        })
        .count();
    assert!(ids >= 50, "only {ids} object ids written by the engine");
    assert!(cases.len() >= 140, "only {} values", cases.len());
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// How a text's verdict compares with the engine's.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Expect {
    /// The same verdict: both refuse, or both read the same value.
    Same,
    /// The engine reads it (coercing, without an error); we refuse on purpose.
    Stricter,
    /// Both read it; the values differ on purpose (`"f:inf"`: the engine reads 0).
    OtherValue,
}

/// Malformed and borderline texts: `(text, allow_objects, expectation)`.
fn malformed() -> Vec<(String, bool, Expect)> {
    use Expect::{OtherValue, Same, Stricter};
    let mut v: Vec<(String, bool, Expect)> = [
        // The engine's parser refuses these.
        ("", Same),
        ("   ", Same),
        ("[", Same),
        ("]", Same),
        ("{", Same),
        ("{\"a\"}", Same),
        ("{\"a\":}", Same),
        ("{\"a\" \"i:1\"}", Same),
        ("{1: \"i:1\"}", Same),
        ("[\"i:1\" \"i:2\"]", Same),
        ("[\"i:1\",,\"i:2\"]", Same),
        ("[,]", Same),
        ("{,}", Same),
        ("\"s:abc", Same),
        ("\"s:\\x\"", Same),
        ("\"s:\\u12\"", Same),
        ("\"s:\\u12G4\"", Same),
        ("\"s:\\ud800\"", Same),
        ("\"s:\\udc00\"", Same),
        ("\"s:\\ud800\\u0041\"", Same),
        ("\"s:\\v\"", Same),
        ("nul", Same),
        ("nulll", Same),
        ("True", Same),
        ("+1", Same),
        (".5", Same),
        ("'s:a'", Same),
        ("[\"i:1\"] x", Same),
        ("[\"i:1\"]]", Same),
        ("-", Same),
        ("[-]", Same),
        ("[1e]", Same),
        ("/* c */ null", Same),
        ("\u{e9}", Same),
        // Valid JSON that `to_native` refuses.
        ("1", Same),
        ("[1]", Same),
        ("[\"i:1\", 2.5]", Same),
        ("\"x\"", Same),
        ("\"I:1\"", Same),
        ("{}", Same),
        ("{\"args\": []}", Same),
        ("{\"type\": \"Vector2\"}", Same),
        ("{\"type\": \"Vector2\", \"args\": [1]}", Same),
        ("{\"type\": \"Vector2\", \"args\": [1, 2, 3]}", Same),
        ("{\"type\": \"Nope\", \"args\": []}", Same),
        ("{\"type\": \"int\", \"args\": [1]}", Same),
        ("{\"type\": \"bool\", \"args\": [true]}", Same),
        ("{\"type\": \"Nil\"}", Same),
        ("{\"type\": \"Dictionary\", \"args\": [\"s:a\"]}", Same),
        ("{\"type\": \"PackedVector2Array\", \"args\": [1, 2, 3]}", Same),
        ("{\"type\": \"PackedColorArray\", \"args\": [1, 2]}", Same),
        ("{\"type\": \"Object\", \"props\": []}", Same),
        ("{\"type\": \"Resource\", \"props\": []}", Same),
        ("{\"type\": \"Array\", \"elem_type\": \"Node\", \"args\": []}", Same),
        ("{\"type\": \"Array\", \"elem_type\": \"Nope\", \"args\": []}", Same),
        ("{\"type\": \"Array\", \"elem_type\": \"int\", \"args\": [\"s:a\"]}", Stricter),
        ("{\"type\": \"Dictionary\", \"key_type\": \"int\", \"args\": [\"s:a\", null]}", Same),
        ("[\"i:1\", \"zz\"]", Same),
        ("[\"i:1\", [\"s:a\", {\"type\": \"Vector3\", \"args\": []}]]", Same),
        // Accepted by both.
        ("null", Same),
        (" \t\r\n true \n", Same),
        ("[\"i:1\",]", Same),
        ("{\"type\": \"Vector2\", \"args\": [1, 2],}", Same),
        ("{\"type\": \"Vector2\", \"args\": [1, 2], \"extra\": 5}", Same),
        ("{\"type\": \"Vector2\", \"args\": [1, 2], \"type\": \"Vector2i\"}", Same),
        ("{\"type\": \"Vector2i\", \"args\": [01, -0]}", Same),
        ("{\"type\": \"Vector3\", \"args\": [1e2, -1.5E-3, 1.]}", Same),
        ("{\"type\": \"PackedFloat64Array\", \"args\": [0.1, 1e308, 1e-320, 123456789012345678901234567890]}", Same),
        ("{\"type\": \"PackedInt64Array\", \"args\": [9007199254740993, -9223372036854775808]}", Same),
        ("{\"type\": \"Array\", \"elem_type\": \"Nil\", \"args\": [\"i:1\"]}", Same),
        ("\"s:a\tb\nc\u{1}\"", Same),
        ("\"s:\\u00e9\\ud83d\\ude00\\/\\b\\f\"", Same),
        ("\"i:-9223372036854775808\"", Same),
        ("\"f:1e5\"", Same),
        ("\"f:-0.0\"", Same),
        ("\"sn:\"", Same),
        ("\"np:/a/b:c:d\"", Same),
        ("\"np:a//b\"", Same),
        ("{\"type\": \"RID\", \"args\": [5]}", Same),
        ("{\"type\": \"Signal\"}", Same),
        ("{\"type\": \"Dictionary\", \"args\": [\"s:a\", \"i:1\", \"sn:a\", \"i:2\"]}", Same),
        ("{\"type\": \"Dictionary\", \"args\": [\"i:1\", \"i:1\", \"f:1.0\", \"i:2\"]}", Same),
        // Coerced by the engine without an error; refused here.
        ("\"i:1.5\"", Stricter),
        ("\"i:abc\"", Stricter),
        ("\"i:\"", Stricter),
        ("\"i:99999999999999999999\"", Same),
        ("\"f:abc\"", Stricter),
        ("\"f:\"", Stricter),
        ("\"f:1.5x\"", Stricter),
        ("{\"type\": \"Vector2\", \"args\": [\"1\", true]}", Stricter),
        ("{\"type\": \"Vector2\", \"args\": [null, [1]]}", Stricter),
        ("{\"type\": \"Vector2i\", \"args\": [1.5, 2]}", Stricter),
        ("{\"type\": \"PackedByteArray\", \"args\": [256]}", Stricter),
        ("{\"type\": \"PackedStringArray\", \"args\": [1]}", Stricter),
        ("{\"type\": \"Array\", \"args\": 5}", Stricter),
        ("{\"type\": 5}", Same),
        // Read, with another value on purpose.
        ("\"f:inf\"", OtherValue),
        ("\"f:nan\"", OtherValue),
    ]
    .into_iter()
    .map(|(t, e)| (t.to_owned(), false, e))
    .collect();
    // Objects allowed.
    for (t, e) in [
        // The engine instantiates the class and writes every stored property; here the object
        // is data and holds the listed ones.
        (
            "{\"type\": \"Resource\", \"props\": [\"resource_name\", \"s:x\"]}",
            OtherValue,
        ),
        (
            "{\"type\": \"Resource\", \"props\": [\"resource_name\"]}",
            Same,
        ),
        (
            "{\"type\": \"Array\", \"elem_type\": \"Resource\", \"args\": [null]}",
            Same,
        ),
    ] {
        v.push((t.to_owned(), true, e));
    }
    // An object sent by id, as the engine writes it: without objects allowed both refuse it;
    // with them, a full EncodedObjectAsID (in an Array typed by another class too: the
    // engine's to_native does not check the elements' class).
    let encoded = r#"{"props":["object_id","i:-3","script",null],"type":"EncodedObjectAsID"}"#;
    v.push((encoded.to_owned(), false, Same));
    v.push((format!("[{encoded}]"), false, Same));
    v.push((
        format!(r#"{{"args":[{encoded}],"elem_type":"Resource","type":"Array"}}"#),
        true,
        Same,
    ));
    v.push((
        format!(r#"{{"args":["s:k",{encoded}],"type":"Dictionary","value_type":"Node"}}"#),
        true,
        Same,
    ));
    // Nesting past the engine's 1 024 levels: refused by both (here by the depth limit).
    v.push(("[".repeat(1100) + &"]".repeat(1100), false, Same));
    v
}

/// `JSON.to_native(JSON.parse_string(text), allow_objects)` in the engine for every text.
fn engine_to_native(texts: &[(String, bool)]) -> Vec<(bool, Vec<u8>)> {
    let engine = Engine::Godot4.find().unwrap();
    let project = Godot4Project::new("json_to_native", &[&script("json_to_native.gd")]);
    let input = project.dir.join("texts.txt");
    let out = project.dir.join("values.txt");
    let lines: Vec<String> = texts
        .iter()
        .map(|(t, objects)| {
            format!(
                "{} {}",
                if *objects { "objects" } else { "plain" },
                hex(t.as_bytes())
            )
        })
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let run = project.run(
        &engine,
        "json_to_native.gd",
        &[
            "--in",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let results: Vec<(bool, Vec<u8>)> = text
        .lines()
        .map(|l| {
            let (flag, h) = l.split_once(' ').unwrap();
            (flag == "ok", unhex(h))
        })
        .collect();
    assert_eq!(results.len(), texts.len());
    results
}

/// The engine's bytes decoded and encoded again by us.
fn canonical(bytes: &[u8]) -> Vec<u8> {
    let config = Config::default().with_allow_objects(true);
    let v: Variant = config.variant_from_bytes(bytes).unwrap();
    config.to_bytes(&v).unwrap()
}

fn our_to_native(text: &str, objects: bool) -> Option<Vec<u8>> {
    let config = Config::default().with_allow_objects(objects);
    let v = json::parse_variant(text, config).ok()?;
    Some(
        Config::default()
            .with_allow_objects(true)
            .to_bytes(&v)
            .unwrap(),
    )
}

#[test]
fn the_engines_to_native_reads_our_json() {
    let Some(cases) = engine_cases() else {
        return;
    };
    // Our JSON of every engine value, with and without full objects.
    let mut texts: Vec<(String, bool)> = Vec::new();
    for c in cases {
        let v: Variant = objects().variant_from_bytes(&c.bytes).unwrap();
        if let Ok(t) = json::variant_to_string(&v, objects()) {
            texts.push((t, true));
        }
        if let Ok(t) = json::variant_to_string(&v, Config::default()) {
            texts.push((t, false));
        }
    }
    let ours_count = texts.len();
    let bad = malformed();
    texts.extend(bad.iter().map(|(t, o, _)| (t.clone(), *o)));
    let engine = engine_to_native(&texts);

    let mut mismatches = Vec::new();
    let (mut same_values, mut both_refuse) = (0, 0);
    for (i, ((text, objects), (engine_ok, engine_bytes))) in texts.iter().zip(&engine).enumerate() {
        let expect = i.checked_sub(ours_count).map_or(Expect::Same, |k| bad[k].2);
        let ours = our_to_native(text, *objects);
        // Godot leaves the padding of a NodePath's names uninitialised in `var_to_bytes`:
        // compare the engine's value re-encoded by us (a decode of every engine byte).
        let engine_bytes = &canonical(engine_bytes);
        let expect = if i < ours_count
            && ["\"f:inf\"", "\"f:-inf\"", "\"f:nan\""]
                .iter()
                .any(|f| text.contains(f))
        {
            Expect::OtherValue
        } else {
            expect
        };
        let shown: String = text.chars().take(200).collect();
        match (expect, *engine_ok, &ours) {
            (Expect::Same, true, Some(b)) if b == engine_bytes => same_values += 1,
            (Expect::Same, false, None) => both_refuse += 1,
            (Expect::Stricter, true, None) => {}
            (Expect::OtherValue, true, Some(b)) if b != engine_bytes => {}
            _ => mismatches.push(format!(
                "{shown} (objects {objects}, expected {expect:?}): engine ok {engine_ok} {}, ours {:?}",
                hex(engine_bytes),
                ours.as_deref().map(hex)
            )),
        }
    }
    let stricter = bad.iter().filter(|b| b.2 == Expect::Stricter).count();
    let other = bad.iter().filter(|b| b.2 == Expect::OtherValue).count();
    println!(
        "{ours_count} texts of ours and {} malformed or borderline texts: {same_values} read as \
         the same value, {both_refuse} refused by both, {stricter} refused here only (the \
         engine coerces), {other} read as another value on purpose",
        bad.len()
    );
    assert!(ours_count >= 200, "only {ours_count} texts of ours");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
