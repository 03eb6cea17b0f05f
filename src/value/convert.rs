//! Conversions between Rust values and [`Variant`]: `From` / `TryFrom`, the type of a value,
//! and borrowing accessors (`as_*`).
//!
//! `From` exists for every Rust value that has exactly one Godot form: `bool`, integers that
//! always fit Godot's 64-bit `int` (`i8`–`i64`, `u8`–`u32`), `f32` / `f64`, strings, every
//! marker type, [`Array`] (also from `Vec<Variant>`), [`Dictionary`], [`Object`] and
//! `Option<T>` (`None` is `Nil`). `u64`, `usize` and `isize` convert with `TryFrom`, since a
//! `u64` above `i64::MAX` has no Godot form.
//!
//! `TryFrom<Variant>` goes the other way and fails with an [`Error`] of kind
//! [`ErrorKind::Message`] naming the expected and the found Godot type
//! (`expected int, found String`), or the range for integers that do not fit the target.

use crate::error::{Error, ErrorKind};
use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};
use crate::wire::VariantType;

use super::{Array, Dictionary, Object, Variant};

impl Variant {
    /// The Godot type of this value. Both [`Variant::Object`] and [`Variant::ObjectId`] are
    /// [`VariantType::Object`].
    ///
    /// ```
    /// use godot_serde::{Variant, VariantType};
    ///
    /// assert_eq!(Variant::from(1.5).variant_type(), VariantType::Float);
    /// assert_eq!(Variant::from("hi").variant_type().name(), "String");
    /// ```
    #[must_use]
    pub fn variant_type(&self) -> VariantType {
        match self {
            Variant::Nil => VariantType::Nil,
            Variant::Bool(_) => VariantType::Bool,
            Variant::Int(_) => VariantType::Int,
            Variant::Float(_) => VariantType::Float,
            Variant::String(_) => VariantType::String,
            Variant::Vector2(_) => VariantType::Vector2,
            Variant::Vector2i(_) => VariantType::Vector2i,
            Variant::Rect2(_) => VariantType::Rect2,
            Variant::Rect2i(_) => VariantType::Rect2i,
            Variant::Vector3(_) => VariantType::Vector3,
            Variant::Vector3i(_) => VariantType::Vector3i,
            Variant::Transform2D(_) => VariantType::Transform2D,
            Variant::Vector4(_) => VariantType::Vector4,
            Variant::Vector4i(_) => VariantType::Vector4i,
            Variant::Plane(_) => VariantType::Plane,
            Variant::Quaternion(_) => VariantType::Quaternion,
            Variant::Aabb(_) => VariantType::Aabb,
            Variant::Basis(_) => VariantType::Basis,
            Variant::Transform3D(_) => VariantType::Transform3D,
            Variant::Projection(_) => VariantType::Projection,
            Variant::Color(_) => VariantType::Color,
            Variant::StringName(_) => VariantType::StringName,
            Variant::NodePath(_) => VariantType::NodePath,
            Variant::Rid(_) => VariantType::Rid,
            Variant::Object(_) | Variant::ObjectId(_) => VariantType::Object,
            Variant::Callable(_) => VariantType::Callable,
            Variant::Signal(_) => VariantType::Signal,
            Variant::Dictionary(_) => VariantType::Dictionary,
            Variant::Array(_) => VariantType::Array,
            Variant::PackedByteArray(_) => VariantType::PackedByteArray,
            Variant::PackedInt32Array(_) => VariantType::PackedInt32Array,
            Variant::PackedInt64Array(_) => VariantType::PackedInt64Array,
            Variant::PackedFloat32Array(_) => VariantType::PackedFloat32Array,
            Variant::PackedFloat64Array(_) => VariantType::PackedFloat64Array,
            Variant::PackedStringArray(_) => VariantType::PackedStringArray,
            Variant::PackedVector2Array(_) => VariantType::PackedVector2Array,
            Variant::PackedVector3Array(_) => VariantType::PackedVector3Array,
            Variant::PackedColorArray(_) => VariantType::PackedColorArray,
            Variant::PackedVector4Array(_) => VariantType::PackedVector4Array,
        }
    }

    /// Whether this is `null` ([`Variant::Nil`]).
    ///
    /// ```
    /// use godot_serde::Variant;
    ///
    /// assert!(Variant::Nil.is_nil());
    /// assert!(Variant::from(None::<i64>).is_nil());
    /// assert!(!Variant::from(0).is_nil());
    /// ```
    #[must_use]
    pub fn is_nil(&self) -> bool {
        matches!(self, Variant::Nil)
    }

