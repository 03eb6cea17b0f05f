//! Reading a pack: its header (at the start, or through an executable's trailer), its
//! directory (plain or encrypted) and one file at a time, streamed.

use super::{
    EngineVersion, Entry, FILE_REMOVAL, Header, Limits, PACK_MAGIC, PACK_REL_FILEBASE,
    PACK_SPARSE_BUNDLE, PackFormat, at, normalize_path,
};
use crate::error::{Error, ErrorKind, Result};
use md5::{Digest, Md5};
use std::collections::HashMap;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

#[cfg(feature = "crypto")]
use crate::container::{Godot4Fields, Key, StreamCipher};

/// How to read a pack: the key of its encrypted parts, and the [`Limits`].
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Limits on the directory.
    pub limits: Limits,
    /// Whether to skip the MD5 check of plain files (`false` by default).
    pub skip_md5: bool,
    /// The 32-byte key (the engine's `script_encryption_key`).
    #[cfg(feature = "crypto")]
    pub key: Option<Key>,
}

impl ReadOptions {
    /// No key, the default limits.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// With the key of an encrypted directory and encrypted files.
    #[cfg(feature = "crypto")]
    #[must_use]
    pub fn with_key(mut self, key: Key) -> Self {
        self.key = Some(key);
        self
    }

    /// Skips the MD5 check of plain files, as the engine does when it reads a packed file
    /// (extracting then runs at the speed of the copy: 7x faster in `benches/pck.rs`).
    /// Encrypted files are still checked against their encryption header's MD5, the one sign
    /// of a wrong key.
    #[must_use]
    pub fn without_md5_check(mut self) -> Self {
        self.skip_md5 = true;
        self
    }

    /// With these limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// A pack opened for reading: its header and directory are read, the files stay in the
/// stream until one is opened.
pub struct PackReader<R> {
    inner: R,
    header: Header,
    entries: Vec<Entry>,
    /// Each path's last entry (the one the engine uses), by its normalised name.
    index: HashMap<String, usize>,
    #[cfg(feature = "crypto")]
    key: Option<Key>,
    skip_md5: bool,
}

impl<R> std::fmt::Debug for PackReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackReader")
            .field("header", &self.header)
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl PackReader<BufReader<std::fs::File>> {
    /// Opens the pack (or executable with a pack at its end) at `path`.
    ///
    /// # Errors
    ///
    /// As [`PackReader::with_options`], and I/O errors.
    pub fn open(path: impl AsRef<Path>, options: &ReadOptions) -> Result<Self> {
        let file = std::fs::File::open(path)?;
        Self::with_options(BufReader::with_capacity(64 << 10, file), options)
    }
}

impl<R: Read + Seek> PackReader<R> {
    /// Reads the header and directory of the pack in `inner`, without a key.
    ///
    /// # Errors
    ///
    /// As [`PackReader::with_options`].
    pub fn new(inner: R) -> Result<Self> {
        Self::with_options(inner, &ReadOptions::new())
    }

