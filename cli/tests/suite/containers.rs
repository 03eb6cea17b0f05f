//! The container commands (`decrypt`, `encrypt`, `decompress`, `compress`) and containers in
//! `inspect` / `convert`, on files the engines wrote (`tests/fixtures/containers/`) and on
//! the Godot 3 save example.

use crate::common;

use common::{root, run};

const SAVE: &str = "examples/data/godot3_save.dat";

fn fixture(path: &str) -> String {
    root()
        .join("tests/fixtures/containers")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("godot_serde_cli_{name}_{}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn decrypts_engine_files_with_password_and_key() {
    for engine in ["godot3", "godot4"] {
        let r = run(
            &[
                "decrypt",
                &fixture(&format!("{engine}/enc.bin")),
                "--password",
                "pw",
            ],
            b"",
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stdout, b"hello");
        let layout = if engine == "godot3" {
            "Godot 3 layout: AES-256-ECB"
        } else {
            "Godot 4 layout: AES-256-CFB"
        };
        assert!(r.stderr.contains(layout), "{}", r.stderr);
        let key: String = (0..32).map(|i| format!("{i:02x}")).collect();
        let r = run(
            &[
                "decrypt",
                &fixture(&format!("{engine}/enck.bin")),
                "--key",
                &key,
            ],
            b"",
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stdout, b"hello");
    }
}

#[test]
fn wrong_password_is_exit_1_with_a_clear_message() {
    let r = run(
        &["decrypt", &fixture("godot4/enc.bin"), "--password", "nope"],
        b"",
    );
    assert_eq!(r.code, Some(1));
    assert!(r.stdout.is_empty(), "no garbage output");
    assert_eq!(
        r.stderr,
        "error: wrong password or key: the MD5 of the decrypted data does not match the file's\n  \
         check --password or --key (the file may also be corrupt)\n"
    );
    let r = run(
        &["decrypt", &fixture("godot4/enc.bin"), "--key", "0011"],
        b"",
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("an encryption key is 32 bytes, not 2"),
        "{}",
        r.stderr
    );
}

#[test]
fn decompresses_engine_files_and_streams() {
    for engine in ["godot3", "godot4"] {
        for (mode, name) in ["fastlz", "deflate", "zstd", "gzip"].iter().enumerate() {
            let r = run(
                &["decompress", &fixture(&format!("{engine}/c{mode}.bin"))],
                b"",
            );
            assert_eq!(r.code, Some(0), "{}", r.stderr);
            assert_eq!(r.stdout, b"hello hello hello hello");
            assert!(
                r.stderr
                    .contains(&format!("GCPF, {name}, 4096-byte blocks")),
                "{}",
                r.stderr
            );
        }
    }
    // A bare stream: compress --stream, then decompress --mode.
    let r = run(
        &["compress", "--mode", "gzip", "--stream", "-"],
        b"abcabcabc",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(&r.stdout[..2], b"\x1f\x8b", "gzip magic");
    let r = run(&["decompress", "--mode", "gzip", "-"], &r.stdout);
    assert_eq!(r.stdout, b"abcabcabc");
    let r = run(
        &["decompress", "--mode", "gzip", "--max-size", "4", "-"],
        &run(
            &["compress", "--mode", "gzip", "--stream", "-"],
            b"abcabcabc",
        )
        .stdout,
    );
    r.fails_with("exceeds the limit of 4 bytes");
}

#[test]
fn inspect_reads_encrypted_and_compressed_saves() {
    let save = std::fs::read(root().join(SAVE)).unwrap();
    let plain = run(&["inspect", SAVE, "--godot3", "--save", "--json"], b"");
    assert_eq!(plain.code, Some(0));
    // Encrypted with a password (Godot 3 layout), then inspected: the same JSON lines.
    let enc = run(&["encrypt", "--godot3", "--password", "secret", "-"], &save);
    assert_eq!(enc.code, Some(0), "{}", enc.stderr);
    assert_eq!(&enc.stdout[..8], b"GDEC\x01\0\0\0");
    let r = run(
        &[
            "inspect",
            "--godot3",
            "--save",
            "--json",
            "--password",
            "secret",
            "-",
        ],
        &enc.stdout,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, plain.stdout);
    assert!(
        r.stderr
            .starts_with("note: encrypted (GDEC, Godot 3 layout: AES-256-ECB)"),
        "{}",
        r.stderr
    );
    // Without a password: a usage error naming the container.
    let r = run(&["inspect", "--godot3", "-"], &enc.stdout);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("encrypted file (GDEC magic): give --password or --key"),
        "{}",
        r.stderr
    );
    // Compressed: no key needed.
    let c = run(&["compress", "--mode", "zstd", "-"], &save);
    assert_eq!(&c.stdout[..8], b"GCPF\x02\0\0\0");
    let r = run(&["inspect", "--godot3", "--save", "--json", "-"], &c.stdout);
    assert_eq!(r.stdout, plain.stdout);
    assert!(
        r.stderr
            .contains("compressed (GCPF, zstd, 4096-byte blocks)"),
        "{}",
        r.stderr
    );
}

#[test]
fn convert_keeps_the_container() {
    let save = std::fs::read(root().join(SAVE)).unwrap();
    let enc = run(&["encrypt", "--godot3", "--password", "secret", "-"], &save);
    let out = temp("convert_enc");
    let r = run(
        &["convert", "--password", "secret", "-o", &out, "-"],
        &enc.stdout,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let converted = std::fs::read(&out).unwrap();
    // Godot 4 layout: no mode field, the MD5 right after the magic.
    assert_eq!(&converted[..4], b"GDEC");
    assert_ne!(&converted[4..8], b"\x01\0\0\0");
    let plain = run(&["convert", SAVE], b"");
    let dec = run(&["decrypt", "--password", "secret", &out], b"");
    assert_eq!(dec.stdout, plain.stdout);
    let _ = std::fs::remove_file(&out);

    let c = run(&["compress", "--mode", "deflate", "-"], &save);
    let r = run(&["convert", "-"], &c.stdout);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(&r.stdout[..8], b"GCPF\x01\0\0\0");
    let d = run(&["decompress", "-"], &r.stdout);
    assert_eq!(d.stdout, plain.stdout);
}

#[test]
fn a_zstd_window_larger_than_the_limit_is_refused_before_decoding() {
    // RFC 8878 by hand: magic, Frame_Header_Descriptor 0, Window_Descriptor 0x84 (2^26 +
    // 4 × 2^23 = 96 MiB), then 800 RLE blocks of 128 KiB (3-byte header: Block_Size << 3 |
    // RLE (1) << 1 | Last_Block, then the byte): 3 206 bytes for 100 MiB. The decoder used to
    // produce a whole window (201 MB of heap) before the limit could refuse it.
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x84];
    for i in 0..800 {
        let header = (128u32 << 10) << 3 | 1 << 1 | u32::from(i == 799);
        frame.extend_from_slice(&header.to_le_bytes()[..3]);
        frame.push(b'z');
    }
    // The bare stream, and the same frame as the one 1024-byte block of a GCPF file (mode 2,
    // block size 4096, total 1024, the block's size; the frame; the magic again).
    let mut file = b"GCPF".to_vec();
    for word in [2, 4096, 1024, frame.len()] {
        file.extend_from_slice(&u32::try_from(word).unwrap().to_le_bytes());
    }
    file.extend_from_slice(&frame);
    file.extend_from_slice(b"GCPF");
    for (args, input, at) in [
        (
            &["decompress", "--mode", "zstd", "--max-size", "1024", "-"][..],
            &frame,
            6,
        ),
        (&["decompress", "--max-size", "1024", "-"][..], &file, 26),
        (&["inspect", "-"][..], &file, 26),
    ] {
        let r = run(args, input);
        assert_eq!(r.code, Some(1), "{args:?}: {}", r.stderr);
        // Refused at the first block's header, which alone claims 131 072 bytes.
        assert!(
            r.stderr.contains(&format!(
                "decompressed data of 131072 bytes exceeds the limit of 1024 bytes (byte {at})"
            )),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// The save-editing pipe of cli/README.md ("Editing a save from the shell"): `inspect
/// --password --json`, an edit of the JSON lines, `encode --save`, `encrypt --password`. The
/// result decrypts to the `store_var` bytes of the edited values, derived by hand.
#[test]
fn save_edited_through_the_documented_pipe() {
    let step = |args: &[&str], input: &[u8]| {
        let r = run(args, input);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        r.stdout
    };
    // A Godot 4 encrypted save holding {"gold": 10} and 7.
    let plain = step(&["encode", "--save"], b"{\"gold\": 10}\n7\n");
    let sealed = step(&["encrypt", "--password", "secret"], &plain);

    let lines = step(&["inspect", "-", "--password", "secret", "--json"], &sealed);
    let text = String::from_utf8(lines).unwrap();
    assert_eq!(text, "{\"gold\":10}\n7\n");
    let edited = text.replace("\"gold\":10", "\"gold\":999");
    let plain = step(&["encode", "--save"], edited.as_bytes());
    let sealed = step(&["encrypt", "--password", "secret"], &plain);
    let opened = step(&["decrypt", "-", "--password", "secret"], &sealed);

    let expected: Vec<u8> = [
        &[28, 0, 0, 0][..],           // store_var: the first value's length, 28 bytes
        &[27, 0, 0, 0, 1, 0, 0, 0],   // Dictionary (type 27), 1 entry
        &[4, 0, 0, 0, 4, 0, 0, 0],    // String (type 4), 4 bytes
        b"gold",                      // (no padding: 4 is a multiple of 4)
        &[2, 0, 0, 0, 0xe7, 3, 0, 0], // int (type 2), 999 = 0x03e7
        &[8, 0, 0, 0],                // the second value's length, 8 bytes
        &[2, 0, 0, 0, 7, 0, 0, 0],    // int 7
    ]
    .concat();
    assert_eq!(opened, expected);
}
