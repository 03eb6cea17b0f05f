//! The `GCPF` files of `FileAccess.open_compressed` (Godot 4) and `File.open_compressed`
//! (Godot 3), the same layout in both (`core/io/file_access_compressed.cpp`):
//!
//! ```text
//! "GCPF"  mode u32  block_size u32 (4096)  total u32 (uncompressed size)
//! block count = total / block_size + 1 compressed sizes, u32 each
//! the compressed blocks, one after another
//! "GCPF"  (again, at the end; Godot does not check it when reading)
//! ```
//!
//! Every block but the last holds `block_size` bytes uncompressed; the last holds
//! `total % block_size` (an empty block when `total` is a multiple of the block size), or
//! `total` when there is one block.

use super::decoders::Decoders;
use super::{CompressionMode, Limits, codec, read_u32};
use crate::error::{Error, ErrorKind, Result};

/// The first (and last) four bytes of a compressed file.
pub const COMPRESSED_MAGIC: &[u8; 4] = b"GCPF";

/// The block size both engines write (`FileAccessCompressed`'s default, 4096 bytes).
pub const DEFAULT_BLOCK_SIZE: u32 = 4096;

const HEADER: usize = 16;

/// The header of a compressed file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompressedHeader {
    /// How each block is compressed.
    pub mode: CompressionMode,
    /// Uncompressed bytes per block.
    pub block_size: u32,
    /// Uncompressed size of the whole file.
    pub total: u32,
}

impl CompressedHeader {
    /// Reads the 16-byte header.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] for a wrong magic, an unknown mode or a block size of
    /// 0 (which Godot refuses too); an end-of-input error for fewer than 16 bytes.
    pub fn parse(file: &[u8]) -> Result<Self> {
        Self::parse_with_magic(file, COMPRESSED_MAGIC)
    }

    /// [`parse`](Self::parse) for a file whose first four bytes are `magic` (binary resources
    /// save with `RSCC`, the rest of the layout the same).
    fn parse_with_magic(file: &[u8], magic: &[u8; 4]) -> Result<Self> {
        let header = file.get(..HEADER).ok_or_else(|| {
            Error::at(
                ErrorKind::UnexpectedEof {
                    needed: HEADER - file.len(),
                },
                file.len(),
            )
        })?;
        if header.get(..4) != Some(magic) {
            return Err(invalid(
                format!(
                    "not a compressed Godot file: magic {:02x?}, expected {:?}",
                    header.get(..4).unwrap_or_default(),
                    String::from_utf8_lossy(magic)
                ),
                0,
            ));
        }
        let id = read_u32(header, 4).unwrap_or(u32::MAX);
        let mode = CompressionMode::from_id(id)
            .ok_or_else(|| invalid(format!("unknown compression mode {id}"), 4))?;
        let block_size = read_u32(header, 8).unwrap_or(0);
        if block_size == 0 {
            return Err(invalid("block size 0".to_owned(), 8));
        }
        Ok(CompressedHeader {
            mode,
            block_size,
            total: read_u32(header, 12).unwrap_or(0),
        })
    }

    /// How many blocks the table lists (`total / block_size + 1`).
    #[must_use]
    pub fn block_count(&self) -> u32 {
        self.total / self.block_size + 1
    }

    /// Uncompressed size of block `i`.
    fn block_len(&self, i: u32) -> usize {
        let count = self.block_count();
        let len = if count == 1 {
            self.total
        } else if i + 1 == count {
            self.total % self.block_size
        } else {
            self.block_size
        };
        len as usize
    }
}

fn invalid(message: String, offset: usize) -> Error {
    Error::at(ErrorKind::InvalidContainer(message.into()), offset)
}

/// Reads a compressed file of either engine, with its total size bounded by `limits`.
///
/// Nothing is allocated from the header's claims alone: the block table must be in the file
/// before it is read, each block must be in the file before it is decompressed, and the output
/// grows only as blocks decompress (to at most [`Limits::max_size`]).
///
/// # Errors
///
/// As [`CompressedHeader::parse`]; [`ErrorKind::DecompressedTooLarge`] when the header's
/// total exceeds the limit; an end-of-input error ([`Error::is_eof`]) when the block table or
/// a block is cut; [`ErrorKind::InvalidContainer`] for a block that does not decompress to
/// its size.
pub fn read_compressed(file: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    read_compressed_with_magic(file, COMPRESSED_MAGIC, limits)
}

