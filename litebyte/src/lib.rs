//! LiteByte v0.6.15 as a serde data format, byte-compatible with the C# reference
//! implementation (GitHub `zhangyukof/litebyte`, HEAD 67f4083).
//!
//! LiteByte is schema-driven: no field names, type tags or lengths of messages on the wire.
//! Fields follow one another in declaration order; bools, small bit fields, varint size tags
//! and class null flags share one global bit stream whose "bit bytes" are placed lazily in
//! the byte stream.
//!
//! Two APIs:
//! - **typed**: the Rust struct is the schema ([`to_bytes`], [`from_bytes`]). Plain Rust types
//!   map to LiteByte types through a [`TypeMap`] (the reference demo's alias table by
//!   default); wrapper types ([`Int24`], [`Float16`], [`VarUnicode`], [`Class`], ...) or the
//!   [`with`] modules choose another type per field.
//! - **dynamic**: parse `.lbs` schema files into a [`Schema`] and encode/decode a [`Value`]
//!   against a named type, like the C# `LBObject`.
//!
//! ```
//! use litebyte::Class;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct PlayerInfo {
//!     id: u32,          // VarUInt32
//!     nickname: String, // UTF8
//!     gender: u8,       // UInt8
//!     is_vip: bool,     // Bit1
//!     lv: i32,          // VarInt32
//!     hp: i32,
//!     mp: i32,
//!     exp: i32,
//! }
//!
//! let p = PlayerInfo {
//!     id: 100001, nickname: "冰封百度".into(), gender: 1, is_vip: true,
//!     lv: 999, hp: 999999, mp: 999999, exp: 9999999,
//! };
//! // `class PlayerInfo` costs one null bit; `Class(Some(..))` adds it.
//! let bytes = litebyte::to_bytes(&Class(Some(&p)))?;
//! assert_eq!(bytes.len(), 31);
//! assert_eq!(bytes[0], 0x9C);
//! let back: Class<Option<PlayerInfo>> = litebyte::from_bytes(&bytes)?;
//! assert_eq!(back.0, Some(p));
//! # Ok::<(), litebyte::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod config;
mod de;
mod error;
mod schema;
mod ser;
mod types;
mod value;
mod wire;

use std::io::Read;

use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned};

pub use config::{Config, TypeMap};
pub use de::Deserializer;
pub use error::{Error, ErrorKind, Number, Result};
pub use schema::{
    DECODE_HEAP_PER_BYTE, DECODE_HEAP_SLACK, DEMO_ALIASES, Field, FieldType, MAX_DEPTH, Schema,
    TypeDef, parse_type,
};
pub use ser::Serializer;
pub use types::*;
pub use value::Value;
pub use wire::{BaseType, Mode};

/// Encodes `value` with the default configuration (demo type map).
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_bytes_with(value, Config::default())
}

/// Encodes `value` with the given configuration.
pub fn to_bytes_with<T: ?Sized + Serialize>(value: &T, cfg: Config) -> Result<Vec<u8>> {
    let mut ser = Serializer::new(cfg);
    value.serialize(&mut ser)?;
    Ok(ser.into_inner())
}

/// Decodes a `T` in strict mode with the demo type map.
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    from_bytes_with(bytes, Config::default())
}

/// Decodes a `T` with the given configuration.
pub fn from_bytes_with<'de, T: Deserialize<'de>>(bytes: &'de [u8], cfg: Config) -> Result<T> {
    if bytes.is_empty() && cfg.mode == Mode::Strict {
        return Err(Error::at(ErrorKind::EmptyInput, 0));
    }
    let mut de = Deserializer::new(bytes, cfg);
    let v = T::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Reads `reader` to its end and decodes a `T` with the default configuration. (LiteByte has
/// no message length, so a message is everything the reader yields.)
pub fn from_reader<R: Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_with(reader, Config::default())
}

/// Reads `reader` to its end and decodes a `T` with the given configuration.
pub fn from_reader_with<R: Read, T: DeserializeOwned>(mut reader: R, cfg: Config) -> Result<T> {
    let mut buf = Vec::new();
    reader.read_to_end(&mut buf).map_err(Error::from)?;
    from_bytes_with(&buf, cfg)
}
