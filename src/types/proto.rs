//! Shared pieces of the marker protocol (see [`crate::types`]): reading the one-entry map
//! `{NAME: payload}`, the flat tuple-struct family (math types and packed-array elements as
//! runs of equal components) and the little-endian element bytes of packed arrays.

use core::fmt;
use core::marker::PhantomData;

use bytemuck::Pod;
use serde::de::{self, DeserializeSeed, Deserializer, Expected, IgnoredAny, MapAccess, SeqAccess};
use serde::ser::{SerializeTupleStruct, Serializer};
use serde::{Deserialize, Serialize};

/// Most elements a visitor reserves room for before seeing them (serde's own cautious
/// `size_hint` does the same): a forged length costs nothing until the elements arrive.
pub(crate) const MAX_PREALLOC: usize = 4096;

/// `size_hint` capped at [`MAX_PREALLOC`].
pub(crate) fn cautious(hint: Option<usize>) -> usize {
    hint.unwrap_or(0).min(MAX_PREALLOC)
}

/// Reads the key of a marker map: one of `names`, giving its index.
struct NameSeed {
    names: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for NameSeed {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl de::Visitor<'_> for NameSeed {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the marker name ")?;
        f.write_str(self.names.first().copied().unwrap_or_default())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.names
            .iter()
            .position(|n| *n == v)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<usize, E> {
        self.names
            .iter()
            .position(|n| n.as_bytes() == v)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Bytes(v), &self))
    }
}

/// A marker type's payload, the value of the one-entry map `{NAME: payload}` that our
/// deserializer presents (the table in [`crate::types`]).
pub(crate) trait Payload: Sized {
    /// The accepted map keys. For packed vector arrays, index 1 is the `..64` name whose bytes
    /// hold f64 components.
    const NAMES: &'static [&'static str];

    /// Reads the payload; `wide` is true when the key was the `..64` name.
    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, wide: bool) -> Result<Self, A::Error>;
}

/// Reads a whole one-entry map `{NAME: payload}` into `T`, checking the key and that no
/// other entry follows.
pub(crate) fn visit_marker_map<'de, T: Payload, A: MapAccess<'de>>(
    mut map: A,
    expecting: &dyn Expected,
) -> Result<T, A::Error> {
    let Some(index) = map.next_key_seed(NameSeed { names: T::NAMES })? else {
        return Err(de::Error::invalid_length(0, expecting));
    };
    let value = T::next_payload(&mut map, index == 1)?;
    if map.next_key::<IgnoredAny>()?.is_some() {
        return Err(de::Error::invalid_length(2, expecting));
    }
    Ok(value)
}

/// One component of a flat type: a number with a little-endian encoding.
pub(crate) trait Component:
    Pod + Serialize + for<'de> Deserialize<'de> + fmt::Debug + PartialEq
{
    /// Decodes 4 or 8 little-endian bytes (floats convert between widths; integers accept
    /// only their own width).
    fn from_le(bytes: &[u8]) -> Option<Self>;

    /// Appends the little-endian bytes of `self` (big-endian hosts only).
    #[cfg(target_endian = "big")]
    fn put_le(self, out: &mut Vec<u8>);
}

