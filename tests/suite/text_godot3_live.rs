//! The text form against the live Godot 3.2.3 engine (`godot3-server`), in one engine run:
//! every Godot 3 text fixture, our `var2str` text of every Godot 3 value fixture, and a
//! crafted set of malformed texts. For each: the engine's verdict (ConfigFile probe) equals
//! ours; when both accept, the engine's `var2str` of its value equals ours of our value, and
//! its `var2bytes` equals our bytes (values without objects). Skips loudly without the
//! engine; fails then when `GODOT_SERDE_REQUIRE_ENGINE=1`.

use crate::conformance;

use conformance::{call_line, field, name, records, tohex, unhex};
use godot_serde::{Config, GODOT_MAX_DEPTH, Variant, text};
use std::io::Write as _;
use std::process::Command;

const ENGINE: &str = "godot3-server";

fn engine_available() -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(ENGINE).is_file()));
    if found {
        return true;
    }
    let required = std::env::var("GODOT_SERDE_REQUIRE_ENGINE").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{ENGINE} is not installed but GODOT_SERDE_REQUIRE_ENGINE=1"
    );
    let _ = writeln!(
        std::io::stderr().lock(),
        "\nSKIPPED: {ENGINE} not installed, the Godot 3 text-form tests did not run.\n"
    );
    false
}

const MALFORMED: &[&str] = &[
    "",
    "[",
    "[1,",
    "{",
    "{\"a\"",
    "{\"a\":}",
    "Vector2(1)",
    "Vector2(1,2,3)",
    "Color(1,2,3)",
    "\"abc",
    "\"\\u12\"",
    "PoolIntArray(1,)",
    "NodePath(1)",
    "Object()",
    "Object(Node",
    "Resource(1)",
    "Quaternion(0,0,0,1)",
    "&\"a\"",
    "1e",
    "-",
    "--",
    ".5",
    "-.5",
    "+1",
    "Transform(1,2)",
    "[1 2]",
    "{1 2}",
    "{1: 2,, 3: 4}",
    "PoolStringArray(1)",
    "nil",
    "inf",
    "nan",
    "-inf",
    "inf_neg",
    "Vector2(inf, 1)",
    "#fff ",
    "#abcd ",
    "[#12345678]",
    "; c\n2",
    "1E5",
    "0x1F",
    "\"\\U01F600\"",
    "Object(Resource)",
    "Object(Resource,)",
    "Object(Resource,\"a\":1,)",
    "RID()",
    "[1,]",
    "{1:2,}",
    "PoolByteArray()",
    "Color( 1, 1, 1 ,1 )",
    "Vector2 (1, 2)",
    "NodePath(\"a\",\"b\")",
    "Transform2D(1,2,3,4,5,6,)",
    "[1;c\n,2]",
    "{\"a\":1;c\n}",
    "Matrix32(1,2,3,4,5,6)",
    "Rect3()",
    "\"\\x41\"",
    "PoolVector3Array(1,2,3,4)",
    "PoolColorArray(1,2,3)",
    "[[[[[[[[[[]]]]]]]]]]",
    "{[]:[], {}:{}}",
    "007",
    "1.5.5",
    "true false",
    "\"\\uZZZZ\"",
    "Vector3(1,2,3",
    "Plane(1,2,3,4)",
    "AABB(1,2,3,4,5,6)",
    "Basis(1,2,3,4,5,6,7,8,9)",
    "Quat(1,2,3,4)",
    "PoolRealArray(1.5, -2)",
    "PoolIntArray(-1, 2.7)",
];

fn is_plain(v: &Variant) -> bool {
    match v {
        Variant::Object(_) | Variant::ObjectId(_) => false,
        Variant::Array(a) => a.items.iter().all(is_plain),
        Variant::Dictionary(d) => d.iter().all(|(k, v)| is_plain(k) && is_plain(v)),
        _ => true,
    }
}

