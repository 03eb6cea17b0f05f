//! A serde `Deserializer` over a [`Variant`] (`&Variant` lends its strings and bytes,
//! `Variant` gives them away), as `serde_json::Value` is one.
//!
//! The Variant is presented exactly as our byte [`Deserializer`](crate::Deserializer)
//! presents the bytes of that Variant: the same `visit_*` calls for every `deserialize_*`
//! method, Godot types as the one-entry marker maps of [`crate::types`] (or their payload
//! directly when asked for by their own marker name), enums from a String, an int or a
//! one-entry Dictionary. So `T::deserialize(&variant)` gives what decoding
//! `to_bytes(&variant)` as `T` gives whenever those bytes decode back to `variant` itself
//! (`Config::from_variant` checks exactly that, on the decoded bytes, and reads the bytes
//! otherwise). It applies none of the wire's rules itself.
//!
//! A Dictionary key that starts with `$godot_serde::` (a reserved marker name such as
//! `"$godot_serde::Object"`, or any other: the one rule of `wire::types::is_reserved_key`)
//! is refused wherever a self-describing visitor (`Variant`, `#[serde(untagged)]`) would read
//! the Dictionary, so no Godot type can be smuggled in as a plain Dictionary.

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, U32Deserializer};
use serde::de::{self, IntoDeserializer, Unexpected, Visitor};

use super::{Array, ContainerType, Dictionary, Variant};
use crate::config::GodotVersion;
use crate::de::UnitEnum;
use crate::error::Error;
use crate::types::{
    OBJECT, OBJECT_ID, Real, TYPED_ARRAY, TYPED_DICTIONARY, is_reserved_key, marker_inline,
    marker_name,
};
use crate::wire::{Scalar, VariantType};

mod access;
mod components;

use access::{EnumEntry, Items, MarkerMap, Pairs};
use components::{Components, ElementSeq, FieldKind, Fields, NumberSeq, Strs};

type Result<T> = core::result::Result<T, Error>;

/// `de::Deserializer` for `&'de Variant` (`borrowed`: strings and bytes lent for `'de`) or
/// `Variant` (`owned`: copied out): every method builds a [`VariantDe`] and forwards to it.
macro_rules! variant_deserializer {
    (@new borrowed $v:expr) => {
        VariantDe::new($v, NATIVE_WIDE, Borrowed)
    };
    (@new owned $v:expr) => {
        VariantDe::new(&$v, NATIVE_WIDE, Copied)
    };
    ($ty:ty, $lend:ident) => {
        impl<'de> de::Deserializer<'de> for $ty {
            type Error = Error;

            variant_deserializer! {@forward $lend
                deserialize_any deserialize_option deserialize_bool deserialize_i8
                deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8
                deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
                deserialize_f32 deserialize_f64 deserialize_char deserialize_str
                deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
                deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any
            }

            fn deserialize_enum<V: Visitor<'de>>(
                self,
                name: &'static str,
                variants: &'static [&'static str],
                visitor: V,
            ) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_enum(name, variants, visitor)
            }

            fn deserialize_unit_struct<V: Visitor<'de>>(
                self,
                name: &'static str,
                visitor: V,
            ) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_unit_struct(name, visitor)
            }

            fn deserialize_newtype_struct<V: Visitor<'de>>(
                self,
                name: &'static str,
                visitor: V,
            ) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_newtype_struct(name, visitor)
            }

            fn deserialize_tuple_struct<V: Visitor<'de>>(
                self,
                name: &'static str,
                len: usize,
                visitor: V,
            ) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_tuple_struct(name, len, visitor)
            }

            fn deserialize_struct<V: Visitor<'de>>(
                self,
                name: &'static str,
                fields: &'static [&'static str],
                visitor: V,
            ) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_struct(name, fields, visitor)
            }

            fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
                variant_deserializer!(@new $lend self).deserialize_tuple(len, visitor)
            }

            fn is_human_readable(&self) -> bool {
                false
            }
        }
    };
    (@forward $lend:ident $($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::$m(variant_deserializer!(@new $lend self), visitor)
        }
    )*};
}

