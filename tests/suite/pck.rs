//! Resource packs without an engine: the bytes Godot 4.6 and 3.2.3 wrote (fixtures below),
//! round trips in every layout, and hostile packs (each a clear error at its byte, within
//! bounded memory).

use crate::common::hex;
use crate::heap;
use godot_serde::ErrorKind;
use godot_serde::pck::{
    self, Change, EngineVersion, Limits, PackFormat, PackOptions, PackReader, PackWriter,
    ReadOptions,
};
use std::io::{Cursor, Read};

/// What Godot 4.6's `PCKPacker` wrote for `pck_start("out.pck", 32)`,
/// `add_file("res://dir/a.txt", <"hello">)`, `add_file_removal("res://gone.txt")`, `flush()`:
/// the header (format 3, engine 4.6.0, flags 2 = relative file base, file base 0x80,
/// directory at 0xa0, 16 reserved words) padded to 32, "hello" padded to 32, then the
/// directory: 2 entries, "dir/a.txt" (12 bytes with padding), offset 0, size 5, its MD5,
/// flags 0; "gone.txt", offset 0x20 (where the next file would go), size 0, no MD5, flags 2.
const GODOT46: &str = "
    47445043 03000000 04000000 06000000 00000000 02000000 80000000 00000000
    a0000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
    00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
    00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
    68656c6c 6f000000 00000000 00000000 00000000 00000000 00000000 00000000
    02000000 0c000000 6469722f 612e7478 74000000 00000000 00000000 05000000
    00000000 5d41402a bc4b2a76 b9719d91 1017c592 00000000 08000000 676f6e65
    2e747874 20000000 00000000 00000000 00000000 00000000 00000000 00000000
    00000000 02000000";

/// What Godot 3.2.3's `PCKPacker` wrote for `pck_start("out.pck", 0)`, `add_file` of
/// "res://dir/a.txt" and "res://b.txt" (both "hello"), `flush()`: the header (format 1,
/// engine 3.2.3, 16 reserved words), 2 entries with unpadded paths, absolute offsets 0xba
/// and 0xbf, size 5 and a zero MD5 each, then the files back to back.
const GODOT323: &str = "
    47445043 01000000 03000000 02000000 03000000 00000000 00000000 00000000
    00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
    00000000 00000000 00000000 00000000 00000000 02000000 0f000000 7265733a
    2f2f6469 722f612e 747874ba 00000000 00000005 00000000 00000000 00000000
    00000000 00000000 0000000b 00000072 65733a2f 2f622e74 7874bf00 00000000
    00000500 00000000 00000000 00000000 00000000 00000000 00006865 6c6c6f68
    656c6c6f";

fn v46() -> PackOptions {
    PackOptions::new(PackFormat::V3, EngineVersion::new(4, 6, 0))
}

fn reader(bytes: &[u8]) -> godot_serde::Result<PackReader<Cursor<&[u8]>>> {
    PackReader::new(Cursor::new(bytes))
}

#[test]
fn godot46_fixture_read_and_written() {
    let bytes = hex(GODOT46);
    let mut pack = reader(&bytes).unwrap();
    let h = *pack.header();
    assert_eq!(
        (
            h.format,
            h.version,
            h.flags,
            h.start,
            h.embedded,
            h.directory,
            h.file_count
        ),
        (
            PackFormat::V3,
            EngineVersion::new(4, 6, 0),
            2,
            0,
            false,
            0xa0,
            2
        )
    );
    let e = &pack.entries()[0];
    assert_eq!(
        (e.path.as_str(), e.offset, e.size, e.flags),
        ("dir/a.txt", 0x80, 5, 0)
    );
    // MD5("hello") = 5d41402abc4b2a76b9719d911017c592.
    assert_eq!(e.md5.to_vec(), hex("5d41402a bc4b2a76 b9719d91 1017c592"));
    let r = &pack.entries()[1];
    assert!(r.is_removal() && r.path == "gone.txt" && !r.has_md5());
    assert_eq!(pack.read_file("res://dir/a.txt").unwrap(), b"hello");
    assert!(pack.find("gone.txt").is_none());
    let mut writer = PackWriter::new(Vec::new(), v46());
    writer
        .add_file("res://dir/a.txt", b"hello".to_vec())
        .unwrap();
    writer.add_removal("res://gone.txt").unwrap();
    assert_eq!(writer.finish().unwrap(), bytes);
}

