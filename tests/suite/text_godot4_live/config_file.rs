//! ConfigFile against a live Godot 4 engine (`tests/godot4/text_cfg.gd`): the engine's
//! `save()` against our [`Document`], and `load()` / `parse()` of our files and of
//! hand-written ones against [`Document::parse`]; see `godot4_configfile_both_ways`.
//!
//! [`Document`]: godot_serde::config_file::Document
//! [`Document::parse`]: godot_serde::config_file::Document::parse

use super::*;

/// Hand-written ConfigFile texts for `ConfigFile.load()` / `parse()` against
/// [`Document::parse`](godot_serde::config_file::Document::parse): `(name, text)`.
const CFG_TEXTS: &[(&str, &str)] = &[
    ("comments", "; top\nk=1 ; trailing\n[s] ; c\nv=\"a;b\"\n"),
    ("hash_is_not_a_comment", "# not a comment\nk=1\n"),
    ("key_with_space", "my key=1\n"),
    ("quoted_keys", "\"my key\"=1\n\"a\\\"b\"=2\n\"a=b\"=3\n"),
    ("glued_key", "garbage\nk=1\n"),
    ("duplicate_key", "k=1\nk=2\n"),
    ("repeated_section", "[a]\nx=1\n[b]\ny=2\n[a]\nz=3\n"),
    ("empty_header", "[a]\nx=1\n[]\ny=2\n"),
    ("trimmed_section", "[  a b  ]\nx=1\n"),
    ("section_on_key_line", "k=1 [b]\nx=2\n"),
    ("multiline_values", "k=[1,\n2,\n3]\nd={\n\"a\": 1\n}\n"),
    ("null_value", "k=null\nj=1\n"),
    ("empty_key", "=1\nk=2\n"),
    ("escaped_bracket", "[a\\]b]\nk=1\n"),
    ("color_at_end_of_line", "c=#ff8000\n"),
    ("color_at_end_of_file", "c=#ff8000"),
    ("color_then_space", "c=#ff8000 \nd=#fff\t\n"),
    ("crlf", "k=1\r\n[s]\r\nv=2\r\n"),
    ("tabs", "\tk\t=\t1\n"),
    (
        "every_type",
        "n=null\nb=true\ni=-7\nf=1e10\ns=\"x\\ny\"\nv2=Vector2(1, 2)\nv2i=Vector2i(1, 2)\nr=Rect2(1, 2, 3, 4)\nri=Rect2i(1, 2, 3, 4)\nv3=Vector3(1, 2, 3)\nv3i=Vector3i(1, 2, 3)\nt2=Transform2D(1, 2, 3, 4, 5, 6)\nv4=Vector4(1, 2, 3, 4)\nv4i=Vector4i(1, 2, 3, 4)\np=Plane(1, 2, 3, 4)\nq=Quaternion(1, 2, 3, 4)\nab=AABB(1, 2, 3, 4, 5, 6)\nba=Basis(1, 2, 3, 4, 5, 6, 7, 8, 9)\nt3=Transform3D(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)\npr=Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)\nc=Color(1, 0.5, 0, 1)\nsn=&\"name\"\nnp=NodePath(\"a/b:c\")\nrid=RID(5)\nca=Callable()\nsi=Signal()\nd={\"a\": [1, 2.5]}\na=[1, \"two\"]\nta=Array[int]([1, 2])\ntd=Dictionary[String, int]({\"a\": 1})\npb=PackedByteArray(1, 2)\npi=PackedInt32Array(1)\npl=PackedInt64Array(1)\npf=PackedFloat32Array(0.5)\npd=PackedFloat64Array(0.1)\nps=PackedStringArray(\"a\")\npv2=PackedVector2Array(1, 2)\npv3=PackedVector3Array(1, 2, 3)\npc=PackedColorArray(1, 1, 1, 1)\npv4=PackedVector4Array(1, 2, 3, 4)\n",
    ),
    (
        "project",
        "; Engine configuration file.\n; It's best edited using the editor UI and not directly,\n\nconfig_version=5\n\n[application]\n\nconfig/name=\"Game\"\nconfig/features=PackedStringArray(\"4.6\", \"Forward Plus\")\n\n[display]\n\nwindow/size/viewport_width=1152\n",
    ),
    ("error_array", "a=1\nk=[1,\n"),
    ("error_section", "[unterminated\nk=1\n"),
    ("error_value", "k=\n"),
    ("error_identifier", "a=1\nk=nope\nj=1\n"),
    ("error_object_syntax", "k=Object(\n"),
];

