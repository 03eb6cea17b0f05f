#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
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

#[cfg(feature = "litebyte")]
#[cfg_attr(docsrs, doc(cfg(feature = "litebyte")))]
pub mod litebyte;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
mod config;
mod de;
pub mod dump;
mod error;
pub mod frame;
#[cfg(feature = "glam")]
mod glam_impls;
#[cfg(feature = "base64")]
#[cfg_attr(docsrs, doc(cfg(feature = "base64")))]
pub mod marshalls;
#[cfg(feature = "mint")]
mod mint_impls;
pub mod read;
pub mod save;
mod ser;
mod types;
mod value;
mod wire;

pub use config::{Config, EnumRepr, GodotVersion};
pub use de::Deserializer;
pub use error::{Error, ErrorKind, Result};
pub use ser::{Output, Serializer, SizeCounter};
pub use types::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Real, Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i,
    Vector3, Vector3i, Vector4, Vector4i,
};
pub use value::{Array, ContainerType, Dictionary, DictionaryKey, Object, Variant};
pub use wire::{DEFAULT_MAX_DEPTH, GODOT_MAX_DEPTH, VariantType};

use serde::{Serialize, de::DeserializeOwned};

/// Initial capacity of the buffer [`Config::to_bytes`] returns.
const INITIAL_CAPACITY: usize = 256;

impl Config {
    /// Encodes `value` as Godot would (`var_to_bytes` / `var2bytes`).
    ///
    /// # Errors
    ///
    /// When the value has a type the target engine lacks, an integer outside `i64`, a string
    /// containing NUL, nesting deeper than [`Config::max_depth`], or its `Serialize` impl fails.
    pub fn to_bytes<T: ?Sized + Serialize>(&self, value: &T) -> Result<Vec<u8>> {
        // Room for a typical network message up front: fewer reallocations on the way.
        let mut ser = Serializer::new(Vec::with_capacity(INITIAL_CAPACITY), *self);
        value.serialize(&mut ser)?;
        Ok(ser.into_inner())
    }

    /// Appends the encoding of `value` to `buf`. Reusing one buffer for many values avoids
    /// allocating at all once it is large enough. On error, `buf` may hold a partial value.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`].
    pub fn to_bytes_into<T: ?Sized + Serialize>(&self, value: &T, buf: &mut Vec<u8>) -> Result<()> {
        // The serializer owns the buffer while it writes (one indirection less on every
        // write than through `&mut Vec`); the guard hands it back even if `serialize` panics.
        let mut guard = ser::Lend::new(buf, *self);
        value.serialize(guard.serializer())
    }

    /// Writes the encoding of `value` to `writer` (no length prefix: that is what
    /// `var_to_bytes` produces). The value is encoded in memory first, then written at once.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`], plus I/O errors.
    pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(
        &self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_bytes(value)?;
        writer.write_all(&bytes)?;
        Ok(())
    }

    /// The number of bytes [`Config::to_bytes`] would produce, computed without allocating.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`].
    pub fn serialized_size<T: ?Sized + Serialize>(&self, value: &T) -> Result<usize> {
        let mut ser = Serializer::new(SizeCounter::default(), *self);
        value.serialize(&mut ser)?;
        Ok(ser.into_inner().0)
    }