    /// Reads the header and directory of the pack in `inner` (at its start, or at the end of
    /// an executable).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] for no pack, an unknown format, or an entry the
    /// stream cannot hold; [`ErrorKind::LengthTooLarge`] / [`ErrorKind::UnexpectedEof`] for
    /// counts and lengths past the end; [`ErrorKind::LimitExceeded`] past a [`Limits`];
    /// [`ErrorKind::Unsupported`] for an encrypted directory without a key (or without the
    /// `crypto` feature); [`ErrorKind::WrongKey`] when it does not decrypt.
    pub fn with_options(mut inner: R, options: &ReadOptions) -> Result<Self> {
        let len = inner.seek(SeekFrom::End(0))?;
        let mut header = find_header(&mut inner, len)?;
        let mut src = Source::new(&mut inner, header.directory, len)?;
        let count_at = src.pos;
        let count = src.u32()?;
        header.file_count = count;
        let limits = &options.limits;
        if usize::try_from(count).map_or(true, |c| c > limits.max_entries) {
            return Err(Error::at(
                ErrorKind::LimitExceeded {
                    what: "the pack's entry count (pck::Limits::with_max_entries)",
                    max: limits.max_entries,
                },
                at(count_at),
            ));
        }
        let base = file_base(&mut src, &header)?;
        let entries = if header.directory_encrypted() {
            #[cfg(feature = "crypto")]
            {
                let key = options.key.as_ref().ok_or_else(|| {
                    Error::at(
                        ErrorKind::Unsupported(
                            "the pack's directory is encrypted: its key is needed".into(),
                        ),
                        at(header.directory),
                    )
                })?;
                let (plain, start) = read_encrypted_directory(&mut src, key, limits)?;
                let mut cursor = Source {
                    inner: io::Cursor::new(plain.as_slice()),
                    pos: start,
                    end: start + plain.len() as u64,
                };
                read_entries(&mut cursor, &header, count, base, len, limits)?
            }
            #[cfg(not(feature = "crypto"))]
            {
                let _ = base;
                return Err(Error::at(
                    ErrorKind::Unsupported(
                        "the pack's directory is encrypted, which needs the `crypto` feature of godot-serde"
                            .into(),
                    ),
                    at(header.directory),
                ));
            }
        } else {
            let min = header.format.min_entry_len();
            if u64::from(count).saturating_mul(min) > src.end.saturating_sub(src.pos) {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "pack entry count",
                        len: u64::from(count),
                        remaining: at(src.end.saturating_sub(src.pos)),
                    },
                    at(count_at),
                ));
            }
            read_entries(&mut src, &header, count, base, len, limits)?
        };
        let index = entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| normalize_path(&e.path).ok().map(|name| (name, i)))
            .collect();
        Ok(PackReader {
            inner,
            header,
            entries,
            index,
            #[cfg(feature = "crypto")]
            key: options.key.clone(),
            skip_md5: options.skip_md5,
        })
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Every entry, in the directory's order (removals included).
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry the engine would use for `path` (with or without `res://`): the last one of
    /// that name, or `None` when there is none or the last one removes it.
    #[must_use]
    pub fn find(&self, path: &str) -> Option<&Entry> {
        let name = normalize_path(path).ok()?;
        let entry = self.entries.get(*self.index.get(&name)?)?;
        (!entry.is_removal()).then_some(entry)
    }

    /// Streams the file at `path` (see [`PackReader::open_entry`]).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] when the pack has no such file; as
    /// [`PackReader::open_entry`].
    pub fn open_file(&mut self, path: &str) -> Result<EntryReader<'_, R>> {
        let entry = self.find(path).cloned().ok_or_else(|| {
            Error::new(ErrorKind::InvalidContainer(
                format!("the pack has no file {path:?}").into(),
            ))
        })?;
        self.open_entry(&entry)
    }

    /// Streams one entry's file: a [`Read`] over its bytes (decrypted when encrypted), whose
    /// read of the last byte fails instead when the MD5 does not match. Nothing else of the
    /// pack is read.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] for a removal, a file of a sparse bundle (it lies outside
    /// the pack), an encrypted file without a key; I/O errors; for an encrypted file a
    /// header whose length differs from the directory's size.
    pub fn open_entry(&mut self, entry: &Entry) -> Result<EntryReader<'_, R>> {
        if entry.is_removal() {
            return Err(Error::new(ErrorKind::Unsupported(
                format!("{:?} is a removal entry: it holds no file", entry.path).into(),
            )));
        }
        if self.header.flags & PACK_SPARSE_BUNDLE != 0 {
            return Err(Error::new(ErrorKind::Unsupported(
                format!(
                    "{:?} belongs to a sparse bundle: its bytes lie beside the pack",
                    entry.path
                )
                .into(),
            )));
        }
        self.inner.seek(SeekFrom::Start(entry.offset))?;
        #[cfg_attr(not(feature = "crypto"), allow(unused_mut))]
        let mut reader = EntryReader {
            inner: &mut self.inner,
            left: entry.size,
            checked: false,
            pos: entry.offset,
            md5: (!self.skip_md5 || entry.is_encrypted()).then(Md5::new),
            expected: (entry.has_md5() && !self.skip_md5).then_some(entry.md5),
            #[cfg(feature = "crypto")]
            cipher: None,
        };
        if entry.is_encrypted() {
            #[cfg(feature = "crypto")]
            {
                let key = self.key.as_ref().ok_or_else(|| {
                    Error::new(ErrorKind::Unsupported(
                        format!("{:?} is encrypted: its key is needed", entry.path).into(),
                    ))
                })?;
                let mut fields = [0u8; Godot4Fields::SIZE];
                reader
                    .inner
                    .read_exact(&mut fields)
                    .map_err(|e| eof_at(e, entry.offset))?;
                reader.pos += super::ENCRYPTION_HEADER;
                let fields = Godot4Fields::parse(&fields);
                if fields.len != entry.size {
                    return Err(Error::at(
                        ErrorKind::InvalidContainer(
                            format!(
                                "encrypted file {:?} holds {} bytes, its entry says {}",
                                entry.path, fields.len, entry.size
                            )
                            .into(),
                        ),
                        at(entry.offset + 16),
                    ));
                }
                reader.cipher = Some(Decrypting {
                    cipher: StreamCipher::decryptor(key, &fields.iv),
                    md5: fields.md5,
                });
            }
            #[cfg(not(feature = "crypto"))]
            return Err(Error::new(ErrorKind::Unsupported(
                format!(
                    "{:?} is encrypted, which needs the `crypto` feature of godot-serde",
                    entry.path
                )
                .into(),
            )));
        }
        Ok(reader)
    }

    /// The whole file at `path` (held in memory; it grows as bytes arrive).
    ///
    /// # Errors
    ///
    /// As [`PackReader::open_file`], and the reading's errors (a wrong MD5:
    /// [`ErrorKind::InvalidContainer`]; a wrong key: [`ErrorKind::WrongKey`]).
    pub fn read_file(&mut self, path: &str) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.open_file(path)?
            .read_to_end(&mut out)
            .map_err(from_io)?;
        Ok(out)
    }

    /// The stream, to copy stored entries from.
    pub(crate) fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The stream back.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

