//! Packed arrays (Godot 3 `Pool*Array`): typed, contiguous sequences that Godot writes as a
//! count and the elements back to back, with no per-element header.
//!
//! Serialization follows the marker protocol in [`crate::types`]: numeric and vector arrays
//! are their elements' little-endian bytes in compact formats (borrowed, not copied, on
//! little-endian hosts) and a plain sequence of elements in human-readable ones.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, SeqAccess};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::math::{Color, Real, Vector2, Vector3, Vector4};
use serde::de::DeserializeSeed;

use super::proto::{
    BytesSeed, Flat, Payload, cautious, decode_packed, encode_packed, visit_marker_map,
};
use super::{
    PACKED_BYTE_ARRAY, PACKED_COLOR_ARRAY, PACKED_FLOAT32_ARRAY, PACKED_FLOAT64_ARRAY,
    PACKED_INT32_ARRAY, PACKED_INT64_ARRAY, PACKED_STRING_ARRAY, PACKED_VECTOR2_ARRAY,
    PACKED_VECTOR2_ARRAY_64, PACKED_VECTOR3_ARRAY, PACKED_VECTOR3_ARRAY_64, PACKED_VECTOR4_ARRAY,
    PACKED_VECTOR4_ARRAY_64,
};

macro_rules! packed {
    ($($(#[$doc:meta])* $name:ident($elem:ty);)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name(pub Vec<$elem>);

        impl $name {
            /// An empty array.
            #[must_use]
            pub const fn new() -> Self {
                $name(Vec::new())
            }
        }

        impl core::ops::Deref for $name {
            type Target = Vec<$elem>;

            fn deref(&self) -> &Vec<$elem> {
                &self.0
            }
        }

        impl core::ops::DerefMut for $name {
            fn deref_mut(&mut self) -> &mut Vec<$elem> {
                &mut self.0
            }
        }

        impl From<Vec<$elem>> for $name {
            fn from(items: Vec<$elem>) -> Self {
                $name(items)
            }
        }

        impl From<$name> for Vec<$elem> {
            fn from(array: $name) -> Self {
                array.0
            }
        }

        impl FromIterator<$elem> for $name {
            fn from_iter<I: IntoIterator<Item = $elem>>(iter: I) -> Self {
                $name(iter.into_iter().collect())
            }
        }

        impl IntoIterator for $name {
            type Item = $elem;
            type IntoIter = std::vec::IntoIter<$elem>;

            fn into_iter(self) -> Self::IntoIter {
                self.0.into_iter()
            }
        }

        impl<'a> IntoIterator for &'a $name {
            type Item = &'a $elem;
            type IntoIter = core::slice::Iter<'a, $elem>;

            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
    )*};
}

packed! {
    /// `PackedByteArray` (4.x id 29; Godot 3 `PoolByteArray`, id 20).
    #[doc(alias = "PoolByteArray")]
    PackedByteArray(u8);
    /// `PackedInt32Array` (4.x id 30; Godot 3 `PoolIntArray`, id 21).
    #[doc(alias = "PoolIntArray")]
    PackedInt32Array(i32);
    /// `PackedInt64Array` (4.x id 31; no Godot 3 equivalent).
    PackedInt64Array(i64);
    /// `PackedFloat32Array` (4.x id 32; Godot 3 `PoolRealArray`, id 22).
    #[doc(alias = "PoolRealArray")]
    PackedFloat32Array(f32);
    /// `PackedFloat64Array` (4.x id 33; no Godot 3 equivalent).
    PackedFloat64Array(f64);
    /// `PackedStringArray` (4.x id 34; Godot 3 `PoolStringArray`, id 23).
    #[doc(alias = "PoolStringArray")]
    PackedStringArray(String);
    /// `PackedVector2Array` (4.x id 35; Godot 3 `PoolVector2Array`, id 24).
    #[doc(alias = "PoolVector2Array")]
    PackedVector2Array(Vector2);
    /// `PackedVector3Array` (4.x id 36; Godot 3 `PoolVector3Array`, id 25).
    #[doc(alias = "PoolVector3Array")]
    PackedVector3Array(Vector3);
    /// `PackedColorArray` (4.x id 37; Godot 3 `PoolColorArray`, id 26).
    #[doc(alias = "PoolColorArray")]
    PackedColorArray(Color);
    /// `PackedVector4Array` (Godot 4.3+, id 38).
    PackedVector4Array(Vector4);
}

// ---------------------------------------------------------------------------------------------
// PackedByteArray and PackedStringArray: always a newtype marker around bytes / strings.

impl Serialize for PackedByteArray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(PACKED_BYTE_ARRAY, serde_bytes::Bytes::new(&self.0))
    }
}

