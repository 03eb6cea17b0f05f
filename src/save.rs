//! Save files written with `FileAccess.store_var` (Godot 4) or `File.store_var` (Godot 3):
//! length-prefixed values one after another, exactly the bytes of a `StreamPeer.put_var`
//! stream.
//!
//! ```
//! use godot_serde::{Config, Variant, save::{SaveReader, SaveWriter}};
//!
//! // What `f.store_var("hi"); f.store_var(7)` writes.
//! let mut file = Vec::new();
//! let mut writer = SaveWriter::new(&mut file, Config::godot4());
//! writer.write("hi")?;
//! writer.write(&7)?;
//! assert_eq!(godot_serde::dump::hex(&file),
//!     "0c000000 04000000 02000000 68690000 08000000 02000000 07000000");
//!
//! // What `f.get_var()` until `f.eof_reached()` reads back.
//! let mut reader = SaveReader::new(&file[..], Config::godot4());
//! assert_eq!(reader.next_value::<String>()?.as_deref(), Some("hi"));
//! assert_eq!(reader.next_variant()?, Some(Variant::Int(7)));
//! assert_eq!(reader.next_variant()?, None);
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! Files opened with `FileAccess.open_compressed` or `open_encrypted(_with_pass)` wrap these
//! bytes in another container: `container::open` (features `compression`, `crypto`) takes
//! them out for a `SaveReader`, and `container::seal` wraps a `SaveWriter`'s output again.

use crate::config::Config;
use crate::error::Result;
use crate::frame::{Framing, PREFIX_LEN};
use crate::value::Variant;
use serde::{Serialize, de::DeserializeOwned};
use std::io::{Read, Write};

/// Reads the values of a `store_var` file one by one (`FileAccess.get_var`).
///
/// Also an [`Iterator`] of `Result<Variant>`. A value that does not decode is an error, but
/// the reader moves on to the next value; an error in the framing itself (a truncated file,
/// a length over the maximum, an I/O error) ends the iteration.
///
/// ```
/// use godot_serde::{Config, save::SaveReader};
///
/// let file = [0x08, 0, 0, 0, 0x02, 0, 0, 0, 0x05, 0, 0, 0, 0x08, 0, 0]; // one value and a bit
/// let mut values = SaveReader::new(&file[..], Config::godot3());
/// assert_eq!(values.next().unwrap()?, 5.into());
/// let err = values.next().unwrap().unwrap_err();
/// assert_eq!(err.to_string(), "unexpected end of input, 1 more byte needed (byte 15)");
/// assert!(values.next().is_none());
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct SaveReader<R> {
    reader: R,
    framing: Framing,
    index: usize,
    offset: usize,
    done: bool,
}

impl<R: Read> SaveReader<R> {
    /// A reader of little-endian-prefixed values in `config`'s layout, each at most
    /// [`DEFAULT_MAX_FRAME_SIZE`](crate::frame::DEFAULT_MAX_FRAME_SIZE) bytes.
    pub fn new(reader: R, config: Config) -> Self {
        Self::with_framing(reader, Framing::new(config))
    }

    /// A reader with the given framing settings (e.g. big-endian prefixes for files written
    /// with `FileAccess.big_endian` / `File.endian_swap`, or a larger maximum value size).
    pub fn with_framing(reader: R, framing: Framing) -> Self {
        Self {
            reader,
            framing,
            index: 0,
            offset: 0,
            done: false,
        }
    }

    /// How many values were read so far (the index of the next one).
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The byte offset of the next value's length prefix in the file.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The next value, or `Ok(None)` at the end of the file.
    ///
    /// # Errors
    ///
    /// As [`Framing::read_payload`] (offsets are in the file) and
    /// [`Framing::decode_payload`] (offsets are inside the value).
    pub fn next_value<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        if self.done {
            return Ok(None);
        }
        let payload = match self.framing.read_payload(&mut self.reader) {
            Ok(Some(payload)) => payload,
            Ok(None) => {
                self.done = true;
                return Ok(None);
            }
            Err(e) => {
                self.done = true;
                let at = self.offset + e.offset().unwrap_or(0);
                return Err(relocate(e, at));
            }
        };
        self.index += 1;
        self.offset += PREFIX_LEN + payload.len();
        self.framing.decode_payload(&payload).map(Some)
    }

    /// [`SaveReader::next_value`] into a dynamic [`Variant`].
    ///
    /// # Errors
    ///
    /// As [`SaveReader::next_value`].
    pub fn next_variant(&mut self) -> Result<Option<Variant>> {
        self.next_value()
    }

    /// Reads every remaining value.
    ///
    /// # Errors
    ///
    /// The first error, as [`SaveReader::next_value`].
    pub fn read_all(mut self) -> Result<Vec<Variant>> {
        let mut out = Vec::new();
        while let Some(v) = self.next_variant()? {
            out.push(v);
        }
        Ok(out)
    }

    /// Gives back the underlying reader.
    pub fn into_inner(self) -> R {
        self.reader
    }
}

/// The same error at another offset.
fn relocate(e: crate::Error, at: usize) -> crate::Error {
    crate::Error::at(e.into_kind(), at)
}

impl<R: Read> Iterator for SaveReader<R> {
    type Item = Result<Variant>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_variant().transpose()
    }
}

/// Writes values as `FileAccess.store_var` does, one length-prefixed value after another.
///
/// Each value is encoded in memory and written with one `write_all`; wrap a `File` in a
/// `BufWriter` when writing many small values.
#[derive(Debug)]
pub struct SaveWriter<W> {
    writer: W,
    framing: Framing,
    buf: Vec<u8>,
}

impl<W: Write> SaveWriter<W> {
    /// A writer of little-endian-prefixed values in `config`'s layout.
    pub fn new(writer: W, config: Config) -> Self {
        Self::with_framing(writer, Framing::new(config))
    }

    /// A writer with the given framing settings.
    pub fn with_framing(writer: W, framing: Framing) -> Self {
        Self {
            writer,
            framing,
            buf: Vec::new(),
        }
    }

    /// Appends one value (`store_var(value)`).
    ///
    /// # Errors
    ///
    /// As [`Framing::to_bytes`], plus I/O errors. Nothing is written when encoding fails.
    pub fn write<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.buf.clear();
        self.framing.to_bytes_into(value, &mut self.buf)?;
        self.writer.write_all(&self.buf)?;
        Ok(())
    }

    /// Flushes the underlying writer.
    ///
    /// # Errors
    ///
    /// I/O errors.
    pub fn flush(&mut self) -> Result<()> {
        self.writer.flush()?;
        Ok(())
    }

    /// Gives back the underlying writer (not flushed).
    pub fn into_inner(self) -> W {
        self.writer
    }
}
