//! Writing a pack as `PCKPacker` does, in the layout chosen, and patching one.

use super::{
    EngineVersion, Entry, FILE_ENCRYPTED, FILE_REMOVAL, PACK_DIR_ENCRYPTED, PACK_MAGIC,
    PACK_REL_FILEBASE, PackFormat, PackReader, align, normalize_path, stored_size,
};
use crate::error::{Error, ErrorKind, Result};
use md5::{Digest, Md5};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

#[cfg(feature = "crypto")]
use crate::container::{Godot4Fields, Key, StreamCipher, random_iv};

/// How to write a pack: its layout and engine version (both explicit), the alignment of its
/// files, and encryption.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PackOptions {
    format: PackFormat,
    version: EngineVersion,
    alignment: u32,
    encrypt_directory: bool,
    #[cfg(feature = "crypto")]
    key: Option<Key>,
}

impl PackOptions {
    /// A pack of `format` recording `version`, aligned as that engine's `PCKPacker` aligns
    /// by default: v1 not at all (Godot 3's `pck_start(path, 0)`), v2 and v3 to 32 bytes.
    /// The version decides one more thing: v2 packs of 4.0–4.3 store paths with `res://`
    /// (those engines look them up so), 4.4+ without.
    #[must_use]
    pub fn new(format: PackFormat, version: EngineVersion) -> Self {
        PackOptions {
            format,
            version,
            alignment: if format == PackFormat::V1 { 0 } else { 32 },
            encrypt_directory: false,
            #[cfg(feature = "crypto")]
            key: None,
        }
    }

    /// Aligns the first file, each file after the one before, and (v3) the directory to
    /// `alignment` bytes in the pack; 0 and 1 mean no padding (Godot 4 refuses 0).
    #[must_use]
    pub fn with_alignment(mut self, alignment: u32) -> Self {
        self.alignment = alignment;
        self
    }

    /// The 32-byte key of encrypted files and of an encrypted directory.
    #[cfg(feature = "crypto")]
    #[must_use]
    pub fn with_key(mut self, key: Key) -> Self {
        self.key = Some(key);
        self
    }

    /// Encrypts the directory after its count (v2 and v3; needs a key).
    #[cfg(feature = "crypto")]
    #[must_use]
    pub fn with_encrypted_directory(mut self, encrypt: bool) -> Self {
        self.encrypt_directory = encrypt;
        self
    }

    /// The layout.
    #[must_use]
    pub fn format(&self) -> PackFormat {
        self.format
    }

    /// The engine version recorded.
    #[must_use]
    pub fn version(&self) -> EngineVersion {
        self.version
    }

    /// The alignment.
    #[must_use]
    pub fn alignment(&self) -> u32 {
        self.alignment
    }

    /// The path as this layout stores it.
    fn stored_path(&self, name: &str) -> String {
        let keeps_res = match self.format {
            PackFormat::V1 => true,
            PackFormat::V2 => self.version < EngineVersion::new(4, 4, 0),
            PackFormat::V3 => false,
        };
        if keeps_res {
            format!("res://{name}")
        } else {
            name.to_owned()
        }
    }
}

/// Where a file's bytes come from when the pack is written.
#[derive(Debug)]
enum Body {
    Bytes(Vec<u8>),
    File(PathBuf),
    /// An entry of the pack being patched, copied as stored.
    Copy(Entry),
    Removal,
}

#[derive(Debug)]
struct Planned {
    name: String,
    size: u64,
    md5: [u8; 16],
    encrypted: bool,
    body: Body,
}

impl Planned {
    fn removal(&self) -> bool {
        matches!(self.body, Body::Removal)
    }

    fn stored(&self) -> Result<u64> {
        stored_size(self.size, self.encrypted, self.removal())
            .ok_or_else(|| Error::new(ErrorKind::Unsupported("a file too large".into())))
    }
}

/// A change to a pack, for [`patch`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Change {
    /// Adds or replaces the file at `path` with `data`.
    Put {
        /// Its path in the pack.
        path: String,
        /// Its bytes.
        data: Vec<u8>,
        /// Whether to encrypt it (with the options' key).
        encrypt: bool,
    },
    /// Adds or replaces the file at `path` with the file `from` on disk (streamed).
    PutFile {
        /// Its path in the pack.
        path: String,
        /// The file to read.
        from: PathBuf,
        /// Whether to encrypt it.
        encrypt: bool,
    },
    /// Leaves the file at `path` out of the new pack.
    Remove {
        /// Its path in the pack.
        path: String,
    },
    /// Writes a removal entry for `path` (v2 and v3): loading the pack removes it from the
    /// files of the packs loaded before (Godot 4.4+).
    MarkRemoved {
        /// The path to remove.
        path: String,
    },
}

