//! Godot's math types: float vectors and matrices (components are [`Real`]), integer vectors
//! and [`Color`].
//!
//! Serialization follows the marker protocol in [`crate::types`]: each is a tuple struct of its
//! components in wire order, so other serde formats see a plain sequence of numbers.

use bytemuck::{Pod, Zeroable};
use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::proto::{FlatSeq, FlatVisitor, Payload, component_count, serialize_flat};
use crate::wire::VariantType;
use crate::wire::types::marker_of;

/// The component type of Godot's float math types: `f32`, or `f64` with the
/// `double-precision` cargo feature (Godot's `real_t`).
#[cfg(not(feature = "double-precision"))]
pub type Real = f32;
/// The component type of Godot's float math types: `f32`, or `f64` with the
/// `double-precision` cargo feature (Godot's `real_t`).
#[cfg(feature = "double-precision")]
pub type Real = f64;

/// Godot `Vector2` (type id 5 in 3.x and 4.x): `x, y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Vector2 {
    /// X component.
    pub x: Real,
    /// Y component.
    pub y: Real,
}

/// Godot 4 `Vector2i` (type id 6; no Godot 3 equivalent): `x, y` as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Pod, Zeroable)]
#[repr(C)]
pub struct Vector2i {
    /// X component.
    pub x: i32,
    /// Y component.
    pub y: i32,
}

/// Godot `Rect2` (4.x id 7, 3.x id 6): position, size.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Rect2 {
    /// Top-left corner.
    pub position: Vector2,
    /// Width and height.
    pub size: Vector2,
}

/// Godot 4 `Rect2i` (type id 8): position, size as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Pod, Zeroable)]
#[repr(C)]
pub struct Rect2i {
    /// Top-left corner.
    pub position: Vector2i,
    /// Width and height.
    pub size: Vector2i,
}

/// Godot `Vector3` (4.x id 9, 3.x id 7): `x, y, z`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Vector3 {
    /// X component.
    pub x: Real,
    /// Y component.
    pub y: Real,
    /// Z component.
    pub z: Real,
}

/// Godot 4 `Vector3i` (type id 10): `x, y, z` as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Pod, Zeroable)]
#[repr(C)]
pub struct Vector3i {
    /// X component.
    pub x: i32,
    /// Y component.
    pub y: i32,
    /// Z component.
    pub z: i32,
}

/// Godot `Transform2D` (4.x id 11, 3.x id 8): three columns, written column by column
/// (`x.x, x.y, y.x, y.y, origin.x, origin.y`).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Transform2D {
    /// The X axis (first column).
    pub x: Vector2,
    /// The Y axis (second column).
    pub y: Vector2,
    /// The translation (third column).
    pub origin: Vector2,
}

/// Godot 4 `Vector4` (type id 12): `x, y, z, w`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Vector4 {
    /// X component.
    pub x: Real,
    /// Y component.
    pub y: Real,
    /// Z component.
    pub z: Real,
    /// W component.
    pub w: Real,
}

/// Godot 4 `Vector4i` (type id 13): `x, y, z, w` as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Pod, Zeroable)]
#[repr(C)]
pub struct Vector4i {
    /// X component.
    pub x: i32,
    /// Y component.
    pub y: i32,
    /// Z component.
    pub z: i32,
    /// W component.
    pub w: i32,
}

/// Godot `Plane` (4.x id 14, 3.x id 9): `normal.x, normal.y, normal.z, d`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Plane {
    /// The plane's normal.
    pub normal: Vector3,
    /// Distance from the origin.
    pub d: Real,
}

/// Godot `Quaternion` (4.x id 15; Godot 3 `Quat`, id 10): `x, y, z, w`.
#[doc(alias = "Quat")]
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Quaternion {
    /// X component.
    pub x: Real,
    /// Y component.
    pub y: Real,
    /// Z component.
    pub z: Real,
    /// W component.
    pub w: Real,
}

