//! [`Error`], [`ErrorKind`] and [`Result`].

use std::fmt;

use crate::BaseType;

/// Alias for `Result<T, litebyte::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An encoding, decoding or schema error: what went wrong ([`ErrorKind`]) and, when known,
/// the byte offset in the input (decoding) or output (encoding) where it happened.
///
/// One pointer wide, so every `Result<T>` stays small.
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
}

/// A number that does not fit the LiteByte type chosen for it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Number {
    /// An integer (any Rust integer type fits in `i128`).
    Int(i128),
    /// A float, as the `f32` the reference writer checks (`f64` for `Float64`).
    Float(f64),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v}"),
        }
    }
}

/// What went wrong. Each malformed-input class has its own kind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value was complete.
    #[error("unexpected end of input")]
    UnexpectedEof,
    /// Strict mode: bytes were left after the message.
    #[error("{count} trailing bytes after the message")]
    TrailingBytes {
        /// How many bytes were left.
        count: usize,
    },
    /// Strict mode: the input was empty (the C# reader returns null/default for it).
    #[error("empty input")]
    EmptyInput,
    /// A value does not fit the LiteByte type chosen for it.
    #[error("value {value} out of range for {ty}")]
    OutOfRange {
        /// The LiteByte type.
        ty: BaseType,
        /// The offending value.
        value: Number,
    },
    /// A length prefix larger than the rest of the input could hold (at the fewest bits
    /// an element of its type takes), or above the format's maximum of 2^31-2.
    #[error("length {len} is too large")]
    LengthTooLarge {
        /// The length read from the input (or given to the encoder).
        len: u64,
    },
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) (self-referencing types).
    #[error("nesting deeper than {limit}")]
    DepthLimitExceeded {
        /// The limit.
        limit: usize,
    },
    /// [`Schema::decode`](crate::Schema::decode): the decoded value would need more heap
    /// than half of [`DECODE_HEAP_SLACK`](crate::DECODE_HEAP_SLACK) +
    /// [`DECODE_HEAP_PER_BYTE`](crate::DECODE_HEAP_PER_BYTE) × the input length.
    #[error("decoded value would exceed its heap limit of {limit} bytes")]
    DecodeLimit {
        /// The limit for this input, in bytes.
        limit: usize,
    },
    /// Strict mode: a VarLength with more bytes than needed.
    #[error("over-long length prefix")]
    OverlongLength,
    /// Strict mode: a varint whose size tag says more bytes than its value needs.
    #[error("{ty} wider than needed")]
    VarIntTooWide {
        /// The varint type.
        ty: BaseType,
    },
    /// Strict mode: unused bits of the last bit byte are set.
    #[error("unused bits of the last bit byte are set")]
    UnusedBitsSet,
    /// A null where the target cannot be null (strict mode for strings and arrays).
    #[error("null where a value is required: {0}")]
    UnexpectedNull(Box<str>),
    /// Bytes that are not valid text in the declared encoding (strict mode), or text the
    /// encoding cannot carry.
    #[error("invalid string: {0}")]
    InvalidString(Box<str>),
    /// The value's kind does not match the LiteByte type (for example a string for `Int8`).
    #[error("type mismatch: {0}")]
    TypeMismatch(Box<str>),
    /// The Rust value or data model construct has no LiteByte encoding.
    #[error("unsupported: {0}")]
    Unsupported(Box<str>),
    /// A `.lbs` schema could not be parsed or registered, or names an unknown type.
    #[error("schema error: {0}")]
    Schema(Box<str>),
    /// An I/O error from the reader passed to `from_reader`.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A message from a `Serialize`/`Deserialize` implementation.
    #[error("{0}")]
    Message(Box<str>),
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
    /// output (its length so far) when encoding.
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// Whether the input simply ended too soon (LiteByte messages carry no length, so more
    /// bytes from a stream might make it decode).
    #[must_use]
    pub fn is_eof(&self) -> bool {
        match &self.0.kind {
            ErrorKind::UnexpectedEof => true,
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
        assert_eq!(size_of::<Result<()>>(), size_of::<usize>());
    }
}
