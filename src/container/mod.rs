//! Encrypted and compressed Godot files: what `FileAccess.open_encrypted_with_pass`,
//! `open_encrypted`, `open_compressed`, `ConfigFile.save_encrypted_pass` and
//! `PackedByteArray.compress` write, in Godot 3 and Godot 4 (features `crypto` and
//! `compression`).
//!
//! A container holds the bytes a plain file would: [`open`] takes them out (the container is
//! told by its magic) and [`seal`] puts them back the same way, so a `store_var` save goes
//! through [`SaveReader`](crate::save::SaveReader) / [`SaveWriter`](crate::save::SaveWriter)
//! and a ConfigFile through [`config_file`](crate::config_file) unchanged:
//!
//! ```
//! # #[cfg(feature = "crypto")] {
//! use godot_serde::{Config, Variant, container::{self, Key, Layout, Wrapping}, save::{SaveReader, SaveWriter}};
//!
//! // What `FileAccess.open_encrypted_with_pass(path, WRITE, "secret")` + `store_var` writes.
//! let mut plain = Vec::new();
//! let mut writer = SaveWriter::new(&mut plain, Config::godot4());
//! writer.write(&42)?;
//! writer.write("hero")?;
//! let key = Key::from_password("secret");
//! let file = container::seal(&plain, &Wrapping::Encrypted(Layout::Godot4), Some(&key))?;
//!
//! // Reading it back, the container detected from its magic.
//! let opened = container::open(&file, Some(&key), &container::Limits::new())?;
//! assert_eq!(opened.wrapping, Wrapping::Encrypted(Layout::Godot4));
//! let values = SaveReader::new(&opened.data[..], Config::godot4()).read_all()?;
//! assert_eq!(values, [Variant::Int(42), Variant::from("hero")]);
//!
//! // A wrong password is an error of its own, never garbage.
//! let err = container::open(&file, Some(&Key::from_password("nope")), &container::Limits::new())
//!     .unwrap_err();
//! assert!(matches!(err.kind(), godot_serde::ErrorKind::WrongKey));
//! # }
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! Hostile input: no length, count or size read from a file sizes an allocation by itself.
//! An encrypted file's ciphertext must be in the file before it is copied; a compressed
//! file's total is checked against [`Limits::max_size`] (256 MiB by default), its block table
//! and each block must be in the file before they are read, and decompressed output grows
//! only as it is produced. A cut file is an end-of-input error ([`Error::is_eof`]).
//!
//! What a stream's header announces does not size the work either: [`decompress`] refuses a
//! Zstd frame whose Frame_Content_Size, or whose Raw and RLE blocks, exceed `max_size` before
//! decoding, and cuts a Brotli window larger than `max_size` to it (the bytes that come out
//! are the same). Zstd is decoded in one pass into the output buffer, which is its window, so
//! no window (up to 100 MiB) is ever held beside it. Beside its output a decoder holds at
//! most 256 KiB (Brotli's smallest cut window), 94 KiB of libzstd state (on the C heap), or
//! 11 KiB of Deflate state, whatever the stream asks for.
//!
//! Speed: the blocks of a compressed file (4 KiB each) are decoded straight into the file's
//! buffer, with one decoder state per file; Zstd by libzstd, the engine's own library. On a
//! 4.86 MB save every mode reads faster than Godot 4.6 reads it (`benches/containers.rs`,
//! BENCHMARKS.md).

#[cfg(feature = "compression")]
mod codec;
#[cfg(feature = "compression")]
mod compressed;
#[cfg(feature = "compression")]
mod decoders;
#[cfg(feature = "crypto")]
mod encrypted;
#[cfg(feature = "compression")]
mod fastlz;
mod key;

#[cfg(feature = "compression")]
pub use codec::{CompressionMode, compress, decompress};
#[cfg(feature = "compression")]
pub use compressed::{
    COMPRESSED_MAGIC, CompressedHeader, DEFAULT_BLOCK_SIZE, read_compressed, write_compressed,
};
#[cfg(feature = "crypto")]
pub use encrypted::{
    ENCRYPTED_MAGIC, EncryptedHeader, decrypt, decrypt_with_header, encrypt, encrypt_godot3,
    encrypt_godot4_with_iv,
};

#[cfg(all(feature = "compression", feature = "resource"))]
pub(crate) use compressed::{read_compressed_with_magic, write_compressed_with_magic};
pub use key::Key;

