//! [`Error`], [`ErrorKind`] and [`Result`].

use crate::config::GodotVersion;
use crate::wire::VariantType;
use core::fmt;

/// Alias for `Result<T, godot_serde::Error>`.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An encoding or decoding error: what went wrong ([`ErrorKind`]) and, when known, the byte
/// offset in the input (decoding) or output (encoding) where it happened.
///
/// One pointer wide, so every `Result<T>` stays small.
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
}

/// What went wrong. Each malformed-input class has its own kind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    #[error("unexpected end of input, {needed} more bytes needed")]
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
    #[error("recursion limit of {limit} exceeded")]
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
    /// An I/O error from the reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A message from a `Serialize`/`Deserialize` implementation, e.g.
    /// `invalid type: Vector2, expected u32`.
    #[error("{0}")]
    Message(Box<str>),
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
    #[error("frame of {len} bytes ends inside its value, which needs {needed} more bytes")]
    FrameTooShort {
        /// The length read from the prefix.
        len: usize,
        /// How many more bytes the value needs at least.
        needed: usize,
    },
}

impl Error {
    /// A new error of `kind` with no position.
    #[cold]
    #[must_use]
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error(Box::new(ErrorImpl { kind, offset: None }))
    }

    /// A new error of `kind` at byte `offset`.
    #[cold]
    #[must_use]
    pub(crate) fn at(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(ErrorImpl {
            kind,
            offset: Some(offset),
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
    /// make it decode.
    #[must_use]
    pub fn is_eof(&self) -> bool {
        match &self.0.kind {
            ErrorKind::UnexpectedEof { .. } => true,
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.offset {
            Some(offset) => write!(f, "{} at byte {}", self.0.kind, offset),
            None => fmt::Display::fmt(&self.0.kind, f),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .finish()
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
            "unexpected end of input, 4 more bytes needed at byte 8"
        );
        assert!(e.is_eof());
        let e = Error::new(ErrorKind::TrailingBytes { count: 2 });
        assert_eq!(e.to_string(), "2 trailing bytes after the value");
    }
}