/// Writes a pack as the engine's `PCKPacker` does: the same header, directory, alignment and
/// paths, byte for byte (the IVs of encrypted parts are random, as the engine's are). Files
/// are collected, then [`PackWriter::finish`] writes the pack in one pass: the data of
/// [`PackWriter::add_file`] is held until then, a file of [`PackWriter::add_file_from_path`]
/// is read then (streamed).
///
/// Adding a path twice replaces the first (the engine would load the last).
#[derive(Debug)]
pub struct PackWriter<W> {
    out: W,
    options: PackOptions,
    files: Vec<Planned>,
}

impl<W: Write> PackWriter<W> {
    /// A writer of a pack into `out`.
    #[must_use]
    pub fn new(out: W, options: PackOptions) -> Self {
        PackWriter {
            out,
            options,
            files: Vec::new(),
        }
    }

    /// Adds (or replaces) the file at `path` (`res://` optional).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] for a path that is empty or has `..`.
    pub fn add_file(&mut self, path: &str, data: impl Into<Vec<u8>>) -> Result<()> {
        self.put(path, data.into(), false)
    }

    /// Adds (or replaces) the file at `path`, encrypted with the options' key.
    ///
    /// # Errors
    ///
    /// As [`PackWriter::add_file`]; [`ErrorKind::Unsupported`] without a key or in v1.
    #[cfg(feature = "crypto")]
    pub fn add_file_encrypted(&mut self, path: &str, data: impl Into<Vec<u8>>) -> Result<()> {
        self.put(path, data.into(), true)
    }

    fn put(&mut self, path: &str, data: Vec<u8>, encrypt: bool) -> Result<()> {
        let name = normalize_path(path)?;
        self.check_encryption(encrypt)?;
        let planned = Planned {
            name,
            size: data.len() as u64,
            md5: Md5::digest(&data).into(),
            encrypted: encrypt,
            body: Body::Bytes(data),
        };
        self.push(planned);
        Ok(())
    }

    /// Adds (or replaces) the file at `path` with the file `from` on disk: read once now for
    /// its size and MD5, and again, streamed, by [`PackWriter::finish`] (which fails if it
    /// changed in between).
    ///
    /// # Errors
    ///
    /// As [`PackWriter::add_file`] (`encrypt` as [`PackWriter::add_file_encrypted`]), and
    /// I/O errors.
    pub fn add_file_from_path(
        &mut self,
        path: &str,
        from: impl Into<PathBuf>,
        encrypt: bool,
    ) -> Result<()> {
        let name = normalize_path(path)?;
        self.check_encryption(encrypt)?;
        let from = from.into();
        let mut file = std::fs::File::open(&from)?;
        let (size, md5) = hash(&mut file, &mut io::sink())?;
        self.push(Planned {
            name,
            size,
            md5,
            encrypted: encrypt,
            body: Body::File(from),
        });
        Ok(())
    }

    /// Adds a removal entry for `path` (`PCKPacker.add_file_removal`, Godot 4.4+): loading
    /// the pack removes the path from the packs loaded before. Engines before 4.4 do not know
    /// the flag and see an empty file at that path.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] in v1, which has no file flags; as
    /// [`PackWriter::add_file`] for the path.
    pub fn add_removal(&mut self, path: &str) -> Result<()> {
        if self.options.format == PackFormat::V1 {
            return Err(Error::new(ErrorKind::Unsupported(
                "a v1 pack (Godot 3) has no removal entries".into(),
            )));
        }
        let name = normalize_path(path)?;
        self.push(Planned {
            name,
            size: 0,
            md5: [0; 16],
            encrypted: false,
            body: Body::Removal,
        });
        Ok(())
    }

    /// Leaves the file at `path` out; whether there was one.
    pub fn remove(&mut self, path: &str) -> bool {
        let Ok(name) = normalize_path(path) else {
            return false;
        };
        let before = self.files.len();
        self.files.retain(|f| f.name != name);
        self.files.len() != before
    }

