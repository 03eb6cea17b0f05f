//! tokio integration (feature `tokio`): [`GodotCodec`], a `tokio_util::codec` Encoder/Decoder
//! for length-prefixed values, and async [`Framing::read_async`] / [`Framing::write_async`].
//!
//! ```
//! use futures_util::{SinkExt, StreamExt};
//! use godot_serde::{Config, codec::GodotCodec};
//! use tokio_util::codec::Framed;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! // Two ends of a connection; a TcpStream works the same way.
//! let (client, server) = tokio::io::duplex(1024);
//! let mut client = Framed::new(client, GodotCodec::<String>::new(Config::godot4()));
//! let mut server = Framed::new(server, GodotCodec::<(String, i32)>::new(Config::godot4()));
//!
//! client.send(("move", 3)).await?;           // any Serialize value: StreamPeer.put_var
//! client.send("not a pair").await?;          // well framed, but not a (String, i32)
//! client.send(("jump", 1)).await?;
//! // Each item is a Result: Err(stream error, the stream is over) or Ok(message), where the
//! // message (a `Message<T>`) is Ok(value) or Err(this one message did not decode, the stream
//! // goes on).
//! let msg = server.next().await.unwrap()??;  // a (String, i32): StreamPeer.get_var
//! assert_eq!(msg, ("move".to_string(), 3));
//! let bad = server.next().await.unwrap()?;
//! assert!(bad.is_err());                     // log it, answer the client, carry on
//! assert_eq!(server.next().await.unwrap()??, ("jump".to_string(), 1));
//! server.send("ok").await?;
//! assert_eq!(client.next().await.unwrap()??, "ok");
//! # Ok::<(), godot_serde::Error>(())
//! # }).unwrap();
//! ```
//!
//! # Which errors end the stream
//!
//! tokio-util's `Framed` ends a stream at the first error its decoder returns, so
//! [`GodotCodec`] returns an error only when the byte stream itself is broken:
//!
//! - **Fatal** (the `Err` of the stream item; `Framed` yields nothing after it): a length
//!   prefix over the maximum frame size ([`ErrorKind::FrameTooLarge`]; the rest of the
//!   stream cannot be framed any more), a stream that ends inside a frame
//!   ([`ErrorKind::UnexpectedEof`]), and I/O errors.
//! - **Per message** (`Ok(Err(e))`, the stream goes on with the next frame): a complete frame
//!   whose payload does not decode as `T`: a value of the wrong shape, malformed bytes, a
//!   value that needs more bytes than its frame holds ([`ErrorKind::FrameTooShort`]),
//!   trailing bytes after the value. The frame is consumed whole, so the next frame starts
//!   where its length prefix said.

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::frame::{Framing, PREFIX_LEN, Split, split_frame};
use crate::value::Variant;
use bytes::{Buf, BytesMut};
use core::marker::PhantomData;
use serde::{Serialize, de::DeserializeOwned};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::{Decoder, Encoder};

/// One message of a [`GodotCodec`] stream, the codec's `Decoder::Item`: `Ok(value)`, or
/// `Err(e)` when this one well-framed message did not decode as `T` (the stream goes on
/// with the next frame).
///
/// `Framed::next()` yields `Option<Result<Message<T>>>`: `None` when the peer closed the
/// connection, an outer `Err` when the stream cannot go on (see [which errors end the
/// stream](self#which-errors-end-the-stream)). So a server loop reads:
///
/// ```
/// # #[cfg(feature = "tokio")]
/// # async fn serve<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
/// #     io: S,
/// # ) -> godot_serde::Result<()> {
/// use futures_util::StreamExt;
/// use godot_serde::codec::{GodotCodec, Message};
/// use godot_serde::{Config, Variant};
///
/// let mut framed = tokio_util::codec::Framed::new(io, GodotCodec::<Variant>::new(Config::godot4()));
/// while let Some(item) = framed.next().await {
///     let message: Message<Variant> = item?; // a broken stream: the connection is over
///     match message {
///         Ok(value) => println!("got {value}"),
///         Err(e) => eprintln!("skipped a message: {e}"), // one bad message: carry on
///     }
/// }
/// # Ok(())
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub type Message<T> = Result<T>;

/// A `tokio_util::codec` Encoder/Decoder for values framed as `StreamPeer.put_var` writes
/// them: use it with `Framed`, `FramedRead` and `FramedWrite` on a `TcpStream`.
///
/// Decodes `T` (a [`Variant`] by default); encodes any `Serialize` value, including `&T`.
/// Each decoded item is a [`Message<T>`], a `Result<T>`: a well-framed message that does not
/// decode is an `Err` item and the stream goes on (see [which errors end the
/// stream](self#which-errors-end-the-stream)).
/// Frames over the maximum frame size are an [`ErrorKind::FrameTooLarge`] as soon as their
/// prefix arrives, and the buffer grows only as bytes arrive. A stream that ends inside a
/// frame is an [`ErrorKind::UnexpectedEof`] saying how many bytes are missing.
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
#[derive(Debug)]
pub struct GodotCodec<T = Variant> {
    framing: Framing,
    scratch: Vec<u8>,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Clone for GodotCodec<T> {
    fn clone(&self) -> Self {
        Self::with_framing(self.framing)
    }
}

impl<T> Default for GodotCodec<T> {
    fn default() -> Self {
        Self::new(Config::default())
    }
}

impl<T> GodotCodec<T> {
    /// A codec for little-endian-prefixed frames of at most
    /// [`DEFAULT_MAX_FRAME_SIZE`](crate::frame::DEFAULT_MAX_FRAME_SIZE) bytes holding
    /// values in `config`'s layout.
    #[must_use]
    pub fn new(config: Config) -> Self {
        Self::with_framing(Framing::new(config))
    }

