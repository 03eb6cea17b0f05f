//! [`Reader`]: the one reader of Variant bytes under every decoding path (as ciborium-ll's
//! `Decoder` is under ciborium's): the serde [`Deserializer`](crate::Deserializer), the
//! bytes → [`Variant`](crate::Variant) reader (`value/from_bytes.rs`) and the annotated dump
//! (`dump.rs`) read through it. No serde here.
//!
//! It owns, each in one place:
//! - the input ([`Read`]: a slice, borrowed from, or an `io::Read`, copied into its scratch)
//!   and the offset;
//! - the header word, read and split against the version's id table ([`Reader::read_header`]);
//! - the nesting depth of the bytes: a [`Depth`] (the crate's one depth guard, in
//!   [`depth`](super::depth), shared with the writer, the text parser and the JSON form)
//!   and its error at the offset of the value too deep ([`Reader::check_depth`]);
//! - the allocation budget: what the size hints of the open containers stand for, charged at
//!   one rate per item kind ([`Item`], [`Reader::charge`]);
//! - the String field (length, padding that must be present, UTF-8, the first NUL, one
//!   leading BOM: [`Reader::read_text`] over [`string::text`](super::string::text));
//! - the typed-container descriptors ([`Reader::read_descriptor`]) and the counts
//!   ([`Reader::read_count`], [`Reader::check_fits`]).

use super::depth::Depth;
use super::header::{COUNT_MASK, Descriptor, Header};
use super::string;
use super::types::VariantType;
use crate::config::{Config, GodotVersion};
use crate::error::{Error, ErrorKind, Result};
use crate::read::{Read, Reference};

/// A value's header word and the offset it was read at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeaderAt {
    /// The header word, decoded.
    pub(crate) head: Header,
    /// Where its first byte is in the input.
    pub(crate) offset: usize,
}

impl core::ops::Deref for HeaderAt {
    type Target = Header;
    #[inline(always)]
    fn deref(&self) -> &Header {
        &self.head
    }
}

/// What a container holds, for the allocation budget: each item is charged twice its least
/// size on the wire, so a container's size hint stands for at most one item per two input
/// bytes it could take. A forged count then reserves at most 4 times the input bytes left in
/// 32-byte [`Variant`](crate::Variant)s (or 32-byte entries per 16 bytes) before the items
/// prove it, and serde's `cautious` cap (1 MiB per container) bounds larger items; a real
/// container's room is right the first time. The same rates on every path (the serde
/// Deserializer charged 8 times the least size before, which made small records grow their
/// Dictionaries by reallocation: 10 % more instructions for a flat player record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// An Array element (at least a 4-byte header).
    Element,
    /// A Dictionary entry (at least two 4-byte headers).
    Entry,
    /// A PackedStringArray element (at least a 4-byte length).
    PackedString,
    /// An Object property (at least a 4-byte name length and a 4-byte header).
    Property,
}

impl Item {
    /// The least bytes an item takes on the wire.
    #[must_use]
    pub(crate) const fn least_size(self) -> u32 {
        match self {
            Item::Element | Item::PackedString => 4,
            Item::Entry | Item::Property => 8,
        }
    }

    /// The bytes of the budget an item is charged: twice its least size.
    #[must_use]
    pub(crate) const fn charge(self) -> u32 {
        self.least_size() * 2
    }
}

/// A container's size hint and its share of the [`Reader`]'s budget.
///
/// A hint is the claimed count, but never more items than the input bytes left hold once the
/// open containers' hints are taken away, so that the reservations of all open containers
/// together stay within the input's length: 128 nested Arrays each claiming everything left
/// reserve it once, not 128 times. Each of the first `hinted` items read gives its share back
/// as it starts, and the container gives back the rest when it ends (or fails).
///
/// The container's own count of items left (`left`) says how much is still reserved: the
/// items beyond the hint (`unhinted` of them) hold nothing, so the share is
/// `left - unhinted` items (none below), and an item gives its share back when `left`, once
/// counted down for it, is still at least `unhinted`: one compare per item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hint {
    /// Items of the claimed count that were not hinted (nothing reserved for them);
    /// [`Hint::NONE`] when the input's length is unknown (a reader), where no hint is given.
    unhinted: u32,
    /// Bytes charged per item.
    size: u32,
}

