//! Encrypted and compressed files against bytes the engines wrote
//! (`tests/fixtures/containers/`, see its README), hand-derived layouts and hostile input.

#[cfg(feature = "compression")]
use crate::heap;

use std::path::PathBuf;

// main.rs's allocator counts the heap each test thread holds (`heap::peak_of`).
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
    fn every_codec_holds_little_more_than_max_size() {
        // 8 MiB of zeros under a 1 KiB limit: each decoder's own state (Deflate's 32 KiB
        // window, a Zstd block), never the 8 MiB.
        let big = vec![0u8; 8 << 20];
        for mode in CompressionMode::WRITABLE {
            let c = container::compress(&big, mode).unwrap();
            let (r, peak) = heap::peak_of(|| container::decompress(&c, mode, 1024));
            assert!(
                matches!(
                    r.unwrap_err().kind(),
                    ErrorKind::DecompressedTooLarge { .. }
                ),
                "{mode}"
            );
            eprintln!("{mode}: {peak} bytes of heap for max_size 1024");
            assert!(
                peak <= heap::SLACK + ZSTD_WORK,
                "{mode}: {peak} bytes of heap"
            );
        }
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

    /// The header of a Zstandard frame, by hand from RFC 8878 (3.1.1): the magic 0xFD2FB528
    /// (little-endian), a Frame_Header_Descriptor of 0 (no Frame_Content_Size, no
    /// Single_Segment_flag, no checksum, no dictionary) and the Window_Descriptor `window`.
    fn zstd_header(window: u8) -> Vec<u8> {
        vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, window]
    }

    /// A block header (3.1.1.2): 3 bytes little-endian, Last_Block in bit 0, Block_Type in
    /// bits 1-2 (0 Raw, 1 RLE), Block_Size in bits 3-23.
    fn block_header(last: bool, kind: u32, size: usize) -> [u8; 3] {
        let h = u32::try_from(size).unwrap() << 3 | kind << 1 | u32::from(last);
        let [a, b, c, _] = h.to_le_bytes();
        [a, b, c]
    }

    /// One last Raw block of `len` bytes `z`.
    fn raw_block(len: usize) -> Vec<u8> {
        let mut block = block_header(true, 0, len).to_vec();
        block.resize(3 + len, b'z');
        block
    }

    /// `count` RLE blocks of `len` bytes `z` each (header and the one byte: 4 bytes).
    fn rle_blocks(count: usize, len: usize) -> Vec<u8> {
        let mut blocks = Vec::new();
        for i in 0..count {
            blocks.extend(block_header(i + 1 == count, 1, len));
            blocks.push(b'z');
        }
        blocks
    }

    /// Window_Descriptor 0x84: exponent 16, mantissa 4, a window of 2^26 + 4 × 2^23 =
    /// 100 663 296 bytes (96 MiB, under ruzstd's 100 MiB cap). The decoder returns nothing
    /// before it holds a window's worth: it decoded 96 MiB (134 MB of heap) before the
    /// limit could stop it.
    const WINDOW_96_MIB: u8 = 0x84;

    /// What decompressing may hold besides its output: one block (the format's
    /// Block_Maximum_Size, 128 KiB: the decoder produces a block whole, in a buffer that
    /// rounds up to a power of two) and the decoder's tables, within `heap::SLACK`.
    const ZSTD_WORK: usize = 256 << 10;

    #[test]
    fn zstd_window_and_blocks_are_checked_before_decoding() {
        // The 3 206-byte frame: the 96 MiB window, then 800 RLE blocks of 128 KiB (100 MiB).
        let frame = [zstd_header(WINDOW_96_MIB), rle_blocks(800, 128 << 10)].concat();
        assert_eq!(frame.len(), 3206);
        let (r, peak) =
            heap::peak_of(|| container::decompress(&frame, CompressionMode::Zstd, 1024));
        let err = r.unwrap_err();
        // Refused at the first block: it alone makes 131 072 bytes.
        assert!(
            matches!(
                err.kind(),
                ErrorKind::DecompressedTooLarge {
                    len: 131_072,
                    max: 1024
                }
            ),
            "{err}"
        );
        assert_eq!(err.offset(), Some(6));
        assert!(
            peak <= heap::SLACK,
            "{peak} bytes of heap for max_size 1024"
        );
        // The same frame as the one 1024-byte block of a GCPF file: mode 2 (Zstd), block
        // size 4096, total 1024, one compressed size, the frame, the magic again.
        let mut file = b"GCPF".to_vec();
        for word in [2, 4096, 1024, frame.len()] {
            file.extend_from_slice(&u32::try_from(word).unwrap().to_le_bytes());
        }
        file.extend_from_slice(&frame);
        file.extend_from_slice(b"GCPF");
        let (r, peak) = heap::peak_of(|| container::read_compressed(&file, &Limits::new()));
        let err = r.unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::DecompressedTooLarge { max: 1024, .. }
            ),
            "{err}"
        );
        assert_eq!(err.offset(), Some(20 + 6));
        assert!(peak <= heap::SLACK, "GCPF: {peak} bytes of heap");

        // 2 000 RLE blocks of 1 byte (refused at the 1 025th) and a Raw block past the limit.
        for frame in [
            [zstd_header(WINDOW_96_MIB), rle_blocks(2000, 1)].concat(),
            [zstd_header(WINDOW_96_MIB), raw_block(1025)].concat(),
        ] {
            let err = container::decompress(&frame, CompressionMode::Zstd, 1024).unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    ErrorKind::DecompressedTooLarge {
                        len: 1025,
                        max: 1024
                    }
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn zstd_window_is_cut_to_what_may_come_out() {
        // Blocks that fit come out whole, as from Godot (which decompresses into its
        // max_size buffer and never needs the window): the decoder works with a 1 KiB window.
        let frame = [zstd_header(WINDOW_96_MIB), rle_blocks(4, 256)].concat();
        let (r, peak) =
            heap::peak_of(|| container::decompress(&frame, CompressionMode::Zstd, 1024));
        assert_eq!(r.unwrap(), vec![b'z'; 1024]);
        let budget = heap::SLACK + ZSTD_WORK;
        assert!(peak <= budget, "{peak} bytes of heap (budget {budget})");
        // A compressed frame whose output passes the limit only once decoded: ruzstd's
        // encoder writes no Frame_Content_Size (descriptor 0x04: only the checksum flag) and
        // a 128 KiB window (0x38: exponent 7) for 1 MiB of input. Stopped within a block.
        let data: Vec<u8> = (0..1u32 << 18)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let frame = container::compress(&data, CompressionMode::Zstd).unwrap();
        assert_eq!(&frame[4..6], &[0x04, 0x38], "{:02x?}", &frame[..8]);
        let (r, peak) =
            heap::peak_of(|| container::decompress(&frame, CompressionMode::Zstd, 1024));
        let err = r.unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::DecompressedTooLarge { max: 1024, .. }
            ),
            "{err}"
        );
        assert!(peak <= budget, "{peak} bytes of heap (budget {budget})");
        assert_eq!(
            container::decompress(&frame, CompressionMode::Zstd, data.len()).unwrap(),
            data
        );
    }

    #[test]
    fn zstd_declared_content_size_over_the_limit_is_refused_before_decoding() {
        // Frame_Header_Descriptor 0xe0: an 8-byte Frame_Content_Size (flag 3) and the
        // Single_Segment_flag (bit 5), so no Window_Descriptor and a window of the content
        // size: 100 MiB, at byte 5; then a Raw block.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
        frame.extend_from_slice(&(100u64 << 20).to_le_bytes());
        frame.extend(raw_block(16));
        let (r, peak) =
            heap::peak_of(|| container::decompress(&frame, CompressionMode::Zstd, 1024));
        let err = r.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DecompressedTooLarge { len, max: 1024 } if *len == 100 << 20),
            "{err}"
        );
        assert_eq!(err.offset(), Some(5));
        assert!(peak <= heap::SLACK, "{peak} bytes of heap");
        // A 2-byte Frame_Content_Size counts from 256 (flag 1: descriptor 0x40, then the
        // Window_Descriptor 0): 0x0300 + 256 = 1024 fits; 0x0301 + 256 does not.
        for (field, fits) in [(0x0300u16, true), (0x0301, false)] {
            let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x40, 0x00];
            frame.extend_from_slice(&field.to_le_bytes());
            frame.extend(raw_block(1024));
            let r = container::decompress(&frame, CompressionMode::Zstd, 1024);
            if fits {
                assert_eq!(r.unwrap(), vec![b'z'; 1024]);
            } else {
                assert!(matches!(
                    r.unwrap_err().kind(),
                    ErrorKind::DecompressedTooLarge { len: 1025, .. }
                ));
            }
        }
    }

    #[test]
    fn brotli_window_is_cut_to_what_may_come_out() {
        // RFC 7932 by hand, bits from the lowest of each byte: WBITS 24 (1, then 7 in 3 bits:
        // 1111), ISLAST 0, MNIBBLES 6 (2 in 2 bits: 0 1), MLEN - 1 = 2^24 - 1 (24 one bits),
        // ISUNCOMPRESSED 1: 0xcf 0xff 0xff 0xff, then the meta-block's bytes. The decoder
        // made its ring buffer the whole 16 MiB window for the claimed 16 MiB meta-block.
        let mut stream = vec![0xcf, 0xff, 0xff, 0xff];
        stream.resize(4 + 2048, b'b');
        let (r, peak) =
            heap::peak_of(|| container::decompress(&stream, CompressionMode::Brotli, 1024));
        let err = r.unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::DecompressedTooLarge { max: 1024, .. }
            ),
            "{err}"
        );
        // The window is cut to WBITS 18 (256 KiB), the smallest written in the same 4 bits.
        let budget = heap::SLACK + (256 << 10) + 16 * 1024;
        assert!(peak <= budget, "{peak} bytes of heap (budget {budget})");
        // An uncompressed meta-block of 5 bytes then an empty last one (ISLAST 1,
        // ISLASTEMPTY 1): "hello", under a 16 MiB window and under a cut one.
        // Bits: 1111 (WBITS 24), 0 (ISLAST), 00 (4 nibbles), MLEN - 1 = 4 in 16 bits,
        // 1 (ISUNCOMPRESSED), then byte-aligned data, then 0b11.
        let hello = [0x0f, 0x02, 0x80, b'h', b'e', b'l', b'l', b'o', 0x03];
        for max in [5, 1 << 30] {
            assert_eq!(
                container::decompress(&hello, CompressionMode::Brotli, max).unwrap(),
                b"hello"
            );
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