    /// A codec with the given framing settings (prefix byte order, maximum frame size).
    #[must_use]
    pub fn with_framing(framing: Framing) -> Self {
        Self {
            framing,
            scratch: Vec::new(),
            _marker: PhantomData,
        }
    }

    /// The framing settings.
    #[must_use]
    pub fn framing(&self) -> Framing {
        self.framing
    }
}

/// How much to reserve at most ahead of bytes actually arriving.
const RESERVE_LIMIT: usize = 64 * 1024;

/// `Item`: one message, `Ok(value)` or the error of a frame that did not decode (the stream
/// goes on); `Error`: the stream cannot go on (oversized or truncated frame, I/O).
impl<T: DeserializeOwned> Decoder for GodotCodec<T> {
    type Item = Message<T>;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Message<T>>> {
        let len = match split_frame(&self.framing, src)? {
            Split::Missing(needed) => {
                src.reserve(needed.min(RESERVE_LIMIT));
                return Ok(None);
            }
            Split::Frame(payload, _) => payload.len(),
        };
        src.advance(PREFIX_LEN);
        let payload = src.split_to(len);
        Ok(Some(self.framing.decode_payload(&payload)))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Message<T>>> {
        match self.decode(src)? {
            Some(value) => Ok(Some(value)),
            None if src.is_empty() => Ok(None),
            None => {
                let needed = match split_frame(&self.framing, src)? {
                    Split::Missing(needed) => needed,
                    Split::Frame(..) => 0,
                };
                Err(Error::new(ErrorKind::UnexpectedEof { needed }))
            }
        }
    }
}

impl<T, I: Serialize> Encoder<I> for GodotCodec<T> {
    type Error = Error;

    fn encode(&mut self, item: I, dst: &mut BytesMut) -> Result<()> {
        self.scratch.clear();
        self.framing.to_bytes_into(&item, &mut self.scratch)?;
        dst.extend_from_slice(&self.scratch);
        Ok(())
    }
}

impl Framing {
    /// Reads one frame's payload from an async reader, as [`Framing::read_payload`] does.
    ///
    /// # Errors
    ///
    /// As [`Framing::read_payload`].
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub async fn read_payload_async<R: AsyncRead + Unpin>(
        &self,
        reader: &mut R,
    ) -> Result<Option<Vec<u8>>> {
        let mut prefix = [0u8; PREFIX_LEN];
        let mut got = 0;
        while let Some(rest) = prefix.get_mut(got..) {
            if rest.is_empty() {
                break;
            }
            match reader.read(rest).await? {
                0 if got == 0 => return Ok(None),
                0 => {
                    return Err(Error::at(
                        ErrorKind::UnexpectedEof {
                            needed: PREFIX_LEN - got,
                        },
                        got,
                    ));
                }
                n => got += n,
            }
        }
        let len = self.decode_prefix(prefix)?;
        let mut payload = Vec::with_capacity(len.min(RESERVE_LIMIT));
        let read = reader.take(len as u64).read_to_end(&mut payload).await?;
        if read < len {
            return Err(Error::at(
                ErrorKind::UnexpectedEof { needed: len - read },
                PREFIX_LEN + read,
            ));
        }
        Ok(Some(payload))
    }

    /// Reads one frame from an async reader and decodes its value (`StreamPeer.get_var`).
    ///
    /// ```
    /// use godot_serde::{Config, frame::Framing};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let framing = Framing::new(Config::godot4());
    /// let (mut a, mut b) = tokio::io::duplex(64);
    /// framing.write_async(&mut a, "hi").await?;
    /// let s: String = framing.read_async(&mut b).await?;
    /// assert_eq!(s, "hi");
    /// # Ok::<(), godot_serde::Error>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Framing::read`].
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub async fn read_async<R: AsyncRead + Unpin, T: DeserializeOwned>(
        &self,
        reader: &mut R,
    ) -> Result<T> {
        match self.read_payload_async(reader).await? {
            Some(payload) => self.decode_payload(&payload),
            None => Err(Error::at(
                ErrorKind::UnexpectedEof { needed: PREFIX_LEN },
                0,
            )),
        }
    }

    /// Writes one frame holding `value` to an async writer (`StreamPeer.put_var`).
    ///
    /// # Errors
    ///
    /// As [`Framing::write`].
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub async fn write_async<W: AsyncWrite + Unpin, T: ?Sized + Serialize>(
        &self,
        writer: &mut W,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_bytes(value)?;
        writer.write_all(&bytes).await?;
        Ok(())
    }
}
