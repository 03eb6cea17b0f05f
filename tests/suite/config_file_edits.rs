//! `Document` edits that used to land somewhere else or inject lines (issue 22 items 3 and 4),
//! a colour at the end of a line (22.8), the engines' ConfigFile gaps of issue 23, and the
//! engine named by `config_version` (issue 27 item 1). The expected texts and values are what
//! Godot 4.6 and 3.2.3 read (checked live in `tests/suite/config_file_live.rs`).

use godot_serde::config_file::Document;
use godot_serde::{Color, Config, ErrorKind, PackedStringArray, Variant};

fn both() -> [Config; 2] {
    [Config::godot4(), Config::godot3()]
}

/// `section`/`key` as the document reads them, as `(section, key, value text)`.
fn listing(doc: &Document) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for s in doc.sections() {
        for k in doc.keys(s) {
            let v = doc.get(s, k).unwrap().unwrap();
            out.push((s.to_owned(), k.to_owned(), v.to_string()));
        }
    }
    out
}

fn row(s: &str, k: &str, v: &str) -> (String, String, String) {
    (s.to_owned(), k.to_owned(), v.to_owned())
}

#[track_caller]
fn assert_unsupported(r: godot_serde::Result<()>, what: &str) {
    match r {
        Err(e) => assert!(
            matches!(e.kind(), ErrorKind::Unsupported(_)),
            "{what}: wrong error {e}"
        ),
        Ok(()) => panic!("{what}: accepted"),
    }
}

// ---- 22.3: the edit reads back where asked ----

#[test]
fn a_sectionless_key_goes_before_the_first_header_not_after_an_empty_one() {
    // `[]` does not open the section-less keys: `k=42` after it is in section `a`.
    for config in both() {
        let text = "[a]\nx=1\n[]\n";
        let mut doc = Document::parse(text, config).unwrap();
        doc.set("", "k", &Variant::Int(42)).unwrap();
        assert_eq!(doc.to_string(), "k=42\n\n[a]\nx=1\n[]\n");
        // The file as read back: `k` comes first.
        assert_eq!(listing(&doc), [row("", "k", "42"), row("a", "x", "1")]);
        let again = Document::parse(&doc.to_string(), config).unwrap();
        assert_eq!(again.get("", "k").unwrap(), Some(Variant::Int(42)));
        assert_eq!(again.get("a", "k").unwrap(), None);
    }
}

#[test]
fn a_section_name_that_reads_back_otherwise_is_refused() {
    for config in both() {
        let mut doc = Document::parse("[a]\nx=1\n", config).unwrap();
        // `[ a ]` reads back as `a`: the engine trims header names.
        assert_unsupported(doc.set(" a ", "k", &Variant::Int(42)), "\" a \"");
        assert_unsupported(doc.set("b ", "k", &Variant::Int(42)), "\"b \"");
        // `=42` is dropped on reading.
        assert_unsupported(doc.set("a", "", &Variant::Int(42)), "empty key");
        // Nothing changed.
        assert_eq!(doc.to_string(), "[a]\nx=1\n");
    }
}

#[test]
fn a_refused_edit_names_where_it_would_have_read_back() {
    let mut doc = Document::parse("[a]\nx=1\n", Config::godot3()).unwrap();
    let e = doc.set("a]x", "k", &Variant::Int(42)).unwrap_err();
    assert!(e.to_string().contains("section \"a\" key \"x]k\""), "{e}");
}

// ---- 22.4: no injection through keys or section names ----

#[test]
fn godot3_keys_with_separators_are_quoted_and_read_back_whole() {
    // Godot 3.2.3 reads a quoted key (`"x y"=1` is key `x y`); its `save()` writes keys bare.
    let cases: [(&str, &str); 6] = [
        ("x=1\ny", "\"x=1\ny\"=42"),
        ("a b", "\"a b\"=42"),
        ("q;c", "\"q;c\"=42"),
        ("say \"hi\"", "\"say \\\"hi\\\"\"=42"),
        ("[b]", "\"[b]\"=42"),
        ("tab\there", "\"tab\there\"=42"),
    ];
    for (key, line) in cases {
        let mut doc = Document::parse("[a]\n\nx=1\n", Config::godot3()).unwrap();
        doc.set("a", key, &Variant::Int(42)).unwrap();
        assert_eq!(doc.to_string(), format!("[a]\n\nx=1\n{line}\n"), "{key:?}");
        assert_eq!(
            listing(&doc),
            [row("a", "x", "1"), row("a", key, "42")],
            "{key:?}"
        );
    }
    // Keys the engine writes bare stay bare (`save()`'s bytes), unless they hold non-ASCII
    // text, which 3.2's `ConfigFile.load()` reads back byte by byte when bare.
    let mut doc = Document::new(Config::godot3());
    doc.set("a", "]/x\\", &Variant::Int(1)).unwrap();
    assert_eq!(doc.to_string(), "[a]\n\n]/x\\=1\n");
}

