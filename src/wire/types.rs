//! The one table of Godot Variant types ([`TYPES`]): one row per type with its names in
//! Godot 4 and Godot 3, its Godot 3 id (the Godot 4 id is the row's index), the first 4.x
//! layout that has it, its payload shape and its marker names. The id tables, the names, the
//! marker lookup and the math / packed shapes all derive from it. "Spec §N" below is a
//! section of `docs/wire-format.md`.

use crate::config::GodotVersion;

/// Every Godot Variant type, named as in Godot 4.
///
/// Godot 3 types map onto these: `REAL` is [`Float`](Self::Float), `QUAT` is
/// [`Quaternion`](Self::Quaternion), `TRANSFORM` is [`Transform3D`](Self::Transform3D) and the
/// `Pool*Array` types are the `Packed*Array` types. The discriminant is the Godot 4.3+ type id;
/// use [`VariantType::id`] for the id a given engine uses. Godot adds types now and then, so
/// a `match` on this enum needs a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[non_exhaustive]
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

/// The kind of one number in a math type or packed-array element: the one component-kind
/// enum of the crate (the type table below names each type's kind; readers and writers
/// resolve `Real` with [`Scalar::on_wire`]).
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

impl Scalar {
    /// The kind written for this one once the header's 64-bit flag is known: `Real` becomes
    /// `F64` when `wide` (4.x `real_t` components, see [`Header::wide`](super::Header::wide)),
    /// else `F32`; every other kind is itself. The result is never `Real`.
    #[inline]
    pub(crate) const fn on_wire(self, wide: bool) -> Scalar {
        match self {
            Scalar::Real if wide => Scalar::F64,
            Scalar::Real => Scalar::F32,
            other => other,
        }
    }
}

/// What follows a type's header (spec §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Nothing (Nil, Callable).
    Empty,
    /// A `u32`, non-zero is true.
    Bool,
    /// `i32`, or `i64` with the 64-bit flag.
    Int,
    /// `f32`, or `f64` with the 64-bit flag.
    Float,
    /// A String field (String, StringName).
    Str,
    /// `n` numbers of one kind (math types, Color; spec §4.6-4.8).
    Components(u8, Scalar),
    /// Spec §4.11.
    NodePath,
    /// A `u64` id where the version has one (spec §4.10).
    Rid,
    /// Spec §4.13.
    Object,
    /// A String field and a `u64` object id (spec §4.14).
    Signal,
    /// Descriptors (4.4+), count, pairs (spec §4.15).
    Dictionary,
    /// Descriptor (4.3+), count, elements (spec §4.16).
    Array,
    /// Count, then elements of `n` numbers of one kind (spec §4.17-4.18).
    Packed(u8, Scalar),
    /// Count, then String fields whose length counts a NUL (spec §4.19).
    PackedStrings,
}

/// One Godot type: everything the codec knows about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TypeRow {
    pub ty: VariantType,
    /// Godot 4 name (`"Vector2"`, `"int"`, `"AABB"`).
    pub name: &'static str,
    /// Godot 3 id and name (`REAL` is `"real"`, `QUAT` `"Quat"`), if 3.x has the type.
    pub godot3: Option<(u8, &'static str)>,
    /// The first 4.x layout with this type.
    pub since: GodotVersion,
    pub shape: Shape,
    /// Component names in wire order (math types and packed vector elements).
    pub fields: &'static [&'static str],
    /// The serde marker name of a value of this type (`None`: plain serde data).
    pub marker: Option<&'static str>,
    /// A second marker for the same wire type: f64 packed vectors (`...64`), an object sent as
    /// an id (`ObjectId`), typed Array / Dictionary.
    pub alt_marker: Option<&'static str>,
    /// How the text form (`var_to_str` / `str_to_var`) spells a value of this type.
    pub text: Text,
    /// Older constructor names the text parsers also accept (Godot 2 names such as
    /// `Matrix32`, and Godot 4's interim `PackedIntArray`), besides the type's Godot 4 name
    /// and Godot 3 name (`Quat`, `PoolIntArray`), which Godot 4's parser also takes.
    pub aliases: &'static [Alias],
}

