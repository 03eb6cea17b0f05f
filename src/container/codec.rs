//! The compression modes of `PackedByteArray.compress/decompress` (`PoolByteArray` in Godot 3)
//! and of each block of a compressed file (`core/io/compression.cpp`): raw streams, no header
//! of Godot's own.

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
/// FastLZ input under 16 bytes is compressed padded to 16 (by Godot and by [`compress`]);
/// with a `max_size` under 16 the padding is cut off, as Godot's `decompress` does.
///
/// # Errors
///
/// [`ErrorKind::DecompressedTooLarge`] past `max_size`; [`ErrorKind::InvalidContainer`] for a
/// corrupt stream; an end-of-input error ([`Error::is_eof`]) for a cut one.
pub fn decompress(data: &[u8], mode: CompressionMode, max_size: usize) -> Result<Vec<u8>> {
    match mode {
        CompressionMode::FastLz if max_size < 16 => {
            let mut out = fastlz::decompress(data, 16)?;
            out.truncate(max_size);
            Ok(out)
        }
        CompressionMode::FastLz => fastlz::decompress(data, max_size),
        CompressionMode::Deflate => {
            read_bounded(flate2::read::ZlibDecoder::new(data), mode, max_size)
        }
        CompressionMode::GZip => read_bounded(flate2::read::GzDecoder::new(data), mode, max_size),
        CompressionMode::Zstd => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(data)
                .map_err(|e| corrupt(mode, &e.to_string()))?;
            read_bounded(decoder, mode, max_size)
        }
        CompressionMode::Brotli => read_bounded(
            brotli_decompressor::Decompressor::new(data, 4096),
            mode,
            max_size,
        ),
    }
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