/// A ConfigFile's content as (section, key, exact value), in its order.
type Keys = Vec<(String, String, String)>;

fn doc_keys(doc: &godot_serde::config_file::Document) -> Keys {
    let mut out = Vec::new();
    for s in doc.sections() {
        for k in doc.keys(s) {
            let v = match doc.get(s, k) {
                Ok(Some(v)) => exact(&v),
                other => format!("get: {other:?}"),
            };
            out.push((s.to_owned(), k.to_owned(), v));
        }
    }
    out
}

/// The `KEY` lines of the engine for `name` in `mode`.
fn engine_keys(stdout: &str, name: &str, mode: &str) -> Keys {
    let config = config();
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("KEY "))
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .filter(|p| p[0] == name && p[1] == mode)
        .map(|p| {
            let s = String::from_utf8(unhex(p[2])).unwrap();
            let k = String::from_utf8(unhex(p[3])).unwrap();
            let v = config
                .from_bytes::<Variant>(&unhex(p[4]))
                .map_or_else(|e| format!("undecodable: {e}"), |v| exact(&v));
            (s, k, v)
        })
        .collect()
}

/// The engine's error code on a `<WHAT> <name> <code>` line.
fn engine_code(stdout: &str, what: &str, name: &str) -> i64 {
    let prefix = format!("{what} {name} ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {prefix}line:\n{stdout}"))
        .parse()
        .unwrap()
}

/// One `set_value` call: section, key, value (`Nil` erases).
type Call = (String, String, Variant);

fn call(s: &str, k: &str, v: Variant) -> Call {
    (s.to_owned(), k.to_owned(), v)
}

/// The `set_value` sequences that both the engine's `save()` and our [`Document`] write.
fn cfg_calls() -> Vec<(&'static str, Vec<Call>)> {
    let config = config();
    let mut values = vec![call("", "config_version", Variant::Int(5))];
    for path in [
        "text/godot4/var_to_str-sample.jsonl",
        "godot4/vectors-sample.jsonl",
    ] {
        for r in records(path) {
            let Some(hex) = field(&r, "hex_canonical").or_else(|| field(&r, "hex")) else {
                continue;
            };
            let Ok(v) = config.from_bytes::<Variant>(&unhex(hex)) else {
                continue;
            };
            if r.get("kind").is_none() && text_safe(&v) && v != Variant::Nil && depth(&v) < 100 {
                let name = field(&r, "name").unwrap_or("");
                values.push(call("values", name, v));
            }
        }
    }
    let keys = [
        "my key",
        "a=b",
        "clé",
        "a\"b",
        "#tag",
        "a\\b",
        "a.b:c-d_e",
        "a;b",
        "[x]",
        "tab\tkey",
        "x",
    ]
    .iter()
    .enumerate()
    .map(|(i, k)| call("s", k, Variant::Int(i as i64)))
    .chain([call("s", "x", Variant::from("again"))])
    .collect();
    let sections = vec![
        call("a b", "k", Variant::Int(1)),
        call("é", "k", Variant::Int(2)),
        call("x]y", "k", Variant::Int(3)),
        call("a/b", "k", Variant::Int(4)),
        call("", "global", Variant::Int(5)),
        call("a b", "k2", Variant::Int(6)),
    ];
    vec![
        ("empty", Vec::new()),
        ("values", values),
        ("keys", keys),
        ("sections", sections),
        (
            "null_erases",
            vec![
                call("s", "a", Variant::Int(1)),
                call("s", "b", Variant::Int(2)),
                call("s", "a", Variant::Nil),
                call("s", "missing", Variant::Nil),
            ],
        ),
        (
            "null_on_only_key",
            vec![
                call("s", "k", Variant::Int(1)),
                call("t", "k", Variant::Int(2)),
                call("s", "k", Variant::Nil),
            ],
        ),
    ]
}