/// [`read_compressed`] for a file whose first four bytes are `magic` (`RSCC` for a binary
/// resource saved with `ResourceSaver.FLAG_COMPRESS`).
pub(crate) fn read_compressed_with_magic(
    file: &[u8],
    magic: &[u8; 4],
    limits: &Limits,
) -> Result<Vec<u8>> {
    let header = CompressedHeader::parse_with_magic(file, magic)?;
    if header.total as usize > limits.max_size {
        return Err(Error::at(
            ErrorKind::DecompressedTooLarge {
                len: u64::from(header.total),
                max: limits.max_size,
            },
            12,
        ));
    }
    let count = header.block_count() as usize;
    let table = count
        .checked_mul(4)
        .and_then(|n| file.get(HEADER..HEADER + n))
        .ok_or_else(|| {
            Error::at(
                ErrorKind::LengthTooLarge {
                    what: "block count",
                    len: count as u64,
                    remaining: file.len() - HEADER,
                },
                12,
            )
        })?;
    let mut out = Vec::with_capacity((header.total as usize).min(file.len().saturating_mul(8)));
    let mut at = HEADER + table.len();
    let mut decoders = Decoders::default();
    for (i, size) in table.chunks_exact(4).enumerate() {
        let entry = HEADER + 4 * i;
        let csize = read_u32(size, 0).unwrap_or(0) as usize;
        let block = at
            .checked_add(csize)
            .and_then(|end| file.get(at..end))
            .ok_or_else(|| {
                Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "compressed block size",
                        len: csize as u64,
                        remaining: file.len().saturating_sub(at),
                    },
                    entry,
                )
            })?;
        let expected = header.block_len(i as u32);
        // An offset in the block becomes one in the file.
        decompress_block(block, header.mode, expected, &mut out, &mut decoders).map_err(
            |e| match e.offset() {
                Some(offset) => Error::at(e.into_kind(), at + offset),
                None => e.or_at(at),
            },
        )?;
        at += csize;
    }
    Ok(out)
}

/// One block onto the end of `out`, which must give exactly `expected` bytes (FastLZ blocks
/// under 16 bytes come back cut from their padding, see [`codec::decompress`]).
fn decompress_block(
    block: &[u8],
    mode: CompressionMode,
    expected: usize,
    out: &mut Vec<u8>,
    decoders: &mut Decoders,
) -> Result<()> {
    let base = out.len();
    codec::decompress_into(block, mode, expected, out, decoders)?;
    let got = out.len() - base;
    if got != expected {
        return Err(ErrorKind::InvalidContainer(
            format!("{mode} block decompressed to {got} bytes, expected {expected}").into(),
        )
        .into());
    }
    Ok(())
}

/// Writes `data` as a compressed file with `block_size`-byte blocks (Godot writes
/// [`DEFAULT_BLOCK_SIZE`]), as `FileAccess.open_compressed(path, WRITE, mode)` does.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for Brotli, a block size of 0, or data of 4 GiB or more (the
/// total is a `u32`).
pub fn write_compressed(data: &[u8], mode: CompressionMode, block_size: u32) -> Result<Vec<u8>> {
    write_compressed_with_magic(data, COMPRESSED_MAGIC, mode, block_size)
}

/// [`write_compressed`] with `magic` in place of `GCPF`, at the start and at the end (binary
/// resources: `RSCC`).
pub(crate) fn write_compressed_with_magic(
    data: &[u8],
    magic: &[u8; 4],
    mode: CompressionMode,
    block_size: u32,
) -> Result<Vec<u8>> {
    let total = u32::try_from(data.len()).map_err(|_| {
        Error::new(ErrorKind::Unsupported(
            "a compressed file holds less than 4 GiB".into(),
        ))
    })?;
    if block_size == 0 {
        return Err(ErrorKind::Unsupported("block size 0".into()).into());
    }
    let header = CompressedHeader {
        mode,
        block_size,
        total,
    };
    let count = header.block_count() as usize;
    let mut out = Vec::with_capacity(HEADER + 4 * count + data.len() / 2 + 4);
    out.extend_from_slice(magic);
    out.extend_from_slice(&mode.id().to_le_bytes());
    out.extend_from_slice(&block_size.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.resize(HEADER + 4 * count, 0);
    let mut rest = data;
    for i in 0..count {
        let (chunk, tail) = rest.split_at(header.block_len(i as u32).min(rest.len()));
        rest = tail;
        let block = codec::compress(chunk, mode)?;
        let size = u32::try_from(block.len())
            .map_err(|_| Error::new(ErrorKind::Unsupported("block over 4 GiB".into())))?;
        if let Some(slot) = out.get_mut(HEADER + 4 * i..HEADER + 4 * i + 4) {
            slot.copy_from_slice(&size.to_le_bytes());
        }
        out.extend_from_slice(&block);
    }
    out.extend_from_slice(magic);
    Ok(out)
}
