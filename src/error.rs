//! [`Error`], [`ErrorKind`] and [`Result`].

use crate::config::GodotVersion;
use crate::wire::VariantType;
use core::fmt;

/// Alias for `Result<T, godot_serde::Error>`.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An encoding or decoding error: what went wrong ([`ErrorKind`]), when known the byte
/// offset in the input (decoding) or output (encoding) where it happened, and when decoding
/// the [path](Error::path) of the value inside the input (struct fields, Dictionary keys,
/// Array indices).
///
/// Displayed as `path: what (byte N)`:
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct Player { hp: i32 }
/// #[derive(serde::Deserialize, Debug)]
/// struct World { players: Vec<Player> }
///
/// // {"players": [{"hp": 87.0}]}, as a Godot script could send it.
/// #[derive(serde::Serialize)]
/// struct Sent { players: Vec<std::collections::BTreeMap<&'static str, f64>> }
/// let bytes = godot_serde::to_bytes(&Sent { players: vec![[("hp", 87.0)].into()] })?;
///
/// let err = godot_serde::from_bytes::<World>(&bytes).unwrap_err();
/// assert_eq!(err.path().as_deref(), Some("players[0].hp"));
/// assert_eq!(
///     err.to_string(),
///     "players[0].hp: invalid type: floating point `87.0`, expected i32 (byte 52)"
/// );
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// One pointer wide, so every `Result<T>` stays small.
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
    /// Where in the value, innermost first (pushed as the error leaves each container).
    path: Vec<Segment>,
    /// The other engine layout, when it decodes the same bytes into the same type.
    decodes_as: Option<GodotVersion>,
    /// A frame's length prefix over the maximum that fits when its bytes are swapped: the
    /// other byte order (`StreamPeer.big_endian`) is likely.
    swapped_prefix: Option<u32>,
}

