//! The decoders behind `container::read_compressed` and `container::decompress`: one decoder
//! state per file (not per 4 KiB block), GZip members with every optional header field, and
//! FastLZ matches that overlap their own output. Streams are built by hand from RFC 1952 /
//! RFC 1951 and the FastLZ layout (`src/container/fastlz.rs`).

#[cfg(feature = "compression")]
mod decoders {
    use crate::heap;
    use godot_serde::ErrorKind;
    use godot_serde::container::{self, CompressionMode, Limits};

    /// Text that compresses about 3:1 (below the 8:1 the output buffer is sized for up
    /// front), `blocks` blocks of 4096 bytes.
    fn text(blocks: usize) -> Vec<u8> {
        let mut data = Vec::new();
        let mut i = 0u32;
        while data.len() < blocks * 4096 {
            data.extend_from_slice(
                format!("player_{i} level {} gold {};", i % 50, i * 37 % 9973).as_bytes(),
            );
            i += 1;
        }
        data.truncate(blocks * 4096);
        data
    }

    #[test]
    fn decoder_state_is_set_up_once_per_file_not_per_block() {
        // A GCPF file is a run of 4 KiB blocks, each its own stream. Reading one costs the
        // output buffer (sized once from the file) and, per mode, one decoder state for the
        // whole file: so 4 times the blocks must not mean more allocations. (Each block
        // decoded into a Vec of its own, through a reader with its own buffers and state,
        // made the count grow with the blocks: 1 to 4 allocations a block.)
        for mode in CompressionMode::WRITABLE {
            let count = |blocks: usize| {
                let data = text(blocks);
                let file = container::write_compressed(&data, mode, 4096).unwrap();
                let (n, out) = heap::allocations(|| {
                    container::read_compressed(&file, &Limits::new()).unwrap()
                });
                assert_eq!(out, data, "{mode}");
                n
            };
            let (small, large) = (count(16), count(64));
            assert!(
                large <= small + 1,
                "{mode}: {small} allocations for 16 blocks, {large} for 64"
            );
        }
    }

    /// A gzip member by hand (RFC 1952): FLG 0x1e = FHCRC | FEXTRA | FNAME | FCOMMENT, MTIME
    /// 0, XFL 0, OS 3; XLEN 3 and "xyz"; "name" and "note", each ending in a NUL; CRC16 the
    /// low 16 bits of the CRC-32 of those 25 bytes (0x958e, from zlib's `crc32`). Then one
    /// stored Deflate block (RFC 1951: BFINAL 1, BTYPE 00, LEN 5, NLEN !5) holding "hello",
    /// and the trailer: CRC-32 of "hello" (0x3610a686) and ISIZE 5.
    fn gzip_member() -> Vec<u8> {
        let mut m = vec![0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3, 3, 0];
        m.extend_from_slice(b"xyz");
        m.extend_from_slice(b"name\0note\0");
        m.extend_from_slice(&[0x8e, 0x95]);
        m.extend_from_slice(&[0x01, 5, 0, 0xfa, 0xff]);
        m.extend_from_slice(b"hello");
        m.extend_from_slice(&[0x86, 0xa6, 0x10, 0x36, 5, 0, 0, 0]);
        m
    }

    #[test]
    fn gzip_header_fields_and_trailer() {
        let m = gzip_member();
        let gz = CompressionMode::GZip;
        assert_eq!(container::decompress(&m, gz, 100).unwrap(), b"hello");
        // What follows the member is ignored, as zlib does.
        let mut longer = m.clone();
        longer.extend_from_slice(b"trailing");
        assert_eq!(container::decompress(&longer, gz, 100).unwrap(), b"hello");
        assert!(matches!(
            container::decompress(&m, gz, 4).unwrap_err().kind(),
            ErrorKind::DecompressedTooLarge { max: 4, .. }
        ));
        // Every cut is the end of the input.
        for cut in 0..m.len() {
            let err = container::decompress(&m[..cut], gz, 100).unwrap_err();
            assert!(err.is_eof(), "cut at {cut}: {err}");
        }
        // A wrong header CRC, changed data, a wrong CRC-32 or length, a reserved flag: corrupt.
        for (at, value) in [(25, 0x8f), (35, b'L'), (37, 0x87), (41, 6), (3, 0x3e)] {
            let mut bad = m.clone();
            bad[at] = value;
            let err = container::decompress(&bad, gz, 100).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::InvalidContainer(_)),
                "byte {at}: {err}"
            );
        }
    }

    #[test]
    fn fastlz_overlapping_matches_repeat_their_period() {
        // 02 = a literal run of 3: "abc"; e0 01 02 = a match of 7 + 2 + 1 = 10 bytes at
        // distance 2 + 1 = 3: "abcabcabca". Then 00 "z" and 20 00 = a match of 3 bytes at
        // distance 1: "zzz".
        let stream = [
            0x02, b'a', b'b', b'c', 0xe0, 0x01, 0x02, 0x00, b'z', 0x20, 0x00,
        ];
        let fast = CompressionMode::FastLz;
        let want = b"abcabcabcabcazzzz";
        assert_eq!(container::decompress(&stream, fast, 17).unwrap(), want);
        assert!(matches!(
            container::decompress(&stream, fast, 16).unwrap_err().kind(),
            ErrorKind::DecompressedTooLarge { max: 16, .. }
        ));
        // A long run (distance 1, 3 + 6 + 255 + 4 = 268 bytes, level 2) and output far past
        // 4 times the input: the room grows as the stream needs it.
        let mut stream = vec![0x20, b'q'];
        for _ in 0..100 {
            stream.extend_from_slice(&[0xe0, 0xff, 0x04, 0x00]);
        }
        let out = container::decompress(&stream, fast, 1 << 20).unwrap();
        assert_eq!(out.len(), 1 + 100 * 268);
        assert!(out.iter().all(|&b| b == b'q'));
    }
}