    fn push(&mut self, planned: Planned) {
        if let Some(old) = self.files.iter_mut().find(|f| f.name == planned.name) {
            *old = planned;
        } else {
            self.files.push(planned);
        }
    }

    fn check_encryption(&self, encrypt: bool) -> Result<()> {
        if !encrypt {
            return Ok(());
        }
        if self.options.format == PackFormat::V1 {
            return Err(Error::new(ErrorKind::Unsupported(
                "a v1 pack (Godot 3) cannot hold encrypted files".into(),
            )));
        }
        #[cfg(feature = "crypto")]
        if self.options.key.is_some() {
            return Ok(());
        }
        Err(Error::new(ErrorKind::Unsupported(
            "encrypting a file needs a key (PackOptions::with_key)".into(),
        )))
    }

    /// Writes the pack and gives the output back.
    ///
    /// # Errors
    ///
    /// I/O errors; [`ErrorKind::InvalidContainer`] when a file added from disk changed since;
    /// [`ErrorKind::Unsupported`] for an encrypted directory without a key or in v1.
    pub fn finish(self) -> Result<W> {
        write_pack(
            self.out,
            &self.options,
            &self.files,
            None::<&mut io::Cursor<Vec<u8>>>,
        )
    }
}

/// Reads a pack's files through `source` and writes a new pack into `out` with `changes`
/// applied, in the layout of `options` (which may differ from the source's: a conversion).
/// The kept files are copied as stored, streamed: encrypted ones stay encrypted with their
/// key, which need not be known; plain ones are checked against their MD5 on the way.
/// Removal entries are kept.
///
/// # Errors
///
/// As [`PackWriter`]'s methods; [`ErrorKind::InvalidContainer`] for a [`Change::Remove`] of
/// a path the pack does not hold, or a copied file whose MD5 does not match;
/// [`ErrorKind::Unsupported`] for an encrypted file or a removal entry going into v1.
pub fn patch<R: Read + Seek, W: Write>(
    source: &mut PackReader<R>,
    out: W,
    options: PackOptions,
    changes: Vec<Change>,
) -> Result<W> {
    let mut writer = PackWriter::new(out, options);
    for entry in source.entries() {
        if entry.is_removal() {
            writer.add_removal(entry.name())?;
            continue;
        }
        if entry.is_encrypted() && writer.options.format == PackFormat::V1 {
            return Err(Error::new(ErrorKind::Unsupported(
                format!(
                    "{:?} is encrypted, which a v1 pack (Godot 3) cannot hold",
                    entry.path
                )
                .into(),
            )));
        }
        writer.push(Planned {
            name: normalize_path(&entry.path)?,
            size: entry.size,
            md5: entry.md5,
            encrypted: entry.is_encrypted(),
            body: Body::Copy(entry.clone()),
        });
    }
    for change in changes {
        match change {
            Change::Put {
                path,
                data,
                encrypt,
            } => writer.put(&path, data, encrypt)?,
            Change::PutFile {
                path,
                from,
                encrypt,
            } => writer.add_file_from_path(&path, from, encrypt)?,
            Change::Remove { path } => {
                if !writer.remove(&path) {
                    return Err(Error::new(ErrorKind::InvalidContainer(
                        format!("the pack has no file {path:?} to remove").into(),
                    )));
                }
            }
            Change::MarkRemoved { path } => writer.add_removal(&path)?,
        }
    }
    write_pack(
        writer.out,
        &writer.options,
        &writer.files,
        Some(source.inner_mut()),
    )
}

/// Counts what goes out.
struct Counted<W> {
    out: W,
    pos: u64,
}

impl<W: Write> Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    fn pad_to(&mut self, target: u64) -> Result<()> {
        const ZEROS: [u8; 4096] = [0; 4096];
        while self.pos < target {
            let n = usize::try_from(target - self.pos).map_or(ZEROS.len(), |n| n.min(ZEROS.len()));
            self.write(ZEROS.get(..n).unwrap_or_default())?;
        }
        Ok(())
    }
}

fn overflow() -> Error {
    Error::new(ErrorKind::Unsupported(
        "the pack would be larger than 2^64 bytes".into(),
    ))
}

