//! Framing: the 4-byte length prefix that `StreamPeer.put_var`, `FileAccess.store_var` and
//! `PacketPeerStream` put in front of a value, raw `PacketPeer` packets, and
//! [`FrameDecoder`], which gets whole values out of a byte stream fed in arbitrary chunks.
//!
//! | Godot call | Bytes | Here |
//! |---|---|---|
//! | `var_to_bytes(v)` / `var2bytes(v)` | the value | [`Config::to_bytes`] |
//! | `PacketPeer.put_var(v)` over UDP, ENet, WebSocket, WebRTC | one packet = the value | [`Framing::to_packet`], [`Framing::from_packet`] |
//! | `StreamPeer.put_var(v)` (TCP, TLS, `StreamPeerBuffer`) | `u32` length + the value | [`to_frame_bytes`], [`write_frame`], [`read_frame`], [`FrameDecoder`] |
//! | the same with `big_endian = true` | big-endian `u32` length + the value (still little-endian) | [`Framing::with_big_endian`] |
//! | `PacketPeerStream.put_var(v)` | little-endian `u32` length + the value, always | as `StreamPeer` |
//! | `FileAccess.store_var(v)` / `File.store_var(v)` | `u32` length + the value | [`save`](crate::save) |
//!
//! The length counts the value's bytes only, not the prefix itself:
//!
//! ```
//! use godot_serde::{Config, frame};
//!
//! // StreamPeer.put_var(1)
//! let bytes = frame::to_frame_bytes(&1, Config::godot4())?;
//! assert_eq!(godot_serde::dump::hex(&bytes), "08000000 02000000 01000000");
//!
//! // the same with StreamPeer.big_endian = true: only the prefix changes
//! let framing = frame::Framing::new(Config::godot4()).with_big_endian(true);
//! assert_eq!(godot_serde::dump::hex(&framing.to_bytes(&1)?), "00000008 02000000 01000000");
//!
//! // StreamPeer.get_var()
//! let value: i32 = frame::read_frame(&bytes[..], Config::godot4())?;
//! assert_eq!(value, 1);
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! TCP joins and splits frames freely: a `read` may return half a frame or three frames and a
//! bit. A blocking reader can call [`read_frame`] in a loop (it reads exactly one frame); a
//! non-blocking or event-driven one feeds what arrives to a [`FrameDecoder`]:
//!
//! ```
//! use godot_serde::{Config, frame::{self, FrameDecoder}};
//!
//! let mut stream = frame::to_frame_bytes(&"hello", Config::godot4())?;
//! stream.extend(frame::to_frame_bytes(&42, Config::godot4())?);
//!
//! let mut decoder = FrameDecoder::new(Config::godot4());
//! let (first, second) = stream.split_at(7); // arrives in two reads
//! decoder.feed(first);
//! assert_eq!(decoder.next::<String>()?, None); // incomplete
//! assert_eq!(decoder.missing_bytes(), 13); // "hello" is 16 bytes, 3 arrived
//! decoder.feed(second);
//! assert_eq!(decoder.next::<String>()?.as_deref(), Some("hello"));
//! assert_eq!(decoder.next::<i64>()?, Some(42));
//! assert_eq!(decoder.next::<i64>()?, None);
//! # Ok::<(), godot_serde::Error>(())
//! ```

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::value::Variant;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::io::{Read, Write};

/// The default maximum frame (and packet) size: 8 MiB, the default of Godot's
/// `PacketPeer.encode_buffer_max_size`. Larger frames are an [`ErrorKind::FrameTooLarge`].
pub const DEFAULT_MAX_FRAME_SIZE: usize = 8 * 1024 * 1024;

/// The size of the length prefix in front of each framed value.
pub const PREFIX_LEN: usize = 4;

