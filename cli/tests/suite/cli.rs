//! The built `godot-serde` binary on fixture data (no engine needed): outputs are insta
//! snapshots, expected bytes come from the engine fixtures or are derived by hand.

use crate::common;

use common::{hex, root, run, unhex};

const SAVE: &str = "examples/data/godot3_save.dat";

#[test]
fn inspect_godot3_save_dump() {
    let r = run(&["inspect", SAVE, "--godot3", "--save"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let out = r.out();
    // store_var of {"version": 3, ...}: prefix 0x50 = 80, then Dictionary (Godot 3 id 18).
    assert!(
        out.starts_with("50 00 00 00  value 0 at byte 0, length 80\n12 00 00 00    Dictionary\n")
    );
    snapshot!("inspect_godot3_save_dump", out);
}

#[test]
fn inspect_godot3_save_json_and_text() {
    let r = run(&["inspect", SAVE, "--godot3", "--json"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // The framing was guessed, and the note says so.
    assert!(r.stderr.contains("note: assumed --stream"), "{}", r.stderr);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "one JSON line per store_var: {out}");
    // The values of examples/data/make_godot3_save.gd.
    assert_eq!(
        lines[0],
        r#"{"version":3,"game":"demo","saved_at":1700000000}"#
    );
    assert_eq!(lines[3], r#""end""#);
    assert!(lines[1].contains(r#""position":{"$type":"Vector2","value":[12.5,-3.0]}"#));
    assert!(lines[1].contains(r#""scores":{"$type":"PackedInt32Array","value":[10,20,30]}"#));
    assert!(lines[2].contains(r#""owner":{"$type":"ObjectId","value":1288}"#));
    snapshot!("inspect_godot3_save_json", out);

    let r = run(&["inspect", SAVE, "--godot3", "--save", "--text"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.out().contains("Vector2( 12.5, -3 )"),
        "Godot 3 var2str spacing"
    );
    snapshot!("inspect_godot3_save_text", r.out());
}

#[test]
fn wrong_engine_fails_with_offset_context_and_hint() {
    // With the engine given (the default engine reads it as Godot 3, tests/suite/untrusted.rs).
    let r = run(&["inspect", SAVE, "--save", "--godot4"], b"");
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .contains("hint: these bytes decode as Godot 3.x: try --godot3")
    );
    snapshot!("wrong_engine", r.stderr);
}

#[test]
fn stdin_pipe_hex_and_base64_give_the_same_dump() {
    // var_to_bytes([7, "hi"]) for Godot 4, derived by hand: Array (28), count 2,
    // int 7, String (4) of length 2, "hi" + 2 padding.
    let bytes = unhex("1c000000020000000200000007000000040000000200000068690000");
    let from_pipe = run(&["inspect", "--raw"], &bytes);
    let from_hex = run(
        &[
            "inspect",
            "--raw",
            "--hex",
            "1c000000 02000000 02000000 07000000 04000000 02000000 68690000",
        ],
        b"",
    );
    let from_b64 = run(
        &[
            "inspect",
            "--raw",
            "--base64",
            "HAAAAAIAAAACAAAABwAAAAQAAAACAAAAaGkAAA==",
        ],
        b"",
    );
    assert_eq!(from_pipe.code, Some(0));
    assert_eq!(from_pipe.out(), from_hex.out());
    assert_eq!(from_pipe.out(), from_b64.out());
    insta::assert_snapshot!(from_pipe.out(), @r#"
    1c 00 00 00  Array
    02 00 00 00    count 2
    02 00 00 00    [0] int
    07 00 00 00      7
    04 00 00 00    [1] String
    02 00 00 00      length 2
    68 69 00 00      "hi" (+2 padding)
    "#);
    let from_hex_pipe = run(&["inspect", "--raw", "--hex", "-"], hex(&bytes).as_bytes());
    assert_eq!(from_hex_pipe.out(), from_pipe.out());
    let b64_text = b"HAAAAAIAAAACAAAABwAAAAQAAAACAAAAaGkAAA==\n";
    assert_eq!(
        run(&["inspect", "--raw", "--base64", "-"], b64_text).out(),
        from_pipe.out()
    );
    let json = run(&["inspect", "-", "--json"], &bytes);
    assert_eq!(json.code, Some(0));
    assert_eq!(
        json.stderr,
        "note: assumed --raw: the bytes are exactly one value\n"
    );
    assert_eq!(json.out(), "[\n  7,\n  \"hi\"\n]\n");
    let text = run(&["inspect", "--text", "--hex", &hex(&bytes)], b"");
    assert_eq!(text.out(), "[7, \"hi\"]\n");
}

#[test]
fn engine_versions_choose_the_layout() {
    // Godot 3 Vector3 (id 7) = Godot 4 Rect2 (id 7): same bytes, different values.
    let hex = "07000000 0000803f 00000040 00004040 00008040";
    let g3 = run(
        &["inspect", "--raw", "--godot3", "--json", "--hex", hex],
        b"",
    );
    assert_eq!(g3.code, Some(0));
    assert!(
        g3.stderr
            .contains("4 trailing bytes after the value, from byte 16"),
        "{}",
        g3.stderr
    );
    assert_eq!(
        g3.out(),
        "{\n  \"$type\": \"Vector3\",\n  \"value\": [\n    1.0,\n    2.0,\n    3.0\n  ]\n}\n"
    );
    for flag in [
        "--godot4",
        "--godot4.0",
        "--godot4.3",
        "--godot4.4",
        "--engine=4.2",
    ] {
        let g4 = run(&["inspect", "--raw", flag, "--text", "--hex", hex], b"");
        assert_eq!(g4.code, Some(0), "{flag}: {}", g4.stderr);
        assert_eq!(g4.out(), "Rect2(1, 2, 3, 4)\n", "{flag}");
    }
    // A typed Array header (4.3+): Array[int] [5] is 1c000100 02000000 01000000 02000000 05000000.
    let typed = "1c000100 02000000 01000000 02000000 05000000";
    let r = run(
        &["inspect", "--raw", "--godot4.3", "--json", "--hex", typed],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "{\n  \"$type\": \"Array\",\n  \"element_type\": \"int\",\n  \"value\": [\n    5\n  ]\n}\n"
    );
    let r = run(&["inspect", "--raw", "--godot4.0", "--hex", typed], b"");
    assert_eq!(r.code, Some(1), "4.0 has no typed Arrays");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["inspect", "--godot3", "--godot4", "--hex", "00000000"][..],
        &["inspect", "--raw", "--stream", "--hex", "00000000"],
        &["inspect", "--text", "--json", "--hex", "00000000"],
        &["inspect", "--no-such-flag"],
        &["inspect", "--engine", "5.1", "--hex", "00000000"],
        &["frobnicate"],
        &[],
        &["convert", "--to", "3", "--hex", "00000000"],
    ] {
        let r = run(args, b"");
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("error:") || r.stderr.contains("Usage:"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let help = run(&["inspect", "--help"], b"");
    assert_eq!(help.code, Some(0));
    assert!(help.out().contains("Examples:"));
    assert!(run(&["--version"], b"").out().starts_with("godot-serde "));
}

#[test]
fn bad_input_exits_1_with_offset_and_bytes_around_it() {
    // Type id 99 does not exist: error at byte 0 of the value.
    let r = run(&["inspect", "--raw", "--hex", "63000000 01000000"], b"");
    assert_eq!(r.code, Some(1));
    insta::assert_snapshot!(r.stderr, @r"
    error: value: unknown type id 99 for Godot 4.5+ at byte 0
      00000000  63 00 00 00 01 00 00 00
                ^^
    ");
    // A String whose length runs past the end, deep in the input.
    let bad = "1c000000 02000000 02000000 07000000 04000000 ff000000 68690000";
    let r = run(&["inspect", "--raw", "--json", "--hex", bad], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.out(), "", "no partial JSON");
    insta::assert_snapshot!(r.stderr, @r"
    error: value: [1]: string length (padded) 256 does not fit in the 4 bytes left at byte 20
      00000000  1c 00 00 00 02 00 00 00  02 00 00 00 07 00 00 00
      00000010  04 00 00 00 ff 00 00 00  68 69 00 00
                            ^^
    ");
    // Not hex, not base64.
    let r = run(&["inspect", "--hex", "0g"], b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            Some(1),
            "error: --hex: 'g' is not a hex digit (at hex digit 1)\n"
        )
    );
    let r = run(&["inspect", "--base64", "@@@"], b"");
    r.fails_starting_with("error: --base64: ");
    let r = run(&["inspect", "no/such/file.bin"], b"");
    r.fails_starting_with("error: cannot open no/such/file.bin: ");
    // A packet must hold exactly one value.
    let r = run(
        &["inspect", "--packet", "--hex", "02000000 07000000 00"],
        b"",
    );
    r.fails_with("1 trailing bytes after the value at byte 8");
}

#[test]
fn streams_report_each_bad_frame_and_go_on() {
    // StreamPeer.put_var(1); a frame with unknown type 99; put_var("hi"); 2 bytes of a prefix.
    let stream = "08000000 02000000 01000000 08000000 63000000 00000000 0c000000 04000000 02000000 68690000 0800";
    let r = run(&["inspect", "--stream", "--json", "--hex", stream], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.out(), "1\n\"hi\"\n");
    insta::assert_snapshot!(r.stderr, @r"
    error: frame 1: unknown type id 99 for Godot 4.5+ at byte 16
      00000010  63 00 00 00 00 00 00 00
                ^^
    error: frame 3 at byte 40: unexpected end of input, 2 more bytes needed at byte 42
    ");
    let r = run(&["inspect", "--stream", "--hex", stream], b"");
    assert_eq!(r.code, Some(1));
    snapshot!("stream_with_bad_frames_dump", r.transcript());
}

#[test]
fn encode_json_to_bytes_hand_derived() {
    // var_to_bytes(7)
    let r = run(&["encode", "-e", "7", "--hex"], b"");
    assert_eq!(
        (r.code, r.out()),
        (Some(0), "02000000 07000000\n".to_owned())
    );
    // var_to_bytes(1.5): float id 3, f32 payload 0x3fc00000.
    assert_eq!(
        run(&["encode", "-e", "1.5", "--hex"], b"").out(),
        "03000000 0000c03f\n"
    );
    // A JSON number with a fraction is a float even when integral: 2.0 -> 0x40000000.
    assert_eq!(
        run(&["encode", "-e", "2.0", "--hex"], b"").out(),
        "03000000 00000040\n"
    );
    // Vector3i only exists in Godot 4 (id 10).
    let v3i = r#"{"$type": "Vector3i", "value": [1, -1, 2]}"#;
    assert_eq!(
        run(&["encode", "-e", v3i, "--hex"], b"").out(),
        "0a000000 01000000 ffffffff 02000000\n"
    );
    let r = run(&["encode", "-e", v3i, "--godot3", "--hex"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "error: value 0 cannot be encoded for Godot 3.x: Vector3i does not exist in Godot 3.x\n"
    );
    // A Dictionary for Godot 3 (id 18) and 4 (id 27): {"a": true}.
    assert_eq!(
        run(
            &["encode", "-e", r#"{"a": true}"#, "--godot3", "--hex"],
            b""
        )
        .out(),
        "12000000 01000000 04000000 01000000 61000000 01000000 01000000\n"
    );
    // Raw bytes to a pipe; StreamPeer framing adds the length.
    let r = run(&["encode", "--stream"], b"7\n\"hi\"\n");
    assert_eq!(r.code, Some(0));
    assert_eq!(
        hex(&r.stdout),
        "08000000020000000700000000c000000040000000200000068690000".replace("00c0", "0c0")
    );
    // Marshalls.variant_to_base64(7) = base64 of 02000000 07000000.
    assert_eq!(
        run(&["encode", "-e", "7", "--base64"], b"").out(),
        "AgAAAAcAAAA=\n"
    );
}

#[test]
fn encode_errors() {
    let r = run(&["encode", "-e", "1 2", "--hex"], b"");
    r.fails_with("more than one value");
    let r = run(
        &[
            "encode",
            "-e",
            r#"{"p": [{"$type": "Color", "value": [1, 2]}]}"#,
            "--hex",
        ],
        b"",
    );
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "error: JSON input, value 0: Color needs 4 components, got 2 at $[\"p\"][0].value\n"
    );
    let r = run(&["encode", "-e", r#"{"$type": "Vector9"}"#, "--hex"], b"");
    assert_eq!(
        r.stderr,
        "error: JSON input, value 0: unknown \"$type\" \"Vector9\" at $\n"
    );
    let r = run(&["encode", "-e", "18446744073709551615", "--hex"], b"");
    r.fails_with("outside Godot's int (i64) range");
    let r = run(&["encode", "-e", "[1,", "--hex"], b"");
    r.fails_starting_with("error: JSON input, value 0: EOF while parsing");
    let r = run(&["encode", "-e", "", "--hex"], b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (Some(1), "error: the input holds no value\n")
    );
    let deep = "[".repeat(200) + &"]".repeat(200);
    let r = run(&["encode", "--hex", "-e", &deep], b"");
    assert_eq!(r.code, Some(1));
}

#[test]
fn convert_godot3_save_to_godot4() {
    let out = std::env::temp_dir().join(format!(
        "godot_serde_cli_convert_{}.dat",
        std::process::id()
    ));
    let out_s = out.to_str().unwrap();
    let r = run(&["convert", SAVE, "-o", out_s], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    insta::assert_snapshot!(r.stderr, @r#"
    warning: value 2["navmesh"]: RID (Godot 3 stores no id; resource ids are per process): replaced by null
    warning: value 2["owner"]: object stored as instance id 1288 (ids are per process): replaced by null
    note: 4 values converted from Godot 3 (772 bytes) to Godot 4.5+ (764 bytes); 2 replaced by null, 0 skipped
    "#);
    let godot4 = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let godot3 = std::fs::read(root().join(SAVE)).unwrap();
    // Godot 4 Dictionary id 27 after the first prefix (Godot 3: 18); the RID (4 bytes) and
    // the object id (12 bytes) became nils (4 bytes each); the last value is store_var("end").
    assert_eq!(&godot4[..8], &[0x50, 0, 0, 0, 27, 0, 0, 0]);
    assert_eq!(&godot3[..8], &[0x50, 0, 0, 0, 18, 0, 0, 0]);
    assert_eq!(godot4.len(), godot3.len() - 8);
    assert!(godot4.ends_with(&[12, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, b'e', b'n', b'd', 0]));
    // The converted file reads back as Godot 4, and --strict turns the losses into exit 1.
    let r = run(&["inspect", "--save", "--json", "-"], &godot4);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.out().contains(r#""navmesh":null,"owner":null"#));
    let r = run(&["convert", "--strict", "--hex-out", SAVE], b"");
    assert_eq!(r.code, Some(1));
    // One raw value: Godot 3 Vector3 (id 7) becomes Godot 4 Vector3 (id 9).
    let r = run(
        &[
            "convert",
            "--raw",
            "--hex",
            "07000000 0000803f 00000040 00004040",
            "--hex-out",
        ],
        b"",
    );
    assert_eq!(
        (r.code, r.out()),
        (Some(0), "09000000 0000803f 00000040 00004040\n".to_owned())
    );
}

#[test]
fn convert_reports_unreadable_values_and_truncation() {
    // store_var("ok"), a value of unknown type 99, then a truncated prefix.
    let input = "0c000000 04000000 02000000 6f6b0000 08000000 63000000 00000000 0800";
    let r = run(&["convert", "--hex", input, "--hex-out"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.out(), "0c000000 04000000 02000000 6f6b0000\n");
    insta::assert_snapshot!(r.stderr, @r"
    error: value 1 cannot be read, skipped: unknown type id 99 for Godot 3.x at byte 20
      00000014  63 00 00 00 00 00 00 00
                ^^
    error: value 2 at byte 28: unexpected end of input, 2 more bytes needed at byte 30; the rest of the input is skipped
    note: 1 value converted from Godot 3 (28 bytes) to Godot 4.5+ (16 bytes); 0 replaced by null, 2 skipped
    ");
}

#[test]
fn godot4_engine_vectors_survive_json_both_ways() {
    // Every Godot 4.6 var_to_bytes vector (except objects and the cases below) as one
    // StreamPeer stream: inspect --json gives JSON Lines, encode --stream gives back the
    // engine's bytes.
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/godot4/vectors-sample.jsonl")).unwrap();
    let mut stream = Vec::new();
    let mut names = Vec::new();
    let mut deep = String::new();
    for line in text.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        if rec.get("kind").is_some() || rec["decode_ok"] != true || rec["type"] == "Object" {
            continue;
        }
        let hex = rec
            .get("hex_canonical")
            .unwrap_or(&rec["hex"])
            .as_str()
            .unwrap();
        if rec["name"] == "array_depth_1024_with_elem" {
            // Deeper than JSON input allows (serde_json stops at 128 levels); checked below.
            deep = hex.to_owned();
            continue;
        }
        if rec
            .get("decode_reencoded_hex")
            .is_some_and(|h| h != &rec["hex"])
        {
            continue; // the engine itself re-encodes these differently (BOM dropped)
        }
        let bytes = unhex(hex);
        stream.extend((bytes.len() as u32).to_le_bytes());
        stream.extend(&bytes);
        names.push(rec["name"].as_str().unwrap().to_owned());
    }
    assert!(names.len() > 80, "{}", names.len());
    // 1024 nested Arrays around an int: past the default limit of 128, fine with Godot's 1024.
    let r = run(&["inspect", "--raw", "--text", "--hex", &deep], b"");
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("128"), "the depth limit: {}", r.stderr);
    let r = run(
        &[
            "inspect",
            "--raw",
            "--json",
            "--max-depth",
            "1024",
            "--hex",
            &deep,
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out().matches('[').count(), 1024);
    let json = run(&["inspect", "--stream", "--json"], &stream);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    assert_eq!(json.out().lines().count(), names.len());
    let back = run(&["encode", "--stream"], &json.stdout);
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    if back.stdout != stream {
        // Name the first record that differs.
        let (mut a, mut b) = (&stream[..], &back.stdout[..]);
        for name in &names {
            let la = u32::from_le_bytes(a[..4].try_into().unwrap()) as usize + 4;
            let lb = u32::from_le_bytes(b[..4].try_into().unwrap()) as usize + 4;
            assert_eq!(hex(&b[..lb]), hex(&a[..la]), "{name}");
            a = &a[la..];
            b = &b[lb..];
        }
    }
}

#[test]
fn colour_only_on_request_or_a_terminal() {
    // The tests' stderr is a pipe: no colour by default.
    let r = run(&["inspect", "--raw", "--hex", "63000000"], b"");
    assert!(
        r.stderr.starts_with("error: value: unknown type id 99"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains('\x1b'));
    let r = run(
        &["inspect", "--raw", "--hex", "63000000", "--color", "always"],
        b"",
    );
    assert!(
        r.stderr
            .starts_with("\x1b[1;31merror:\x1b[0m value: unknown type id 99"),
        "{:?}",
        r.stderr
    );
    // In the dump, what does not decode is red.
    assert!(
        r.out().contains("\x1b[31m!! unknown type id 99"),
        "{:?}",
        r.out()
    );
    assert!(
        !run(&["inspect", "--raw", "--hex", "63000000"], b"")
            .out()
            .contains('\x1b')
    );
    let r = run(
        &["--color", "never", "inspect", "--hex", "02000000 07000000"],
        b"",
    );
    assert_eq!(
        r.stderr,
        "note: assumed --raw: the bytes are exactly one value\n"
    );
}

#[test]
fn help_lists_the_commands_and_options() {
    let r = run(&["--help"], b"");
    assert_eq!(r.code, Some(0));
    snapshot!("help", r.out());
    let r = run(&["inspect", "--help"], b"");
    assert_eq!(r.code, Some(0));
    snapshot!("help_inspect", r.out());
}

#[test]
fn writing_binary_to_a_closed_pipe_or_a_file() {
    let out =
        std::env::temp_dir().join(format!("godot_serde_cli_encode_{}.bin", std::process::id()));
    let r = run(
        &["encode", "--save", "--godot3", "-o", out.to_str().unwrap()],
        b"\"hi\" 7",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stderr, "note: 2 values encoded for Godot 3.x, 28 bytes\n");
    // f.store_var("hi"); f.store_var(7) (the library's save.rs example, from the spec).
    assert_eq!(
        hex(&std::fs::read(&out).unwrap()),
        "0c000000040000000200000068690000080000000200000007000000"
    );
    let _ = std::fs::remove_file(&out);

    // A reader that stops early (`| head`): the binary stops quietly, exit code 0.
    let mut stream = Vec::new();
    for _ in 0..20_000 {
        stream.extend([8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]); // StreamPeer.put_var(7)
    }
    let mut child = std::process::Command::new(common::BIN)
        .args(["inspect", "--stream", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = stdin.write_all(&stream);
    });
    let mut first = [0u8; 64];
    use std::io::Read as _;
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then dropped: closed
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(first.starts_with(b"08 00 00 00  frame 0 at byte 0, length 8\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn size_limits() {
    // One value read from a pipe is bounded by --max-frame-size.
    let bytes = unhex("1c000000020000000200000007000000040000000200000068690000");
    let r = run(&["inspect", "--raw", "--max-frame-size", "16"], &bytes);
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "error: the input is larger than the maximum of 16 bytes for one value (--max-frame-size)\n"
    );
    // A packet over the maximum (PacketPeer.put_var fails there in Godot).
    let r = run(
        &[
            "inspect",
            "--packet",
            "--max-frame-size",
            "16",
            "--hex",
            &hex(&bytes),
        ],
        b"",
    );
    r.fails_with("exceeds the maximum frame size of 16 bytes");
    // A frame over the maximum ends a stream, checked from its prefix alone.
    let r = run(
        &["inspect", "--stream", "--max-frame-size", "16"],
        &[0x1c, 0, 0, 0, 0x1c],
    );
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stderr,
        "error: frame 0 at byte 0: frame of 28 bytes exceeds the maximum frame size of 16 bytes at byte 0\n"
    );
}

#[test]
fn hint_names_the_godot4_version_that_reads_the_bytes() {
    // A typed Array header (4.3+) does not decode as 4.0: 4.4 reads it.
    let typed = "1c000100 02000000 01000000 02000000 05000000";
    let r = run(&["inspect", "--raw", "--godot4.0", "--hex", typed], b"");
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .ends_with("hint: these bytes decode as Godot 4.5+: try --godot4\n"),
        "{}",
        r.stderr
    );
    // A typed Dictionary header (4.4+) as 4.3: the value-type bits are unknown there.
    let typed_dict = "1b000500 02000000 04000000 00000000";
    let r = run(
        &["inspect", "--raw", "--godot4.3", "--hex", typed_dict],
        b"",
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .ends_with("hint: these bytes decode as Godot 4.5+: try --godot4\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn big_endian_prefixes() {
    // StreamPeer.big_endian = true; put_var(1): the prefix is big-endian, the value is not
    // (the library's framing docs, from the spec).
    let r = run(
        &["encode", "-e", "1", "--stream", "--big-endian", "--hex"],
        b"",
    );
    assert_eq!(r.out(), "00000008 02000000 01000000\n");
    let r = run(
        &[
            "inspect",
            "--stream",
            "--big-endian",
            "--json",
            "--hex",
            "00000008 02000000 01000000",
        ],
        b"",
    );
    assert_eq!((r.code, r.out()), (Some(0), "1\n".to_owned()));
    // Read as little-endian, the prefix says 128 MiB: over the maximum.
    let r = run(
        &[
            "inspect",
            "--stream",
            "--json",
            "--hex",
            "00000008 02000000 01000000",
        ],
        b"",
    );
    assert_eq!(r.code, Some(1));
}

#[test]
fn encode_text_input() {
    // var_to_bytes(Vector3(1, 2, 3)): id 9, three f32 (hand-derived).
    let r = run(
        &["encode", "--text", "-e", "Vector3(1, 2, 3)", "--hex"],
        b"",
    );
    assert_eq!(
        (r.code, r.out()),
        (Some(0), "09000000 0000803f 00000040 00004040\n".to_owned())
    );
    // Godot 3 syntax with --godot3: Vector3 is id 7 there.
    let r = run(
        &[
            "encode",
            "--text",
            "--godot3",
            "-e",
            "Vector3( 1, 2, 3 )",
            "--hex",
        ],
        b"",
    );
    assert_eq!(r.out(), "07000000 0000803f 00000040 00004040\n");
    // Several values with comments between them, one frame each.
    let text = "; saved by hand\n1\n\"two\" ; the second\n[3.0, Vector2(1, 2)]\n";
    let r = run(&["encode", "--text", "--stream", "--hex"], text.as_bytes());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "08000000 02000000 01000000\n\
         0c000000 04000000 03000000 74776f00\n\
         1c000000 1c000000 02000000 03000000 00004040 05000000 0000803f 00000040\n"
    );
    // A syntax error names the line and column in the whole input.
    let r = run(
        &[
            "encode",
            "--text",
            "--stream",
            "--hex",
            "-e",
            "1\n2 Vector9(1)",
        ],
        b"",
    );
    assert_eq!(r.code, Some(1));
    insta::assert_snapshot!(r.stderr, @r"
    error: text input, value 2: Unexpected identifier 'Vector9' at line 2, column 3
      2 Vector9(1)
        ^
    ");
    // inspect --text output reads back as the same bytes.
    let save = std::fs::read(root().join(SAVE)).unwrap();
    // (Its first two values: var2str prints the RID of the third as nothing at all. var2str
    // sorts Dictionary keys and prints floats with six digits, so compare the first value
    // as JSON, where key order does not count.)
    let text = run(
        &["inspect", "--save", "--godot3", "--text", "-"],
        &save[..548],
    );
    let r = run(&["encode", "--text", "--godot3", "--save"], &text.stdout);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let json = |bytes: &[u8]| -> serde_json::Value {
        let out = run(&["inspect", "--save", "--godot3", "--json", "-"], bytes).out();
        serde_json::from_str(out.lines().next().unwrap()).unwrap()
    };
    assert_eq!(json(&r.stdout), json(&save));
    // --json and --text are exclusive.
    assert_eq!(
        run(&["encode", "--json", "--text", "-e", "1"], b"").code,
        Some(2)
    );
}

#[test]
fn json_native_both_ways() {
    // var_to_bytes(Vector2i(1, 2)): id 6, two i32 (hand-derived); JSON.stringify(
    // JSON.from_native(Vector2i(1, 2)), "\t") as Godot 4.6 prints it.
    let r = run(
        &[
            "inspect",
            "--raw",
            "--hex",
            "06000000 01000000 02000000",
            "--json-native",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    assert_eq!(
        r.out(),
        "{\n\t\"args\": [\n\t\t1,\n\t\t2\n\t],\n\t\"type\": \"Vector2i\"\n}\n"
    );
    // And back.
    let r = run(
        &[
            "encode",
            "--json-native",
            "-e",
            r#"{"type": "Vector2i", "args": [1, 2]}"#,
            "--hex",
        ],
        b"",
    );
    assert_eq!(
        (r.code, r.out()),
        (Some(0), "06000000 01000000 02000000\n".to_owned())
    );
    // Several values, one frame each (JSON Lines, or just one after another).
    let input = "\"i:7\"\n\"s:hi\" [\"f:1.5\",]\n";
    let r = run(
        &["encode", "--json-native", "--stream", "--hex"],
        input.as_bytes(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "08000000 02000000 07000000\n\
         0c000000 04000000 02000000 68690000\n\
         10000000 1c000000 01000000 03000000 0000c03f\n"
    );
    // A stream inspected as JSON Lines of the compact form reads back to the same bytes.
    let bin = run(&["encode", "--json-native", "--stream"], input.as_bytes());
    let r = run(&["inspect", "--stream", "--json-native", "-"], &bin.stdout);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out(), "\"i:7\"\n\"s:hi\"\n[\"f:1.5\"]\n");
    // An error names the line and column in the whole input, in the engine's words.
    let r = run(
        &[
            "encode",
            "--json-native",
            "--stream",
            "--hex",
            "-e",
            "\"i:1\"\n[\"i:2\" \"i:3\"]",
        ],
        b"",
    );
    assert_eq!(r.code, Some(1));
    insta::assert_snapshot!(r.stderr, @r#"
    error: JSON input, value 1: Expected ',' at line 2, column 8
      ["i:2" "i:3"]
             ^
    "#);
    // Godot's to_native refuses a bare number; the message says what it expects.
    let r = run(&["encode", "--json-native", "-e", "7", "--hex"], b"");
    assert_eq!(r.code, Some(1));
    insta::assert_snapshot!(r.stderr, @r#"
    error: JSON input, value 0: a bare number: Variant type "float" is not JSON-compliant (ints are "i:1", floats "f:1.0") at line 1, column 1
      7
      ^
    "#);
    // Objects need --allow-objects, as JSON.from_native needs full_objects.
    let object = "18000000 08000000 5265736f 75726365 00000000";
    let r = run(
        &[
            "inspect",
            "--raw",
            "--hex",
            object,
            "--allow-objects",
            "--json-native",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "{\n\t\"props\": [],\n\t\"type\": \"Resource\"\n}\n"
    );
}

#[test]
fn json_native_object_ids_with_allow_objects() {
    // An object sent by id (wire-format spec, Object): OBJECT (24) with bit 16, then the id as
    // a little-endian u64, here 2^63 + 1 (negative as Godot's int). Expected: what Godot 4.6
    // prints for bytes_to_var_with_objects of these bytes, JSON.stringify(JSON.from_native(v,
    // true), "\t").
    let id = "18000100 01000000 00000080";
    let r = run(
        &[
            "inspect",
            "--raw",
            "--hex",
            id,
            "--allow-objects",
            "--json-native",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    assert_eq!(
        r.out(),
        "{\n\t\"props\": [\n\t\t\"object_id\",\n\t\t\"i:-9223372036854775807\",\n\t\t\"script\",\n\t\tnull\n\t],\n\t\"type\": \"EncodedObjectAsID\"\n}\n"
    );
    // In an Array[Object] (Array 0x1c, CLASS_NAME kind 2 in bits 16-17, GString "Object", one
    // element: id 7).
    let array = "1c000200 06000000 4f626a65 63740000 01000000 18000100 07000000 00000000";
    let r = run(
        &[
            "inspect",
            "--raw",
            "--hex",
            array,
            "--allow-objects",
            "--json-native",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    assert_eq!(
        r.out(),
        "{\n\t\"args\": [\n\t\t{\n\t\t\t\"props\": [\n\t\t\t\t\"object_id\",\n\t\t\t\t\"i:7\",\n\t\t\t\t\"script\",\n\t\t\t\tnull\n\t\t\t],\n\t\t\t\"type\": \"EncodedObjectAsID\"\n\t\t}\n\t],\n\t\"elem_type\": \"Object\",\n\t\"type\": \"Array\"\n}\n"
    );
    // Without --allow-objects the engine logs an error and writes null: refused, with the hint.
    let r = run(&["inspect", "--raw", "--hex", id, "--json-native"], b"");
    r.fails_with("no JSON.from_native form");
    assert!(r.stderr.contains("--allow-objects"), "{}", r.stderr);
}