/// One step of an error's path.
#[derive(Debug)]
pub(crate) enum Segment {
    /// An Array (or packed array) element.
    Index(usize),
    /// A struct field, or an object property.
    Field(&'static str),
    /// A Dictionary key's text (a String or StringName key).
    Key(Box<str>),
    /// A Dictionary int key.
    IntKey(i64),
    /// A Dictionary key that cannot be shown (read from a reader, or not a String or int):
    /// where it starts.
    KeyAt(usize),
}

/// What went wrong. Each malformed-input class has its own kind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    #[error("unexpected end of input, {} needed", more_bytes(*needed))]
    UnexpectedEof {
        /// How many more bytes the value needs at least.
        needed: usize,
    },
    /// A header's type id (bits 0–7) is not a type of the target engine.
    #[error("unknown type id {id} for Godot {version}")]
    UnknownType {
        /// The type id read from the header.
        id: u32,
        /// The engine layout being decoded.
        version: GodotVersion,
    },
    /// The value has a type that the target engine does not have (e.g. Vector2i for Godot 3).
    #[error("{ty} does not exist in Godot {version}")]
    TypeNotInTarget {
        /// The Godot type.
        ty: VariantType,
        /// The engine layout being written or read.
        version: GodotVersion,
    },
    /// Nesting deeper than [`Config::max_depth`](crate::Config::max_depth).
    #[error("nesting deeper than the limit of {limit} (Config::with_max_depth)")]
    DepthLimitExceeded {
        /// The configured limit.
        limit: usize,
    },
    /// A length or count that the remaining input cannot hold (checked before allocating).
    #[error("{what} {len} does not fit in the {remaining} bytes left")]
    LengthTooLarge {
        /// What the length counts ("String length", "Array count", ...).
        what: &'static str,
        /// The length read from the input.
        len: u64,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// A negative length where Godot rejects one.
    #[error("negative {what} {len}")]
    NegativeLength {
        /// What the length counts.
        what: &'static str,
        /// The length read from the input.
        len: i64,
    },
    /// String bytes that are not well-formed UTF-8.
    #[error("invalid UTF-8 in {what}")]
    InvalidUtf8 {
        /// Which string ("String", "StringName", "NodePath name", ...).
        what: &'static str,
    },
    /// A NodePath in the pre-3.0 "plain string" layout (bit 31 of its first word clear),
    /// which Godot 3 and 4 reject.
    #[error("NodePath in the legacy format (bit 31 of the name count clear)")]
    LegacyNodePath,
    /// A typed Array / Dictionary descriptor that Godot rejects.
    #[error("invalid typed container descriptor: {0}")]
    InvalidContainerType(Box<str>),
    /// A full object while [`Config::allow_objects`](crate::Config::allow_objects) is off,
    /// which Godot's `bytes_to_var` refuses too (`ERR_UNAUTHORIZED`).
    #[error(
        "full object of class {class:?} refused: objects are not allowed (Config::with_allow_objects)"
    )]
    ObjectsNotAllowed {
        /// The class name, when it could be read.
        class: Box<str>,
    },
    /// Bytes left over after the value in [`from_bytes`](crate::from_bytes). Godot ignores
    /// them; use [`take_from_bytes`](crate::take_from_bytes) to get them.
    #[error("{count} trailing bytes after the value")]
    TrailingBytes {
        /// How many bytes were left.
        count: usize,
    },
    /// An integer outside what Godot's 64-bit int can hold, or a value outside a target type.
    #[error("integer {0} out of range for Godot's 64-bit int")]
    IntegerOutOfRange(Box<str>),
    /// A value the format cannot express (e.g. a map key Godot cannot hold, a string with NUL).
    #[error("unsupported: {0}")]
    Unsupported(Box<str>),
    /// A Dictionary key or object property name that starts with `$godot_serde::`, the
    /// prefix of the names godot_serde's own type markers travel under: refused on every
    /// path, so that hostile data cannot pose as another Godot type (see the README's
    /// "Reserved keys").
    #[error("Dictionary key {key:?} is reserved for godot_serde's own type markers")]
    ReservedKey {
        /// The key's text.
        key: Box<str>,
    },
    /// An enum with data read from a Dictionary that does not have exactly one entry (the
    /// variant name and its value).
    #[error("invalid enum: a Dictionary of {entries} entries, expected 1")]
    EnumShape {
        /// How many entries the Dictionary has.
        entries: usize,
    },
    /// A finite 64-bit float beyond `f32`'s range (±3.4028235e38) where an `f32` receives
    /// it (decoding into an `f32`) or a 32-bit slot is written (encoding a `f64` math-type
    /// component for a single-precision engine): a cast would make it infinite.
    #[error("float {value:e} does not fit in an f32 (beyond ±3.4028235e38)")]
    F32Overflow {
        /// The value.
        value: f64,
    },
    /// An I/O error from the reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A message from a `Serialize`/`Deserialize` implementation, e.g.
    /// `invalid type: Vector2, expected u32`.
    #[error("{0}")]
    Message(Box<str>),
    /// Text (`var_to_str` form or a ConfigFile) the engine's parser would reject, at a
    /// 1-based line and column (in characters).
    #[error("{message} at line {line}, column {column}")]
    TextSyntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What went wrong, in the engine's words where it has them.
        message: Box<str>,
    },
    /// A length-prefixed frame (or a packet) larger than the configured maximum
    /// ([`frame::DEFAULT_MAX_FRAME_SIZE`](crate::frame::DEFAULT_MAX_FRAME_SIZE) by default).
    /// Checked before anything is allocated.
    #[error("frame of {len} bytes exceeds the maximum frame size of {max} bytes")]
    FrameTooLarge {
        /// The length read from the prefix (or the size of the encoded value).
        len: u64,
        /// The configured maximum.
        max: usize,
    },
    /// A complete frame whose value needs more bytes than its length prefix announced: the
    /// sender's prefix is wrong, so more input would not help.
    #[error("frame of {len} bytes ends inside its value, which needs {}", more_bytes(*needed))]
    FrameTooShort {
        /// The length read from the prefix.
        len: usize,
        /// How many more bytes the value needs at least.
        needed: usize,
    },
    /// An encrypted file whose decrypted bytes do not match the MD5 in its header: the
    /// password or key is wrong (or the file is corrupt). Godot refuses it the same way
    /// (`ERR_FILE_CORRUPT`, "The MD5 sum of the decrypted file does not match").
    #[error("wrong password or key: the MD5 of the decrypted data does not match the file's")]
    WrongKey,
    /// A file container (encrypted or compressed) or a compressed stream that is malformed:
    /// wrong magic, unknown mode, a corrupt block.
    #[error("{0}")]
    InvalidContainer(Box<str>),
    /// Decompressed data larger than the limit
    /// (`container::Limits::with_max_size`, or the size given to `container::decompress`),
    /// checked before and while decompressing.
    #[error("decompressed data of {len} bytes exceeds the limit of {max} bytes")]
    DecompressedTooLarge {
        /// The size the input claims, or the bytes produced when the limit was hit.
        len: u64,
        /// The limit.
        max: usize,
    },
    /// Bytes fed to a [`FrameDecoder`](crate::frame::FrameDecoder) that it refused: a whole
    /// frame's worth was already waiting to be taken, or the frame at the front is too large.
    #[error(
        "frame decoder refused {refused} bytes: {buffered} bytes wait to be taken (limit {limit})"
    )]
    BufferFull {
        /// How many bytes were refused.
        refused: usize,
        /// How many bytes were buffered then.
        buffered: usize,
        /// The most the decoder buffers before refusing: the maximum frame size plus the
        /// length prefix.
        limit: usize,
    },
    /// Input beyond a reading limit set in bytes or counts (a ConfigFile's text size,
    /// sections or keys: `config_file::Limits`), refused where the limit is crossed, before
    /// more is held.
    #[error("{what} exceeds the limit of {max}")]
    LimitExceeded {
        /// What was counted, and the setting that limits it.
        what: &'static str,
        /// The limit.
        max: usize,
    },
}