    /// The value of a `bool`.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Variant::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The value of an `int`.
    ///
    /// ```
    /// use godot_serde::Variant;
    ///
    /// assert_eq!(Variant::from(7u8).as_int(), Some(7));
    /// assert_eq!(Variant::from(7.0).as_int(), None);
    /// ```
    #[must_use]
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Variant::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value of a `float`, or of an `int` converted to `f64` (rounded beyond 2⁵³, as
    /// Godot does when it mixes the two).
    ///
    /// ```
    /// use godot_serde::Variant;
    ///
    /// assert_eq!(Variant::from(2).as_float(), Some(2.0));
    /// assert_eq!(Variant::from(0.5f32).as_float(), Some(0.5));
    /// assert_eq!(Variant::from("2").as_float(), None);
    /// ```
    #[must_use]
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Variant::Float(x) => Some(*x),
            #[allow(clippy::cast_precision_loss)]
            Variant::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The text of a `String` or a `StringName`.
    ///
    /// ```
    /// use godot_serde::{StringName, Variant};
    ///
    /// assert_eq!(Variant::from("a").as_str(), Some("a"));
    /// assert_eq!(Variant::from(StringName("b".into())).as_str(), Some("b"));
    /// assert_eq!(Variant::Nil.as_str(), None);
    /// ```
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Variant::String(s) => Some(s),
            Variant::StringName(StringName(s)) => Some(s),
            _ => None,
        }
    }
}

/// The borrowing accessors `as_x` / `as_x_mut` of every arm that holds one Godot type
/// (boxed or not: the box stays hidden).
macro_rules! accessors {
    ($($case:ident($t:ty) $what:literal $get:ident $get_mut:ident;)*) => {
        impl Variant {$(
            #[doc = concat!("The ", $what, " inside, if this is one.")]
            #[must_use]
            pub fn $get(&self) -> Option<&$t> {
                match self {
                    Variant::$case(v) => Some(v),
                    _ => None,
                }
            }

            #[doc = concat!("The ", $what, " inside, mutably, if this is one.")]
            pub fn $get_mut(&mut self) -> Option<&mut $t> {
                match self {
                    Variant::$case(v) => Some(v),
                    _ => None,
                }
            }
        )*}
    };
}

accessors! {
    Array(Array) "Array" as_array as_array_mut;
    Dictionary(Dictionary) "Dictionary" as_dictionary as_dictionary_mut;
    Object(Object) "Object (a full object; one sent as an id is [`Variant::as_object_id`])" as_object as_object_mut;
    Vector2(Vector2) "Vector2" as_vector2 as_vector2_mut;
    Vector2i(Vector2i) "Vector2i" as_vector2i as_vector2i_mut;
    Rect2(Rect2) "Rect2" as_rect2 as_rect2_mut;
    Rect2i(Rect2i) "Rect2i" as_rect2i as_rect2i_mut;
    Vector3(Vector3) "Vector3" as_vector3 as_vector3_mut;
    Vector3i(Vector3i) "Vector3i" as_vector3i as_vector3i_mut;
    Transform2D(Transform2D) "Transform2D" as_transform2d as_transform2d_mut;
    Vector4(Vector4) "Vector4" as_vector4 as_vector4_mut;
    Vector4i(Vector4i) "Vector4i" as_vector4i as_vector4i_mut;
    Plane(Plane) "Plane" as_plane as_plane_mut;
    Quaternion(Quaternion) "Quaternion" as_quaternion as_quaternion_mut;
    Aabb(Aabb) "Aabb" as_aabb as_aabb_mut;
    Basis(Basis) "Basis" as_basis as_basis_mut;
    Transform3D(Transform3D) "Transform3D" as_transform3d as_transform3d_mut;
    Projection(Projection) "Projection" as_projection as_projection_mut;
    Color(Color) "Color" as_color as_color_mut;
    StringName(StringName) "StringName" as_string_name as_string_name_mut;
    NodePath(NodePath) "NodePath" as_node_path as_node_path_mut;
    Rid(Rid) "Rid" as_rid as_rid_mut;
    ObjectId(ObjectId) "ObjectId" as_object_id as_object_id_mut;
    Callable(Callable) "Callable" as_callable as_callable_mut;
    Signal(Signal) "Signal" as_signal as_signal_mut;
    PackedByteArray(PackedByteArray) "PackedByteArray" as_packed_byte_array as_packed_byte_array_mut;
    PackedInt32Array(PackedInt32Array) "PackedInt32Array" as_packed_int32_array as_packed_int32_array_mut;
    PackedInt64Array(PackedInt64Array) "PackedInt64Array" as_packed_int64_array as_packed_int64_array_mut;
    PackedFloat32Array(PackedFloat32Array) "PackedFloat32Array" as_packed_float32_array as_packed_float32_array_mut;
    PackedFloat64Array(PackedFloat64Array) "PackedFloat64Array" as_packed_float64_array as_packed_float64_array_mut;
    PackedStringArray(PackedStringArray) "PackedStringArray" as_packed_string_array as_packed_string_array_mut;
    PackedVector2Array(PackedVector2Array) "PackedVector2Array" as_packed_vector2_array as_packed_vector2_array_mut;
    PackedVector3Array(PackedVector3Array) "PackedVector3Array" as_packed_vector3_array as_packed_vector3_array_mut;
    PackedColorArray(PackedColorArray) "PackedColorArray" as_packed_color_array as_packed_color_array_mut;
    PackedVector4Array(PackedVector4Array) "PackedVector4Array" as_packed_vector4_array as_packed_vector4_array_mut;
}

