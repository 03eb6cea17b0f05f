//! `format=4` text resources (Godot 4.3+): the saver writes `format=4` when a value it saves
//! holds a PackedByteArray of more than 64 bytes or a PackedVector4Array, and then every
//! PackedByteArray as base64 and (4.5+) negative infinity as `-inf`; `format=3` otherwise.
//!
//! Files Godot 4.6 saved (kept here as text, from a run of
//! `tests/godot4/resource_text_format4.gd`) read into the model with the values derived by
//! hand, and `write_text` of the model gives the engine's bytes again; then the same live:
//! Godot 4.6 saves resources and scenes (100 bytes with a PackedVector4Array, a
//! PackedVector4Array alone, bytes nested in a Dictionary, in a sub-resource, on a node; and
//! files with neither, which stay `format=3`), and for every file the crate's `write_text` of
//! the model it reads is byte-identical, and every value equals the engine's report (skips
//! loudly without an engine; fails then when `GODOT_SERDE_REQUIRE_ENGINE=1`). Bad base64 is
//! an error at its line and column.

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use common::engine::{Godot4Project, godot4_or_skip, godot4_version};
use godot_serde::resource::{ResourceFile, TextResource, write_text};
use godot_serde::text::variant_to_string_with;
use godot_serde::{
    Config, ErrorKind, GodotVersion, PackedByteArray, PackedVector4Array, Real, Variant, Vector4,
};

/// `i * 7 mod 256` for `i < n`, the bytes the save script stores.
fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 % 256) as u8).collect()
}

fn model(text: &str) -> ResourceFile {
    let doc = TextResource::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc.to_string(), text, "the unedited document");
    doc.to_model().unwrap()
}

fn prop<'a>(m: &'a ResourceFile, name: &str) -> &'a Variant {
    &m.properties.iter().find(|(k, _)| k == name).unwrap().1
}

/// `both.tres` as Godot 4.6 saved it.
const BOTH: &str = "[gd_resource type=\"Resource\" format=4]\n\n[resource]\n\
metadata/blob = PackedByteArray(\"AAcOFRwjKjE4P0ZNVFtiaXB3foWMk5qhqK+2vcTL0tng5+71/AMKERgfJi00O0JJUFdeZWxzeoGIj5adpKuyucDHztXc4+rx+P8GDRQbIikwNz5FTFNaYWhvdn2Ei5KZoKeutQ==\")\n\
metadata/v4 = PackedVector4Array(1, 2.5, -3, 0.1, -inf, 0, 1e+20, 7)\n\
metadata/small = PackedByteArray(\"AAcO\")\n\
metadata/none = PackedByteArray()\n\
metadata/ninf = -inf\n";

/// `neither.tres` as Godot 4.6 saved it (the list is `bytes(64)`).
fn neither() -> String {
    let list: Vec<String> = bytes(64).iter().map(u8::to_string).collect();
    format!(
        "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n\
         metadata/b64 = PackedByteArray({})\n\
         metadata/ninf = inf_neg\n\
         metadata/v = Vector4(inf_neg, 1, 2, 3)\n",
        list.join(", ")
    )
}

#[test]
fn engine_format4_text_reads_and_writes_back() {
    let m = model(BOTH);
    // The base64 decodes to the bytes the script stored (i * 7 mod 256): its first four
    // digits `AAcO` are 0x00 0x07 0x0e, as `small` (3 bytes) is.
    assert_eq!(
        prop(&m, "metadata/blob"),
        &Variant::PackedByteArray(PackedByteArray(bytes(100)))
    );
    assert_eq!(
        prop(&m, "metadata/small"),
        &Variant::PackedByteArray(PackedByteArray(vec![0, 7, 14]))
    );
    assert_eq!(
        prop(&m, "metadata/none"),
        &Variant::PackedByteArray(PackedByteArray(Vec::new()))
    );
    // The engine is a single-precision build: its reals are read as `float`s (0.1 is
    // 0.100000001490116… in a double-precision build of this crate).
    let v4 = |x: f32, y: f32, z: f32, w: f32| Vector4 {
        x: Real::from(x),
        y: Real::from(y),
        z: Real::from(z),
        w: Real::from(w),
    };
    assert_eq!(
        prop(&m, "metadata/v4"),
        &Variant::PackedVector4Array(PackedVector4Array(vec![
            v4(1.0, 2.5, -3.0, 0.1),
            v4(f32::NEG_INFINITY, 0.0, 1e20, 7.0),
        ]))
    );
    assert_eq!(
        prop(&m, "metadata/ninf"),
        &Variant::Float(f64::NEG_INFINITY)
    );
    assert_eq!(write_text(&m, GodotVersion::V4_5), BOTH);
    // 4.0 - 4.2 have no format=4: the same model is format=3 with numbers and `inf_neg`.
    let old = write_text(&m, GodotVersion::V4_0);
    assert!(
        old.starts_with("[gd_resource type=\"Resource\" format=3]\n"),
        "{old}"
    );
    assert!(
        old.contains("metadata/small = PackedByteArray(0, 7, 14)\n"),
        "{old}"
    );
    assert!(old.contains("metadata/ninf = inf_neg\n"), "{old}");

    let text = neither();
    let m = model(&text);
    assert_eq!(
        prop(&m, "metadata/b64"),
        &Variant::PackedByteArray(PackedByteArray(bytes(64)))
    );
    assert_eq!(write_text(&m, GodotVersion::V4_5), text);
}

