//! The LiteByte error type.

use std::fmt;

use crate::BaseType;

/// What went wrong while encoding, decoding or parsing a schema.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value was complete.
    #[error("unexpected end of input")]
    UnexpectedEof,
    /// Strict mode: bytes were left after the message.
    #[error("{0} trailing byte(s) after the message")]
    TrailingBytes(usize),
    /// Strict mode: the input was empty (the C# reader returns null/default for it).
    #[error("empty input")]
    EmptyInput,
    /// A value does not fit the LiteByte type chosen for it.
    #[error("value {value} out of range for {ty}")]
    OutOfRange {
        /// The LiteByte type.
        ty: BaseType,
        /// The offending value, as text.
        value: String,
    },
    /// The Rust value or data model construct has no LiteByte encoding.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The value's kind does not match the LiteByte type (for example a string for `Int8`).
    #[error("type mismatch: {0}")]
    TypeMismatch(String),
    /// A null was found where the target cannot be null (strict mode for strings and arrays).
    #[error("null where a value is required: {0}")]
    UnexpectedNull(String),
    /// Bytes that are not valid text in the declared encoding (strict mode), or text the
    /// encoding cannot carry.
    #[error("invalid string: {0}")]
    InvalidString(String),
    /// Strict mode: a valid but non-canonical encoding (over-long length, varint wider than
    /// needed, non-zero unused bits).
    #[error("non-canonical encoding: {0}")]
    NonCanonical(String),
    /// A length prefix is larger than the remaining input could hold, or above 2^31-2.
    #[error("length {0} is too large")]
    LengthTooLarge(u64),
    /// [`Schema::decode`](crate::Schema::decode): the decoded value would need more heap
    /// than [`DECODE_HEAP_SLACK`](crate::DECODE_HEAP_SLACK) +
    /// [`DECODE_HEAP_PER_BYTE`](crate::DECODE_HEAP_PER_BYTE) × the input length.
    #[error("decoded value would exceed its heap limit of {limit} bytes")]
    DecodeLimit {
        /// The limit for this input, in bytes.
        limit: usize,
    },
    /// A `.lbs` schema could not be parsed or registered.
    #[error("schema error: {0}")]
    Schema(String),
    /// An I/O error from the reader passed to `from_reader`.
    #[error("I/O error: {0}")]
    Io(String),
    /// A message from a `Serialize`/`Deserialize` implementation.
    #[error("{0}")]
    Custom(String),
}

/// A LiteByte error: its kind plus, where known, the byte offset into the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    offset: Option<usize>,
}

impl Error {
    /// Creates an error without an offset.
    pub fn new(kind: ErrorKind) -> Self {
        Error { kind, offset: None }
    }

    /// Creates an error at a byte offset.
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Error {
            kind,
            offset: Some(offset),
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The byte offset into the message (decoding: input offset; encoding: output length so
    /// far), where known.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    pub(crate) fn with_offset(mut self, offset: usize) -> Self {
        if self.offset.is_none() {
            self.offset = Some(offset);
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{} (at byte {o})", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for Error {}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Custom(msg.to_string()))
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(ErrorKind::Custom(msg.to_string()))
    }
}

/// `Result` with the LiteByte [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
