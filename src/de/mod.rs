//! [`Deserializer`]: Godot Variant bytes → serde data model, accepting and rejecting what
//! `decode_variant` in `core/io/marshalls.cpp` does (stricter where documented).
//!
//! Godot data describes itself, so `deserialize_any` does the work. Values of types serde has
//! no word for (Vector2, StringName, packed arrays, typed containers, ...) are presented as a
//! one-entry map `{ "$godot_serde::Name": payload }`; see the marker protocol in `types`.

use crate::config::{Config, GodotVersion};
use crate::error::{Error, ErrorKind, Result, Segment};
use crate::read::{IoRead, Read, Reference, SliceRead};
use crate::types::{
    CALLABLE, Marker, OBJECT, OBJECT_ID, TYPED_ARRAY, TYPED_DICTIONARY, marker_inline, marker_name,
};
use crate::wire::{
    COUNT_MASK, Descriptor, FLAG_64, NodePathHead, Scalar, VariantType, has_nul, padding, string,
};
use serde::de::value::{BoolDeserializer, BorrowedStrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

mod access;
mod hint;
mod keys;
mod marker;
mod serde_impl;
mod variant;

use access::*;
pub(crate) use hint::with_engine_hint;
use keys::*;
use marker::*;

/// Reads Godot Variant bytes as serde values.
///
/// Most users call [`from_bytes`](crate::from_bytes) or [`Config::from_bytes`]; construct
/// one directly to decode several values from one input:
///
/// ```
/// use serde::Deserialize;
/// let bytes = [2, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
/// let mut de = godot_serde::Deserializer::from_slice(&bytes, godot_serde::Config::default());
/// assert_eq!(u8::deserialize(&mut de)?, 7);
/// assert!(bool::deserialize(&mut de)?);
/// de.end()?;
/// # Ok::<(), godot_serde::Error>(())
/// ```
pub struct Deserializer<R> {
    read: R,
    scratch: Vec<u8>,
    config: Config,
    /// Depth of the value about to be read (top level = 0), as Godot counts it.
    depth: usize,
    /// A header read ahead (by `deserialize_option`) and not consumed yet.
    peeked: Option<Header>,
    /// `peeked` was put back by `deserialize_option`.
    peeked_by_option: bool,
    /// Set while a Dictionary key (or property name) that is a String or StringName is being
    /// decoded: the offset of its header. The next Godot String field read is that key's
    /// text, which may not be a reserved marker name (see [`reserved_key`]).
    guard_key: Option<usize>,
    /// The types of `config.version`, indexed by type id.
    types: &'static [VariantType],
    /// The struct field-name lists known to need no check as keys.
    plain_lists: PlainLists,
    /// Input bytes the size hints of the open containers stand for (see [`Hint`]): their
    /// items not read yet, each charged its minimum size.
    reserved: usize,
}

/// The error for an int read as the variant of enum `name` without
/// [`EnumRepr::Index`](crate::EnumRepr::Index): in the name mode (the default) variants are
/// named, so a peer cannot pick one by its position, and reordering variants changes nothing.
#[cold]
pub(crate) fn enum_index_refused(name: &str, index: i64) -> Error {
    Error::new(ErrorKind::Message(
        format!(
            "invalid type: int {index}, expected a variant name of enum {name} \
             (variant indices are read only with EnumRepr::Index)"
        )
        .into(),
    ))
}

/// Stack a nesting level may use before the next one checks again: when less is left, the
/// next level runs on a new segment of [`STACK_SEGMENT`] bytes (heap-allocated by `stacker`).
/// A level takes at most about 20 KiB in unoptimized builds (typed Dictionaries), 3 KiB
/// optimized, plus what the visitor's own frames take; so every nesting shape, at any depth
/// limit, fits any thread, a 2 MiB one (Rust's spawned threads, tokio's workers) included.
pub(crate) const STACK_RED_ZONE: usize = 256 * 1024;

/// Size of each stack segment added when the red zone is reached.
pub(crate) const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// The type id of `ty` when it is the same in every version, else `u32::MAX` (no header
/// word): the words below are checked when compiling.
const fn shared_word(ty: VariantType) -> u32 {
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

/// Header words the direct paths match exactly (see [`Deserializer::next_word`]).
const INT_WORD: u32 = shared_word(VariantType::Int);
const FLOAT_WORD: u32 = shared_word(VariantType::Float);
const STRING_WORD: u32 = shared_word(VariantType::String);
const _: () = assert!(
    INT_WORD != u32::MAX && FLOAT_WORD != u32::MAX && STRING_WORD != u32::MAX,
    "int, float and String have the same id in every version"
);

/// A value's header word ([`wire::Header`](crate::wire::Header): type, flags, typed kinds)
/// and where it was read.
#[derive(Clone, Copy, Debug)]
struct Header {
    head: crate::wire::Header,
    offset: usize,
}

impl core::ops::Deref for Header {
    type Target = crate::wire::Header;
    fn deref(&self) -> &crate::wire::Header {
        &self.head
    }
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// Decodes from a byte slice; strings and byte arrays can be borrowed from it.
    #[must_use]
    pub fn from_slice(bytes: &'de [u8], config: Config) -> Self {
        Self::new(SliceRead::new(bytes), config)
    }

    /// The bytes after the last value read.
    #[must_use]
    pub fn rest(&self) -> &'de [u8] {
        self.read.rest()
    }

    /// Checks that the whole input was used.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TrailingBytes`] when bytes are left.
    pub fn end(&self) -> Result<()> {
        match self.read.rest().len() {
            0 => Ok(()),
            count => Err(Error::at(
                ErrorKind::TrailingBytes { count },
                self.read.offset(),
            )),
        }
    }
}

impl<R: std::io::Read> Deserializer<IoRead<R>> {
    /// Decodes from a reader, reading exactly the bytes of each value.
    pub fn from_reader(reader: R, config: Config) -> Self {
        Self::new(IoRead::new(reader), config)
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Decodes from any [`Read`] source.
    pub fn new(read: R, config: Config) -> Self {
        Deserializer {
            read,
            scratch: Vec::new(),
            config,
            depth: 0,
            peeked: None,
            peeked_by_option: false,
            guard_key: None,
            reserved: 0,
            types: VariantType::id_table(config.version),
            plain_lists: PlainLists::default(),
        }
    }

    /// Gives back the input source.
    pub fn into_inner(self) -> R {
        self.read
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.read.offset()
    }

    fn version(&self) -> GodotVersion {
        self.config.version
    }

    #[inline]
    fn read_u32(&mut self) -> Result<u32> {
        self.read.read_array().map(u32::from_le_bytes)
    }

    #[inline]
    /// The payload of an int whose header `h` was read: 32 bits, or 64 with the flag.
    fn read_int(&mut self, h: Header) -> Result<i64> {
        Ok(if h.flag() {
            i64::from_le_bytes(self.read.read_array()?)
        } else {
            self.read_i32()?.into()
        })
    }

    fn read_i32(&mut self) -> Result<i32> {
        self.read.read_array().map(i32::from_le_bytes)
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64> {
        self.read.read_array().map(u64::from_le_bytes)
    }

    #[inline]
    fn read_header(&mut self) -> Result<Header> {
        if self.peeked.is_some() {
            if let Some(h) = self.peeked.take() {
                self.peeked_by_option = false;
                return Ok(h);
            }
        }
        let offset = self.read.offset();
        if self.depth > self.config.max_depth {
            return Err(Error::at(
                ErrorKind::DepthLimitExceeded {
                    limit: self.config.max_depth,
                },
                offset,
            ));
        }
        let raw = self.read_u32()?;
        let head = crate::wire::Header::decode(raw, self.types).map_err(|id| {
            Error::at(
                ErrorKind::UnknownType {
                    id,
                    version: self.version(),
                },
                offset,
            )
        })?;
        Ok(Header { head, offset })
    }

    /// The next value's header word and the input after it, for the direct paths of the
    /// common scalars: each accepts a few exact words, reads its payload from the slice and
    /// leaves anything else (and any error) to the general path, which reads the same bytes.
    /// Only when the input is a slice, no header was read ahead, no key's text is to be
    /// checked and the depth allows one more value, so that the general path's checks hold.
    #[inline(always)]
    fn next_word(&self) -> Option<(u32, &'de [u8])> {
        if self.peeked.is_some() || self.guard_key.is_some() || self.depth > self.config.max_depth {
            return None;
        }
        let (word, rest) = self.read.unread()?.split_first_chunk::<4>()?;
        Some((u32::from_le_bytes(*word), rest))
    }

    /// An int read directly (see [`next_word`](Self::next_word)), with the bytes it took.
    #[inline(always)]
    fn direct_int(&mut self) -> Option<(i64, usize)> {
        let (word, rest) = self.next_word()?;
        let (v, rest, used) = if word == INT_WORD {
            let (b, rest) = rest.split_first_chunk::<4>()?;
            (i64::from(i32::from_le_bytes(*b)), rest, 8)
        } else if word == INT_WORD | FLAG_64 {
            let (b, rest) = rest.split_first_chunk::<8>()?;
            (i64::from_le_bytes(*b), rest, 12)
        } else {
            return None;
        };
        self.read.read_to(rest);
        Some((v, used))
    }

    /// A 32-bit float read directly (see [`next_word`](Self::next_word)).
    #[inline(always)]
    fn direct_f32(&mut self) -> Option<f32> {
        let (word, rest) = self.next_word()?;
        if word != FLOAT_WORD {
            return None;
        }
        let (b, rest) = rest.split_first_chunk::<4>()?;
        self.read.read_to(rest);
        Some(f32::from_le_bytes(*b))
    }

    /// A String read directly (see [`next_word`](Self::next_word)), with the bytes it took;
    /// `None` for anything `read_str` would refuse, which then says why.
    #[inline(always)]
    fn direct_str(&mut self) -> Option<(&'de str, usize)> {
        let (word, rest) = self.next_word()?;
        if word != STRING_WORD {
            return None;
        }
        let (len, rest) = rest.split_first_chunk::<4>()?;
        let len = usize::try_from(i32::from_le_bytes(*len)).ok()?;
        let total = string::padded_len(len);
        let (bytes, rest) = rest.split_at_checked(total)?;
        let s = string::text(bytes, len).ok()?;
        self.read.read_to(rest);
        Some((s, 8 + total))
    }

    /// `e`, an error of a value read directly that took `used` bytes, placed at its header.
    #[cold]
    fn direct_error(&self, e: Error, used: usize) -> Error {
        e.or_at(self.read.offset() - used)
    }

    /// An int-typed `deserialize_*`: an int directly, anything else as a scalar.
    #[inline(always)]
    fn int_scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.direct_int() {
            Some((v, used)) => visitor.visit_i64(v).map_err(|e| self.direct_error(e, used)),
            None => self.scalar(visitor),
        }
    }

    /// A string-typed `deserialize_*`: a String directly, anything else as a scalar.
    #[inline(always)]
    fn str_scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.direct_str() {
            Some((s, used)) => visitor
                .visit_borrowed_str(s)
                .map_err(|e| self.direct_error(e, used)),
            None => self.scalar(visitor),
        }
    }

    /// Checks that `count` items of at least `min_size` bytes each can still be in the input,
    /// before anything is reserved for them.
    fn check_fits(&self, count: u64, min_size: u64, what: &'static str) -> Result<()> {
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

    /// The [`Hint`] for a container of `count` items charged `size` bytes each, charged.
    fn charge(&mut self, count: u32, size: u32) -> Hint {
        match self.read.remaining() {
            Some(remaining) => {
                let free = remaining.saturating_sub(self.reserved);
                let hinted = (count as usize).min(free / size as usize);
                self.reserved += hinted * size as usize;
                Hint::new(count, hinted, size)
            }
            None => Hint::none(size),
        }
    }

    /// A length Godot reads as `i32`: negative is an error.
    fn read_len(&mut self, what: &'static str) -> Result<usize> {
        let offset = self.read.offset();
        let n = self.read_i32()?;
        usize::try_from(n).map_err(|_| {
            Error::at(
                ErrorKind::NegativeLength {
                    what,
                    len: n.into(),
                },
                offset,
            )
        })
    }

    /// Reads a Godot String field's length: where the field starts, the text's length, and
    /// its length with the padding, which must be present too (`decode_string`, 4.x).
    #[inline]
    fn string_len(&mut self) -> Result<(usize, usize, usize)> {
        let start = self.read.offset();
        let len = self.read_len("string length")?;
        let total = string::padded_len(len);
        if self.read.remaining().is_some_and(|r| total > r) {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what: "string length (padded)",
                    len: total as u64,
                    remaining: self.read.remaining().unwrap_or(0),
                },
                start,
            ));
        }
        Ok((start, len, total))
    }

    /// Reads a Godot String field (length, UTF-8, padding that must be present) and visits
    /// the text, borrowed from the input when possible.
    fn read_str<V: Visitor<'de>>(&mut self, what: &'static str, visitor: V) -> Result<V::Value> {
        let (start, len, total) = self.string_len()?;
        let guard = self.guard_key.take();
        match self.read.read_slice(total, &mut self.scratch)? {
            Reference::Borrowed(bytes) => {
                let s = text(bytes, len, what, start)?;
                if let Some(at) = guard {
                    reserved_key(s, at)?;
                }
                visitor.visit_borrowed_str(s)
            }
            Reference::Copied(bytes) => {
                let s = text(bytes, len, what, start)?;
                if let Some(at) = guard {
                    reserved_key(s, at)?;
                }
                visitor.visit_str(s)
            }
        }
    }

    fn read_string(&mut self, what: &'static str) -> Result<String> {
        self.read_str(what, StringVisitor)
    }

    /// [`read_str`](Self::read_str) for a struct's key: when the bytes are one of the
    /// struct's field names exactly, that name (a `&'static str`, the same text) is visited,
    /// which spares the UTF-8 check; anything else is read as before and, when `guard` (the
    /// key's header offset) is set, checked by [`reserved_key`]. A field name that matches
    /// needs no check: [`KnownKeys::find`] matches no name a reserved one could be.
    #[inline]
    fn read_key<V: Visitor<'de>>(
        &mut self,
        keys: &mut KnownKeys,
        guard: Option<usize>,
        visitor: V,
    ) -> Result<V::Value> {
        let (start, len, total) = self.string_len()?;
        match self.read.read_slice(total, &mut self.scratch)? {
            Reference::Borrowed(bytes) => match keys.find(bytes, len) {
                Some(name) => visitor.visit_borrowed_str(name),
                None => {
                    visitor.visit_borrowed_str(checked(text(bytes, len, "key", start)?, guard)?)
                }
            },
            Reference::Copied(bytes) => match keys.find(bytes, len) {
                Some(name) => visitor.visit_str(name),
                None => visitor.visit_str(checked(text(bytes, len, "key", start)?, guard)?),
            },
        }
    }

    /// Reads a typed-container descriptor of `kind` (`docs/wire-format.md` §2.1).
    fn read_descriptor(&mut self, kind: u8) -> Result<Descriptor> {
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
    fn array_descriptor(&mut self, h: Header) -> Result<Option<Descriptor>> {
        match h.array_kind(self.version()) {
            Descriptor::NONE => Ok(None),
            kind => {
                let d = self.read_descriptor(kind)?;
                Ok(d.is_typed().then_some(d))
            }
        }
    }

    /// Reads the Array's descriptor, if any, and drops it (the elements are what is wanted).
    #[inline]
    fn skip_array_descriptor(&mut self, h: Header) -> Result<()> {
        if !h.may_be_typed() {
            return Ok(());
        }
        self.array_descriptor(h).map(drop)
    }

    /// Reads the Dictionary's descriptors, if any, and drops them (the entries are what is
    /// wanted).
    #[inline]
    fn skip_dictionary_descriptors(&mut self, h: Header) -> Result<()> {
        if !h.may_be_typed() {
            return Ok(());
        }
        self.dictionary_descriptors(h).map(drop)
    }

    /// The Dictionary's key and value descriptors (4.4+), or `None` when untyped.
    #[inline]
    fn dictionary_descriptors(&mut self, h: Header) -> Result<Option<(Descriptor, Descriptor)>> {
        let (key, value) = h.dictionary_kinds(self.version());
        if (key, value) == (Descriptor::NONE, Descriptor::NONE) {
            return Ok(None);
        }
        let k = self.read_descriptor(key)?;
        let v = self.read_descriptor(value)?;
        Ok((k.is_typed() || v.is_typed()).then_some((k, v)))
    }

    fn read_count(&mut self, what: &'static str, min_size: u64) -> Result<u32> {
        let count = self.read_u32()? & COUNT_MASK;
        self.check_fits(count.into(), min_size, what)?;
        Ok(count)
    }

    /// Reads the next key's header ahead: a String or StringName key's text will be checked by
    /// [`reserved_key`] when it is read.
    #[inline]
    fn guard_next_key(&mut self) -> Result<()> {
        let h = self.read_header()?;
        if matches!(h.ty, VariantType::String | VariantType::StringName) {
            self.guard_key = Some(h.offset);
        }
        self.peeked = Some(h);
        Ok(())
    }

    /// Runs `f` one level deeper (elements, keys, values, properties), on a new stack
    /// segment when the thread's stack is nearly used up (see [`STACK_RED_ZONE`]).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.nested_every(1, f)
    }

    /// [`nested`](Self::nested), checking the stack left only at every `levels`-th level (for
    /// callers whose levels are small enough that `levels` of them fit the red zone).
    #[inline]
    fn nested_every<T>(
        &mut self,
        levels: usize,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.depth += 1;
        let r = if self.depth.is_multiple_of(levels) {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || f(self))
        } else {
            f(self)
        };
        self.depth -= 1;
        r
    }

    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let count = self.read_count("Array count", 4)?;
        self.nested(|de| {
            let mut access = ArrayAccess::new(de, count);
            let value = visitor.visit_seq(&mut access)?;
            access.finish(count)?;
            Ok(value)
        })
    }

    /// A Dictionary's entries for a visitor whose keys are `fields` (a struct's, or none).
    /// No key may be a reserved marker name (see [`reserved_key`]).
    fn visit_dictionary<V: Visitor<'de>>(
        &mut self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let count = self.read_count("Dictionary count", 8)?;
        self.nested(|de| {
            let mut access = DictionaryAccess::new(de, count, fields);
            let value = visitor.visit_map(&mut access)?;
            access.finish(count)?;
            Ok(value)
        })
    }

    /// Whether a value's float components are f64 (the 4.x double-build flag).
    #[inline]
    fn wide(&self, h: Header) -> bool {
        h.wide(self.version())
    }

    /// Visits a value whose header has been read.
    fn visit_value<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        match h.ty {
            VariantType::Nil => visitor.visit_unit(),
            VariantType::Bool => visitor.visit_bool(self.read_u32()? != 0),
            VariantType::Int if h.flag() => {
                visitor.visit_i64(i64::from_le_bytes(self.read.read_array()?))
            }
            VariantType::Int => visitor.visit_i64(self.read_i32()?.into()),
            VariantType::Float if h.flag() => {
                visitor.visit_f64(f64::from_le_bytes(self.read.read_array()?))
            }
            VariantType::Float => {
                visitor.visit_f64(f32::from_le_bytes(self.read.read_array()?).into())
            }
            VariantType::String => self.read_str("String", visitor),
            VariantType::Array => match self.array_descriptor(h)? {
                Some(d) => {
                    visitor.visit_map(MarkerAccess::new(self, TYPED_ARRAY, Payload::TypedArray(d)))
                }
                None => self.visit_array(visitor),
            },
            VariantType::Dictionary => match self.dictionary_descriptors(h)? {
                Some((k, v)) => visitor.visit_map(MarkerAccess::new(
                    self,
                    TYPED_DICTIONARY,
                    Payload::TypedDictionary(k, v),
                )),
                None => self.visit_dictionary(&[], visitor),
            },
            VariantType::Object => self.visit_object(h, visitor),
            ty => {
                let wide = h.wide(self.version());
                let payload = Payload::for_type(ty, wide);
                let name = marker_name(ty, wide).unwrap_or(CALLABLE);
                visitor.visit_map(MarkerAccess::new(self, name, payload))
            }
        }
    }

    fn visit_object<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        if h.object_as_id() {
            return match self.read_u64()? {
                // Instance id 0 is the null object.
                0 => visitor.visit_unit(),
                id => visitor.visit_map(MarkerAccess::new(self, OBJECT_ID, Payload::Id(id))),
            };
        }
        if !self.config.allow_objects {
            // Godot refuses before reading anything; the class name only improves the message.
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
            return visitor.visit_unit();
        }
        // A negative property count means none (`decode_variant`, 3.x and 4.x).
        let count = u32::try_from(self.read_i32()?).unwrap_or(0);
        // Each property is at least a name length and a header.
        self.check_fits(count.into(), 8, "object property count")?;
        visitor.visit_map(MarkerAccess::new(
            self,
            OBJECT,
            Payload::Object { class, count },
        ))
    }

    /// The error for a value of Godot type `h.ty` where the visitor wanted something else.
    #[cold]
    fn unexpected<V: Visitor<'de>>(&self, h: Header, visitor: &V) -> Error {
        de::Error::invalid_type(Unexpected::Other(h.ty.name_in(self.version())), visitor)
    }

    /// `deserialize_f32`'s general path: a float (a 64-bit one within f32's range), or a
    /// scalar the visitor judges.
    #[inline(never)]
    fn f32_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            // A 64-bit float beyond f32's range would become infinite: an error instead.
            VariantType::Float if h.flag() => {
                let v = f64::from_le_bytes(self.read.read_array()?);
                fits_f32(v).and_then(|()| visitor.visit_f64(v))
            }
            VariantType::Float => visitor.visit_f32(f32::from_le_bytes(self.read.read_array()?)),
            VariantType::Nil | VariantType::Bool | VariantType::Int | VariantType::String => {
                self.visit_value(h, visitor)
            }
            VariantType::StringName => self.read_str("StringName", visitor),
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// Scalars: nil, bool, int, float, String and StringName are visited (the visitor judges
    /// the fit, e.g. an int into a float); anything else is an error naming the Godot type.
    #[inline(never)]
    fn scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        self.scalar_at(h, visitor)
    }

    /// [`scalar`](Self::scalar) with the header read.
    #[inline]
    fn scalar_at<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        let r = match h.ty {
            VariantType::Nil
            | VariantType::Bool
            | VariantType::Int
            | VariantType::Float
            | VariantType::String => self.visit_value(h, visitor),
            VariantType::StringName => self.read_str("StringName", visitor),
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// A marker type asked for by name: the value must have that Godot type.
    fn marker_value<V: Visitor<'de>>(&mut self, m: Marker, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::Array if m.typed && m.ty == VariantType::Array => {
                let d = self.array_descriptor(h)?.unwrap_or_default();
                visitor.visit_map(MarkerAccess::new(self, TYPED_ARRAY, Payload::TypedArray(d)))
            }
            VariantType::Dictionary if m.typed && m.ty == VariantType::Dictionary => {
                let (k, v) = self.dictionary_descriptors(h)?.unwrap_or_default();
                visitor.visit_map(MarkerAccess::new(
                    self,
                    TYPED_DICTIONARY,
                    Payload::TypedDictionary(k, v),
                ))
            }
            // The null object is an ObjectId of 0.
            VariantType::Nil if m.as_id => {
                visitor.visit_map(MarkerAccess::new(self, OBJECT_ID, Payload::Id(0)))
            }
            // Any id, 0 (the null object, which `deserialize_any` gives as unit) included.
            VariantType::Object if m.as_id && h.object_as_id() => {
                let id = self.read_u64()?;
                visitor.visit_map(MarkerAccess::new(self, OBJECT_ID, Payload::Id(id)))
            }
            VariantType::Object if m.as_id == h.object_as_id() => self.visit_value(h, visitor),
            // Godot code often sends a String where a StringName is expected.
            VariantType::String if m.ty == VariantType::StringName => self.visit_value(h, visitor),
            // Asked for by its own name (only the marker type's `Deserialize` does that), a
            // math type comes as the sequence of its components and a PackedStringArray as
            // its strings, which those visitors accept: the same value without the one-entry
            // map, which stays for `deserialize_any` (buffering, `Variant`).
            ty if ty == m.ty && !m.typed => match Payload::for_type(ty, self.wide(h)) {
                Payload::Components(n, comp) => {
                    let mut seq = ComponentSeq {
                        de: self,
                        left: n,
                        comp,
                    };
                    let value = visitor.visit_seq(&mut seq)?;
                    seq.finish()?;
                    Ok(value)
                }
                Payload::PackedStrings => self.visit_packed_strings(visitor),
                _ if ty == VariantType::Object => Err(self.unexpected(h, &visitor)),
                _ => self.visit_value(h, visitor),
            },
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// The next struct field name in declaration order, read, when the input (a slice) has
    /// it next as a String key: what [`identifier`](Self::identifier) would visit, without
    /// decoding the header and length. `None` when anything differs (the general path reads
    /// the key then, and reports any error).
    #[inline(always)]
    fn expected_key(&mut self, keys: &mut KnownKeys) -> Option<&'static str> {
        // (`keys` knows whether the depth allows the keys.)
        if self.peeked.is_some() {
            return None;
        }
        let (name, rest) = keys.expected(self.read.unread()?)?;
        self.read.read_to(rest);
        Some(name)
    }

    /// `deserialize_identifier`: a String or StringName is a key (checked against `keys`),
    /// a non-negative 32-bit int a field index, anything else is visited as it is. `key`:
    /// this is a Dictionary key, whose text may not be a reserved name (see
    /// [`reserved_key`]); otherwise the check is made only when a key's header was read
    /// ahead ([`guard_next_key`](Self::guard_next_key)).
    #[inline]
    fn identifier<V: Visitor<'de>>(
        &mut self,
        keys: &mut KnownKeys,
        key: bool,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::String | VariantType::StringName => {
                let guard = if key {
                    Some(h.offset)
                } else {
                    self.guard_key.take()
                };
                self.read_key(keys, guard, visitor)
            }
            VariantType::Int if !h.flag() => match u64::try_from(self.read_i32()?) {
                Ok(n) => visitor.visit_u64(n),
                Err(_) => Err(self.unexpected(h, &visitor)),
            },
            _ => self.visit_value(h, visitor),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// [`identifier`](Self::identifier) for a Dictionary key, out of line: the general path
    /// of [`KeyDe`], whose direct path is inlined.
    #[inline(never)]
    fn key_identifier<V: Visitor<'de>>(
        &mut self,
        keys: &mut KnownKeys,
        visitor: V,
    ) -> Result<V::Value> {
        self.identifier(keys, true, visitor)
    }

    /// A Dictionary key read by `read` (given its header): a String or StringName key's text
    /// is checked by [`reserved_key`] when it is read.
    #[inline]
    fn key_with<V: Visitor<'de>>(
        &mut self,
        visitor: V,
        read: impl FnOnce(&mut Self, Header, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        if matches!(h.ty, VariantType::String | VariantType::StringName) {
            self.guard_key = Some(h.offset);
        }
        let r = read(self, h, visitor).map_err(|e| e.or_at(h.offset));
        self.guard_key = None;
        r
    }

    /// [`marker_value`](Self::marker_value) for a math type (`n` components of `scalar`):
    /// the value of that type is visited as the sequence of its components; any other type
    /// goes the general way.
    #[inline(always)]
    fn math_value<V: Visitor<'de>>(
        &mut self,
        m: Marker,
        n: u8,
        scalar: Scalar,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        if h.ty != m.ty {
            self.peeked = Some(h);
            return self.other_marker_value(m, visitor);
        }
        let comp = scalar.on_wire(self.wide(h));
        let mut seq = ComponentSeq {
            de: self,
            left: n,
            comp,
        };
        let r = visitor
            .visit_seq(&mut seq)
            .and_then(|value| seq.finish().map(|()| value));
        r.map_err(|e| e.or_at(h.offset))
    }

    /// [`marker_value`](Self::marker_value), out of line: the path of a math type's value
    /// of another type.
    #[inline(never)]
    fn other_marker_value<V: Visitor<'de>>(&mut self, m: Marker, visitor: V) -> Result<V::Value> {
        self.marker_value(m, visitor)
    }

    /// Visits PackedStringArray elements as a sequence of strings.
    fn visit_packed_strings<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        // A negative count is an empty array (`decode_variant`, PACKED_STRING_ARRAY).
        let count = u32::try_from(self.read_i32()?).unwrap_or(0);
        self.check_fits(count.into(), 4, "PackedStringArray count")?;
        visitor.visit_seq(StrSeq::new(self, count, "PackedStringArray element"))
    }

    /// Reads PackedByteArray bytes (its padding may be missing at the end of the input).
    fn visit_packed_bytes<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let len = self.read_len("PackedByteArray count")?;
        self.check_fits(len as u64, 1, "PackedByteArray count")?;
        let value = match self.read.read_slice(len, &mut self.scratch)? {
            Reference::Borrowed(b) => visitor.visit_borrowed_bytes::<Error>(b),
            Reference::Copied(b) => visitor.visit_bytes::<Error>(b),
        }?;
        self.read.skip_padding(padding(len))?;
        Ok(value)
    }
}

/// Cuts Godot String bytes to text: the first `len` bytes, up to the first NUL, well-formed
/// UTF-8, one leading BOM removed (`String::parse_utf8`, 4.x).
fn text<'b>(bytes: &'b [u8], len: usize, what: &'static str, offset: usize) -> Result<&'b str> {
    string::text(bytes, len).map_err(|_| Error::at(ErrorKind::InvalidUtf8 { what }, offset))
}

struct StringVisitor;

impl Visitor<'_> for StringVisitor {
    type Value = String;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<String, E> {
        Ok(v.to_owned())
    }
}
