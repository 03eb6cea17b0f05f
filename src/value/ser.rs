//! `Serialize` for [`Variant`], [`Array`], [`Dictionary`], [`Object`] and [`ContainerType`],
//! following the marker protocol in [`crate::types`]: plain values are serde's plain types,
//! Godot types go through their markers, so encoding a `Variant` loses nothing.

use serde::ser::{SerializeMap, SerializeTuple, SerializeTupleStruct};
use serde::{Serialize, Serializer};

use super::{Array, ContainerType, Dictionary, Object, Variant};
use crate::types::{OBJECT, TYPED_ARRAY, TYPED_DICTIONARY};
// Each container level through `grow`: a Variant that decoding or parsing allowed (up to
// Godot's 1024 levels) serializes again on a 2 MiB thread.
use crate::wire::depth::grow;

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Variant::Nil => s.serialize_unit(),
            Variant::Bool(v) => s.serialize_bool(*v),
            Variant::Int(v) => s.serialize_i64(*v),
            Variant::Float(v) => s.serialize_f64(*v),
            Variant::String(v) => s.serialize_str(v),
            Variant::Vector2(v) => v.serialize(s),
            Variant::Vector2i(v) => v.serialize(s),
            Variant::Rect2(v) => v.serialize(s),
            Variant::Rect2i(v) => v.serialize(s),
            Variant::Vector3(v) => v.serialize(s),
            Variant::Vector3i(v) => v.serialize(s),
            Variant::Transform2D(v) => v.serialize(s),
            Variant::Vector4(v) => v.serialize(s),
            Variant::Vector4i(v) => v.serialize(s),
            Variant::Plane(v) => v.serialize(s),
            Variant::Quaternion(v) => v.serialize(s),
            Variant::Aabb(v) => v.serialize(s),
            Variant::Basis(v) => v.serialize(s),
            Variant::Transform3D(v) => v.serialize(s),
            Variant::Projection(v) => v.serialize(s),
            Variant::Color(v) => v.serialize(s),
            Variant::StringName(v) => v.serialize(s),
            Variant::NodePath(v) => v.serialize(s),
            Variant::Rid(v) => v.serialize(s),
            Variant::Object(v) => grow(|| v.serialize(s)),
            Variant::ObjectId(v) => v.serialize(s),
            Variant::Callable(v) => v.serialize(s),
            Variant::Signal(v) => v.serialize(s),
            Variant::Dictionary(v) => grow(|| v.serialize(s)),
            Variant::Array(v) => grow(|| v.serialize(s)),
            Variant::PackedByteArray(v) => v.serialize(s),
            Variant::PackedInt32Array(v) => v.serialize(s),
            Variant::PackedInt64Array(v) => v.serialize(s),
            Variant::PackedFloat32Array(v) => v.serialize(s),
            Variant::PackedFloat64Array(v) => v.serialize(s),
            Variant::PackedStringArray(v) => v.serialize(s),
            Variant::PackedVector2Array(v) => v.serialize(s),
            Variant::PackedVector3Array(v) => v.serialize(s),
            Variant::PackedColorArray(v) => v.serialize(s),
            Variant::PackedVector4Array(v) => v.serialize(s),
        }
    }
}

impl ContainerType {
    /// The `(kind, Godot 4 type id, name)` triple of the marker protocol.
    pub(super) fn parts(&self) -> (u8, u32, &str) {
        match self {
            ContainerType::Untyped => (0, 0, ""),
            ContainerType::Builtin(ty) => (1, u32::from(*ty as u8), ""),
            ContainerType::ClassName(name) => (2, 0, name),
            ContainerType::Script(path) => (3, 0, path),
        }
    }
}

impl Serialize for ContainerType {
    /// A 3-tuple `(u8 kind, u32 type id, str)`: kind 0 untyped, 1 builtin (with its Godot 4
    /// type id), 2 native class name, 3 script path; the unused fields are `0` and `""`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (kind, id, name) = self.parts();
        let mut t = s.serialize_tuple(3)?;
        t.serialize_element(&kind)?;
        t.serialize_element(&id)?;
        t.serialize_element(name)?;
        t.end()
    }
}

/// Array elements as a plain seq.
struct Items<'a>(&'a [Variant]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0)
    }
}

impl Serialize for Array {
    /// Untyped: a seq of the elements. Typed: `serialize_tuple_struct(TYPED_ARRAY, 2)` with the
    /// element type and the seq.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.element_type == ContainerType::Untyped {
            return s.collect_seq(&self.items);
        }
        let mut t = s.serialize_tuple_struct(TYPED_ARRAY, 2)?;
        t.serialize_field(&self.element_type)?;
        t.serialize_field(&Items(&self.items))?;
        t.end()
    }
}

/// Dictionary entries as a plain map, in order.
struct Entries<'a>(&'a [(Variant, Variant)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for Dictionary {
    /// Untyped: a map of the entries in order. Typed: `serialize_tuple_struct(TYPED_DICTIONARY,
    /// 3)` with the key type, the value type and the map.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.is_typed() {
            return Entries(self.as_slice()).serialize(s);
        }
        let mut t = s.serialize_tuple_struct(TYPED_DICTIONARY, 3)?;
        t.serialize_field(self.key_type())?;
        t.serialize_field(self.value_type())?;
        t.serialize_field(&Entries(self.as_slice()))?;
        t.end()
    }
}

/// Object properties as a map of name to value, in order.
struct Properties<'a>(&'a [(String, Variant)]);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k.as_str(), v)?;
        }
        map.end()
    }
}

impl Serialize for Object {
    /// `serialize_tuple_struct(OBJECT, 2)`: the class name, then the properties as a map.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple_struct(OBJECT, 2)?;
        t.serialize_field(&self.class)?;
        t.serialize_field(&Properties(&self.properties))?;
        t.end()
    }
}
