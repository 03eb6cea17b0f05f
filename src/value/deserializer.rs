//! A serde `Deserializer` over a [`Variant`] (`&Variant` lends its strings and bytes,
//! `Variant` gives them away), as `serde_json::Value` is one.
//!
//! The Variant is presented exactly as our byte [`Deserializer`](crate::Deserializer)
//! presents the bytes of that Variant: the same `visit_*` calls for every `deserialize_*`
//! method, Godot types as the one-entry marker maps of [`crate::types`] (or their payload
//! directly when asked for by their own marker name), enums from a String, an int or a
//! one-entry Dictionary. So `T::deserialize(&variant)` gives what decoding
//! `to_bytes(&variant)` as `T` gives (for the Godot 4 layouts; `Config::from_variant` picks
//! this path exactly when that holds and goes through the bytes otherwise).
//!
//! A Dictionary key that is one of the reserved marker names (`"$godot_serde::Object"`, ...)
//! is refused wherever a self-describing visitor (`Variant`, `#[serde(untagged)]`) would read
//! the Dictionary, so no Godot type can be smuggled in as a plain Dictionary.

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer, U32Deserializer};
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

use super::{Array, ContainerType, Dictionary, Variant};
use crate::config::{Config, GodotVersion};
use crate::error::Error;
use crate::types::{
    OBJECT, OBJECT_ID, Real, TYPED_ARRAY, TYPED_DICTIONARY, marker, marker_inline, marker_name,
};
use crate::wire::{Scalar, VariantType};

type Result<T> = core::result::Result<T, Error>;

/// The `deserialize_*` methods of `&'de Variant` that only forward.
macro_rules! forward_variant_de {
    () => {
        forward_variant_de! {@
            deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
            deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
            deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any
        }
    };
    (@ $($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::$m(VariantDe::new(self, NATIVE_WIDE, Borrowed), visitor)
        }
    )*};
}

/// The `deserialize_*` methods of `Variant` that only forward.
macro_rules! forward_owned_variant_de {
    () => {
        forward_owned_variant_de! {@
            deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
            deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
            deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any
        }
    };
    (@ $($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::$m(VariantDe::new(&self, NATIVE_WIDE, Copied), visitor)
        }
    )*};
}

// ---------------------------------------------------------------------------------------------
// Lending: borrowed (`&'de Variant`) or copied (an owned `Variant`) strings and bytes

/// How strings and bytes of a Variant living for `'a` reach a visitor of `'de`.
pub(crate) trait Lend<'a, 'de>: Copy {
    /// Visits a string.
    fn str<V: Visitor<'de>>(self, s: &'a str, v: V) -> Result<V::Value>;
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
    fn str<V: Visitor<'de>>(self, s: &'a str, v: V) -> Result<V::Value> {
        v.visit_borrowed_str(s)
    }
    fn bytes<V: Visitor<'de>>(self, b: &'a [u8], v: V) -> Result<V::Value> {
        v.visit_borrowed_bytes(b)
    }
}

/// As [`Borrowed`], with the text the wire changes as decoding gives it: one leading BOM
/// dropped (what `from_variant` reads with).
#[derive(Clone, Copy)]
pub(crate) struct WireBorrowed;

impl<'a: 'de, 'de> Lend<'a, 'de> for WireBorrowed {
    fn str<V: Visitor<'de>>(self, s: &'a str, v: V) -> Result<V::Value> {
        v.visit_borrowed_str(s.strip_prefix('\u{FEFF}').unwrap_or(s))
    }
    fn bytes<V: Visitor<'de>>(self, b: &'a [u8], v: V) -> Result<V::Value> {
        v.visit_borrowed_bytes(b)
    }
}

impl<'de> Lend<'_, 'de> for Copied {
    fn str<V: Visitor<'de>>(self, s: &str, v: V) -> Result<V::Value> {
        v.visit_str(s)
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
    /// Present a plain Array whose elements share one type as typed, as the encoder's
    /// typed-container inference writes it (see [`inferred`]).
    infer: bool,
}

impl<'a, L: Copy> VariantDe<'a, L> {
    pub(crate) fn new(v: &'a Variant, wide: bool, lend: L) -> Self {
        VariantDe {
            v: null_object_as_nil(v),
            wide,
            lend,
            infer: false,
        }
    }