/// How the text form spells a value of a type (`core/variant/variant_parser.cpp`,
/// `VariantWriter::write` and `VariantParser::parse_value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Text {
    /// A literal, no constructor: `null`, `true`, `1`, `1.5`, `"s"`, `&"s"`, `[..]`, `{..}`.
    Literal,
    /// A constructor `Name(...)` under the engine's name for the type
    /// ([`VariantType::name_in`]), in both engines' text where the engine has the type.
    Ctor,
    /// A constructor in Godot 4's text only (typed `Array[int]([...])`,
    /// `Dictionary[String, int]({...})`); Godot 3 writes these as literals.
    Ctor4,
}

/// An older constructor name a text parser accepts (see [`TypeRow::aliases`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alias {
    pub name: &'static str,
    /// Godot 3's parser accepts it too (Godot 4's accepts every alias).
    pub godot3: bool,
}

/// An alias both engines' parsers accept.
const fn old(name: &'static str) -> Alias {
    Alias { name, godot3: true }
}

/// An alias only Godot 4's parser accepts.
const fn old4(name: &'static str) -> Alias {
    Alias {
        name,
        godot3: false,
    }
}

/// Marker names are this prefix and a name (`$godot_serde::Vector2`).
pub(crate) const MARKER_PREFIX: &str = "$godot_serde::";

/// The one reserved-key rule, used by every path (byte decoder, direct `Variant` reader,
/// `Variant` deserializer, `to_variant`): a Dictionary key or property name is reserved when
/// it starts with [`MARKER_PREFIX`], a marker name or not, so a name added later is covered
/// and every path refuses the same keys. Self-describing visitors take a map whose first key
/// is a marker name as that Godot type, and serde's buffering can move any key first.
#[inline]
pub(crate) fn is_reserved_key(key: &str) -> bool {
    key.starts_with(MARKER_PREFIX)
}

macro_rules! m {
    ($name:literal) => {
        Some(concat!("$godot_serde::", $name))
    };
}

const XY: &[&str] = &["x", "y"];
const XYZ: &[&str] = &["x", "y", "z"];
const XYZW: &[&str] = &["x", "y", "z", "w"];
const RECT: &[&str] = &["position.x", "position.y", "size.x", "size.y"];
const TRANSFORM2D: &[&str] = &["x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"];
const PLANE: &[&str] = &["normal.x", "normal.y", "normal.z", "d"];
#[rustfmt::skip]
const AABB: &[&str] = &["position.x", "position.y", "position.z", "size.x", "size.y", "size.z"];
const BASIS: &[&str] = &[
    "row0.x", "row0.y", "row0.z", "row1.x", "row1.y", "row1.z", "row2.x", "row2.y", "row2.z",
];
#[rustfmt::skip]
const TRANSFORM3D: &[&str] = &[
    "basis.row0.x", "basis.row0.y", "basis.row0.z", "basis.row1.x", "basis.row1.y", "basis.row1.z",
    "basis.row2.x", "basis.row2.y", "basis.row2.z", "origin.x", "origin.y", "origin.z",
];
const PROJECTION: &[&str] = &[
    "col0.x", "col0.y", "col0.z", "col0.w", "col1.x", "col1.y", "col1.z", "col1.w", "col2.x",
    "col2.y", "col2.z", "col2.w", "col3.x", "col3.y", "col3.z", "col3.w",
];
const RGBA: &[&str] = &["r", "g", "b", "a"];

/// One row of [`TYPES`].
#[allow(clippy::too_many_arguments)] // one per column of the table
const fn row(
    ty: VariantType,
    name: &'static str,
    godot3: Option<(u8, &'static str)>,
    since: GodotVersion,
    shape: Shape,
    fields: &'static [&'static str],
    marker: Option<&'static str>,
    alt_marker: Option<&'static str>,
    text: Text,
    aliases: &'static [Alias],
) -> TypeRow {
    TypeRow {
        ty,
        name,
        godot3,
        since,
        shape,
        fields,
        marker,
        alt_marker,
        text,
        aliases,
    }
}

use GodotVersion::{V4_0, V4_3};
use Scalar::{Byte, F32, F64, I32, I64, Real};
use Shape::{Components as C, Packed as P};
use Text::{Ctor, Ctor4, Literal as Lit};
use VariantType as T;

