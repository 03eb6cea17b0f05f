//! The payload rules of the types whose payload is more than one number or one String field
//! (spec §4.6-4.18), one function per type or payload shape on the [`Reader`]: the counts and
//! their checks, the NodePath head, the RID's Godot 3 rule, the Object head, the Signal's
//! fields, a math type's components. Both decoding paths call these, the serde
//! [`Deserializer`](crate::Deserializer) (`de/marker.rs`) and the bytes → `Variant` reader
//! (`value/from_bytes.rs`), so each rule is written once. No serde here.

use super::header::NodePathHead;
use super::reader::{HeaderAt, Item, Reader};
use super::types::Scalar;
use crate::error::{Error, ErrorKind, Result};
use crate::read::{Read, Reference};

/// One math-type component as read (spec §4.6-4.8): its kind is the type's [`Scalar`] once the
/// header's 64-bit flag is known ([`Scalar::on_wire`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    /// An `f32` component (float math types, Color).
    F32(f32),
    /// An `f64` component (float math types with the 4.x 64-bit flag).
    F64(f64),
    /// An `i32` component (integer vectors, Rect2i).
    I32(i32),
}

/// A slot a [`Number`] is read into, converted as serde's primitive visitors convert (an
/// `f64` into an `f32` slot is cast, as Godot's single-precision `real_t` is).
pub(crate) trait FromNumber: Sized {
    /// The slot's value, or `None` when the kinds do not fit (an int slot for a float).
    fn from_number(n: Number) -> Option<Self>;
}

impl FromNumber for f32 {
    #[inline(always)]
    #[allow(clippy::cast_possible_truncation)] // f64 -> f32 narrows as Godot does
    fn from_number(n: Number) -> Option<Self> {
        match n {
            Number::F32(v) => Some(v),
            Number::F64(v) => Some(v as f32),
            Number::I32(_) => None,
        }
    }
}

impl FromNumber for f64 {
    #[inline(always)]
    fn from_number(n: Number) -> Option<Self> {
        match n {
            Number::F32(v) => Some(v.into()),
            Number::F64(v) => Some(v),
            Number::I32(_) => None,
        }
    }
}

impl FromNumber for i32 {
    #[inline(always)]
    fn from_number(n: Number) -> Option<Self> {
        match n {
            Number::I32(v) => Some(v),
            Number::F32(_) | Number::F64(_) => None,
        }
    }
}

/// What follows an Object header (spec §4.13), up to its properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ObjectHead {
    /// The null object: instance id 0, or an empty class name.
    Null,
    /// An object sent by instance id (header bit 16).
    Id(u64),
    /// A full object: its class and the number of properties that follow.
    Full {
        /// The class name.
        class: String,
        /// The properties that follow (a name String field and a Variant each).
        count: u32,
    },
}

/// What a Signal's name is called in an error.
pub(crate) const SIGNAL_NAME: &str = "signal name";
/// What an Object's property name is called in an error.
pub(crate) const PROPERTY_NAME: &str = "property name";
/// What a NodePath's name is called in an error.
pub(crate) const NODE_PATH_NAME: &str = "NodePath name";
/// What a NodePath's subname is called in an error.
pub(crate) const NODE_PATH_SUBNAME: &str = "NodePath subname";
/// What a PackedStringArray element is called in an error.
pub(crate) const PACKED_STRING: &str = "PackedStringArray element";

impl<'de, R: Read<'de>> Reader<R> {
    /// One math-type component of kind `comp` (never `Real`: see [`Scalar::on_wire`]).
    #[inline(always)]
    pub(crate) fn read_component(&mut self, comp: Scalar) -> Result<Number> {
        Ok(match comp {
            Scalar::F64 => Number::F64(f64::from_le_bytes(self.read_array()?)),
            Scalar::I32 => Number::I32(self.read_i32()?),
            // F32: math components are only ever f32, f64 or i32 (`Shape::Components`).
            _ => Number::F32(f32::from_le_bytes(self.read_array()?)),
        })
    }

    /// `slots.len()` components of kind `comp` into `slots`, in wire order.
    ///
    /// # Errors
    ///
    /// The input ends first; a component of another kind than the slots (the type table
    /// rules that out).
    #[inline(always)]
    pub(crate) fn read_components<C: FromNumber>(
        &mut self,
        comp: Scalar,
        slots: &mut [C],
    ) -> Result<()> {
        for slot in slots {
            let offset = self.offset();
            let n = self.read_component(comp)?;
            *slot = C::from_number(n).ok_or_else(|| mismatched_component(n, offset))?;
        }
        Ok(())
    }