/// Byte order of the length prefix. The value after it is always little-endian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Endian {
    /// Little-endian, Godot's default (and always for `PacketPeerStream`).
    #[default]
    Little,
    /// Big-endian, as written by a `StreamPeer` whose `big_endian` is true, or a `FileAccess`
    /// with `big_endian` (Godot 4) / a `File` with `endian_swap` (Godot 3).
    Big,
}

/// Framing settings: the engine layout ([`Config`]), the prefix byte order and the maximum
/// frame size. Cheap to copy; every framing function and type takes one (or a [`Config`],
/// meaning the defaults: little-endian, [`DEFAULT_MAX_FRAME_SIZE`]).
///
/// ```
/// use godot_serde::{Config, frame::Framing};
///
/// let framing = Framing::new(Config::godot3()).with_max_frame_size(1 << 16);
/// let bytes = framing.to_bytes(&"hi")?;          // File.store_var("hi") in Godot 3
/// assert_eq!(godot_serde::dump::hex(&bytes), "0c000000 04000000 02000000 68690000");
/// let (back, rest): (&str, _) = framing.take_from_bytes(&bytes)?;
/// assert_eq!((back, rest), ("hi", &[][..]));
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Framing {
    config: Config,
    endian: Endian,
    max_frame_size: usize,
}

impl Default for Framing {
    fn default() -> Self {
        Self::new(Config::default())
    }
}

impl From<Config> for Framing {
    fn from(config: Config) -> Self {
        Self::new(config)
    }
}

impl Framing {
    /// Little-endian prefixes, frames up to [`DEFAULT_MAX_FRAME_SIZE`], values in `config`'s
    /// layout.
    #[must_use]
    pub const fn new(config: Config) -> Self {
        Self {
            config,
            endian: Endian::Little,
            max_frame_size: DEFAULT_MAX_FRAME_SIZE,
        }
    }

    /// Returns these settings with the value layout `config`.
    #[must_use]
    pub const fn with_config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// Returns these settings with the prefix byte order `endian`.
    #[must_use]
    pub const fn with_endian(mut self, endian: Endian) -> Self {
        self.endian = endian;
        self
    }

    /// Big-endian prefixes when `big_endian` is true, mirroring `StreamPeer.big_endian`.
    #[must_use]
    pub const fn with_big_endian(self, big_endian: bool) -> Self {
        self.with_endian(if big_endian {
            Endian::Big
        } else {
            Endian::Little
        })
    }

    /// Returns these settings with frames (and packets) limited to `max` bytes, not counting
    /// the prefix. Applies to reading and writing.
    #[must_use]
    pub const fn with_max_frame_size(mut self, max: usize) -> Self {
        self.max_frame_size = max;
        self
    }

    /// The value layout.
    #[must_use]
    pub const fn config(&self) -> Config {
        self.config
    }

    /// The prefix byte order.
    #[must_use]
    pub const fn endian(&self) -> Endian {
        self.endian
    }

