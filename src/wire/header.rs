//! The header word every value starts with (spec §2) and the typed-container descriptors
//! that follow an Array or Dictionary header (spec §2.1). "Spec §N": a section of
//! `docs/wire-format.md`.

use super::types::VariantType;
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
/// Both typed-container kind fields.
const TYPED_KINDS: u32 = (3 << TYPED_KEY_SHIFT) | (3 << TYPED_VALUE_SHIFT);
/// NodePath first word: bit 31 marks the "new" format, the only one Godot 3 and 4 decode.
pub(crate) const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
/// Array / Dictionary counts: bit 31 is a historical "shared" flag, masked off on decode.
pub(crate) const COUNT_MASK: u32 = 0x7FFF_FFFF;

/// The header word of `ty` with no flags when its type id is the same in every version (int,
/// float, String, ...), else `u32::MAX`: for fast paths that match a word before knowing
/// the version. A `const fn`, so that the words they use are checked when compiling.
pub(crate) const fn shared_word(ty: VariantType) -> u32 {
    match (
        ty.id(GodotVersion::V3),
        ty.id(GodotVersion::V4_0),
        ty.id(GodotVersion::V4_3),
        ty.id(GodotVersion::V4_4),
    ) {
        (Some(a), Some(b), Some(c), Some(d)) if a == b && b == c && c == d => a as u32,
        _ => u32::MAX,
    }
}

/// A value's header word, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// The whole word, flags included.
    pub raw: u32,
    /// The type its low byte names.
    pub ty: VariantType,
}

impl Header {
    /// Decodes a header word against a version's id table
    /// ([`VariantType::id_table`]); `Err` holds a type id the table does not have.
    #[inline]
    pub(crate) fn decode(raw: u32, types: &[VariantType]) -> Result<Self, u32> {
        let id = raw & TYPE_MASK;
        match types.get(id as usize) {
            Some(&ty) => Ok(Header { raw, ty }),
            None => Err(id),
        }
    }

    /// The header word `version` writes for `ty` with `flags`, or `None` if that engine has
    /// no such type.
    #[inline]
    pub(crate) fn encode(ty: VariantType, version: GodotVersion, flags: u32) -> Option<u32> {
        ty.id(version).map(|id| u32::from(id) | flags)
    }

    /// Bit 16: INT and FLOAT payloads are 64-bit (and, see [`Header::wide`], math types).
    #[inline]
    pub(crate) fn flag(self) -> bool {
        self.raw & FLAG_64 != 0
    }

    /// Whether this value's `real_t` components are f64 in `version` (the 4.x double-build
    /// flag; 3.x ignores the bit).
    #[inline]
    pub(crate) fn wide(self, version: GodotVersion) -> bool {
        self.flag() && version.has_64bit_reals() && self.ty.has_real_components()
    }

    /// OBJECT bit 16: the payload is an instance id, not a full object.
    #[inline]
    pub(crate) fn object_as_id(self) -> bool {
        self.raw & FLAG_OBJECT_AS_ID != 0
    }

    /// Whether any typed-container kind bit is set (a quick test before reading
    /// descriptors; whether they count depends on the version).
    #[inline]
    pub(crate) fn may_be_typed(self) -> bool {
        self.raw & TYPED_KINDS != 0
    }

    /// An Array's element kind ([`Descriptor::NONE`] ... [`Descriptor::SCRIPT`]) as
    /// `version` reads it: always NONE before 4.3.
    #[inline]
    pub(crate) fn array_kind(self, version: GodotVersion) -> u8 {
        if version.has_typed_arrays() {
            kind_at(self.raw, TYPED_KEY_SHIFT)
        } else {
            Descriptor::NONE
        }
    }

    /// A Dictionary's key and value kinds as `version` reads them: NONE before 4.4.
    #[inline]
    pub(crate) fn dictionary_kinds(self, version: GodotVersion) -> (u8, u8) {
        if version.has_typed_dictionaries() {
            (
                kind_at(self.raw, TYPED_KEY_SHIFT),
                kind_at(self.raw, TYPED_VALUE_SHIFT),
            )
        } else {
            (Descriptor::NONE, Descriptor::NONE)
        }
    }
}

