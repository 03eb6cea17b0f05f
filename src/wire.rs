//! Wire-level facts with no serde in them: the type-id tables of Godot 3.x and 4.x, header
//! bits and padding. Everything here follows `core/io/marshalls.cpp` (`encode_variant` /
//! `decode_variant`) and `core/variant/variant.h`; see `docs/wire-format.md`.

use crate::config::GodotVersion;

/// Header bits 0–7: the type id (`ENCODE_MASK` / `HEADER_TYPE_MASK`, 0xFF in every version).
pub(crate) const TYPE_MASK: u32 = 0xFF;
/// Header bit 16 for INT / FLOAT / float math types: the payload is 64-bit.
pub(crate) const FLAG_64: u32 = 1 << 16;
/// Header bit 16 for OBJECT: the payload is a `u64` instance id.
pub(crate) const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
/// Shift of the typed-array element kind (4.3+) and typed-dictionary key kind (4.4+).
pub(crate) const TYPED_KEY_SHIFT: u32 = 16;
/// Shift of the typed-dictionary value kind (4.4+).
pub(crate) const TYPED_VALUE_SHIFT: u32 = 18;
/// NodePath first word: bit 31 marks the "new" format, the only one Godot 3 and 4 decode.
pub(crate) const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
/// Array / Dictionary counts: bit 31 is a historical "shared" flag, masked off on decode.
pub(crate) const COUNT_MASK: u32 = 0x7FFF_FFFF;
/// Deepest nesting Godot accepts (`Variant::MAX_RECURSION_DEPTH`).
pub const GODOT_MAX_DEPTH: usize = 1024;
/// Our default nesting limit (as serde_json's): deep enough for any real game data, shallow
/// enough that decoding hostile input into a `Variant` cannot overflow a 2 MiB thread stack
/// even in a debug build, where a typed Array or object property level costs up to 14 KiB of
/// stack (about 170 levels fit; release builds need under 3 KiB a level).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Zero bytes needed after `len` bytes to reach a multiple of four.
#[inline]
pub(crate) const fn padding(len: usize) -> usize {
    (4 - (len % 4)) % 4
}

/// Whether any of the 8 bytes of `w` is zero.
#[inline]
pub(crate) fn zero_byte_in(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    w.wrapping_sub(LO) & !w & HI != 0
}

/// Whether `bytes` contain a NUL, checked a word at a time.
#[inline]
pub(crate) fn has_nul(bytes: &[u8]) -> bool {
    use zero_byte_in as zero_in;
    if let (Some(first), Some(last)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        // Up to two words (most names and keys): the first and the last overlap.
        if bytes.len() <= 16 {
            return zero_in(u64::from_le_bytes(*first)) || zero_in(u64::from_le_bytes(*last));
        }
        let mut chunks = bytes.chunks_exact(8);
        let inner = chunks.by_ref().any(|c| {
            let mut w = [0; 8];
            w.copy_from_slice(c);
            zero_in(u64::from_le_bytes(w))
        });
        // The tail overlaps the last whole word.
        inner || zero_in(u64::from_le_bytes(*last))
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        zero_in(w)
    } else {
        bytes.contains(&0)
    }
}

/// Every Godot Variant type, named as in Godot 4.
///
/// Godot 3 types map onto these: `REAL` is [`Float`](Self::Float), `QUAT` is
/// [`Quaternion`](Self::Quaternion), `TRANSFORM` is [`Transform3D`](Self::Transform3D) and the
/// `Pool*Array` types are the `Packed*Array` types. The discriminant is the Godot 4.3+ type id;
/// use [`VariantType::id`] for the id a given engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)] // the names are Godot's own
pub enum VariantType {
    Nil = 0,
    Bool = 1,
    Int = 2,
    Float = 3,
    String = 4,
    Vector2 = 5,
    Vector2i = 6,
    Rect2 = 7,
    Rect2i = 8,
    Vector3 = 9,
    Vector3i = 10,
    Transform2D = 11,
    Vector4 = 12,
    Vector4i = 13,
    Plane = 14,
    Quaternion = 15,
    Aabb = 16,
    Basis = 17,
    Transform3D = 18,
    Projection = 19,
    Color = 20,
    StringName = 21,
    NodePath = 22,
    Rid = 23,
    Object = 24,
    Callable = 25,
    Signal = 26,
    Dictionary = 27,
    Array = 28,
    PackedByteArray = 29,
    PackedInt32Array = 30,
    PackedInt64Array = 31,
    PackedFloat32Array = 32,
    PackedFloat64Array = 33,
    PackedStringArray = 34,
    PackedVector2Array = 35,
    PackedVector3Array = 36,
    PackedColorArray = 37,
    PackedVector4Array = 38,
}