    /// The maximum frame size in bytes, not counting the prefix.
    #[must_use]
    pub const fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }

    /// The prefix announcing a value of `len` bytes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] when `len` exceeds the maximum frame size or `u32`.
    pub fn encode_prefix(&self, len: usize) -> Result<[u8; 4]> {
        let too_large = || {
            Error::new(ErrorKind::FrameTooLarge {
                len: len as u64,
                max: self.max_frame_size,
            })
        };
        if len > self.max_frame_size {
            return Err(too_large());
        }
        let len = u32::try_from(len).map_err(|_| too_large())?;
        Ok(match self.endian {
            Endian::Little => len.to_le_bytes(),
            Endian::Big => len.to_be_bytes(),
        })
    }

    /// The frame length a prefix announces.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] when it exceeds the maximum frame size.
    pub fn decode_prefix(&self, prefix: [u8; 4]) -> Result<usize> {
        let len = match self.endian {
            Endian::Little => u32::from_le_bytes(prefix),
            Endian::Big => u32::from_be_bytes(prefix),
        };
        match usize::try_from(len) {
            Ok(n) if n <= self.max_frame_size => Ok(n),
            _ => {
                let e = Error::new(ErrorKind::FrameTooLarge {
                    len: u64::from(len),
                    max: self.max_frame_size,
                });
                // A prefix of the other byte order (StreamPeer.big_endian on one side only)
                // reads as a huge length: say so when swapping gives one that fits a value.
                let swapped = len.swap_bytes();
                let fits =
                    usize::try_from(swapped).is_ok_and(|n| (4..=self.max_frame_size).contains(&n));
                Err(if fits {
                    e.with_swapped_prefix(swapped)
                } else {
                    e
                })
            }
        }
    }

    /// Encodes `value` as one frame: prefix, then the value (`StreamPeer.put_var`).
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`], plus [`ErrorKind::FrameTooLarge`].
    pub fn to_bytes<T: ?Sized + Serialize>(&self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.to_bytes_into(value, &mut out)?;
        Ok(out)
    }

    /// Appends one frame holding `value` to `buf`. On error `buf` is left as it was.
    ///
    /// # Errors
    ///
    /// As [`Framing::to_bytes`].
    pub fn to_bytes_into<T: ?Sized + Serialize>(&self, value: &T, buf: &mut Vec<u8>) -> Result<()> {
        let start = buf.len();
        buf.extend_from_slice(&[0; PREFIX_LEN]);
        let result = self
            .config
            .to_bytes_into(value, buf)
            .and_then(|()| self.encode_prefix(buf.len() - start - PREFIX_LEN));
        match result {
            Ok(prefix) => {
                if let Some(slot) = buf.get_mut(start..start + PREFIX_LEN) {
                    slot.copy_from_slice(&prefix);
                }
                Ok(())
            }
            Err(e) => {
                buf.truncate(start);
                Err(e)
            }
        }
    }

    /// Writes one frame holding `value` to `writer`, with a single `write_all`.
    ///
    /// # Errors
    ///
    /// As [`Framing::to_bytes`], plus I/O errors.
    pub fn write<W: Write, T: ?Sized + Serialize>(&self, mut writer: W, value: &T) -> Result<()> {
        let bytes = self.to_bytes(value)?;
        writer.write_all(&bytes)?;
        Ok(())
    }

    /// Reads one frame's payload: the prefix, then exactly that many bytes. `Ok(None)` when
    /// the reader is at its end before the first byte of the prefix (a clean end of stream).
    ///
    /// The length is checked against the maximum frame size before anything is allocated,
    /// and the buffer grows only as bytes arrive.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`]; [`ErrorKind::UnexpectedEof`] with the number of missing
    /// bytes when the reader ends inside the prefix or the payload; I/O errors.
    pub fn read_payload<R: Read>(&self, mut reader: R) -> Result<Option<Vec<u8>>> {
        let mut prefix = [0u8; PREFIX_LEN];
        let got = read_up_to(&mut reader, &mut prefix)?;
        if got == 0 {
            return Ok(None);
        }
        if got < PREFIX_LEN {
            return Err(Error::at(
                ErrorKind::UnexpectedEof {
                    needed: PREFIX_LEN - got,
                },
                got,
            ));
        }
        let len = self.decode_prefix(prefix)?;
        let mut payload = Vec::with_capacity(len.min(64 * 1024));
        let read = reader.take(len as u64).read_to_end(&mut payload)?;
        if read < len {
            return Err(Error::at(
                ErrorKind::UnexpectedEof { needed: len - read },
                PREFIX_LEN + read,
            ));
        }
        Ok(Some(payload))
    }

    /// Reads one frame and decodes its value (`StreamPeer.get_var`). Reads exactly the
    /// frame's bytes, so it can be called in a loop on a blocking stream.
    ///
    /// # Errors
    ///
    /// As [`Framing::read_payload`] (a clean end of stream is an [`ErrorKind::UnexpectedEof`]
    /// needing 4 bytes), plus [`Framing::decode_payload`]'s.
    pub fn read<R: Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        match self.read_payload(reader)? {
            Some(payload) => self.decode_payload(&payload),
            None => Err(Error::at(
                ErrorKind::UnexpectedEof { needed: PREFIX_LEN },
                0,
            )),
        }
    }

    /// [`Framing::read`] into a dynamic [`Variant`].
    ///
    /// # Errors
    ///
    /// As [`Framing::read`].
    pub fn read_variant<R: Read>(&self, reader: R) -> Result<Variant> {
        self.read(reader)
    }

    /// Decodes a complete frame's payload (the bytes after the prefix), which must hold
    /// exactly one value.
    ///
    /// # Errors
    ///
    /// As [`Config::from_bytes`], except that a value running past the end of the payload is
    /// [`ErrorKind::FrameTooShort`]: the payload is complete, so more input would not help.
    pub fn decode_payload<'de, T: Deserialize<'de>>(&self, payload: &'de [u8]) -> Result<T> {
        self.config
            .from_bytes(payload)
            .map_err(|e| frame_too_short(e, payload.len()))
    }

    /// Decodes one frame from the start of `bytes` and returns the value and the bytes after
    /// the frame. `&str` and `&[u8]` fields borrow from `bytes`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnexpectedEof`] with the number of missing bytes when `bytes` ends inside
    /// the frame; [`ErrorKind::FrameTooLarge`]; [`Framing::decode_payload`]'s errors.
    pub fn take_from_bytes<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
    ) -> Result<(T, &'de [u8])> {
        match split_frame(self, bytes)? {
            Split::Frame(payload, rest) => Ok((self.decode_payload(payload)?, rest)),
            Split::Missing(needed) => {
                Err(Error::at(ErrorKind::UnexpectedEof { needed }, bytes.len()))
            }
        }
    }

    /// Encodes `value` as one raw packet (`PacketPeer.put_var` over UDP, ENet, WebSocket or
    /// WebRTC): the value alone, no prefix.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`], plus [`ErrorKind::FrameTooLarge`] when the encoding exceeds
    /// the maximum frame size (Godot's `encode_buffer_max_size`, where `put_var` fails with
    /// `ERR_OUT_OF_MEMORY`).
    pub fn to_packet<T: ?Sized + Serialize>(&self, value: &T) -> Result<Vec<u8>> {
        let bytes = self.config.to_bytes(value)?;
        self.check_size(bytes.len())?;
        Ok(bytes)
    }

    /// Decodes one raw packet (`PacketPeer.get_var`), which must hold exactly one value.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] when the packet exceeds the maximum frame size; as
    /// [`Framing::decode_payload`] otherwise.
    pub fn from_packet<'de, T: Deserialize<'de>>(&self, packet: &'de [u8]) -> Result<T> {
        self.check_size(packet.len())?;
        self.decode_payload(packet)
    }

    fn check_size(&self, len: usize) -> Result<()> {
        if len > self.max_frame_size {
            return Err(Error::new(ErrorKind::FrameTooLarge {
                len: len as u64,
                max: self.max_frame_size,
            }));
        }
        Ok(())
    }
}

