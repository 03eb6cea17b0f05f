//! Marker types for Godot's builtin types, and the serde protocol that lets our serializer
//! and deserializer recognise them.
//!
//! # The marker protocol
//!
//! serde's data model has no Vector2, so each marker type travels through serde under a
//! reserved name (`$godot_serde::Vector2`, ...). Other formats just see a plain tuple struct,
//! newtype struct or sequence; our [`Serializer`](crate::Serializer) spots the name and writes
//! the real Godot type; our [`Deserializer`](crate::Deserializer) presents every such Godot
//! value as a **one-entry map** `{ NAME: payload }`, whichever `deserialize_*` method was
//! called, so serde's buffering for `#[serde(untagged)]` / `flatten` keeps the type (a map,
//! not an enum: serde can buffer maps). The one exception: when a math type or
//! `PackedStringArray` is asked for by its own marker name (only its own `Deserialize` does
//! that) and the wire type matches, the payload below is visited directly as a sequence,
//! which those visitors accept too. The names live only in this module.
//!
//! | Type | Serialize as | Payload (the map value our deserializer gives) |
//! |---|---|---|
//! | float math type (`Vector2`, `Rect2`, `Vector3`, `Transform2D`, `Vector4`, `Plane`, `Quaternion`, `Aabb`, `Basis`, `Transform3D`, `Projection`) | `serialize_tuple_struct(NAME, N)`, N reals in wire order | seq of N floats (f32, or f64 when the header's 64-bit flag is set) |
//! | integer vector (`Vector2i`, `Rect2i`, `Vector3i`, `Vector4i`) | `serialize_tuple_struct(NAME, N)`, N `i32` | seq of N `i32` |
//! | `Color` | `serialize_tuple_struct(COLOR, 4)`, 4 `f32` | seq of 4 `f32` |
//! | `StringName` | `serialize_newtype_struct(STRING_NAME, &str)` | str |
//! | `NodePath` | human-readable formats: the path text; others: `serialize_tuple_struct(NODE_PATH, 3)`: names (seq of str), subnames (seq of str), absolute (bool) | seq of 3 as on the left |
//! | `Rid` | `serialize_newtype_struct(RID, &u64)` | u64 (0 from Godot 3, which writes no id) |
//! | `ObjectId` | `serialize_newtype_struct(OBJECT_ID, &u64)` | u64 |
//! | `Callable` | `serialize_unit_struct(CALLABLE)` | unit |
//! | `Signal` | `serialize_tuple_struct(SIGNAL, 2)`: name (str), object id (u64) | seq of 2 |
//! | `Object` (full object, in `value`) | `serialize_tuple_struct(OBJECT, 2)`: class (str), properties (map str → Variant, in order) | seq of 2 |
//! | typed `Array` (in `value`) | `serialize_tuple_struct(TYPED_ARRAY, 2)`: element [`ContainerType`](crate::ContainerType) as a 3-tuple `(u8 kind, u32 Godot 4 type id, str class or script)` (kind 0 untyped, 1 builtin, 2 class name, 3 script; unused fields are `0` / `""`), then the elements as a seq | seq of 2 |
//! | typed `Dictionary` (in `value`) | `serialize_tuple_struct(TYPED_DICTIONARY, 3)`: key type, value type (3-tuples as above), entries as a map | seq of 3 |
//! | `PackedByteArray` | `serialize_newtype_struct(PACKED_BYTE_ARRAY, bytes)` | bytes |
//! | `PackedStringArray` | `serialize_newtype_struct(PACKED_STRING_ARRAY, seq of str)` | seq of str |
//! | other packed arrays | human-readable formats: a seq of elements; others: `serialize_newtype_struct(NAME, bytes)` where bytes are the elements' little-endian encoding with no count and no padding. The name says the element layout: `PACKED_VECTOR2_ARRAY` (f32 components) or `PACKED_VECTOR2_ARRAY_64` (f64 components, `double-precision` feature); same for Vector3 / Vector4 | bytes as on the wire, key `..._64` when the header's 64-bit flag is set |
//!
//! Marker `Deserialize` impls call `deserialize_tuple_struct` / `deserialize_newtype_struct` /
//! `deserialize_unit_struct` with their name (or `deserialize_str` / `deserialize_seq` in
//! human-readable formats where the table says so) and accept: `visit_map` with one entry whose
//! key is one of their names (the payload as above), `visit_seq` (the tuple-struct fields, for
//! other formats), `visit_newtype_struct` for the newtype ones, and the plain forms a
//! human-readable format produces. Packed-array bytes that arrive without a marker name
//! (`visit_newtype_struct` / `visit_bytes`, from other compact formats) are read in this
//! build's own layout, i.e. as the same type would serialize them. Formats such as JSON
//! only offer the map form to `deserialize_any` (their `deserialize_tuple_struct` wants an
//! array), so there the `{NAME: payload}` form reaches a marker through `Variant` or
//! `#[serde(untagged)]`, not through the marker type's own `Deserialize`.
//!
//! Float math components are serialized as [`Real`] (`f32`, or `f64` with the
//! `double-precision` feature); `Color` is always `f32`. Packed vector arrays serialize under
//! the `..64` name exactly when `Real` is `f64`.