fn write_pack<W: Write, S: Read + Seek + ?Sized>(
    out: W,
    options: &PackOptions,
    files: &[Planned],
    mut source: Option<&mut S>,
) -> Result<W> {
    let format = options.format;
    let a = options.alignment;
    if options.encrypt_directory && format == PackFormat::V1 {
        return Err(Error::new(ErrorKind::Unsupported(
            "a v1 pack (Godot 3) cannot have an encrypted directory".into(),
        )));
    }
    let directory = directory(options, files)?;
    // Offsets of the files: absolute in v1, from the file base in v2 and v3.
    let header_len = format.header_len();
    let file_base = match format {
        PackFormat::V1 => 0,
        PackFormat::V2 => align(header_len + directory.len() as u64, a).ok_or_else(overflow)?,
        PackFormat::V3 => align(header_len, a).ok_or_else(overflow)?,
    };
    let mut offsets = Vec::with_capacity(files.len());
    let mut next = match format {
        PackFormat::V1 => align(header_len + directory.len() as u64, a).ok_or_else(overflow)?,
        PackFormat::V2 | PackFormat::V3 => 0,
    };
    for file in files {
        offsets.push(next);
        if !file.removal() {
            next = next
                .checked_add(file.stored()?)
                .and_then(|n| align(n, a))
                .ok_or_else(overflow)?;
        }
    }
    let dir_offset = file_base.checked_add(next).ok_or_else(overflow)?;
    // The directory is rewritten with the offsets (its size does not depend on them).
    let directory = directory_with(options, files, &offsets)?;

    let mut out = Counted { out, pos: 0 };
    out.write(PACK_MAGIC)?;
    for word in [
        format.number(),
        options.version.major,
        options.version.minor,
        options.version.patch,
    ] {
        out.write(&word.to_le_bytes())?;
    }
    if format != PackFormat::V1 {
        let mut flags = 0;
        if options.encrypt_directory {
            flags |= PACK_DIR_ENCRYPTED;
        }
        if format == PackFormat::V3 {
            flags |= PACK_REL_FILEBASE;
        }
        out.write(&flags.to_le_bytes())?;
        out.write(&file_base.to_le_bytes())?;
        if format == PackFormat::V3 {
            out.write(&dir_offset.to_le_bytes())?;
        }
    }
    out.write(&[0u8; 64])?;
    if format != PackFormat::V3 {
        out.write(&directory)?;
    }
    let data_start = match format {
        PackFormat::V1 => offsets.first().copied().unwrap_or(out.pos),
        PackFormat::V2 | PackFormat::V3 => file_base,
    };
    out.pad_to(data_start)?;
    for (file, &offset) in files.iter().zip(&offsets) {
        if file.removal() {
            continue;
        }
        let at = if format == PackFormat::V1 {
            offset
        } else {
            file_base + offset
        };
        out.pad_to(at)?;
        write_body(&mut out, options, file, source.as_deref_mut())?;
        out.pad_to(align(out.pos, a).ok_or_else(overflow)?)?;
    }
    if format == PackFormat::V3 {
        out.pad_to(dir_offset)?;
        out.write(&directory)?;
    }
    out.out.flush()?;
    Ok(out.out)
}

/// The directory with zero offsets (for its size).
fn directory(options: &PackOptions, files: &[Planned]) -> Result<Vec<u8>> {
    directory_with(options, files, &vec![0; files.len()])
}