// The encrypted parts of resource packs (the `pck` module).
#[cfg(all(feature = "crypto", feature = "pck"))]
pub(crate) use encrypted::{Godot4Fields, StreamCipher, random_iv};

use crate::GodotVersion;
use crate::error::{Error, ErrorKind, Result};

/// Which engine's encrypted layout (the compressed layout is the same in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Godot 3: a mode field, AES-256 on each block (ECB).
    Godot3,
    /// Godot 4: a random IV, AES-256-CFB.
    Godot4,
}

impl From<GodotVersion> for Layout {
    fn from(version: GodotVersion) -> Self {
        if version.is_godot4() {
            Layout::Godot4
        } else {
            Layout::Godot3
        }
    }
}

/// Limits applied while reading containers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    pub(crate) max_size: usize,
}

impl Limits {
    /// The default limit on decompressed data: 256 MiB.
    pub const DEFAULT_MAX_SIZE: usize = 256 << 20;

    /// The default limits.
    #[must_use]
    pub const fn new() -> Self {
        Limits {
            max_size: Self::DEFAULT_MAX_SIZE,
        }
    }

    /// The most bytes a compressed file may decompress to (its header's total is checked
    /// before anything is decompressed).
    #[must_use]
    pub const fn with_max_size(mut self, max_size: usize) -> Self {
        self.max_size = max_size;
        self
    }

    /// The most bytes a compressed file may decompress to.
    #[must_use]
    pub const fn max_size(&self) -> usize {
        self.max_size
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}

/// How a file's bytes are wrapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Wrapping {
    /// No container: the bytes as they are.
    Plain,
    /// `GDEC`, in one engine's layout.
    #[cfg(feature = "crypto")]
    Encrypted(Layout),
    /// `GCPF` with this mode and block size.
    #[cfg(feature = "compression")]
    Compressed {
        /// The compression of each block.
        mode: CompressionMode,
        /// Uncompressed bytes per block.
        block_size: u32,
    },
}

impl std::fmt::Display for Wrapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Wrapping::Plain => f.write_str("plain"),
            #[cfg(feature = "crypto")]
            Wrapping::Encrypted(Layout::Godot3) => {
                f.write_str("encrypted (GDEC, Godot 3 layout: AES-256-ECB)")
            }
            #[cfg(feature = "crypto")]
            Wrapping::Encrypted(Layout::Godot4) => {
                f.write_str("encrypted (GDEC, Godot 4 layout: AES-256-CFB)")
            }
            #[cfg(feature = "compression")]
            Wrapping::Compressed { mode, block_size } => {
                write!(f, "compressed (GCPF, {mode}, {block_size}-byte blocks)")
            }
        }
    }
}

/// What a file starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Magic {
    /// `GDEC`: an encrypted file.
    Encrypted,
    /// `GCPF`: a compressed file.
    Compressed,
    /// Anything else.
    None,
}

/// Tells a container by its first four bytes (without the features that read it too).
#[must_use]
pub fn detect(file: &[u8]) -> Magic {
    match file.get(..4) {
        Some(b"GDEC") => Magic::Encrypted,
        Some(b"GCPF") => Magic::Compressed,
        _ => Magic::None,
    }
}

/// The bytes inside a container, and how they were wrapped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Opened {
    /// The plain bytes.
    pub data: Vec<u8>,
    /// The container they came from ([`Wrapping::Plain`] when there was none).
    pub wrapping: Wrapping,
}

/// Takes the bytes out of an encrypted or compressed file, told by its magic; any other file
/// comes back as it is ([`Wrapping::Plain`]).
///
/// # Errors
///
/// An encrypted file without `key`, or a container whose feature is off:
/// [`ErrorKind::Unsupported`]. Otherwise as `decrypt` (feature `crypto`) or `read_compressed`
/// (feature `compression`).
pub fn open(file: &[u8], key: Option<&Key>, limits: &Limits) -> Result<Opened> {
    let _ = (key, limits);
    match detect(file) {
        Magic::Encrypted => {
            #[cfg(feature = "crypto")]
            {
                let key = key.ok_or_else(|| {
                    Error::new(ErrorKind::Unsupported(
                        "an encrypted file (GDEC) needs a password or key".into(),
                    ))
                })?;
                let header = EncryptedHeader::parse(file)?;
                let data = decrypt_with_header(file, &header, key)?;
                Ok(Opened {
                    data,
                    wrapping: Wrapping::Encrypted(header.layout),
                })
            }
            #[cfg(not(feature = "crypto"))]
            Err(feature_off("an encrypted file (GDEC)", "crypto"))
        }
        Magic::Compressed => {
            #[cfg(feature = "compression")]
            {
                let header = CompressedHeader::parse(file)?;
                let data = read_compressed(file, limits)?;
                Ok(Opened {
                    data,
                    wrapping: Wrapping::Compressed {
                        mode: header.mode,
                        block_size: header.block_size,
                    },
                })
            }
            #[cfg(not(feature = "compression"))]
            Err(feature_off("a compressed file (GCPF)", "compression"))
        }
        Magic::None => Ok(Opened {
            data: file.to_vec(),
            wrapping: Wrapping::Plain,
        }),
    }
}