impl Payload for PackedByteArray {
    const NAMES: &'static [&'static str] = &[PACKED_BYTE_ARRAY];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value::<serde_bytes::ByteBuf>()
            .map(|b| PackedByteArray(b.into_vec()))
    }
}

struct ByteArrayVisitor;

impl<'de> de::Visitor<'de> for ByteArrayVisitor {
    type Value = PackedByteArray;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a PackedByteArray (bytes)")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<PackedByteArray, E> {
        Ok(PackedByteArray(v.to_vec()))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<PackedByteArray, E> {
        Ok(PackedByteArray(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PackedByteArray, A::Error> {
        let mut out = Vec::with_capacity(cautious(seq.size_hint()));
        while let Some(b) = seq.next_element()? {
            out.push(b);
        }
        Ok(PackedByteArray(out))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<PackedByteArray, D::Error> {
        serde_bytes::ByteBuf::deserialize(d).map(|b| PackedByteArray(b.into_vec()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PackedByteArray, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for PackedByteArray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(ByteArrayVisitor)
        } else {
            deserializer.deserialize_newtype_struct(PACKED_BYTE_ARRAY, ByteArrayVisitor)
        }
    }
}

impl Serialize for PackedStringArray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(PACKED_STRING_ARRAY, &self.0)
    }
}

impl Payload for PackedStringArray {
    const NAMES: &'static [&'static str] = &[PACKED_STRING_ARRAY];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value().map(PackedStringArray)
    }
}

/// Builds a [`PackedStringArray`] from a sequence of strings (or its marker map).
pub(crate) struct StringArrayVisitor;

impl<'de> de::Visitor<'de> for StringArrayVisitor {
    type Value = PackedStringArray;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a PackedStringArray (sequence of strings)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PackedStringArray, A::Error> {
        let mut out = Vec::with_capacity(cautious(seq.size_hint()));
        while let Some(s) = seq.next_element()? {
            out.push(s);
        }
        Ok(PackedStringArray(out))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<PackedStringArray, D::Error> {
        Vec::deserialize(d).map(PackedStringArray)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PackedStringArray, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for PackedStringArray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(StringArrayVisitor)
        } else {
            deserializer.deserialize_newtype_struct(PACKED_STRING_ARRAY, StringArrayVisitor)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Numeric and vector packed arrays: little-endian element bytes, or a seq of elements.

/// A packed array of [`Flat`] elements.
trait PackedNumeric: Payload + From<Vec<Self::Elem>> {
    /// The element type.
    type Elem: Flat + Serialize + for<'de> Deserialize<'de>;
    /// The marker name for this build's element layout (`..64` for vector arrays with the
    /// `double-precision` feature).
    const NATIVE_NAME: &'static str;
    /// Component width in bytes under `NAMES[0]`; `NAMES[1]` (vector arrays only) is 8.
    const NARROW_WIDTH: usize;
    /// What the array is called in messages.
    const WHAT: &'static str;

    /// The elements.
    fn items(&self) -> &[Self::Elem];
}

/// The `..64` name when [`Real`] is `f64`, else the f32 name.
const fn real_name(narrow: &'static str, wide: &'static str) -> &'static str {
    if size_of::<Real>() == 8 { wide } else { narrow }
}

fn serialize_numeric<P: PackedNumeric, S: Serializer>(
    array: &P,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        serializer.collect_seq(array.items())
    } else {
        let bytes = encode_packed(array.items());
        serializer.serialize_newtype_struct(P::NATIVE_NAME, serde_bytes::Bytes::new(&bytes))
    }
}

/// Reads the payload of a numeric packed marker: the element bytes, f64 components if `wide`.
fn numeric_payload<'de, P: PackedNumeric, A: MapAccess<'de>>(
    map: &mut A,
    wide: bool,
) -> Result<P, A::Error> {
    let bytes = map.next_value_seed(BytesSeed)?;
    let width = if wide { 8 } else { P::NARROW_WIDTH };
    decode_packed(&bytes, width, P::WHAT).map(P::from)
}

/// Bytes as the serializer produced them (no marker name): this build's native layout.
fn native<P: PackedNumeric, E: de::Error>(bytes: &[u8]) -> Result<P, E> {
    decode_packed(bytes, size_of::<<P::Elem as Flat>::Comp>(), P::WHAT).map(P::from)
}

/// The `bool`: decoding a human-readable format, where a sequence of elements is accepted
/// too (the binary format takes only that packed array type, so its error does not offer a
/// sequence: a Godot Array needs a `Vec`).
struct NumericVisitor<P>(PhantomData<P>, bool);

impl<'de, P: PackedNumeric> de::Visitor<'de> for NumericVisitor<P> {
    type Value = P;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 {
            write!(f, "a {} (element bytes or a sequence of elements)", P::WHAT)
        } else {
            write!(f, "a {}", P::WHAT)
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<P, E> {
        native(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<P, A::Error> {
        let mut out = Vec::with_capacity(cautious(seq.size_hint()));
        while let Some(e) = seq.next_element()? {
            out.push(e);
        }
        Ok(P::from(out))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        let bytes = BytesSeed.deserialize(d)?;
        native(&bytes)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<P, A::Error> {
        visit_marker_map(map, &self)
    }
}

fn deserialize_numeric<'de, P: PackedNumeric, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<P, D::Error> {
    if deserializer.is_human_readable() {
        deserializer.deserialize_any(NumericVisitor(PhantomData, true))
    } else {
        deserializer.deserialize_newtype_struct(P::NATIVE_NAME, NumericVisitor(PhantomData, false))
    }
}

macro_rules! numeric {
    ($($t:ident($elem:ty): $names:expr, $native:expr, $narrow:literal;)*) => {$(
        impl PackedNumeric for $t {
            type Elem = $elem;
            const NATIVE_NAME: &'static str = $native;
            const NARROW_WIDTH: usize = $narrow;
            const WHAT: &'static str = stringify!($t);

            fn items(&self) -> &[$elem] {
                &self.0
            }
        }

        impl Payload for $t {
            const NAMES: &'static [&'static str] = $names;

            fn next_payload<'de, A: MapAccess<'de>>(
                map: &mut A,
                wide: bool,
            ) -> Result<Self, A::Error> {
                numeric_payload(map, wide)
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_numeric(self, serializer)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_numeric(deserializer)
            }
        }
    )*};
}

numeric! {
    PackedInt32Array(i32): &[PACKED_INT32_ARRAY], PACKED_INT32_ARRAY, 4;
    PackedInt64Array(i64): &[PACKED_INT64_ARRAY], PACKED_INT64_ARRAY, 8;
    PackedFloat32Array(f32): &[PACKED_FLOAT32_ARRAY], PACKED_FLOAT32_ARRAY, 4;
    PackedFloat64Array(f64): &[PACKED_FLOAT64_ARRAY], PACKED_FLOAT64_ARRAY, 8;
    PackedVector2Array(Vector2): &[PACKED_VECTOR2_ARRAY, PACKED_VECTOR2_ARRAY_64],
        real_name(PACKED_VECTOR2_ARRAY, PACKED_VECTOR2_ARRAY_64), 4;
    PackedVector3Array(Vector3): &[PACKED_VECTOR3_ARRAY, PACKED_VECTOR3_ARRAY_64],
        real_name(PACKED_VECTOR3_ARRAY, PACKED_VECTOR3_ARRAY_64), 4;
    PackedColorArray(Color): &[PACKED_COLOR_ARRAY], PACKED_COLOR_ARRAY, 4;
    PackedVector4Array(Vector4): &[PACKED_VECTOR4_ARRAY, PACKED_VECTOR4_ARRAY_64],
        real_name(PACKED_VECTOR4_ARRAY, PACKED_VECTOR4_ARRAY_64), 4;
}
