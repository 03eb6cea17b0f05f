//! A call's arguments read straight from the packet into a Rust type: a serde
//! `Deserializer` over the argument list, no `Variant` in between.
//!
//! The list is presented as a sequence, one element per argument, so that a tuple, a tuple
//! struct or a struct (fields in order) takes one argument per field; any other type (a
//! `String`, a `Vector2`, an enum, a map) is the call's single argument; `deserialize_any`
//! (a [`Variant`](godot_serde::Variant), say) gets the list as an Array. Each argument is
//! handed to the root crate's [`godot_serde::Deserializer`] over its bytes in the packet, so
//! it accepts and refuses exactly what the `Variant` path does; Godot 4's compressed ints and
//! bools are presented as the `int` and `bool` Variants they stand for.

use core::fmt;

use godot_serde::{Config, Deserializer as GdDe, ErrorKind, VariantType};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, SeqAccess,
    VariantAccess, Visitor,
};

use super::{BOOL_TRUE, MODE_SHIFT, TYPE_MASK, VARIANT_MAX};
use crate::{FormatError, ProtocolError};

/// `ENCODE_FLAG_64` in a Variant header: a 64-bit int.
const FLAG_64: u32 = 1 << 16;

/// Which engine's argument layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Godot 4's `encode_and_compress_variant`: a meta byte, compressed ints and bools.
    Godot4,
    /// Godot 3's plain `encode_variant` values.
    Godot3,
}

impl Dialect {
    /// The root crate's configuration for the dialect's values. Constants, inlined: built by a
    /// call, the `Config` came back through memory and the encoder's wide copy of it waited on
    /// the call's narrow stores (a tenth of a five-argument send).
    #[inline]
    pub(crate) fn config(self) -> Config {
        const GODOT4: Config = Config::godot4();
        const GODOT3: Config = Config::godot3();
        match self {
            Dialect::Godot4 => GODOT4,
            Dialect::Godot3 => GODOT3,
        }
    }

    /// The fewest bytes an argument takes (a meta byte; a Variant header).
    fn min_size(self) -> usize {
        match self {
            Dialect::Godot4 => 1,
            Dialect::Godot3 => 4,
        }
    }
}

/// A [`ProtocolError`] carried through serde (which needs its own error trait), boxed: every
/// value read returns a `Result` with it, and a one-pointer error keeps those small (an
/// unboxed one was copied through memory after each argument).
#[derive(Debug)]
pub(crate) struct DeError(Box<ProtocolError>);

impl From<ProtocolError> for DeError {
    #[cold]
    fn from(e: ProtocolError) -> Self {
        DeError(Box::new(e))
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::from(ProtocolError::ArgumentType {
            method: String::new(),
            source: FormatError::custom(&msg.to_string()),
        })
    }
}

impl DeError {
    /// The error with `method` named, when the message was made without it.
    pub(crate) fn into_protocol(self, method: &str) -> ProtocolError {
        match *self.0 {
            ProtocolError::ArgumentType { method: m, source } if m.is_empty() => {
                ProtocolError::ArgumentType {
                    method: method.to_owned(),
                    source,
                }
            }
            other => other,
        }
    }
}

/// The argument list of one call, read left to right.
pub(crate) struct List<'a> {
    dialect: Dialect,
    /// The announced argument count.
    count: usize,
    /// Godot 4's "byte only" shape: `bytes` is one bare PackedByteArray.
    raw: bool,
    bytes: &'a [u8],
    /// Where `bytes` start in the packet.
    offset: usize,
    /// Where the next argument starts in `bytes`.
    pos: usize,
    /// The next argument's index.
    index: usize,
}

/// How the next argument is read.
enum Next<'a> {
    /// A Godot 4 compressed int.
    Int(i64),
    /// A Godot 4 compressed bool.
    Bool(bool),
    /// `encode_variant` bytes in the packet (from the argument's start to the end).
    Slice(&'a [u8]),
    /// Godot 4's bare PackedByteArray, as `encode_variant` would write it.
    Raw(Vec<u8>),
}

impl<'a> List<'a> {
    #[inline]
    pub(crate) fn new(
        dialect: Dialect,
        count: usize,
        raw: bool,
        bytes: &'a [u8],
        offset: usize,
    ) -> Self {
        List {
            dialect,
            count,
            raw,
            bytes,
            offset,
            pos: 0,
            index: 0,
        }
    }

    /// The arguments not read yet.
    #[inline]
    fn left(&self) -> usize {
        self.count - self.index
    }

    /// Where the next argument starts in the packet.
    #[inline]
    fn at(&self) -> usize {
        self.offset + self.pos
    }