#[test]
fn bad_base64_is_an_error_at_its_line() {
    // The engine's decoder (`CryptoCore::b64_decode`) takes whole groups of four digits with
    // padding only at the end; anything else fails the file at that value.
    for bad in ["AAc", "AA=A", "AAc!", "A==="] {
        let text = format!(
            "[gd_resource type=\"Resource\" format=4]\n\n[resource]\nb = PackedByteArray(\"{bad}\")\n"
        );
        let err = TextResource::parse(&text).unwrap_err();
        // Line 4, column 21: the string, after `b = ` (4 characters) and `PackedByteArray(`
        // (16).
        match err.kind() {
            ErrorKind::TextSyntax {
                line,
                column,
                message,
            } => {
                assert_eq!((*line, *column), (4, 21), "{bad}: {err}");
                assert!(
                    message.contains("Invalid base64-encoded string"),
                    "{bad}: {err}"
                );
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
}

/// The files the script saves, and the format each must have (the test's premise: if the
/// engine wrote another, the check of our bytes would prove nothing).
const FILES: &[(&str, u8)] = &[
    ("both.tres", 4),
    ("v4only.tres", 4),
    ("nested.tres", 4),
    ("sub.tres", 4),
    ("big.tscn", 4),
    ("neither.tres", 3),
    ("plain.tscn", 3),
];

#[test]
fn godot4_saves_format4_as_write_text_does() {
    let Some(engine) = godot4_or_skip("godot4_saves_format4_as_write_text_does") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/godot4/resource_text_format4.gd");
    let project = Godot4Project::new("resource_text_format4", &[script.as_path()]);
    let out = project.run(
        &engine,
        "resource_text_format4.gd",
        &[],
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l == "DONE"), "{stdout}");
    // (file, property) -> the engine's var_to_str of the value.
    let mut engine_values = HashMap::new();
    for line in stdout.lines() {
        match line.split(' ').collect::<Vec<_>>().as_slice() {
            ["SAVE", file, code] => assert_eq!(*code, "0", "saving {file}"),
            ["P" | "N", file, name, hex] => {
                let text: Vec<u8> = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                    .collect();
                let key = (file.to_string(), format!("metadata/{name}"));
                engine_values.insert(key, String::from_utf8(text).unwrap());
            }
            _ => {}
        }
    }
    let mut compared = 0;
    for (file, format) in FILES {
        let text = std::fs::read_to_string(project.dir.join(file)).unwrap();
        let header = format!(" format={format}");
        assert!(
            text.lines().next().unwrap().contains(&header),
            "{file}: the engine wrote\n{text}"
        );
        let m = model(&text);
        assert_eq!(
            write_text(&m, GodotVersion::V4_5),
            text,
            "{file}: write_text"
        );
        let props = match &m.scene {
            Some(scene) => &scene.nodes[0].properties,
            None => &m.properties,
        };
        for (name, v) in props {
            let Some(theirs) = engine_values.get(&(file.to_string(), name.clone())) else {
                continue; // a sub-resource reference
            };
            assert_eq!(
                &variant_to_string_with(v, Config::godot4()),
                theirs,
                "{file} {name}"
            );
            compared += 1;
        }
    }
    // Every value the script reported was found in the files.
    assert_eq!(compared, engine_values.len());
    println!(
        "Godot 4: {} files written byte for byte ({} format=4), {compared} values equal",
        FILES.len(),
        FILES.iter().filter(|f| f.1 == 4).count()
    );
}
