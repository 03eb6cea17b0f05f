//! Body of the fuzz target `pck` (`fuzz/fuzz_targets/pck.rs`), replayed on the stable
//! toolchain by `tests/suite/pck_fuzz_replay.rs`. The first input byte picks the key (none,
//! bytes (7i + 1) mod 256 as in `tests/fixtures/pck`, or zeros); the rest is the pack.

use godot_serde::container::Key;
use godot_serde::pck::{
    self, Change, EngineVersion, PackFormat, PackOptions, PackReader, ReadOptions,
};
use std::io::{Cursor, Read};

/// The key a selector byte picks.
pub fn key(selector: u8) -> Option<Key> {
    match selector % 3 {
        0 => None,
        1 => {
            let mut k = [0u8; 32];
            for (i, b) in k.iter_mut().enumerate() {
                *b = (i * 7 + 1) as u8;
            }
            Some(Key::from_bytes(k))
        }
        _ => Some(Key::from_bytes([0; 32])),
    }
}

/// `pck`: reading a pack never panics; every entry's stored bytes lie inside the input; a
/// file never yields more bytes than its entry's size; the files that read back cleanly
/// read back the same from a v3 and a v2 copy written by `pck::patch` (the kept files
/// copied as stored, the encrypted directory re-encrypted with the same key).
pub fn pck(data: &[u8]) {
    let Some((&selector, file)) = data.split_first() else {
        return;
    };
    let key = key(selector);
    let mut options = ReadOptions::new();
    if let Some(k) = &key {
        options = options.with_key(k.clone());
    }
    let Ok(mut pack) = PackReader::with_options(Cursor::new(file), &options) else {
        return;
    };
    let sparse = pack.header().flags & pck::PACK_SPARSE_BUNDLE != 0;
    let entries = pack.entries().to_vec();
    let mut good = Vec::new();
    for entry in &entries {
        if !entry.is_removal() && !sparse {
            let end = entry.offset.checked_add(entry.stored_size()).expect("end");
            assert!(end <= file.len() as u64, "{entry:?} past the input's end");
        }
        let Ok(mut reader) = pack.open_entry(entry) else {
            continue;
        };
        let mut out = Vec::new();
        let read = (&mut reader).take(entry.size + 1).read_to_end(&mut out);
        assert!(
            out.len() as u64 <= entry.size,
            "{entry:?} gave {} bytes",
            out.len()
        );
        if read.is_ok() && out.len() as u64 == entry.size {
            good.push((entry.clone(), out));
        }
    }
    for format in [PackFormat::V3, PackFormat::V2] {
        let mut write = PackOptions::new(format, EngineVersion::new(4, 6, 0)).with_alignment(16);
        if let Some(k) = &key {
            write = write
                .with_key(k.clone())
                .with_encrypted_directory(pack.header().directory_encrypted());
        }
        let Ok(copy) = pck::patch(&mut pack, Vec::new(), write, Vec::<Change>::new()) else {
            continue;
        };
        let mut again =
            PackReader::with_options(Cursor::new(copy), &options).expect("our copy reads");
        for (entry, bytes) in &good {
            // The engine's rule: the last entry of a name wins.
            let Some(last) = again.find(&entry.path).cloned() else {
                continue;
            };
            if last.size == entry.size && last.md5 == entry.md5 && last.flags == entry.flags {
                if let Ok(back) = again.read_file(&entry.path) {
                    if pack.find(&entry.path) == Some(entry) {
                        assert_eq!(&back, bytes, "{entry:?} differs in the copy");
                    }
                }
            }
        }
    }
}