/// Godot 3.x type ids, indexed by id (`Variant::Type` in 3.0–3.6, `VARIANT_MAX` = 27).
const GODOT3_IDS: [VariantType; 27] = [
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Rect2,
    VariantType::Vector3,
    VariantType::Transform2D,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Transform3D,
    VariantType::Color,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::Object,
    VariantType::Dictionary,
    VariantType::Array,
    VariantType::PackedByteArray,
    VariantType::PackedInt32Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedColorArray,
];

/// Godot 4.x type ids, indexed by id (4.3+; 4.0–4.2 stop before `PackedVector4Array`).
const GODOT4_IDS: [VariantType; 39] = [
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Vector2i,
    VariantType::Rect2,
    VariantType::Rect2i,
    VariantType::Vector3,
    VariantType::Vector3i,
    VariantType::Transform2D,
    VariantType::Vector4,
    VariantType::Vector4i,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Transform3D,
    VariantType::Projection,
    VariantType::Color,
    VariantType::StringName,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::Object,
    VariantType::Callable,
    VariantType::Signal,
    VariantType::Dictionary,
    VariantType::Array,
    VariantType::PackedByteArray,
    VariantType::PackedInt32Array,
    VariantType::PackedInt64Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedFloat64Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedColorArray,
    VariantType::PackedVector4Array,
];

impl VariantType {
    /// Number of type ids a version's decoder accepts (`Variant::VARIANT_MAX`).
    #[must_use]
    pub const fn variant_max(version: GodotVersion) -> u32 {
        match version {
            GodotVersion::V3 => 27,
            GodotVersion::V4_0 => 38,
            GodotVersion::V4_3 | GodotVersion::V4_4 => 39,
        }
    }

    /// The type for a header's type id in `version`, or `None` if that engine has no such id.
    #[must_use]
    pub fn from_id(id: u32, version: GodotVersion) -> Option<Self> {
        Self::id_table(version).get(id as usize).copied()
    }