/// Every Godot type, in Godot 4 id order (spec §3: tables 3.1 and 3.2, payloads §4).
/// Columns: type, Godot 4 name, Godot 3 id and name, first 4.x layout, payload shape,
/// component names, marker, second marker, text form, older text names.
#[rustfmt::skip]
pub(crate) const TYPES: [TypeRow; 39] = [
    row(T::Nil,                "Nil",                Some((0, "Nil")),               V4_0, Shape::Empty,         &[],         None,                     None,                       Lit,   &[]),
    row(T::Bool,               "bool",               Some((1, "bool")),              V4_0, Shape::Bool,          &[],         None,                     None,                       Lit,   &[]),
    row(T::Int,                "int",                Some((2, "int")),               V4_0, Shape::Int,           &[],         None,                     None,                       Lit,   &[]),
    row(T::Float,              "float",              Some((3, "real")),              V4_0, Shape::Float,         &[],         None,                     None,                       Lit,   &[]),
    row(T::String,             "String",             Some((4, "String")),            V4_0, Shape::Str,           &[],         None,                     None,                       Lit,   &[]),
    row(T::Vector2,            "Vector2",            Some((5, "Vector2")),           V4_0, C(2, Real),           XY,          m!("Vector2"),            None,                       Ctor,  &[]),
    row(T::Vector2i,           "Vector2i",           None,                           V4_0, C(2, I32),            XY,          m!("Vector2i"),           None,                       Ctor,  &[]),
    row(T::Rect2,              "Rect2",              Some((6, "Rect2")),             V4_0, C(4, Real),           RECT,        m!("Rect2"),              None,                       Ctor,  &[]),
    row(T::Rect2i,             "Rect2i",             None,                           V4_0, C(4, I32),            RECT,        m!("Rect2i"),             None,                       Ctor,  &[]),
    row(T::Vector3,            "Vector3",            Some((7, "Vector3")),           V4_0, C(3, Real),           XYZ,         m!("Vector3"),            None,                       Ctor,  &[]),
    row(T::Vector3i,           "Vector3i",           None,                           V4_0, C(3, I32),            XYZ,         m!("Vector3i"),           None,                       Ctor,  &[]),
    row(T::Transform2D,        "Transform2D",        Some((8, "Transform2D")),       V4_0, C(6, Real),           TRANSFORM2D, m!("Transform2D"),        None,                       Ctor,  &[old("Matrix32")]),
    row(T::Vector4,            "Vector4",            None,                           V4_0, C(4, Real),           XYZW,        m!("Vector4"),            None,                       Ctor,  &[]),
    row(T::Vector4i,           "Vector4i",           None,                           V4_0, C(4, I32),            XYZW,        m!("Vector4i"),           None,                       Ctor,  &[]),
    row(T::Plane,              "Plane",              Some((9, "Plane")),             V4_0, C(4, Real),           PLANE,       m!("Plane"),              None,                       Ctor,  &[]),
    row(T::Quaternion,         "Quaternion",         Some((10, "Quat")),             V4_0, C(4, Real),           XYZW,        m!("Quaternion"),         None,                       Ctor,  &[]),
    row(T::Aabb,               "AABB",               Some((11, "AABB")),             V4_0, C(6, Real),           AABB,        m!("AABB"),               None,                       Ctor,  &[old("Rect3")]),
    row(T::Basis,              "Basis",              Some((12, "Basis")),            V4_0, C(9, Real),           BASIS,       m!("Basis"),              None,                       Ctor,  &[old("Matrix3")]),
    row(T::Transform3D,        "Transform3D",        Some((13, "Transform")),        V4_0, C(12, Real),          TRANSFORM3D, m!("Transform3D"),        None,                       Ctor,  &[]),
    row(T::Projection,         "Projection",         None,                           V4_0, C(16, Real),          PROJECTION,  m!("Projection"),         None,                       Ctor,  &[]),
    row(T::Color,              "Color",              Some((14, "Color")),            V4_0, C(4, F32),            RGBA,        m!("Color"),              None,                       Ctor,  &[]),
    row(T::StringName,         "StringName",         None,                           V4_0, Shape::Str,           &[],         m!("StringName"),         None,                       Lit,   &[]),
    row(T::NodePath,           "NodePath",           Some((15, "NodePath")),         V4_0, Shape::NodePath,      &[],         m!("NodePath"),           None,                       Ctor,  &[]),
    row(T::Rid,                "RID",                Some((16, "RID")),              V4_0, Shape::Rid,           &[],         m!("RID"),                None,                       Ctor,  &[]),
    row(T::Object,             "Object",             Some((17, "Object")),           V4_0, Shape::Object,        &[],         m!("Object"),             m!("ObjectId"),             Ctor,  &[]),
    row(T::Callable,           "Callable",           None,                           V4_0, Shape::Empty,         &[],         m!("Callable"),           None,                       Ctor,  &[]),
    row(T::Signal,             "Signal",             None,                           V4_0, Shape::Signal,        &[],         m!("Signal"),             None,                       Ctor,  &[]),
    row(T::Dictionary,         "Dictionary",         Some((18, "Dictionary")),       V4_0, Shape::Dictionary,    &[],         None,                     m!("TypedDictionary"),      Ctor4, &[]),
    row(T::Array,              "Array",              Some((19, "Array")),            V4_0, Shape::Array,         &[],         None,                     m!("TypedArray"),           Ctor4, &[]),
    row(T::PackedByteArray,    "PackedByteArray",    Some((20, "PoolByteArray")),    V4_0, P(1, Byte),           &[],         m!("PackedByteArray"),    None,                       Ctor,  &[old("ByteArray")]),
    row(T::PackedInt32Array,   "PackedInt32Array",   Some((21, "PoolIntArray")),     V4_0, P(1, I32),            &[],         m!("PackedInt32Array"),   None,                       Ctor,  &[old4("PackedIntArray"), old("IntArray")]),
    row(T::PackedInt64Array,   "PackedInt64Array",   None,                           V4_0, P(1, I64),            &[],         m!("PackedInt64Array"),   None,                       Ctor,  &[]),
    row(T::PackedFloat32Array, "PackedFloat32Array", Some((22, "PoolRealArray")),    V4_0, P(1, F32),            &[],         m!("PackedFloat32Array"), None,                       Ctor,  &[old4("PackedRealArray"), old("FloatArray")]),
    row(T::PackedFloat64Array, "PackedFloat64Array", None,                           V4_0, P(1, F64),            &[],         m!("PackedFloat64Array"), None,                       Ctor,  &[]),
    row(T::PackedStringArray,  "PackedStringArray",  Some((23, "PoolStringArray")),  V4_0, Shape::PackedStrings, &[],         m!("PackedStringArray"),  None,                       Ctor,  &[old("StringArray")]),
    row(T::PackedVector2Array, "PackedVector2Array", Some((24, "PoolVector2Array")), V4_0, P(2, Real),           XY,          m!("PackedVector2Array"), m!("PackedVector2Array64"), Ctor,  &[old("Vector2Array")]),
    row(T::PackedVector3Array, "PackedVector3Array", Some((25, "PoolVector3Array")), V4_0, P(3, Real),           XYZ,         m!("PackedVector3Array"), m!("PackedVector3Array64"), Ctor,  &[old("Vector3Array")]),
    row(T::PackedColorArray,   "PackedColorArray",   Some((26, "PoolColorArray")),   V4_0, P(4, F32),            RGBA,        m!("PackedColorArray"),   None,                       Ctor,  &[old("ColorArray")]),
    row(T::PackedVector4Array, "PackedVector4Array", None,                           V4_3, P(4, Real),           XYZW,        m!("PackedVector4Array"), m!("PackedVector4Array64"), Ctor,  &[old4("PoolVector4Array"), old4("Vector4Array")]),
];

