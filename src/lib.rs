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

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
mod config;
pub mod config_file;
#[cfg(any(feature = "crypto", feature = "compression"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "crypto", feature = "compression"))))]
pub mod container;
mod de;
pub mod dump;
mod error;
pub mod frame;
#[cfg(feature = "glam")]
mod glam_impls;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
#[cfg(feature = "base64")]
#[cfg_attr(docsrs, doc(cfg(feature = "base64")))]
pub mod marshalls;
pub mod migrate;
#[cfg(feature = "mint")]
mod mint_impls;
#[cfg(feature = "pck")]
#[cfg_attr(docsrs, doc(cfg(feature = "pck")))]
pub mod pck;
pub mod read;
#[cfg(feature = "resource")]
#[cfg_attr(docsrs, doc(cfg(feature = "resource")))]
pub mod resource;
pub mod save;
mod ser;
pub mod text;
mod types;
mod value;
mod wire;

pub use config::{Config, DEFAULT_MAX_DEPTH, EnumRepr, GODOT_MAX_DEPTH, GodotVersion};
pub use de::Deserializer;
pub use error::{Error, ErrorKind, Result};
pub use ser::{Serializer, marker_type};
pub use types::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Real, Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i,
    Vector3, Vector3i, Vector4, Vector4i,
};
pub use value::{
    Array, ContainerType, Dictionary, DictionaryIntoIter, DictionaryKey, Object, Variant,
    VariantIndex,
};
pub use wire::VariantType;
pub use wire::output::{Output, SizeCounter};

/// The [`serde_bytes`](https://docs.rs/serde_bytes) crate, re-exported so that byte buffers
/// become PackedByteArray without another dependency: `Vec<u8>` alone is an Array of ints
/// (as serde presents it), `#[serde(with = "godot_serde::serde_bytes")]` makes it bytes.
/// [`PackedByteArray`] is the same as a type.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Avatar {
///     #[serde(with = "godot_serde::serde_bytes")]
///     png: Vec<u8>,
/// }
/// let bytes = godot_serde::to_bytes(&Avatar { png: vec![1, 2, 3] })?;
/// // ... "png": PackedByteArray (type id 29), 3 bytes, 1 byte of padding.
/// assert!(bytes.ends_with(&[29, 0, 0, 0, 3, 0, 0, 0, 1, 2, 3, 0]));
/// # Ok::<(), godot_serde::Error>(())
/// ```
pub use serde_bytes;

/// The [`compact_str`](https://docs.rs/compact_str) string type of [`Variant::String`]: a
/// text of up to 24 bytes is kept inline (no allocation), a longer one on the heap. It
/// dereferences to `&str` and converts from and into `String` (`"hp".into()`,
/// `String::from(s)`).
///
/// ```
/// use godot_serde::{CompactString, Variant};
/// let v = Variant::String(CompactString::from("hp"));
/// assert_eq!(v, Variant::from("hp"));
/// assert_eq!(v.as_str(), Some("hp"));
/// ```
pub use compact_str::CompactString;

/// The examples of `docs/streams.md` (moved out of the README), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/streams.md")]
pub struct StreamsDocs;

use serde::{Serialize, de::DeserializeOwned};

/// Initial capacity of the buffer [`Config::to_bytes`] returns: a network message of up to
/// 1 KiB without a reallocation, and still the largest block glibc's malloc serves from its
/// per-thread cache (256: three reallocations for a 1 KiB message, 14 % of its encoding's
/// instructions; 2048: 15 % more instructions for a small value, malloc's slower path).
const INITIAL_CAPACITY: usize = 1024;

impl Config {
    /// Encodes `value` as Godot would (`var_to_bytes` / `var2bytes`).
    ///
    /// # Errors
    ///
    /// When the value has a type the target engine lacks, an integer outside `i64`, a string
    /// containing NUL, nesting deeper than [`Config::max_depth`], or its `Serialize` impl fails.
    #[doc(alias = "var_to_bytes", alias = "var2bytes")]
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
    /// fields borrow from `bytes`. For a [`Variant`] alone, [`Config::variant_from_bytes`]
    /// gives the same value faster.
    ///
    /// # Errors
    ///
    /// When the bytes are malformed for the target engine, do not match `T`, or have bytes
    /// left over after the value ([`ErrorKind::TrailingBytes`]; Godot ignores those, see
    /// [`Config::take_from_bytes`]).
    #[doc(alias = "bytes_to_var", alias = "bytes2var")]
    pub fn from_bytes<'de, T: serde::Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let mut de = Deserializer::from_slice(bytes, *self);
        match T::deserialize(&mut de).and_then(|value| de.end().map(|()| value)) {
            Ok(value) => Ok(value),
            Err(e) => Err(crate::de::with_engine_hint::<T>(
                e,
                bytes,
                de.offset(),
                *self,
                true,
            )),
        }
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
        match T::deserialize(&mut de) {
            Ok(value) => Ok((value, de.rest())),
            Err(e) => Err(crate::de::with_engine_hint::<T>(
                e,
                bytes,
                de.offset(),
                *self,
                false,
            )),
        }
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

