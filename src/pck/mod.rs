//! Godot's resource packs (PCK, feature `pck`): what `PCKPacker` and the export dialog write
//! and `ProjectSettings.load_resource_pack` reads (`core/io/file_access_pack.cpp`,
//! `core/io/pck_packer.cpp`), in the three layouts of Godot 3 and 4:
//!
//! | | v1: Godot 3 | v2: Godot 4.0–4.4 | v3: Godot 4.5+ |
//! |---|---|---|---|
//! | header | `GDPC`, 1, engine major, minor, patch, 16 reserved `u32` | `GDPC`, 2, major, minor, patch, flags, file base `u64`, 16 reserved | `GDPC`, 3, major, minor, patch, flags, file base `u64`, directory offset `u64`, 16 reserved, padding to the alignment |
//! | directory | after the header | after the header | after the files, at its offset |
//! | entry | path length `u32`, path, offset `u64` (in the file), size `u64`, MD5 | the same with the path zero-padded to 4, the offset from the file base, and flags `u32` | as v2 |
//! | encryption | none | files and the directory (flags), AES-256-CFB | as v2 |
//!
//! Integers are little-endian. The count of entries stays plain when the directory is
//! encrypted; what follows it, and each encrypted file, is the Godot 4 layout of
//! [`container`](crate::container)'s encrypted files without its `GDEC` magic: MD5 of the
//! plaintext, its length, a random IV, then the ciphertext, the plaintext zero-padded to 16.
//! Pack flags: [`PACK_DIR_ENCRYPTED`], [`PACK_REL_FILEBASE`] (the file base counts from the
//! pack's start, always so in v3), [`PACK_SPARSE_BUNDLE`]; file flags: [`FILE_ENCRYPTED`],
//! [`FILE_REMOVAL`] (4.4+: loading the pack removes the path), [`FILE_DELTA`].
//!
//! A pack is found as the engine finds it: at the start of the file, or at the end of an
//! executable (a self-contained export), where the last 12 bytes are the pack's size
//! (`u64`) and `GDPC`.
//!
//! ```
//! use godot_serde::pck::{EngineVersion, PackFormat, PackOptions, PackReader, PackWriter};
//! use std::io::{Cursor, Read};
//!
//! // What PCKPacker of Godot 4.6 writes: pck_start(path, 32), add_file, flush.
//! let options = PackOptions::new(PackFormat::V3, EngineVersion::new(4, 6, 0));
//! let mut writer = PackWriter::new(Vec::new(), options);
//! writer.add_file("res://hello.txt", b"hello".to_vec())?;
//! writer.add_file("res://data/level.json", b"{}".to_vec())?;
//! let bytes = writer.finish()?;
//!
//! let mut pack = PackReader::new(Cursor::new(bytes))?;
//! assert_eq!(pack.header().format, PackFormat::V3);
//! let names: Vec<&str> = pack.entries().iter().map(|e| e.name()).collect();
//! assert_eq!(names, ["hello.txt", "data/level.json"]);
//! // One file, streamed, its MD5 checked when its last byte is read.
//! let mut text = String::new();
//! pack.open_file("res://hello.txt")?.read_to_string(&mut text)?;
//! assert_eq!(text, "hello");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Hostile packs: every count, length, offset and size read from a pack is checked against
//! the bytes the stream holds before it is used, and against [`Limits`] (1 048 576 entries,
//! paths of 4 096 bytes, an encrypted directory of 64 MiB by default); the directory grows as
//! entries are read, never by its announced count. Each error names the byte offset where
//! the pack went wrong. A file's bytes are streamed ([`PackReader::open_file`]): nothing of
//! the other files is read, and its MD5 is checked when its last byte comes out; a mismatch
//! is the error of that last read, never a silent short or wrong file.

mod read;
mod write;

pub use read::{EntryReader, PackReader, ReadOptions};
pub use write::{Change, PackOptions, PackWriter, embed, patch};

use crate::error::{Error, ErrorKind};

/// The first four bytes of a pack (and the last four of an executable with a pack inside).
pub const PACK_MAGIC: &[u8; 4] = b"GDPC";

/// Pack flag: the directory after the count is encrypted.
pub const PACK_DIR_ENCRYPTED: u32 = 1 << 0;
/// Pack flag: the file base counts from the pack's start, not the file's (always so in v3).
pub const PACK_REL_FILEBASE: u32 = 1 << 1;
/// Pack flag: a sparse bundle, whose files lie beside the pack rather than in it.
pub const PACK_SPARSE_BUNDLE: u32 = 1 << 2;
/// File flag: the file is encrypted.
pub const FILE_ENCRYPTED: u32 = 1 << 0;
/// File flag (Godot 4.4+): loading the pack removes this path from the resources.
pub const FILE_REMOVAL: u32 = 1 << 1;
/// File flag: the file is a delta patch of the same path in an earlier pack.
pub const FILE_DELTA: u32 = 1 << 2;

