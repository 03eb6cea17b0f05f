//! Text <-> binary conversion of resources and scenes against both live engines
//! (`tests/godot{4,3}/rsrc_save.gd`, the files of `resource_binary_live.rs`: a script
//! resource with nested sub-resources and typed containers, Gradient, Curve, StyleBoxFlat,
//! Animation, one holding every Variant type as metadata, a scene with groups, connections
//! with binds and an instanced sub-scene):
//!
//! - the engine saves each as binary (`ResourceSaver.save`), then loads that file and saves
//!   it as text, and loads that and saves it as binary (`totext`: its own conversions);
//! - we convert the engine's binary file to text and the engine's text file to binary;
//! - the engine loads ours and finds the values it finds in the file ours came from (`cmp`:
//!   every stored property, described as plain data by GDScript);
//! - our text equals the engine's conversion byte for byte but for the external ids (the
//!   engine's five characters are random) and the element types of typed containers
//!   ([`untyped`]), and the null Object properties the engine leaves out (its binary file
//!   stores them as plain nulls, which we write as `null`);
//! - our binary of the engine's text, with the header and string table of the engine's own
//!   conversion back to binary, is its bytes for [`BINARY_AS_ENGINE`].
//!
//! Skips loudly without an engine; fails then when `GODOT_SERDE_REQUIRE_ENGINE=1`.

use crate::common::engine::{godot3_or_skip, godot4_or_skip};
use crate::rsrc_live::{NAMES, all_ok, engine_checks, ext, project3, project4, run3, run4};
use godot_serde::GodotVersion;
use godot_serde::resource::{
    BinaryOptions, TextResource, binary_to_text, read_binary, read_binary_with_info, text_to_binary,
};
use std::path::Path;