macro_rules! float_component {
    ($($t:ty),*) => {$(
        impl Component for $t {
            #[allow(clippy::cast_possible_truncation)] // f64 -> f32 narrows as Godot does
            fn from_le(bytes: &[u8]) -> Option<Self> {
                match bytes.len() {
                    4 => Some(f32::from_le_bytes(bytes.try_into().ok()?) as $t),
                    8 => Some(f64::from_le_bytes(bytes.try_into().ok()?) as $t),
                    _ => None,
                }
            }

            #[cfg(target_endian = "big")]
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
float_component!(f32, f64);

macro_rules! int_component {
    ($($t:ty),*) => {$(
        impl Component for $t {
            fn from_le(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.try_into().ok()?))
            }

            #[cfg(target_endian = "big")]
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
int_component!(i32, i64);

/// A type that is a fixed run of equal [`Component`]s with no padding: the math types (in
/// wire order) and the scalar elements of packed arrays.
pub(crate) trait Flat: Pod {
    /// The component type.
    type Comp: Component;
    /// What a visitor expects, e.g. `"a Vector2"`.
    const EXPECTING: &'static str;
}

macro_rules! scalar_flat {
    ($($t:ty => $what:literal),*) => {$(
        impl Flat for $t {
            type Comp = $t;
            const EXPECTING: &'static str = $what;
        }
    )*};
}
scalar_flat!(i32 => "an i32", i64 => "an i64", f32 => "an f32", f64 => "an f64");

/// The components of `v`, in wire order.
pub(crate) fn components<T: Flat>(v: &T) -> &[T::Comp] {
    bytemuck::cast_slice(core::slice::from_ref(v))
}

/// Number of components of `T`.
pub(crate) fn component_count<T: Flat>() -> usize {
    size_of::<T>() / size_of::<T::Comp>()
}

/// Serializes a flat type as `serialize_tuple_struct(name, N)` and its N components, one
/// `serialize_field` each, in wire order. Every serializer sees the same calls; this crate's
/// recognises `name` as a marker and writes the components straight into its output.
#[inline]
pub(crate) fn serialize_flat<T: Flat, S: Serializer>(
    v: &T,
    name: &'static str,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let comps = components(v);
    let mut t = serializer.serialize_tuple_struct(name, comps.len())?;
    for c in comps {
        t.serialize_field(c)?;
    }
    t.end()
}

/// Visits a flat type: as a seq of its components, or as the marker map.
pub(crate) struct FlatVisitor<T>(PhantomData<T>);

impl<T> FlatVisitor<T> {
    /// A new visitor.
    pub(crate) const fn new() -> Self {
        FlatVisitor(PhantomData)
    }
}

impl<'de, T: Flat + Payload> de::Visitor<'de> for FlatVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} numbers)", T::EXPECTING, component_count::<T>())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut value = T::zeroed();
        let slots: &mut [T::Comp] = bytemuck::cast_slice_mut(core::slice::from_mut(&mut value));
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        Ok(value)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        visit_marker_map(map, &self)
    }
}

/// Deserializes a flat type's components as a tuple (the payload of its marker map).
pub(crate) struct FlatSeq<T>(PhantomData<T>);

impl<T> FlatSeq<T> {
    /// A new seed.
    pub(crate) const fn new() -> Self {
        FlatSeq(PhantomData)
    }
}

impl<'de, T: Flat + Payload> DeserializeSeed<'de> for FlatSeq<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_tuple(component_count::<T>(), FlatVisitor::new())
    }
}

/// Decodes packed-array element bytes: little-endian components `width` bytes wide (4 or 8),
/// no count, no padding. `what` names the array in the error for a ragged length.
pub(crate) fn decode_packed<T: Flat, E: de::Error>(
    bytes: &[u8],
    width: usize,
    what: &str,
) -> Result<Vec<T>, E> {
    let elem = component_count::<T>() * width;
    if elem == 0 || !bytes.len().is_multiple_of(elem) {
        return Err(E::custom(format_args!(
            "{what} bytes: length {} is not a multiple of the element size {elem}",
            bytes.len()
        )));
    }
    #[cfg(target_endian = "little")]
    if width == size_of::<T::Comp>() {
        // Aligned input (the usual case: a Vec's buffer at a 4-byte offset): one bulk copy
        // into an uninitialised allocation. Otherwise word by word, still no zero-filling.
        if let Ok(items) = bytemuck::try_cast_slice::<u8, T>(bytes) {
            return Ok(items.to_vec());
        }
        return Ok(bytes
            .chunks_exact(size_of::<T>())
            .map(bytemuck::pod_read_unaligned)
            .collect());
    }
    let mut out = Vec::with_capacity(bytes.len() / elem);
    for chunk in bytes.chunks_exact(elem) {
        let mut value = T::zeroed();
        let slots: &mut [T::Comp] = bytemuck::cast_slice_mut(core::slice::from_mut(&mut value));
        for (slot, word) in slots.iter_mut().zip(chunk.chunks_exact(width)) {
            *slot = T::Comp::from_le(word).ok_or_else(|| {
                E::custom(format_args!(
                    "{what} bytes: components cannot be {width} bytes wide"
                ))
            })?;
        }
        out.push(value);
    }
    Ok(out)
}