    /// Decodes a `T` from `bytes`, which must hold exactly one value. `&str` and `&[u8]`
    /// fields borrow from `bytes`.
    ///
    /// # Errors
    ///
    /// When the bytes are malformed for the target engine, do not match `T`, or have bytes
    /// left over after the value ([`ErrorKind::TrailingBytes`]; Godot ignores those, see
    /// [`Config::take_from_bytes`]).
    pub fn from_bytes<'de, T: serde::Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let mut de = Deserializer::from_slice(bytes, *self);
        let value = T::deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// Decodes a `T` from the start of `bytes` and returns it with the bytes after it, as
    /// Godot's decoder does (it ignores what follows a value).
    ///
    /// # Errors
    ///
    /// As [`Config::from_bytes`], except for trailing bytes.
    pub fn take_from_bytes<'de, T: serde::Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
    ) -> Result<(T, &'de [u8])> {
        let mut de = Deserializer::from_slice(bytes, *self);
        let value = T::deserialize(&mut de)?;
        Ok((value, de.rest()))
    }

    /// Decodes one `T` from `reader`, reading exactly the value's bytes and no more.
    ///
    /// # Errors
    ///
    /// As [`Config::from_bytes`], plus I/O errors; a reader that ends inside the value gives
    /// [`ErrorKind::UnexpectedEof`].
    pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        let mut de = Deserializer::from_reader(reader, *self);
        T::deserialize(&mut de)
    }

    /// Converts `value` into a [`Variant`], exactly as encoding it with this config and
    /// decoding the bytes would.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`].
    pub fn to_variant<T: ?Sized + Serialize>(&self, value: &T) -> Result<Variant> {
        let bytes = self.to_bytes(value)?;
        self.with_allow_objects(true).from_bytes(&bytes)
    }

    /// Converts a [`Variant`] into a `T`, exactly as encoding the Variant with this config
    /// and decoding the bytes as `T` would.
    ///
    /// # Errors
    ///
    /// When the Variant does not fit `T` or cannot be written for the target engine.
    pub fn from_variant<T: DeserializeOwned>(&self, value: &Variant) -> Result<T> {
        let bytes = self.to_bytes(value)?;
        self.with_allow_objects(true).from_bytes(&bytes)
    }
}

/// Encodes `value` for Godot 4.4+ (`var_to_bytes`). See [`Config::to_bytes`].
///
/// # Errors
///
/// As [`Config::to_bytes`].
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    Config::default().to_bytes(value)
}

/// Appends the Godot 4.4+ encoding of `value` to `buf`. See [`Config::to_bytes_into`].
///
/// # Errors
///
/// As [`Config::to_bytes`].
pub fn to_bytes_into<T: ?Sized + Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<()> {
    Config::default().to_bytes_into(value, buf)
}

/// Writes the Godot 4.4+ encoding of `value` to `writer`. See [`Config::to_writer`].
///
/// # Errors
///
/// As [`Config::to_writer`].
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    Config::default().to_writer(writer, value)
}

/// The size of the Godot 4.4+ encoding of `value`. See [`Config::serialized_size`].
///
/// # Errors
///
/// As [`Config::to_bytes`].
pub fn serialized_size<T: ?Sized + Serialize>(value: &T) -> Result<usize> {
    Config::default().serialized_size(value)
}

/// Decodes a `T` from Godot 4.4+ bytes (`bytes_to_var`). See [`Config::from_bytes`].
///
/// # Errors
///
/// As [`Config::from_bytes`].
pub fn from_bytes<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    Config::default().from_bytes(bytes)
}

/// Decodes a `T` from the start of Godot 4.4+ bytes and returns the rest. See
/// [`Config::take_from_bytes`].
///
/// # Errors
///
/// As [`Config::take_from_bytes`].
pub fn take_from_bytes<'de, T: serde::Deserialize<'de>>(
    bytes: &'de [u8],
) -> Result<(T, &'de [u8])> {
    Config::default().take_from_bytes(bytes)
}

/// Decodes one `T` from a reader of Godot 4.4+ bytes. See [`Config::from_reader`].
///
/// # Errors
///
/// As [`Config::from_reader`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    Config::default().from_reader(reader)
}

/// Converts `value` into a [`Variant`] (Godot 4.4+ rules). See [`Config::to_variant`].
///
/// # Errors
///
/// As [`Config::to_bytes`].
pub fn to_variant<T: ?Sized + Serialize>(value: &T) -> Result<Variant> {
    Config::default().to_variant(value)
}

/// Converts a [`Variant`] into a `T` (Godot 4.4+ rules). See [`Config::from_variant`].
///
/// # Errors
///
/// As [`Config::from_variant`].
pub fn from_variant<T: DeserializeOwned>(value: &Variant) -> Result<T> {
    Config::default().from_variant(value)
}
