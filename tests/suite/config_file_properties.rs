//! Property tests for ConfigFile writing (issue 22 items 3 and 4): for arbitrary section and
//! key strings (brackets, quotes, `=`, `;`, backslashes, whitespace, line breaks, non-ASCII),
//! under both engines, an edit that returns `Ok` reads back where it was asked with every
//! other key unchanged, and an edit that returns `Err` changes nothing. The model the text is
//! checked against is a plain map kept by the test, and each check reads the text with a
//! fresh `Document::parse`.
use crate::generate;

use std::collections::BTreeMap;

use generate::Rng;
use godot_serde::config_file::{self, Document};
use godot_serde::{Config, Variant};

/// A short string made of the pieces that break ConfigFile lines.
fn name(rng: &mut Rng) -> String {
    const PIECES: [&str; 24] = [
        "a", "b", "k", "x", "[", "]", "\\", "=", "\"", ";", " ", "\t", "\n", "\r", "#", "é", "{",
        "/", "[]", "\\]", "]\n[", "=1\n", "\u{0}", "日",
    ];
    let len = rng.below(5) as usize;
    (0..len)
        .map(|_| {
            // Plain letters most of the time, so that many edits are representable.
            if rng.below(3) == 0 {
                PIECES[rng.below(PIECES.len() as u64) as usize]
            } else {
                PIECES[rng.below(4) as usize]
            }
        })
        .collect()
}

fn value(rng: &mut Rng) -> Variant {
    match rng.below(5) {
        0 => Variant::Nil,
        1 | 2 => Variant::Int(rng.int()),
        _ => Variant::from(name(rng)),
    }
}

type Model = BTreeMap<(String, String), Variant>;

/// What `text` holds, read by a fresh document.
fn read(text: &str, config: Config) -> Model {
    let doc = Document::parse(text, config).unwrap_or_else(|e| panic!("{e} reading {text:?}"));
    let mut out = Model::new();
    for s in doc.sections() {
        for k in doc.keys(s) {
            let v = doc.get(s, k).unwrap().expect("a listed key has a value");
            out.insert((s.to_owned(), k.to_owned()), v);
        }
    }
    out
}

#[test]
fn document_edits_read_back_where_asked_or_change_nothing() {
    let bases = [
        "",
        "; comment\nconfig_version=5\n\n[a]\n\nx=1\n[]\ny=\"s\"\n\n[b]\nz=2 ; tail\n",
        "[a]\nx=1\n[]\n",
        "k=1\n[a\\]b]\n\"q;c\"=2\n",
    ];
    let (mut ok, mut refused) = (0usize, 0usize);
    for (seed, config) in [(1u64, Config::godot4()), (2, Config::godot3())] {
        let mut rng = Rng::new(seed);
        for base in bases {
            let base = if config.version().is_godot4() {
                base.to_owned()
            } else {
                base.replace("config_version=5", "config_version=4")
            };
            let Ok(mut doc) = Document::parse(&base, config) else {
                // Godot 3 reads `[a\]b]` as section `a\` then the key `b]"q;c"`: still a file.
                panic!("base {base:?} does not parse");
            };
            let mut model = read(&base, config);
            for _ in 0..300 {
                // Often a section or key that is already there.
                let (section, key) = if !model.is_empty() && rng.below(3) == 0 {
                    let i = rng.below(model.len() as u64) as usize;
                    model.keys().nth(i).cloned().unwrap()
                } else {
                    (name(&mut rng), name(&mut rng))
                };
                let v = value(&mut rng);
                let before = doc.to_string();
                match doc.set(&section, &key, &v) {
                    Ok(()) => {
                        ok += 1;
                        if v == Variant::Nil {
                            model.remove(&(section.clone(), key.clone()));
                        } else {
                            model.insert((section.clone(), key.clone()), v.clone());
                        }
                        let text = doc.to_string();
                        assert_eq!(
                            read(&text, config),
                            model,
                            "{:?}: set({section:?}, {key:?}, {v:?}) on {before:?} gave {text:?}",
                            config.version()
                        );
                    }
                    Err(_) => {
                        refused += 1;
                        assert_eq!(doc.to_string(), before, "a refused edit changed the text");
                    }
                }
                // The document's own view agrees with the text.
                if let Some(want) = model.get(&(section.clone(), key.clone())) {
                    assert_eq!(doc.get(&section, &key).unwrap().as_ref(), Some(want));
                }
            }
        }
    }
    println!("{ok} edits kept, {refused} refused");
    // Both outcomes happen often: the generator is neither too tame nor too wild.
    assert!(ok > 1000 && refused > 150, "{ok} kept, {refused} refused");
}

#[test]
fn serde_writer_output_reads_back_or_is_refused() {
    let (mut ok, mut refused) = (0usize, 0usize);
    for (seed, config) in [(3u64, Config::godot4()), (4, Config::godot3())] {
        let mut rng = Rng::new(seed);
        for _ in 0..1500 {
            let mut top: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
            for _ in 0..rng.below(4) {
                let section = top.entry(name(&mut rng)).or_default();
                for _ in 0..=rng.below(3) {
                    section.insert(name(&mut rng), rng.int());
                }
            }
            match config_file::to_string_with(&top, config) {
                Ok(text) => {
                    ok += 1;
                    let back: BTreeMap<String, BTreeMap<String, i64>> =
                        config_file::from_str_with(&text, config)
                            .unwrap_or_else(|e| panic!("{e} reading {text:?}"));
                    top.retain(|_, keys| !keys.is_empty());
                    assert_eq!(back, top, "{:?}: {text:?}", config.version());
                }
                Err(_) => refused += 1,
            }
        }
    }
    println!("{ok} files written, {refused} refused");
    assert!(ok > 300 && refused > 300, "{ok} written, {refused} refused");
}
