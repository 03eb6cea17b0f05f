//! Packed arrays (Godot 3 `Pool*Array`): typed, contiguous sequences that Godot writes as a
//! count and the elements back to back, with no per-element header.

use super::math::{Color, Vector2, Vector3, Vector4};

macro_rules! packed {
    ($($(#[$doc:meta])* $name:ident($elem:ty);)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name(pub Vec<$elem>);
    )*};
}

packed! {
    /// `PackedByteArray` (4.x id 29; Godot 3 `PoolByteArray`, id 20).
    PackedByteArray(u8);
    /// `PackedInt32Array` (4.x id 30; Godot 3 `PoolIntArray`, id 21).
    PackedInt32Array(i32);
    /// `PackedInt64Array` (4.x id 31; no Godot 3 equivalent).
    PackedInt64Array(i64);
    /// `PackedFloat32Array` (4.x id 32; Godot 3 `PoolRealArray`, id 22).
    PackedFloat32Array(f32);
    /// `PackedFloat64Array` (4.x id 33; no Godot 3 equivalent).
    PackedFloat64Array(f64);
    /// `PackedStringArray` (4.x id 34; Godot 3 `PoolStringArray`, id 23).
    PackedStringArray(String);
    /// `PackedVector2Array` (4.x id 35; Godot 3 `PoolVector2Array`, id 24).
    PackedVector2Array(Vector2);
    /// `PackedVector3Array` (4.x id 36; Godot 3 `PoolVector3Array`, id 25).
    PackedVector3Array(Vector3);
    /// `PackedColorArray` (4.x id 37; Godot 3 `PoolColorArray`, id 26).
    PackedColorArray(Color);
    /// `PackedVector4Array` (Godot 4.3+, id 38).
    PackedVector4Array(Vector4);
}
