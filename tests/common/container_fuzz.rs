//! Bodies of the container fuzz targets (`fuzz/fuzz_targets/container_*.rs`), replayed on the
//! stable toolchain by `tests/suite/container_fuzz_replay.rs`. The first input byte picks the key,
//! the compression mode and the limit; the rest is the file or stream.
#![allow(dead_code)] // each fuzz target uses one of the two bodies

use godot_serde::container::{self, CompressionMode, EncryptedHeader, Key, Limits};

/// The output limit of the compressed checks: 1 MiB.
pub const MAX_OUT: usize = 1 << 20;

fn key(selector: u8) -> Key {
    if selector & 1 == 0 {
        Key::from_password("pw")
    } else {
        let mut k = [0u8; 32];
        for (i, b) in k.iter_mut().enumerate() {
            *b = i as u8;
        }
        Key::from_bytes(k)
    }
}

/// `container_encrypted`: decrypting never panics and never returns more bytes than the file
/// holds; what decrypts re-encrypts (same layout, same IV) to a file that decrypts the same.
pub fn encrypted(data: &[u8]) {
    let Some((&selector, file)) = data.split_first() else {
        return;
    };
    let key = key(selector);
    let header = EncryptedHeader::parse(file);
    let Ok(plain) = container::decrypt(file, &key) else {
        return;
    };
    assert!(plain.len() <= file.len());
    let header = header.expect("a file that decrypts has a header");
    let again = match header.iv {
        Some(iv) => container::encrypt_godot4_with_iv(&plain, &key, iv),
        None => container::encrypt_godot3(&plain, &key),
    };
    assert_eq!(
        container::decrypt(&again, &key).expect("re-encrypted"),
        plain
    );
}

/// `container_compressed`: the GCPF reader and every stream decoder never panic and stay
/// within their limit; what reads re-writes (same mode) to a file that reads the same; a
/// decompressed stream re-compresses and decompresses to itself; FastLZ round-trips the input.
pub fn compressed(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let limits = Limits::new().with_max_size(MAX_OUT);
    if let Ok(plain) = container::read_compressed(rest, &limits) {
        assert!(plain.len() <= MAX_OUT);
        let header = container::CompressedHeader::parse(rest).expect("header");
        if header.mode != CompressionMode::Brotli {
            let file =
                container::write_compressed(&plain, header.mode, header.block_size.min(1 << 16))
                    .expect("write");
            assert_eq!(
                container::read_compressed(&file, &limits).expect("re-read"),
                plain
            );
        }
    }
    let mode = CompressionMode::from_id(u32::from(selector % 5)).expect("mode");
    let max = if selector & 0x80 != 0 { 64 } else { MAX_OUT };
    if let Ok(out) = container::decompress(rest, mode, max) {
        assert!(out.len() <= max.max(16));
        if mode != CompressionMode::Brotli {
            let c = container::compress(&out, mode).expect("compress");
            assert_eq!(
                container::decompress(&c, mode, out.len()).expect("round trip"),
                out
            );
        }
    }
    let c = container::compress(rest, CompressionMode::FastLz).expect("fastlz");
    let back = container::decompress(&c, CompressionMode::FastLz, rest.len()).expect("fastlz back");
    assert_eq!(back, rest);
}
