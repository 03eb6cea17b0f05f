//! The remote debugger's wire: a TCP stream of `u32` little-endian length + `encode_variant`
//! value, in both directions. Sans IO: bytes in, [`RawMessage`]s out; [`RawMessage`]s in,
//! bytes out.
//!
//! | Engine | One message is | Example |
//! |---|---|---|
//! | Godot 4 | one frame holding `[name, thread_id, data: Array]` | `["output", 1, [PackedStringArray("hi"), PackedInt32Array(0)]]` |
//! | Godot 3.2 | a frame holding `name`, a frame holding the item count `n`, then `n` frames | `"output"`, `1`, `["hi", 0]` |
//!
//! Commands to the game have the same shape in Godot 4 (`[name, thread_id, data]`); in
//! Godot 3.2 a command is one frame holding `[name, args...]`.

use godot_serde::frame::{FrameDecoder, Framing};
use godot_serde::{Config, DEFAULT_MAX_DEPTH, Variant};

/// Which engine's dialect a connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Godot 4 (checked live against 4.6): thread-aware `[name, thread_id, data]` messages.
    Godot4,
    /// Godot 3.2 (checked live against 3.2.3): name, count and items as separate frames.
    Godot3,
}

impl Protocol {
    /// The format crate's layout for this engine, with objects decoded as data (the engine
    /// sends `EncodedObjectAsID` objects for `self` and node variables; nothing is
    /// instantiated).
    #[must_use]
    pub fn config(self, max_depth: usize) -> Config {
        let config = match self {
            Protocol::Godot4 => Config::godot4(),
            Protocol::Godot3 => Config::godot3(),
        };
        config.with_allow_objects(true).with_max_depth(max_depth)
    }
}

/// The thread id Godot 4 gives its main thread (`Thread::MAIN_ID`): every message the engine
/// sends from the main thread carries it, and commands outside a break go to it.
pub const MAIN_THREAD: i64 = 1;

/// The default largest frame accepted from a game: 16 MiB. A larger length prefix ends the
/// connection (the stream cannot be resynchronised).
pub const DEFAULT_MAX_FRAME_SIZE: usize = 16 * 1024 * 1024;

/// The default largest number of items in one Godot 3 message (its count frame), and of
/// `stack_frame_var` messages one Godot 4 `stack_frame_vars` announces: 65,536.
pub const DEFAULT_MAX_ITEMS: usize = 65_536;

/// The default largest size of one message made of several frames (a Godot 3 message: name,
/// count and items; Godot 4's `stack_frame_vars` with its `stack_frame_var`s), prefixes
/// included: 16 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 16 * 1024 * 1024;

/// What a game may make this side hold or do. Every bound has a default; see the README's
/// "Security and limits".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest frame (the value after the length prefix), [`DEFAULT_MAX_FRAME_SIZE`]. At most
    /// one frame of this size plus one read (64 KiB) is buffered.
    pub max_frame_size: usize,
    /// Deepest nesting of a value, the format crate's [`DEFAULT_MAX_DEPTH`].
    pub max_depth: usize,
    /// Most items in one message ([`DEFAULT_MAX_ITEMS`]).
    pub max_items: usize,
    /// Most bytes of frames gathered into one message ([`DEFAULT_MAX_MESSAGE_SIZE`]).
    pub max_message_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_size: DEFAULT_MAX_FRAME_SIZE,
            max_depth: DEFAULT_MAX_DEPTH,
            max_items: DEFAULT_MAX_ITEMS,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
        }
    }
}

/// One message as it travels: its name, the sending thread (Godot 4 only) and its data.
#[derive(Debug, PartialEq)]
pub struct RawMessage {
    /// The message name, e.g. `"output"` or `"scene:scene_tree"`.
    pub name: String,
    /// The thread id (Godot 4); `None` for Godot 3.
    pub thread: Option<i64>,
    /// The data items.
    pub data: Vec<Variant>,
    /// The bytes it arrived in, prefixes included (0 for a message built here).
    pub size: usize,
}

/// A frame or message the game sent that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// What was wrong, e.g. the format crate's decoding error.
    pub message: String,
    /// Byte offset in the stream from the game where the bad frame's prefix starts.
    pub offset: Option<usize>,
    /// Whether the stream is lost (a frame too large: nothing after it can be framed).
    pub fatal: bool,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{} (stream offset {offset})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for WireError {}

/// Where a Godot 3 message is in its three parts.
#[derive(Debug)]
enum Pending3 {
    /// Waiting for the name frame.
    Name,
    /// Have the name; waiting for the count frame.
    Count(String),
    /// Have the name and count; `items` so far, and the bytes of the message so far.
    Items(String, usize, Vec<Variant>, usize),
    /// Dropping the rest of a message over [`Limits::max_message_size`]: the items left.
    Skip(usize),
}