/// A NodePath's three leading words (spec §4.11), decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodePathHead {
    /// Name strings that follow.
    pub names: u32,
    /// Subname strings after the names (one more when the legacy property flag is set).
    pub subnames: u32,
    /// Flags bit 0.
    pub absolute: bool,
    /// Flags bit 1, the legacy "has property" flag.
    pub property: bool,
}

impl NodePathHead {
    /// Whether the first word is in the "new" format, the only one Godot decodes.
    #[inline]
    pub(crate) fn is_new_format(first: u32) -> bool {
        first & NODE_PATH_NEW_FORMAT != 0
    }

    /// The first word for `names` name strings: the count with the new-format bit, the only
    /// format Godot decodes.
    #[inline]
    pub(crate) const fn names_word(names: u32) -> u32 {
        names | NODE_PATH_NEW_FORMAT
    }

    /// The third word: bit 0 for an absolute path (the legacy property bit is never written).
    #[inline]
    pub(crate) const fn flags_word(absolute: bool) -> u32 {
        absolute as u32
    }

    /// The counts and flags from the three words, or `None` for the legacy format.
    #[inline]
    pub(crate) fn decode(first: u32, subnames: u32, flags: u32) -> Option<Self> {
        let property = flags & 2 != 0;
        Self::is_new_format(first).then_some(NodePathHead {
            names: first & !NODE_PATH_NEW_FORMAT,
            subnames: subnames.saturating_add(u32::from(property)),
            absolute: flags & 1 != 0,
            property,
        })
    }
}

/// The 2-bit container kind at `shift`.
#[inline]
#[allow(clippy::cast_possible_truncation)] // masked to 2 bits
const fn kind_at(raw: u32, shift: u32) -> u8 {
    ((raw >> shift) & 3) as u8
}

/// A typed-container descriptor (spec §2.1): the element type of a typed Array, or the key or
/// value type of a typed Dictionary. The marker protocol sends it as `(kind, id, name)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Descriptor {
    /// [`Descriptor::NONE`], [`BUILTIN`](Descriptor::BUILTIN),
    /// [`CLASS_NAME`](Descriptor::CLASS_NAME) or [`SCRIPT`](Descriptor::SCRIPT).
    pub kind: u8,
    /// BUILTIN: the Godot 4 type id.
    pub id: u32,
    /// CLASS_NAME: the class name; SCRIPT: the script's `res://` path.
    pub name: String,
}

/// What a descriptor holds after the header.
pub(crate) enum DescriptorBody<'d> {
    /// A `u32` type id.
    Id(u32),
    /// A String field.
    Name(&'d str),
}

impl Descriptor {
    /// Untyped (`Variant`): nothing is written.
    pub(crate) const NONE: u8 = 0;
    /// A builtin type: a `u32` type id follows.
    pub(crate) const BUILTIN: u8 = 1;
    /// A class: a String field with its name follows.
    pub(crate) const CLASS_NAME: u8 = 2;
    /// A script: a String field with its `res://` path follows.
    pub(crate) const SCRIPT: u8 = 3;

    /// The class name Godot writes for a container typed with a class or a script when objects
    /// are not sent in full (`var_to_bytes`), and reads for one without `allow_objects`.
    pub(crate) const ENCODED_OBJECT_AS_ID: &'static str = "EncodedObjectAsID";

    /// The CLASS_NAME `"EncodedObjectAsID"` descriptor.
    pub(crate) fn encoded_object_as_id() -> Self {
        Descriptor {
            kind: Self::CLASS_NAME,
            id: 0,
            name: Self::ENCODED_OBJECT_AS_ID.to_owned(),
        }
    }

    /// Whether this types the slot with objects: a class, a script, or the builtin OBJECT
    /// (4.x id 24, a container of objects without a class).
    pub(crate) fn holds_objects(&self) -> bool {
        match self.kind {
            Self::CLASS_NAME | Self::SCRIPT => true,
            Self::BUILTIN => self.id == VariantType::Object as u32,
            _ => false,
        }
    }

    /// The descriptor for a BUILTIN type id as read (`i32`), or `None` when `version` has
    /// no such type. Id 0 (NIL) is untyped.
    pub(crate) fn builtin(id: i32, version: GodotVersion) -> Option<Self> {
        let id = u32::try_from(id).ok()?;
        VariantType::from_id(id, version)?;
        Some(match id {
            0 => Descriptor::default(),
            id => Descriptor {
                kind: Self::BUILTIN,
                id,
                name: String::new(),
            },
        })
    }

