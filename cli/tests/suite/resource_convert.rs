//! `resource convert`: scenes and resources converted by extension, binary and text either
//! way, compressed on request, their header's engine version set; `resource show` of a binary
//! file; bad input refused with exit code 1.

use crate::common::{Run, run};
use godot_serde::Variant;
use godot_serde::resource::{
    BinaryOptions, ResourceFile, ResourceFormat, read_binary, read_binary_with_info, sub_ref,
    write_binary,
};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "godot_serde_cli_resource_{name}_{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_owned()
}

/// A Godot 4 resource with a sub-resource, written by the library.
/// Runs `resource convert input -o output` with the options `extra`.
fn convert(input: &Path, output: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["resource", "convert"];
    let (input, output) = (s(input), s(output));
    args.extend([input.as_str(), "-o", output.as_str()]);
    args.extend(extra);
    run(&args, b"")
}

/// [`convert`], asserting that it succeeded.
fn convert_ok(input: &Path, output: &Path, extra: &[&str]) {
    let r = convert(input, output, extra);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

fn model() -> ResourceFile {
    ResourceFile {
        format: ResourceFormat::Godot4,
        class: "Resource".into(),
        script_class: None,
        uid: Some("uid://ba".into()),
        ext_resources: vec![],
        sub_resources: vec![godot_serde::resource::SubResource {
            id: "Gradient_x".into(),
            class: "Gradient".into(),
            properties: vec![(
                "offsets".into(),
                Variant::PackedFloat32Array(vec![0.0, 1.0].into()),
            )],
        }],
        properties: vec![
            ("hp".into(), Variant::Int(7)),
            ("grad".into(), sub_ref("Gradient_x")),
        ],
        scene: None,
    }
}

#[test]
fn converts_compresses_and_sets_the_engine_version() {
    let dir = temp("convert");
    let input = dir.join("item.res");
    let plain = write_binary(&model(), &BinaryOptions::godot4()).unwrap();
    std::fs::write(&input, &plain).unwrap();

    // Compressed: RSCC, the same model.
    let packed = dir.join("item_c.scn");
    convert_ok(&input, &packed, &["--compress"]);
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&bytes[..4], b"RSCC");
    assert_eq!(read_binary(&bytes).unwrap(), model());

    // Back to plain: the bytes we started from.
    let back = dir.join("back.res");
    convert_ok(&packed, &back, &[]);
    assert!(std::fs::read(&back).unwrap() == plain);

    // Engine 4.2: format version 5 in the header (bytes 16..20), the same model.
    let old = dir.join("old.res");
    convert_ok(&input, &old, &["--engine", "4.2"]);
    let (file, info) = read_binary_with_info(&std::fs::read(&old).unwrap()).unwrap();
    assert_eq!((info.engine, info.format_version), ((4, 2), 5));
    assert_eq!(file, model());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refuses_what_it_cannot_convert() {
    let dir = temp("refuse");
    let input = dir.join("item.res");
    let plain = write_binary(&model(), &BinaryOptions::godot4()).unwrap();
    std::fs::write(&input, &plain).unwrap();
    let out = dir.join("out.res");
    // Another engine's layout.
    convert(&input, &out, &["--godot", "3"]).fails_with("is a Godot 4 file");
    // A corrupt file: the string table's count (after the 40-byte header, "Resource" and
    // the 68 bytes of import offset, flags, uid and reserved fields) forged.
    let mut bad = plain.clone();
    let at = 4 + 20 + 13 + 8 + 4 + 8 + 44;
    bad[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&input, &bad).unwrap();
    let r = convert(&input, &out, &[]);
    r.fails_with("string table size 4294967295 does not fit");
    assert!(r.stderr.contains(&format!("(byte {at})")), "{}", r.stderr);
    assert!(!out.exists(), "no output after a failure");
    // --compress is for a binary output only: a usage error for text.
    std::fs::write(&input, &plain).unwrap();
    let r = convert(&input, &dir.join("x.tres"), &["--compress"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--compress"), "{}", r.stderr);
    // A text file of the other engine's --engine.
    let tres = dir.join("g4.tres");
    std::fs::write(&tres, G4_TEXT).unwrap();
    convert(&tres, &out, &["--engine", "3.2"]).fails_with("is a Godot 4 file");
    // Broken text: the parser's error with its line.
    std::fs::write(
        &tres,
        "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = \n",
    )
    .unwrap();
    let r = convert(&tres, &out, &[]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("g4.tres"), "{}", r.stderr);
    assert!(!out.exists(), "no output after a failure");
    // An unknown extension is a usage error.
    let r = convert(&input, &dir.join("x.bin"), &[]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of [`model`] as Godot 4's saver lays it out (`resource_format_text.cpp`): the
/// header with `load_steps` (one sub-resource and the main one) and the uid, the
/// sub-resource, then `[resource]`, each property `name = value` in order.
const G4_TEXT: &str = "[gd_resource type=\"Resource\" load_steps=2 format=3 uid=\"uid://ba\"]

[sub_resource type=\"Gradient\" id=\"Gradient_x\"]
offsets = PackedFloat32Array(0, 1)

[resource]
hp = 7
grad = SubResource(\"Gradient_x\")
";

#[test]
fn converts_binary_to_text_and_back() {
    let dir = temp("text");
    let res = dir.join("item.res");
    let plain = write_binary(&model(), &BinaryOptions::godot4()).unwrap();
    std::fs::write(&res, &plain).unwrap();
    let tres = dir.join("item.tres");
    convert_ok(&res, &tres, &[]);
    assert_eq!(std::fs::read_to_string(&tres).unwrap(), G4_TEXT);
    // The text back to binary: the model, each resource with the null `script` Godot 4.6's
    // binary saver stores (after the class's properties, before the metadata).
    let mut with_script = model();
    with_script.sub_resources[0]
        .properties
        .push(("script".into(), Variant::Nil));
    with_script.properties.push(("script".into(), Variant::Nil));
    let back = dir.join("back.res");
    convert_ok(&tres, &back, &[]);
    assert_eq!(
        read_binary(&std::fs::read(&back).unwrap()).unwrap(),
        with_script
    );
    // Compressed from text.
    let packed = dir.join("back_c.res");
    convert_ok(&tres, &packed, &["--compress"]);
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&bytes[..4], b"RSCC");
    assert_eq!(read_binary(&bytes).unwrap(), with_script);
    // And to text again: the null scripts left out, as the engine's text saver does.
    let again = dir.join("again.tres");
    convert_ok(&back, &again, &[]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), G4_TEXT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn converts_godot3_text_to_binary_and_back() {
    // Godot 3's layout: ids bare integers, `path type id`, spaces inside parentheses.
    let text = "[gd_resource type=\"Resource\" load_steps=2 format=2]

[ext_resource path=\"res://item.gd\" type=\"Script\" id=1]

[resource]
script = ExtResource( 1 )
name = \"Sword\"
";
    let dir = temp("g3");
    let tres = dir.join("item.tres");
    std::fs::write(&tres, text).unwrap();
    let res = dir.join("item.res");
    convert_ok(&tres, &res, &[]);
    let (file, info) = read_binary_with_info(&std::fs::read(&res).unwrap()).unwrap();
    // Godot 3.2's header: engine 3.2, format version 3.
    assert_eq!((info.engine, info.format_version), ((3, 2), 3));
    assert_eq!(file.format, ResourceFormat::Godot3);
    assert_eq!(file.ext_resources[0].path, "res://item.gd");
    assert_eq!(
        file.properties,
        vec![
            ("script".to_owned(), godot_serde::resource::ext_ref(1i64)),
            ("name".to_owned(), Variant::from("Sword")),
        ]
    );
    let again = dir.join("again.tres");
    convert_ok(&res, &again, &[]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shows_a_binary_file() {
    let dir = temp("show");
    // By its magic, whatever its name.
    let res = dir.join("item.bin");
    std::fs::write(
        &res,
        write_binary(&model(), &BinaryOptions::godot4()).unwrap(),
    )
    .unwrap();
    let r = run(&["resource", "show", &s(&res)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "resource Resource (Godot 4) uid://ba\n\
         sub_resource Gradient_x: Gradient\n  offsets = PackedFloat32Array(0, 1)\n\
         resource\n  hp = 7\n  grad = SubResource(\"Gradient_x\")\n"
    );
    // A corrupt one: the reader's error, exit 1.
    std::fs::write(&res, b"RSRC\x00").unwrap();
    let r = run(&["resource", "show", &s(&res)], b"");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("item.bin"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