#[test]
fn godot323_fixture_read_and_written() {
    let bytes = hex(GODOT323);
    let mut pack = reader(&bytes).unwrap();
    assert_eq!(pack.header().format, PackFormat::V1);
    assert_eq!(pack.header().version, EngineVersion::new(3, 2, 3));
    let offsets: Vec<(String, u64, u64)> = pack
        .entries()
        .iter()
        .map(|e| (e.path.clone(), e.offset, e.size))
        .collect();
    assert_eq!(
        offsets,
        [
            ("res://dir/a.txt".into(), 0xba, 5),
            ("res://b.txt".into(), 0xbf, 5)
        ]
    );
    // No MD5 recorded: nothing to check, the bytes come out.
    assert_eq!(pack.read_file("b.txt").unwrap(), b"hello");
    let options = PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3));
    let mut writer = PackWriter::new(Vec::new(), options);
    writer.add_file("dir/a.txt", b"hello".to_vec()).unwrap();
    writer.add_file("b.txt", b"hello".to_vec()).unwrap();
    let mut ours = writer.finish().unwrap();
    // Ours records the MD5s (at 84 + 4 + 4 + 15 + 8 + 8 = 123, and after that entry's end
    // at 139, 139 + 4 + 11 + 8 + 8 = 170), Godot 3's PCKPacker leaves them zero; the rest is
    // the same.
    for at in [123, 170] {
        assert_eq!(
            ours[at..at + 16].to_vec(),
            hex("5d41402a bc4b2a76 b9719d91 1017c592")
        );
        ours[at..at + 16].fill(0);
    }
    assert_eq!(ours, bytes);
}

fn files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("a.txt", b"alpha".to_vec()),
        (
            "dir/sub/b.bin",
            (0..100_000u32).map(|i| (i % 251) as u8).collect(),
        ),
        ("empty", Vec::new()),
    ]
}

fn round_trip(options: PackOptions, encrypt: bool, read: &ReadOptions) {
    let mut writer = PackWriter::new(Vec::new(), options.clone());
    for (name, data) in files() {
        if encrypt {
            #[cfg(feature = "crypto")]
            writer.add_file_encrypted(name, data).unwrap();
        } else {
            writer.add_file(name, data).unwrap();
        }
    }
    let bytes = writer.finish().unwrap();
    let mut pack = PackReader::with_options(Cursor::new(&bytes), read).unwrap();
    assert_eq!(pack.header().format, options.format());
    let a = u64::from(options.alignment().max(1));
    for (entry, (name, data)) in pack.entries().to_vec().iter().zip(files()) {
        assert_eq!(entry.name(), name);
        assert_eq!(entry.offset % a, 0, "{options:?} {name}");
        assert_eq!(entry.is_encrypted(), encrypt);
        assert_eq!(pack.read_file(name).unwrap(), data, "{options:?} {name}");
    }
}

#[test]
fn round_trips_every_layout_and_alignment() {
    for format in [PackFormat::V1, PackFormat::V2, PackFormat::V3] {
        for alignment in [0, 1, 16, 32, 4096] {
            let options =
                PackOptions::new(format, EngineVersion::new(4, 4, 0)).with_alignment(alignment);
            round_trip(options, false, &ReadOptions::new());
        }
    }
}