/// Godot `AABB` (4.x id 16, 3.x id 11): position, size.
#[doc(alias = "AABB")]
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Aabb {
    /// The minimum corner.
    pub position: Vector3,
    /// The extent.
    pub size: Vector3,
}

/// Godot `Basis` (4.x id 17, 3.x id 12): a 3×3 matrix stored and written **row by row**.
///
/// Row *i* holds the *i*-th component of the X, Y and Z axes, so GDScript's
/// `Basis(X, Y, Z)` has `rows[0] = (X.x, Y.x, Z.x)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Basis {
    /// The three rows.
    pub rows: [Vector3; 3],
}

/// Godot `Transform3D` (4.x id 18; Godot 3 `Transform`, id 13): the basis rows, then origin.
#[doc(alias = "Transform")]
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Transform3D {
    /// Rotation and scale.
    pub basis: Basis,
    /// Translation.
    pub origin: Vector3,
}

/// Godot 4 `Projection` (type id 19): a 4×4 matrix written column by column.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Projection {
    /// The four columns.
    pub columns: [Vector4; 4],
}

/// Godot `Color` (4.x id 20, 3.x id 14): `r, g, b, a`, always `f32` on the wire, also in
/// double-precision builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Pod, Zeroable)]
#[repr(C)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha.
    pub a: f32,
}

/// `Serialize`, `Deserialize` and the marker payload of a flat math type: a tuple struct of
/// its components in wire order (see the protocol table in [`crate::types`]). The component
/// count and kind are the table's (`wire::types::TYPES`): checked when the crate builds.
macro_rules! flat_marker {
    ($($t:ty: $comp:ty = $vt:ident, $what:literal;)*) => {$(
        const _: () = {
            let Some((n, scalar)) = VariantType::$vt.components() else {
                panic!("a flat marker type without components in the table");
            };
            let real_is_f64 = size_of::<Real>() == 8;
            assert!(
                size_of::<$comp>() == scalar.size(real_is_f64)
                    && size_of::<$t>() == n as usize * size_of::<$comp>(),
                "a marker type's components differ from its row of the table"
            );
        };

        impl super::proto::Flat for $t {
            type Comp = $comp;
            const EXPECTING: &'static str = $what;
        }

        impl Payload for $t {
            const NAMES: &'static [&'static str] = &[marker_of(VariantType::$vt)];

            fn next_payload<'de, A: MapAccess<'de>>(
                map: &mut A,
                _wide: bool,
            ) -> Result<Self, A::Error> {
                map.next_value_seed(FlatSeq::new())
            }
        }

        impl Serialize for $t {
            #[inline]
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_flat(self, marker_of(VariantType::$vt), serializer)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // Human-readable formats, and serde's buffering for `untagged` / `flatten`
                // (which replays a map only through `deserialize_any` / `_struct` / `_map`),
                // get `deserialize_any`; the visitor takes a sequence or the marker map.
                if deserializer.is_human_readable() {
                    deserializer.deserialize_any(FlatVisitor::new())
                } else {
                    deserializer.deserialize_tuple_struct(
                        marker_of(VariantType::$vt),
                        component_count::<Self>(),
                        FlatVisitor::new(),
                    )
                }
            }
        }
    )*};
}

flat_marker! {
    Vector2: Real = Vector2, "a Vector2";
    Vector2i: i32 = Vector2i, "a Vector2i";
    Rect2: Real = Rect2, "a Rect2";
    Rect2i: i32 = Rect2i, "a Rect2i";
    Vector3: Real = Vector3, "a Vector3";
    Vector3i: i32 = Vector3i, "a Vector3i";
    Transform2D: Real = Transform2D, "a Transform2D";
    Vector4: Real = Vector4, "a Vector4";
    Vector4i: i32 = Vector4i, "a Vector4i";
    Plane: Real = Plane, "a Plane";
    Quaternion: Real = Quaternion, "a Quaternion";
    Aabb: Real = Aabb, "an AABB";
    Basis: Real = Basis, "a Basis";
    Transform3D: Real = Transform3D, "a Transform3D";
    Projection: Real = Projection, "a Projection";
    Color: f32 = Color, "a Color";
}