mod math;
mod misc;
mod packed;
mod proto;
mod strings;

pub use math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Real, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
pub use misc::{Callable, ObjectId, Rid, Signal};
pub use packed::{
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array,
};
pub use strings::{NodePath, StringName};

pub(crate) use proto::{Payload, cautious};

use crate::wire::VariantType;

macro_rules! marker_names {
    ($($(#[$doc:meta])* $konst:ident = $name:literal;)*) => {
        $( $(#[$doc])* pub(crate) const $konst: &str = concat!("$godot_serde::", $name); )*
    };
}

marker_names! {
    VECTOR2 = "Vector2";
    VECTOR2I = "Vector2i";
    RECT2 = "Rect2";
    RECT2I = "Rect2i";
    VECTOR3 = "Vector3";
    VECTOR3I = "Vector3i";
    TRANSFORM2D = "Transform2D";
    VECTOR4 = "Vector4";
    VECTOR4I = "Vector4i";
    PLANE = "Plane";
    QUATERNION = "Quaternion";
    AABB = "AABB";
    BASIS = "Basis";
    TRANSFORM3D = "Transform3D";
    PROJECTION = "Projection";
    COLOR = "Color";
    STRING_NAME = "StringName";
    NODE_PATH = "NodePath";
    RID = "RID";
    OBJECT_ID = "ObjectId";
    OBJECT = "Object";
    CALLABLE = "Callable";
    SIGNAL = "Signal";
    TYPED_ARRAY = "TypedArray";
    TYPED_DICTIONARY = "TypedDictionary";
    PACKED_BYTE_ARRAY = "PackedByteArray";
    PACKED_INT32_ARRAY = "PackedInt32Array";
    PACKED_INT64_ARRAY = "PackedInt64Array";
    PACKED_FLOAT32_ARRAY = "PackedFloat32Array";
    PACKED_FLOAT64_ARRAY = "PackedFloat64Array";
    PACKED_STRING_ARRAY = "PackedStringArray";
    PACKED_VECTOR2_ARRAY = "PackedVector2Array";
    PACKED_VECTOR2_ARRAY_64 = "PackedVector2Array64";
    PACKED_VECTOR3_ARRAY = "PackedVector3Array";
    PACKED_VECTOR3_ARRAY_64 = "PackedVector3Array64";
    PACKED_COLOR_ARRAY = "PackedColorArray";
    PACKED_VECTOR4_ARRAY = "PackedVector4Array";
    PACKED_VECTOR4_ARRAY_64 = "PackedVector4Array64";
}

/// What a marker name stands for on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Marker {
    /// The Godot type written for it.
    pub ty: VariantType,
    /// Packed vector arrays: the marker's bytes hold f64 components.
    pub wide: bool,
    /// Typed Array / Dictionary (the type is Array / Dictionary, with a descriptor).
    pub typed: bool,
    /// Sent as an object id (OBJECT with the as-id flag) rather than a full object.
    pub as_id: bool,
}

/// The one lookup from marker name to wire type, used by both the serializer and the
/// deserializer.
pub(crate) fn marker(name: &str) -> Option<Marker> {
    marker_inline(name)
}

/// [`marker`], always inlined: for the constant name a marker type's `Deserialize` passes,
/// the lookup folds away.
#[inline(always)]
pub(crate) fn marker_inline(name: &str) -> Option<Marker> {
    let rest = name.strip_prefix("$godot_serde::")?;
    let plain = |ty| {
        Some(Marker {
            ty,
            wide: false,
            typed: false,
            as_id: false,
        })
    };
    let wide = |ty| {
        Some(Marker {
            ty,
            wide: true,
            typed: false,
            as_id: false,
        })
    };
    match rest {
        "Vector2" => plain(VariantType::Vector2),
        "Vector2i" => plain(VariantType::Vector2i),
        "Rect2" => plain(VariantType::Rect2),
        "Rect2i" => plain(VariantType::Rect2i),
        "Vector3" => plain(VariantType::Vector3),
        "Vector3i" => plain(VariantType::Vector3i),
        "Transform2D" => plain(VariantType::Transform2D),
        "Vector4" => plain(VariantType::Vector4),
        "Vector4i" => plain(VariantType::Vector4i),
        "Plane" => plain(VariantType::Plane),
        "Quaternion" => plain(VariantType::Quaternion),
        "AABB" => plain(VariantType::Aabb),
        "Basis" => plain(VariantType::Basis),
        "Transform3D" => plain(VariantType::Transform3D),
        "Projection" => plain(VariantType::Projection),
        "Color" => plain(VariantType::Color),
        "StringName" => plain(VariantType::StringName),
        "NodePath" => plain(VariantType::NodePath),
        "RID" => plain(VariantType::Rid),
        "ObjectId" => Some(Marker {
            ty: VariantType::Object,
            wide: false,
            typed: false,
            as_id: true,
        }),
        "Object" => plain(VariantType::Object),
        "Callable" => plain(VariantType::Callable),
        "Signal" => plain(VariantType::Signal),
        "TypedArray" => Some(Marker {
            ty: VariantType::Array,
            wide: false,
            typed: true,
            as_id: false,
        }),
        "TypedDictionary" => Some(Marker {
            ty: VariantType::Dictionary,
            wide: false,
            typed: true,
            as_id: false,
        }),
        "PackedByteArray" => plain(VariantType::PackedByteArray),
        "PackedInt32Array" => plain(VariantType::PackedInt32Array),
        "PackedInt64Array" => plain(VariantType::PackedInt64Array),
        "PackedFloat32Array" => plain(VariantType::PackedFloat32Array),
        "PackedFloat64Array" => plain(VariantType::PackedFloat64Array),
        "PackedStringArray" => plain(VariantType::PackedStringArray),
        "PackedVector2Array" => plain(VariantType::PackedVector2Array),
        "PackedVector2Array64" => wide(VariantType::PackedVector2Array),
        "PackedVector3Array" => plain(VariantType::PackedVector3Array),
        "PackedVector3Array64" => wide(VariantType::PackedVector3Array),
        "PackedColorArray" => plain(VariantType::PackedColorArray),
        "PackedVector4Array" => plain(VariantType::PackedVector4Array),
        "PackedVector4Array64" => wide(VariantType::PackedVector4Array),
        _ => None,
    }
}

/// The marker name our deserializer uses as the map key for a value of type `ty` (untyped
/// containers and scalars have none). `wide`: the header's 64-bit flag was set.
pub(crate) fn marker_name(ty: VariantType, wide: bool) -> Option<&'static str> {
    Some(match (ty, wide) {
        (VariantType::Vector2, _) => VECTOR2,
        (VariantType::Vector2i, _) => VECTOR2I,
        (VariantType::Rect2, _) => RECT2,
        (VariantType::Rect2i, _) => RECT2I,
        (VariantType::Vector3, _) => VECTOR3,
        (VariantType::Vector3i, _) => VECTOR3I,
        (VariantType::Transform2D, _) => TRANSFORM2D,
        (VariantType::Vector4, _) => VECTOR4,
        (VariantType::Vector4i, _) => VECTOR4I,
        (VariantType::Plane, _) => PLANE,
        (VariantType::Quaternion, _) => QUATERNION,
        (VariantType::Aabb, _) => AABB,
        (VariantType::Basis, _) => BASIS,
        (VariantType::Transform3D, _) => TRANSFORM3D,
        (VariantType::Projection, _) => PROJECTION,
        (VariantType::Color, _) => COLOR,
        (VariantType::StringName, _) => STRING_NAME,
        (VariantType::NodePath, _) => NODE_PATH,
        (VariantType::Rid, _) => RID,
        (VariantType::Callable, _) => CALLABLE,
        (VariantType::Signal, _) => SIGNAL,
        (VariantType::PackedByteArray, _) => PACKED_BYTE_ARRAY,
        (VariantType::PackedInt32Array, _) => PACKED_INT32_ARRAY,
        (VariantType::PackedInt64Array, _) => PACKED_INT64_ARRAY,
        (VariantType::PackedFloat32Array, _) => PACKED_FLOAT32_ARRAY,
        (VariantType::PackedFloat64Array, _) => PACKED_FLOAT64_ARRAY,
        (VariantType::PackedStringArray, _) => PACKED_STRING_ARRAY,
        (VariantType::PackedVector2Array, false) => PACKED_VECTOR2_ARRAY,
        (VariantType::PackedVector2Array, true) => PACKED_VECTOR2_ARRAY_64,
        (VariantType::PackedVector3Array, false) => PACKED_VECTOR3_ARRAY,
        (VariantType::PackedVector3Array, true) => PACKED_VECTOR3_ARRAY_64,
        (VariantType::PackedColorArray, _) => PACKED_COLOR_ARRAY,
        (VariantType::PackedVector4Array, false) => PACKED_VECTOR4_ARRAY,
        (VariantType::PackedVector4Array, true) => PACKED_VECTOR4_ARRAY_64,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_name_is_found_by_the_lookup() {
        for ty in VariantType::ALL {
            for wide in [false, true] {
                if let Some(name) = marker_name(ty, wide) {
                    let m = marker(name).expect(name);
                    assert_eq!(m.ty, ty, "{name}");
                }
            }
        }
        assert_eq!(marker("Vector2"), None);
        assert_eq!(marker("$godot_serde::Nope"), None);
    }
}
