//! Encrypted and compressed files against bytes the engines wrote
//! (`tests/fixtures/containers/`, see its README), hand-derived layouts and hostile input.
#![cfg(any(feature = "crypto", feature = "compression"))]

use std::path::PathBuf;

fn fixture(engine: u8, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/fixtures/containers/godot{engine}/{name}.bin"
    ));
    std::fs::read(path).expect("fixture")
}

#[cfg(feature = "crypto")]
fn raw_key() -> godot_serde::container::Key {
    let mut k = [0u8; 32];
    for (i, b) in k.iter_mut().enumerate() {
        *b = i as u8;
    }
    godot_serde::container::Key::from_bytes(k)
}

#[cfg(feature = "crypto")]
mod encrypted {
    use super::*;
    use godot_serde::ErrorKind;
    use godot_serde::container::{self, EncryptedHeader, Key, Layout};

    #[test]
    fn password_key_is_the_md5_hex_text() {
        // `"pw".md5_text()` printed by Godot 4.6.
        assert_eq!(
            Key::from_password("pw").as_bytes(),
            b"8fe4c11451281c094a6578e6ddbf5eed"
        );
    }

    #[test]
    fn reads_encrypted_files_of_both_engines() {
        for engine in [3, 4] {
            for (name, key) in [("enc", Key::from_password("pw")), ("enck", raw_key())] {
                let file = fixture(engine, name);
                let header = EncryptedHeader::parse(&file).unwrap();
                let layout = if engine == 3 {
                    Layout::Godot3
                } else {
                    Layout::Godot4
                };
                assert_eq!(header.layout, layout, "godot{engine}/{name}");
                assert_eq!(header.len, 5);
                // md5("hello")
                assert_eq!(
                    godot_serde::dump::hex(&header.md5),
                    "5d41402a bc4b2a76 b9719d91 1017c592"
                );
                assert_eq!(container::decrypt(&file, &key).unwrap(), b"hello");
            }
        }
    }

    #[test]
    fn encrypted_header_layouts() {
        // Godot 3: magic, mode 1, md5, u64 length, then one ECB block.
        let f3 = container::encrypt_godot3(b"hello", &Key::from_password("pw"));
        assert_eq!(f3.len(), 4 + 4 + 16 + 8 + 16);
        assert_eq!(&f3[..8], b"GDEC\x01\x00\x00\x00");
        // ECB is deterministic: the engine's file is byte-identical.
        assert_eq!(f3, fixture(3, "enc"));
        // Godot 4: magic, md5, u64 length, IV, then one CFB block.
        let iv: [u8; 16] = fixture(4, "enc")[28..44].try_into().unwrap();
        let f4 = container::encrypt_godot4_with_iv(b"hello", &Key::from_password("pw"), iv);
        assert_eq!(f4, fixture(4, "enc"));
        assert_eq!(f4.len(), 4 + 16 + 8 + 16 + 16);
    }

    #[test]
    fn wrong_password_is_its_own_error() {
        for engine in [3, 4] {
            let err = container::decrypt(&fixture(engine, "enc"), &Key::from_password("nope"))
                .unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::WrongKey), "{err}");
            assert!(!err.is_eof());
            assert_eq!(
                err.to_string(),
                "wrong password or key: the MD5 of the decrypted data does not match the file's"
            );
        }
    }

    #[test]
    fn truncated_encrypted_files_are_eof() {
        for engine in [3, 4] {
            let file = fixture(engine, "enc");
            for cut in 0..file.len() {
                let err = container::decrypt(&file[..cut], &Key::from_password("pw")).unwrap_err();
                if cut < 4 {
                    assert!(err.is_eof(), "cut {cut}: {err}");
                } else {
                    assert!(err.is_eof(), "godot{engine} cut at {cut}: {err}");
                }
            }
        }
    }

    #[test]
    fn forged_encrypted_length_allocates_nothing() {
        // A Godot 4 header claiming 4 GiB of data, in 60 bytes.
        let mut file = fixture(4, "enc");
        file[20..28].copy_from_slice(&(4u64 << 30).to_le_bytes());
        let err = container::decrypt(&file, &Key::from_password("pw")).unwrap_err();
        assert!(err.is_eof(), "{err}");
        assert!(matches!(err.kind(), ErrorKind::LengthTooLarge { .. }));
        file[20..28].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(container::decrypt(&file, &Key::from_password("pw")).is_err());
    }
}

