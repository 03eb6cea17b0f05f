//! `Deserialize` for [`Variant`], [`Array`], [`Dictionary`], [`Object`] and [`ContainerType`].
//!
//! A `Variant` takes whatever the format describes (`deserialize_any`): serde's plain types
//! become the matching variants, and a one-entry map whose key is a marker name (see
//! [`crate::types`]) becomes that Godot type, which is how our deserializer presents them.

use core::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::builder::DictionaryBuilder;
use super::dictionary::KeyMode;
use super::{Array, ContainerType, Dictionary, Object, Variant};
use crate::config::GodotVersion;
use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, OBJECT, ObjectId, PackedByteArray, Payload, Plane,
    Projection, Quaternion, Rect2, Rect2i, Rid, Signal, StringName, TYPED_ARRAY, TYPED_DICTIONARY,
    Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, cautious,
    marker,
};
use crate::wire::VariantType;

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(VariantVisitor)
    }
}

/// Builds a [`Variant`] from whatever the format describes.
pub(crate) struct VariantVisitor;

impl<'de> Visitor<'de> for VariantVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Godot value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }

    fn visit_none<E: de::Error>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Variant, E> {
        Ok(Variant::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Variant, E> {
        Ok(Variant::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Variant, E> {
        Ok(Variant::Float(f64::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Variant, E> {
        Ok(Variant::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Variant, E> {
        Ok(Variant::String(v.into()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Variant, E> {
        Ok(Variant::String(v.into()))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v.to_vec())))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Variant, A::Error> {
        Array::from_seq(seq, &self).map(Variant::from)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        // The first key is checked for a marker name before any String is allocated for it.
        let key = match map.next_key_seed(FirstKey)? {
            None => return Ok(Variant::from(Dictionary::new())),
            Some(First::Marker(m)) => {
                let value = marker_payload(&mut map, m.ty, m.wide, m.typed, m.as_id)?;
                if map.next_key::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom(format_args!(
                        "a {} marker map must have exactly one entry",
                        marker_of(m)
                    )));
                }
                return Ok(value);
            }
            Some(First::Key(key)) => key,
        };
        // `insert` finds a repeated key through the hash index (linear time for any keys);
        // the later value replaces the earlier one in its place, as Godot does.
        let mut dict = DictionaryBuilder::with_capacity(
            KeyMode::Exact,
            cautious(map.size_hint()).saturating_add(1),
        );
        dict.insert(key, map.next_value()?);
        while let Some((k, v)) = map.next_entry()? {
            dict.insert(k, v);
        }
        Ok(Variant::from(dict.finish()))
    }
}

/// The first key of a map read as a Variant: a marker name, or the key.
enum First {
    Marker(crate::types::Marker),
    Key(Variant),
}

/// The marker name that `m` came from, for messages.
fn marker_of(m: crate::types::Marker) -> &'static str {
    use VariantType as T;
    match m.ty {
        T::Array if m.typed => TYPED_ARRAY,
        T::Dictionary if m.typed => TYPED_DICTIONARY,
        T::Object if m.as_id => crate::types::OBJECT_ID,
        T::Object => OBJECT,
        ty => crate::types::marker_name(ty, m.wide).unwrap_or("$godot_serde marker"),
    }
}

/// Reads a map's first key: a string that is a marker name becomes [`First::Marker`] without
/// being copied; anything else is the key, as [`VariantVisitor`] reads it.
struct FirstKey;

impl<'de> DeserializeSeed<'de> for FirstKey {
    type Value = First;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<First, D::Error> {
        d.deserialize_any(FirstKey)
    }
}

/// [`FirstKey`]'s visitor: forwards every non-string to [`VariantVisitor`].
macro_rules! forward_first {
    ($($m:ident($t:ty)),*) => {$(
        fn $m<E: de::Error>(self, v: $t) -> Result<First, E> {
            VariantVisitor.$m(v).map(First::Key)
        }
    )*};
}

impl<'de> Visitor<'de> for FirstKey {
    type Value = First;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Godot value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<First, E> {
        Ok(match marker(v) {
            Some(m) => First::Marker(m),
            None => First::Key(Variant::String(v.into())),
        })
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<First, E> {
        Ok(match marker(&v) {
            Some(m) => First::Marker(m),
            None => First::Key(Variant::String(v.into())),
        })
    }

    forward_first!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_i128(i128),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_bytes(&[u8]),
        visit_byte_buf(Vec<u8>)
    );

    fn visit_unit<E: de::Error>(self) -> Result<First, E> {
        Ok(First::Key(Variant::Nil))
    }

    fn visit_none<E: de::Error>(self) -> Result<First, E> {
        Ok(First::Key(Variant::Nil))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<First, D::Error> {
        Variant::deserialize(d).map(First::Key)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<First, D::Error> {
        Variant::deserialize(d).map(First::Key)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<First, A::Error> {
        VariantVisitor.visit_seq(seq).map(First::Key)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<First, A::Error> {
        VariantVisitor.visit_map(map).map(First::Key)
    }
}

#[cold]
fn out_of_range<E: de::Error>(v: impl fmt::Display) -> E {
    E::custom(format_args!(
        "integer {v} out of range for Godot's 64-bit int"
    ))
}

fn payload<'de, T: Payload, A: MapAccess<'de>>(map: &mut A, wide: bool) -> Result<T, A::Error> {
    T::next_payload(map, wide)
}

/// Reads the payload of the marker map whose key named `ty` (see [`crate::types::marker`]).
///
/// The containers, which recurse, are read here; every other type in [`leaf_payload`], whose
/// stack frame is large in unoptimized builds (one slot per arm) and must not be on the stack
/// once per nesting level.
fn marker_payload<'de, A: MapAccess<'de>>(
    map: &mut A,
    ty: VariantType,
    wide: bool,
    typed: bool,
    as_id: bool,
) -> Result<Variant, A::Error> {
    use VariantType as T;
    match ty {
        T::Object if !as_id => Ok(Variant::from(payload::<Object, _>(map, wide)?)),
        T::Array if typed => Ok(Variant::from(payload::<Array, _>(map, wide)?)),
        T::Dictionary if typed => Ok(Variant::from(payload::<Dictionary, _>(map, wide)?)),
        _ => leaf_payload(map, ty, wide, as_id),
    }
}

/// [`marker_payload`] for the types that hold no Variants.
#[inline(never)]
fn leaf_payload<'de, A: MapAccess<'de>>(
    map: &mut A,
    ty: VariantType,
    wide: bool,
    as_id: bool,
) -> Result<Variant, A::Error> {
    use VariantType as T;
    let m = map;
    Ok(match ty {
        T::Vector2 => Variant::Vector2(payload::<Vector2, _>(m, wide)?),
        T::Vector2i => Variant::Vector2i(payload::<Vector2i, _>(m, wide)?),
        T::Rect2 => Variant::Rect2(payload::<Rect2, _>(m, wide)?),
        T::Rect2i => Variant::Rect2i(payload::<Rect2i, _>(m, wide)?),
        T::Vector3 => Variant::Vector3(payload::<Vector3, _>(m, wide)?),
        T::Vector3i => Variant::Vector3i(payload::<Vector3i, _>(m, wide)?),
        T::Transform2D => Variant::from(payload::<Transform2D, _>(m, wide)?),
        T::Vector4 => Variant::Vector4(payload::<Vector4, _>(m, wide)?),
        T::Vector4i => Variant::Vector4i(payload::<Vector4i, _>(m, wide)?),
        T::Plane => Variant::Plane(payload::<Plane, _>(m, wide)?),
        T::Quaternion => Variant::Quaternion(payload::<Quaternion, _>(m, wide)?),
        T::Aabb => Variant::from(payload::<Aabb, _>(m, wide)?),
        T::Basis => Variant::from(payload::<Basis, _>(m, wide)?),
        T::Transform3D => Variant::from(payload::<Transform3D, _>(m, wide)?),
        T::Projection => Variant::from(payload::<Projection, _>(m, wide)?),
        T::Color => Variant::Color(payload::<Color, _>(m, wide)?),
        T::StringName => Variant::StringName(payload::<StringName, _>(m, wide)?),
        T::NodePath => Variant::from(payload::<NodePath, _>(m, wide)?),
        T::Rid => Variant::Rid(payload::<Rid, _>(m, wide)?),
        T::Object if as_id => Variant::ObjectId(payload::<ObjectId, _>(m, wide)?),
        T::Callable => Variant::Callable(payload::<Callable, _>(m, wide)?),
        T::Signal => Variant::from(payload::<Signal, _>(m, wide)?),
        T::PackedByteArray => Variant::PackedByteArray(payload(m, wide)?),
        T::PackedInt32Array => Variant::PackedInt32Array(payload(m, wide)?),
        T::PackedInt64Array => Variant::PackedInt64Array(payload(m, wide)?),
        T::PackedFloat32Array => Variant::PackedFloat32Array(payload(m, wide)?),
        T::PackedFloat64Array => Variant::PackedFloat64Array(payload(m, wide)?),
        T::PackedStringArray => Variant::PackedStringArray(payload(m, wide)?),
        T::PackedVector2Array => Variant::PackedVector2Array(payload(m, wide)?),
        T::PackedVector3Array => Variant::PackedVector3Array(payload(m, wide)?),
        T::PackedColorArray => Variant::PackedColorArray(payload(m, wide)?),
        T::PackedVector4Array => Variant::PackedVector4Array(payload(m, wide)?),
        other => {
            // `marker` names no other type; kept total rather than panicking.
            return Err(de::Error::custom(format_args!(
                "{other} has no marker payload"
            )));
        }
    })
}

// ---------------------------------------------------------------------------------------------
// ContainerType

impl<'de> Deserialize<'de> for ContainerType {
    /// The 3-tuple `(u8 kind, u32 type id, str)` written by its `Serialize`. Rejects a kind
    /// above 3 and a builtin type id that Godot 4 does not have.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(3, ContainerTypeVisitor)
    }
}

struct ContainerTypeVisitor;

impl<'de> Visitor<'de> for ContainerTypeVisitor {
    type Value = ContainerType;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a container type (kind, type id, class or script)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ContainerType, A::Error> {
        let kind: u8 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let id: u32 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let name: String = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        ContainerType::from_parts(kind, id, name).map_err(de::Error::custom)
    }
}

impl ContainerType {
    /// The descriptor fields `(kind, Godot 4 type id, class or script)` of the marker protocol
    /// as a `ContainerType`: the one mapping of both byte readers (the serde path's visitor
    /// and `value/from_bytes.rs`).
    ///
    /// # Errors
    ///
    /// A kind above 3, or a builtin type id that Godot 4 does not have: the message.
    pub(crate) fn from_parts(kind: u8, id: u32, name: String) -> Result<Self, Box<str>> {
        match kind {
            0 => Ok(ContainerType::Untyped),
            1 => VariantType::from_id(id, GodotVersion::V4_4)
                .map(ContainerType::Builtin)
                .ok_or_else(|| {
                    format!("invalid container type: unknown Godot 4 type id {id}").into()
                }),
            2 => Ok(ContainerType::ClassName(name)),
            3 => Ok(ContainerType::Script(name)),
            _ => Err(format!(
                "invalid container type: kind {kind} is not 0 (untyped), 1 (builtin), \
                 2 (class name) or 3 (script)"
            )
            .into()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Array, Dictionary, Object

impl Payload for Array {
    const NAMES: &'static [&'static str] = &[TYPED_ARRAY];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        let (element_type, items) = map.next_value::<(ContainerType, Vec<Variant>)>()?;
        Ok(Array {
            element_type,
            items,
        })
    }
}

/// The entries of a plain map, in order, into a Dictionary (no marker detection: the
/// payload of a typed Dictionary is always a real map).
struct Entries(Dictionary);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = Entries;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of Dictionary entries")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut dict =
                    DictionaryBuilder::with_capacity(KeyMode::Exact, cautious(map.size_hint()));
                while let Some((k, v)) = map.next_entry()? {
                    dict.insert(k, v);
                }
                Ok(Entries(dict.finish()))
            }
        }

        deserializer.deserialize_map(V)
    }
}

impl Payload for Dictionary {
    const NAMES: &'static [&'static str] = &[TYPED_DICTIONARY];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        let (key_type, value_type, Entries(mut dict)) =
            map.next_value::<(ContainerType, ContainerType, Entries)>()?;
        dict.set_key_type(key_type);
        dict.set_value_type(value_type);
        Ok(dict)
    }
}

/// Object properties: a map of names to values, in order.
struct Properties(Vec<(String, Variant)>);

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = Properties;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of property names to values")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Properties, A::Error> {
                let mut props = Vec::with_capacity(cautious(map.size_hint()));
                while let Some(entry) = map.next_entry()? {
                    props.push(entry);
                }
                Ok(Properties(props))
            }
        }

        deserializer.deserialize_map(V)
    }
}

impl Payload for Object {
    const NAMES: &'static [&'static str] = &[OBJECT];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value_seed(ObjectFields)
    }
}