/// Turns an I/O error of an [`EntryReader`] back into the [`Error`] it carries.
pub(crate) fn from_io(e: io::Error) -> Error {
    if e.get_ref().is_some_and(|inner| inner.is::<Error>()) {
        if let Some(inner) = e.into_inner() {
            if let Ok(err) = inner.downcast::<Error>() {
                return *err;
            }
            return Error::new(ErrorKind::Message("I/O error".into()));
        }
        return Error::new(ErrorKind::Message("I/O error".into()));
    }
    Error::new(ErrorKind::Io(e))
}

fn eof_at(e: io::Error, offset: u64) -> Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        Error::at(ErrorKind::UnexpectedEof { needed: 1 }, at(offset))
    } else {
        Error::new(ErrorKind::Io(e))
    }
}

/// One file of a pack, streamed. Its MD5 (and for an encrypted file the encryption header's
/// MD5) is checked when the last byte is read: that read fails with an
/// [`io::ErrorKind::InvalidData`] error carrying the crate's [`Error`]
/// ([`ErrorKind::InvalidContainer`], or [`ErrorKind::WrongKey`] for a wrong key).
pub struct EntryReader<'a, R> {
    inner: &'a mut R,
    left: u64,
    /// Whether the checksums were compared (once the last byte, or for an empty file the
    /// first read, came).
    checked: bool,
    pos: u64,
    /// The running MD5 (`None` when nothing is to be checked).
    md5: Option<Md5>,
    expected: Option<[u8; 16]>,
    #[cfg(feature = "crypto")]
    cipher: Option<Decrypting>,
}