/// The directory: the count, then the entries (encrypted when asked).
fn directory_with(options: &PackOptions, files: &[Planned], offsets: &[u64]) -> Result<Vec<u8>> {
    let format = options.format;
    let mut entries = Vec::new();
    for (file, &offset) in files.iter().zip(offsets) {
        let path = options.stored_path(&file.name);
        let len = path.len();
        let padded = if format == PackFormat::V1 {
            len
        } else {
            len.div_ceil(4) * 4
        };
        let field = u32::try_from(padded)
            .map_err(|_| Error::new(ErrorKind::Unsupported("a path longer than 4 GiB".into())))?;
        entries.extend_from_slice(&field.to_le_bytes());
        entries.extend_from_slice(path.as_bytes());
        entries.resize(entries.len() + (padded - len), 0);
        entries.extend_from_slice(&offset.to_le_bytes());
        entries.extend_from_slice(&file.size.to_le_bytes());
        entries.extend_from_slice(&file.md5);
        if format != PackFormat::V1 {
            let mut flags = 0u32;
            if file.encrypted {
                flags |= FILE_ENCRYPTED;
            }
            if file.removal() {
                flags |= FILE_REMOVAL;
            }
            entries.extend_from_slice(&flags.to_le_bytes());
        }
    }
    let count = u32::try_from(files.len())
        .map_err(|_| Error::new(ErrorKind::Unsupported("more than 2^32 files".into())))?;
    let mut out = count.to_le_bytes().to_vec();
    if options.encrypt_directory {
        #[cfg(feature = "crypto")]
        {
            let key = options.key.as_ref().ok_or_else(|| {
                Error::new(ErrorKind::Unsupported(
                    "an encrypted directory needs a key (PackOptions::with_key)".into(),
                ))
            })?;
            let fields = Godot4Fields {
                md5: Md5::digest(&entries).into(),
                len: entries.len() as u64,
                iv: random_iv()?,
            };
            out.extend_from_slice(&fields.to_bytes());
            entries.resize(entries.len().div_ceil(16) * 16, 0);
            StreamCipher::encryptor(key, &fields.iv).apply(&mut entries);
        }
        #[cfg(not(feature = "crypto"))]
        return Err(Error::new(ErrorKind::Unsupported(
            "an encrypted directory needs the `crypto` feature of godot-serde".into(),
        )));
    }
    out.extend_from_slice(&entries);
    Ok(out)
}

/// Copies `reader` into `out` while hashing it; its length and MD5.
fn hash(reader: &mut dyn Read, out: &mut dyn Write) -> Result<(u64, [u8; 16])> {
    let mut md5 = Md5::new();
    let mut buf = vec![0u8; 64 << 10];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        let chunk = buf.get(..n).unwrap_or_default();
        md5.update(chunk);
        out.write_all(chunk)?;
        total += n as u64;
    }
    Ok((total, md5.finalize().into()))
}

/// Writes one file's stored bytes.
fn write_body<W: Write, S: Read + Seek + ?Sized>(
    out: &mut Counted<W>,
    options: &PackOptions,
    file: &Planned,
    source: Option<&mut S>,
) -> Result<()> {
    match &file.body {
        Body::Removal => Ok(()),
        Body::Copy(entry) => {
            let source = source
                .ok_or_else(|| Error::new(ErrorKind::Unsupported("no pack to copy from".into())))?;
            source.seek(SeekFrom::Start(entry.offset))?;
            let stored = entry.stored_size();
            let mut counter = CountingSink::new(&mut out.out);
            let (len, md5) = hash(&mut source.take(stored), &mut counter)?;
            out.pos += len;
            if len != stored {
                return Err(Error::at(
                    ErrorKind::UnexpectedEof {
                        needed: super::at(stored - len),
                    },
                    super::at(entry.offset + len),
                ));
            }
            if !entry.is_encrypted() && entry.has_md5() && md5 != entry.md5 {
                return Err(Error::at(
                    ErrorKind::InvalidContainer(
                        format!("{:?}: its MD5 does not match its pack entry's", entry.path).into(),
                    ),
                    super::at(entry.offset),
                ));
            }
            Ok(())
        }
        Body::Bytes(data) => write_plain_or_encrypted(out, options, file, &mut data.as_slice()),
        Body::File(path) => {
            let mut f = std::fs::File::open(path)?;
            write_plain_or_encrypted(out, options, file, &mut f)
        }
    }
}

/// A sink that passes bytes on (for [`hash`] into the output).
struct CountingSink<'a, W>(&'a mut W);

impl<'a, W> CountingSink<'a, W> {
    fn new(out: &'a mut W) -> Self {
        CountingSink(out)
    }
}