    /// The types `version` decodes, indexed by type id (exactly
    /// [`variant_max`](Self::variant_max) of them).
    pub(crate) fn id_table(version: GodotVersion) -> &'static [VariantType] {
        let table: &'static [VariantType] = match version {
            GodotVersion::V3 => &GODOT3_IDS,
            _ => &GODOT4_IDS,
        };
        table
            .get(..Self::variant_max(version) as usize)
            .unwrap_or(table)
    }

    /// The type id `version` writes for this type, or `None` if that engine has no such type
    /// (e.g. `Vector2i` in Godot 3, `PackedVector4Array` before 4.3).
    #[must_use]
    pub fn id(self, version: GodotVersion) -> Option<u8> {
        match version {
            GodotVersion::V3 => GODOT3_IDS
                .iter()
                .position(|&t| t == self)
                .and_then(|i| u8::try_from(i).ok()),
            GodotVersion::V4_0 if self == VariantType::PackedVector4Array => None,
            _ => Some(self as u8),
        }
    }

    /// The type's name as Godot 4 spells it (`"Vector2"`, `"PackedVector3Array"`, `"int"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            VariantType::Nil => "Nil",
            VariantType::Bool => "bool",
            VariantType::Int => "int",
            VariantType::Float => "float",
            VariantType::String => "String",
            VariantType::Vector2 => "Vector2",
            VariantType::Vector2i => "Vector2i",
            VariantType::Rect2 => "Rect2",
            VariantType::Rect2i => "Rect2i",
            VariantType::Vector3 => "Vector3",
            VariantType::Vector3i => "Vector3i",
            VariantType::Transform2D => "Transform2D",
            VariantType::Vector4 => "Vector4",
            VariantType::Vector4i => "Vector4i",
            VariantType::Plane => "Plane",
            VariantType::Quaternion => "Quaternion",
            VariantType::Aabb => "AABB",
            VariantType::Basis => "Basis",
            VariantType::Transform3D => "Transform3D",
            VariantType::Projection => "Projection",
            VariantType::Color => "Color",
            VariantType::StringName => "StringName",
            VariantType::NodePath => "NodePath",
            VariantType::Rid => "RID",
            VariantType::Object => "Object",
            VariantType::Callable => "Callable",
            VariantType::Signal => "Signal",
            VariantType::Dictionary => "Dictionary",
            VariantType::Array => "Array",
            VariantType::PackedByteArray => "PackedByteArray",
            VariantType::PackedInt32Array => "PackedInt32Array",
            VariantType::PackedInt64Array => "PackedInt64Array",
            VariantType::PackedFloat32Array => "PackedFloat32Array",
            VariantType::PackedFloat64Array => "PackedFloat64Array",
            VariantType::PackedStringArray => "PackedStringArray",
            VariantType::PackedVector2Array => "PackedVector2Array",
            VariantType::PackedVector3Array => "PackedVector3Array",
            VariantType::PackedColorArray => "PackedColorArray",
            VariantType::PackedVector4Array => "PackedVector4Array",
        }
    }

    /// The type's name as `version` spells it (Godot 3: `"real"`, `"Quat"`, `"Transform"`,
    /// `"PoolVector3Array"`, ...).
    #[must_use]
    pub const fn name_in(self, version: GodotVersion) -> &'static str {
        if !matches!(version, GodotVersion::V3) {
            return self.name();
        }
        match self {
            VariantType::Float => "real",
            VariantType::Quaternion => "Quat",
            VariantType::Transform3D => "Transform",
            VariantType::PackedByteArray => "PoolByteArray",
            VariantType::PackedInt32Array => "PoolIntArray",
            VariantType::PackedFloat32Array => "PoolRealArray",
            VariantType::PackedStringArray => "PoolStringArray",
            VariantType::PackedVector2Array => "PoolVector2Array",
            VariantType::PackedVector3Array => "PoolVector3Array",
            VariantType::PackedColorArray => "PoolColorArray",
            other => other.name(),
        }
    }

    /// Math types (spec §4.6–4.8): how many numbers follow the header, and of which kind,
    /// in wire order. `None` for every other type.
    pub(crate) const fn components(self) -> Option<(u8, Scalar)> {
        Some(match self {
            VariantType::Vector2 => (2, Scalar::Real),
            VariantType::Vector2i => (2, Scalar::I32),
            VariantType::Rect2 | VariantType::Vector4 => (4, Scalar::Real),
            VariantType::Plane | VariantType::Quaternion => (4, Scalar::Real),
            VariantType::Rect2i | VariantType::Vector4i => (4, Scalar::I32),
            VariantType::Vector3 => (3, Scalar::Real),
            VariantType::Vector3i => (3, Scalar::I32),
            VariantType::Transform2D | VariantType::Aabb => (6, Scalar::Real),
            VariantType::Basis => (9, Scalar::Real),
            VariantType::Transform3D => (12, Scalar::Real),
            VariantType::Projection => (16, Scalar::Real),
            VariantType::Color => (4, Scalar::F32),
            _ => return None,
        })
    }

    /// Numeric packed arrays (spec §4.17–4.18): numbers per element and their kind. `None`
    /// for every other type, PackedStringArray included.
    pub(crate) const fn packed_element(self) -> Option<(u8, Scalar)> {
        Some(match self {
            VariantType::PackedByteArray => (1, Scalar::Byte),
            VariantType::PackedInt32Array => (1, Scalar::I32),
            VariantType::PackedInt64Array => (1, Scalar::I64),
            VariantType::PackedFloat32Array => (1, Scalar::F32),
            VariantType::PackedFloat64Array => (1, Scalar::F64),
            VariantType::PackedVector2Array => (2, Scalar::Real),
            VariantType::PackedVector3Array => (3, Scalar::Real),
            VariantType::PackedVector4Array => (4, Scalar::Real),
            VariantType::PackedColorArray => (4, Scalar::F32),
            _ => return None,
        })
    }

    /// Whether header bit 16 means "components are f64" for this type in Godot 4: its
    /// numbers are `real_t`.
    pub(crate) const fn has_real_components(self) -> bool {
        matches!(self.components(), Some((_, Scalar::Real)))
            || matches!(self.packed_element(), Some((_, Scalar::Real)))
    }

    /// Every type, in Godot 4 id order.
    pub const ALL: [VariantType; 39] = GODOT4_IDS;
}

/// The kind of one number in a math type or packed-array element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Byte,
    I32,
    I64,
    F32,
    F64,
    /// `real_t`: f32, or f64 in a double-precision layout (header bit 16, Godot 4).
    Real,
}

