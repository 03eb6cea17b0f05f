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
//! which those visitors accept too. The names themselves are defined once, in the wire type
//! table (`wire/types.rs`).
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

pub(crate) use proto::{Flat, Payload, cautious, decode_packed};

use crate::wire::VariantType;
pub(crate) use crate::wire::types::{Marker, is_reserved_key, marker, marker_name};
use crate::wire::types::{alt_marker_of, marker_of};

// The marker names the types below pass to serde, taken from the one table of Godot types
// (`wire::types::TYPES`), which also holds the lookup from name to wire type. The math types'
// names are taken from the table where they are used (`flat_marker!` in `math.rs`).
pub(crate) const STRING_NAME: &str = marker_of(VariantType::StringName);
pub(crate) const NODE_PATH: &str = marker_of(VariantType::NodePath);
pub(crate) const RID: &str = marker_of(VariantType::Rid);
pub(crate) const OBJECT: &str = marker_of(VariantType::Object);
pub(crate) const CALLABLE: &str = marker_of(VariantType::Callable);
pub(crate) const SIGNAL: &str = marker_of(VariantType::Signal);
pub(crate) const PACKED_BYTE_ARRAY: &str = marker_of(VariantType::PackedByteArray);
pub(crate) const PACKED_INT32_ARRAY: &str = marker_of(VariantType::PackedInt32Array);
pub(crate) const PACKED_INT64_ARRAY: &str = marker_of(VariantType::PackedInt64Array);
pub(crate) const PACKED_FLOAT32_ARRAY: &str = marker_of(VariantType::PackedFloat32Array);
pub(crate) const PACKED_FLOAT64_ARRAY: &str = marker_of(VariantType::PackedFloat64Array);
pub(crate) const PACKED_STRING_ARRAY: &str = marker_of(VariantType::PackedStringArray);
pub(crate) const PACKED_VECTOR2_ARRAY: &str = marker_of(VariantType::PackedVector2Array);
pub(crate) const PACKED_VECTOR3_ARRAY: &str = marker_of(VariantType::PackedVector3Array);
pub(crate) const PACKED_COLOR_ARRAY: &str = marker_of(VariantType::PackedColorArray);
pub(crate) const PACKED_VECTOR4_ARRAY: &str = marker_of(VariantType::PackedVector4Array);
pub(crate) const OBJECT_ID: &str = alt_marker_of(VariantType::Object);
pub(crate) const TYPED_ARRAY: &str = alt_marker_of(VariantType::Array);
pub(crate) const TYPED_DICTIONARY: &str = alt_marker_of(VariantType::Dictionary);
pub(crate) const PACKED_VECTOR2_ARRAY_64: &str = alt_marker_of(VariantType::PackedVector2Array);
pub(crate) const PACKED_VECTOR3_ARRAY_64: &str = alt_marker_of(VariantType::PackedVector3Array);
pub(crate) const PACKED_VECTOR4_ARRAY_64: &str = alt_marker_of(VariantType::PackedVector4Array);

/// [`marker`] for the constant name a marker type's `Deserialize` passes.
#[inline(always)]
pub(crate) fn marker_inline(name: &str) -> Option<Marker> {
    marker(name)
}