    /// Decodes a [`Variant`] from `bytes`, which must hold exactly one value: the value
    /// `from_bytes::<Variant>` gives, the same errors, a good deal faster. Serde's data model
    /// is skipped: the bytes are read straight into the Variant (see
    /// [`Deserializer::read_variant`]). `from_bytes::<Variant>` stays right for a Variant
    /// inside a typed struct and for generic code.
    ///
    /// ```
    /// use godot_serde::{Config, GodotVersion, Variant};
    ///
    /// let config = Config::new(GodotVersion::V3);
    /// let bytes = config.to_bytes(&("hp", 5))?;
    /// let v = config.variant_from_bytes(&bytes)?;
    /// assert_eq!(v, config.from_bytes::<Variant>(&bytes)?);
    /// assert_eq!(v[1], Variant::Int(5));
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Config::from_bytes`].
    pub fn variant_from_bytes(&self, bytes: &[u8]) -> Result<Variant> {
        let mut de = Deserializer::from_slice(bytes, *self);
        match de.read_variant().and_then(|value| de.end().map(|()| value)) {
            Ok(value) => Ok(value),
            Err(e) => Err(crate::de::with_engine_hint::<Variant>(
                e,
                bytes,
                de.offset(),
                *self,
                true,
            )),
        }
    }

    /// Decodes a [`Variant`] from the start of `bytes` and returns it with the bytes after
    /// it: [`Config::take_from_bytes`] for a Variant, the fast way of
    /// [`Config::variant_from_bytes`].
    ///
    /// # Errors
    ///
    /// As [`Config::take_from_bytes`].
    pub fn take_variant_from_bytes<'de>(&self, bytes: &'de [u8]) -> Result<(Variant, &'de [u8])> {
        let mut de = Deserializer::from_slice(bytes, *self);
        match de.read_variant() {
            Ok(value) => Ok((value, de.rest())),
            Err(e) => Err(crate::de::with_engine_hint::<Variant>(
                e,
                bytes,
                de.offset(),
                *self,
                false,
            )),
        }
    }

    /// Decodes one [`Variant`] from `reader`, reading exactly its bytes: [`Config::from_reader`]
    /// for a Variant, the fast way of [`Config::variant_from_bytes`].
    ///
    /// # Errors
    ///
    /// As [`Config::from_reader`].
    pub fn variant_from_reader<R: std::io::Read>(&self, reader: R) -> Result<Variant> {
        Deserializer::from_reader(reader, *self).read_variant()
    }

    /// Converts `value` into a [`Variant`]: literally `from_bytes::<Variant>(&to_bytes(value))`
    /// with this config, objects allowed.
    ///
    /// The value is encoded once and the bytes decoded straight into a Variant, so every rule
    /// of the wire applies exactly as `to_bytes` applies it (rounding math types to the
    /// config's reals, typed-container inference, a leading BOM dropped from text, the type
    /// table of the target engine, the depth limit), and every error is the one `to_bytes`
    /// gives.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`].
    pub fn to_variant<T: ?Sized + Serialize>(&self, value: &T) -> Result<Variant> {
        let bytes = self.to_bytes(value)?;
        self.with_allow_objects(true).variant_from_bytes(&bytes)
    }

    /// Converts a [`Variant`] into a `T`: literally `from_bytes::<T>(&to_bytes(value))` with
    /// this config, objects allowed, and `T` may borrow from the Variant (`&str`, `&[u8]`).
    ///
    /// When the bytes of the Variant decode back to the Variant itself (the wire keeps it as
    /// it is: every Variant that came from decoding or from [`Config::to_variant`] with this
    /// config), `T` is read from the Variant in place, which presents it exactly as the byte
    /// deserializer presents its bytes, and may borrow from it. Whether they do is answered
    /// from the Variant alone, with no encoding and no allocation, where every part is one the
    /// wire keeps for this config (text without a NUL or a leading BOM, numbers, math types of
    /// a width the wire keeps, containers within the depth limit that no inference types and
    /// no sorting reorders, ...); any other Variant is encoded, which gives the wire's errors
    /// (a type the target lacks, text with a NUL, nesting beyond the depth limit), and its
    /// bytes are decoded and compared with it. When the wire changes the Variant (a leading
    /// BOM dropped from text, a plain Array typed by inference, a Godot 3 RID losing its id),
    /// `T` is read from the bytes, so it gets what the bytes give; a borrowing `T` then fails
    /// with serde's "borrowed" type error, as [`Config::from_reader`] does, since the text it
    /// would borrow is not in the Variant. When `T` does not fit, the error is the one the
    /// bytes give (Godot 3's type names in a Godot 3 config, the path), whichever way `T` was
    /// read, without an offset (the bytes are internal).
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let v = variant!({"name": "Ann", "hp": 5});
    /// #[derive(serde::Deserialize)]
    /// struct Player<'a> {
    ///     name: &'a str,
    ///     hp: u8,
    /// }
    /// let p: Player = godot_serde::from_variant(&v).unwrap();
    /// assert_eq!((p.name, p.hp), ("Ann", 5));
    /// ```
    ///
    /// # Errors
    ///
    /// When the Variant cannot be written for the target engine (as [`Config::to_bytes`]),
    /// or does not fit `T`.
    pub fn from_variant<'de, T: serde::Deserialize<'de>>(&self, value: &'de Variant) -> Result<T> {
        let (kept, bytes) = self.wire_keeps(value)?;
        if kept {
            let de = value::VariantDe::new(value, self.double_precision, value::Borrowed)
                .with_enum_indices(self.enum_indices());
            // On a mismatch the error is the bytes' (type names of this config's engine, the
            // path): reading them below fails the same way.
            if let Ok(t) = T::deserialize(de) {
                return Ok(t);
            }
        }
        let bytes = match bytes {
            Some(bytes) => bytes,
            None => self.to_bytes(value)?,
        };
        // The bytes are this call's own: an offset in them would point nowhere the caller sees.
        T::deserialize(&mut Deserializer::from_reader(
            bytes.as_slice(),
            self.with_allow_objects(true),
        ))
        .map_err(Error::without_offset)
    }

    /// [`Config::from_variant`]'s question: whether `to_bytes(value)` decodes (objects
    /// allowed) back to `value` itself, with the bytes when they were written to answer it.
    ///
    /// Most Variants are answered from the Variant alone ([`value::kept_as_is`], no bytes);
    /// the others are encoded, decoded and compared.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`], when the bytes were needed.
    fn wire_keeps(&self, value: &Variant) -> Result<(bool, Option<Vec<u8>>)> {
        if value::kept_as_is(value, self) {
            return Ok((true, None));
        }
        let bytes = self.to_bytes(value)?;
        // A decode error here is not the answer: `T` may stop before the failing part (a
        // String target refuses a Dictionary before reading its keys), so the bytes decide.
        let kept = matches!(
            self.with_allow_objects(true).variant_from_bytes(&bytes),
            Ok(back) if value::same(&back, value)
        );
        Ok((kept, Some(bytes)))
    }

    /// For tests of [`Config::from_variant`] only, not part of the API: whether `value` is
    /// read in place (`Ok(true)`) or from its bytes, or the error encoding it gives; with
    /// `without_bytes`, only whether that is known to be in place from the Variant alone.
    ///
    /// # Errors
    ///
    /// As [`Config::to_bytes`], when the bytes were needed.
    #[doc(hidden)]
    pub fn __from_variant_in_place(&self, value: &Variant, without_bytes: bool) -> Result<bool> {
        if without_bytes {
            return Ok(value::kept_as_is(value, self));
        }
        self.wire_keeps(value).map(|(kept, _)| kept)
    }
}

/// Encodes `value` for Godot 4.4+ (`var_to_bytes`). See [`Config::to_bytes`].
///
/// # Errors
///
/// As [`Config::to_bytes`].
#[doc(alias = "var_to_bytes", alias = "var2bytes")]
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
#[doc(alias = "bytes_to_var", alias = "bytes2var")]
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

/// Decodes a [`Variant`] from Godot 4.4+ bytes: `from_bytes::<Variant>`'s value, faster. See
/// [`Config::variant_from_bytes`].
///
/// # Errors
///
/// As [`Config::from_bytes`].
pub fn variant_from_bytes(bytes: &[u8]) -> Result<Variant> {
    Config::default().variant_from_bytes(bytes)
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
pub fn from_variant<'de, T: serde::Deserialize<'de>>(value: &'de Variant) -> Result<T> {
    Config::default().from_variant(value)
}