// ---------------------------------------------------------------------------------------------
// Lending: borrowed (`&'de Variant`) or copied (an owned `Variant`) strings and bytes

/// How strings and bytes of a Variant living for `'a` reach a visitor of `'de`.
pub(crate) trait Lend<'a, 'de>: Copy {
    /// serde's deserializer of one string: `BorrowedStrDeserializer` when the Variant lends
    /// it, `StrDeserializer` when it is visited transiently.
    type Str: de::Deserializer<'de, Error = Error>;
    /// The deserializer of the string `s`.
    fn str_de(self, s: &'a str) -> Self::Str;
    /// Visits a string.
    fn str<V: Visitor<'de>>(self, s: &'a str, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self.str_de(s), v)
    }
    /// Visits bytes.
    fn bytes<V: Visitor<'de>>(self, b: &'a [u8], v: V) -> Result<V::Value>;
}

/// The Variant outlives the visitor's `'de`: strings and bytes are lent.
#[derive(Clone, Copy)]
pub(crate) struct Borrowed;

/// The Variant is a temporary: strings and bytes are visited transiently.
#[derive(Clone, Copy)]
pub(crate) struct Copied;

impl<'a: 'de, 'de> Lend<'a, 'de> for Borrowed {
    type Str = BorrowedStrDeserializer<'de, Error>;
    fn str_de(self, s: &'a str) -> Self::Str {
        BorrowedStrDeserializer::new(s)
    }
    fn bytes<V: Visitor<'de>>(self, b: &'a [u8], v: V) -> Result<V::Value> {
        v.visit_borrowed_bytes(b)
    }
}

impl<'a, 'de> Lend<'a, 'de> for Copied {
    type Str = StrDeserializer<'a, Error>;
    fn str_de(self, s: &'a str) -> Self::Str {
        StrDeserializer::new(s)
    }
    fn bytes<V: Visitor<'de>>(self, b: &[u8], v: V) -> Result<V::Value> {
        v.visit_bytes(b)
    }
}

// ---------------------------------------------------------------------------------------------
// The deserializer

/// Presents one [`Variant`]; `wide`: float math components as f64 (the wire's double
/// precision flag), else as f32.
pub(crate) struct VariantDe<'a, L> {
    v: &'a Variant,
    wide: bool,
    lend: L,
    /// An int is an enum variant index ([`EnumRepr::Index`](crate::EnumRepr::Index)); without
    /// it, as in the bytes' default name mode, an int is not a variant.
    enum_indices: bool,
}

impl<'a, L: Copy> VariantDe<'a, L> {
    pub(crate) fn new(v: &'a Variant, wide: bool, lend: L) -> Self {
        VariantDe {
            v: null_object_as_nil(v),
            wide,
            lend,
            enum_indices: false,
        }
    }

    /// Ints read as enum variant indices (see [`VariantDe::enum_indices`]).
    pub(crate) fn with_enum_indices(self, enum_indices: bool) -> Self {
        VariantDe {
            enum_indices,
            ..self
        }
    }

    fn at(&self, v: &'a Variant) -> Self {
        VariantDe {
            enum_indices: self.enum_indices,
            ..VariantDe::new(v, self.wide, self.lend)
        }
    }
}

/// The null object (instance id 0) is written as `Nil`.
fn null_object_as_nil(v: &Variant) -> &Variant {
    static NIL: Variant = Variant::Nil;
    match v {
        Variant::ObjectId(id) if id.0 == 0 => &NIL,
        v => v,
    }
}

/// Reals as the in-memory precision has them: f64 with the `double-precision` feature.
const NATIVE_WIDE: bool = cfg!(feature = "double-precision");