impl Hint {
    /// `unhinted` of a reader's container: no item is hinted, nothing is reserved. Counts
    /// are at most `i32::MAX`, so no `left` reaches it.
    const NONE: u32 = u32::MAX;

    /// The size hint to give the visitor when `left` items are left.
    #[inline]
    #[must_use]
    pub(crate) fn get(self, left: u32) -> Option<usize> {
        (self.unhinted != Self::NONE).then(|| left.saturating_sub(self.unhinted) as usize)
    }

    /// An item starts; `left` is the count of items left after it: its share is given back.
    #[inline(always)]
    pub(crate) fn took_one<R>(self, left: u32, r: &mut Reader<R>) {
        if left >= self.unhinted {
            r.reserved -= self.size as usize;
        }
    }

    /// The container ended with `left` items unread: what is left of its share is given
    /// back.
    #[inline]
    pub(crate) fn release<R>(self, left: u32, r: &mut Reader<R>) {
        r.reserved -= left.saturating_sub(self.unhinted) as usize * self.size as usize;
    }
}

/// Reads Variant bytes from a [`Read`] source: see the module docs.
pub(crate) struct Reader<R> {
    /// The input.
    read: R,
    /// Where bytes are copied when they cannot be borrowed (an `io::Read`).
    scratch: Vec<u8>,
    /// The limits and options the bytes are read with.
    pub(crate) config: Config,
    /// The types of `config.version`, indexed by type id.
    types: &'static [VariantType],
    /// The depth of the value about to be read.
    pub(crate) depth: Depth,
    /// Input bytes the size hints of the open containers stand for (see [`Hint`]): their
    /// items not read yet, each charged per its [`Item`].
    reserved: usize,
}

impl<'de, R: Read<'de>> Reader<R> {
    /// Reads `read` with `config`.
    pub(crate) fn new(read: R, config: Config) -> Self {
        Reader {
            read,
            scratch: Vec::new(),
            config,
            types: VariantType::id_table(config.version),
            depth: Depth::new(config.max_depth),
            reserved: 0,
        }
    }

    /// Gives back the input source.
    pub(crate) fn into_inner(self) -> R {
        self.read
    }

    /// The input source.
    #[inline(always)]
    pub(crate) fn source(&self) -> &R {
        &self.read
    }

    /// The engine whose layout is read.
    #[inline(always)]
    pub(crate) fn version(&self) -> GodotVersion {
        self.config.version
    }

    /// Bytes consumed so far.
    #[inline(always)]
    pub(crate) fn offset(&self) -> usize {
        self.read.offset()
    }

    /// Bytes left, when known (a slice).
    #[inline(always)]
    pub(crate) fn remaining(&self) -> Option<usize> {
        self.read.remaining()
    }