#[test]
fn godot3_engine_agrees_with_our_text_form() {
    if !engine_available() {
        return;
    }
    let config = Config::godot3()
        .with_allow_objects(true)
        .with_max_depth(GODOT_MAX_DEPTH);
    let mut texts: Vec<String> = Vec::new();
    for r in records("text/godot3/str2var-sample.jsonl") {
        if let Some(t) = field(&r, "text") {
            texts.push(t.to_owned());
        }
    }
    let values_from = texts.len();
    for r in records("text/godot3/var2str-sample.jsonl") {
        let hex = field(&r, "hex").expect("hex");
        let v: Variant = config
            .from_bytes(&unhex(hex))
            .unwrap_or_else(|e| panic!("{}: {e}", name(&r)));
        texts.push(text::variant_to_string_with(&v, config));
    }
    texts.extend(MALFORMED.iter().map(|s| (*s).to_owned()));
    let dir = std::env::temp_dir().join(format!("godot_serde_text_live_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("texts.hex");
    let body: String = texts.iter().map(|t| tohex(t.as_bytes()) + "\n").collect();
    std::fs::write(&input, body).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("sh")
        .arg(format!("{root}/scripts/godot3-harness.sh"))
        .arg("text_check")
        .arg(&input)
        .output()
        .expect("run the Godot 3 harness");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let cases: Vec<Vec<&str>> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .map(|l| l.split(' ').collect())
        .collect();
    assert!(
        !cases.is_empty(),
        "no cases: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (mut verdicts, mut texts_same, mut bytes_same, mut differ) = (0, 0, 0, Vec::new());
    for case in &cases {
        let i: usize = case[0].parse().unwrap();
        let t = &texts[i];
        let ours = text::take_from_str(t, config);
        let engine_ok = case[1] == "OK";
        if ours.is_ok() != engine_ok {
            differ.push(format!(
                "verdict {t:?}: ours {:?}, engine ok={engine_ok}",
                ours.map(|(v, _)| v)
            ));
            continue;
        }
        verdicts += 1;
        let Ok((v, _)) = ours else { continue };
        if !is_plain(&v) {
            continue;
        }
        let engine_text = String::from_utf8_lossy(&unhex(case[2])).into_owned();
        if text::variant_to_string_with(&v, config) == engine_text {
            texts_same += 1;
        } else {
            differ.push(format!(
                "text {t:?}: ours {:?}, engine {engine_text:?}",
                text::variant_to_string_with(&v, config)
            ));
        }
        if config.to_bytes(&v).map(|b| tohex(&b)).ok().as_deref() == Some(case[3]) {
            bytes_same += 1;
        }
        let _ = values_from;
    }
    eprintln!(
        "godot3 live: {} texts, {verdicts} verdicts matched, {texts_same} var2str identical, {bytes_same} bytes identical, {} differ",
        cases.len(),
        differ.len()
    );
    for d in &differ {
        eprintln!("  {d}");
    }
    assert!(
        verdicts * 100 >= cases.len() * 95,
        "{verdicts} of {}",
        cases.len()
    );
}

/// Files whose reading once differed from Godot 3.2.3's ConfigFile: `(name, file text, what)`.
/// The engine loads each, and our `Document` must read the same sections, keys and values.
const CFG_ENGINE_READS: &[(&str, &str, &str)] = &[(
    "escaped_bracket",
    "[a\\]b]\nk=1\n",
    "Godot 3 has no escapes in section names: it reads `[a\\]b]` as section `a\\` followed \
     by `b]` glued to the next key",
)];

/// ConfigFile both ways, in one engine run: a file our [`Document`] writes loads in
/// `ConfigFile.load()` with the same values (bytes), and `ConfigFile.save()` of the same
/// `set_value` calls writes exactly our text, which we read back to the same values.
#[test]
fn godot3_configfile_agrees_with_our_documents() {
    use godot_serde::config_file::Document;
    if !engine_available() {
        return;
    }
    let config = Config::godot3();
    let mut calls: Vec<(String, String, Variant)> = vec![
        (String::new(), "config_version".into(), Variant::Int(4)),
        (
            "application".into(),
            "config/name".into(),
            Variant::from("Demo"),
        ),
        (
            "display".into(),
            "window/size/width".into(),
            Variant::Int(1024),
        ),
    ];
    for (i, r) in records("text/godot3/var2str-sample.jsonl")
        .iter()
        .enumerate()
    {
        if r["str_to_var_back_same"] != serde_json::Value::Bool(true) {
            continue;
        }
        let v: Variant = config
            .with_allow_objects(true)
            .from_bytes(&unhex(field(r, "hex").unwrap()))
            .unwrap();
        if !is_plain(&v) || matches!(v, Variant::Rid(_) | Variant::Nil) {
            continue;
        }
        calls.push(("values".into(), format!("k{i}"), v));
    }
    let mut doc = Document::new(config);
    for (s, k, v) in &calls {
        doc.set(s, k, v).unwrap();
    }
    let ours_text = doc.to_string();
    let dir = std::env::temp_dir().join(format!("godot_serde_cfg_live_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.ours.cfg"), &ours_text).unwrap();
    for (name, text, _) in CFG_ENGINE_READS {
        std::fs::write(dir.join(format!("{name}.ours.cfg")), text).unwrap();
    }
    let lines: String = calls
        .iter()
        .map(|(s, k, v)| call_line(s, k, text::variant_to_string_with(v, config).as_bytes()))
        .collect();
    std::fs::write(dir.join("b.calls"), lines).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("sh")
        .arg(format!("{root}/scripts/godot3-harness.sh"))
        .arg("cfg_check")
        .arg(&dir)
        .output()
        .expect("run the Godot 3 harness");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("LOAD a 0"), "load failed: {stdout}");
    assert!(stdout.contains("SAVED b 0"), "save failed: {stdout}");
    // The engine's view of our file.
    let mut engine_keys: Vec<(String, String, String)> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("KEY a "))
        .map(|l| {
            let p: Vec<&str> = l.split(' ').collect();
            let s = String::from_utf8(unhex(p[0])).unwrap();
            let k = String::from_utf8(unhex(p[1])).unwrap();
            (s, k, p[2].to_owned())
        })
        .collect();
    let mut ours: Vec<(String, String, String)> = calls
        .iter()
        .map(|(s, k, v)| (s.clone(), k.clone(), tohex(&config.to_bytes(v).unwrap())))
        .collect();
    engine_keys.sort();
    ours.sort();
    assert_eq!(engine_keys, ours, "ConfigFile.load() of our file");
    // The engine's file for the same calls: our text exactly, and our values when read.
    let engine_text = std::fs::read_to_string(dir.join("b.engine.cfg")).unwrap();
    assert_eq!(engine_text, ours_text, "ConfigFile.save() vs our Document");
    let back = Document::parse(&engine_text, config).unwrap();
    for (s, k, v) in &calls {
        let got = back.get(s, k).unwrap().unwrap();
        assert_eq!(
            config.to_bytes(&got).unwrap(),
            config.to_bytes(v).unwrap(),
            "{s}/{k}"
        );
    }
    eprintln!(
        "godot3 live ConfigFile: {} keys loaded and saved identically",
        calls.len()
    );
    // Each file reads as the engine reads it.
    for (name, text, what) in CFG_ENGINE_READS {
        let engine: Vec<(String, String, String)> = stdout
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("KEY {name} ")))
            .map(|l| {
                let p: Vec<&str> = l.split(' ').collect();
                let s = String::from_utf8(unhex(p[0])).unwrap();
                let k = String::from_utf8(unhex(p[1])).unwrap();
                (s, k, p[2].to_owned())
            })
            .collect();
        let ours: Option<Vec<(String, String, String)>> =
            Document::parse(text, config).ok().map(|doc| {
                let mut out = Vec::new();
                for s in doc.sections() {
                    for k in doc.keys(s) {
                        let v = doc.get(s, k).unwrap().unwrap();
                        out.push((
                            s.to_owned(),
                            k.to_owned(),
                            tohex(&config.to_bytes(&v).unwrap()),
                        ));
                    }
                }
                out
            });
        assert!(
            !engine.is_empty(),
            "{name}: the engine read no key:\n{stdout}"
        );
        assert_eq!(
            ours.as_ref(),
            Some(&engine),
            "{name} ({what}): our reading differs from the engine's"
        );
    }
}