impl<W: Write> Write for CountingSink<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Writes `reader`'s bytes, encrypted when the file is, and checks they are the ones hashed
/// when the file was added.
fn write_plain_or_encrypted<W: Write>(
    out: &mut Counted<W>,
    options: &PackOptions,
    file: &Planned,
    reader: &mut dyn Read,
) -> Result<()> {
    let start = out.pos;
    let (len, md5) = if file.encrypted {
        #[cfg(feature = "crypto")]
        {
            let key = options.key.as_ref().ok_or_else(|| {
                Error::new(ErrorKind::Unsupported("encrypting needs a key".into()))
            })?;
            let fields = Godot4Fields {
                md5: file.md5,
                len: file.size,
                iv: random_iv()?,
            };
            out.write(&fields.to_bytes())?;
            let mut cipher = StreamCipher::encryptor(key, &fields.iv);
            let mut sink = Encrypting {
                out: &mut *out,
                cipher: &mut cipher,
                err: None,
            };
            let result = hash(&mut reader.take(file.size), &mut sink);
            if let Some(e) = sink.err.take() {
                return Err(e);
            }
            let result = result?;
            let mut pad = vec![0u8; (16 - (file.size % 16) as usize) % 16];
            cipher.apply(&mut pad);
            out.write(&pad)?;
            result
        }
        #[cfg(not(feature = "crypto"))]
        {
            let _ = options;
            return Err(Error::new(ErrorKind::Unsupported(
                "encrypting needs the `crypto` feature".into(),
            )));
        }
    } else {
        let _ = options;
        let mut sink = CountingSink::new(&mut out.out);
        let result = hash(&mut reader.take(file.size), &mut sink)?;
        out.pos += result.0;
        result
    };
    if len != file.size || md5 != file.md5 {
        return Err(Error::at(
            ErrorKind::InvalidContainer(
                format!(
                    "{:?} changed since it was added ({len} bytes now, {} then)",
                    file.name, file.size
                )
                .into(),
            ),
            super::at(start),
        ));
    }
    Ok(())
}

/// Encrypts what is written through it into the output.
#[cfg(feature = "crypto")]
struct Encrypting<'a, W> {
    out: &'a mut Counted<W>,
    cipher: &'a mut StreamCipher,
    err: Option<Error>,
}

#[cfg(feature = "crypto")]
impl<W: Write> Write for Encrypting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut chunk = buf.to_vec();
        self.cipher.apply(&mut chunk);
        if let Err(e) = self.out.write(&chunk) {
            self.err = Some(e);
            return Err(io::Error::other("write failed"));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends the pack read from `pack` to the executable read from `exe` as a self-contained
/// export does: the pack at a multiple of 8 bytes, then zero padding, the pack's size
/// (`u64`, padding included) and `GDPC`, the trailer [`PackReader`] and the engine look for.
/// Only packs whose offsets count from their own start can move so: v3, and v2 with
/// [`PACK_REL_FILEBASE`](super::PACK_REL_FILEBASE).
///
/// # Errors
///
/// [`ErrorKind::InvalidContainer`] when `pack` does not start with a pack header;
/// [`ErrorKind::Unsupported`] for v1 and v2 packs with absolute offsets; I/O errors.
pub fn embed<E: Read, P: Read, W: Write>(exe: &mut E, pack: &mut P, out: W) -> Result<W> {
    let mut head = [0u8; 24];
    pack.read_exact(&mut head).map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            Error::at(ErrorKind::UnexpectedEof { needed: 1 }, 0)
        } else {
            e.into()
        }
    })?;
    let word = |at: usize| {
        head.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    };
    if head.get(..4) != Some(PACK_MAGIC.as_slice()) {
        return Err(Error::at(
            ErrorKind::InvalidContainer("not a Godot pack: no \"GDPC\" at byte 0".into()),
            0,
        ));
    }
    let relative = match PackFormat::from_number(word(4)) {
        Some(PackFormat::V3) => true,
        Some(PackFormat::V2) => word(20) & PACK_REL_FILEBASE != 0,
        _ => false,
    };
    if !relative {
        return Err(Error::at(
            ErrorKind::Unsupported(
                "this pack's offsets count from the start of its file (v1, or v2 without the relative file base flag): it cannot be embedded".into(),
            ),
            4,
        ));
    }
    let mut out = Counted { out, pos: 0 };
    let mut sink = CountingSink::new(&mut out.out);
    let (exe_len, _) = hash(exe, &mut sink)?;
    out.pos = exe_len;
    out.pad_to(align(out.pos, 8).ok_or_else(overflow)?)?;
    let start = out.pos;
    out.write(&head)?;
    let mut sink = CountingSink::new(&mut out.out);
    let (rest, _) = hash(pack, &mut sink)?;
    out.pos += rest;
    let end = align(out.pos + 12, 8).ok_or_else(overflow)? - 12;
    out.pad_to(end)?;
    out.write(&(out.pos - start).to_le_bytes())?;
    out.write(PACK_MAGIC)?;
    out.out.flush()?;
    Ok(out.out)
}