    /// A RID's payload (spec §4.10): its `u64` id in 4.x; Godot 3 writes none, read as 0.
    #[inline]
    pub(crate) fn read_rid(&mut self) -> Result<u64> {
        if self.version().has_rid_payload() {
            self.read_u64()
        } else {
            Ok(0)
        }
    }

    /// A NodePath's three leading words (spec §4.11): the legacy format (bit 31 of the first
    /// word clear) is refused, as Godot refuses it; the names and subnames that follow must
    /// fit the input, 4 bytes each at least.
    pub(crate) fn read_node_path_head(&mut self) -> Result<NodePathHead> {
        let offset = self.offset();
        let first = self.read_u32()?;
        if !NodePathHead::is_new_format(first) {
            return Err(Error::at(ErrorKind::LegacyNodePath, offset));
        }
        let subnames = self.read_u32()?;
        let flags = self.read_u32()?;
        // The legacy "has property" flag counts one more subname.
        let head = NodePathHead::decode(first, subnames, flags)
            .ok_or_else(|| Error::at(ErrorKind::LegacyNodePath, offset))?;
        self.check_fits(
            u64::from(head.names) + u64::from(head.subnames),
            Item::PackedString.least_size().into(),
            "NodePath name count",
        )?;
        Ok(head)
    }

    /// A Signal's name (spec §4.14), the first of its two fields.
    #[inline]
    pub(crate) fn read_signal_name(&mut self) -> Result<Reference<'de, '_, str>> {
        self.read_text(SIGNAL_NAME)
    }

    /// A Signal's object id (spec §4.14), the second of its two fields.
    #[inline]
    pub(crate) fn read_signal_object(&mut self) -> Result<u64> {
        self.read_u64()
    }

    /// A PackedByteArray's length (spec §4.17): negative, or more than the input holds, is an
    /// error. The padding after the bytes is [`skip_padding`](Self::skip_padding)'s.
    #[inline]
    pub(crate) fn read_byte_array_len(&mut self) -> Result<usize> {
        let what = "PackedByteArray count";
        let len = self.read_len(what)?;
        self.check_fits(len as u64, 1, what)?;
        Ok(len)
    }

    /// A numeric packed array's count, as the byte length of its `elem_size`-byte elements
    /// (spec §4.18, `decode_variant`): negative, or more than the input holds, is an error.
    #[inline]
    pub(crate) fn read_packed_len(&mut self, elem_size: usize) -> Result<usize> {
        let what = "packed array count";
        let count = self.read_len(what)?;
        self.check_fits(count as u64, elem_size as u64, what)?;
        count.checked_mul(elem_size).ok_or_else(|| {
            Error::at(
                ErrorKind::LengthTooLarge {
                    what,
                    len: count as u64,
                    remaining: 0,
                },
                self.offset(),
            )
        })
    }

    /// A PackedStringArray's count (spec §4.18): negative is an empty array
    /// (`decode_variant`, PACKED_STRING_ARRAY); more than the input holds is an error.
    #[inline]
    pub(crate) fn read_string_array_count(&mut self) -> Result<u32> {
        self.read_signed_count("PackedStringArray count", Item::PackedString)
    }

    /// What follows the Object header `h` up to its properties (spec §4.13): an instance id
    /// (0 is the null object), or a class name (empty is the null object) and a property
    /// count (negative is none, as `decode_variant` reads it in 3.x and 4.x).
    ///
    /// # Errors
    ///
    /// A full object when [`Config::allow_objects`](crate::Config) is off: Godot refuses
    /// before reading anything, the class name only improves the message; a count of more
    /// properties than the input holds.
    pub(crate) fn read_object_head(&mut self, h: HeaderAt) -> Result<ObjectHead> {
        if h.object_as_id() {
            return Ok(match self.read_u64()? {
                0 => ObjectHead::Null,
                id => ObjectHead::Id(id),
            });
        }
        if !self.config.allow_objects {
            let class = self
                .read_string("class name")
                .unwrap_or_else(|_| "?".to_owned());
            return Err(Error::at(
                ErrorKind::ObjectsNotAllowed {
                    class: class.into(),
                },
                h.offset,
            ));
        }
        let class = self.read_string("class name")?;
        if class.is_empty() {
            return Ok(ObjectHead::Null);
        }
        let count = self.read_signed_count("object property count", Item::Property)?;
        Ok(ObjectHead::Full { class, count })
    }
}

