//! `inspect` on untrusted input: control characters never reach a terminal raw (issue 22.5),
//! and bytes of the other engine are not dumped as misread values first (issue 27.3).

use crate::common;

use common::run;
use godot_serde_test_support::inputs::long_key_over_rids;

/// var_to_bytes of a String whose 29 bytes set the window title (ESC ] 0 ; ... BEL), clear the
/// screen (ESC [ 2 J), recolour (ESC [ 31 m, and U+009B `31m`, a one-character CSI), and
/// return and back up (CR, BS): String (4), length 29, the bytes, 3 padding bytes.
const HOSTILE: &str =
    "04000000 1d000000 1b5d303b 50574e45 44071b5b 324a1b5b 33316d72 6564c29b 33316d0d 08000000";

/// The decoded text of [`HOSTILE`], by hand from its bytes.
const HOSTILE_TEXT: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{1b}[31mred\u{9b}31m\r\u{8}";

/// The same value as one StreamPeer.put_var frame: prefix 40 (0x28), then the 40 bytes.
fn hostile_stream() -> String {
    format!("28000000 {HOSTILE}")
}

/// Whether `out` holds a byte that acts on a terminal: a C0 control but tab and newline, DEL,
/// or a C1 control (U+0080..U+009F, encoded C2 80..C2 9F).
fn raw_control(out: &[u8]) -> Option<usize> {
    out.iter().enumerate().position(|(i, &b)| {
        (b < 0x20 && b != b'\n' && b != b'\t')
            || b == 0x7f
            || (b == 0xc2 && out.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
    })
}

#[test]
fn dump_escapes_control_characters() {
    let r = run(&["inspect", "--hex", HOSTILE], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(raw_control(&r.stdout), None, "{}", r.out());
    snapshot!("hostile_string_dump", r.out());
}

#[test]
fn text_escapes_on_request_and_is_exact_when_piped() {
    // Piped (the default `auto` off a terminal): the engine's exact var_to_str text,
    // which Godot writes with the characters raw (c_escape_multiline escapes only \ and ").
    let r = run(&["inspect", "--hex", HOSTILE, "--text"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out(), format!("\"{HOSTILE_TEXT}\"\n"));
    let never = run(
        &["inspect", "--hex", HOSTILE, "--text", "--escape", "never"],
        b"",
    );
    assert_eq!(never.stdout, r.stdout);
    // Escaped (what a terminal gets): every control as \uXXXX, readable by str_to_var.
    let r = run(
        &["inspect", "--hex", HOSTILE, "--text", "--escape", "always"],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(raw_control(&r.stdout), None, "{}", r.out());
    assert_eq!(
        r.out(),
        "\"\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred\\u009b31m\\u000d\\u0008\"\n"
    );
    snapshot!("hostile_string_text_escaped", r.out());
    // The escaped text parses back to the same String.
    let parsed = godot_serde::text::parse_variant(r.out().trim_end()).unwrap();
    assert_eq!(parsed.as_str(), Some(HOSTILE_TEXT));
}

#[test]
fn json_always_escapes_c0_and_c1_controls() {
    for escape in ["auto", "always", "never"] {
        let r = run(
            &["inspect", "--hex", HOSTILE, "--json", "--escape", escape],
            b"",
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(raw_control(&r.stdout), None, "{escape}: {}", r.out());
        // serde_json's escapes for C0 (\u001b, \r, \b), ours for U+009B.
        assert_eq!(
            r.out(),
            "\"\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred\\u009b31m\\r\\b\"\n",
            "{escape}"
        );
        // Any JSON reader gets the same text back.
        let back: String = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(back, HOSTILE_TEXT);
    }
    let r = run(&["inspect", "--hex", HOSTILE, "--json"], b"");
    snapshot!("hostile_string_json", r.out());
}

#[test]
fn streams_escape_in_every_mode() {
    let stream = hostile_stream();
    let mut transcript = String::new();
    for mode in [
        &[][..],
        &["--text", "--escape", "always"][..],
        &["--json"][..],
    ] {
        let mut args = vec!["inspect", "--stream", "--hex", &stream];
        args.extend_from_slice(mode);
        let r = run(&args, b"");
        assert_eq!(r.code, Some(0), "{mode:?}: {}", r.stderr);
        assert_eq!(raw_control(&r.stdout), None, "{mode:?}: {}", r.out());
        let command = format!("$ inspect --stream {}", mode.join(" "));
        transcript.push_str(&format!("{}\n{}", command.trim_end(), r.out()));
    }
    snapshot!("hostile_string_stream", transcript);
}

/// var_to_bytes of a Dictionary {StringName(HOSTILE_TEXT): "\u{b}\u{85}\u{80}\u{9f}"} for
/// Godot 4: Dictionary (27), 1 entry; StringName (21), length 29, HOSTILE's bytes and 3
/// padding bytes; String (4), length 7 (0b, c2 85, c2 80, c2 9f), 1 padding byte.
fn hostile_dictionary() -> String {
    let hostile = &HOSTILE["04000000 1d000000 ".len()..];
    format!("1b000000 01000000 15000000 1d000000 {hostile} 04000000 07000000 0bc285c2 80c29f00")
}

/// `JSON.stringify(JSON.from_native(d))` of [`hostile_dictionary`] in Godot 4.6, whose bytes
/// (base64 `eyJhcmdzIjpbInNuOhtdMDtQV05FRAcbWzJKG1szMW1yZWTCmzMxbVxyXGIiLCJzOlx2woXCgMKfIl0s
/// InR5cGUiOiJEaWN0aW9uYXJ5In0=`) hold ESC, BEL and the C1 controls raw and U+000B as `\v`,
/// with each of those written as \uXXXX by hand.
const HOSTILE_NATIVE: &str = "{\"args\":[\"sn:\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred\\u009b31m\\r\\b\",\"s:\\u000b\\u0085\\u0080\\u009f\"],\"type\":\"Dictionary\"}";

#[test]
fn every_output_mode_escapes_esc_bel_and_c1() {
    let value = hostile_dictionary();
    let stream = format!("{:02x}000000 {value}", value.replace(' ', "").len() / 2);
    for framing in [&["--raw"][..], &["--stream"][..]] {
        for mode in [
            &["--text", "--escape", "always"][..],
            &["--json"][..],
            &["--json-native"][..],
            &[][..],
        ] {
            let input = if framing == ["--raw"] {
                &value
            } else {
                &stream
            };
            let mut args = vec!["inspect", "--hex", input];
            args.extend_from_slice(framing);
            args.extend_from_slice(mode);
            let r = run(&args, b"");
            assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
            assert_eq!(
                raw_control(&r.stdout),
                None,
                "{framing:?} {mode:?}: {}",
                r.out()
            );
        }
    }
}

#[test]
fn json_native_escapes_controls_and_stays_valid_json_when_piped() {
    // Piped: JSON is escaped all the same (the rule for --json too), so the output is valid
    // JSON (the engine's own JSON.stringify writes ESC raw and U+000B as `\v`) holding the
    // same strings. The stream gives one compact line per frame; one value is indented.
    let value = hostile_dictionary();
    let stream = format!("{:02x}000000 {value}", value.replace(' ', "").len() / 2);
    let r = run(
        &["inspect", "--hex", &stream, "--stream", "--json-native"],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out(), format!("{HOSTILE_NATIVE}\n"));
    let back: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(
        back,
        serde_json::json!({
            "args": [format!("sn:{HOSTILE_TEXT}"), "s:\u{b}\u{85}\u{80}\u{9f}"],
            "type": "Dictionary"
        })
    );
    // And the library reads it back as the same Dictionary (as JSON.to_native would).
    let parsed =
        godot_serde::json::parse_variant(r.out().trim_end(), godot_serde::Config::godot4())
            .unwrap();
    let expected = godot_serde::Config::godot4()
        .from_bytes::<godot_serde::Variant>(&common::unhex(&value.replace(' ', "")))
        .unwrap();
    assert_eq!(parsed, expected);
    for escape in ["always", "never", "auto"] {
        let r = run(
            &[
                "inspect",
                "--hex",
                &value,
                "--json-native",
                "--escape",
                escape,
            ],
            b"",
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(raw_control(&r.stdout), None, "{escape}: {}", r.out());
        assert!(!r.out().contains("\\v"), "{escape}: {}", r.out());
        let back: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(back["args"][1], "s:\u{b}\u{85}\u{80}\u{9f}");
    }
}

#[test]
fn a_terminal_gets_every_mode_escaped() {
    // A real terminal: `script` runs the binary on a pseudo-terminal (util-linux), so the
    // `auto` check sees one. Its output has the terminal's CR LF line ends.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED a_terminal_gets_every_mode_escaped: no `script` command");
        return;
    }
    let value = hostile_dictionary();
    for mode in ["--text", "--json", "--json-native", ""] {
        let command = format!(
            "{} inspect --color never --raw --hex '{value}' {mode}",
            common::BIN
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
        assert!(text.contains("PWNED"), "{mode}: {text}");
        assert_eq!(raw_control(text.as_bytes()), None, "{mode}: {text}");
    }
}

#[test]
fn messages_escape_quoted_input() {
    // A text-input error shows the line it is on: the line's ESC is escaped.
    let r = run(&["encode", "--text", "-e", "[\u{1b}[2J", "--hex"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(raw_control(r.stderr.as_bytes()), None, "{}", r.stderr);
    assert!(r.stderr.contains("[\\u001b[2J"), "{}", r.stderr);
}

#[test]
fn help_says_what_text_and_json_print_when_piped() {
    let r = run(&["inspect", "--help"], b"");
    let help = r.out();
    assert!(help.contains("Piped or"), "{help}");
    assert!(help.contains("engine's exact text"), "{help}");
    assert!(help.contains("always \\uXXXX escapes"), "{help}");
    assert!(help.contains("--escape <WHEN>"), "{help}");
}

const SAVE: &str = "examples/data/godot3_save.dat";

/// var2bytes(Vector3(1, 2, 3)) in Godot 3: id 7 and three f32. Godot 4's id 7 is Rect2,
/// which needs four floats: these bytes do not decode as any Godot 4 layout.
const GODOT3_VECTOR3: &str = "07000000 0000803f 00000040 00004040";

#[test]
fn default_engine_reads_godot3_input_as_godot3() {
    // A save file given as a file, framing and engine guessed.
    let guessed = run(&["inspect", SAVE], b"");
    let given = run(&["inspect", SAVE, "--godot3", "--save"], b"");
    assert_eq!(
        (guessed.code, given.code),
        (Some(0), Some(0)),
        "{}",
        guessed.stderr
    );
    assert!(
        guessed.stderr.starts_with(
            "note: read as Godot 3.x (--godot3): the bytes do not decode as Godot 4.5+"
        ),
        "{}",
        guessed.stderr
    );
    assert!(!guessed.out().contains("Transform3D"));
    // Same dump but the frame headers' word ("frame" for a guessed stream, "value" for --save).
    assert_eq!(guessed.out().replace("frame ", "value "), given.out());
    // The same file from a reader with the framing given: switched at the first value.
    let r = run(
        &["inspect", "--save", "--json"],
        &std::fs::read(common::root().join(SAVE)).unwrap(),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("note: read as Godot 3.x (--godot3): value 0 does not decode"),
        "{}",
        r.stderr
    );
    assert_eq!(r.out().lines().count(), 4);
    // One raw value.
    let r = run(&["inspect", "--hex", GODOT3_VECTOR3, "--text"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.out(), "Vector3( 1, 2, 3 )\n");
    snapshot!("default_engine_godot3_value", r.transcript());
}

#[test]
fn given_engine_shows_the_hint_and_no_misread_dump() {
    // In memory: refused before anything is printed.
    let r = run(&["inspect", "--hex", GODOT3_VECTOR3, "--godot4"], b"");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.out(), "");
    assert_eq!(
        r.stderr,
        "error: the bytes do not decode as Godot 4.5+, and read exactly as Godot 3.x\n\
         hint: these bytes decode as Godot 3.x: try --godot3\n"
    );
    // A file read as a stream: the hint comes first, then each frame's error; frames that
    // read in Godot 3 only are not dumped (a frame both read, the last String, is).
    let r = run(&["inspect", SAVE, "--save", "--godot4"], b"");
    r.fails_starting_with("hint: these bytes decode as Godot 3.x: try --godot3\nerror: value 0");
    assert!(!r.out().contains("Transform3D"), "{}", r.out());
    snapshot!("given_engine_godot3_save", r.transcript());
}

#[test]
fn big_endian_prefix_read_little_endian_hints_at_the_byte_order() {
    // put_var(1) with StreamPeer.big_endian = true: prefix 00000008.
    let r = run(
        &["inspect", "--stream", "--hex", "00000008 02000000 01000000"],
        b"",
    );
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .ends_with("hint: in the other byte order the length prefix is 8: try --big-endian\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn convert_reports_a_bounded_number_of_problems() {
    // Each of the RIDs is a problem whose path names the long key: printed in full, 4 000
    // warnings of 64 KiB each (256 MB of messages, 1 GB for a 256 KiB key).
    let mut sizes = Vec::new();
    for (key_len, rids) in [(16 << 10, 1000), (64 << 10, 4000)] {
        let r = run(&["convert", "-"], &long_key_over_rids(key_len, rids));
        assert_eq!(r.code, Some(0), "{}", &r.stderr[..r.stderr.len().min(2000)]);
        let lines: Vec<&str> = r.stderr.lines().collect();
        // 100 warnings, one counting the rest, and the summary.
        assert_eq!(
            lines.len(),
            102,
            "{}",
            &r.stderr[..r.stderr.len().min(2000)]
        );
        // The key is cut after 40 characters of its text form (the quote and 39 k's).
        let key = format!("\"{}…", "k".repeat(39));
        assert_eq!(
            lines[99],
            format!(
                "warning: value 0[{key}][99]: RID (Godot 3 stores no id; resource ids are per process): replaced by null"
            )
        );
        assert_eq!(
            lines[100],
            format!(
                "warning: {} more problems not shown (the first 100 are)",
                rids - 100
            )
        );
        assert!(
            lines[101].ends_with(&format!("; {rids} replaced by null, 0 skipped")),
            "{}",
            lines[101]
        );
        sizes.push(r.stderr.len());
    }
    // 100 lines of about 140 bytes, whatever the input's size.
    assert!(sizes.iter().all(|&n| n < 16 << 10), "{sizes:?}");
    assert!(sizes[1] < sizes[0] + 1000, "{sizes:?}");
}