/// Wraps `data` as `wrapping` says (the inverse of [`open`]).
///
/// # Errors
///
/// An encrypted wrapping without `key`: [`ErrorKind::Unsupported`]; otherwise as
/// `encrypt` (feature `crypto`) or `write_compressed` (feature `compression`).
pub fn seal(data: &[u8], wrapping: &Wrapping, key: Option<&Key>) -> Result<Vec<u8>> {
    let _ = key;
    match *wrapping {
        Wrapping::Plain => Ok(data.to_vec()),
        #[cfg(feature = "crypto")]
        Wrapping::Encrypted(layout) => {
            let key = key.ok_or_else(|| {
                Error::new(ErrorKind::Unsupported(
                    "encrypting needs a password or key".into(),
                ))
            })?;
            encrypt(data, key, layout)
        }
        #[cfg(feature = "compression")]
        Wrapping::Compressed { mode, block_size } => write_compressed(data, mode, block_size),
    }
}

#[cfg(not(all(feature = "crypto", feature = "compression")))]
fn feature_off(what: &str, feature: &str) -> Error {
    Error::new(ErrorKind::Unsupported(
        format!("{what} needs the `{feature}` feature of godot-serde").into(),
    ))
}

/// The little-endian `u32` at `at`, if the bytes are there.
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at.checked_add(4)?)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
}

/// Reads a ConfigFile saved by `ConfigFile.save_encrypted_pass` / `save_encrypted` (or a
/// plain or compressed one) into a [`Document`](crate::config_file::Document), as
/// `load_encrypted_pass` does, within the default
/// [`config_file::Limits`](crate::config_file::Limits) (16 MiB of text, 65 536 sections,
/// 1 048 576 keys).
///
/// # Errors
///
/// As [`load_config_file_with_limits`].
pub fn load_config_file(
    file: &[u8],
    key: Option<&Key>,
    config: crate::Config,
) -> Result<crate::config_file::Document> {
    load_config_file_with_limits(file, key, config, &crate::config_file::Limits::new())
}

/// [`load_config_file`] within `limits`: a compressed file is refused before it decompresses
/// past [`max_text_size`](crate::config_file::Limits::max_text_size), a plain one before it
/// is copied, and the text is not copied again to be held.
///
/// # Errors
///
/// As [`open`] ([`ErrorKind::DecompressedTooLarge`] past the text size);
/// [`ErrorKind::InvalidUtf8`] when the text is not UTF-8; as
/// [`Document::parse_with_limits`](crate::config_file::Document::parse_with_limits)
/// ([`ErrorKind::LimitExceeded`] past a limit).
pub fn load_config_file_with_limits(
    file: &[u8],
    key: Option<&Key>,
    config: crate::Config,
    limits: &crate::config_file::Limits,
) -> Result<crate::config_file::Document> {
    let max = limits.max_text_size();
    if detect(file) == Magic::None && file.len() > max {
        return Err(Error::at(
            ErrorKind::LimitExceeded {
                what: "the ConfigFile text's size in bytes (config_file::Limits::with_max_text_size)",
                max,
            },
            max,
        ));
    }
    let opened = open(file, key, &Limits::new().with_max_size(max))?;
    let text = String::from_utf8(opened.data).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8 {
                what: "ConfigFile text",
            },
            e.utf8_error().valid_up_to(),
        )
    })?;
    crate::config_file::Document::parse_owned(text, config, limits)
}

/// Writes a ConfigFile as `ConfigFile.save_encrypted_pass` (or `save_encrypted` with a raw
/// key) does: its text, wrapped.
///
/// # Errors
///
/// As [`seal`].
pub fn save_config_file(
    document: &crate::config_file::Document,
    wrapping: &Wrapping,
    key: Option<&Key>,
) -> Result<Vec<u8>> {
    seal(document.to_string().as_bytes(), wrapping, key)
}