/// Godot 3 `VARIANT_MAX` (spec §3.1).
const GODOT3_COUNT: usize = 27;

/// The rows are in discriminant order (so `TYPES[ty as usize]` is `ty`'s row) and the
/// Godot 3 ids are exactly `0..27`, each once: checked at compile time.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const _: () = {
    let mut seen = [false; GODOT3_COUNT];
    let mut i = 0;
    while i < TYPES.len() {
        assert!(TYPES[i].ty as usize == i, "TYPES out of discriminant order");
        if let Some((id, _)) = TYPES[i].godot3 {
            assert!(!seen[id as usize], "Godot 3 id used twice");
            seen[id as usize] = true;
        }
        i += 1;
    }
    let mut id = 0;
    while id < GODOT3_COUNT {
        assert!(seen[id], "Godot 3 id missing");
        id += 1;
    }
};

/// Number of 4.x types up to and including those `version` added. Types are only ever
/// added at the end of the 4.x enum, so the first `n` rows are exactly that version's types:
/// checked at compile time.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const fn count_since(version: GodotVersion) -> u32 {
    let mut n = 0;
    while n < TYPES.len() && TYPES[n].since as u8 <= version as u8 {
        n += 1;
    }
    let mut rest = n;
    while rest < TYPES.len() {
        assert!(
            TYPES[rest].since as u8 > version as u8,
            "4.x types out of order"
        );
        rest += 1;
    }
    n as u32
}