/// Which layout a pack has (its format version field). Never guessed when writing: chosen
/// with [`PackOptions::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PackFormat {
    /// Format 1: Godot 3.x.
    V1,
    /// Format 2: Godot 4.0 to 4.4 (file flags; the removal flag from 4.4).
    V2,
    /// Format 3: Godot 4.5 and later (the directory after the files).
    V3,
}

impl PackFormat {
    /// The format version field.
    #[must_use]
    pub const fn number(self) -> u32 {
        match self {
            PackFormat::V1 => 1,
            PackFormat::V2 => 2,
            PackFormat::V3 => 3,
        }
    }

    /// The layout of a format version field, if it is one of the three.
    #[must_use]
    pub const fn from_number(number: u32) -> Option<Self> {
        match number {
            1 => Some(PackFormat::V1),
            2 => Some(PackFormat::V2),
            3 => Some(PackFormat::V3),
            _ => None,
        }
    }

    /// The header's size before any padding: 84, 96 or 104 bytes.
    pub(crate) const fn header_len(self) -> u64 {
        match self {
            PackFormat::V1 => 20 + 64,
            PackFormat::V2 => 20 + 4 + 8 + 64,
            PackFormat::V3 => 20 + 4 + 8 + 8 + 64,
        }
    }

    /// The fewest bytes an entry takes (an empty path).
    pub(crate) const fn min_entry_len(self) -> u64 {
        match self {
            PackFormat::V1 => 4 + 8 + 8 + 16,
            PackFormat::V2 | PackFormat::V3 => 4 + 8 + 8 + 16 + 4,
        }
    }
}

impl std::fmt::Display for PackFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let engines = match self {
            PackFormat::V1 => "Godot 3",
            PackFormat::V2 => "Godot 4.0-4.4",
            PackFormat::V3 => "Godot 4.5+",
        };
        write!(f, "v{} ({engines})", self.number())
    }
}

/// The engine version a pack records; an engine refuses a pack of a newer minor version than
/// its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineVersion {
    /// Major version (3 or 4).
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// Patch version.
    pub patch: u32,
}

impl EngineVersion {
    /// `major.minor.patch`.
    #[must_use]
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        EngineVersion {
            major,
            minor,
            patch,
        }
    }
}

impl std::fmt::Display for EngineVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// A pack's header, with where it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    /// The layout.
    pub format: PackFormat,
    /// The engine version that wrote it.
    pub version: EngineVersion,
    /// The pack flags (0 in v1).
    pub flags: u32,
    /// Where the pack starts in the stream (0, or inside an executable).
    pub start: u64,
    /// Whether it was found through the trailer at the end of an executable.
    pub embedded: bool,
    /// Where the directory's count is, in the stream.
    pub directory: u64,
    /// The number of entries.
    pub file_count: u32,
}

impl Header {
    /// Whether the directory is encrypted.
    #[must_use]
    pub const fn directory_encrypted(&self) -> bool {
        self.flags & PACK_DIR_ENCRYPTED != 0
    }
}

/// One entry of a pack's directory.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry {
    /// The path as stored (Godot 3 and 4.0–4.3 keep `res://`, 4.4+ leave it out).
    pub path: String,
    /// Where its stored bytes start in the stream.
    pub offset: u64,
    /// The file's size (of its plaintext, when encrypted).
    pub size: u64,
    /// The MD5 of its plaintext (all zero when the writer left it out, as Godot 3's
    /// `PCKPacker` does, and for removals).
    pub md5: [u8; 16],
    /// Its flags (0 in v1).
    pub flags: u32,
}

impl Entry {
    /// The path without `res://`: what the engine looks it up by.
    #[must_use]
    pub fn name(&self) -> &str {
        self.path.strip_prefix("res://").unwrap_or(&self.path)
    }

    /// Whether the file is encrypted.
    #[must_use]
    pub const fn is_encrypted(&self) -> bool {
        self.flags & FILE_ENCRYPTED != 0
    }

    /// Whether the entry removes its path instead of holding a file (Godot 4.4+).
    #[must_use]
    pub const fn is_removal(&self) -> bool {
        self.flags & FILE_REMOVAL != 0
    }