/// Edits of a lossless [`Document`] and of the engine's loaded ConfigFile: `(name, base,
/// calls)`.
fn cfg_edits() -> Vec<(&'static str, &'static str, Vec<Call>)> {
    let project = "; Engine configuration file.\n; comment kept\n\nconfig_version=5\n\n\
                   [application]\n\nconfig/name=\"Old\" ; trailing\n\
                   run/main_scene=\"res://main.tscn\"\n\n[display]\n\n\
                   window/size/viewport_width=1152\n\n; between sections\n[input]\n\n\
                   my_action={\n\"deadzone\": 0.5,\n\"events\": []\n}\n";
    vec![
        (
            "project_edits",
            project,
            vec![
                call("application", "config/name", Variant::from("New")),
                call("application", "config/version", Variant::from("1.0")),
                call("display", "window/size/viewport_width", Variant::Int(1920)),
                call("display", "window/size/viewport_height", Variant::Int(648)),
                call(
                    "rendering",
                    "renderer/rendering_method",
                    Variant::from("gl_compatibility"),
                ),
                call("", "new_global", Variant::Int(1)),
                call("input", "my_action", Variant::Nil),
                call("application", "run/main_scene", Variant::Nil),
            ],
        ),
        (
            "global_into_sections_only",
            "[a]\n\nx=1\n",
            vec![
                call("", "g", Variant::Int(2)),
                call("a", "y", Variant::Int(3)),
            ],
        ),
    ]
}

fn calls_file(calls: &[Call]) -> String {
    calls
        .iter()
        .map(|(s, k, v)| call_line(s, k, &config().to_bytes(v).expect("bytes")))
        .collect()
}

/// ConfigFile both ways, in one engine run:
///
/// - **engine writes**: `save()` of each `set_value` sequence is exactly the text our
///   [`Document`] writes for the same `set` calls, and we read the engine's file to the
///   values the engine reads from it;
/// - **we write**: `load()` and `parse()` of our file give, in the same order, the keys and
///   values we read;
/// - **hand-written files**: the engine's verdict (`load()` and `parse()`) and values equal
///   [`Document::parse`]'s;
/// - **lossless edits**: a `project.godot`-like file edited through [`Document`] reads in
///   the engine exactly as the engine's own ConfigFile after the same `set_value` calls.
///
/// [`Document`]: godot_serde::config_file::Document
#[test]
fn godot4_configfile_both_ways() {
    common::with_big_stack(configfile_both_ways);
}