/// A value that reached past the end of a complete payload: the prefix was wrong.
fn frame_too_short(e: Error, len: usize) -> Error {
    let needed = match e.kind() {
        ErrorKind::UnexpectedEof { needed } => *needed,
        // A count of items of at least one byte each: at least this many more bytes.
        ErrorKind::LengthTooLarge { len, remaining, .. } => {
            usize::try_from(*len).map_or(usize::MAX, |len| len.saturating_sub(*remaining).max(1))
        }
        _ => return e,
    };
    let kind = ErrorKind::FrameTooShort { len, needed };
    match e.offset() {
        Some(offset) => Error::at(kind, offset),
        None => Error::new(kind),
    }
}

/// Reads until `buf` is full or the reader ends; returns how many bytes were read.
fn read_up_to<R: Read>(reader: &mut R, buf: &mut [u8]) -> Result<usize> {
    let mut got = 0;
    while let Some(rest) = buf.get_mut(got..) {
        if rest.is_empty() {
            break;
        }
        match reader.read(rest) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(got)
}

pub(crate) enum Split<'a> {
    /// A complete frame: its payload and the bytes after it.
    Frame(&'a [u8], &'a [u8]),
    /// Incomplete: at least this many more bytes are needed.
    Missing(usize),
}

/// Splits the first frame off `bytes`, checking its length against the maximum.
pub(crate) fn split_frame<'a>(framing: &Framing, bytes: &'a [u8]) -> Result<Split<'a>> {
    let Some((prefix, rest)) = bytes.split_first_chunk::<PREFIX_LEN>() else {
        return Ok(Split::Missing(PREFIX_LEN - bytes.len()));
    };
    let len = framing.decode_prefix(*prefix)?;
    Ok(match rest.split_at_checked(len) {
        Some((payload, rest)) => Split::Frame(payload, rest),
        None => Split::Missing(len - rest.len()),
    })
}

