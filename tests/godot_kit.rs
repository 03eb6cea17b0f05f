//! The Rust side of the Godot 4 kit (`examples/godot_kit.rs`) on the engine sample
//! `tests/fixtures/godot4/vectors-sample.jsonl` (what `make_vectors.gd` writes).

#[allow(dead_code)]
#[path = "../examples/godot_kit.rs"]
mod godot_kit;

const SAMPLE: &str = include_str!("fixtures/godot4/vectors-sample.jsonl");

/// The sample nests 1024 Arrays (Godot's limit): decode on a thread with room for that.
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn check_passes_on_every_engine_vector() {
    big_stack(check_all);
}

fn check_all() {
    let records = godot_kit::read_vectors(SAMPLE).unwrap();
    // 100 records, 2 of them framing (`kind`).
    assert_eq!(records.len(), 98);
    let failed: Vec<String> = records
        .iter()
        .filter_map(|r| {
            godot_kit::check(r)
                .err()
                .map(|e| format!("{}: {e}", r.name))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn check_reports_a_wrong_byte() {
    let mut rec = godot_kit::read_vectors(SAMPLE).unwrap()[1].clone();
    assert_eq!(rec.name, "int_0");
    rec.bytes.push(0);
    let err = godot_kit::check(&rec).unwrap_err();
    assert!(
        err.starts_with("decoding failed: 1 trailing bytes"),
        "{err}"
    );
    let mut rec = godot_kit::read_vectors(SAMPLE).unwrap()[2].clone();
    // int 42 written with the 64-bit flag: decodes, but the crate writes 32 bits as Godot.
    rec.bytes = vec![2, 0, 1, 0, 42, 0, 0, 0, 0, 0, 0, 0];
    let err = godot_kit::check(&rec).unwrap_err();
    assert!(err.starts_with("bytes differ from byte 2"), "{err}");
}

#[test]
fn write_gives_verify_gd_its_input() {
    big_stack(write_all);
}

fn write_all() {
    let records = godot_kit::read_vectors(SAMPLE).unwrap();
    let dir = std::env::temp_dir().join(format!("godot_serde_kit_{}", std::process::id()));
    let (written, failed) = godot_kit::write_cases(&records, &dir).unwrap();
    assert_eq!((written, failed.len()), (98, 0), "{failed:?}");
    // int_42: header 2, payload 42 (the record's own hex), and its expression.
    assert_eq!(
        std::fs::read(dir.join("int_42.bin")).unwrap(),
        [2, 0, 0, 0, 42, 0, 0, 0]
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("int_42.expr")).unwrap(),
        "42"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_skip_errors_and_framing() {
    let text = concat!(
        r#"{"name":"a","expr":"1","hex":"0200000001000000"}"#,
        "\n",
        r#"{"name":"b","expr":"TYPE_INT","error":"execute error"}"#,
        "\n",
        r#"{"name":"c","kind":"framing","expr":"x","hex":"00"}"#,
        "\n",
        r#"{"name":"d","expr":"NodePath('a')","hex":"ff","hex_canonical":"00"}"#,
        "\n"
    );
    let records = godot_kit::read_vectors(text).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].bytes, [0]);
    let err = godot_kit::read_vectors(r#"{"name":"x"}"#).unwrap_err();
    assert_eq!(err, "line 1: no \"hex\"");
}
