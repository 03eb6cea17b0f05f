//! `resource convert`: binary scenes and resources converted by extension, compressed on
//! request, their header's engine version set; bad input refused with exit code 1.

use crate::common::run;
use godot_serde::Variant;
use godot_serde::resource::{
    BinaryOptions, ResourceFile, ResourceFormat, read_binary, read_binary_with_info, sub_ref,
    write_binary,
};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "godot_serde_cli_resource_{name}_{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &std::path::Path) -> String {
    p.to_str().unwrap().to_owned()
}

/// A Godot 4 resource with a sub-resource, written by the library.
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
    let r = run(
        &[
            "resource",
            "convert",
            &s(&input),
            "-o",
            &s(&packed),
            "--compress",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&bytes[..4], b"RSCC");
    assert_eq!(read_binary(&bytes).unwrap(), model());

    // Back to plain: the bytes we started from.
    let back = dir.join("back.res");
    let r = run(&["resource", "convert", &s(&packed), "-o", &s(&back)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(std::fs::read(&back).unwrap() == plain);

    // Engine 4.2: format version 5 in the header (bytes 16..20), the same model.
    let old = dir.join("old.res");
    let r = run(
        &[
            "resource",
            "convert",
            &s(&input),
            "-o",
            &s(&old),
            "--engine",
            "4.2",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
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
    run(
        &[
            "resource",
            "convert",
            &s(&input),
            "-o",
            &s(&out),
            "--godot",
            "3",
        ],
        b"",
    )
    .fails_with("is a Godot 4 file");
    // A corrupt file: the string table's count (after the 40-byte header, "Resource" and
    // the 68 bytes of import offset, flags, uid and reserved fields) forged.
    let mut bad = plain.clone();
    let at = 4 + 20 + 13 + 8 + 4 + 8 + 44;
    bad[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&input, &bad).unwrap();
    let r = run(&["resource", "convert", &s(&input), "-o", &s(&out)], b"");
    r.fails_with("string table size 4294967295 does not fit");
    assert!(r.stderr.contains(&format!("(byte {at})")), "{}", r.stderr);
    assert!(!out.exists(), "no output after a failure");
    // Text resources are not converted by this build.
    std::fs::write(&input, &plain).unwrap();
    run(
        &[
            "resource",
            "convert",
            &s(&input),
            "-o",
            &s(&dir.join("x.tres")),
        ],
        b"",
    )
    .fails_with("text resources");
    // An unknown extension is a usage error.
    let r = run(
        &[
            "resource",
            "convert",
            &s(&input),
            "-o",
            &s(&dir.join("x.bin")),
        ],
        b"",
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