    /// The bytes not read yet, when at hand (a slice): for the fast paths, which match what
    /// they expect there and then [`read_to`](Self::read_to) past it.
    #[inline(always)]
    pub(crate) fn unread(&self) -> Option<&'de [u8]> {
        self.read.unread()
    }

    /// Reads up to `rest`, a suffix of [`unread`](Self::unread).
    #[inline(always)]
    pub(crate) fn read_to(&mut self, rest: &'de [u8]) {
        self.read.read_to(rest);
    }

    /// The input from byte `start` on, when still at hand (a slice).
    #[inline]
    pub(crate) fn input_from(&self, start: usize) -> Option<&'de [u8]> {
        self.read.input_from(start)
    }

    /// Reads exactly `N` bytes.
    #[inline(always)]
    pub(crate) fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.read.read_array()
    }

    /// Reads a little-endian `u32`.
    #[inline(always)]
    pub(crate) fn read_u32(&mut self) -> Result<u32> {
        self.read_array().map(u32::from_le_bytes)
    }

    /// Reads a little-endian `i32`.
    #[inline(always)]
    pub(crate) fn read_i32(&mut self) -> Result<i32> {
        self.read_array().map(i32::from_le_bytes)
    }

    /// Reads a little-endian `u64`.
    #[inline(always)]
    pub(crate) fn read_u64(&mut self) -> Result<u64> {
        self.read_array().map(u64::from_le_bytes)
    }

    /// The payload of an int of header `h`: 32 bits, or 64 with the flag.
    #[inline]
    pub(crate) fn read_int(&mut self, h: Header) -> Result<i64> {
        Ok(if h.flag() {
            i64::from_le_bytes(self.read_array()?)
        } else {
            self.read_i32()?.into()
        })
    }

    /// The payload of a float of header `h`: an `f32`, or an `f64` with the flag.
    #[inline]
    pub(crate) fn read_float(&mut self, h: Header) -> Result<f64> {
        Ok(if h.flag() {
            f64::from_le_bytes(self.read_array()?)
        } else {
            f32::from_le_bytes(self.read_array()?).into()
        })
    }

    /// Reads exactly `len` bytes, borrowed from the input when possible.
    #[inline]
    pub(crate) fn read_slice(&mut self, len: usize) -> Result<Reference<'de, '_, [u8]>> {
        self.read.read_slice(len, &mut self.scratch)
    }

    /// Skips up to `len` bytes of padding; the input may end first (Godot does not require
    /// the padding after a final PackedByteArray).
    #[inline]
    pub(crate) fn skip_padding(&mut self, len: usize) -> Result<()> {
        self.read.skip_padding(len)
    }

    /// `Ok` when a value may be read at the current depth, else the error at `offset`.
    #[inline(always)]
    pub(crate) fn check_depth(&self, offset: usize) -> Result<()> {
        self.depth.check(offset)
    }

    /// Decodes a header word against the version's id table.
    #[inline(always)]
    pub(crate) fn decode_header(&self, raw: u32) -> core::result::Result<Header, u32> {
        Header::decode(raw, self.types)
    }

    /// Reads the next value's header word, after checking that the depth allows a value.
    #[inline]
    pub(crate) fn read_header(&mut self) -> Result<HeaderAt> {
        let offset = self.read.offset();
        self.check_depth(offset)?;
        let raw = self.read_u32()?;
        match self.decode_header(raw) {
            Ok(head) => Ok(HeaderAt { head, offset }),
            Err(id) => Err(self.unknown_type(id, offset)),
        }
    }

    /// The error for type id `id` at `offset`.
    #[cold]
    pub(crate) fn unknown_type(&self, id: u32, offset: usize) -> Error {
        Error::at(
            ErrorKind::UnknownType {
                id,
                version: self.version(),
            },
            offset,
        )
    }

    /// Whether a value's float components are f64 (the 4.x double-build flag).
    #[inline(always)]
    pub(crate) fn wide(&self, h: Header) -> bool {
        h.wide(self.version())
    }

    /// Checks that `count` items of at least `min_size` bytes each can still be in the input,
    /// before anything is reserved for them.
    #[inline]
    pub(crate) fn check_fits(&self, count: u64, min_size: u64, what: &'static str) -> Result<()> {
        if let Some(remaining) = self.read.remaining() {
            let needed = count.saturating_mul(min_size);
            if needed > remaining as u64 {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what,
                        len: count,
                        remaining,
                    },
                    self.read.offset(),
                ));
            }
        }
        Ok(())
    }

    /// Reads an Array or Dictionary count (bit 31 masked off) and checks that `count` items
    /// of `item`'s least size fit in the input.
    #[inline]
    pub(crate) fn read_count(&mut self, what: &'static str, item: Item) -> Result<u32> {
        let count = self.read_u32()? & COUNT_MASK;
        self.check_fits(count.into(), item.least_size().into(), what)?;
        Ok(count)
    }

    /// Reads a count Godot reads as `i32` where a negative one means none (a PackedStringArray's
    /// count, an Object's property count) and checks that `count` items of `item`'s least size
    /// fit in the input.
    #[inline]
    pub(crate) fn read_signed_count(&mut self, what: &'static str, item: Item) -> Result<u32> {
        let count = u32::try_from(self.read_i32()?).unwrap_or(0);
        self.check_fits(count.into(), item.least_size().into(), what)?;
        Ok(count)
    }

    /// The [`Hint`] for a container of `count` items of kind `item`, charged to the budget.
    #[inline]
    pub(crate) fn charge(&mut self, count: u32, item: Item) -> Hint {
        let size = item.charge();
        match self.read.remaining() {
            Some(remaining) => {
                let free = remaining.saturating_sub(self.reserved);
                let hinted = (count as usize).min(free / size as usize);
                self.reserved += hinted * size as usize;
                // `hinted` is at most `count`.
                let hinted = u32::try_from(hinted).unwrap_or(count).min(count);
                Hint {
                    unhinted: count - hinted,
                    size,
                }
            }
            None => Hint {
                unhinted: Hint::NONE,
                size,
            },
        }
    }

    /// A length Godot reads as `i32`: negative is an error.
    #[inline]
    pub(crate) fn read_len(&mut self, what: &'static str) -> Result<usize> {
        let offset = self.read.offset();
        let n = self.read_i32()?;
        string::field_len(n).ok_or_else(|| {
            Error::at(
                ErrorKind::NegativeLength {
                    what,
                    len: n.into(),
                },
                offset,
            )
        })
    }

    /// Reads a String field's length: where the field starts, the text's length, and its
    /// length with the padding, which must be present too (`decode_string`, 4.x).
    #[inline]
    pub(crate) fn string_len(&mut self) -> Result<(usize, usize, usize)> {
        let start = self.read.offset();
        let len = self.read_len("string length")?;
        let total = string::padded_len(len);
        if let Some(remaining) = self.read.remaining().filter(|&r| total > r) {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what: "string length (padded)",
                    len: total as u64,
                    remaining,
                },
                start,
            ));
        }
        Ok((start, len, total))
    }

    /// Reads a String field's bytes, padding included: where the field starts, the text's
    /// length and the bytes (see [`text`]).
    #[inline]
    pub(crate) fn read_field(&mut self) -> Result<(usize, usize, Reference<'de, '_, [u8]>)> {
        let (start, len, total) = self.string_len()?;
        let bytes = self.read_slice(total)?;
        Ok((start, len, bytes))
    }

    /// Reads a String field's text (`what` names it in an error), borrowed from the input
    /// when possible.
    #[inline]
    pub(crate) fn read_text(&mut self, what: &'static str) -> Result<Reference<'de, '_, str>> {
        let (start, len, bytes) = self.read_field()?;
        Ok(match bytes {
            Reference::Borrowed(b) => Reference::Borrowed(text(b, len, what, start)?),
            Reference::Copied(b) => Reference::Copied(text(b, len, what, start)?),
        })
    }

    /// Reads a String field's text as an owned `String`.
    pub(crate) fn read_string(&mut self, what: &'static str) -> Result<String> {
        self.read_text(what).map(|s| (*s).to_owned())
    }

    /// Reads a typed-container descriptor of `kind` (`docs/wire-format.md` §2.1).
    pub(crate) fn read_descriptor(&mut self, kind: u8) -> Result<Descriptor> {
        let offset = self.read.offset();
        let d = match kind {
            Descriptor::NONE => Descriptor::default(),
            Descriptor::BUILTIN => {
                let id = self.read_i32()?;
                Descriptor::builtin(id, self.version()).ok_or_else(|| {
                    Error::at(
                        ErrorKind::InvalidContainerType(
                            format!("builtin type id {id} out of range").into(),
                        ),
                        offset,
                    )
                })?
            }
            named => Descriptor::named(named, self.read_string(Descriptor::name_role(named))?),
        };
        // With objects Godot loads the script: a path that is empty or outside `res://` is
        // refused (the script itself is never loaded here).
        if self.config.allow_objects
            && d.kind == Descriptor::SCRIPT
            && !d.name.starts_with("res://")
        {
            return Err(Error::at(
                ErrorKind::InvalidContainerType(
                    format!("script path {:?} is not a res:// path", d.name).into(),
                ),
                offset,
            ));
        }
        // As Godot reads it: without objects, a container of objects (a class, a script, or
        // the class-less OBJECT) holds `EncodedObjectAsID`s; with them, an empty class name
        // is the class-less OBJECT.
        Ok(if !self.config.allow_objects && d.holds_objects() {
            Descriptor::encoded_object_as_id()
        } else if d.kind == Descriptor::CLASS_NAME && d.name.is_empty() {
            Descriptor::builtin(VariantType::Object as i32, self.version()).unwrap_or(d)
        } else {
            d
        })
    }

    /// The Array's descriptor (4.3+), or `None` when untyped.
    #[inline]
    pub(crate) fn array_descriptor(&mut self, h: Header) -> Result<Option<Descriptor>> {
        match h.array_kind(self.version()) {
            Descriptor::NONE => Ok(None),
            kind => {
                let d = self.read_descriptor(kind)?;
                Ok(d.is_typed().then_some(d))
            }
        }
    }

    /// The Dictionary's key and value descriptors (4.4+), or `None` when untyped.
    #[inline]
    pub(crate) fn dictionary_descriptors(
        &mut self,
        h: Header,
    ) -> Result<Option<(Descriptor, Descriptor)>> {
        let (key, value) = h.dictionary_kinds(self.version());
        if (key, value) == (Descriptor::NONE, Descriptor::NONE) {
            return Ok(None);
        }
        let k = self.read_descriptor(key)?;
        let v = self.read_descriptor(value)?;
        Ok((k.is_typed() || v.is_typed()).then_some((k, v)))
    }
}