    /// Checks that `T` took every argument.
    #[inline]
    pub(crate) fn finish(&self) -> Result<(), DeError> {
        if self.index < self.count {
            return Err(de::Error::custom(format_args!(
                "{} arguments, the type takes {}",
                self.count, self.index
            )));
        }
        Ok(())
    }

    #[cold]
    fn malformed(&self, detail: impl fmt::Display) -> DeError {
        DeError::from(ProtocolError::Argument {
            index: self.index,
            offset: self.at(),
            source: FormatError::custom(&detail.to_string()),
        })
    }

    /// Opens the next argument (its meta byte for Godot 4).
    #[inline]
    fn next(&mut self) -> Result<Next<'a>, DeError> {
        if self.index >= self.count {
            return Err(de::Error::custom(format_args!(
                "{} arguments, the type wants more",
                self.count
            )));
        }
        if self.raw {
            let mut buf = Vec::with_capacity(8 + self.bytes.len() + 3);
            buf.extend_from_slice(&(VariantType::PackedByteArray as u32).to_le_bytes());
            let len = u32::try_from(self.bytes.len()).map_err(|_| self.malformed("too long"))?;
            buf.extend_from_slice(&len.to_le_bytes());
            buf.extend_from_slice(self.bytes);
            buf.resize(buf.len() + (4 - self.bytes.len() % 4) % 4, 0);
            return Ok(Next::Raw(buf));
        }
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        if rest.len() < self.dialect.min_size() {
            return Err(DeError::from(ProtocolError::truncated(
                "REMOTE_CALL",
                self.at(),
                self.dialect.min_size() - rest.len(),
                self.offset + self.bytes.len(),
            )));
        }
        if self.dialect == Dialect::Godot3 {
            return Ok(Next::Slice(rest));
        }
        let Some(&meta) = rest.first() else {
            return Err(self.malformed("empty argument"));
        };
        let ty = meta & TYPE_MASK;
        if ty >= VARIANT_MAX {
            return Err(self.malformed(format_args!("unknown type id {ty} in the meta byte")));
        }
        if ty == VariantType::Bool as u8 {
            self.done(1);
            return Ok(Next::Bool(meta & BOOL_TRUE != 0));
        }
        if ty == VariantType::Int as u8 {
            let width = 1usize << (meta >> MODE_SHIFT);
            let value = match rest.get(1..1 + width) {
                Some(&[a]) => i64::from(a as i8),
                Some(&[a, b]) => i64::from(i16::from_le_bytes([a, b])),
                Some(&[a, b, c, d]) => i64::from(i32::from_le_bytes([a, b, c, d])),
                Some(&[a, b, c, d, e, f, g, h]) => i64::from_le_bytes([a, b, c, d, e, f, g, h]),
                _ => {
                    return Err(self.malformed(format_args!(
                        "int needs {width} bytes after the meta byte, {} left",
                        rest.len() - 1
                    )));
                }
            };
            self.done(1 + width);
            return Ok(Next::Int(value));
        }
        Ok(Next::Slice(rest))
    }

    /// The argument took `used` bytes.
    #[inline]
    fn done(&mut self, used: usize) {
        self.pos += used;
        self.index += 1;
    }

    /// The root deserializer's error for the argument that starts at `start` (in the
    /// packet): a mismatch with `T` is [`ProtocolError::ArgumentType`], malformed bytes
    /// [`ProtocolError::Argument`], both with the packet offsets.
    #[cold]
    fn fail(&self, e: godot_serde::Error, index: usize, start: usize) -> DeError {
        let at = start + e.offset().unwrap_or(0);
        let path = e.path().map(|p| format!(" (in {p})")).unwrap_or_default();
        let kind = e.kind();
        let mismatch = matches!(
            kind,
            ErrorKind::Message(_)
                | ErrorKind::IntegerOutOfRange(_)
                | ErrorKind::EnumShape { .. }
                | ErrorKind::F32Overflow { .. }
        );
        if mismatch {
            DeError::from(ProtocolError::ArgumentType {
                method: String::new(),
                source: FormatError::custom(&format!("argument {index} (byte {at}): {kind}{path}")),
            })
        } else {
            DeError::from(ProtocolError::Argument {
                index,
                offset: start,
                source: e.into(),
            })
        }
    }
}

/// One argument as a serde `Deserializer`.
pub(crate) struct Arg<'s, 'a> {
    list: &'s mut List<'a>,
}

/// The int and bool Variants behind Godot 4's compressed forms: `deserialize_any` and the
/// integer (or bool) requests are answered directly, every other request by the root
/// deserializer over the Variant's own bytes, so that it answers exactly as for the Variant.
struct Small {
    int: Option<i64>,
    bool: bool,
}