#[cfg(feature = "crypto")]
struct Decrypting {
    cipher: StreamCipher,
    md5: [u8; 16],
}

impl<R> std::fmt::Debug for EntryReader<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EntryReader")
            .field("left", &self.left)
            .finish_non_exhaustive()
    }
}

impl<R> EntryReader<'_, R> {
    /// The bytes still to come.
    #[must_use]
    pub fn remaining(&self) -> u64 {
        self.left
    }

    fn finish(&mut self) -> io::Result<()> {
        self.checked = true;
        let Some(md5) = self.md5.take() else {
            return Ok(());
        };
        let digest: [u8; 16] = md5.finalize().into();
        #[cfg(feature = "crypto")]
        if let Some(d) = &self.cipher {
            if d.md5 != digest {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    Error::new(ErrorKind::WrongKey),
                ));
            }
        }
        if let Some(expected) = self.expected {
            if expected != digest {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    Error::at(
                        ErrorKind::InvalidContainer(
                            "the file's MD5 does not match its pack entry's".into(),
                        ),
                        at(self.pos),
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for EntryReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // An empty file is checked on its first read.
            if !self.checked {
                self.finish()?;
            }
            return Ok(0);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let want = usize::try_from(self.left).map_or(buf.len(), |left| left.min(buf.len()));
        let Some(buf) = buf.get_mut(..want) else {
            return Ok(0);
        };
        let n = self.inner.read(buf)?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                Error::at(
                    ErrorKind::UnexpectedEof {
                        needed: at(self.left),
                    },
                    at(self.pos),
                ),
            ));
        }
        let got = buf.get_mut(..n).unwrap_or_default();
        #[cfg(feature = "crypto")]
        if let Some(d) = &mut self.cipher {
            d.cipher.apply(got);
        }
        if let Some(md5) = &mut self.md5 {
            md5.update(&*got);
        }
        self.left -= n as u64;
        self.pos += n as u64;
        if self.left == 0 {
            self.finish()?;
        }
        Ok(n)
    }
}

/// A stream positioned at `pos` that may not read past `end`, reporting offsets.
struct Source<R> {
    inner: R,
    pos: u64,
    end: u64,
}

impl<R: Read + Seek> Source<&mut R> {
    fn new(inner: &mut R, pos: u64, end: u64) -> Result<Source<&mut R>> {
        inner.seek(SeekFrom::Start(pos))?;
        Ok(Source { inner, pos, end })
    }
}

impl<R: Read> Source<R> {
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        if self.end.saturating_sub(self.pos) < N as u64 {
            return Err(Error::at(
                ErrorKind::UnexpectedEof {
                    needed: N - at(self.end.saturating_sub(self.pos)),
                },
                at(self.pos),
            ));
        }
        self.inner
            .read_exact(&mut out)
            .map_err(|e| eof_at(e, self.pos))?;
        self.pos += N as u64;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32> {
        self.bytes::<4>().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64> {
        self.bytes::<8>().map(u64::from_le_bytes)
    }

    /// `len` bytes, already checked against a limit; the buffer grows as they arrive. `what`
    /// is the length field, `field_at` where it is.
    fn vec(&mut self, len: u64, what: &'static str, field_at: u64) -> Result<Vec<u8>> {
        if self.end.saturating_sub(self.pos) < len {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what,
                    len,
                    remaining: at(self.end.saturating_sub(self.pos)),
                },
                at(field_at),
            ));
        }
        let mut out = Vec::new();
        (&mut self.inner).take(len).read_to_end(&mut out)?;
        if (out.len() as u64) < len {
            return Err(Error::at(
                ErrorKind::UnexpectedEof {
                    needed: at(len - out.len() as u64),
                },
                at(self.pos + out.len() as u64),
            ));
        }
        self.pos += len;
        Ok(out)
    }
}