#[cfg(feature = "compression")]
mod compressed {
    use super::*;
    use godot_serde::ErrorKind;
    use godot_serde::container::{self, CompressionMode, Limits, Wrapping};

    #[test]
    fn reads_compressed_files_of_both_engines() {
        for engine in [3, 4] {
            for mode in CompressionMode::WRITABLE {
                let file = fixture(engine, &format!("c{}", mode.id()));
                let opened = container::open(&file, None, &Limits::new()).unwrap();
                assert_eq!(
                    opened.data, b"hello hello hello hello",
                    "godot{engine} {mode}"
                );
                assert_eq!(
                    opened.wrapping,
                    Wrapping::Compressed {
                        mode,
                        block_size: 4096
                    }
                );
            }
        }
    }

    #[test]
    fn compressed_layout_by_hand() {
        // 5000 bytes in 4096-byte blocks: two blocks (4096 + 904), table of 2 sizes.
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        let file = container::write_compressed(&data, CompressionMode::Deflate, 4096).unwrap();
        assert_eq!(&file[..16], b"GCPF\x01\0\0\0\x00\x10\0\0\x88\x13\0\0");
        let s0 = u32::from_le_bytes(file[16..20].try_into().unwrap()) as usize;
        let s1 = u32::from_le_bytes(file[20..24].try_into().unwrap()) as usize;
        assert_eq!(file.len(), 24 + s0 + s1 + 4);
        assert_eq!(&file[file.len() - 4..], b"GCPF");
        // 8192 bytes: three blocks, the last one empty (total % block_size == 0), as Godot does.
        let data = vec![1u8; 8192];
        for mode in CompressionMode::WRITABLE {
            let file = container::write_compressed(&data, mode, 4096).unwrap();
            assert_eq!(u32::from_le_bytes(file[12..16].try_into().unwrap()), 8192);
            assert_eq!(
                container::read_compressed(&file, &Limits::new()).unwrap(),
                data
            );
        }
    }

    #[test]
    fn every_mode_round_trips() {
        let mut data = Vec::new();
        for i in 0..30_000u32 {
            data.extend_from_slice(format!("line {} ", i % 97).as_bytes());
        }
        for mode in CompressionMode::WRITABLE {
            for input in [&b""[..], b"abc", &data] {
                let c = container::compress(input, mode).unwrap();
                assert_eq!(
                    container::decompress(&c, mode, input.len()).unwrap(),
                    input,
                    "{mode}"
                );
                let file = container::write_compressed(input, mode, 4096).unwrap();
                assert_eq!(
                    container::read_compressed(&file, &Limits::new()).unwrap(),
                    input
                );
            }
        }
        assert!(container::compress(b"x", CompressionMode::Brotli).is_err());
    }

