//! The compression modes of `PackedByteArray.compress/decompress` (`PoolByteArray` in Godot 3)
//! and of each block of a compressed file (`core/io/compression.cpp`): raw streams, no header
//! of Godot's own.

use super::decoders::Decoders;
use super::fastlz;
use crate::error::{Error, ErrorKind, Result};
use std::io::Read;

/// A compression mode, numbered as Godot's `FileAccess.CompressionMode` /
/// `File.CompressionMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CompressionMode {
    /// `COMPRESSION_FASTLZ` (0), the default.
    FastLz,
    /// `COMPRESSION_DEFLATE` (1): a zlib stream (RFC 1950).
    Deflate,
    /// `COMPRESSION_ZSTD` (2): a Zstandard frame.
    Zstd,
    /// `COMPRESSION_GZIP` (3): a gzip member (RFC 1952).
    GZip,
    /// `COMPRESSION_BROTLI` (4, Godot 4 only): read only, as in Godot, which never writes it.
    Brotli,
}

impl CompressionMode {
    /// Every mode Godot writes, in id order.
    pub const WRITABLE: [CompressionMode; 4] = [
        CompressionMode::FastLz,
        CompressionMode::Deflate,
        CompressionMode::Zstd,
        CompressionMode::GZip,
    ];

    /// The mode with Godot's id, if any.
    #[must_use]
    pub const fn from_id(id: u32) -> Option<Self> {
        Some(match id {
            0 => CompressionMode::FastLz,
            1 => CompressionMode::Deflate,
            2 => CompressionMode::Zstd,
            3 => CompressionMode::GZip,
            4 => CompressionMode::Brotli,
            _ => return None,
        })
    }

    /// Godot's id of the mode.
    #[must_use]
    pub const fn id(self) -> u32 {
        match self {
            CompressionMode::FastLz => 0,
            CompressionMode::Deflate => 1,
            CompressionMode::Zstd => 2,
            CompressionMode::GZip => 3,
            CompressionMode::Brotli => 4,
        }
    }

    /// The mode's name as the CLI spells it: `fastlz`, `deflate`, `zstd`, `gzip`, `brotli`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CompressionMode::FastLz => "fastlz",
            CompressionMode::Deflate => "deflate",
            CompressionMode::Zstd => "zstd",
            CompressionMode::GZip => "gzip",
            CompressionMode::Brotli => "brotli",
        }
    }

    /// The mode named `name` (as [`CompressionMode::name`], case-insensitive).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        [
            CompressionMode::FastLz,
            CompressionMode::Deflate,
            CompressionMode::Zstd,
            CompressionMode::GZip,
            CompressionMode::Brotli,
        ]
        .into_iter()
        .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}

impl std::fmt::Display for CompressionMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Compresses `data` as `PackedByteArray.compress(mode)` does (the bytes may differ from the
/// engine's; the engine decompresses them to the same data).
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for [`CompressionMode::Brotli`], which Godot cannot write
/// either.
pub fn compress(data: &[u8], mode: CompressionMode) -> Result<Vec<u8>> {
    use flate2::Compression;
    use std::io::Write;
    Ok(match mode {
        // Godot pads input under 16 bytes with zeros (its FastLZ needs 16), and its reader
        // expects that: do the same.
        CompressionMode::FastLz if data.len() < 16 => {
            let mut padded = [0u8; 16];
            if let Some(head) = padded.get_mut(..data.len()) {
                head.copy_from_slice(data);
            }
            fastlz::compress(&padded)
        }
        CompressionMode::FastLz => fastlz::compress(data),
        CompressionMode::Deflate => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
            e.write_all(data)?;
            e.finish()?
        }
        CompressionMode::GZip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), Compression::default());
            e.write_all(data)?;
            e.finish()?
        }
        CompressionMode::Zstd => {
            ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
        }
        CompressionMode::Brotli => {
            return Err(ErrorKind::Unsupported(
                "Brotli compression (Godot only decompresses Brotli)".into(),
            )
            .into());
        }
    })
}