/// The one f32 range rule: an [`ErrorKind::F32Overflow`] when the 64-bit float `v` is
/// finite but beyond `f32`'s range, where a cast would make it infinite (infinities and NaN
/// stay what they are; smaller values round to the nearest `f32`). Used where an `f32`
/// receives a Godot float (bytes and `Variant`) and where a 32-bit slot is written.
#[inline]
pub(crate) fn fits_f32(v: f64) -> Result<()> {
    #[allow(clippy::cast_possible_truncation)]
    let narrow = v as f32;
    if narrow.is_infinite() && v.is_finite() {
        return Err(f32_overflow(v));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn f32_overflow(v: f64) -> Error {
    Error::new(ErrorKind::F32Overflow { value: v })
}

/// "1 more byte", "2 more bytes".
fn more_bytes(n: usize) -> String {
    match n {
        1 => "1 more byte".to_owned(),
        n => format!("{n} more bytes"),
    }
}

impl Error {
    /// A new error of `kind` with no position.
    #[cold]
    #[must_use]
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error(Box::new(ErrorImpl {
            kind,
            offset: None,
            path: Vec::new(),
            decodes_as: None,
            swapped_prefix: None,
        }))
    }

    /// A new error of `kind` at byte `offset`.
    #[cold]
    #[must_use]
    pub(crate) fn at(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(ErrorImpl {
            kind,
            offset: Some(offset),
            path: Vec::new(),
            decodes_as: None,
            swapped_prefix: None,
        }))
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Consumes the error, giving back what went wrong.
    #[must_use]
    pub fn into_kind(self) -> ErrorKind {
        self.0.kind
    }

    /// The byte offset where it went wrong, when known: in the input when decoding, in the
    /// output when encoding.
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// Whether the input simply ended too soon, so that more bytes (from a stream) might
    /// make it decode: true for every cut of a valid value, from a slice and from a reader
    /// alike. A reader reports [`ErrorKind::UnexpectedEof`] (or an I/O `UnexpectedEof`); a
    /// slice, which knows how many bytes are left, reports a length or count that does not
    /// fit in them as [`ErrorKind::LengthTooLarge`], which is an end of input too.
    ///
    /// Inside a length-prefixed frame the input cannot grow, so a value cut by its frame is
    /// [`ErrorKind::FrameTooShort`] instead, which is not an end of input.
    #[must_use]
    pub fn is_eof(&self) -> bool {
        match &self.0.kind {
            ErrorKind::UnexpectedEof { .. } | ErrorKind::LengthTooLarge { .. } => true,
            ErrorKind::Io(e) => e.kind() == std::io::ErrorKind::UnexpectedEof,
            _ => false,
        }
    }

    /// Sets the offset if none is set yet (the innermost position wins).
    #[must_use]
    pub(crate) fn or_at(mut self, offset: usize) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// The same error without its offset (for bytes the caller never saw).
    #[must_use]
    pub(crate) fn without_offset(mut self) -> Self {
        self.0.offset = None;
        self
    }

    /// Where in the decoded value the error happened, outermost first: struct fields and
    /// String keys after a `.`, Array indices and other keys in brackets, e.g.
    /// `players[3].hp`, `scores["two words"]`, `ids[7]` (an int key). `None` for an error of
    /// the top-level value itself, and for encoding errors.
    ///
    /// A Dictionary key that is not a struct field is shown by its text when decoding from a
    /// slice; from a reader (whose bytes are gone by then) as `[key at byte N]`.
    #[must_use]
    pub fn path(&self) -> Option<String> {
        if self.0.path.is_empty() {
            return None;
        }
        let mut out = String::new();
        for segment in self.0.path.iter().rev() {
            match segment {
                Segment::Index(i) => out.push_str(&format!("[{i}]")),
                Segment::Field(name) => push_name(&mut out, name),
                Segment::Key(text) => push_name(&mut out, text),
                Segment::IntKey(n) => out.push_str(&format!("[{n}]")),
                Segment::KeyAt(offset) => out.push_str(&format!("[key at byte {offset}]")),
            }
        }
        Some(out)
    }

    /// When decoding failed but the other engine's layout (Godot 3 for a Godot 4
    /// [`Config`](crate::Config), Godot 4.4+ for a Godot 3 one) decodes the same bytes into
    /// the same type, that layout: the bytes most likely come from the other engine. Checked
    /// only when decoding a slice fails ([`from_bytes`](crate::from_bytes),
    /// [`take_from_bytes`](crate::take_from_bytes), frames and packets), never on success.
    ///
    /// ```
    /// use godot_serde::{Color, Config, GodotVersion};
    ///
    /// // A Color as Godot 3's var2bytes writes it (type id 14; id 14 is Plane in Godot 4).
    /// let bytes = Config::godot3().to_bytes(&Color::new(1.0, 0.5, 0.0, 1.0))?;
    /// let err = Config::godot4().from_bytes::<Color>(&bytes).unwrap_err();
    /// assert_eq!(err.decodes_as(), Some(GodotVersion::V3));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid type: Plane, expected a Color (4 numbers) (byte 0); \
    ///      these bytes decode as Godot 3.x: use Config::godot3()"
    /// );
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    #[must_use]
    pub fn decodes_as(&self) -> Option<GodotVersion> {
        self.0.decodes_as
    }

    /// Records that a too-large frame length reads as `swapped`, a length within the
    /// maximum, in the other byte order.
    #[cold]
    #[must_use]
    pub(crate) fn with_swapped_prefix(mut self, swapped: u32) -> Self {
        self.0.swapped_prefix = Some(swapped);
        self
    }

    /// Records that the other layout `version` decodes the bytes.
    #[cold]
    #[must_use]
    pub(crate) fn with_decodes_as(mut self, version: GodotVersion) -> Self {
        self.0.decodes_as = Some(version);
        self
    }

    /// Adds the step the error is leaving through (the innermost step comes first).
    #[cold]
    #[must_use]
    pub(crate) fn in_segment(mut self, segment: Segment) -> Self {
        self.0.path.push(segment);
        self
    }
}

/// Appends a field or key name: `.name` (no dot at the start) when it reads as an
/// identifier, `["text"]` otherwise.
fn push_name(out: &mut String, name: &str) {
    let plain = name.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if plain {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(name);
    } else {
        out.push_str(&format!("[{name:?}]"));
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = self.path() {
            write!(f, "{path}: ")?;
        }
        fmt::Display::fmt(&self.0.kind, f)?;
        if let Some(offset) = self.0.offset {
            write!(f, " (byte {offset})")?;
        }
        match self.0.decodes_as {
            Some(GodotVersion::V3) => {
                f.write_str("; these bytes decode as Godot 3.x: use Config::godot3()")
            }
            // 4.4 and 4.5+ share one binary layout.
            Some(GodotVersion::V4_4 | GodotVersion::V4_5) => {
                f.write_str("; these bytes decode as Godot 4.4+: use Config::godot4()")
            }
            Some(version) => write!(
                f,
                "; these bytes decode as Godot {version}: use Config::godot4()"
            ),
            None => Ok(()),
        }?;
        if let Some(swapped) = self.0.swapped_prefix {
            write!(
                f,
                "; in the other byte order the length prefix is {swapped}: does the peer set \
                 StreamPeer.big_endian differently (Framing::with_big_endian)?"
            )?;
        }
        Ok(())
    }
}

/// The message, as [`Display`](fmt::Display) gives it, so that `fn main() -> Result<(),
/// godot_serde::Error>` and `unwrap()` print a readable line (as anyhow's errors do), with
/// the I/O error beneath it when there is one. `{:#?}` gives the fields.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            fmt::Display::fmt(self, f)?;
            if let ErrorKind::Io(e) = &self.0.kind {
                write!(f, "\n\nCaused by:\n    {e:?}")?;
            }
            return Ok(());
        }
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.0.kind)
            .field("offset", &self.0.offset);
        if let Some(path) = self.path() {
            d.field("path", &path);
        }
        if let Some(version) = self.0.decodes_as {
            d.field("decodes_as", &version);
        }
        d.finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string().into_boxed_str()))
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string().into_boxed_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(size_of::<Error>(), size_of::<usize>());
    }

    #[test]
    fn display_appends_the_offset() {
        let e = Error::at(ErrorKind::UnexpectedEof { needed: 4 }, 8);
        assert_eq!(
            e.to_string(),
            "unexpected end of input, 4 more bytes needed (byte 8)"
        );
        assert!(e.is_eof());
        let e = Error::new(ErrorKind::TrailingBytes { count: 2 });
        assert_eq!(e.to_string(), "2 trailing bytes after the value");
    }

    /// Issue 27.6: an `Error` returned from `main` is printed with `Debug`
    /// (`Error: {err:?}`): the message, not a struct dump; `{:#?}` keeps the fields.
    #[test]
    fn debug_is_the_message() {
        let e = Error::at(ErrorKind::UnexpectedEof { needed: 4 }, 8);
        assert_eq!(
            format!("{e:?}"),
            "unexpected end of input, 4 more bytes needed (byte 8)"
        );
        let alt = format!("{e:#?}");
        assert!(
            alt.starts_with("Error {") && alt.contains("offset: Some(\n"),
            "{alt}"
        );
        let io = Error::from(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "gone"));
        let shown = format!("{io:?}");
        assert!(shown.contains("\n\nCaused by:\n    Custom {"), "{shown}");
        // What `fn main() -> Result<(), Error>` prints (std's `Termination`: `Error: {e:?}`).
        assert_eq!(
            format!("Error: {e:?}"),
            "Error: unexpected end of input, 4 more bytes needed (byte 8)"
        );
    }
}
