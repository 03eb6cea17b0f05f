//! Deflate, GZip and Zstd decoding straight into the caller's output buffer, with decoder
//! states kept for every block of a compressed file.
//!
//! A GCPF file is a run of 4 KiB blocks, each its own stream, so what a decoder costs to set
//! up counts as much as its speed: a reader-based decoder (flate2's `ZlibDecoder`, ruzstd's
//! `StreamingDecoder`) allocates and clears its window, an input buffer and its tables for
//! every block. Here one [`Decoders`] serves a whole file and each block is decoded in one
//! pass into its place in the output, as the engine decodes into its block buffer
//! (`Compression::decompress`, `core/io/compression.cpp`).
//!
//! Memory: the output grows only as far as the stream can fill it. Deflate is decoded into
//! room that doubles from 4 × the input (at most `max_size`), continuing where it stopped; Zstd
//! into room for its declared content size, or 8 × the input, retried at 4 × the room when it
//! needs more (at most `max_size`). Both decoders' states are fixed in size: miniz_oxide's
//! `DecompressorOxide` (about 11 KiB, on the Rust heap) and libzstd's `ZSTD_DCtx` (about
//! 160 KiB on the C heap, [`zstd_safe::DCtx::sizeof`]), which in one-pass decoding keeps no
//! window of its own: back-references read the output buffer.

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress as inflate, inflate_flags};

use super::codec::CompressionMode;
use crate::error::{Error, ErrorKind, Result};

/// Decoder states reused from one stream to the next (one per file, or per call of
/// [`super::decompress`]).
#[derive(Default)]
pub(crate) struct Decoders {
    inflate: Option<Box<DecompressorOxide>>,
    zstd: Option<zstd_safe::DCtx<'static>>,
}

/// The first room for a stream of `input` bytes, at most `max`.
fn first_room(input: usize, factor: usize, max: usize) -> usize {
    input.saturating_mul(factor).max(4096).min(max)
}

impl Decoders {
    /// A zlib stream (`raw` false) or a raw Deflate stream (`raw` true) onto the end of
    /// `out`, at most `max` bytes; returns how many input bytes it took.
    fn inflate_into(
        &mut self,
        data: &[u8],
        raw: bool,
        mode: CompressionMode,
        max: usize,
        out: &mut Vec<u8>,
    ) -> Result<usize> {
        let r = self
            .inflate
            .get_or_insert_with(|| Box::new(DecompressorOxide::new()));
        r.init();
        let mut flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        if !raw {
            flags |= inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
                | inflate_flags::TINFL_FLAG_COMPUTE_ADLER32;
        }
        let base = out.len();
        let mut room = first_room(data.len(), 4, max);
        let mut read = 0usize;
        let mut written = 0usize;
        loop {
            out.resize(base + room, 0);
            let window = out.get_mut(base..).unwrap_or_default();
            let rest = data.get(read..).unwrap_or_default();
            let (status, took, wrote) = inflate(r, rest, window, written, flags);
            read += took;
            written += wrote;
            match status {
                TINFLStatus::Done => {
                    out.truncate(base + written);
                    return Ok(read);
                }
                TINFLStatus::HasMoreOutput if room < max => {
                    room = room.saturating_mul(2).min(max);
                }
                TINFLStatus::HasMoreOutput => {
                    out.truncate(base);
                    return Err(ErrorKind::DecompressedTooLarge {
                        len: max as u64 + 1,
                        max,
                    }
                    .into());
                }
                TINFLStatus::NeedsMoreInput | TINFLStatus::FailedCannotMakeProgress => {
                    return Err(Error::new(ErrorKind::UnexpectedEof { needed: 1 }));
                }
                TINFLStatus::Adler32Mismatch => {
                    return Err(corrupt(mode, "Adler-32 checksum mismatch"));
                }
                _ => return Err(corrupt(mode, "invalid Deflate data")),
            }
        }
    }

    /// A zlib stream (RFC 1950), as `COMPRESSION_DEFLATE` holds; what follows it is ignored,
    /// as zlib's `inflate` ignores it.
    pub(crate) fn zlib_into(&mut self, data: &[u8], max: usize, out: &mut Vec<u8>) -> Result<()> {
        self.inflate_into(data, false, CompressionMode::Deflate, max, out)
            .map(drop)
    }

    /// A gzip member (RFC 1952), as `COMPRESSION_GZIP` holds: the header (its optional
    /// fields skipped, its CRC-16 checked), the Deflate data, then the CRC-32 and the length
    /// modulo 2³² of the output, both checked, as zlib checks them. What follows the member is
    /// ignored, as zlib's `inflate` (window bits 15 + 16, one member) ignores it.
    pub(crate) fn gzip_into(&mut self, data: &[u8], max: usize, out: &mut Vec<u8>) -> Result<()> {
        const MODE: CompressionMode = CompressionMode::GZip;
        let start = gzip_header(data)?;
        let base = out.len();
        let body = data.get(start..).unwrap_or_default();
        let took = self.inflate_into(body, true, MODE, max, out)?;
        let at = start + took;
        let trailer = data.get(at..at + 8).ok_or_else(eof)?;
        let word = |i: usize| {
            let mut b = [0u8; 4];
            if let Some(w) = trailer.get(i..i + 4) {
                b.copy_from_slice(w);
            }
            u32::from_le_bytes(b)
        };
        let output = out.get(base..).unwrap_or_default();
        let mut crc = flate2::Crc::new();
        crc.update(output);
        if crc.sum() != word(0) {
            return Err(corrupt(MODE, "CRC-32 mismatch"));
        }
        // ISIZE: the length modulo 2^32 (the truncation is the format's).
        #[allow(clippy::cast_possible_truncation)]
        if output.len() as u32 != word(4) {
            return Err(corrupt(MODE, "length mismatch"));
        }
        Ok(())
    }