/// The little-endian bytes of `items`' components, borrowed on little-endian hosts.
pub(crate) fn encode_packed<T: Flat>(items: &[T]) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(target_endian = "little")]
    {
        std::borrow::Cow::Borrowed(bytemuck::cast_slice(items))
    }
    #[cfg(target_endian = "big")]
    {
        let comps: &[T::Comp] = bytemuck::cast_slice(items);
        let mut out = Vec::with_capacity(size_of_val(items));
        for &c in comps {
            c.put_le(&mut out);
        }
        std::borrow::Cow::Owned(out)
    }
}

/// Reads bytes, borrowing them when the deserializer can.
pub(crate) struct BytesSeed;

impl<'de> DeserializeSeed<'de> for BytesSeed {
    type Value = std::borrow::Cow<'de, [u8]>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        <std::borrow::Cow<'de, [u8]> as serde_bytes::Deserialize<'de>>::deserialize(deserializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, Vector2};
    use serde::de::value::Error;

    #[test]
    fn decode_packed_narrows_and_widens() {
        // 1.5f64 = 0x3ff8000000000000, -2.0f64 = 0xc000000000000000.
        let wide = [0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0];
        let v: Vec<Vector2> = decode_packed::<_, Error>(&wide, 8, "x").unwrap();
        assert_eq!(v, [Vector2::new(1.5, -2.0)]);
        // 1.5f32 = 0x3fc00000, -2.0f32 = 0xc0000000.
        let narrow = [0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0];
        let v: Vec<Vector2> = decode_packed::<_, Error>(&narrow, 4, "x").unwrap();
        assert_eq!(v, [Vector2::new(1.5, -2.0)]);
        let v: Vec<Color> = decode_packed::<_, Error>(&[], 4, "x").unwrap();
        assert!(v.is_empty());
        // Integers have one width only.
        let e = decode_packed::<i32, Error>(&[0; 8], 8, "PackedInt32Array").unwrap_err();
        assert_eq!(
            e.to_string(),
            "PackedInt32Array bytes: components cannot be 8 bytes wide"
        );
    }

    #[test]
    fn decode_packed_reads_aligned_and_unaligned_input_alike() {
        let items = [Vector2::new(1.5, -2.0), Vector2::new(0.25, 8.0)];
        let bytes = encode_packed(&items).into_owned();
        let width = size_of::<crate::types::Real>();
        for shift in 0..4 {
            let mut buf = vec![0u8; shift];
            buf.extend_from_slice(&bytes);
            let v: Vec<Vector2> = decode_packed::<_, Error>(&buf[shift..], width, "x").unwrap();
            assert_eq!(v, items, "shift {shift}");
        }
    }

    #[test]
    fn encode_packed_is_little_endian() {
        // 258 = 0x00000102.
        assert_eq!(
            &*encode_packed(&[258i32, -1]),
            &[2, 1, 0, 0, 0xff, 0xff, 0xff, 0xff]
        );
        assert_eq!(
            components(&Color::new(1.0, 2.0, 3.0, 4.0)),
            &[1.0, 2.0, 3.0, 4.0]
        );
        assert_eq!(component_count::<crate::types::Transform3D>(), 12);
        assert_eq!(component_count::<crate::types::Projection>(), 16);
    }
}