/// Encodes `value` as one little-endian-prefixed frame (`StreamPeer.put_var`,
/// `FileAccess.store_var`, `PacketPeerStream.put_var`). See [`Framing::to_bytes`] for other
/// settings.
///
/// # Errors
///
/// As [`Framing::to_bytes`].
pub fn to_frame_bytes<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<Vec<u8>> {
    Framing::new(config).to_bytes(value)
}

/// Writes `value` to `writer` as one little-endian-prefixed frame. See [`Framing::write`].
///
/// # Errors
///
/// As [`Framing::write`].
pub fn write_frame<W: Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    config: Config,
) -> Result<()> {
    Framing::new(config).write(writer, value)
}

/// Reads one little-endian-prefixed frame of at most [`DEFAULT_MAX_FRAME_SIZE`] bytes from
/// `reader` and decodes its value (`StreamPeer.get_var`). See [`Framing::read`].
///
/// # Errors
///
/// As [`Framing::read`].
pub fn read_frame<R: Read, T: DeserializeOwned>(reader: R, config: Config) -> Result<T> {
    Framing::new(config).read(reader)
}

/// Gets whole values out of a byte stream that arrives in arbitrary chunks: one byte at a
/// time, several frames at once, or a frame split anywhere.
///
/// [`feed`](FrameDecoder::feed) it what the socket returned, then call
/// [`next`](FrameDecoder::next) (typed) or [`next_variant`](FrameDecoder::next_variant) until
/// they return `Ok(None)`.
///
/// - A frame longer than the maximum frame size is [`ErrorKind::FrameTooLarge`] as soon as its
///   prefix arrives, before anything is buffered for it. The stream cannot be resynchronized
///   after that: the decoder keeps returning the error.
/// - A complete frame whose value does not decode (malformed, wrong type for `T`) is an error
///   too, but the frame is consumed: the next call continues with the next frame.
/// - The buffer is bounded: [`feed`](FrameDecoder::feed) refuses bytes (and
///   [`try_feed`](FrameDecoder::try_feed) says so) while the maximum frame size plus the
///   prefix is already buffered, which only happens when whole frames are waiting to be taken,
///   or while the frame at the front is too large. So the decoder never holds more than the
///   maximum frame size, plus the prefix, plus the last chunk fed (twice that while it moves
///   its bytes), however much a peer sends.
/// - At the end of the stream, [`finish`](FrameDecoder::finish) reports a truncated last frame
///   and how many bytes it misses; [`missing_bytes`](FrameDecoder::missing_bytes) tells it at
///   any time.
///
/// ```
/// use godot_serde::{Config, Variant, frame::{self, FrameDecoder}};
///
/// let stream = frame::to_frame_bytes(&("move", 3), Config::godot4())?;
/// let mut decoder = FrameDecoder::new(Config::godot4());
/// for byte in &stream[..stream.len() - 1] {
///     decoder.feed(&[*byte]);               // one byte at a time
///     assert!(decoder.next_variant()?.is_none());
/// }
/// assert_eq!(decoder.missing_bytes(), 1);
/// assert_eq!(decoder.finish().unwrap_err().to_string(), "unexpected end of input, 1 more byte needed (byte 31)");
/// decoder.feed(&stream[stream.len() - 1..]);
/// let value = decoder.next_variant()?.unwrap();
/// assert_eq!(value[0].as_str(), Some("move"));
/// decoder.finish()?;
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct FrameDecoder {
    framing: Framing,
    buf: Vec<u8>,
    /// Start of the unconsumed bytes in `buf`.
    start: usize,
    /// Bytes consumed before `buf[0]`, for error offsets.
    consumed: usize,
    /// Bytes [`feed`](FrameDecoder::feed) refused, and how many were buffered then: once the
    /// buffered frames are taken, the stream has a gap, reported by every later call.
    refused: Option<(usize, usize)>,
}