variant_deserializer!(&'de Variant, borrowed);
variant_deserializer!(Variant, owned);

impl<'de> IntoDeserializer<'de, Error> for &'de Variant {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> IntoDeserializer<'de, Error> for Variant {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// The error for a Variant whose type the visitor does not take.
#[cold]
fn unexpected(v: &Variant, exp: &dyn de::Expected) -> Error {
    de::Error::invalid_type(
        Unexpected::Other(v.variant_type().name_in(GodotVersion::V4_4)),
        exp,
    )
}

/// The reserved-key check of self-describing reads: see the module docs.
fn check_key(key: &Variant) -> Result<()> {
    if let Some(s) = key.as_str() {
        if is_reserved_key(s) {
            return Err(Error::new(crate::ErrorKind::ReservedKey { key: s.into() }));
        }
    }
    Ok(())
}

impl<'a, 'de, L: Lend<'a, 'de>> VariantDe<'a, L> {
    /// Whether this value's float components go out as f64.
    fn wide_for(&self, ty: VariantType) -> bool {
        self.wide && ty.has_real_components()
    }

    /// `deserialize_any`: the value as it is, Godot types as marker maps.
    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::Nil => visitor.visit_unit(),
            Variant::Bool(b) => visitor.visit_bool(*b),
            Variant::Int(i) => visitor.visit_i64(*i),
            Variant::Float(x) => visitor.visit_f64(*x),
            Variant::String(s) => self.lend.str(s, visitor),
            Variant::Array(a) if a.element_type != ContainerType::Untyped => {
                visitor.visit_map(MarkerMap::new(self, TYPED_ARRAY))
            }
            Variant::Array(a) => self.items(a, visitor),
            Variant::Dictionary(d) if d.is_typed() => {
                visitor.visit_map(MarkerMap::new(self, TYPED_DICTIONARY))
            }
            Variant::Dictionary(d) => self.entries(d, true, visitor),
            Variant::ObjectId(_) => visitor.visit_map(MarkerMap::new(self, OBJECT_ID)),
            Variant::Object(_) => visitor.visit_map(MarkerMap::new(self, OBJECT)),
            v => {
                let ty = v.variant_type();
                match marker_name(ty, self.wide_for(ty)) {
                    Some(name) => visitor.visit_map(MarkerMap::new(self, name)),
                    None => Err(unexpected(v, &visitor)),
                }
            }
        }
    }

    /// Nil, bool, int, float, String and StringName are visited; anything else is an error.
    fn scalar<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::Nil | Variant::Bool(_) | Variant::Int(_) | Variant::Float(_) => {
                self.any(visitor)
            }
            Variant::String(s) => self.lend.str(s, visitor),
            Variant::StringName(crate::types::StringName(s)) => self.lend.str(s, visitor),
            v => Err(unexpected(v, &visitor)),
        }
    }

    /// Array elements as a seq; every one must be taken.
    fn items<V: Visitor<'de>>(self, a: &'a Array, visitor: V) -> Result<V::Value> {
        // One container level, on a grown stack when it runs low (as decoding does): a
        // Variant nested up to Godot's limit reads on a 2 MiB thread.
        super::grow(|| {
            let mut seq = Items {
                de: self.at(&Variant::Nil),
                iter: a.items.iter(),
            };
            let value = visitor.visit_seq(&mut seq)?;
            all_taken(seq.iter.len(), a.len(), "elements")?;
            Ok(value)
        })
    }

    /// Dictionary entries as a map; every one must be taken. `guard`: refuse reserved keys
    /// (always, but in typed Dictionaries, whose payload the byte decoder never guards: a
    /// buffering visitor such as `flatten` may hand any map on to a `Variant`).
    fn entries<V: Visitor<'de>>(
        self,
        d: &'a Dictionary,
        guard: bool,
        visitor: V,
    ) -> Result<V::Value> {
        if guard {
            for (k, _) in d.iter() {
                check_key(k)?;
            }
        }
        super::grow(|| {
            let mut map = Pairs::new(self.at(&Variant::Nil), d.as_slice());
            let value = visitor.visit_map(&mut map)?;
            all_taken(map.iter.len(), d.len(), "entries")?;
            Ok(value)
        })
    }

    /// A marker type asked for by name (see `marker_value` of the byte deserializer).
    fn marker_value<V: Visitor<'de>>(
        self,
        m: crate::types::Marker,
        visitor: V,
    ) -> Result<V::Value> {
        let ty = self.v.variant_type();
        match self.v {
            Variant::Array(_) if m.typed && m.ty == VariantType::Array => {
                visitor.visit_map(MarkerMap::new(self, TYPED_ARRAY))
            }
            Variant::Dictionary(_) if m.typed && m.ty == VariantType::Dictionary => {
                visitor.visit_map(MarkerMap::new(self, TYPED_DICTIONARY))
            }
            Variant::Nil | Variant::ObjectId(_) if m.as_id => {
                visitor.visit_map(MarkerMap::new(self, OBJECT_ID))
            }
            Variant::Object(_) if !m.as_id => self.any(visitor),
            Variant::String(_) if m.ty == VariantType::StringName => self.any(visitor),
            Variant::ObjectId(_) | Variant::Object(_) => Err(unexpected(self.v, &visitor)),
            _ if ty == m.ty && !m.typed => {
                if let Some((n, scalar)) = ty.components() {
                    let wide = self.wide_for(ty);
                    return Components::new(self.v, n, scalar, wide).visit(visitor);
                }
                if let Variant::PackedStringArray(p) = self.v {
                    return visitor.visit_seq(Strs {
                        iter: p.0.iter(),
                        lend: self.lend,
                    });
                }
                self.any(visitor)
            }
            v => Err(unexpected(v, &visitor)),
        }
    }

    /// A struct key or enum variant name: a String / StringName is a name, a non-negative
    /// int that the wire holds in 32 bits an index, anything else is visited as it is.
    fn identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::String(s) => self.lend.str(s, visitor),
            Variant::StringName(crate::types::StringName(s)) => self.lend.str(s, visitor),
            Variant::Int(i) if i32::try_from(*i).is_ok() => match u64::try_from(*i) {
                Ok(n) => visitor.visit_u64(n),
                Err(_) => Err(unexpected(self.v, &visitor)),
            },
            _ => self.any(visitor),
        }
    }

    /// The elements of a numeric packed array one by one.
    fn packed_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let wide = self.wide_for(self.v.variant_type());
        match self.v {
            Variant::PackedByteArray(p) => visitor.visit_seq(NumberSeq(p.0.iter().copied())),
            Variant::PackedInt32Array(p) => visitor.visit_seq(NumberSeq(p.0.iter().copied())),
            Variant::PackedInt64Array(p) => visitor.visit_seq(NumberSeq(p.0.iter().copied())),
            Variant::PackedFloat32Array(p) => visitor.visit_seq(NumberSeq(p.0.iter().copied())),
            Variant::PackedFloat64Array(p) => visitor.visit_seq(NumberSeq(p.0.iter().copied())),
            Variant::PackedVector2Array(p) => {
                visitor.visit_seq(ElementSeq::new(reals(&p.0), 2, Scalar::Real, wide))
            }
            Variant::PackedVector3Array(p) => {
                visitor.visit_seq(ElementSeq::new(reals(&p.0), 3, Scalar::Real, wide))
            }
            Variant::PackedVector4Array(p) => {
                visitor.visit_seq(ElementSeq::new(reals(&p.0), 4, Scalar::Real, wide))
            }
            Variant::PackedColorArray(p) => {
                visitor.visit_seq(ElementSeq::new(f32s(&p.0), 4, Scalar::F32, wide))
            }
            v => Err(unexpected(v, &visitor)),
        }
    }

    /// The payload of this value's marker map.
    fn payload<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let ty = self.v.variant_type();
        if let Some((n, scalar)) = ty.components() {
            return Components::new(self.v, n, scalar, self.wide_for(ty)).visit(visitor);
        }
        match self.v {
            Variant::StringName(s) => self.lend.str(&s.0, visitor),
            Variant::Rid(r) => visitor.visit_u64(r.0),
            Variant::ObjectId(id) => visitor.visit_u64(id.0),
            Variant::Nil => visitor.visit_u64(0),
            Variant::Callable(_) => visitor.visit_unit(),
            Variant::Signal(s) => visitor.visit_seq(Fields::new(self, FieldKind::Signal(s))),
            Variant::NodePath(p) => visitor.visit_seq(Fields::new(self, FieldKind::NodePath(p))),
            Variant::Object(o) => visitor.visit_seq(Fields::new(self, FieldKind::Object(o))),
            Variant::Array(a) => visitor.visit_seq(Fields::new(self, FieldKind::TypedArray(a))),
            Variant::Dictionary(d) => {
                visitor.visit_seq(Fields::new(self, FieldKind::TypedDictionary(d)))
            }
            Variant::PackedByteArray(p) => self.lend.bytes(&p.0, visitor),
            Variant::PackedInt32Array(p) => packed_bytes(self.lend, &p.0, visitor),
            Variant::PackedInt64Array(p) => packed_bytes(self.lend, &p.0, visitor),
            Variant::PackedFloat32Array(p) => packed_bytes(self.lend, &p.0, visitor),
            Variant::PackedFloat64Array(p) => packed_bytes(self.lend, &p.0, visitor),
            Variant::PackedColorArray(p) => packed_bytes(self.lend, &p.0, visitor),
            Variant::PackedVector2Array(p) => {
                real_bytes(self.lend, reals(&p.0), self.wide, visitor)
            }
            Variant::PackedVector3Array(p) => {
                real_bytes(self.lend, reals(&p.0), self.wide, visitor)
            }
            Variant::PackedVector4Array(p) => {
                real_bytes(self.lend, reals(&p.0), self.wide, visitor)
            }
            Variant::PackedStringArray(p) => visitor.visit_seq(Strs {
                iter: p.0.iter(),
                lend: self.lend,
            }),
            v => Err(unexpected(v, &visitor)),
        }
    }
}