/// The error of a failed `TryFrom<Variant>`: `expected int, found String`.
#[cold]
fn mismatch(expected: &str, found: &Variant) -> Error {
    let found = found.variant_type().name();
    Error::new(ErrorKind::Message(
        format!("expected {expected}, found {found}").into(),
    ))
}

// ---------------------------------------------------------------------------------------------
// Into Variant

impl From<bool> for Variant {
    fn from(v: bool) -> Self {
        Variant::Bool(v)
    }
}

/// Integers that always fit Godot's 64-bit `int`.
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Variant {
            fn from(v: $t) -> Self {
                Variant::Int(i64::from(v))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32);

/// Integers that may not fit Godot's 64-bit `int`.
macro_rules! try_from_int {
    ($($t:ty),*) => {$(
        impl TryFrom<$t> for Variant {
            type Error = Error;
            fn try_from(v: $t) -> Result<Self, Error> {
                i64::try_from(v).map(Variant::Int).map_err(|_| {
                    Error::new(ErrorKind::IntegerOutOfRange(v.to_string().into()))
                })
            }
        }
    )*};
}
try_from_int!(u64, usize, isize);

impl From<f32> for Variant {
    fn from(v: f32) -> Self {
        Variant::Float(f64::from(v))
    }
}

impl From<f64> for Variant {
    fn from(v: f64) -> Self {
        Variant::Float(v)
    }
}

impl From<&str> for Variant {
    fn from(v: &str) -> Self {
        Variant::String(v.into())
    }
}

impl From<String> for Variant {
    fn from(v: String) -> Self {
        Variant::String(v.into())
    }
}

impl From<Vec<Variant>> for Variant {
    /// An untyped Array.
    fn from(items: Vec<Variant>) -> Self {
        Variant::from(Array::from(items))
    }
}

impl<T: Into<Variant>> From<Option<T>> for Variant {
    /// `None` is `Nil`.
    fn from(v: Option<T>) -> Self {
        v.map_or(Variant::Nil, Into::into)
    }
}

/// The value of a `Variant` arm, out of its box if it has one.
pub(crate) trait Unbox<T> {
    /// The value.
    fn unbox(self) -> T;
}

impl<T> Unbox<T> for T {
    fn unbox(self) -> T {
        self
    }
}

impl<T> Unbox<T> for Box<T> {
    fn unbox(self) -> T {
        *self
    }
}

/// Types that are one `Variant` case, both ways.
macro_rules! case_conversions {
    ($($case:ident($t:ty) $name:literal;)*) => {$(
        impl From<$t> for Variant {
            fn from(v: $t) -> Self {
                // Boxes the arms that hold a `Box` (`From<T> for Box<T>`), moves the others.
                Variant::$case(v.into())
            }
        }

        impl TryFrom<Variant> for $t {
            type Error = Error;
            fn try_from(v: Variant) -> Result<Self, Error> {
                match v {
                    Variant::$case(x) => Ok(Unbox::unbox(x)),
                    other => Err(mismatch($name, &other)),
                }
            }
        }
    )*};
}

case_conversions! {
    Vector2(Vector2) "Vector2";
    Vector2i(Vector2i) "Vector2i";
    Rect2(Rect2) "Rect2";
    Rect2i(Rect2i) "Rect2i";
    Vector3(Vector3) "Vector3";
    Vector3i(Vector3i) "Vector3i";
    Transform2D(Transform2D) "Transform2D";
    Vector4(Vector4) "Vector4";
    Vector4i(Vector4i) "Vector4i";
    Plane(Plane) "Plane";
    Quaternion(Quaternion) "Quaternion";
    Aabb(Aabb) "AABB";
    Basis(Basis) "Basis";
    Transform3D(Transform3D) "Transform3D";
    Projection(Projection) "Projection";
    Color(Color) "Color";
    StringName(StringName) "StringName";
    NodePath(NodePath) "NodePath";
    Rid(Rid) "RID";
    Object(Object) "Object";
    ObjectId(ObjectId) "Object id";
    Callable(Callable) "Callable";
    Signal(Signal) "Signal";
    Dictionary(Dictionary) "Dictionary";
    Array(Array) "Array";
    PackedByteArray(PackedByteArray) "PackedByteArray";
    PackedInt32Array(PackedInt32Array) "PackedInt32Array";
    PackedInt64Array(PackedInt64Array) "PackedInt64Array";
    PackedFloat32Array(PackedFloat32Array) "PackedFloat32Array";
    PackedFloat64Array(PackedFloat64Array) "PackedFloat64Array";
    PackedStringArray(PackedStringArray) "PackedStringArray";
    PackedVector2Array(PackedVector2Array) "PackedVector2Array";
    PackedVector3Array(PackedVector3Array) "PackedVector3Array";
    PackedColorArray(PackedColorArray) "PackedColorArray";
    PackedVector4Array(PackedVector4Array) "PackedVector4Array";
}

// ---------------------------------------------------------------------------------------------
// Out of Variant

impl TryFrom<Variant> for bool {
    type Error = Error;
    fn try_from(v: Variant) -> Result<Self, Error> {
        v.as_bool().ok_or_else(|| mismatch("bool", &v))
    }
}

/// Integers: from an `int` whose value fits.
macro_rules! int_from_variant {
    ($($t:ty),*) => {$(
        impl TryFrom<Variant> for $t {
            type Error = Error;
            fn try_from(v: Variant) -> Result<Self, Error> {
                let i = v.as_int().ok_or_else(|| mismatch("int", &v))?;
                <$t>::try_from(i).map_err(|_| {
                    Error::new(ErrorKind::Message(
                        format!("int {i} out of range for {}", stringify!($t)).into(),
                    ))
                })
            }
        }
    )*};
}
int_from_variant!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl TryFrom<Variant> for f64 {
    type Error = Error;
    /// From a `float`, or an `int` (see [`Variant::as_float`]).
    fn try_from(v: Variant) -> Result<Self, Error> {
        v.as_float().ok_or_else(|| mismatch("float", &v))
    }
}

impl TryFrom<Variant> for f32 {
    type Error = Error;
    /// From a `float` or an `int`, rounded to `f32`.
    fn try_from(v: Variant) -> Result<Self, Error> {
        #[allow(clippy::cast_possible_truncation)]
        v.as_float()
            .map(|x| x as f32)
            .ok_or_else(|| mismatch("float", &v))
    }
}

impl TryFrom<Variant> for String {
    type Error = Error;
    /// From a `String` or a `StringName`.
    fn try_from(v: Variant) -> Result<Self, Error> {
        match v {
            Variant::String(s) => Ok(s.into_string()),
            Variant::StringName(StringName(s)) => Ok(s),
            other => Err(mismatch("String", &other)),
        }
    }
}

impl TryFrom<Variant> for Vec<Variant> {
    type Error = Error;
    /// The elements of an `Array` (typed or not).
    fn try_from(v: Variant) -> Result<Self, Error> {
        match v {
            Variant::Array(a) => Ok(a.items),
            other => Err(mismatch("Array", &other)),
        }
    }
}

impl<T> TryFrom<Variant> for Option<T>
where
    T: TryFrom<Variant, Error = Error>,
{
    type Error = Error;
    /// `Nil` is `None`; anything else converts to `T`.
    fn try_from(v: Variant) -> Result<Self, Error> {
        match v {
            Variant::Nil => Ok(None),
            other => T::try_from(other).map(Some),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Collecting

impl FromIterator<Variant> for Array {
    /// An untyped Array of the items.
    fn from_iter<I: IntoIterator<Item = Variant>>(iter: I) -> Self {
        Array::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<K: Into<Variant>, V: Into<Variant>> FromIterator<(K, V)> for Dictionary {
    /// An untyped Dictionary; a repeated key keeps its first position and its last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut d = Dictionary::new();
        d.extend(iter);
        d
    }
}