    /// With typed-container inference (see [`VariantDe::infer`]).
    pub(crate) fn inferring(self, infer: bool) -> Self {
        VariantDe { infer, ..self }
    }

    fn at(&self, v: &'a Variant) -> Self {
        VariantDe::new(v, self.wide, self.lend).inferring(self.infer)
    }

    /// Whether this Array is presented as typed.
    fn typed_array(&self, a: &Array) -> bool {
        a.element_type != ContainerType::Untyped || self.infer && inferred(&a.items)
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

impl<'de> de::Deserializer<'de> for &'de Variant {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_option(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_struct(name, fields, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        VariantDe::new(self, NATIVE_WIDE, Borrowed).deserialize_tuple(len, visitor)
    }

    forward_variant_de! {}

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'de> de::Deserializer<'de> for Variant {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_option(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_struct(name, fields, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        VariantDe::new(&self, NATIVE_WIDE, Copied).deserialize_tuple(len, visitor)
    }

    forward_owned_variant_de! {}

    fn is_human_readable(&self) -> bool {
        false
    }
}

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
    if let Variant::String(s) | Variant::StringName(crate::types::StringName(s)) = key {
        if marker(s).is_some() {
            return Err(de::Error::custom(format_args!(
                "Dictionary key {s:?} is reserved for godot_serde's own type markers"
            )));
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
            Variant::Array(a) if self.typed_array(a) => {
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
            Variant::String(s) | Variant::StringName(crate::types::StringName(s)) => {
                self.lend.str(s, visitor)
            }
            v => Err(unexpected(v, &visitor)),
        }
    }

    /// Array elements as a seq; every one must be taken.
    fn items<V: Visitor<'de>>(self, a: &'a Array, visitor: V) -> Result<V::Value> {
        let mut seq = Items {
            de: self.at(&Variant::Nil),
            iter: a.items.iter(),
        };
        let value = visitor.visit_seq(&mut seq)?;
        all_taken(seq.iter.len(), a.len(), "elements")?;
        Ok(value)
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
        let mut map = Entries {
            de: self.at(&Variant::Nil),
            iter: d.iter(),
            value: None,
        };
        let value = visitor.visit_map(&mut map)?;
        all_taken(map.iter.len(), d.len(), "entries")?;
        Ok(value)
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
            Variant::String(s) | Variant::StringName(crate::types::StringName(s)) => {
                self.lend.str(s, visitor)
            }
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
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.v {
            Variant::String(s) | Variant::StringName(crate::types::StringName(s)) => {
                self.lend.str(s, UnitEnum(visitor))
            }
            Variant::Int(i) => {
                let index = u32::try_from(*i).map_err(|_| {
                    <Error as de::Error>::invalid_value(Unexpected::Signed(*i), &"a variant index")
                })?;
                visitor.visit_enum(U32Deserializer::<Error>::new(index))
            }
            Variant::Dictionary(d) => match d.as_slice() {
                [(k, v)] => visitor.visit_enum(EnumEntry {
                    key: self.at(k),
                    value: self.at(v),
                }),
                entries => Err(de::Error::custom(format_args!(
                    "invalid enum: a Dictionary of {} entries, expected 1",
                    entries.len()
                ))),
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

/// A String visited as a unit enum variant.
struct UnitEnum<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitEnum<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(BorrowedStrDeserializer::new(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(v.to_owned().into_deserializer())
    }
}

/// An enum variant with data: the one entry of a Dictionary.
struct EnumEntry<'a, L> {
    key: VariantDe<'a, L>,
    value: VariantDe<'a, L>,
}

impl<'a, 'de, L: Lend<'a, 'de>> EnumAccess<'de> for EnumEntry<'a, L> {
    type Error = Error;
    type Variant = VariantDe<'a, L>;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self::Variant)> {
        Ok((seed.deserialize(self.key)?, self.value))
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> VariantAccess<'de> for VariantDe<'a, L> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self).map(|de::IgnoredAny| ())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

/// Array elements.
struct Items<'a, L> {
    de: VariantDe<'a, L>,
    iter: core::slice::Iter<'a, Variant>,
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Items<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.iter.next() {
            Some(v) => seed.deserialize(self.de.at(v)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// Dictionary entries.
struct Entries<'a, L> {
    de: VariantDe<'a, L>,
    iter: core::slice::Iter<'a, (Variant, Variant)>,
    value: Option<&'a Variant>,
}

impl<'a, 'de, L: Lend<'a, 'de>> MapAccess<'de> for Entries<'a, L> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(self.de.at(k)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.value.take() {
            Some(v) => seed.deserialize(self.de.at(v)),
            None => Err(de::Error::custom(
                "Dictionary value requested before its key",
            )),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The one-entry map `{ name: payload }` of a Godot type.
struct MarkerMap<'a, L> {
    de: Option<VariantDe<'a, L>>,
    name: &'static str,
    key_done: bool,
}

impl<'a, L> MarkerMap<'a, L> {
    fn new(de: VariantDe<'a, L>, name: &'static str) -> Self {
        MarkerMap {
            de: Some(de),
            name,
            key_done: false,
        }
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> MapAccess<'de> for MarkerMap<'a, L> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.key_done || self.de.is_none() {
            return Ok(None);
        }
        self.key_done = true;
        seed.deserialize(BorrowedStrDeserializer::new(self.name))
            .map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.de.take() {
            Some(de) => seed.deserialize(Payload(de)),
            None => Err(de::Error::custom("marker value requested twice")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(!self.key_done))
    }
}

/// A marker payload: its shape is fixed, so every method visits the same way.
struct Payload<'a, L>(VariantDe<'a, L>);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for Payload<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.payload(visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Math components, as the wire gives them: `f32` (rounded from an f64 `Real`) or `f64`
/// reals, `f32` Color channels, `i32` integer components.
struct Components {
    values: [f64; 16],
    ints: [i32; 4],
    n: u8,
    at: u8,
    comp: Comp,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Comp {
    F32,
    F64,
    I32,
}

impl Components {
    fn new(v: &Variant, n: u8, scalar: Scalar, wide: bool) -> Self {
        let mut c = Components {
            values: [0.0; 16],
            ints: [0; 4],
            n,
            at: 0,
            comp: match scalar {
                Scalar::I32 => Comp::I32,
                Scalar::Real if wide => Comp::F64,
                _ => Comp::F32,
            },
        };
        use core::slice::from_ref as one;
        let src: &[Real] = match v {
            Variant::Vector2(x) => reals(one(x)),
            Variant::Rect2(x) => reals(one(x)),
            Variant::Vector3(x) => reals(one(x)),
            Variant::Transform2D(x) => reals(one(&**x)),
            Variant::Vector4(x) => reals(one(x)),
            Variant::Plane(x) => reals(one(x)),
            Variant::Quaternion(x) => reals(one(x)),
            Variant::Aabb(x) => reals(one(&**x)),
            Variant::Basis(x) => reals(one(&**x)),
            Variant::Transform3D(x) => reals(one(&**x)),
            Variant::Projection(x) => reals(one(&**x)),
            _ => &[],
        };
        for (d, s) in c.values.iter_mut().zip(src) {
            #[allow(clippy::useless_conversion)] // f32 or f64, by feature
            let x = f64::from(*s);
            *d = x;
        }
        if let Variant::Color(x) = v {
            for (d, s) in c.values.iter_mut().zip(f32s(one(x))) {
                *d = f64::from(*s);
            }
        }
        let ints: &[i32] = match v {
            Variant::Vector2i(x) => bytemuck::cast_slice(one(x)),
            Variant::Rect2i(x) => bytemuck::cast_slice(one(x)),
            Variant::Vector3i(x) => bytemuck::cast_slice(one(x)),
            Variant::Vector4i(x) => bytemuck::cast_slice(one(x)),
            _ => &[],
        };
        for (d, s) in c.ints.iter_mut().zip(ints) {
            *d = *s;
        }
        c
    }

    fn finish(&self) -> Result<()> {
        if self.at >= self.n {
            Ok(())
        } else {
            Err(de::Error::custom(format_args!(
                "{} math components left unread",
                self.n - self.at
            )))
        }
    }
}

impl<'de> SeqAccess<'de> for Components {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.at >= self.n {
            return Ok(None);
        }
        let i = usize::from(self.at);
        self.at += 1;
        let x = self.values.get(i).copied().unwrap_or_default();
        match self.comp {
            #[allow(clippy::cast_possible_truncation)]
            Comp::F32 => seed.deserialize(Number(x as f32)).map(Some),
            Comp::F64 => seed.deserialize(Number(x)).map(Some),
            Comp::I32 => {
                let n = self.ints.get(i).copied().unwrap_or_default();
                seed.deserialize(Number(n)).map(Some)
            }
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.n - self.at))
    }
}

/// Visits the components, then checks that all were taken (as the byte deserializer does).
impl Components {
    fn visit<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_seq(&mut self)?;
        self.finish()?;
        Ok(value)
    }
}

/// One number, visited as its own type.
struct Number<T>(T);

macro_rules! number_de {
    ($($t:ty => $visit:ident),*) => {$(
        impl<'de> de::Deserializer<'de> for Number<$t> {
            type Error = Error;
            fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                visitor.$visit(self.0)
            }
            forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
                struct enum identifier ignored_any
            }
        }
    )*};
}

number_de!(u8 => visit_u8, i32 => visit_i32, i64 => visit_i64, f32 => visit_f32, f64 => visit_f64);

/// Numbers of a packed array, one by one.
struct NumberSeq<I>(I);

impl<'de, T, I: Iterator<Item = T> + ExactSizeIterator> SeqAccess<'de> for NumberSeq<I>
where
    Number<T>: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.0.next() {
            Some(x) => seed.deserialize(Number(x)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// Packed vector / Color elements one by one, each the seq of its components.
struct ElementSeq<'a, F> {
    chunks: core::slice::ChunksExact<'a, F>,
    comp: Comp,
}

impl<'a, F> ElementSeq<'a, F> {
    fn new(items: &'a [F], n: usize, scalar: Scalar, wide: bool) -> Self {
        ElementSeq {
            chunks: items.chunks_exact(n.max(1)),
            comp: match scalar {
                Scalar::Real if wide => Comp::F64,
                _ => Comp::F32,
            },
        }
    }
}

impl<'de, F: Copy + Into<f64>> SeqAccess<'de> for ElementSeq<'_, F> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some(chunk) = self.chunks.next() else {
            return Ok(None);
        };
        let mut c = Components {
            values: [0.0; 16],
            ints: [0; 4],
            n: u8::try_from(chunk.len()).unwrap_or(0),
            at: 0,
            comp: self.comp,
        };
        for (d, s) in c.values.iter_mut().zip(chunk) {
            *d = (*s).into();
        }
        seed.deserialize(SeqOnce(c)).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.chunks.len())
    }
}