    /// Zstandard frames, decoded in one pass with libzstd (`ZSTD_decompressDCtx`, as the
    /// engine does): all frames of `data`, skippable frames skipped.
    pub(crate) fn zstd_into(
        &mut self,
        data: &[u8],
        declared: Option<u64>,
        max: usize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        const MODE: CompressionMode = CompressionMode::Zstd;
        let dctx = self.zstd.get_or_insert_with(zstd_safe::DCtx::create);
        let base = out.len();
        let mut room = match declared {
            Some(len) => usize::try_from(len).unwrap_or(max).min(max),
            None => first_room(data.len(), 8, max),
        };
        loop {
            out.resize(base + room, 0);
            let window = out.get_mut(base..).unwrap_or_default();
            match dctx.decompress(window, data) {
                Ok(n) => {
                    out.truncate(base + n);
                    return Ok(());
                }
                Err(code) => {
                    let name = zstd_safe::get_error_name(code);
                    if name != "Destination buffer is too small" {
                        out.truncate(base);
                        return Err(if name == "Src size is incorrect" {
                            eof()
                        } else {
                            corrupt(MODE, name)
                        });
                    }
                    if room >= max {
                        out.truncate(base);
                        return Err(ErrorKind::DecompressedTooLarge {
                            len: max as u64 + 1,
                            max,
                        }
                        .into());
                    }
                    room = room.saturating_mul(4).min(max);
                }
            }
        }
    }
}

/// Where the Deflate data of a gzip member starts (RFC 1952, 2.3): ID1 ID2 CM FLG MTIME(4)
/// XFL OS, then FEXTRA (a 2-byte length and that many bytes), FNAME and FCOMMENT (each up to
/// a NUL) and FHCRC (the low 16 bits of the CRC-32 of the header before it) as FLG says.
fn gzip_header(data: &[u8]) -> Result<usize> {
    const MODE: CompressionMode = CompressionMode::GZip;
    let fixed = data.get(..10).ok_or_else(eof)?;
    if fixed.get(..3) != Some(&[0x1f, 0x8b, 8][..]) {
        return Err(corrupt(MODE, "not a gzip member (magic or method)"));
    }
    let flags = fixed.get(3).copied().unwrap_or(0);
    if flags & 0xe0 != 0 {
        return Err(corrupt(MODE, "reserved header flags set"));
    }
    let mut at = 10usize;
    if flags & 4 != 0 {
        let len = data.get(at..at + 2).ok_or_else(eof)?;
        let len = usize::from(u16::from_le_bytes([
            len.first().copied().unwrap_or(0),
            len.get(1).copied().unwrap_or(0),
        ]));
        at += 2;
        data.get(at..at + len).ok_or_else(eof)?;
        at += len;
    }
    for bit in [8u8, 16] {
        if flags & bit != 0 {
            let rest = data.get(at..).unwrap_or_default();
            let nul = rest.iter().position(|&b| b == 0).ok_or_else(eof)?;
            at += nul + 1;
        }
    }
    if flags & 2 != 0 {
        let stored = data.get(at..at + 2).ok_or_else(eof)?;
        let mut crc = flate2::Crc::new();
        crc.update(data.get(..at).unwrap_or_default());
        #[allow(clippy::cast_possible_truncation)] // the low 16 bits, as the format says
        let low = crc.sum() as u16;
        if stored != low.to_le_bytes() {
            return Err(corrupt(MODE, "header CRC-16 mismatch"));
        }
        at += 2;
    }
    Ok(at)
}

fn eof() -> Error {
    Error::new(ErrorKind::UnexpectedEof { needed: 1 })
}

fn corrupt(mode: CompressionMode, why: &str) -> Error {
    ErrorKind::InvalidContainer(format!("corrupt {mode} stream: {why}").into()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// libzstd's state lives on the C heap, where the tests' counting allocator does not see
    /// it: its size is checked here instead. A frame announcing a 96 MiB window (RFC 8878,
    /// 3.1.1.1.2: Window_Descriptor 0x84, exponent 16 and mantissa 4: 2^26 + 4/8 × 2^26) over
    /// four RLE blocks of 256 `z` (3.1.1.2: header `size << 3 | 1 << 1 | last`, then the
    /// byte) decodes into its 1 KiB of output with no window of its own.
    #[test]
    fn zstd_state_is_fixed_whatever_the_window() {
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x84];
        for i in 0..4u32 {
            let header = 256 << 3 | 1 << 1 | u32::from(i == 3);
            frame.extend_from_slice(&header.to_le_bytes()[..3]);
            frame.push(b'z');
        }
        let mut d = Decoders::default();
        let mut out = vec![1, 2];
        d.zstd_into(&frame, None, 1024, &mut out).unwrap();
        assert_eq!(out.len(), 2 + 1024);
        assert!(out[..2] == [1, 2] && out[2..].iter().all(|&b| b == b'z'));
        let size = d.zstd.as_ref().map_or(0, zstd_safe::DCtx::sizeof);
        assert!(size > 0 && size <= 128 << 10, "{size} bytes of ZSTD_DCtx");
        // Past the limit: refused, and the output is left as it was.
        let err = d.zstd_into(&frame, None, 1000, &mut out).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::DecompressedTooLarge { max: 1000, .. }
        ));
        assert_eq!(out.len(), 2 + 1024);
    }
}