#[cfg(feature = "crypto")]
#[test]
fn round_trips_encrypted() {
    use godot_serde::container::Key;
    let key = Key::from_bytes([7; 32]);
    for format in [PackFormat::V2, PackFormat::V3] {
        for dir in [false, true] {
            let options = PackOptions::new(format, EngineVersion::new(4, 5, 0))
                .with_key(key.clone())
                .with_encrypted_directory(dir);
            round_trip(options, true, &ReadOptions::new().with_key(key.clone()));
        }
    }
    // A v1 pack has no encryption.
    let options = PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3)).with_key(key);
    let e = PackWriter::new(Vec::new(), options)
        .add_file_encrypted("a", b"x".to_vec())
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
}

#[cfg(feature = "crypto")]
#[test]
fn wrong_key_and_corrupt_ciphertext_are_errors() {
    use godot_serde::container::Key;
    let key = Key::from_bytes([7; 32]);
    let options = v46().with_key(key.clone()).with_encrypted_directory(true);
    let mut writer = PackWriter::new(Vec::new(), options);
    writer
        .add_file_encrypted("a.txt", b"secret text".to_vec())
        .unwrap();
    let bytes = writer.finish().unwrap();
    let wrong = ReadOptions::new().with_key(Key::from_bytes([8; 32]));
    let e = PackReader::with_options(Cursor::new(&bytes), &wrong).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    let e = PackReader::new(Cursor::new(&bytes)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    // The file's first ciphertext byte (after the 32-byte aligned header: 40 bytes of
    // encryption header) flipped: the last read fails, no wrong bytes pass silently.
    let mut bad = bytes.clone();
    bad[128 + 40] ^= 1;
    let right = ReadOptions::new().with_key(key);
    let mut pack = PackReader::with_options(Cursor::new(&bad), &right).unwrap();
    let e = pack.read_file("a.txt").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
}

#[test]
fn a_changed_byte_fails_the_read_of_the_last_byte() {
    let mut writer = PackWriter::new(Vec::new(), v46());
    writer.add_file("a.txt", b"hello".to_vec()).unwrap();
    let mut bytes = writer.finish().unwrap();
    bytes[0x80] = b'j';
    let mut pack = reader(&bytes).unwrap();
    // read_exact of exactly the size: the read that takes the last byte fails.
    let mut five = [0u8; 5];
    let e = pack
        .open_file("a.txt")
        .unwrap()
        .read_exact(&mut five)
        .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    let e = pack.read_file("a.txt").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidContainer(_)), "{e}");
    assert_eq!(e.offset(), Some(0x85));
    // Asked to skip the check, as the engine does, the bytes come out as they are.
    let options = ReadOptions::new().without_md5_check();
    let mut pack = PackReader::with_options(Cursor::new(&bytes), &options).unwrap();
    assert_eq!(pack.read_file("a.txt").unwrap(), b"jello");
}