impl FrameDecoder {
    /// A decoder for little-endian-prefixed frames of at most [`DEFAULT_MAX_FRAME_SIZE`]
    /// bytes holding values in `config`'s layout.
    #[must_use]
    pub fn new(config: Config) -> Self {
        Self::with_framing(Framing::new(config))
    }

    /// A decoder with the given framing settings.
    #[must_use]
    pub fn with_framing(framing: Framing) -> Self {
        Self {
            framing,
            buf: Vec::new(),
            start: 0,
            consumed: 0,
            refused: None,
        }
    }

    /// Returns this decoder with frames limited to `max` bytes (not counting the prefix).
    #[must_use]
    pub fn with_max_frame_size(mut self, max: usize) -> Self {
        self.framing = self.framing.with_max_frame_size(max);
        self
    }

    /// Returns this decoder reading big-endian prefixes when `big_endian` is true
    /// (`StreamPeer.big_endian`).
    #[must_use]
    pub fn with_big_endian(mut self, big_endian: bool) -> Self {
        self.framing = self.framing.with_big_endian(big_endian);
        self
    }

    /// The framing settings.
    #[must_use]
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Appends bytes received from the stream.
    ///
    /// Bytes [`try_feed`](FrameDecoder::try_feed) refuses are dropped; the frames buffered
    /// before them can still be taken, then [`next`](FrameDecoder::next) and
    /// [`next_frame`](FrameDecoder::next_frame) report [`ErrorKind::BufferFull`] for good
    /// (the stream has a gap), or [`ErrorKind::FrameTooLarge`] when that was the cause.
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.try_feed(bytes).is_err() && self.refused.is_none() {
            self.refused = Some((bytes.len(), self.buffered()));
        }
    }

    /// The most bytes buffered before [`try_feed`](FrameDecoder::try_feed) refuses more:
    /// one whole frame of the maximum size with its prefix.
    #[must_use]
    pub fn buffer_limit(&self) -> usize {
        self.framing.max_frame_size.saturating_add(PREFIX_LEN)
    }

    /// Appends bytes received from the stream, unless [`buffer_limit`](Self::buffer_limit)
    /// bytes are already buffered (whole frames wait to be taken: call
    /// [`next`](FrameDecoder::next) first) or the frame at the front is too large. An empty
    /// `bytes` is always accepted.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BufferFull`] or [`ErrorKind::FrameTooLarge`]; nothing is buffered then.
    pub fn try_feed(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let buffered = self.buffered();
        let offset = self.consumed + self.start;
        let pending = self.buf.get(self.start..).unwrap_or_default();
        split_frame(&self.framing, pending).map_err(|e| e.or_at(offset))?;
        if self.refused.is_some() || buffered >= self.buffer_limit() {
            return Err(Error::at(
                ErrorKind::BufferFull {
                    refused: bytes.len(),
                    buffered,
                    limit: self.buffer_limit(),
                },
                self.consumed + self.buf.len(),
            ));
        }
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.consumed += self.start;
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// Bytes fed but not yet returned as frames.
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// How many more bytes the frame at the front needs: 0 when nothing is buffered or a
    /// whole frame is. While the prefix itself is incomplete, the bytes needed to complete
    /// it (the value's length is not known yet). A frame too large gives its full remaining
    /// length too; [`next`](FrameDecoder::next) reports it as an error.
    #[must_use]
    pub fn missing_bytes(&self) -> usize {
        let pending = self.buf.get(self.start..).unwrap_or_default();
        if pending.is_empty() {
            return 0;
        }
        match pending.split_first_chunk::<PREFIX_LEN>() {
            None => PREFIX_LEN - pending.len(),
            Some((prefix, rest)) => {
                let len = match self.framing.endian {
                    Endian::Little => u32::from_le_bytes(*prefix),
                    Endian::Big => u32::from_be_bytes(*prefix),
                } as usize;
                len.saturating_sub(rest.len())
            }
        }
    }

    /// The next complete frame's payload (without the prefix), or `Ok(None)` if no whole
    /// frame is buffered yet.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`], at the stream offset of the frame's prefix.
    pub fn next_frame(&mut self) -> Result<Option<&[u8]>> {
        let offset = self.consumed + self.start;
        let pending = self.buf.get(self.start..).unwrap_or_default();
        match split_frame(&self.framing, pending).map_err(|e| e.or_at(offset))? {
            Split::Missing(_) => match self.refused {
                Some((refused, buffered)) => Err(Error::at(
                    ErrorKind::BufferFull {
                        refused,
                        buffered,
                        limit: self.buffer_limit(),
                    },
                    self.consumed + self.buf.len(),
                )),
                None => Ok(None),
            },
            Split::Frame(payload, _) => {
                let begin = self.start + PREFIX_LEN;
                let end = begin + payload.len();
                self.start = end;
                Ok(self.buf.get(begin..end))
            }
        }
    }

    /// The next complete value, or `Ok(None)` if no whole frame is buffered yet.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](FrameDecoder::next_frame), plus [`Framing::decode_payload`]'s
    /// errors (the frame is consumed then). Decoding errors carry the offset inside the
    /// frame's payload.
    #[allow(clippy::should_implement_trait)]
    pub fn next<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        let framing = self.framing;
        match self.next_frame()? {
            Some(payload) => framing.decode_payload(payload).map(Some),
            None => Ok(None),
        }
    }

    /// [`next`](FrameDecoder::next) into a dynamic [`Variant`].
    ///
    /// # Errors
    ///
    /// As [`next`](FrameDecoder::next).
    pub fn next_variant(&mut self) -> Result<Option<Variant>> {
        self.next()
    }

    /// Checks that the stream ended on a frame boundary: `Ok` when nothing is buffered.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnexpectedEof`] with [`missing_bytes`](FrameDecoder::missing_bytes) and
    /// the stream offset where the input ended, when a frame is incomplete; a buffered whole
    /// frame that was not taken is reported as an [`ErrorKind::TrailingBytes`]; bytes
    /// [`feed`](FrameDecoder::feed) refused as [`ErrorKind::BufferFull`].
    pub fn finish(&self) -> Result<()> {
        let buffered = self.buffered();
        if let Some((refused, at)) = self.refused {
            return Err(Error::at(
                ErrorKind::BufferFull {
                    refused,
                    buffered: at,
                    limit: self.buffer_limit(),
                },
                self.consumed + self.buf.len(),
            ));
        }
        if buffered == 0 {
            return Ok(());
        }
        let end = self.consumed + self.buf.len();
        match self.missing_bytes() {
            0 => Err(Error::at(
                ErrorKind::TrailingBytes { count: buffered },
                end - buffered,
            )),
            needed => Err(Error::at(ErrorKind::UnexpectedEof { needed }, end)),
        }
    }
}
