//! `godot-serde pck`: on packs Godot 4.6 and 3.2.3 wrote (`tests/fixtures/pck/`, see its
//! README), and round trips through `pack`, `add`, `remove` and `extract`.

use crate::common::{root, run};
use std::path::PathBuf;

/// The key of `godot4_encrypted.pck`: byte i is (7i + 1) mod 256.
const KEY: &str = "01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3da";

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/pck")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("godot_serde_cli_pck_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &std::path::Path) -> String {
    p.to_string_lossy().into_owned()
}

/// MD5("hello").
const HELLO_MD5: &str = "5d41402abc4b2a76b9719d911017c592";

#[test]
fn lists_engine_packs() {
    let r = run(&["pck", "list", &fixture("godot4_plain.pck")], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        format!(
            "           5 --- {HELLO_MD5} dir/a.txt\n           0 -r- {} gone.txt\n",
            "-".repeat(32)
        )
    );
    assert!(
        r.stderr
            .contains("pack v3 (Godot 4.5+), engine 4.6.0, 2 entries"),
        "{}",
        r.stderr
    );
    let r = run(&["pck", "list", &fixture("godot3.pck")], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let none = "-".repeat(32);
    assert_eq!(
        r.out(),
        format!("           5 --- {none} res://dir/a.txt\n           5 --- {none} res://b.txt\n")
    );
    let r = run(
        &[
            "pck",
            "list",
            &fixture("godot4_encrypted.pck"),
            "--key",
            KEY,
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        format!("           5 e-- {HELLO_MD5} dir/a.txt\n           5 --- {HELLO_MD5} b.txt\n")
    );
    assert!(r.stderr.contains("directory encrypted"), "{}", r.stderr);
}

#[test]
fn extracts_engine_packs_and_checks_the_key() {
    for (pack, key) in [
        ("godot4_plain.pck", None),
        ("godot3.pck", None),
        ("godot4_encrypted.pck", Some(KEY)),
    ] {
        let out = temp(&format!("x_{pack}"));
        let fix = fixture(pack);
        let out_s = s(&out);
        let mut args = vec!["pck", "extract", &fix, "-o", &out_s];
        if let Some(k) = key {
            args.extend(["--key", k]);
        }
        let r = run(&args, b"");
        assert_eq!(r.code, Some(0), "{pack}: {}", r.stderr);
        assert_eq!(
            std::fs::read(out.join("dir/a.txt")).unwrap(),
            b"hello",
            "{pack}"
        );
        assert!(!out.join("gone.txt").exists());
        let _ = std::fs::remove_dir_all(&out);
    }
    // Without the key, and with a wrong one: exit 1, a hint, nothing written.
    let out = temp("nokey");
    let fix = fixture("godot4_encrypted.pck");
    let r = run(&["pck", "extract", &fix, "-o", &s(&out)], b"");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("--key"), "{}", r.stderr);
    let wrong = "00".repeat(32);
    let r = run(
        &["pck", "extract", &fix, "-o", &s(&out), "--key", &wrong],
        b"",
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("wrong password or key"), "{}", r.stderr);
    assert!(std::fs::read_dir(&out).unwrap().next().is_none());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_corrupt_file_fails_and_leaves_nothing() {
    let dir = temp("corrupt");
    let mut bytes = std::fs::read(fixture("godot4_plain.pck")).unwrap();
    bytes[0x80] = b'j'; // "jello": its MD5 is not the entry's
    let pack = dir.join("bad.pck");
    std::fs::write(&pack, &bytes).unwrap();
    let out = dir.join("out");
    let r = run(&["pck", "extract", &s(&pack), "-o", &s(&out)], b"");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("MD5"), "{}", r.stderr);
    assert!(!out.join("dir/a.txt").exists());
    // Unless asked not to check, as the engine does not.
    let r = run(
        &[
            "pck",
            "extract",
            &s(&pack),
            "-o",
            &s(&out),
            "--no-md5-check",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(std::fs::read(out.join("dir/a.txt")).unwrap(), b"jello");
    // A count of 2^32 - 1 at the directory (0xa0): refused at its byte.
    bytes[0xa0..0xa4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&pack, &bytes).unwrap();
    let r = run(&["pck", "list", &s(&pack)], b"");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("(byte 160)"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pack_add_remove_extract_round_trip() {
    let dir = temp("round");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::write(src.join("a.txt"), b"alpha").unwrap();
    let big: Vec<u8> = (0..200_000u32).map(|i| (i % 253) as u8).collect();
    std::fs::write(src.join("sub/big.bin"), &big).unwrap();
    let pack = s(&dir.join("m.pck"));
    let r = run(
        &[
            "pck",
            "pack",
            &s(&src),
            "--format",
            "v2",
            "--engine",
            "4.4.0",
            "-o",
            &pack,
            "--key",
            KEY,
            "--encrypt",
            "--encrypt-directory",
            "--alignment",
            "4096",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let bytes = std::fs::read(&pack).unwrap();
    assert_eq!(&bytes[..8], b"GDPC\x02\x00\x00\x00");
    // Flags: the directory is encrypted (1).
    assert_eq!(bytes[20], 1);
    std::fs::write(dir.join("new.txt"), b"new").unwrap();
    let r = run(
        &["pck", "add", &pack, "--key", KEY, "-C", &s(&dir), "new.txt"],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = run(
        &[
            "pck",
            "remove",
            &pack,
            "--key",
            KEY,
            "res://a.txt",
            "--format",
            "v3",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("pack v3"), "{}", r.stderr);
    let r = run(&["pck", "list", &pack, "--key", KEY], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let listing = r.out();
    let names: Vec<&str> = listing
        .lines()
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(names, ["sub/big.bin", "new.txt"]);
    assert!(r.out().starts_with("      200000 e--"), "{}", r.out());
    let out = dir.join("out");
    let r = run(
        &["pck", "extract", &pack, "--key", KEY, "-o", &s(&out)],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(std::fs::read(out.join("sub/big.bin")).unwrap(), big);
    assert_eq!(std::fs::read(out.join("new.txt")).unwrap(), b"new");
    // A v1 pack cannot be encrypted; --format is required.
    let r = run(
        &[
            "pck",
            "pack",
            &s(&src),
            "--format",
            "v1",
            "-o",
            &pack,
            "--key",
            KEY,
            "--encrypt",
        ],
        b"",
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let r = run(&["pck", "pack", &s(&src), "-o", &pack], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