/// `VARIANT_MAX` in 4.0-4.2 (spec §3.2).
const GODOT4_0_COUNT: u32 = count_since(GodotVersion::V4_0);
/// `VARIANT_MAX` in 4.3+ (spec §3.2).
const GODOT4_3_COUNT: u32 = count_since(GodotVersion::V4_4);

/// The leading types whose id is the same in every engine (Nil to Vector2, spec §3.2).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const SHARED_IDS: u8 = {
    let mut n = 0;
    while n < TYPES.len() && matches!(TYPES[n].godot3, Some((id, _)) if id as usize == n) {
        n += 1;
    }
    n as u8
};

/// Godot 3.x type ids, indexed by id (`Variant::Type` in 3.0–3.6).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const GODOT3_IDS: [VariantType; GODOT3_COUNT] = {
    let mut ids = [VariantType::Nil; GODOT3_COUNT];
    let mut i = 0;
    while i < TYPES.len() {
        if let Some((id, _)) = TYPES[i].godot3 {
            ids[id as usize] = TYPES[i].ty;
        }
        i += 1;
    }
    ids
};

impl VariantType {
    /// Every type, in Godot 4 id order.
    #[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
    pub const ALL: [VariantType; 39] = {
        let mut all = [VariantType::Nil; 39];
        let mut i = 0;
        while i < TYPES.len() {
            all[i] = TYPES[i].ty;
            i += 1;
        }
        all
    };

    /// This type's row of [`TYPES`].
    #[inline]
    #[allow(clippy::indexing_slicing)] // one row per discriminant, checked at compile time
    pub(crate) const fn row(self) -> &'static TypeRow {
        &TYPES[self as usize]
    }

    /// Number of type ids a version's decoder accepts (`Variant::VARIANT_MAX`).
    #[must_use]
    #[inline]
    pub const fn variant_max(version: GodotVersion) -> u32 {
        match version {
            GodotVersion::V3 => GODOT3_COUNT as u32,
            GodotVersion::V4_0 => GODOT4_0_COUNT,
            GodotVersion::V4_3 | GodotVersion::V4_4 | GodotVersion::V4_5 => GODOT4_3_COUNT,
        }
    }

    /// The type for a header's type id in `version`, or `None` if that engine has no such id.
    #[must_use]
    #[inline]
    pub fn from_id(id: u32, version: GodotVersion) -> Option<Self> {
        Self::id_table(version).get(id as usize).copied()
    }

    /// The types `version` decodes, indexed by type id (exactly
    /// [`variant_max`](Self::variant_max) of them).
    pub(crate) fn id_table(version: GodotVersion) -> &'static [VariantType] {
        match version {
            GodotVersion::V3 => &GODOT3_IDS,
            _ => Self::ALL
                .get(..Self::variant_max(version) as usize)
                .unwrap_or(&Self::ALL),
        }
    }

    /// The type id `version` writes for this type, or `None` if that engine has no such type
    /// (e.g. `Vector2i` in Godot 3, `PackedVector4Array` before 4.3).
    #[must_use]
    #[inline]
    pub const fn id(self, version: GodotVersion) -> Option<u8> {
        if (self as u8) < SHARED_IDS {
            return Some(self as u8);
        }
        let row = self.row();
        match version {
            GodotVersion::V3 => match row.godot3 {
                Some((id, _)) => Some(id),
                None => None,
            },
            // 4.x types are only ever added at the end of the enum.
            _ if (self as u32) < Self::variant_max(version) => Some(self as u8),
            _ => None,
        }
    }

    /// The type's name as Godot 4 spells it (`"Vector2"`, `"PackedVector3Array"`, `"int"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// The type's name as `version` spells it (Godot 3: `"real"`, `"Quat"`, `"Transform"`,
    /// `"PoolVector3Array"`, ...).
    #[must_use]
    pub const fn name_in(self, version: GodotVersion) -> &'static str {
        match (version, self.row().godot3) {
            (GodotVersion::V3, Some((_, name))) => name,
            _ => self.name(),
        }
    }

    /// The constructor name the text form writes for this type in Godot 3 (`godot3`) or
    /// Godot 4 text (`Vector2`, `Quat` / `Quaternion`, `PoolIntArray` / `PackedInt32Array`),
    /// or `None` when that engine's text has no constructor for it (a literal, or a type the
    /// engine lacks).
    #[must_use]
    pub(crate) const fn text_name(self, godot3: bool) -> Option<&'static str> {
        let row = self.row();
        match (row.text, godot3, row.godot3) {
            (Text::Literal, _, _)
            | (Text::Ctor4 | Text::Ctor, true, None)
            | (Text::Ctor4, true, _) => None,
            (_, true, Some((_, name))) => Some(name),
            (_, false, _) => Some(row.name),
        }
    }

    /// The type whose constructor the text parser of Godot 3 (`godot3`) or Godot 4 reads
    /// under `name`: its [`text_name`](Self::text_name) in that engine, an
    /// [alias](TypeRow::aliases) that engine accepts, and in Godot 4 also the Godot 3 name.
    pub(crate) fn from_text_name(name: &str, godot3: bool) -> Option<Self> {
        TYPES.iter().find_map(|row| {
            let own = row.ty.text_name(godot3)?;
            let g3_name = match row.godot3 {
                Some((_, g3)) if !godot3 => g3,
                _ => own,
            };
            let alias = || {
                row.aliases
                    .iter()
                    .any(|a| a.name == name && (a.godot3 || !godot3))
            };
            (own == name || g3_name == name || alias()).then_some(row.ty)
        })
    }

    /// The payload shape (spec §4).
    pub(crate) const fn shape(self) -> Shape {
        self.row().shape
    }

    /// Math types (spec §4.6–4.8): how many numbers follow the header, and of which kind,
    /// in wire order. `None` for every other type.
    pub(crate) const fn components(self) -> Option<(u8, Scalar)> {
        match self.shape() {
            Shape::Components(n, scalar) => Some((n, scalar)),
            _ => None,
        }
    }

    /// Numeric packed arrays (spec §4.17–4.18): numbers per element and their kind. `None`
    /// for every other type, PackedStringArray included.
    pub(crate) const fn packed_element(self) -> Option<(u8, Scalar)> {
        match self.shape() {
            Shape::Packed(n, scalar) => Some((n, scalar)),
            _ => None,
        }
    }

    /// Whether header bit 16 means "components are f64" for this type in Godot 4: its
    /// numbers are `real_t`.
    pub(crate) const fn has_real_components(self) -> bool {
        matches!(
            self.shape(),
            Shape::Components(_, Scalar::Real) | Shape::Packed(_, Scalar::Real)
        )
    }
}