/// The error for component `n`, at `offset`, read into a slot of another kind.
#[cold]
fn mismatched_component(n: Number, offset: usize) -> Error {
    Error::at(
        ErrorKind::Message(format!("math component {n:?} does not fit its type").into()),
        offset,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::read::SliceRead;
    use crate::wire::{Header, VariantType};

    fn reader(bytes: &[u8], config: Config) -> Reader<SliceRead<'_>> {
        Reader::new(SliceRead::new(bytes), config)
    }

    #[test]
    fn rid_has_a_payload_in_godot_4_only() {
        // §4.10: 4.x writes the u64 id (here 0x0102), 3.x nothing.
        let bytes = [2, 1, 0, 0, 0, 0, 0, 0];
        let mut r = reader(&bytes, Config::godot4());
        assert_eq!(r.read_rid().unwrap(), 0x0102);
        assert_eq!(r.offset(), 8);
        let mut r = reader(&bytes, Config::godot3());
        assert_eq!(r.read_rid().unwrap(), 0);
        assert_eq!(r.offset(), 0);
        let e = reader(&bytes[..5], Config::godot4())
            .read_rid()
            .unwrap_err();
        assert!(e.is_eof(), "{e}");
    }

    #[test]
    fn node_path_head_refuses_the_legacy_format_and_forged_counts() {
        // §8.1: `02000080 01000000 01000000` is 2 names, 1 subname, absolute; 12 bytes follow
        // for 3 String fields of at least 4 bytes.
        let mut bytes = vec![2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0];
        bytes.extend([0; 12]);
        let head = reader(&bytes, Config::godot4())
            .read_node_path_head()
            .unwrap();
        assert_eq!((head.names, head.subnames, head.absolute), (2, 1, true));
        // One byte short of the 3 fields.
        let e = reader(&bytes[..23], Config::godot4())
            .read_node_path_head()
            .unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::LengthTooLarge {
                what: "NodePath name count",
                len: 3,
                remaining: 11
            }
        ));
        // Bit 31 clear: the legacy format, refused at the first word.
        let e = reader(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], Config::godot4())
            .read_node_path_head()
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LegacyNodePath));
        assert_eq!(e.offset(), Some(0));
    }

    #[test]
    fn packed_counts_are_checked_before_anything_is_read() {
        // A PackedInt32Array claiming 3 elements (12 bytes) with 8 left.
        let bytes = [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let e = reader(&bytes, Config::godot4())
            .read_packed_len(4)
            .unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::LengthTooLarge {
                len: 3,
                remaining: 8,
                ..
            }
        ));
        assert_eq!(
            reader(&bytes, Config::godot4()).read_packed_len(2).unwrap(),
            6
        );
        // Negative counts: an error for numbers, an empty PackedStringArray.
        let neg = [0xFF, 0xFF, 0xFF, 0xFF];
        let e = reader(&neg, Config::godot4())
            .read_byte_array_len()
            .unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::NegativeLength { len: -1, .. }
        ));
        assert_eq!(
            reader(&neg, Config::godot4())
                .read_string_array_count()
                .unwrap(),
            0
        );
    }

    #[test]
    fn object_head_by_id_null_and_refused() {
        let config = Config::godot4();
        let types = VariantType::id_table(config.version);
        // §4.13: OBJECT (24) with bit 16 is an id; 0 is the null object.
        let id = Header::decode(0x0001_0018, types).unwrap();
        let h = HeaderAt {
            head: id,
            offset: 0,
        };
        let mut r = reader(&[7, 0, 0, 0, 0, 0, 0, 0], config);
        assert_eq!(r.read_object_head(h).unwrap(), ObjectHead::Id(7));
        let mut r = reader(&[0; 8], config);
        assert_eq!(r.read_object_head(h).unwrap(), ObjectHead::Null);
        // A full object ("Node", no properties) is refused without `allow_objects`.
        let full = HeaderAt {
            head: Header::decode(0x18, types).unwrap(),
            offset: 0,
        };
        let bytes = [4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0];
        let e = reader(&bytes, config).read_object_head(full).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::ObjectsNotAllowed { class } if &**class == "Node"));
        let head = reader(&bytes, config.with_allow_objects(true))
            .read_object_head(full)
            .unwrap();
        assert_eq!(
            head,
            ObjectHead::Full {
                class: "Node".into(),
                count: 0
            }
        );
    }

    #[test]
    fn components_convert_as_serde_does() {
        // 1.5f64 then 2.0f32, read into f32 slots; ints only into int slots.
        let bytes = [0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0x40];
        let mut r = reader(&bytes, Config::godot4());
        let mut x = [0f32; 1];
        r.read_components(Scalar::F64, &mut x).unwrap();
        let mut y = [0f32; 1];
        r.read_components(Scalar::F32, &mut y).unwrap();
        assert_eq!((x[0], y[0]), (1.5, 2.0));
        let mut i = [0i32; 1];
        let e = reader(&bytes, Config::godot4())
            .read_components(Scalar::F32, &mut i)
            .unwrap_err();
        assert_eq!(e.offset(), Some(0));
    }
}