/// The fields of an Object as a tuple: class, properties.
struct ObjectFields;

impl<'de> DeserializeSeed<'de> for ObjectFields {
    type Value = Object;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Object, D::Error> {
        deserializer.deserialize_tuple(2, ContainerVisitor::<Object>::new())
    }
}

/// Visits an [`Array`], [`Dictionary`] or [`Object`]: the plain forms (seq, map, tuple) as
/// well as the marker maps, checking that the value read is of the expected kind.
struct ContainerVisitor<T>(core::marker::PhantomData<T>);

impl<T> ContainerVisitor<T> {
    const fn new() -> Self {
        ContainerVisitor(core::marker::PhantomData)
    }
}

/// What [`ContainerVisitor`] needs of its target.
trait Container: Sized {
    /// What the visitor expects.
    const EXPECTING: &'static str;
    /// The value out of a Variant read from a map, if it is of this kind; else what it is.
    fn from_variant(v: Variant) -> Result<Self, &'static str>;
    /// The value from a plain seq.
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A, exp: &dyn de::Expected) -> Result<Self, A::Error>;
}

impl Container for Array {
    const EXPECTING: &'static str = "an Array";

    fn from_variant(v: Variant) -> Result<Self, &'static str> {
        match v {
            Variant::Array(a) => Ok(*a),
            other => Err(variant_kind(&other)),
        }
    }

    fn from_seq<'de, A: SeqAccess<'de>>(
        mut seq: A,
        _: &dyn de::Expected,
    ) -> Result<Self, A::Error> {
        let mut items = Vec::with_capacity(cautious(seq.size_hint()));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Array {
            element_type: ContainerType::Untyped,
            items,
        })
    }
}