impl Small {
    /// `encode_variant`'s bytes for the value (Godot 4: int in 32 bits when it fits).
    fn bytes(&self) -> ([u8; 12], usize) {
        let (header, payload): (u32, [u8; 8]) = match self.int {
            Some(v) => match i32::try_from(v) {
                Ok(v32) => {
                    let [a, b, c, d] = v32.to_le_bytes();
                    (VariantType::Int as u32, [a, b, c, d, 0, 0, 0, 0])
                }
                Err(_) => (VariantType::Int as u32 | FLAG_64, v.to_le_bytes()),
            },
            None => (
                VariantType::Bool as u32,
                [u8::from(self.bool), 0, 0, 0, 0, 0, 0, 0],
            ),
        };
        let len = if header & FLAG_64 != 0 { 12 } else { 8 };
        let mut out = [0u8; 12];
        for (slot, byte) in out
            .iter_mut()
            .zip(header.to_le_bytes().into_iter().chain(payload))
        {
            *slot = byte;
        }
        (out, len)
    }

    fn visit<'de, V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, godot_serde::Error> {
        match self.int {
            Some(v) => visitor.visit_i64(v),
            None => visitor.visit_bool(self.bool),
        }
    }
}

macro_rules! small_direct {
    ($($name:ident)*) => {$(
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, godot_serde::Error> {
            self.visit(visitor)
        }
    )*};
}