/// Bytes from the game in, [`RawMessage`]s out.
#[derive(Debug)]
pub struct Decoder {
    protocol: Protocol,
    limits: Limits,
    frames: FrameDecoder,
    pending: Pending3,
    /// Stream offset of the next frame's prefix.
    offset: usize,
    /// Set once the stream is lost.
    lost: bool,
}

impl Decoder {
    /// A decoder for `protocol` with `limits`.
    #[must_use]
    pub fn new(protocol: Protocol, limits: Limits) -> Self {
        let framing = Framing::new(protocol.config(limits.max_depth))
            .with_max_frame_size(limits.max_frame_size);
        Decoder {
            protocol,
            limits,
            frames: FrameDecoder::with_framing(framing),
            pending: Pending3::Name,
            offset: 0,
            lost: false,
        }
    }

    /// The dialect.
    #[must_use]
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Whether the frames taken so far end a message (or a skipped one): no Godot 3 message
    /// is part-way gathered or skipped.
    #[must_use]
    pub fn between_messages(&self) -> bool {
        matches!(self.pending, Pending3::Name)
    }

    /// Bytes still needed for the frame at the front (0 when none is started).
    #[must_use]
    pub fn missing_bytes(&self) -> usize {
        self.frames.missing_bytes()
    }

    /// Appends bytes received from the game.
    ///
    /// # Errors
    ///
    /// A fatal [`WireError`] when the frame at the front is larger than
    /// [`Limits::max_frame_size`], or more than one such frame is buffered.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), WireError> {
        if self.lost {
            return Err(self.lost_error());
        }
        self.frames.try_feed(bytes).map_err(|e| {
            self.lost = true;
            WireError {
                message: e.kind().to_string(),
                offset: e.offset(),
                fatal: true,
            }
        })
    }

    fn lost_error(&self) -> WireError {
        WireError {
            message: "the stream was lost at an earlier frame".into(),
            offset: Some(self.offset),
            fatal: true,
        }
    }

    /// The next whole message, `Ok(None)` when more bytes are needed.
    ///
    /// # Errors
    ///
    /// A [`WireError`]: not fatal for a frame that does not decode or has the wrong shape (it
    /// is skipped, and for Godot 3 the message it belonged to is dropped), fatal when the
    /// stream is lost.
    pub fn next_message(&mut self) -> Result<Option<RawMessage>, WireError> {
        loop {
            if self.lost {
                return Err(self.lost_error());
            }
            let at = self.offset;
            let (value, size) = match self.frames.next_frame() {
                Ok(None) => return Ok(None),
                Ok(Some(payload)) => {
                    let size = payload.len() + 4;
                    self.offset += size;
                    let config = self.protocol.config(self.limits.max_depth);
                    (config.variant_from_bytes(payload), size)
                }
                Err(e) => {
                    self.lost = true;
                    return Err(WireError {
                        message: e.kind().to_string(),
                        offset: e.offset().or(Some(at)),
                        fatal: true,
                    });
                }
            };
            let value = match value {
                Ok(value) => value,
                Err(e) => {
                    // An item that does not decode drops its Godot 3 message: the rest of
                    // its items are skipped, so that none is read as a message name.
                    self.pending = match std::mem::replace(&mut self.pending, Pending3::Name) {
                        Pending3::Items(_, n, items, _) if n > items.len() + 1 => {
                            Pending3::Skip(n - items.len() - 1)
                        }
                        Pending3::Skip(left) if left > 1 => Pending3::Skip(left - 1),
                        _ => Pending3::Name,
                    };
                    return Err(bad(at, format!("undecodable frame: {e}")));
                }
            };
            match self.protocol {
                Protocol::Godot4 => return message4(value, at, size).map(Some),
                Protocol::Godot3 => {
                    if let Some(message) = self.step3(value, at, size)? {
                        return Ok(Some(message));
                    }
                }
            }
        }
    }

    /// One Godot 3 frame into the message being assembled.
    fn step3(
        &mut self,
        value: Variant,
        at: usize,
        size: usize,
    ) -> Result<Option<RawMessage>, WireError> {
        match std::mem::replace(&mut self.pending, Pending3::Name) {
            Pending3::Skip(left) => {
                if left > 1 {
                    self.pending = Pending3::Skip(left - 1);
                }
                Ok(None)
            }
            Pending3::Name => match value {
                Variant::String(name) => {
                    self.pending = Pending3::Count(name.to_string());
                    Ok(None)
                }
                other => Err(bad(
                    at,
                    format!(
                        "expected a message name (String), got {:?}",
                        other.variant_type()
                    ),
                )),
            },
            Pending3::Count(name) => {
                let count = value.as_int().and_then(|n| usize::try_from(n).ok());
                match count {
                    Some(0) => Ok(Some(RawMessage {
                        name,
                        thread: None,
                        data: Vec::new(),
                        size: 0,
                    })),
                    Some(n) if n <= self.limits.max_items => {
                        self.pending = Pending3::Items(name, n, Vec::new(), size);
                        Ok(None)
                    }
                    Some(n) => Err(bad(
                        at,
                        format!(
                            "message {name:?} announces {n} items, over the limit of {}",
                            self.limits.max_items
                        ),
                    )),
                    None => Err(bad(
                        at,
                        format!("message {name:?}: expected an item count, got {value:?}"),
                    )),
                }
            }
            Pending3::Items(name, n, mut items, bytes) => {
                let bytes = bytes.saturating_add(size);
                if bytes > self.limits.max_message_size {
                    let left = n - items.len() - 1;
                    if left > 0 {
                        self.pending = Pending3::Skip(left);
                    }
                    return Err(bad(
                        at,
                        format!(
                            "message {name:?} is over the limit of {} bytes; its {left} \
                             remaining items are skipped",
                            self.limits.max_message_size
                        ),
                    ));
                }
                items.push(value);
                if items.len() == n {
                    Ok(Some(RawMessage {
                        name,
                        thread: None,
                        data: items,
                        size: bytes,
                    }))
                } else {
                    self.pending = Pending3::Items(name, n, items, bytes);
                    Ok(None)
                }
            }
        }
    }
}