/// Hands a `Components` to whatever deserializes it.
struct SeqOnce(Components);

impl<'de> de::Deserializer<'de> for SeqOnce {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.visit(visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Strings one by one (PackedStringArray elements, NodePath names).
struct Strs<'a, L> {
    iter: core::slice::Iter<'a, String>,
    lend: L,
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Strs<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.iter.next() {
            Some(s) => seed.deserialize(Str(s, self.lend)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// One string.
struct Str<'a, L>(&'a str, L);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for Str<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.1.str(self.0, visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The fields of a multi-field payload.
enum FieldKind<'a> {
    Signal(&'a crate::types::Signal),
    NodePath(&'a crate::types::NodePath),
    Object(&'a super::Object),
    TypedArray(&'a Array),
    TypedDictionary(&'a Dictionary),
}

struct Fields<'a, L> {
    de: VariantDe<'a, L>,
    kind: FieldKind<'a>,
    field: u8,
}

impl<'a, L> Fields<'a, L> {
    fn new(de: VariantDe<'a, L>, kind: FieldKind<'a>) -> Self {
        Fields { de, kind, field: 0 }
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Fields<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let field = self.field;
        self.field += 1;
        let lend = self.de.lend;
        let de = self.de.at(&Variant::Nil);
        let value = match (&self.kind, field) {
            (FieldKind::Signal(s), 0) => seed.deserialize(Str(&s.name, lend))?,
            (FieldKind::Signal(s), 1) => {
                seed.deserialize(de::value::U64Deserializer::<Error>::new(s.object.0))?
            }
            (FieldKind::NodePath(p), 0) => seed.deserialize(StrSeq(Strs {
                iter: p.names.iter(),
                lend,
            }))?,
            (FieldKind::NodePath(p), 1) => seed.deserialize(StrSeq(Strs {
                iter: p.subnames.iter(),
                lend,
            }))?,
            (FieldKind::NodePath(p), 2) => {
                seed.deserialize(de::value::BoolDeserializer::<Error>::new(p.absolute))?
            }
            (FieldKind::Object(o), 0) => {
                seed.deserialize(StringDeserializer::<Error>::new(o.class.clone()))?
            }
            (FieldKind::Object(o), 1) => seed.deserialize(PropertiesDe {
                de,
                props: &o.properties,
            })?,
            (FieldKind::TypedArray(a), 0) => match (&a.element_type, a.items.first()) {
                (ContainerType::Untyped, Some(x)) if self.de.infer => {
                    let t = ContainerType::Builtin(x.variant_type());
                    seed.deserialize(DescriptorDe(&t))?
                }
                (t, _) => seed.deserialize(DescriptorDe(t))?,
            },
            (FieldKind::TypedDictionary(d), 0) => seed.deserialize(DescriptorDe(&d.key_type))?,
            (FieldKind::TypedDictionary(d), 1) => seed.deserialize(DescriptorDe(&d.value_type))?,
            (FieldKind::TypedArray(a), 1) => seed.deserialize(ItemsDe(de, a))?,
            (FieldKind::TypedDictionary(d), 2) => seed.deserialize(EntriesDe(de, d))?,
            _ => return Ok(None),
        };
        Ok(Some(value))
    }
}

/// A seq of strings as a deserializer.
struct StrSeq<'a, L>(Strs<'a, L>);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for StrSeq<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.0)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A typed Array's elements as a deserializer.
struct ItemsDe<'a, L>(VariantDe<'a, L>, &'a Array);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for ItemsDe<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.items(self.1, visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A typed Dictionary's entries as a deserializer.
struct EntriesDe<'a, L>(VariantDe<'a, L>, &'a Dictionary);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for EntriesDe<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.entries(self.1, false, visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A container type as the 3-tuple `(kind, Godot 4 type id, class or script)`.
struct DescriptorDe<'a>(&'a ContainerType);

impl<'de> de::Deserializer<'de> for DescriptorDe<'_> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (kind, id, name) = self.0.parts();
        visitor.visit_seq(DescriptorSeq {
            kind,
            id,
            name: Some(name.to_owned()),
            field: 0,
        })
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct DescriptorSeq {
    kind: u8,
    id: u32,
    name: Option<String>,
    field: u8,
}

impl<'de> SeqAccess<'de> for DescriptorSeq {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        self.field += 1;
        match self.field {
            1 => seed.deserialize(self.kind.into_deserializer()).map(Some),
            2 => seed.deserialize(self.id.into_deserializer()).map(Some),
            3 => seed
                .deserialize(StringDeserializer::<Error>::new(
                    self.name.take().unwrap_or_default(),
                ))
                .map(Some),
            _ => Ok(None),
        }
    }
}

/// Full-object properties: names, then values.
struct PropertiesDe<'a, L> {
    de: VariantDe<'a, L>,
    props: &'a [(String, Variant)],
}

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for PropertiesDe<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(Properties {
            de: self.de,
            iter: self.props.iter(),
            value: None,
        })
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct Properties<'a, L> {
    de: VariantDe<'a, L>,
    iter: core::slice::Iter<'a, (String, Variant)>,
    value: Option<&'a Variant>,
}

impl<'a, 'de, L: Lend<'a, 'de>> MapAccess<'de> for Properties<'a, L> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(Str(k, self.de.lend)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.value.take() {
            Some(v) => seed.deserialize(self.de.at(v)),
            None => Err(de::Error::custom(
                "property value requested before its name",
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// When the direct path is exact

/// Whether presenting `v` directly gives exactly what decoding `config.to_bytes(v)` gives
/// (with objects allowed), read with [`infers`]: a layout that has every type and
/// descriptor in `v` (in Godot 3, one that decodes them unchanged and without double
/// precision; no RID, object id or full Object there), no text that the wire refuses (a
/// NUL) or changes (a leading BOM, unless `bom_ok`: outside Dictionary keys and Object
/// names the reader drops it), and a nesting well within the depth limit. Anything else
/// takes the bytes. A reserved marker key is refused on the direct path wherever a map is
/// read (see the module docs).
pub(crate) fn direct_ok(v: &Variant, config: &Config, bom_ok: bool) -> bool {
    direct_with(v, config, bom_ok, false)
}

/// [`direct_ok`] for a Variant whose Objects, RIDs, object ids and NodePaths came from
/// decoding with `config` already (`settled`), as the Variant serializer builds them:
/// encoding and decoding them again changes nothing.
pub(crate) fn direct_with(v: &Variant, config: &Config, bom_ok: bool, settled: bool) -> bool {
    let version = config.version();
    // Godot 3 has no double-precision math types: the encoder refuses them.
    if !version.is_godot4() && config.double_precision() {
        return false;
    }
    let rules = Rules {
        version,
        bom_ok,
        settled,
    };
    plain(v, rules, config.max_depth() / 2)
}

/// Whether the encoder of `config` types a plain Array whose elements share one type
/// (typed-container inference): the direct reader then presents such an Array as typed
/// (see [`VariantDe::inferring`]).
pub(crate) fn infers(config: &Config) -> bool {
    config.typed_containers() && config.version().has_typed_arrays()
}

/// What the wire of one config keeps as it is.
#[derive(Clone, Copy)]
struct Rules {
    version: GodotVersion,
    /// A leading BOM in text other than a Dictionary key is fine: the reader drops it, as
    /// decoding does ([`WireBorrowed`]). A key keeps it out: dropping it may merge keys.
    bom_ok: bool,
    /// See [`direct_with`].
    settled: bool,
}

/// Whether the encoder's typed-container inference would type this untyped Array: every
/// element has the same type, one that a typed Array can hold (not nil or a container).
pub(crate) fn inferred(items: &[Variant]) -> bool {
    let Some(first) = items.first() else {
        return false;
    };
    let ty = first.variant_type();
    !matches!(
        ty,
        VariantType::Nil | VariantType::Array | VariantType::Dictionary | VariantType::Object
    ) && items.iter().all(|x| x.variant_type() == ty)
}

/// A type that Godot 3 decodes exactly as it was (RIDs lose their id, ids and objects
/// take other forms there).
fn godot3_same(v: &Variant) -> bool {
    !matches!(
        v,
        Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_)
    ) && v.variant_type().id(GodotVersion::V3).is_some()
}

fn text_ok(s: &str) -> bool {
    !s.as_bytes().contains(&0) && !s.starts_with('\u{FEFF}')
}

fn descriptor_ok(t: &ContainerType) -> bool {
    match t {
        ContainerType::Untyped => true,
        ContainerType::Builtin(ty) => *ty != VariantType::Nil && *ty != VariantType::Object,
        ContainerType::ClassName(_) | ContainerType::Script(_) => false,
    }
}

fn plain(v: &Variant, rules: Rules, depth: usize) -> bool {
    let version = rules.version;
    let text_ok = |s: &str| text_ok(s) || rules.bom_ok && !s.as_bytes().contains(&0);
    if rules.settled
        && matches!(
            v,
            Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_) | Variant::NodePath(_)
        )
    {
        return true;
    }
    if !version.is_godot4() && !godot3_same(v) {
        return false;
    }
    match v {
        Variant::String(s) | Variant::StringName(crate::types::StringName(s)) => text_ok(s),
        Variant::NodePath(p) => p.names.iter().chain(&p.subnames).all(|s| text_ok(s)),
        Variant::Signal(s) => text_ok(&s.name),
        Variant::PackedStringArray(p) => p.0.iter().all(|s| text_ok(s)),
        Variant::PackedVector4Array(_) => version.has_typed_arrays(),
        Variant::Object(o) => {
            depth > 0
                // The class and property names are not read through the BOM-dropping lend.
                && self::text_ok(&o.class)
                && o.properties
                    .iter()
                    .all(|(k, x)| self::text_ok(k) && plain(x, rules, depth - 1))
        }
        Variant::Array(a) => {
            depth > 0
                && (a.element_type == ContainerType::Untyped
                    || a.element_type != ContainerType::Untyped
                        && version.has_typed_arrays()
                        && descriptor_ok(&a.element_type))
                && a.items.iter().all(|x| plain(x, rules, depth - 1))
        }
        Variant::Dictionary(d) => {
            depth > 0
                && (!d.is_typed()
                    || version.has_typed_dictionaries()
                        && descriptor_ok(&d.key_type)
                        && descriptor_ok(&d.value_type))
                && d.iter().all(|(k, x)| {
                    let key_rules = Rules {
                        bom_ok: false,
                        ..rules
                    };
                    plain(k, key_rules, depth - 1) && plain(x, rules, depth - 1)
                })
        }
        _ => true,
    }
}