#[test]
fn embedded_pack_found_through_the_trailer() {
    let mut writer = PackWriter::new(Vec::new(), v46());
    writer.add_file("a.txt", b"inside".to_vec()).unwrap();
    let inner = writer.finish().unwrap();
    let exe = vec![0x7fu8; 1001];
    let out = pck::embed(&mut exe.as_slice(), &mut inner.as_slice(), Vec::new()).unwrap();
    // The executable, 7 zeros to 1008, the pack, padding so that the file ends at a
    // multiple of 8, the pack's size with that padding, "GDPC".
    assert_eq!(out[..1001], exe[..]);
    assert_eq!(out[1008..1008 + inner.len()], inner[..]);
    assert_eq!(out.len() % 8, 0);
    let size = u64::from_le_bytes(out[out.len() - 12..out.len() - 4].try_into().unwrap());
    assert_eq!(size as usize, out.len() - 12 - 1008);
    assert_eq!(&out[out.len() - 4..], b"GDPC");
    let mut pack = reader(&out).unwrap();
    assert!(pack.header().embedded);
    assert_eq!(pack.header().start, 1008);
    assert_eq!(pack.read_file("a.txt").unwrap(), b"inside");
    // A v1 pack's offsets are absolute: it cannot move.
    let v1 = PackWriter::new(
        Vec::new(),
        PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3)),
    )
    .finish()
    .unwrap();
    let e = pck::embed(&mut exe.as_slice(), &mut v1.as_slice(), Vec::new()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn patch_replaces_removes_adds_and_converts() {
    let mut writer = PackWriter::new(Vec::new(), v46());
    for (name, data) in files() {
        writer.add_file(name, data).unwrap();
    }
    let base = writer.finish().unwrap();
    let mut source = reader(&base).unwrap();
    let changes = vec![
        Change::Put {
            path: "a.txt".into(),
            data: b"beta".to_vec(),
            encrypt: false,
        },
        Change::Remove {
            path: "empty".into(),
        },
        Change::Put {
            path: "c.txt".into(),
            data: b"gamma".to_vec(),
            encrypt: false,
        },
    ];
    let v1 = PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3));
    let out = pck::patch(&mut source, Vec::new(), v1, changes).unwrap();
    let mut pack = reader(&out).unwrap();
    assert_eq!(pack.header().format, PackFormat::V1);
    let names: Vec<&str> = pack.entries().iter().map(|e| e.name()).collect();
    assert_eq!(names, ["a.txt", "dir/sub/b.bin", "c.txt"]);
    assert_eq!(pack.read_file("a.txt").unwrap(), b"beta");
    assert_eq!(pack.read_file("dir/sub/b.bin").unwrap(), files()[1].1);
    let e = pck::patch(
        &mut source,
        Vec::new(),
        v46(),
        vec![Change::Remove {
            path: "nope".into(),
        }],
    )
    .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidContainer(_)), "{e}");
}

#[test]
fn paths_that_leave_the_pack_are_refused() {
    let mut writer = PackWriter::new(Vec::new(), v46());
    for bad in ["../x", "res://a/../../x", "", "res://", "a/\0b", "C:/x"] {
        let e = writer.add_file(bad, Vec::new()).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidContainer(_)),
            "{bad:?}: {e}"
        );
    }
    assert_eq!(pck::normalize_path("res://a//./b\\c").unwrap(), "a/b/c");
}

/// Every error of a hostile pack: its kind and byte offset.
#[track_caller]
fn hostile(bytes: &[u8], offset: usize, kind: fn(&ErrorKind) -> bool) {
    let (result, peak) = heap::peak_of(|| reader(bytes).map(|_| ()));
    let e = result.unwrap_err();
    assert!(kind(e.kind()), "{e}");
    assert_eq!(e.offset(), Some(offset), "{e}");
    assert!(peak <= heap::SLACK, "held {peak} bytes for {e}");
}