/// A String field's text: the first `len` of `bytes`, cut at the first NUL, well-formed
/// UTF-8, one leading BOM removed ([`string::text`], `String::parse_utf8` in 4.x); `what` and
/// `offset` (where the field starts) name it in the error.
#[inline]
pub(crate) fn text<'b>(
    bytes: &'b [u8],
    len: usize,
    what: &'static str,
    offset: usize,
) -> Result<&'b str> {
    string::text(bytes, len).map_err(|_| Error::at(ErrorKind::InvalidUtf8 { what }, offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::SliceRead;

    fn reader(bytes: &[u8], config: Config) -> Reader<SliceRead<'_>> {
        Reader::new(SliceRead::new(bytes), config)
    }

    #[test]
    fn header_is_read_with_its_offset_and_checked_against_the_table() {
        // §2: int with the 64-bit flag is 0x00010002; id 0xEE is no type.
        let bytes = [0, 0, 0, 0, 0x02, 0, 0x01, 0, 0xEE, 0, 0, 0];
        let mut r = reader(&bytes, Config::godot4());
        let _ = r.read_u32().unwrap();
        let h = r.read_header().unwrap();
        assert_eq!((h.ty, h.flag(), h.offset), (VariantType::Int, true, 4));
        let e = r.read_header().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::UnknownType { id: 0xEE, .. }));
        assert_eq!(e.offset(), Some(8));
    }

    #[test]
    fn string_field_rules() {
        // §4.5: length 5, "\u{FEFF}hi" (a BOM, then "hi"), 3 bytes of padding.
        let bytes = [5, 0, 0, 0, 0xEF, 0xBB, 0xBF, b'h', b'i', 0, 0, 0];
        let mut r = reader(&bytes, Config::godot4());
        assert_eq!(&*r.read_text("String").unwrap(), "hi");
        assert_eq!(r.offset(), 12);
        // §6.2: the padding must be present.
        let e = reader(&bytes[..9], Config::godot4())
            .read_string("String")
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { len: 8, .. }));
        // A negative length.
        let e = reader(&[0xFF; 4], Config::godot4())
            .read_string("String")
            .unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::NegativeLength { len: -1, .. }
        ));
        // Bad UTF-8 is named and placed at the field.
        let e = reader(&[1, 0, 0, 0, 0xFF, 0, 0, 0], Config::godot4())
            .read_string("key")
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidUtf8 { what: "key" }));
        assert_eq!(e.offset(), Some(0));
    }

    #[test]
    fn budget_hints_at_most_one_item_per_charge_and_is_given_back() {
        // 16 bytes left: an Array claiming 100 elements is hinted 16 / 8 = 2 of them.
        let bytes = [0; 16];
        let mut r = reader(&bytes, Config::godot4());
        let outer = r.charge(100, Item::Element);
        assert_eq!(outer.get(100), Some(2));
        assert_eq!(r.reserved, 16);
        // An inner Dictionary finds nothing free.
        let inner = r.charge(10, Item::Entry);
        assert_eq!(inner.get(10), Some(0));
        inner.release(10, &mut r);
        // The first element gives its share back, the container the rest.
        outer.took_one(99, &mut r);
        assert_eq!(r.reserved, 8);
        outer.release(99, &mut r);
        assert_eq!(r.reserved, 0);
    }

    #[test]
    fn charges_are_twice_the_least_wire_size() {
        // §2-§4: an element is at least a header, an entry two, a PackedStringArray element
        // a length word, a property a name length and a header.
        assert_eq!(Item::Element.charge(), 8);
        assert_eq!(Item::PackedString.charge(), 8);
        assert_eq!(Item::Entry.charge(), 16);
        assert_eq!(Item::Property.charge(), 16);
    }
}