/// Finds the pack (at 0, or through the trailer) and reads its header.
fn find_header<R: Read + Seek>(inner: &mut R, len: u64) -> Result<Header> {
    let mut magic = [0u8; 4];
    inner.seek(SeekFrom::Start(0))?;
    let (start, embedded) = if len >= 4 && {
        inner.read_exact(&mut magic)?;
        &magic == PACK_MAGIC
    } {
        (0, false)
    } else if len >= 16 {
        let mut trailer = [0u8; 12];
        inner.seek(SeekFrom::Start(len - 12))?;
        inner.read_exact(&mut trailer)?;
        if trailer.get(8..) != Some(PACK_MAGIC.as_slice()) {
            return Err(not_a_pack());
        }
        let size = u64::from_le_bytes(
            trailer
                .get(..8)
                .and_then(|b| b.try_into().ok())
                .unwrap_or_default(),
        );
        let start = (len - 12).checked_sub(size).ok_or_else(|| {
            Error::at(
                ErrorKind::LengthTooLarge {
                    what: "embedded pack size",
                    len: size,
                    remaining: at(len - 12),
                },
                at(len - 12),
            )
        })?;
        inner.seek(SeekFrom::Start(start))?;
        let mut magic = [0u8; 4];
        inner.read_exact(&mut magic)?;
        if &magic != PACK_MAGIC {
            return Err(Error::at(
                ErrorKind::InvalidContainer(
                    format!("the trailer's pack size {size} points at {magic:02x?}, not \"GDPC\"")
                        .into(),
                ),
                at(len - 12),
            ));
        }
        (start, true)
    } else {
        return Err(not_a_pack());
    };
    let mut src = Source::new(inner, start + 4, len)?;
    let version_at = src.pos;
    let number = src.u32()?;
    let format = PackFormat::from_number(number).ok_or_else(|| {
        Error::at(
            ErrorKind::InvalidContainer(
                format!("pack format version {number}: only 1, 2 and 3 exist").into(),
            ),
            at(version_at),
        )
    })?;
    let version = EngineVersion::new(src.u32()?, src.u32()?, src.u32()?);
    let flags = if format == PackFormat::V1 {
        0
    } else {
        src.u32()?
    };
    let directory = match format {
        PackFormat::V1 | PackFormat::V2 => start + format.header_len(),
        PackFormat::V3 => {
            src.u64()?; // the file base, read again by `file_base`
            let dir_at = src.pos;
            let dir = src.u64()?;
            dir.checked_add(start)
                .filter(|&d| d < len)
                .ok_or_else(|| past_end("pack directory offset", dir, len, dir_at))?
        }
    };
    if directory > len {
        return Err(Error::at(
            ErrorKind::UnexpectedEof {
                needed: at(directory - len),
            },
            at(len),
        ));
    }
    Ok(Header {
        format,
        version,
        flags,
        start,
        embedded,
        directory,
        file_count: 0,
    })
}

/// Where the offsets of the directory count from (the offsets of v1 count from the file's
/// start), read from the header.
fn file_base<R: Read + Seek>(src: &mut Source<&mut R>, header: &Header) -> Result<u64> {
    if header.format == PackFormat::V1 {
        return Ok(0);
    }
    let back = src.pos;
    src.inner.seek(SeekFrom::Start(header.start + 24))?;
    let mut raw = [0u8; 8];
    src.inner.read_exact(&mut raw)?;
    src.inner.seek(SeekFrom::Start(back))?;
    let base = u64::from_le_bytes(raw);
    if header.format == PackFormat::V3 || header.flags & PACK_REL_FILEBASE != 0 {
        base.checked_add(header.start)
            .ok_or_else(|| past_end("pack file base", base, src.end, header.start + 24))
    } else {
        Ok(base)
    }
}