#[test]
fn godot3_section_names_with_a_bracket_are_refused() {
    // Godot 3 knows no escape in a header: `[a]\n[b]` would open section `b`, `[a]x]` gives
    // key `x]k` in section `a`.
    let mut doc = Document::parse("[a]\n\nx=1\n", Config::godot3()).unwrap();
    assert_unsupported(doc.set("a]\n[b", "k", &Variant::Int(42)), "a]\\n[b");
    assert_unsupported(doc.set("a]x", "k", &Variant::Int(42)), "a]x");
    assert_eq!(doc.to_string(), "[a]\n\nx=1\n");
    // Godot 4 reads `\]` as `]`.
    let mut doc = Document::parse("[a]\n\nx=1\n", Config::godot4()).unwrap();
    doc.set("a]\n[b", "k", &Variant::Int(42)).unwrap();
    assert_eq!(doc.to_string(), "[a]\n\nx=1\n\n[a\\]\n[b]\n\nk=42\n");
    assert_eq!(
        listing(&doc),
        [row("a", "x", "1"), row("a]\n[b", "k", "42")]
    );
    // A name ending in `\` escapes its own `]`: refused.
    assert_unsupported(doc.set("c\\", "k", &Variant::Int(1)), "c\\");
}

#[test]
fn serde_writer_refuses_names_that_would_inject() {
    use std::collections::BTreeMap;
    let mut top: BTreeMap<String, BTreeMap<String, i32>> = BTreeMap::new();
    top.entry("a]\n[b".into())
        .or_default()
        .insert("k".into(), 1);
    let e = godot_serde::config_file::to_string_with(&top, Config::godot3()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    // A key with a line break is quoted in both engines and reads back.
    let mut top: BTreeMap<String, BTreeMap<String, i32>> = BTreeMap::new();
    top.entry("s".into())
        .or_default()
        .insert("x=1\ny".into(), 1);
    for config in both() {
        let text = godot_serde::config_file::to_string_with(&top, config).unwrap();
        let back: BTreeMap<String, BTreeMap<String, i32>> =
            godot_serde::config_file::from_str_with(&text, config).unwrap();
        assert_eq!(back, top, "{text:?}");
    }
}

// ---- 22.8: a colour at the end of a line ----

#[test]
fn a_colour_at_the_end_of_a_line_reads() {
    // Color::html("#ff8000"): 0xff/255, 0x80/255, 0.
    let orange = Variant::Color(Color {
        r: 1.0,
        g: 128.0 / 255.0,
        b: 0.0,
        a: 1.0,
    });
    for config in both() {
        for text in ["c=#ff8000\n", "c=#ff8000;x\n", "[s]\nc=#ff8000\r\nd=1\n"] {
            let doc = Document::parse(text, config).unwrap();
            let s = if text.starts_with('[') { "s" } else { "" };
            assert_eq!(doc.get(s, "c").unwrap(), Some(orange.clone()), "{text:?}");
            let v: Variant = godot_serde::config_file::from_str_with(text, config).unwrap();
            assert!(v.to_string().contains("Color(1, 0.5019608, 0, 1)"), "{v}");
        }
        // At the very end of the input both engines refuse ("Expected value, got EOF").
        assert!(Document::parse("c=#ff8000", config).is_err());
    }
}

// ---- issue 23: what the engines do ----

#[test]
fn removing_a_sections_only_key_removes_the_section() {
    for config in both() {
        let mut doc = Document::parse("[a]\n\nx=1\n\n[s]\n\nk=1\n\n[b]\n\ny=2\n", config).unwrap();
        assert!(doc.remove("s", "k").unwrap());
        assert_eq!(doc.to_string(), "[a]\n\nx=1\n\n[b]\n\ny=2\n");
        assert_eq!(doc.sections(), ["a", "b"]);
        // The last section: the file ends with one line break, as `save()` writes it.
        let mut doc = Document::parse("[a]\n\nx=1\n\n[s]\n\nk=1\n", config).unwrap();
        doc.set("s", "k", &Variant::Nil).unwrap();
        assert_eq!(doc.to_string(), "[a]\n\nx=1\n");
        // A section with another key keeps its header.
        let mut doc = Document::parse("[s]\n\nk=1\nj=2\n", config).unwrap();
        doc.set("s", "k", &Variant::Nil).unwrap();
        assert_eq!(doc.to_string(), "[s]\n\nj=2\n");
        assert_eq!(doc.sections(), ["s"]);
    }
}

#[test]
fn a_header_without_keys_is_no_section() {
    // `ConfigFile.get_sections()` lists only sections that hold keys; `key=null` erases the
    // key and then its empty section.
    for config in both() {
        let doc = Document::parse("[e]\n[s]\nk=null\n[t]\nj=1\n", config).unwrap();
        assert_eq!(doc.sections(), ["t"]);
    }
}

#[test]
fn godot3_section_names_have_no_escapes() {
    // Godot 3.2.3: `[a\]b]` is section `a\`, and `b]` is glued to the next key: `b]k`.
    let doc = Document::parse("[a\\]b]\nk=1\n", Config::godot3()).unwrap();
    assert_eq!(listing(&doc), [row("a\\", "b]k", "1")]);
    // Godot 4.6 reads `\]` as `]`.
    let doc = Document::parse("[a\\]b]\nk=1\n", Config::godot4()).unwrap();
    assert_eq!(listing(&doc), [row("a]b", "k", "1")]);
}

#[test]
fn section_and_key_order_follows_the_engine() {
    // `a` is erased when its only key is set to null and created again after `b`.
    let text = "[a]\nk=1\n[b]\nj=1\n[a]\nk=null\n[a]\nm=2\nk=3\n";
    for config in both() {
        let doc = Document::parse(text, config).unwrap();
        assert_eq!(doc.sections(), ["b", "a"]);
        assert_eq!(doc.keys("a"), ["m", "k"]);
    }
}

// ---- 27.1: the engine named by config_version ----

const G3_PROJECT: &str = "; Engine configuration file.\nconfig_version=4\n\n_global_script_classes=[  ]\n\n\
[application]\n\nconfig/name=\"Game\"\n\n[rendering]\n\nquality/driver/driver_name=\"GLES2\"\n";

#[test]
fn a_godot3_project_is_refused_with_the_godot4_config() {
    let e = Document::parse(G3_PROJECT, Config::godot4()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    assert!(e.to_string().contains("config_version=4"), "{e}");
    let g4 = G3_PROJECT.replace("config_version=4", "config_version=5");
    let e = Document::parse(&g4, Config::godot3()).unwrap_err();
    assert!(e.to_string().contains("Godot 4"), "{e}");
    // The serde reader reads values with the config it is given (no edit is written back).
    assert!(
        godot_serde::config_file::from_str_with::<Variant>(G3_PROJECT, Config::godot4()).is_ok()
    );
}

#[test]
fn parse_auto_picks_the_engine_from_the_file() {
    let mut doc = Document::parse_auto(G3_PROJECT, Config::godot4()).unwrap();
    assert!(!doc.config().version().is_godot4());
    doc.set_as(
        "application",
        "config/features",
        &PackedStringArray(vec!["mobile".into()]),
    )
    .unwrap();
    // Godot 3's name and spacing for the array (var2str).
    assert!(
        doc.to_string()
            .contains("config/name=\"Game\"\nconfig/features=PoolStringArray( \"mobile\" )\n"),
        "{doc}"
    );
    let g4 = G3_PROJECT.replace("config_version=4", "config_version=5");
    let doc = Document::parse_auto(&g4, Config::godot3()).unwrap();
    assert!(doc.config().version().is_godot4());
    // A file without config_version keeps the given config.
    let doc = Document::parse_auto("[s]\nk=1\n", Config::godot3()).unwrap();
    assert!(!doc.config().version().is_godot4());
    // The explicit override.
    let doc = Document::parse_ignoring_version(G3_PROJECT, Config::godot4()).unwrap();
    assert!(doc.config().version().is_godot4());
}

// ---- names that `ConfigFile.load()` reads otherwise (checked live in config_file_live.rs) ----

#[test]
fn a_section_name_loses_c0_controls_at_its_ends_and_keeps_other_spaces() {
    // `String::strip_edges` drops every character up to U+0020 at both ends, C0 controls
    // included, and nothing above it: Godot 4.6 and 3.2.3 read `[\u{1}s]` as `s`, and keep
    // U+0085, U+00A0 and U+3000 (which Rust's `trim` drops).
    for config in both() {
        let text = "[s]\nk=1\n[\u{1}s\u{1f}]\nk=42\n[\u{a0}t\u{3000}]\nj=1\n[\u{85}u]\ni=1\n";
        let doc = Document::parse(text, config).unwrap();
        assert_eq!(
            listing(&doc),
            [
                row("s", "k", "42"),
                row("\u{a0}t\u{3000}", "j", "1"),
                row("\u{85}u", "i", "1")
            ]
        );
        // So `set` cannot write a key under `\u{1}s`: it would overwrite `s`/`k`.
        let mut doc = Document::parse("[s]\n\nk=1\n", config).unwrap();
        assert_unsupported(doc.set("\u{1}s", "k", &Variant::Int(42)), "\\u{1}s");
        assert_unsupported(doc.set("s\u{1f}", "k", &Variant::Int(42)), "s\\u{1f}");
        assert_eq!(doc.get("s", "k").unwrap(), Some(Variant::Int(1)));
        assert_eq!(doc.to_string(), "[s]\n\nk=1\n");
    }
}

#[test]
fn a_nul_or_a_leading_byte_order_mark_in_a_name_is_refused() {
    // `load()` drops U+FEFF at the start of a header or quoted key (UTF-8 decoding skips a
    // byte order mark), where `parse()` keeps it; the engines cannot hold a NUL in a name.
    for config in both() {
        let mut doc = Document::parse("[s]\n\nk=1\n", config).unwrap();
        for (section, key) in [
            ("s\0s", "k"),
            ("s", "k\0"),
            ("\u{feff}s", "k"),
            ("s", "\u{feff}k"),
        ] {
            assert_unsupported(
                doc.set(section, key, &Variant::Int(42)),
                &format!("{section:?}/{key:?}"),
            );
        }
        assert_eq!(doc.to_string(), "[s]\n\nk=1\n");
        // Inside a name, U+FEFF is kept by both (Godot 3 takes no non-ASCII section).
        let section = if config.version().is_godot4() {
            "s\u{feff}"
        } else {
            "s"
        };
        doc.set(section, "k\u{feff}k", &Variant::Int(42)).unwrap();
        let back = Document::parse(&doc.to_string(), config).unwrap();
        assert_eq!(
            back.get(section, "k\u{feff}k").unwrap(),
            Some(Variant::Int(42))
        );
    }
}

#[test]
fn godot3_refuses_non_ascii_section_names_and_quotes_non_ascii_keys() {
    // Godot 3.2's `ConfigFile.load()` reads a header and a bare key byte by byte (Latin-1:
    // `é` reads back as `Ã©`), and decodes a quoted key as UTF-8.
    let mut doc = Document::parse("[s]\n\nk=1\n", Config::godot3()).unwrap();
    for section in ["é", "s\u{85}", "日本", "\u{a0}s"] {
        assert_unsupported(doc.set(section, "k", &Variant::Int(42)), section);
    }
    doc.set("s", "é", &Variant::Int(42)).unwrap();
    doc.set("s", "k\u{85}", &Variant::Int(43)).unwrap();
    assert_eq!(doc.to_string(), "[s]\n\nk=1\n\"é\"=42\n\"k\u{85}\"=43\n");
    // Godot 4 reads headers as UTF-8 and quotes keys outside `!`..`~` already.
    let mut doc = Document::parse("[s]\n\nk=1\n", Config::godot4()).unwrap();
    doc.set("é", "é", &Variant::Int(42)).unwrap();
    assert_eq!(doc.to_string(), "[s]\n\nk=1\n\n[é]\n\n\"é\"=42\n");
    // The serde writer follows the same rules.
    let mut top = std::collections::BTreeMap::new();
    top.insert("é".to_owned(), std::collections::BTreeMap::from([("k", 1)]));
    assert!(godot_serde::config_file::to_string_with(&top, Config::godot3()).is_err());
    assert!(godot_serde::config_file::to_string_with(&top, Config::godot4()).is_ok());
}