impl Vector2 {
    /// `(0, 0)`.
    pub const ZERO: Self = Self::new(0.0, 0.0);
    /// `(1, 1)`.
    pub const ONE: Self = Self::new(1.0, 1.0);

    /// `Vector2(x, y)`.
    #[must_use]
    pub const fn new(x: Real, y: Real) -> Self {
        Self { x, y }
    }
}

impl Vector2i {
    /// `(0, 0)`.
    pub const ZERO: Self = Self::new(0, 0);
    /// `(1, 1)`.
    pub const ONE: Self = Self::new(1, 1);

    /// `Vector2i(x, y)`.
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
}

impl Vector3 {
    /// `(0, 0, 0)`.
    pub const ZERO: Self = Self::new(0.0, 0.0, 0.0);
    /// `(1, 1, 1)`.
    pub const ONE: Self = Self::new(1.0, 1.0, 1.0);

    /// `Vector3(x, y, z)`.
    #[must_use]
    pub const fn new(x: Real, y: Real, z: Real) -> Self {
        Self { x, y, z }
    }
}

impl Vector3i {
    /// `(0, 0, 0)`.
    pub const ZERO: Self = Self::new(0, 0, 0);
    /// `(1, 1, 1)`.
    pub const ONE: Self = Self::new(1, 1, 1);

    /// `Vector3i(x, y, z)`.
    #[must_use]
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self { x, y, z }
    }
}

impl Vector4 {
    /// `(0, 0, 0, 0)`.
    pub const ZERO: Self = Self::new(0.0, 0.0, 0.0, 0.0);
    /// `(1, 1, 1, 1)`.
    pub const ONE: Self = Self::new(1.0, 1.0, 1.0, 1.0);

    /// `Vector4(x, y, z, w)`.
    #[must_use]
    pub const fn new(x: Real, y: Real, z: Real, w: Real) -> Self {
        Self { x, y, z, w }
    }
}

impl Vector4i {
    /// `(0, 0, 0, 0)`.
    pub const ZERO: Self = Self::new(0, 0, 0, 0);
    /// `(1, 1, 1, 1)`.
    pub const ONE: Self = Self::new(1, 1, 1, 1);

    /// `Vector4i(x, y, z, w)`.
    #[must_use]
    pub const fn new(x: i32, y: i32, z: i32, w: i32) -> Self {
        Self { x, y, z, w }
    }
}

/// `From<[T; N]>`, `From<(T, ..)>` and back to an array, for a vector type.
macro_rules! vector_from {
    ($($t:ident($c:ty; $n:literal): $($f:ident),*;)*) => {$(
        impl From<[$c; $n]> for $t {
            fn from([$($f),*]: [$c; $n]) -> Self {
                Self { $($f),* }
            }
        }

        impl From<($(vector_from!(@ty $f $c)),*)> for $t {
            fn from(($($f),*): ($(vector_from!(@ty $f $c)),*)) -> Self {
                Self { $($f),* }
            }
        }

        impl From<$t> for [$c; $n] {
            fn from(v: $t) -> Self {
                [$(v.$f),*]
            }
        }
    )*};
    (@ty $f:ident $c:ty) => { $c };
}

vector_from! {
    Vector2(Real; 2): x, y;
    Vector2i(i32; 2): x, y;
    Vector3(Real; 3): x, y, z;
    Vector3i(i32; 3): x, y, z;
    Vector4(Real; 4): x, y, z, w;
    Vector4i(i32; 4): x, y, z, w;
    Quaternion(Real; 4): x, y, z, w;
}

impl Rect2 {
    /// `Rect2(position, size)`.
    #[must_use]
    pub const fn new(position: Vector2, size: Vector2) -> Self {
        Self { position, size }
    }
}

impl Rect2i {
    /// `Rect2i(position, size)`.
    #[must_use]
    pub const fn new(position: Vector2i, size: Vector2i) -> Self {
        Self { position, size }
    }
}