impl Scalar {
    /// Bytes on the wire; `wide` is the header's 64-bit flag for `Real`.
    pub(crate) const fn size(self, wide: bool) -> usize {
        match self {
            Scalar::Byte => 1,
            Scalar::I32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::F64 => 8,
            Scalar::Real if wide => 8,
            Scalar::Real => 4,
        }
    }
}

impl core::fmt::Display for VariantType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_for_every_version() {
        for version in [
            GodotVersion::V3,
            GodotVersion::V4_0,
            GodotVersion::V4_3,
            GodotVersion::V4_4,
        ] {
            for id in 0..VariantType::variant_max(version) {
                let t = VariantType::from_id(id, version).expect("id in range");
                assert_eq!(t.id(version), Some(id as u8), "{t:?} in {version:?}");
            }
            assert_eq!(
                VariantType::from_id(VariantType::variant_max(version), version),
                None
            );
        }
    }

    #[test]
    fn ids_that_differ_between_engines() {
        // Spec §3: Vector3 is 7 in 3.x and 9 in 4.x; Color 14 vs 20; Array 19 vs 28.
        assert_eq!(VariantType::Vector3.id(GodotVersion::V3), Some(7));
        assert_eq!(VariantType::Vector3.id(GodotVersion::V4_4), Some(9));
        assert_eq!(VariantType::Color.id(GodotVersion::V3), Some(14));
        assert_eq!(VariantType::Color.id(GodotVersion::V4_0), Some(20));
        assert_eq!(VariantType::Array.id(GodotVersion::V3), Some(19));
        assert_eq!(VariantType::PackedColorArray.id(GodotVersion::V3), Some(26));
        assert_eq!(VariantType::Vector2i.id(GodotVersion::V3), None);
        assert_eq!(VariantType::PackedVector4Array.id(GodotVersion::V4_0), None);
        assert_eq!(
            VariantType::PackedVector4Array.id(GodotVersion::V4_3),
            Some(38)
        );
    }

    #[test]
    fn numeric_shapes_match_the_spec() {
        // Spec §2: the types whose header bit 16 means f64 components in Godot 4.
        let flagged: Vec<VariantType> = VariantType::ALL
            .into_iter()
            .filter(|t| t.has_real_components())
            .collect();
        use VariantType as T;
        assert_eq!(
            flagged,
            [
                T::Vector2,
                T::Rect2,
                T::Vector3,
                T::Transform2D,
                T::Vector4,
                T::Plane,
                T::Quaternion,
                T::Aabb,
                T::Basis,
                T::Transform3D,
                T::Projection,
                T::PackedVector2Array,
                T::PackedVector3Array,
                T::PackedVector4Array,
            ]
        );
        // Spec §4.6-4.8: component counts.
        let counts = [
            (T::Vector2, 2),
            (T::Rect2, 4),
            (T::Vector3, 3),
            (T::Transform2D, 6),
            (T::Vector4, 4),
            (T::Plane, 4),
            (T::Quaternion, 4),
            (T::Aabb, 6),
            (T::Basis, 9),
            (T::Transform3D, 12),
            (T::Projection, 16),
            (T::Color, 4),
            (T::Vector2i, 2),
            (T::Rect2i, 4),
            (T::Vector3i, 3),
            (T::Vector4i, 4),
        ];
        for (t, n) in counts {
            assert_eq!(t.components().map(|c| c.0), Some(n), "{t:?}");
        }
        // Spec §4.17-4.18: element sizes, single and double precision.
        let sizes = [
            (T::PackedByteArray, 1, 1),
            (T::PackedInt32Array, 4, 4),
            (T::PackedInt64Array, 8, 8),
            (T::PackedFloat32Array, 4, 4),
            (T::PackedFloat64Array, 8, 8),
            (T::PackedVector2Array, 8, 16),
            (T::PackedVector3Array, 12, 24),
            (T::PackedVector4Array, 16, 32),
            (T::PackedColorArray, 16, 16),
        ];
        for (t, single, double) in sizes {
            let (n, s) = t.packed_element().expect("packed");
            assert_eq!(
                (
                    usize::from(n) * s.size(false),
                    usize::from(n) * s.size(true)
                ),
                (single, double),
                "{t:?}"
            );
        }
        assert_eq!(T::PackedStringArray.packed_element(), None);
    }

    #[test]
    fn padding_to_four() {
        assert_eq!([0, 1, 2, 3, 4, 5].map(padding), [0, 3, 2, 1, 0, 3]);
    }
}