impl core::fmt::Display for VariantType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
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

/// The plain marker name of `ty` (`""` for a type without one), for constants.
pub(crate) const fn marker_of(ty: VariantType) -> &'static str {
    match ty.row().marker {
        Some(name) => name,
        None => "",
    }
}

/// The second marker name of `ty` (see [`TypeRow::alt_marker`]; `""` if none), for constants.
pub(crate) const fn alt_marker_of(ty: VariantType) -> &'static str {
    match ty.row().alt_marker {
        Some(name) => name,
        None => "",
    }
}

/// The marker name our deserializer uses as the map key for a value of type `ty` (untyped
/// containers, objects and scalars have none). `wide`: the header's 64-bit flag was set.
pub(crate) fn marker_name(ty: VariantType, wide: bool) -> Option<&'static str> {
    let row = ty.row();
    match row.shape {
        Shape::Object => None,
        Shape::Packed(_, Scalar::Real) if wide => row.alt_marker,
        _ => row.marker,
    }
}

/// A hash of a marker name from its length and four of its last eight bytes, which tell
/// every marker name apart (checked when [`MARKER_SLOTS`] is built; a new name that collides
/// fails the build). Cheap at run time, and folded away for a constant name.
#[inline]
#[allow(clippy::indexing_slicing)] // `n >= 8`
const fn marker_hash(name: &[u8]) -> usize {
    let n = name.len();
    if n < 8 {
        return 0;
    }
    let sum =
        name[n - 1] as usize + name[n - 2] as usize + name[n - 6] as usize + name[n - 8] as usize;
    (n + 5 * sum) & 127
}