/// An error unless the visitor took all `count` elements or entries.
fn all_taken(left: usize, count: usize, unit: &str) -> Result<()> {
    if left == 0 {
        return Ok(());
    }
    Err(de::Error::invalid_length(
        count,
        &format!("{} {unit}", count - left).as_str(),
    ))
}

/// The components of math values or vector elements, as `Real`s.
fn reals<T: bytemuck::Pod>(v: &[T]) -> &[Real] {
    bytemuck::try_cast_slice(v).unwrap_or_default()
}

/// The components of Colors.
fn f32s<T: bytemuck::Pod>(v: &[T]) -> &[f32] {
    bytemuck::try_cast_slice(v).unwrap_or_default()
}

/// A numeric packed array's elements as their little-endian bytes (no count, no padding).
fn packed_bytes<'a, 'de, T: bytemuck::Pod + ToLe, L: Lend<'a, 'de>, V: Visitor<'de>>(
    lend: L,
    items: &'a [T],
    visitor: V,
) -> Result<V::Value> {
    if cfg!(target_endian = "little") {
        return lend.bytes(bytemuck::cast_slice(items), visitor);
    }
    let mut out = Vec::with_capacity(size_of_val(items));
    for x in items {
        x.put_le(&mut out);
    }
    visitor.visit_byte_buf(out)
}