fn bad(offset: usize, message: String) -> WireError {
    WireError {
        message,
        offset: Some(offset),
        fatal: false,
    }
}

/// A Godot 4 frame's value as a message: `[String name, int thread, Array data]`.
fn message4(value: Variant, at: usize, size: usize) -> Result<RawMessage, WireError> {
    let Variant::Array(array) = value else {
        return Err(bad(
            at,
            format!("expected an Array, got {:?}", value.variant_type()),
        ));
    };
    let mut items = array.items.into_iter();
    match (items.next(), items.next(), items.next(), items.next()) {
        (
            Some(Variant::String(name)),
            Some(Variant::Int(thread)),
            Some(Variant::Array(data)),
            None,
        ) => Ok(RawMessage {
            name: name.to_string(),
            thread: Some(thread),
            data: data.items,
            size,
        }),
        _ => Err(bad(
            at,
            "expected [name: String, thread: int, data: Array]".into(),
        )),
    }
}

/// The bytes of one message to the game (a command), framed.
///
/// # Errors
///
/// The format crate's error when a data item cannot be written in the engine's layout (e.g. a
/// Vector2i to Godot 3).
pub fn encode(protocol: Protocol, message: RawMessage) -> Result<Vec<u8>, godot_serde::Error> {
    let config = protocol.config(DEFAULT_MAX_DEPTH);
    let value = match protocol {
        Protocol::Godot4 => Variant::from(vec![
            Variant::from(message.name.as_str()),
            Variant::Int(message.thread.unwrap_or(MAIN_THREAD)),
            Variant::from(message.data),
        ]),
        Protocol::Godot3 => {
            let mut items = Vec::with_capacity(message.data.len() + 1);
            items.push(Variant::from(message.name.as_str()));
            items.extend(message.data);
            Variant::from(items)
        }
    };
    Framing::new(config).to_bytes(&value)
}

/// Tells the dialect from the start of the game's stream: Godot 4's first frame holds an
/// Array (type 28), Godot 3's a String (type 4, the message name). `Ok(None)`: fewer than 8
/// bytes so far.
///
/// # Errors
///
/// A fatal [`WireError`] when the first value is neither.
pub fn detect(start: &[u8]) -> Result<Option<Protocol>, WireError> {
    let Some(header) = start.get(4..8).and_then(|h| <[u8; 4]>::try_from(h).ok()) else {
        return Ok(None);
    };
    let header = u32::from_le_bytes(header);
    match header & 0xff {
        28 => Ok(Some(Protocol::Godot4)),
        4 => Ok(Some(Protocol::Godot3)),
        other => Err(WireError {
            message: format!(
                "the first frame holds type {other}, neither a Godot 4 message (Array, 28) \
                 nor a Godot 3 one (String, 4)"
            ),
            offset: Some(4),
            fatal: true,
        }),
    }
}