impl Container for Dictionary {
    const EXPECTING: &'static str = "a Dictionary";

    fn from_variant(v: Variant) -> Result<Self, &'static str> {
        match v {
            Variant::Dictionary(d) => Ok(d),
            other => Err(variant_kind(&other)),
        }
    }

    fn from_seq<'de, A: SeqAccess<'de>>(_: A, exp: &dyn de::Expected) -> Result<Self, A::Error> {
        Err(de::Error::invalid_type(de::Unexpected::Seq, exp))
    }
}

impl Container for Object {
    const EXPECTING: &'static str = "an Object (class and properties)";

    fn from_variant(v: Variant) -> Result<Self, &'static str> {
        match v {
            Variant::Object(o) => Ok(*o),
            other => Err(variant_kind(&other)),
        }
    }

    fn from_seq<'de, A: SeqAccess<'de>>(
        mut seq: A,
        exp: &dyn de::Expected,
    ) -> Result<Self, A::Error> {
        let class = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, exp))?;
        let Properties(properties) = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, exp))?;
        Ok(Object { class, properties })
    }
}

impl<'de, T: Container> Visitor<'de> for ContainerVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_seq(seq, &self)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_variant(VariantVisitor.visit_map(map)?).map_err(|kind| {
            de::Error::custom(format_args!(
                "invalid type: {kind}, expected {}",
                T::EXPECTING
            ))
        })
    }
}

