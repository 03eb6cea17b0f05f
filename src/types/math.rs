//! Godot's math types: float vectors and matrices (components are [`Real`]), integer vectors
//! and [`Color`].
//!
//! Serialization follows the marker protocol in [`crate::types`]: each is a tuple struct of its
//! components in wire order, so other serde formats see a plain sequence of numbers.

/// The component type of Godot's float math types: `f32`, or `f64` with the
/// `double-precision` cargo feature (Godot's `real_t`).
#[cfg(not(feature = "double-precision"))]
pub type Real = f32;
/// The component type of Godot's float math types: `f32`, or `f64` with the
/// `double-precision` cargo feature (Godot's `real_t`).
#[cfg(feature = "double-precision")]
pub type Real = f64;

/// Godot `Vector2` (type id 5 in 3.x and 4.x): `x, y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Vector2 {
    /// X component.
    pub x: Real,
    /// Y component.
    pub y: Real,
}

/// Godot 4 `Vector2i` (type id 6; no Godot 3 equivalent): `x, y` as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Vector2i {
    /// X component.
    pub x: i32,
    /// Y component.
    pub y: i32,
}

/// Godot `Rect2` (4.x id 7, 3.x id 6): position, size.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Rect2 {
    /// Top-left corner.
    pub position: Vector2,
    /// Width and height.
    pub size: Vector2,
}

/// Godot 4 `Rect2i` (type id 8): position, size as `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Rect2i {
    /// Top-left corner.
    pub position: Vector2i,
    /// Width and height.
    pub size: Vector2i,
}

/// Godot `Vector3` (4.x id 9, 3.x id 7): `x, y, z`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Plane {
    /// The plane's normal.
    pub normal: Vector3,
    /// Distance from the origin.
    pub d: Real,
}

/// Godot `Quaternion` (4.x id 15; Godot 3 `Quat`, id 10): `x, y, z, w`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Basis {
    /// The three rows.
    pub rows: [Vector3; 3],
}

/// Godot `Transform3D` (4.x id 18; Godot 3 `Transform`, id 13): the basis rows, then origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Transform3D {
    /// Rotation and scale.
    pub basis: Basis,
    /// Translation.
    pub origin: Vector3,
}

/// Godot 4 `Projection` (type id 19): a 4×4 matrix written column by column.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Projection {
    /// The four columns.
    pub columns: [Vector4; 4],
}

/// Godot `Color` (4.x id 20, 3.x id 14): `r, g, b, a`, always `f32` on the wire, also in
/// double-precision builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
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