/// `text` with every typed container's type taken off (`Array[int]([1])` is `[1]`,
/// `Dictionary[String, int]({...})` is `{...}`), and how many there were: the binary file does
/// not store element types, the engine knows them from the script's typed property it set
/// the value on, and writes them.
fn untyped(text: &str) -> (String, usize) {
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut closers: Vec<(usize, bool)> = Vec::new(); // (depth, drop this `)`)
    let mut depth = 0usize;
    let mut in_string = false;
    let mut count = 0;
    let mut i = 0;
    let b = text.as_bytes();
    while i < b.len() {
        let c = b[i];
        if in_string {
            out.push(c);
            if c == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            in_string = c != b'"';
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if word_start && (rest.starts_with("Array[") || rest.starts_with("Dictionary[")) {
            if let Some(open) = rest.find("](") {
                count += 1;
                i += open + 2;
                depth += 1;
                closers.push((depth, true));
                continue;
            }
        }
        match c {
            b'"' => in_string = true,
            b'(' => {
                depth += 1;
                closers.push((depth, false));
            }
            b')' => {
                depth = depth.saturating_sub(1);
                if let Some((_, true)) = closers.pop() {
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    (String::from_utf8(out).unwrap(), count)
}

/// Our text against the engine's conversion of the same binary file: the engine's external
/// ids replaced by ours (same order, random in the engine's), then line by line.
fn compare_text(name: &str, engine_text: &str, ours: &str) -> (usize, usize) {
    let engine_model = TextResource::parse(engine_text)
        .and_then(|d| d.to_model())
        .unwrap_or_else(|e| panic!("{name}: the engine's text: {e}"));
    let our_model = TextResource::parse(ours)
        .and_then(|d| d.to_model())
        .unwrap_or_else(|e| panic!("{name}: our text: {e}"));
    assert_eq!(
        engine_model.ext_resources.len(),
        our_model.ext_resources.len(),
        "{name}: external resources"
    );
    let mut engine_text = engine_text.to_owned();
    for (t, o) in engine_model
        .ext_resources
        .iter()
        .zip(&our_model.ext_resources)
    {
        assert_eq!((&t.class, &t.path), (&o.class, &o.path), "{name}");
        if engine_model.format == godot_serde::resource::ResourceFormat::Godot4 {
            engine_text = engine_text.replace(&format!("\"{}\"", t.id), &format!("\"{}\"", o.id));
        }
    }
    let (engine_text, typed) = untyped(&engine_text);
    // The engine leaves out an Object-typed property holding null, which its binary file
    // stores as a plain null (VARIANT_NIL): we write `name = null`, which loads the same.
    let (t, o): (Vec<&str>, Vec<&str>) = (engine_text.lines().collect(), ours.lines().collect());
    let (mut i, mut j, mut nulls, mut id_paths) = (0, 0, 0, 0);
    while i < t.len() || j < o.len() {
        if t.get(i) == o.get(j) {
            i += 1;
            j += 1;
        } else if let (Some(te), Some(oe)) = (t.get(i), o.get(j))
            && without_id_paths(oe) == *te
        {
            id_paths += 1;
            i += 1;
            j += 1;
        } else if o.get(j).is_some_and(|l| l.ends_with(" = null")) {
            nulls += 1;
            j += 1;
        } else {
            panic!(
                "{name}: line {} of the engine's conversion differs from our line {} ({typed} typed containers untyped)\n engine: {:?}\n ours:   {:?}\n--- engine\n{engine_text}\n--- ours\n{ours}",
                i + 1,
                j + 1,
                t.get(i),
                o.get(j)
            );
        }
    }
    if id_paths > 0 {
        println!("{name}: {id_paths} connections with id paths the engine leaves out");
    }
    (typed, nulls)
}

/// A `[connection]` line without its `from_uid_path` / `to_uid_path`: Godot 4.6's saver means
/// to write them, but `SceneState::get_connection_source_id_path` (and `_target_`) compare the
/// index with its `FLAG_ID_IS_PATH` bit still set against the number of id paths, so they
/// always come back empty and the engine writes none. We write what the file holds.
fn without_id_paths(line: &str) -> String {
    let mut out = line.to_owned();
    for key in [" from_uid_path=", " to_uid_path="] {
        if let Some(at) = out.find(key) {
            let end = out[at..].find(')').map_or(out.len(), |e| at + e + 1);
            out.replace_range(at..end, "");
        }
    }
    out
}

/// Converts the engine's files of `names` both ways; returns the `cmp` pairs for the engine.
/// The files whose text our binary converts to byte for byte as the engine does (with the
/// header and string table of its file). The others, the same values loaded, differ: `custom`
/// by the null Object property the text leaves out (the engine's binary saver stores the
/// script variable's null, which no text holds); `animation` by the order of a track's keys
/// Dictionary (the engine's Animation rebuilds it, `values` before `update`, where the text
/// has it sorted); `scene` and `scene_ids` by the scene state's layout: ours is packed as
/// `SceneState` packs a scene (as the engine's own binary files of a scene are), the engine's
/// conversion dumps the state its text loader built (names in reading order, parents as
/// paths).
const BINARY_AS_ENGINE: [&str; 4] = ["gradient", "curve", "stylebox", "types"];

/// `lossy`: files whose text form cannot hold their values exactly in that engine; ours is
/// loaded against the engine's own conversion instead of its binary file.
fn convert_all(
    dir: &Path,
    names: &[&str],
    lossy: &[&str],
    version: GodotVersion,
    options: &BinaryOptions,
) -> Vec<String> {
    let mut pairs = Vec::new();
    let (mut typed, mut nulls) = (0, 0);
    let mut same_binary = Vec::new();
    for name in names {
        let e = ext(name);
        let binary = std::fs::read(dir.join(format!("{name}.{e}"))).unwrap();
        let ours_text =
            binary_to_text(&binary, version).unwrap_or_else(|err| panic!("{name}: {err}"));
        std::fs::write(dir.join(format!("bt_{name}.t{e}")), &ours_text).unwrap();
        let engine_text = std::fs::read_to_string(dir.join(format!("engine_{name}.t{e}"))).unwrap();
        let (t, n) = compare_text(name, &engine_text, &ours_text);
        typed += t;
        nulls += n;
        let ours_binary =
            text_to_binary(&engine_text, options).unwrap_or_else(|err| panic!("{name}: {err}"));
        // Our binary reads back to the model of the engine's text.
        let text_model = TextResource::parse(&engine_text)
            .unwrap()
            .to_model()
            .unwrap();
        let back = read_binary(&ours_binary).unwrap();
        assert_eq!(
            back.sub_resources.len(),
            text_model.sub_resources.len(),
            "{name}"
        );
        assert_eq!(back.scene.is_some(), text_model.scene.is_some(), "{name}");
        std::fs::write(dir.join(format!("tb_{name}.{e}")), &ours_binary).unwrap();
        // The engine's own conversion of its text back to binary: ours, with its header and
        // string table (which lists property names left out for their default value, which
        // no text holds), is the same bytes.
        let engine_binary = std::fs::read(dir.join(format!("engine_{name}.{e}"))).unwrap();
        let (_, info) = read_binary_with_info(&engine_binary).unwrap();
        let with_header = text_to_binary(&engine_text, &info.options()).unwrap();
        if with_header == engine_binary {
            same_binary.push(*name);
        } else {
            let at = with_header
                .iter()
                .zip(&engine_binary)
                .position(|(a, b)| a != b);
            println!(
                "{name}: our binary of the engine's text differs from the engine's at byte {at:?}"
            );
        }
        if lossy.contains(name) {
            pairs.push(format!("engine_{name}.t{e}=bt_{name}.t{e}"));
        } else {
            pairs.push(format!("{name}.{e}=bt_{name}.t{e}"));
        }
        pairs.push(format!("engine_{name}.t{e}=tb_{name}.{e}"));
    }
    println!(
        "typed containers written untyped: {typed}; null properties the engine leaves out: {nulls}"
    );
    println!("text to binary, the engine's bytes: {same_binary:?}");
    assert_eq!(
        same_binary, BINARY_AS_ENGINE,
        "our binary of the engine's text is the engine's own conversion for these"
    );
    pairs
}

#[test]
fn godot4_binary_and_text_convert_both_ways() {
    let Some(engine) = godot4_or_skip("godot4_binary_and_text_convert_both_ways") else {
        return;
    };
    let project = project4("rsrc_convert");
    let names: Vec<&str> = NAMES.iter().copied().chain(["scene_ids"]).collect();
    let stdout = run4(&project, &engine, &["save"]);
    all_ok(&stdout, "SAVED", &names);
    let mut args = vec!["totext"];
    args.extend(names.iter().copied());
    let stdout = run4(&project, &engine, &args);
    all_ok(&stdout, "TEXT", &names);
    let dir = project.dir.join("out");
    let pairs = convert_all(
        &dir,
        &names,
        &[],
        GodotVersion::V4_5,
        &BinaryOptions::godot4(),
    );
    let mut args = vec!["cmp"];
    args.extend(pairs.iter().map(String::as_str));
    engine_checks(&run4(&project, &engine, &args), &pairs);
}

#[test]
fn godot3_binary_and_text_convert_both_ways() {
    let Some(engine) = godot3_or_skip("godot3_binary_and_text_convert_both_ways") else {
        return;
    };
    let project = project3("rsrc_convert");
    let run = |args: &[&str]| run3(&project, &engine, args);
    let stdout = run(&["save"]);
    all_ok(&stdout, "SAVED", &NAMES);
    let mut args = vec!["totext"];
    args.extend(NAMES);
    let stdout = run(&args);
    all_ok(&stdout, "TEXT", &NAMES);
    let dir = project.dir.join("out");
    // Godot 3's text form writes reals with six significant digits, so `types` (a
    // Transform2D of cos 0.5 among them) loads other values from any text, the engine's own
    // conversion included: ours is loaded against that.
    let pairs = convert_all(
        &dir,
        &NAMES,
        &["types"],
        GodotVersion::V3,
        &BinaryOptions::godot3(),
    );
    let mut args = vec!["cmp"];
    args.extend(pairs.iter().map(String::as_str));
    engine_checks(&run(&args), &pairs);
}