/// Packed vector components as little-endian bytes of f64 (`wide`) or f32.
fn real_bytes<'a, 'de, L: Lend<'a, 'de>, V: Visitor<'de>>(
    lend: L,
    items: &'a [Real],
    wide: bool,
    visitor: V,
) -> Result<V::Value> {
    if wide == NATIVE_WIDE {
        return packed_bytes(lend, items, visitor);
    }
    let mut out = Vec::with_capacity(items.len() * if wide { 8 } else { 4 });
    for &x in items {
        if wide {
            #[allow(clippy::useless_conversion)] // f32 or f64, by feature
            f64::from(x).put_le(&mut out);
        } else {
            #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
            (x as f32).put_le(&mut out);
        }
    }
    visitor.visit_byte_buf(out)
}

/// Little-endian bytes of a number.
trait ToLe {
    fn put_le(&self, out: &mut Vec<u8>);
}

macro_rules! to_le {
    ($($t:ty),*) => {$(
        impl ToLe for $t {
            fn put_le(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

to_le!(i32, i64, f32, f64);

impl ToLe for crate::types::Color {
    fn put_le(&self, out: &mut Vec<u8>) {
        for x in [self.r, self.g, self.b, self.a] {
            x.put_le(out);
        }
    }
}

/// Every `deserialize_*` method of [`VariantDe`] (shared by the public impls through the
/// forwarding macros below).
impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for VariantDe<'a, L> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Variant::Float(x) = self.v {
            crate::error::fits_f32(*x)?;
        }
        self.scalar(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::PackedByteArray(p) => self.lend.bytes(&p.0, visitor),
            Variant::Array(_) | Variant::String(_) => self.any(visitor),
            v => Err(unexpected(v, &visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::Nil => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match marker_inline(name) {
            Some(m) => self.marker_value(m, visitor),
            None => self.scalar(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match marker_inline(name) {
            Some(m) => self.marker_value(m, visitor),
            None => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::Array(a) => self.items(a, visitor),
            Variant::PackedStringArray(p) => visitor.visit_seq(Strs {
                iter: p.0.iter(),
                lend: self.lend,
            }),
            v if v.variant_type().packed_element().is_some() => self.packed_seq(visitor),
            v => Err(unexpected(v, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        match marker_inline(name) {
            Some(m) => {
                let ty = self.v.variant_type();
                match m.ty.components() {
                    Some((n, scalar)) if ty == m.ty => {
                        let wide = self.wide_for(ty);
                        Components::new(self.v, n, scalar, wide).visit(visitor)
                    }
                    _ => self.marker_value(m, visitor),
                }
            }
            None => self.deserialize_seq(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            Variant::Dictionary(d) => self.entries(d, true, visitor),
            v => Err(unexpected(v, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.v {
            Variant::Dictionary(d) => self.entries(d, true, visitor),
            Variant::Array(a) => self.items(a, visitor),
            v => Err(unexpected(v, &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.v {
            Variant::String(s) => self.lend.str(s, UnitEnum(visitor)),
            Variant::StringName(crate::types::StringName(s)) => self.lend.str(s, UnitEnum(visitor)),
            Variant::Int(i) if !self.enum_indices => Err(crate::de::enum_index_refused(name, *i)),
            Variant::Int(i) => {
                let index = u32::try_from(*i).map_err(|_| {
                    <Error as de::Error>::invalid_value(Unexpected::Signed(*i), &"a variant index")
                })?;
                visitor.visit_enum(U32Deserializer::<Error>::new(index))
            }
            Variant::Dictionary(d) => match d.as_slice() {
                [(Variant::Int(i), _)] if !self.enum_indices => {
                    Err(crate::de::enum_index_refused(name, *i))
                }
                [(k, v)] => visitor.visit_enum(EnumEntry {
                    key: self.at(k),
                    value: self.at(v),
                }),
                entries => Err(Error::new(crate::ErrorKind::EnumShape {
                    entries: entries.len(),
                })),
            },
            v => Err(unexpected(v, &visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.identifier(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