/// Marker hash slot → row index + 1 (0: no marker), with bit 7 set for the row's
/// [`alt_marker`](TypeRow::alt_marker).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const MARKER_SLOTS: [u8; 128] = {
    let mut slots = [0u8; 128];
    let mut i = 0;
    while i < TYPES.len() {
        if let Some(name) = TYPES[i].marker {
            let h = marker_hash(name.as_bytes());
            assert!(
                slots[h] == 0,
                "two marker names share a hash slot: change marker_hash"
            );
            slots[h] = i as u8 + 1;
        }
        if let Some(name) = TYPES[i].alt_marker {
            let h = marker_hash(name.as_bytes());
            assert!(
                slots[h] == 0,
                "two marker names share a hash slot: change marker_hash"
            );
            slots[h] = (i as u8 + 1) | 0x80;
        }
        i += 1;
    }
    slots
};

/// The one lookup from marker name to wire type, used by the serializer, the deserializer
/// and the `Variant` visitor: one hash and one comparison.
#[inline]
pub(crate) fn marker(name: &str) -> Option<Marker> {
    if !name.starts_with(MARKER_PREFIX) {
        return None;
    }
    let slot = *MARKER_SLOTS.get(marker_hash(name.as_bytes()))?;
    let row = TYPES.get(usize::from(slot & 0x7F).checked_sub(1)?)?;
    let alt = slot & 0x80 != 0;
    let known = if alt { row.alt_marker } else { row.marker };
    if known? != name {
        return None;
    }
    Some(Marker {
        ty: row.ty,
        wide: alt && matches!(row.shape, Shape::Packed(..)),
        typed: alt && matches!(row.shape, Shape::Array | Shape::Dictionary),
        as_id: alt && matches!(row.shape, Shape::Object),
    })
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
    fn ids_shared_by_every_engine() {
        // Spec §3.2: only ids 0-5 (nil, bool, int, float, String, Vector2) agree.
        assert_eq!(SHARED_IDS, 6);
    }

    #[test]
    fn names_in_each_engine() {
        // Spec §3.1 / §3.2 names.
        assert_eq!(VariantType::Float.name_in(GodotVersion::V3), "real");
        assert_eq!(VariantType::Float.name_in(GodotVersion::V4_4), "float");
        assert_eq!(VariantType::Quaternion.name_in(GodotVersion::V3), "Quat");
        assert_eq!(
            VariantType::Transform3D.name_in(GodotVersion::V3),
            "Transform"
        );
        assert_eq!(
            VariantType::PackedInt32Array.name_in(GodotVersion::V3),
            "PoolIntArray"
        );
        assert_eq!(
            VariantType::PackedFloat32Array.name_in(GodotVersion::V3),
            "PoolRealArray"
        );
        assert_eq!(VariantType::Vector2i.name_in(GodotVersion::V3), "Vector2i");
        assert_eq!(VariantType::Aabb.name(), "AABB");
        assert_eq!(VariantType::Rid.to_string(), "RID");
        assert_eq!(VariantType::ALL.len(), TYPES.len());
    }

    #[test]
    fn every_marker_name_is_found_by_the_lookup() {
        let mut names = 0;
        for row in TYPES {
            for (name, alt) in [(row.marker, false), (row.alt_marker, true)] {
                let Some(name) = name else { continue };
                names += 1;
                assert!(name.starts_with(MARKER_PREFIX), "{name}");
                let m = marker(name).expect(name);
                assert_eq!(m.ty, row.ty, "{name}");
                assert_eq!(
                    (m.wide, m.typed, m.as_id),
                    (
                        alt && name.ends_with("64"),
                        alt && name.contains("Typed"),
                        alt && name.ends_with("ObjectId")
                    ),
                    "{name}"
                );
            }
        }
        assert_eq!(names, 38);
        assert_eq!(marker("Vector2"), None);
        assert_eq!(marker("$godot_serde::Nope"), None);
        assert_eq!(marker("$godot_serde::Vector2 "), None);
        assert_eq!(marker(""), None);
        assert_eq!(marker_of(VariantType::Vector2), "$godot_serde::Vector2");
        assert_eq!(
            alt_marker_of(VariantType::Array),
            "$godot_serde::TypedArray"
        );
        assert_eq!(
            marker_name(VariantType::PackedVector3Array, true),
            Some("$godot_serde::PackedVector3Array64")
        );
        assert_eq!(
            marker_name(VariantType::Color, true),
            Some("$godot_serde::Color")
        );
        assert_eq!(marker_name(VariantType::Object, false), None);
        assert_eq!(marker_name(VariantType::Array, false), None);
    }
}