/// Decompresses a whole stream as `PackedByteArray.decompress(max_size, mode)` (or
/// `decompress_dynamic(max_size, mode)`) does: at most `max_size` bytes come out, and more is
/// an error, never a larger allocation.
///
/// The work is bounded by `max_size` as well, whatever the stream's header announces: a Zstd
/// frame declaring more (its Frame_Content_Size, or Raw and RLE blocks that add up past
/// `max_size`) is refused before anything is decoded, and a Zstd or Brotli window larger than
/// `max_size` is cut to it, so that the decoder never holds more than `max_size` plus one
/// block (Zstd: 128 KiB) or 256 KiB (Brotli's smallest cut window) and its tables.
///
/// FastLZ input under 16 bytes is compressed padded to 16 (by Godot and by [`compress`]);
/// with a `max_size` under 16 the padding is cut off, as Godot's `decompress` does.
///
/// # Errors
///
/// [`ErrorKind::DecompressedTooLarge`] past `max_size`; [`ErrorKind::InvalidContainer`] for a
/// corrupt stream; an end-of-input error ([`Error::is_eof`]) for a cut one.
pub fn decompress(data: &[u8], mode: CompressionMode, max_size: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    decompress_into(data, mode, max_size, &mut out, &mut Decoders::default())?;
    Ok(out)
}

/// [`decompress`] onto the end of `out` (the blocks of a compressed file go straight into the
/// file's buffer), with `decoders` kept from one stream to the next. Appends at most
/// `max_size` bytes; `out` may hold part of the output after an error.
pub(crate) fn decompress_into(
    data: &[u8],
    mode: CompressionMode,
    max_size: usize,
    out: &mut Vec<u8>,
    decoders: &mut Decoders,
) -> Result<()> {
    match mode {
        CompressionMode::FastLz if max_size < 16 => {
            let base = out.len();
            fastlz::decompress_into(data, 16, out)?;
            out.truncate(base + max_size);
            Ok(())
        }
        CompressionMode::FastLz => fastlz::decompress_into(data, max_size, out),
        CompressionMode::Deflate => decoders.zlib_into(data, max_size, out),
        CompressionMode::GZip => decoders.gzip_into(data, max_size, out),
        CompressionMode::Zstd => {
            let declared = zstd_safe::get_frame_content_size(data).ok().flatten();
            // Refuses what the frame declares past `max_size` before anything is decoded.
            // Its window needs no cutting: decoding in one pass, libzstd keeps no window
            // beside the output buffer (nor does the engine, nor does either refuse a large
            // one there: `ZSTD_d_windowLogMax` is checked in streaming mode only).
            zstd_check(data, max_size)?;
            decoders.zstd_into(data, declared, max_size, out)
        }
        CompressionMode::Brotli => {
            // The stream with its first byte (and window size) as `brotli_window` says.
            let first = data.first().map(|&b| brotli_window(b, max_size));
            let head = first.as_slice();
            let rest = data.get(1..).unwrap_or_default();
            out.extend(read_bounded(
                brotli_decompressor::Decompressor::new(head.chain(rest), 4096),
                mode,
                max_size,
            )?);
            Ok(())
        }
    }
}