    /// Whether the file is a delta patch.
    #[must_use]
    pub const fn is_delta(&self) -> bool {
        self.flags & FILE_DELTA != 0
    }

    /// Whether the directory records an MD5 (not all zeros).
    #[must_use]
    pub fn has_md5(&self) -> bool {
        self.md5 != [0; 16]
    }

    /// The bytes it takes in the pack: its size, or for an encrypted file the 40 bytes of
    /// the encryption header and the ciphertext (the size rounded up to 16); 0 for a removal.
    #[must_use]
    pub fn stored_size(&self) -> u64 {
        stored_size(self.size, self.is_encrypted(), self.is_removal()).unwrap_or(u64::MAX)
    }
}

/// The bytes a file of `size` takes in a pack.
pub(crate) fn stored_size(size: u64, encrypted: bool, removal: bool) -> Option<u64> {
    if removal {
        Some(0)
    } else if encrypted {
        size.checked_add(15)
            .map(|n| n & !15)?
            .checked_add(ENCRYPTION_HEADER)
    } else {
        Some(size)
    }
}

/// MD5, length and IV before each encrypted file and the encrypted directory.
pub(crate) const ENCRYPTION_HEADER: u64 = 40;

/// Limits applied while reading a pack's directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    pub(crate) max_entries: usize,
    pub(crate) max_path_len: usize,
    pub(crate) max_directory_size: usize,
}

impl Limits {
    /// The default limit on entries: 1 048 576.
    pub const DEFAULT_MAX_ENTRIES: usize = 1 << 20;
    /// The default limit on a path's length in bytes: 4 096.
    pub const DEFAULT_MAX_PATH_LEN: usize = 4096;
    /// The default limit on an encrypted directory (which is decrypted whole, as the engine
    /// does): 64 MiB.
    pub const DEFAULT_MAX_DIRECTORY_SIZE: usize = 64 << 20;

    /// The default limits.
    #[must_use]
    pub const fn new() -> Self {
        Limits {
            max_entries: Self::DEFAULT_MAX_ENTRIES,
            max_path_len: Self::DEFAULT_MAX_PATH_LEN,
            max_directory_size: Self::DEFAULT_MAX_DIRECTORY_SIZE,
        }
    }

    /// The most entries a directory may count.
    #[must_use]
    pub const fn with_max_entries(mut self, max: usize) -> Self {
        self.max_entries = max;
        self
    }

    /// The longest path, in bytes (with its padding).
    #[must_use]
    pub const fn with_max_path_len(mut self, max: usize) -> Self {
        self.max_path_len = max;
        self
    }

    /// The largest encrypted directory, in bytes of ciphertext.
    #[must_use]
    pub const fn with_max_directory_size(mut self, max: usize) -> Self {
        self.max_directory_size = max;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}

/// A pack's path in the engine's form (`simplify_path().trim_prefix("res://")`): no
/// `res://`, no empty or `.` segment. `..` and NUL are refused, so that no name read from
/// or written to a pack leaves the directory it is extracted to.
///
/// # Errors
///
/// [`ErrorKind::InvalidContainer`] for an empty path, a `..` segment or a NUL.
pub fn normalize_path(path: &str) -> crate::Result<String> {
    let rest = path.strip_prefix("res://").unwrap_or(path);
    let mut out = String::with_capacity(rest.len());
    for segment in rest.split(['/', '\\']) {
        match segment {
            "" | "." => {}
            ".." => return Err(bad_path(path, "a `..` segment")),
            s if s.contains('\0') => return Err(bad_path(path, "a NUL")),
            s if s.len() == 2 && s.ends_with(':') => {
                return Err(bad_path(path, "a drive letter"));
            }
            s => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(s);
            }
        }
    }
    if out.is_empty() {
        return Err(bad_path(path, "no file name"));
    }
    Ok(out)
}

fn bad_path(path: &str, what: &str) -> Error {
    Error::new(ErrorKind::InvalidContainer(
        format!("pack path {path:?} has {what}").into(),
    ))
}

/// `n` rounded up to a multiple of `alignment` (0 and 1: unchanged).
pub(crate) fn align(n: u64, alignment: u32) -> Option<u64> {
    let a = u64::from(alignment);
    if a <= 1 {
        return Some(n);
    }
    match n % a {
        0 => Some(n),
        rest => n.checked_add(a - rest),
    }
}

/// An offset as the `usize` of [`Error::at`] (saturating on 32-bit targets).
pub(crate) fn at(offset: u64) -> usize {
    usize::try_from(offset).unwrap_or(usize::MAX)
}