fn set_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn set_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn hostile_packs_are_errors_at_their_byte() {
    let good = hex(GODOT46);
    hostile(b"not a pack at all", 0, |k| {
        matches!(k, ErrorKind::InvalidContainer(_))
    });
    let mut b = good.clone();
    set_u32(&mut b, 4, 9);
    hostile(&b, 4, |k| matches!(k, ErrorKind::InvalidContainer(_)));
    // The directory offset past the end.
    let mut b = good.clone();
    set_u64(&mut b, 32, 1 << 40);
    hostile(&b, 32, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
    // A count of 2^32 - 1: past the limit, refused before any entry is read.
    let mut b = good.clone();
    set_u32(&mut b, 0xa0, u32::MAX);
    hostile(&b, 0xa0, |k| matches!(k, ErrorKind::LimitExceeded { .. }));
    // A count of 1000 in a directory of 2 entries' bytes.
    let mut b = good.clone();
    set_u32(&mut b, 0xa0, 1000);
    hostile(&b, 0xa0, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
    // A path length of 2 GiB, and one just past the directory's end.
    let mut b = good.clone();
    set_u32(&mut b, 0xa4, 0x7fff_ffff);
    hostile(&b, 0xa4, |k| matches!(k, ErrorKind::LimitExceeded { .. }));
    let mut b = good.clone();
    set_u32(&mut b, 0xa4, 100);
    hostile(&b, 0xa4, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
    // A file offset, and a size, past the end.
    let mut b = good.clone();
    set_u64(&mut b, 0xb4, 1 << 50);
    hostile(&b, 0xb4, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
    let mut b = good.clone();
    set_u64(&mut b, 0xbc, u64::MAX);
    hostile(&b, 0xbc, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
    // Not UTF-8: the path's first byte.
    let mut b = good.clone();
    b[0xa8] = 0xff;
    hostile(&b, 0xa8, |k| matches!(k, ErrorKind::InvalidUtf8 { .. }));
    // A trailer whose size points before the file's start.
    let mut b = vec![0u8; 64];
    set_u64(&mut b, 52, 1 << 40);
    b[60..].copy_from_slice(b"GDPC");
    hostile(&b, 52, |k| matches!(k, ErrorKind::LengthTooLarge { .. }));
}

#[test]
fn every_cut_of_a_pack_is_an_error_or_a_shorter_read() {
    let good = hex(GODOT46);
    for cut in 0..good.len() {
        let (result, peak) = heap::peak_of(|| {
            reader(&good[..cut]).and_then(|mut p| p.read_file("dir/a.txt").map(|_| ()))
        });
        assert!(result.is_err(), "cut at {cut} read fine");
        assert!(peak <= heap::SLACK, "cut at {cut}: {peak} bytes");
    }
}

#[test]
fn limits_are_configurable() {
    let good = hex(GODOT46);
    let options = ReadOptions::new().with_limits(Limits::new().with_max_entries(1));
    let e = PackReader::with_options(Cursor::new(&good), &options).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LimitExceeded { max: 1, .. }),
        "{e}"
    );
    let options = ReadOptions::new().with_limits(Limits::new().with_max_path_len(8));
    let e = PackReader::with_options(Cursor::new(&good), &options).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LimitExceeded { max: 8, .. }),
        "{e}"
    );
    assert_eq!(e.offset(), Some(0xa4));
}

#[test]
fn an_empty_file_is_checked_too() {
    // An empty file whose entry records the MD5 of "hello" (5d41...) instead of the empty
    // input's (d41d8cd98f00b204e9800998ecf8427e): the first read, which returns nothing,
    // fails.
    let mut writer = PackWriter::new(Vec::new(), v46());
    writer.add_file("e", Vec::new()).unwrap();
    let mut bytes = writer.finish().unwrap();
    // v3, alignment 32: the header to 0x80, no data, the directory at 0x80: count, path
    // length 4, "e" and padding, offset, size, then the MD5 at 0x80 + 4 + 4 + 4 + 8 + 8.
    let md5_at = 0x80 + 28;
    assert_eq!(
        bytes[md5_at..md5_at + 16].to_vec(),
        hex("d41d8cd9 8f00b204 e9800998 ecf8427e")
    );
    bytes[md5_at..md5_at + 16].copy_from_slice(&hex("5d41402a bc4b2a76 b9719d91 1017c592"));
    let mut pack = reader(&bytes).unwrap();
    let e = pack.read_file("e").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidContainer(_)), "{e}");
}

#[test]
fn streaming_one_file_holds_neither_it_nor_the_others() {
    let mut writer = PackWriter::new(Vec::new(), v46());
    for i in 0..100 {
        writer
            .add_file(&format!("small/{i}.bin"), vec![i as u8; 10_000])
            .unwrap();
    }
    let big: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    writer.add_file("big.bin", big).unwrap();
    let bytes = writer.finish().unwrap();
    let (copied, peak) = heap::peak_of(|| {
        let mut pack = reader(&bytes).unwrap();
        let mut file = pack.open_file("big.bin").unwrap();
        std::io::copy(&mut file, &mut std::io::sink()).unwrap()
    });
    assert_eq!(copied, 4 << 20);
    // The directory of 101 entries (a path and 64 bytes each, and the name index) and
    // io::copy's 8 KiB buffer: nothing in proportion to the 5 MB of files.
    assert!(peak <= heap::SLACK, "held {peak} bytes");
}
