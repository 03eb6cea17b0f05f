//! Configuration: decoding mode and the default mapping of plain Rust types.

use serde::Serialize;
use serde::de::Deserialize;

use crate::error::Result;
use crate::wire::{BaseType, Mode};

/// The LiteByte type each plain Rust type maps to when no wrapper or `with` module says
/// otherwise. This plays the role of the C# side's alias table (`LBConfig.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeMap {
    /// `bool` (C# `bool`).
    pub bool: BaseType,
    /// `i8` (C# `sbyte`).
    pub i8: BaseType,
    /// `u8` (C# `byte`).
    pub u8: BaseType,
    /// `i16` (C# `short`).
    pub i16: BaseType,
    /// `u16` (C# `ushort`).
    pub u16: BaseType,
    /// `i32` (C# `int`).
    pub i32: BaseType,
    /// `u32` (C# `uint`).
    pub u32: BaseType,
    /// `i64` (C# `long`).
    pub i64: BaseType,
    /// `u64` (C# `ulong`).
    pub u64: BaseType,
    /// `f32` (C# `float`).
    pub f32: BaseType,
    /// `f64` (C# `double`).
    pub f64: BaseType,
    /// `String` / `&str` (C# `string`).
    pub string: BaseType,
}

impl TypeMap {
    /// The reference demo's `LBConfig.json` table: `bool→Bit1, sbyte→Int8, byte→UInt8,
    /// float→Float32, double→Float64, short→VarInt16, int→VarInt32, long→VarInt64,
    /// ushort→VarUInt16, uint→VarUInt32, ulong→VarUInt64, string→UTF8`.
    pub fn demo() -> Self {
        TypeMap {
            bool: BaseType::Bit1,
            i8: BaseType::Int8,
            u8: BaseType::UInt8,
            i16: BaseType::VarInt16,
            u16: BaseType::VarUInt16,
            i32: BaseType::VarInt32,
            u32: BaseType::VarUInt32,
            i64: BaseType::VarInt64,
            u64: BaseType::VarUInt64,
            f32: BaseType::Float32,
            f64: BaseType::Float64,
            string: BaseType::Utf8,
        }
    }

    /// Fixed-width mapping: every integer at its natural width (`i32→Int32`, ...).
    pub fn fixed() -> Self {
        TypeMap {
            i16: BaseType::Int16,
            u16: BaseType::UInt16,
            i32: BaseType::Int32,
            u32: BaseType::UInt32,
            i64: BaseType::Int64,
            u64: BaseType::UInt64,
            ..TypeMap::demo()
        }
    }

    /// Starts from [`TypeMap::demo`] and applies C#-style alias pairs `(BaseType, alias)`
    /// whose alias is a C# keyword (`bool`, `sbyte`, `byte`, `short`, `ushort`, `int`, `uint`,
    /// `long`, `ulong`, `float`, `double`, `string`). Other aliases do not name a Rust type
    /// and are ignored here (they matter to [`Schema`](crate::Schema)).
    pub fn from_aliases<'a>(pairs: impl IntoIterator<Item = (BaseType, &'a str)>) -> Self {
        let mut m = TypeMap::demo();
        for (ty, alias) in pairs {
            let slot = match alias {
                "bool" => &mut m.bool,
                "sbyte" => &mut m.i8,
                "byte" => &mut m.u8,
                "short" => &mut m.i16,
                "ushort" => &mut m.u16,
                "int" => &mut m.i32,
                "uint" => &mut m.u32,
                "long" => &mut m.i64,
                "ulong" => &mut m.u64,
                "float" => &mut m.f32,
                "double" => &mut m.f64,
                "string" => &mut m.string,
                _ => continue,
            };
            *slot = ty;
        }
        m
    }
}

impl Default for TypeMap {
    fn default() -> Self {
        TypeMap::demo()
    }
}

/// Encoder/decoder configuration, passed by value (it is `Copy`). The entry points live on
/// it as well as at the crate root: `Config::compat().from_bytes::<T>(&bytes)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Config {
    /// Decoding strictness.
    pub mode: Mode,
    /// Default LiteByte type of plain Rust types.
    pub types: TypeMap,
}

impl Config {
    /// Strict mode, demo type map.
    #[must_use]
    pub fn new() -> Self {
        Config::default()
    }

    /// Compat mode (accept what the C# reader accepts), demo type map.
    #[must_use]
    pub fn compat() -> Self {
        Config {
            mode: Mode::Compat,
            ..Config::default()
        }
    }

    /// Sets the decoding mode.
    #[must_use]
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the type map.
    #[must_use]
    pub fn with_types(mut self, types: TypeMap) -> Self {
        self.types = types;
        self
    }

    /// Encodes `value` with this configuration ([`to_bytes_with`](crate::to_bytes_with)).
    pub fn to_bytes<T: ?Sized + Serialize>(self, value: &T) -> Result<Vec<u8>> {
        crate::to_bytes_with(value, self)
    }

    /// Decodes a `T` with this configuration ([`from_bytes_with`](crate::from_bytes_with)).
    pub fn from_bytes<'de, T: Deserialize<'de>>(self, bytes: &'de [u8]) -> Result<T> {
        crate::from_bytes_with(bytes, self)
    }
}