/// Reads and decrypts the directory after the count; returns it and where it starts.
#[cfg(feature = "crypto")]
fn read_encrypted_directory<R: Read>(
    src: &mut Source<R>,
    key: &Key,
    limits: &Limits,
) -> Result<(Vec<u8>, u64)> {
    let fields_at = src.pos;
    let fields = Godot4Fields::parse(&src.bytes::<{ Godot4Fields::SIZE }>()?);
    let cipher_len = Godot4Fields::cipher_len(fields.len).ok_or_else(|| {
        past_end(
            "encrypted directory length",
            fields.len,
            src.end,
            fields_at + 16,
        )
    })?;
    if cipher_len > limits.max_directory_size as u64 {
        return Err(Error::at(
            ErrorKind::LimitExceeded {
                what: "the pack's encrypted directory (pck::Limits::with_max_directory_size)",
                max: limits.max_directory_size,
            },
            at(fields_at + 16),
        ));
    }
    if cipher_len > src.end.saturating_sub(src.pos) {
        return Err(past_end(
            "encrypted directory length",
            fields.len,
            src.end,
            fields_at + 16,
        ));
    }
    let start = src.pos;
    let mut data = src.vec(cipher_len, "encrypted directory length", fields_at + 16)?;
    StreamCipher::decryptor(key, &fields.iv).apply(&mut data);
    data.truncate(at(fields.len));
    if <[u8; 16]>::from(Md5::digest(&data)) != fields.md5 {
        return Err(Error::at(ErrorKind::WrongKey, at(fields_at)));
    }
    Ok((data, start))
}

/// Reads `count` entries.
fn read_entries<R: Read>(
    src: &mut Source<R>,
    header: &Header,
    count: u32,
    base: u64,
    len: u64,
    limits: &Limits,
) -> Result<Vec<Entry>> {
    let sparse = header.flags & PACK_SPARSE_BUNDLE != 0;
    let mut entries = Vec::new();
    for _ in 0..count {
        let entry_at = src.pos;
        let path_len = src.u32()?;
        if path_len as usize > limits.max_path_len {
            return Err(Error::at(
                ErrorKind::LimitExceeded {
                    what: "a pack path's length in bytes (pck::Limits::with_max_path_len)",
                    max: limits.max_path_len,
                },
                at(entry_at),
            ));
        }
        let raw = src.vec(u64::from(path_len), "pack path length", entry_at)?;
        let text = raw.split(|&b| b == 0).next().unwrap_or_default();
        let path = String::from_utf8(text.to_vec()).map_err(|e| {
            Error::at(
                ErrorKind::InvalidUtf8 { what: "pack path" },
                at(entry_at + 4 + e.utf8_error().valid_up_to() as u64),
            )
        })?;
        let ofs_at = src.pos;
        let ofs = src.u64()?;
        let size_at = src.pos;
        let size = src.u64()?;
        let md5 = src.bytes::<16>()?;
        let flags = if header.format == PackFormat::V1 {
            0
        } else {
            src.u32()?
        };
        let offset = base
            .checked_add(ofs)
            .ok_or_else(|| past_end("pack file offset", ofs, len, ofs_at))?;
        let entry = Entry {
            path,
            offset,
            size,
            md5,
            flags,
        };
        if flags & FILE_REMOVAL == 0 && !sparse {
            if offset > len {
                return Err(past_end("pack file offset", ofs, len, ofs_at));
            }
            let stored = super::stored_size(size, entry.is_encrypted(), false);
            if stored.is_none_or(|s| s > len - offset) {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "pack file size",
                        len: size,
                        remaining: at(len - offset),
                    },
                    at(size_at),
                ));
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}

fn past_end(what: &'static str, value: u64, len: u64, field_at: u64) -> Error {
    Error::at(
        ErrorKind::LengthTooLarge {
            what,
            len: value,
            remaining: at(len),
        },
        at(field_at),
    )
}

fn not_a_pack() -> Error {
    Error::at(
        ErrorKind::InvalidContainer(
            "not a Godot pack: no \"GDPC\" at byte 0, nor a pack trailer at the end".into(),
        ),
        0,
    )
}