    #[test]
    fn engine_streams_decompress() {
        // `"hello hello hello hello".to_utf8_buffer().compress(mode).hex_encode()`, Godot 4.6.
        let deflate = "789ccb48cdc9c957c8402701680308b1";
        let gzip = "1f8b0800000000000003cb48cdc9c957c8402701e3513d8d17000000";
        // Godot 3.2.3, Zstd.
        let zstd = "28b52ffd20176500003068656c6c6f200100994b11";
        for (hex, mode) in [
            (deflate, CompressionMode::Deflate),
            (gzip, CompressionMode::GZip),
            (zstd, CompressionMode::Zstd),
        ] {
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(
                container::decompress(&bytes, mode, 23).unwrap(),
                b"hello hello hello hello"
            );
            let err = container::decompress(&bytes, mode, 22).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DecompressedTooLarge { max: 22, .. }),
                "{mode}: {err}"
            );
        }
    }

    #[test]
    fn forged_totals_and_counts_are_refused() {
        let mut file = fixture(4, "c1");
        // Claims 4 GiB - 1 decompressed: over the default 256 MiB limit, before any work.
        file[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = container::read_compressed(&file, &Limits::new()).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DecompressedTooLarge { .. }),
            "{err}"
        );
        assert_eq!(err.offset(), Some(12));
        // Under a large limit the block table (1 Mi entries with block size 4096) is not in the
        // 40-byte file: refused as a cut file.
        let err = container::read_compressed(&file, &Limits::new().with_max_size(usize::MAX))
            .unwrap_err();
        assert!(err.is_eof(), "{err}");
        // Block size 1 with total 2^31: 2^31 + 1 table entries.
        let mut file = fixture(4, "c1");
        file[8..12].copy_from_slice(&1u32.to_le_bytes());
        file[12..16].copy_from_slice(&(1u32 << 31).to_le_bytes());
        let err = container::read_compressed(&file, &Limits::new().with_max_size(usize::MAX))
            .unwrap_err();
        assert!(err.is_eof(), "{err}");
        // A block size of 0 and an unknown mode, as Godot refuses them.
        let mut file = fixture(4, "c1");
        file[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            container::read_compressed(&file, &Limits::new())
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidContainer(_)
        ));
        let mut file = fixture(4, "c1");
        file[4] = 9;
        assert_eq!(
            container::read_compressed(&file, &Limits::new())
                .unwrap_err()
                .to_string(),
            "unknown compression mode 9 (byte 4)"
        );
        // A forged compressed block size.
        let mut file = fixture(4, "c1");
        file[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            container::read_compressed(&file, &Limits::new())
                .unwrap_err()
                .is_eof()
        );
    }

    #[test]
    fn decompression_bomb_is_bounded() {
        // 8 MiB of zeros compress to a few KB; a 1 MiB limit stops it.
        let big = vec![0u8; 8 << 20];
        for mode in [CompressionMode::Zstd, CompressionMode::Deflate] {
            let c = container::compress(&big, mode).unwrap();
            assert!(c.len() < 1 << 20);
            let err = container::decompress(&c, mode, 1 << 20).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DecompressedTooLarge { max, .. } if *max == 1 << 20)
            );
            let file = container::write_compressed(&big, mode, 4096).unwrap();
            let err = container::read_compressed(&file, &Limits::new().with_max_size(1 << 20))
                .unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::DecompressedTooLarge { .. }));
        }
    }

    #[test]
    fn truncated_compressed_files_are_eof_or_refused() {
        for engine in [3, 4] {
            for mode in CompressionMode::WRITABLE {
                let file = fixture(engine, &format!("c{}", mode.id()));
                // Without the trailing magic Godot still reads the file; so do we.
                assert!(
                    container::read_compressed(&file[..file.len() - 4], &Limits::new()).is_ok()
                );
                for cut in 0..file.len() - 4 {
                    let err = container::read_compressed(&file[..cut], &Limits::new()).unwrap_err();
                    assert!(err.is_eof(), "godot{engine} {mode} cut at {cut}: {err}");
                }
            }
        }
    }
}

#[cfg(all(feature = "crypto", feature = "compression"))]
mod both {
    use super::*;
    use godot_serde::ErrorKind;
    use godot_serde::container::{self, Limits, Wrapping};

    #[test]
    fn open_passes_plain_files_through_and_needs_a_key() {
        let opened = container::open(b"\x02\0\0\0", None, &Limits::new()).unwrap();
        assert_eq!(opened.wrapping, Wrapping::Plain);
        let err = container::open(&fixture(4, "enc"), None, &Limits::new()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Unsupported(_)));
    }
}