impl Transform2D {
    /// The identity: X axis `(1, 0)`, Y axis `(0, 1)`, origin `(0, 0)`.
    pub const IDENTITY: Self = Self::new(
        Vector2::new(1.0, 0.0),
        Vector2::new(0.0, 1.0),
        Vector2::ZERO,
    );

    /// `Transform2D(x_axis, y_axis, origin)`: the three columns.
    #[must_use]
    pub const fn new(x: Vector2, y: Vector2, origin: Vector2) -> Self {
        Self { x, y, origin }
    }
}

impl Plane {
    /// `Plane(normal, d)`.
    #[must_use]
    pub const fn new(normal: Vector3, d: Real) -> Self {
        Self { normal, d }
    }
}

impl Quaternion {
    /// The identity rotation `(0, 0, 0, 1)`.
    pub const IDENTITY: Self = Self::new(0.0, 0.0, 0.0, 1.0);

    /// `Quaternion(x, y, z, w)`.
    #[must_use]
    pub const fn new(x: Real, y: Real, z: Real, w: Real) -> Self {
        Self { x, y, z, w }
    }
}

impl Aabb {
    /// `AABB(position, size)`.
    #[must_use]
    pub const fn new(position: Vector3, size: Vector3) -> Self {
        Self { position, size }
    }
}

impl Basis {
    /// The identity matrix.
    pub const IDENTITY: Self = Self::from_rows(
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.0, 0.0, 1.0),
    );

    /// A basis from its three rows (the order Godot writes).
    #[must_use]
    pub const fn from_rows(row0: Vector3, row1: Vector3, row2: Vector3) -> Self {
        Self {
            rows: [row0, row1, row2],
        }
    }

    /// GDScript's `Basis(x_axis, y_axis, z_axis)`: a basis from its three axes (columns), so
    /// `rows[i]` is `(x[i], y[i], z[i])`.
    #[must_use]
    pub const fn from_axes(x: Vector3, y: Vector3, z: Vector3) -> Self {
        Self::from_rows(
            Vector3::new(x.x, y.x, z.x),
            Vector3::new(x.y, y.y, z.y),
            Vector3::new(x.z, y.z, z.z),
        )
    }
}

impl Transform3D {
    /// The identity: [`Basis::IDENTITY`] and origin `(0, 0, 0)`.
    pub const IDENTITY: Self = Self::new(Basis::IDENTITY, Vector3::ZERO);

    /// `Transform3D(basis, origin)`.
    #[must_use]
    pub const fn new(basis: Basis, origin: Vector3) -> Self {
        Self { basis, origin }
    }
}

impl Projection {
    /// The identity matrix.
    pub const IDENTITY: Self = Self::from_columns(
        Vector4::new(1.0, 0.0, 0.0, 0.0),
        Vector4::new(0.0, 1.0, 0.0, 0.0),
        Vector4::new(0.0, 0.0, 1.0, 0.0),
        Vector4::new(0.0, 0.0, 0.0, 1.0),
    );

    /// `Projection(x, y, z, w)`: a matrix from its four columns.
    #[must_use]
    pub const fn from_columns(x: Vector4, y: Vector4, z: Vector4, w: Vector4) -> Self {
        Self {
            columns: [x, y, z, w],
        }
    }
}

impl Color {
    /// Opaque white `(1, 1, 1, 1)`.
    pub const WHITE: Self = Self::new(1.0, 1.0, 1.0, 1.0);
    /// Opaque black `(0, 0, 0, 1)`.
    pub const BLACK: Self = Self::new(0.0, 0.0, 0.0, 1.0);

    /// `Color(r, g, b, a)`.
    #[must_use]
    pub const fn new(r: f32, g: f32, b: f32, a: f32) -> Self {
        Self { r, g, b, a }
    }

    /// `Color(r, g, b)`: opaque.
    #[must_use]
    pub const fn rgb(r: f32, g: f32, b: f32) -> Self {
        Self::new(r, g, b, 1.0)
    }
}