#[allow(clippy::too_many_lines)]
fn configfile_both_ways() {
    use godot_serde::config_file::Document;
    let Some(engine) = engine("godot4_configfile_both_ways") else {
        return;
    };
    let config = config();
    let dir = std::env::temp_dir().join(format!("godot_serde_cfg4_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let calls = cfg_calls();
    let mut ours_text = BTreeMap::new();
    for (name, list) in &calls {
        std::fs::write(dir.join(format!("{name}.calls")), calls_file(list)).unwrap();
        let mut doc = Document::new(config);
        for (s, k, v) in list {
            doc.set(s, k, v).expect("Document::set");
        }
        std::fs::write(dir.join(format!("ours_{name}.cfg")), doc.to_string()).unwrap();
        ours_text.insert(*name, doc.to_string());
    }
    for (name, text) in CFG_TEXTS {
        std::fs::write(dir.join(format!("hand_{name}.cfg")), text).unwrap();
    }
    let edits = cfg_edits();
    for (name, base, list) in &edits {
        std::fs::write(dir.join(format!("{name}.base")), base).unwrap();
        std::fs::write(dir.join(format!("{name}.edits")), calls_file(list)).unwrap();
        let mut doc = Document::parse(base, config).expect("base parses");
        for (s, k, v) in list {
            doc.set(s, k, v).expect("Document::set");
        }
        std::fs::write(dir.join(format!("edited_{name}.cfg")), doc.to_string()).unwrap();
    }
    let (_project, stdout) = run(
        &engine,
        "configfile",
        "text_cfg.gd",
        &[dir.to_str().unwrap()],
    );

    let mut differ: Vec<(String, String)> = Vec::new();
    let (mut saved_same, mut encoded_same, mut engine_files_read, mut ours_read) = (0, 0, 0, 0);
    let (mut hand_verdicts, mut hand_values, mut edits_same) = (0, 0, 0);
    for (name, _) in &calls {
        let case = format!("cfg:{name}");
        assert_eq!(engine_code(&stdout, "SAVED", name), 0, "{name}: save()");
        let engine_text = std::fs::read_to_string(dir.join(format!("{name}.engine.out"))).unwrap();
        let encoded = std::fs::read_to_string(dir.join(format!("{name}.encoded.out"))).unwrap();
        let ours = &ours_text[name];
        if engine_text == *ours {
            saved_same += 1;
        } else {
            differ.push((
                case.clone(),
                format!("{case}: save() wrote {engine_text:?}, we {ours:?}"),
            ));
        }
        // encode_to_text() is save() except for `]` in section names, which it does not
        // escape (so its text does not read back as the same section).
        if encoded == *ours || encoded == engine_text.replace("\\]", "]") {
            encoded_same += 1;
        } else {
            differ.push((
                case.clone(),
                format!("{case}: encode_to_text() {encoded:?}, we {ours:?}"),
            ));
        }
        // The engine's view of our file, and ours of the engine's file.
        let engine_view = engine_keys(&stdout, &format!("ours_{name}"), "L");
        assert_eq!(
            engine_code(&stdout, "LOAD", &format!("ours_{name}")),
            0,
            "{name}"
        );
        match Document::parse(&engine_text, config) {
            Ok(doc) if doc_keys(&doc) == engine_view => engine_files_read += 1,
            other => differ.push((
                case.clone(),
                format!(
                    "{case}: we read the engine's file as {:?}, the engine ours as {engine_view:?}",
                    other.map(|d| doc_keys(&d))
                ),
            )),
        }
        let parsed = engine_keys(&stdout, &format!("ours_{name}"), "P");
        let doc_view = doc_keys(&Document::parse(ours, config).unwrap());
        // load() reads bytes as Latin-1 in unquoted keys and section names; parse() is the
        // text reader we follow. Both must match ours for ASCII files.
        if parsed == doc_view && (!ours.is_ascii() || engine_view == doc_view) {
            ours_read += 1;
        } else {
            differ.push((
                case.clone(),
                format!("{case}: the engine reads our file as {parsed:?} (load: {engine_view:?}), we as {doc_view:?}"),
            ));
        }
    }
    for (name, text) in CFG_TEXTS {
        let case = format!("cfg:{name}");
        let file = format!("hand_{name}");
        let parse_ok = engine_code(&stdout, "PARSE", &file) == 0;
        let load_ok = engine_code(&stdout, "LOAD", &file) == 0;
        assert_eq!(parse_ok, load_ok, "{name}: load() and parse() disagree");
        let ours = Document::parse(text, config);
        if ours.is_ok() != parse_ok {
            differ.push((
                case.clone(),
                format!(
                    "{case}: verdict ours {:?}, engine ok={parse_ok} ({text:?})",
                    ours.map(|d| doc_keys(&d))
                ),
            ));
            continue;
        }
        hand_verdicts += 1;
        let Ok(doc) = ours else { continue };
        let engine_view = engine_keys(&stdout, &file, "P");
        if doc_keys(&doc) == engine_view {
            hand_values += 1;
        } else {
            differ.push((
                case.clone(),
                format!(
                    "{case}: we read {:?}, the engine {engine_view:?} ({text:?})",
                    doc_keys(&doc)
                ),
            ));
        }
    }
    for (name, _, _) in &edits {
        let case = format!("cfg:{name}");
        assert_eq!(
            engine_code(&stdout, "EDITED", name),
            0,
            "{name}: load() of the base"
        );
        let theirs = engine_keys(&stdout, name, "E");
        let ours = engine_keys(&stdout, &format!("edited_{name}"), "L");
        if theirs == ours && !theirs.is_empty() {
            edits_same += 1;
        } else {
            differ.push((
                case.clone(),
                format!("{case}: the engine's edited ConfigFile {theirs:?}, our edited file in the engine {ours:?}"),
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "godot4 live ConfigFile: {} set_value sequences: {saved_same} save() texts identical to \
         ours, {encoded_same} encode_to_text() texts, {engine_files_read} engine files read as \
         the engine reads them, {ours_read} of our files read by the engine as we read them; \
         {} hand-written files: {hand_verdicts} verdicts, {hand_values} value lists; {} edited \
         files: {edits_same} read as the engine's own edit",
        calls.len(),
        CFG_TEXTS.len(),
        edits.len()
    );
    let differ = without_known_gaps(differ, true);
    assert!(
        differ.is_empty(),
        "{} differences from the engine:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