/// The Godot type name of a Variant read from a map, for messages.
fn variant_kind(v: &Variant) -> &'static str {
    match v {
        Variant::Dictionary(_) => "Dictionary",
        Variant::Array(_) => "Array",
        Variant::Object(_) => "Object",
        Variant::ObjectId(_) => "Object (as id)",
        Variant::Nil => "Nil",
        _ => "another Godot type",
    }
}

impl<'de> Deserialize<'de> for Array {
    /// A seq (untyped) or the typed-Array marker map.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // `deserialize_any`: the typed-Array descriptor only reaches the visitor that way.
        deserializer.deserialize_any(ContainerVisitor::<Array>::new())
    }
}

impl<'de> Deserialize<'de> for Dictionary {
    /// A map (untyped) or the typed-Dictionary marker map.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ContainerVisitor::<Dictionary>::new())
    }
}

impl<'de> Deserialize<'de> for Object {
    /// The Object marker map, or a 2-tuple of class and properties in other formats.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(ContainerVisitor::<Object>::new())
        } else {
            deserializer.deserialize_tuple_struct(OBJECT, 2, ContainerVisitor::<Object>::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::Error;

    #[test]
    fn wide_integers_are_range_checked() {
        let v: Variant = VariantVisitor.visit_i128::<Error>(-(1 << 40)).unwrap();
        assert_eq!(v, Variant::Int(-(1 << 40)));
        let v: Variant = VariantVisitor.visit_u128::<Error>(42).unwrap();
        assert_eq!(v, Variant::Int(42));
        // i64::MIN - 1 = -9223372036854775809.
        let e = VariantVisitor
            .visit_i128::<Error>(i128::from(i64::MIN) - 1)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "integer -9223372036854775809 out of range for Godot's 64-bit int"
        );
        let e = VariantVisitor.visit_u128::<Error>(u128::MAX).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("integer 3402823669209384634633746"),
            "{e}"
        );
    }
}
