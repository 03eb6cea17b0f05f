//! [`Variant`]: a dynamically typed Godot value, for data whose shape is not known in advance.

mod array;
mod builder;
mod convert;
mod de;
mod deserializer;
mod dictionary;
mod from_bytes;
mod index;
mod kept;
mod macros;
mod ser;

pub use dictionary::{DictionaryKey, IntoIter as DictionaryIntoIter};
pub use index::VariantIndex;

pub(crate) use builder::DictionaryBuilder;
pub(crate) use deserializer::{Borrowed, VariantDe};
pub(crate) use dictionary::{KeyMode, LINEAR_MAX, fingerprint, text_print};
pub(crate) use kept::kept_as_is;

use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};
use crate::wire::VariantType;
// Each container level of a deep operation (cloning, comparing) through `grow`: a Variant
// that decoding or parsing allowed (up to Godot's 1024 levels) clones on a 2 MiB thread.
use crate::wire::depth::grow;

/// Any Godot value, of Godot 3 or Godot 4.
///
/// Each variant is one Godot type; the doc comment gives its type id in 4.x and 3.x.
///
/// A `Variant` is 32 bytes (40 with the `double-precision` feature): the types larger than
/// that are boxed (`Variant::Array(Box<Array>)`, ...), and a [`Dictionary`] is two words
/// inline. Build them with `From` (`Variant::from(array)`) and read them with the accessors
/// (`as_array`, ...), which hide the box. [`variant_from_bytes`](crate::variant_from_bytes)
/// decodes one from bytes faster than `from_bytes::<Variant>`, with the same result.
/// Decoding any engine output into a `Variant` and encoding it again for the same engine gives
/// the same bytes (typed container descriptors are kept; NodePath padding is written as zeros).
///
/// With serde, a `Variant` takes whatever the input describes, and Godot types arrive as the
/// one-entry maps of the marker protocol (`{"$godot_serde::Vector2": [x, y]}`). Such keys are
/// reserved: our decoder refuses a Godot Dictionary with one as any key, so it cannot pose
/// as another type; from other formats (JSON) such a map is read as that Godot type.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Variant {
    /// `null` (id 0 in both engines). Also what a null object is written as.
    #[default]
    Nil,
    /// `bool` (id 1).
    Bool(bool),
    /// `int` (id 2): 64-bit; written as 32-bit when it fits.
    Int(i64),
    /// `float` (id 3; Godot 3 `real`): 64-bit; written as 32-bit when exact.
    Float(f64),
    /// `String` (id 4). A [`CompactString`](crate::CompactString): texts of up to 24 bytes,
    /// such as most Dictionary keys, are stored inline without an allocation.
    String(compact_str::CompactString),
    /// `Vector2` (id 5).
    Vector2(Vector2),
    /// `Vector2i` (4.x id 6).
    Vector2i(Vector2i),
    /// `Rect2` (4.x id 7, 3.x id 6).
    Rect2(Rect2),
    /// `Rect2i` (4.x id 8).
    Rect2i(Rect2i),
    /// `Vector3` (4.x id 9, 3.x id 7).
    Vector3(Vector3),
    /// `Vector3i` (4.x id 10).
    Vector3i(Vector3i),
    /// `Transform2D` (4.x id 11, 3.x id 8).
    Transform2D(Box<Transform2D>),
    /// `Vector4` (4.x id 12).
    Vector4(Vector4),
    /// `Vector4i` (4.x id 13).
    Vector4i(Vector4i),
    /// `Plane` (4.x id 14, 3.x id 9).
    Plane(Plane),
    /// `Quaternion` (4.x id 15; 3.x `Quat`, id 10).
    Quaternion(Quaternion),
    /// `AABB` (4.x id 16, 3.x id 11).
    Aabb(Box<Aabb>),
    /// `Basis` (4.x id 17, 3.x id 12).
    Basis(Box<Basis>),
    /// `Transform3D` (4.x id 18; 3.x `Transform`, id 13).
    Transform3D(Box<Transform3D>),
    /// `Projection` (4.x id 19).
    Projection(Box<Projection>),
    /// `Color` (4.x id 20, 3.x id 14).
    Color(Color),
    /// `StringName` (4.x id 21).
    StringName(StringName),
    /// `NodePath` (4.x id 22, 3.x id 15).
    NodePath(Box<NodePath>),
    /// `RID` (4.x id 23, 3.x id 16).
    Rid(Rid),
    /// A full object (4.x id 24, 3.x id 17, no flag): class name and properties, as data.
    Object(Box<Object>),
    /// An object sent as its instance id (OBJECT with header bit 16).
    ObjectId(ObjectId),
    /// `Callable` (4.x id 25): never carries data on the wire.
    Callable(Callable),
    /// `Signal` (4.x id 26).
    Signal(Box<Signal>),
    /// `Dictionary` (4.x id 27, 3.x id 18).
    Dictionary(Dictionary),
    /// `Array` (4.x id 28, 3.x id 19).
    Array(Box<Array>),
    /// `PackedByteArray` (4.x id 29; 3.x `PoolByteArray`, id 20).
    PackedByteArray(PackedByteArray),
    /// `PackedInt32Array` (4.x id 30; 3.x `PoolIntArray`, id 21).
    PackedInt32Array(PackedInt32Array),
    /// `PackedInt64Array` (4.x id 31).
    PackedInt64Array(PackedInt64Array),
    /// `PackedFloat32Array` (4.x id 32; 3.x `PoolRealArray`, id 22).
    PackedFloat32Array(PackedFloat32Array),
    /// `PackedFloat64Array` (4.x id 33).
    PackedFloat64Array(PackedFloat64Array),
    /// `PackedStringArray` (4.x id 34; 3.x `PoolStringArray`, id 23).
    PackedStringArray(PackedStringArray),
    /// `PackedVector2Array` (4.x id 35; 3.x `PoolVector2Array`, id 24).
    PackedVector2Array(PackedVector2Array),
    /// `PackedVector3Array` (4.x id 36; 3.x `PoolVector3Array`, id 25).
    PackedVector3Array(PackedVector3Array),
    /// `PackedColorArray` (4.x id 37; 3.x `PoolColorArray`, id 26).
    PackedColorArray(PackedColorArray),
    /// `PackedVector4Array` (4.3+ id 38).
    PackedVector4Array(PackedVector4Array),
}

