//! The CLI on files a real Godot 3.2.3 engine (`godot3-server`) writes during the test: a
//! `File.store_var` save file, a `StreamPeer.put_var` stream and `Marshalls.variant_to_base64`
//! text (`tests/godot3/write_samples.gd`). The CLI's encoder must write the same bytes, and its
//! `--text` output for Godot 3 must be the engine's `var2str`.
//!
//! Without an engine (`$GODOT3`, else `godot3-server` on `PATH`) the test prints a banner and
//! passes, unless `GODOT_SERDE_REQUIRE_ENGINE=1` (set by CI), which makes it fail.

use crate::common;
// The library's one lookup of the engine ($GODOT3, else godot3-server on PATH) and loud skip.
use crate::engine;

use common::{hex, root, run};
use std::path::PathBuf;
use std::process::Command;

/// Runs the sample writer once; returns the directory holding its files.
fn engine_samples() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_serde_cli_g3_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/godot3/write_samples.gd");
    let env = root().join("scripts/godot3-env.sh");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            ". '{}' && godot3_run '{}' '{}'",
            env.display(),
            script.display(),
            dir.display()
        ))
        .output()
        .expect("run godot3-server");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("SAMPLES OK"),
        "the engine did not write its samples:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// The values of write_samples.gd in the CLI's JSON mapping, written by hand from the script.
const VALUES_JSON: [&str; 7] = [
    r#"{"level":3,"name":"Ada","alive":true}"#,
    r#"[1,-2,2147483648,0.5,"text",null]"#,
    r#"{"$type":"Vector2","value":[12.5,-3.0]}"#,
    r#"{"pos":{"$type":"Vector3","value":[1.0,2.0,3.0]},"color":{"$type":"Color","value":[1.0,0.5,0.0,1.0]},"rot":{"$type":"Quaternion","value":[0.0,0.0,0.0,1.0]}}"#,
    r#"{"$type":"PackedInt32Array","value":[10,20,30]}"#,
    r#"{"$type":"PackedStringArray","value":["hero","mage"]}"#,
    r#"{"inventory":[{"item":"potion","count":3}],"xform":{"$type":"Transform2D","value":[0.87758255,0.47942555,-0.47942555,0.87758255,4.0,5.0]}}"#,
];

#[test]
fn engine_files_inspect_and_encode_back() {
    if engine::godot3_or_skip("engine_files_inspect_and_encode_back").is_none() {
        return;
    }
    let dir = engine_samples();
    let save = std::fs::read(dir.join("save.dat")).unwrap();
    let stream = std::fs::read(dir.join("stream.bin")).unwrap();
    let raw = std::fs::read(dir.join("raw.bin")).unwrap();
    let b64 = std::fs::read_to_string(dir.join("base64.txt")).unwrap();
    let var2str = std::fs::read_to_string(dir.join("text.txt")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // File.store_var and StreamPeer.put_var write the same framing.
    assert_eq!(hex(&save), hex(&stream));

    // The save file, from a path and guessed, as JSON Lines: the script's values.
    let path = std::env::temp_dir().join(format!(
        "godot_serde_cli_g3_save_{}.dat",
        std::process::id()
    ));
    std::fs::write(&path, &save).unwrap();
    let r = run(
        &["inspect", path.to_str().unwrap(), "--godot3", "--json"],
        b"",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("assumed --stream"), "{}", r.stderr);
    assert_eq!(r.out().lines().collect::<Vec<_>>(), VALUES_JSON);

    // The stream through a pipe: the annotated dump and the text form.
    let r = run(&["inspect", "--stream", "--godot3"], &stream);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    snapshot!("godot3_engine_stream_dump", r.out());
    let r = run(&["inspect", "--stream", "--godot3", "--text"], &stream);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out(), var2str, "--text --godot3 is the engine's var2str");
    // And the engine's var2str text encodes to the engine's values: the first six (the last
    // has a rotation var2str prints with six digits only), compared as JSON because var2str
    // sorts Dictionary keys.
    let enc = run(
        &["encode", "--text", "--godot3", "--stream"],
        var2str.as_bytes(),
    );
    assert_eq!(enc.code, Some(0), "{}", enc.stderr);
    let back = run(&["inspect", "--stream", "--godot3", "--json"], &enc.stdout).out();
    for (i, (line, expected)) in back.lines().zip(VALUES_JSON).take(6).enumerate() {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let expected: serde_json::Value = serde_json::from_str(expected).unwrap();
        assert_eq!(line, expected, "value {i}");
    }
    snapshot!("godot3_engine_stream_text", r.out());

    // Encoding the hand-written JSON gives the engine's bytes: store_var file, var2bytes and
    // Marshalls.variant_to_base64.
    let lines = VALUES_JSON.join("\n");
    let r = run(&["encode", "--save", "--godot3"], lines.as_bytes());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(hex(&r.stdout), hex(&save));
    let last = VALUES_JSON[6];
    let r = run(&["encode", "--godot3", "-e", last], b"");
    assert_eq!(hex(&r.stdout), hex(&raw));
    let r = run(&["encode", "--godot3", "--base64", "-e", last], b"");
    assert_eq!(r.out().trim_end(), b64);

    // The base64 text decodes to the same value, and a Godot 4 reading is hinted away.
    let r = run(&["inspect", "--godot3", "--json", "--base64", &b64], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.out()).unwrap();
    assert_eq!(v, serde_json::from_str::<serde_json::Value>(last).unwrap());
    // As Godot 4 the Dictionary header, id 18, reads as a Transform3D with bytes left over;
    // the engine not given, the bytes are read as Godot 3, which reads them exactly, with a
    // note (issue 27.3: no misread Transform3D first).
    let r = run(&["inspect", "--raw", "--json", "--base64", &b64], b"");
    assert_eq!(r.code, Some(0));
    assert!(
        r.stderr.starts_with(
            "note: read as Godot 3.x (--godot3): the bytes do not decode as Godot 4.5+"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&r.out()).unwrap(),
        v
    );
    // Given, Godot 4 reads the Transform3D and warns, with the hint.
    let r = run(&["inspect", "--raw", "--godot4", "--base64", &b64], b"");
    assert_eq!(r.code, Some(0));
    assert!(
        r.stderr.contains("trailing bytes after the value"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("hint: these bytes decode as Godot 3.x: try --godot3"),
        "{}",
        r.stderr
    );

    // convert: the save file for Godot 4 reads back as the same values (nothing is lost here).
    let r = run(&["convert"], &save);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let g4 = run(&["inspect", "--save", "--json"], &r.stdout);
    assert_eq!(g4.code, Some(0), "{}", g4.stderr);
    assert_eq!(g4.out().lines().collect::<Vec<_>>(), VALUES_JSON);
}