/// The first four bytes of a Zstandard frame (RFC 8878, 3.1.1: 0xFD2FB528, little-endian).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// Where a Zstandard frame's Window_Descriptor is, when it has one: right after the magic
/// and the Frame_Header_Descriptor.
const ZSTD_WINDOW_AT: usize = 5;
/// Checks a Zstandard frame against `max_size` before anything is decoded (RFC 8878,
/// 3.1.1). Its Window_Size needs no check: the frame is decoded in one pass into the output
/// buffer, which holds at most `max_size` bytes and serves as the window.
///
/// - A declared Frame_Content_Size over `max_size` is refused.
/// - The block headers are walked (3 bytes each, the blocks skipped by their sizes): Raw and
///   RLE blocks state what they decompress to, and once those sizes add up past `max_size`
///   the frame is refused: 4 bytes of RLE block make 128 KiB.
///
/// Anything that is not a well-formed frame is left to the decoder to report.
///
/// # Errors
///
/// [`ErrorKind::DecompressedTooLarge`] when the frame declares more than `max_size` bytes.
fn zstd_check(data: &[u8], max_size: usize) -> Result<()> {
    let (Some(magic), Some(&descriptor)) = (data.get(..4), data.get(4)) else {
        return Ok(());
    };
    if magic != ZSTD_MAGIC {
        return Ok(());
    }
    let single_segment = descriptor & 0x20 != 0;
    let dictionary_id_len = match descriptor & 3 {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let content_size_len = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let window_len = usize::from(!single_segment);
    let content_size_at = ZSTD_WINDOW_AT + window_len + dictionary_id_len;
    let header_end = content_size_at + content_size_len;
    let Some(field) = data.get(content_size_at..header_end) else {
        return Ok(());
    };
    let mut le = [0u8; 8];
    if let Some(low) = le.get_mut(..field.len()) {
        low.copy_from_slice(field);
    }
    // A 2-byte Frame_Content_Size counts from 256.
    let content_size = match content_size_len {
        0 => None,
        2 => Some(u64::from_le_bytes(le) + 256),
        _ => Some(u64::from_le_bytes(le)),
    };
    let max = max_size as u64;
    if let Some(len) = content_size.filter(|&len| len > max) {
        return Err(too_large(len, max_size, content_size_at));
    }
    zstd_check_blocks(data, header_end, max_size)
}

/// Adds up what the Raw and RLE blocks of the frame from `at` decompress to (RFC 8878,
/// 3.1.1.2: a 3-byte little-endian header, Last_Block in bit 0, Block_Type in bits 1-2,
/// Block_Size in bits 3-23), failing once it passes `max_size`. Stops at the last block, a
/// reserved type or the end of the data.
fn zstd_check_blocks(data: &[u8], mut at: usize, max_size: usize) -> Result<()> {
    let mut known = 0u64;
    while let Some(&[a, b, c]) = data.get(at..at + 3) {
        let header = u32::from_le_bytes([a, b, c, 0]);
        let size = (header >> 3) as usize;
        let (out, stored) = match (header >> 1) & 3 {
            0 => (size, size), // Raw
            1 => (size, 1),    // RLE: one byte, repeated
            2 => (0, size),    // Compressed: at most 128 KiB, known once decoded
            _ => return Ok(()),
        };
        known += out as u64;
        if known > max_size as u64 {
            return Err(too_large(known, max_size, at));
        }
        if header & 1 != 0 {
            return Ok(());
        }
        at += 3 + stored;
    }
    Ok(())
}

/// The first byte of a Brotli stream, with a window cut to what may come out (RFC 7932, 9.1).
///
/// The decoder's ring buffer grows to the window (up to 16 MiB, WBITS 24) as soon as a
/// meta-block header claims that much, before any of it is decoded. A backward distance
/// beyond the window or the output so far names a static-dictionary word instead, so the
/// window may shrink as long as it still holds `max_size` bytes (its size less 16): every
/// distance reaching into output of at most `max_size` bytes means the same. WBITS 18 to 24
/// are written in the first 4 bits (1, then WBITS - 17 in 3 bits); only those are changed,
/// to the smallest of them that is large enough (18, 256 KiB). The other encodings (WBITS 10
/// to 17) hold 128 KiB at most and are kept.
fn brotli_window(first: u8, max_size: usize) -> u8 {
    let code = (first >> 1) & 7;
    if first & 1 == 0 || code == 0 {
        return first;
    }
    let fits = |code: u8| (1usize << (17 + code)) - 16 >= max_size;
    match (1..code).find(|&c| fits(c)) {
        Some(smaller) => (first & 0xf0) | (smaller << 1) | 1,
        None => first,
    }
}

fn too_large(len: u64, max: usize, at: usize) -> Error {
    Error::at(ErrorKind::DecompressedTooLarge { len, max }, at)
}

/// Reads `reader` to its end, failing past `max` bytes (the output grows as it is produced).
fn read_bounded(reader: impl Read, mode: CompressionMode, max: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let limit = (max as u64).saturating_add(1);
    match reader.take(limit).read_to_end(&mut out) {
        Ok(n) if n > max => Err(ErrorKind::DecompressedTooLarge { len: n as u64, max }.into()),
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err(Error::new(ErrorKind::UnexpectedEof { needed: 1 }))
        }
        Err(e) => Err(corrupt(mode, &e.to_string())),
    }
}

fn corrupt(mode: CompressionMode, why: &str) -> Error {
    ErrorKind::InvalidContainer(format!("corrupt {mode} stream: {why}").into()).into()
}