/// The element type of a typed Array, or the key or value type of a typed Dictionary.
///
/// Godot 4.3+ writes it for `Array[int]` and friends, 4.4+ for `Dictionary[K, V]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContainerType {
    /// Untyped (`Variant`): nothing is written.
    #[default]
    Untyped,
    /// A builtin type, e.g. `Array[int]`. Written as the Godot 4 type id.
    Builtin(VariantType),
    /// A native class, e.g. `Array[Node]`. Written and read as `"EncodedObjectAsID"` unless
    /// the [`Config`](crate::Config) allows objects (`var_to_bytes_with_objects`).
    ClassName(String),
    /// A script class, by its `res://` path; written as the class `"EncodedObjectAsID"`
    /// unless the [`Config`](crate::Config) allows objects.
    Script(String),
}

/// A Godot `Array`: ordered Variants, optionally typed (`Array[int]`, Godot 4.3+).
#[derive(Debug, Default, PartialEq)]
pub struct Array {
    /// The element type; [`ContainerType::Untyped`] for a plain `Array`.
    pub element_type: ContainerType,
    /// The elements.
    pub items: Vec<Variant>,
}

/// A Godot `Dictionary`: keys of any type, kept in insertion order (as Godot does), optionally
/// typed (`Dictionary[String, int]`, Godot 4.4+).
///
/// Keys are unique under Godot's key equality (see [`DictionaryKey`]): inserting an existing
/// key replaces its value in place, as Godot does. Lookups, insertion and decoding use a hash
/// index over the whole key once the Dictionary has more than a few entries, so building or
/// decoding a Dictionary takes linear time whatever its keys.
///
/// A Dictionary is two words: its entries (one allocation holding them with their count, none
/// while empty) and, only when typed or large, a box with the types and the index.
#[derive(Default)]
pub struct Dictionary {
    entries: thin_vec::ThinVec<(Variant, Variant)>,
    /// The key and value types and the index, when there is one of them.
    extra: Option<Box<dictionary::Extra>>,
}

/// A full object (`var_to_bytes_with_objects`): its class name and its stored properties in
/// order. This is data only; nothing is instantiated.
#[derive(Debug, Default, PartialEq)]
pub struct Object {
    /// The native class name, e.g. `"Node2D"`.
    pub class: String,
    /// Property names and values, in the order Godot wrote them.
    pub properties: Vec<(String, Variant)>,
}

/// Whether `a` and `b` are the same value by Godot's key equality (floats by value, NaN equal
/// to NaN; containers with the same types and the same items in order): what
/// `Config::from_variant` asks of a Variant and its decoded bytes. Nested containers recurse on
/// a grown stack, as cloning does.
pub(crate) fn same(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Array(x), Variant::Array(y)) => grow(|| {
            x.element_type == y.element_type
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| same(p, q))
        }),
        (Variant::Dictionary(x), Variant::Dictionary(y)) => grow(|| {
            x.key_type() == y.key_type()
                && x.value_type() == y.value_type()
                && x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((k1, v1), (k2, v2))| same(k1, k2) && same(v1, v2))
        }),
        (Variant::Object(x), Variant::Object(y)) => grow(|| {
            x.class == y.class
                && x.properties.len() == y.properties.len()
                && x.properties
                    .iter()
                    .zip(&y.properties)
                    .all(|((n1, v1), (n2, v2))| n1 == n2 && same(v1, v2))
        }),
        _ => dictionary::key_eq(a, b),
    }
}

impl Clone for Array {
    fn clone(&self) -> Self {
        grow(|| Array {
            element_type: self.element_type.clone(),
            items: self.items.clone(),
        })
    }
}

impl Clone for Dictionary {
    fn clone(&self) -> Self {
        grow(|| Dictionary {
            entries: self.entries.clone(),
            extra: self.extra.clone(),
        })
    }
}

impl Clone for Object {
    fn clone(&self) -> Self {
        grow(|| Object {
            class: self.class.clone(),
            properties: self.properties.clone(),
        })
    }
}