    /// A CLASS_NAME or SCRIPT descriptor (any kind above BUILTIN reads as a name).
    pub(crate) fn named(kind: u8, name: String) -> Self {
        Descriptor {
            kind: if kind == Self::CLASS_NAME {
                Self::CLASS_NAME
            } else {
                Self::SCRIPT
            },
            id: 0,
            name,
        }
    }

    /// What the String field of a named `kind` holds: `"class name"` or `"script path"`.
    pub(crate) fn name_role(kind: u8) -> &'static str {
        if kind == Self::CLASS_NAME {
            "class name"
        } else {
            "script path"
        }
    }

    /// Whether this types the slot (kind not NONE).
    pub(crate) fn is_typed(&self) -> bool {
        self.kind != Self::NONE
    }

    /// What follows the header for this descriptor (`None` for NONE).
    pub(crate) fn body(&self) -> Option<DescriptorBody<'_>> {
        match self.kind {
            Self::NONE => None,
            Self::BUILTIN => Some(DescriptorBody::Id(self.id)),
            _ => Some(DescriptorBody::Name(&self.name)),
        }
    }

    /// The header flags of a typed Array (`value` unused) or Dictionary written for
    /// `version`, and the descriptors to write after the header, key first. Descriptors the
    /// version does not read are dropped, and a BUILTIN NIL is written as NONE, as Godot does.
    pub(crate) fn encode<'d>(
        ty: VariantType,
        version: GodotVersion,
        key: &'d Descriptor,
        value: &'d Descriptor,
    ) -> (u32, [Option<&'d Descriptor>; 2]) {
        let (typed, slots) = match ty {
            VariantType::Array => (version.has_typed_arrays(), 1),
            _ => (version.has_typed_dictionaries(), 2),
        };
        let written = |d: &'d Descriptor, slot: usize| {
            (typed && slot < slots && d.is_typed() && !(d.kind == Self::BUILTIN && d.id == 0))
                .then_some(d)
        };
        let (key, value) = (written(key, 0), written(value, 1));
        let kind = |d: Option<&Descriptor>| d.map_or(Self::NONE, |d| d.kind);
        (Self::kinds_flags(kind(key), kind(value)), [key, value])
    }

    /// A typed container's header flags for its descriptors' kinds: the key's (an Array's
    /// element's) in bits 16-17, the value's in bits 18-19.
    #[inline]
    pub(crate) const fn kinds_flags(key: u8, value: u8) -> u32 {
        (key as u32 & 3) << TYPED_KEY_SHIFT | (value as u32 & 3) << TYPED_VALUE_SHIFT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(hex: &str) -> u32 {
        // Spec notation: the bytes in wire order.
        u32::from_le_bytes(u32::from_str_radix(hex, 16).unwrap().to_be_bytes())
    }

    #[test]
    fn decode_masks_the_type_byte() {
        // Spec §2: header 0x00000102 decodes as an int, 0x00010001 as a bool.
        let g4 = VariantType::id_table(GodotVersion::V4_4);
        assert_eq!(Header::decode(0x0102, g4).unwrap().ty, VariantType::Int);
        assert_eq!(
            Header::decode(0x0001_0001, g4).unwrap().ty,
            VariantType::Bool
        );
        // §3: 39 ids in 4.3+, 38 in 4.0-4.2, 27 in 3.x.
        assert_eq!(
            Header::decode(38, g4).unwrap().ty,
            VariantType::PackedVector4Array
        );
        let g40 = VariantType::id_table(GodotVersion::V4_0);
        assert_eq!(Header::decode(38, g40), Err(38));
        let g3 = VariantType::id_table(GodotVersion::V3);
        assert_eq!(
            Header::decode(26, g3).unwrap().ty,
            VariantType::PackedColorArray
        );
        assert_eq!(Header::decode(27, g3), Err(27));
    }

    #[test]
    fn encode_uses_each_version_ids() {
        // §8.1: Vector3(1, 2, 3) starts `07000000` in 3.x and `09000000` in 4.x.
        let v3 = VariantType::Vector3;
        assert_eq!(
            Header::encode(v3, GodotVersion::V3, 0),
            Some(word("07000000"))
        );
        assert_eq!(
            Header::encode(v3, GodotVersion::V4_0, 0),
            Some(word("09000000"))
        );
        // §8.1: 2147483648 starts `02000100` (int with the 64-bit flag).
        let int = Header::encode(VariantType::Int, GodotVersion::V4_4, FLAG_64);
        assert_eq!(int, Some(word("02000100")));
        // §8.1: an object as id starts `11000100` in 3.x, `18000100` in 4.x.
        let obj = VariantType::Object;
        let as_id = FLAG_OBJECT_AS_ID;
        assert_eq!(
            Header::encode(obj, GodotVersion::V3, as_id),
            Some(word("11000100"))
        );
        assert_eq!(
            Header::encode(obj, GodotVersion::V4_3, as_id),
            Some(word("18000100"))
        );
        let v4a = VariantType::PackedVector4Array;
        assert_eq!(Header::encode(v4a, GodotVersion::V4_0, 0), None);
        assert_eq!(
            Header::encode(VariantType::Vector2i, GodotVersion::V3, 0),
            None
        );
    }

    #[test]
    fn the_64_bit_flag_widens_reals_only_in_godot4() {
        // §8.2: `05000100` is Vector2 with f64 components from a double build (4.x).
        let g4 = VariantType::id_table(GodotVersion::V4_4);
        let h = Header::decode(word("05000100"), g4).unwrap();
        assert!(h.flag() && h.wide(GodotVersion::V4_4));
        // §2: 3.x ignores the bit on math types.
        let g3 = VariantType::id_table(GodotVersion::V3);
        let h3 = Header::decode(word("05000100"), g3).unwrap();
        assert!(h3.flag() && !h3.wide(GodotVersion::V3));
        // Color is never wide (§4.8); an int's flag is not "wide" either.
        let color = Header::decode(word("14000100"), g4).unwrap();
        assert!(!color.wide(GodotVersion::V4_4));
        let int = Header::decode(word("02000100"), g4).unwrap();
        assert!(int.flag() && !int.wide(GodotVersion::V4_4));
    }

    #[test]
    fn typed_kinds_count_only_where_the_version_reads_them() {
        let g4 = VariantType::id_table(GodotVersion::V4_4);
        // §8.2: `1c000100` Array[int] (BUILTIN), `1c000200` CLASS_NAME.
        let ints = Header::decode(word("1c000100"), g4).unwrap();
        assert!(ints.may_be_typed());
        assert_eq!(ints.array_kind(GodotVersion::V4_3), Descriptor::BUILTIN);
        assert_eq!(ints.array_kind(GodotVersion::V4_0), Descriptor::NONE);
        let nodes = Header::decode(word("1c000200"), g4).unwrap();
        assert_eq!(nodes.array_kind(GodotVersion::V4_4), Descriptor::CLASS_NAME);
        // §8.2: `1b000500` key BUILTIN + value BUILTIN; `1b000400` only the value typed.
        let both = Header::decode(word("1b000500"), g4).unwrap();
        assert_eq!(both.dictionary_kinds(GodotVersion::V4_4), (1, 1));
        assert_eq!(both.dictionary_kinds(GodotVersion::V4_3), (0, 0));
        let value = Header::decode(word("1b000400"), g4).unwrap();
        assert_eq!(value.dictionary_kinds(GodotVersion::V4_4), (0, 1));
        let plain = Header::decode(word("1b000000"), g4).unwrap();
        assert!(!plain.may_be_typed());
    }

    #[test]
    fn descriptors_encode_as_godot_writes_them() {
        let int = Descriptor::builtin(2, GodotVersion::V4_4).unwrap();
        let none = Descriptor::default();
        // §8.2: Array[int] → flags 0x00010000 and the id; 4.0-4.2 write no typing.
        let (flags, written) =
            Descriptor::encode(VariantType::Array, GodotVersion::V4_3, &int, &none);
        assert_eq!(flags, 0x0001_0000);
        assert_eq!(written, [Some(&int), None]);
        let (flags, written) =
            Descriptor::encode(VariantType::Array, GodotVersion::V4_0, &int, &none);
        assert_eq!((flags, written), (0, [None, None]));
        // §8.2: Dictionary[Variant, int] → `1b000400`, only the value descriptor.
        let d = VariantType::Dictionary;
        let (flags, written) = Descriptor::encode(d, GodotVersion::V4_4, &none, &int);
        assert_eq!(flags, 0x0004_0000);
        assert_eq!(written, [None, Some(&int)]);
        // Typed dictionaries need 4.4.
        let (flags, _) = Descriptor::encode(d, GodotVersion::V4_3, &int, &int);
        assert_eq!(flags, 0);
        // A BUILTIN NIL is untyped (§2.1 encoder rule 1).
        let nil = Descriptor {
            kind: Descriptor::BUILTIN,
            ..Descriptor::default()
        };
        let (flags, _) = Descriptor::encode(VariantType::Array, GodotVersion::V4_4, &nil, &none);
        assert_eq!(flags, 0);
        // A class name: kind 2 (`1c000200`).
        let node = Descriptor::named(Descriptor::CLASS_NAME, "Node".into());
        let (flags, _) = Descriptor::encode(VariantType::Array, GodotVersion::V4_4, &node, &none);
        assert_eq!(flags, 0x0002_0000);
    }

    #[test]
    fn node_path_words_from_the_spec() {
        // §8.1 NodePath("/root/Main:position"): `02000080 01000000 01000000`.
        let head = NodePathHead::decode(word("02000080"), 1, 1).unwrap();
        assert_eq!((head.names, head.subnames, head.absolute), (2, 1, true));
        // §4.11: flags bit 1 reads one more subname; bit 31 clear is the legacy format.
        let head = NodePathHead::decode(word("01000080"), 0, 2).unwrap();
        assert_eq!(
            (head.subnames, head.absolute, head.property),
            (1, false, true)
        );
        assert_eq!(NodePathHead::decode(1, 0, 0), None);
    }

    #[test]
    fn builtin_ids_are_checked_against_the_version() {
        // §2.1: `0 <= id < VARIANT_MAX`; id 0 is untyped.
        assert_eq!(
            Descriptor::builtin(0, GodotVersion::V4_4),
            Some(Descriptor::default())
        );
        assert_eq!(
            Descriptor::builtin(38, GodotVersion::V4_4).map(|d| d.id),
            Some(38)
        );
        assert_eq!(Descriptor::builtin(38, GodotVersion::V4_0), None);
        assert_eq!(Descriptor::builtin(39, GodotVersion::V4_4), None);
        assert_eq!(Descriptor::builtin(-1, GodotVersion::V4_4), None);
    }

    #[test]
    fn node_path_words_decode_back() {
        // Spec §4.11: `^"/root/a:b"` is 2 names, 1 subname, absolute: 02000080 01000000 01000000.
        let words = [
            NodePathHead::names_word(2),
            1,
            NodePathHead::flags_word(true),
        ];
        assert_eq!(
            words,
            [word("02000080"), word("01000000"), word("01000000")]
        );
        assert_eq!(
            NodePathHead::decode(words[0], words[1], words[2]),
            Some(NodePathHead {
                names: 2,
                subnames: 1,
                absolute: true,
                property: false,
            })
        );
        assert_eq!(NodePathHead::flags_word(false), 0);
    }

    #[test]
    fn kinds_flags_place_each_kind_and_decode_back() {
        // Spec §2.1: a typed Array of int is 1C000100 (BUILTIN in bits 16-17); a Dictionary
        // typed String → class name is 1B000900 (BUILTIN key, CLASS_NAME value in bits 18-19).
        let array = 28 | Descriptor::kinds_flags(Descriptor::BUILTIN, Descriptor::NONE);
        assert_eq!(array, word("1C000100"));
        let dict = 27 | Descriptor::kinds_flags(Descriptor::BUILTIN, Descriptor::CLASS_NAME);
        assert_eq!(dict, word("1B000900"));
        let g4 = VariantType::id_table(GodotVersion::V4_4);
        let h = Header::decode(array, g4).unwrap();
        assert_eq!(h.array_kind(GodotVersion::V4_4), Descriptor::BUILTIN);
        let h = Header::decode(dict, g4).unwrap();
        assert_eq!(
            h.dictionary_kinds(GodotVersion::V4_4),
            (Descriptor::BUILTIN, Descriptor::CLASS_NAME)
        );
    }
}