macro_rules! small_forward {
    ($($name:ident($($p:ident: $t:ty),*))*) => {$(
        fn $name<V: Visitor<'de>>(self, $($p: $t,)* visitor: V) -> Result<V::Value, godot_serde::Error> {
            let (buf, len) = self.bytes();
            let mut de = GdDe::from_reader(buf.get(..len).unwrap_or_default(), Config::godot4());
            (&mut de).$name($($p,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Small {
    type Error = godot_serde::Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    small_direct!(deserialize_any deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_bool);

    small_forward! {
        deserialize_i128() deserialize_u128() deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string() deserialize_bytes()
        deserialize_byte_buf() deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq() deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier() deserialize_ignored_any()
    }
}

macro_rules! arg_method {
    ($($name:ident($($p:ident: $t:ty),*))*) => {$(
        #[inline]
        fn $name<V: Visitor<'a>>(self, $($p: $t,)* visitor: V) -> Result<V::Value, DeError> {
            let list = self.list;
            let (index, start) = (list.index, list.at());
            match list.next()? {
                Next::Int(v) => Small { int: Some(v), bool: false }
                    .$name($($p,)* visitor)
                    .map_err(|e| list.fail(e, index, start)),
                Next::Bool(b) => Small { int: None, bool: b }
                    .$name($($p,)* visitor)
                    .map_err(|e| list.fail(e, index, start)),
                Next::Slice(bytes) => {
                    let mut de = GdDe::from_slice(bytes, list.dialect.config());
                    let value = (&mut de).$name($($p,)* visitor)
                        .map_err(|e| list.fail(e, index, start))?;
                    let used = bytes.len() - de.rest().len();
                    list.done(used);
                    Ok(value)
                }
                Next::Raw(buf) => {
                    let mut de = GdDe::from_reader(buf.as_slice(), list.dialect.config());
                    // A bare PackedByteArray always decodes: only a mismatch with `T` (at
                    // its start) can fail here.
                    let value = (&mut de).$name($($p,)* visitor)
                        .map_err(|e| list.fail(e, index, start))?;
                    list.done(list.bytes.len());
                    Ok(value)
                }
            }
        }
    )*};
}

macro_rules! all_methods {
    ($m:ident) => {
        $m! {
            deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
            deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
            deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
            deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
            deserialize_string() deserialize_bytes() deserialize_byte_buf()
            deserialize_option() deserialize_unit()
            deserialize_unit_struct(name: &'static str)
            deserialize_newtype_struct(name: &'static str)
            deserialize_seq() deserialize_tuple(len: usize)
            deserialize_tuple_struct(name: &'static str, len: usize)
            deserialize_map()
            deserialize_struct(name: &'static str, fields: &'static [&'static str])
            deserialize_enum(name: &'static str, variants: &'static [&'static str])
            deserialize_identifier() deserialize_ignored_any()
        }
    };
}

impl<'a> de::Deserializer<'a> for Arg<'_, 'a> {
    type Error = DeError;

    fn is_human_readable(&self) -> bool {
        false
    }
    all_methods!(arg_method);
}

impl<'a> SeqAccess<'a> for List<'a> {
    type Error = DeError;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'a>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, DeError> {
        if self.index >= self.count {
            return Ok(None);
        }
        seed.deserialize(Arg { list: self }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left())
    }
}

/// `T` read from `list`: as the whole list (`T`'s shape says how the arguments map onto it:
/// [`Whole`]), or with `as_call` as an enum whose variant is `method` ([`Call`]); `method` is
/// named in an [`ProtocolError::ArgumentType`].
pub(crate) fn read<T: DeserializeOwned>(
    mut list: List<'_>,
    method: &str,
    as_call: bool,
) -> Result<T, ProtocolError> {
    let list = &mut list;
    let value = if as_call {
        T::deserialize(Call { method, list })
    } else {
        T::deserialize(Whole { list })
    };
    value.map_err(|e| e.into_protocol(method))
}

/// The whole list as the value: `T`'s shape says how the arguments map onto it.
pub(crate) struct Whole<'s, 'a> {
    pub(crate) list: &'s mut List<'a>,
}

impl<'s, 'a> Whole<'s, 'a> {
    #[inline]
    fn seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let value = visitor.visit_seq(&mut *self.list)?;
        self.list.finish()?;
        Ok(value)
    }

    /// The call's single argument.
    #[inline]
    fn single(self) -> Result<Arg<'s, 'a>, DeError> {
        if self.list.count != 1 {
            return Err(de::Error::custom(format_args!(
                "{} arguments, the type is one argument",
                self.list.count
            )));
        }
        Ok(Arg { list: self.list })
    }

    fn none<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.list.count != 0 {
            return Err(de::Error::custom(format_args!(
                "{} arguments, the type takes none",
                self.list.count
            )));
        }
        visitor.visit_unit()
    }
}

macro_rules! single_method {
    ($($name:ident($($p:ident: $t:ty),*))*) => {$(
        #[inline]
        fn $name<V: Visitor<'a>>(self, $($p: $t,)* visitor: V) -> Result<V::Value, DeError> {
            de::Deserializer::$name(self.single()?, $($p,)* visitor)
        }
    )*};
}

/// A struct named by the root crate's marker types is one Godot value, so the call's single
/// argument; any other is read from the list as the closure says.
macro_rules! marker_or_list {
    ($($name:ident($($p:ident: $t:ty),*) => |$whole:ident, $visitor:ident| $list:expr;)*) => {$(
        fn $name<V: Visitor<'a>>(
            self,
            name: &'static str,
            $($p: $t,)*
            visitor: V,
        ) -> Result<V::Value, DeError> {
            if godot_serde::marker_type(name).is_some() {
                return de::Deserializer::$name(self.single()?, name, $($p,)* visitor);
            }
            let ($whole, $visitor) = (self, visitor);
            $list
        }
    )*};
}

impl<'a> de::Deserializer<'a> for Whole<'_, 'a> {
    type Error = DeError;

    fn is_human_readable(&self) -> bool {
        false
    }

    single_method! {
        deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_map()
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
    }

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _: usize, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.none(visitor)
    }

    marker_or_list! {
        deserialize_tuple_struct(len: usize) => |whole, visitor| whole.seq(visitor);
        deserialize_newtype_struct() => |whole, visitor| visitor.visit_newtype_struct(whole);
        deserialize_unit_struct() => |whole, visitor| whole.none(visitor);
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.list.count {
            0 => visitor.visit_none(),
            1 => de::Deserializer::deserialize_option(self.single()?, visitor),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

/// A call as an enum value: the method's name is the variant, the arguments its fields
/// (none for a unit variant, one value for a newtype variant, in order for a tuple or struct
/// variant).
pub(crate) struct Call<'s, 'a> {
    pub(crate) method: &'s str,
    pub(crate) list: &'s mut List<'a>,
}

impl<'de> de::Deserializer<'de> for Call<'_, 'de> {
    type Error = DeError;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_enum(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'s, 'a> EnumAccess<'a> for Call<'s, 'a> {
    type Error = DeError;
    type Variant = Whole<'s, 'a>;

    fn variant_seed<S: DeserializeSeed<'a>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Whole<'s, 'a>), DeError> {
        let de: de::value::StrDeserializer<'_, DeError> = self.method.into_deserializer();
        let variant = seed.deserialize(de)?;
        Ok((variant, Whole { list: self.list }))
    }
}

impl<'a> VariantAccess<'a> for Whole<'_, 'a> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        self.list.finish()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<S::Value, DeError> {
        // The one argument, whatever its shape (a struct is one Dictionary here).
        seed.deserialize(self.single()?)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _: usize, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::DeError;

    /// Every argument read returns a `Result` with this error: one pointer keeps those small
    /// (a `Result<i64, _>` of the unboxed `ProtocolError` it replaced was copied through
    /// memory).
    #[test]
    fn the_error_is_one_pointer() {
        assert_eq!(size_of::<DeError>(), size_of::<usize>());
        assert_eq!(size_of::<Result<i64, DeError>>(), 2 * size_of::<usize>());
    }
}
