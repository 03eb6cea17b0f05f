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
    COUNT_MASK, Descriptor, NodePathHead, Scalar, VariantType, has_nul, padding, string,
};
use serde::de::value::{BoolDeserializer, BorrowedStrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

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
    /// Input bytes the size hints of the open containers stand for (see [`Hint`]): their
    /// items not read yet, each charged its minimum size.
    reserved: usize,
}

/// A container's size hint and its share of [`Deserializer::reserved`].
///
/// A hint is the claimed count, but never more items than the input bytes left hold once the
/// open containers' hints are taken away, so that the reservations of all open containers
/// together stay within the input's length: 128 nested Arrays each claiming everything left
/// reserve it once, not 128 times. Each item read gives its share back, and so does the
/// container when it ends (or fails).
#[derive(Clone, Copy, Debug)]
struct Hint {
    /// Hinted items not read yet; `usize::MAX` when the input's length is unknown (a reader),
    /// where no hint is given.
    left: usize,
    /// Bytes charged per item.
    size: usize,
}

impl Hint {
    const NONE: usize = usize::MAX;

    /// The size hint to give the visitor.
    fn get(self) -> Option<usize> {
        (self.left != Self::NONE).then_some(self.left)
    }

    /// One item was read: its share is given back.
    #[inline]
    fn took_one<R>(&mut self, de: &mut Deserializer<R>) {
        if self.left != Self::NONE && self.left > 0 {
            self.left -= 1;
            de.reserved -= self.size;
        }
    }

    /// The container ended: what is left of its share is given back.
    fn release<R>(&mut self, de: &mut Deserializer<R>) {
        if self.left != Self::NONE {
            de.reserved -= self.left * self.size;
            self.left = 0;
        }
    }
}

/// Stack a nesting level may use before the next one checks again: when less is left, the
/// next level runs on a new segment of [`STACK_SEGMENT`] bytes (heap-allocated by `stacker`).
/// A level takes at most about 20 KiB in unoptimized builds (typed Dictionaries), 3 KiB
/// optimized, plus what the visitor's own frames take; so every nesting shape, at any depth
/// limit, fits any thread, a 2 MiB one (Rust's spawned threads, tokio's workers) included.
const STACK_RED_ZONE: usize = 256 * 1024;

/// Size of each stack segment added when the red zone is reached.
const STACK_SEGMENT: usize = 2 * 1024 * 1024;

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
    fn charge(&mut self, count: u32, size: usize) -> Hint {
        match self.read.remaining() {
            Some(remaining) => {
                let free = remaining.saturating_sub(self.reserved);
                let left = (count as usize).min(free / size);
                self.reserved += left * size;
                Hint { left, size }
            }
            None => Hint {
                left: Hint::NONE,
                size,
            },
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
    /// which spares the UTF-8 check; anything else is read as before.
    #[inline]
    fn read_key<V: Visitor<'de>>(&mut self, keys: &mut KnownKeys, visitor: V) -> Result<V::Value> {
        let (start, len, total) = self.string_len()?;
        let guard = self.guard_key.take();
        match self.read.read_slice(total, &mut self.scratch)? {
            Reference::Borrowed(bytes) => match keys.find(bytes, len) {
                Some(name) => visitor.visit_borrowed_str(checked(name, guard)?),
                None => {
                    visitor.visit_borrowed_str(checked(text(bytes, len, "key", start)?, guard)?)
                }
            },
            Reference::Copied(bytes) => match keys.find(bytes, len) {
                Some(name) => visitor.visit_str(checked(name, guard)?),
                None => visitor.visit_str(checked(text(bytes, len, "key", start)?, guard)?),
            },
        }
    }

    /// Reads a typed-container descriptor of `kind` (`docs/wire-format.md` §2.1).
    fn read_descriptor(&mut self, kind: u8) -> Result<Descriptor> {
        let offset = self.read.offset();
        Ok(match kind {
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
        self.depth += 1;
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || f(self));
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

    /// Scalars: nil, bool, int, float, String and StringName are visited (the visitor judges
    /// the fit, e.g. an int into a float); anything else is an error naming the Godot type.
    fn scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
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

    /// `deserialize_identifier`: a String or StringName is a key (checked against `keys`),
    /// a non-negative 32-bit int a field index, anything else is visited as it is.
    #[inline]
    fn identifier<V: Visitor<'de>>(
        &mut self,
        keys: &mut KnownKeys,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::String | VariantType::StringName => self.read_key(keys, visitor),
            VariantType::Int if !h.flag() => match u64::try_from(self.read_i32()?) {
                Ok(n) => visitor.visit_u64(n),
                Err(_) => Err(self.unexpected(h, &visitor)),
            },
            _ => self.visit_value(h, visitor),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// [`marker_value`](Self::marker_value) for a math type (`n` components of `scalar`):
    /// the value of that type is visited as the sequence of its components; any other type
    /// goes the general way.
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
            return self.marker_value(m, visitor);
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

/// `e`, the error of decoding `bytes` as a `T` with `config`, with
/// [`Error::decodes_as`] set when the other engine's layout decodes them (`whole`: all of
/// them, as [`Config::from_bytes`] requires). Runs only on the error path.
#[cold]
#[inline(never)]
pub(crate) fn with_engine_hint<'de, T: de::Deserialize<'de>>(
    e: Error,
    bytes: &'de [u8],
    config: Config,
    whole: bool,
) -> Error {
    if matches!(e.kind(), ErrorKind::Io(_)) || bytes.is_empty() {
        return e;
    }
    let other = if config.version.is_godot4() {
        GodotVersion::V3
    } else {
        GodotVersion::V4_4
    };
    let mut de = Deserializer::from_slice(bytes, config.with_version(other));
    let decodes = T::deserialize(&mut de).is_ok() && (!whole || de.end().is_ok());
    if decodes { e.with_decodes_as(other) } else { e }
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

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        self.visit_value(h, visitor).map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
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
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::PackedByteArray => self.visit_packed_bytes(visitor),
            VariantType::Array | VariantType::String => self.visit_value(h, visitor),
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A header already read ahead: an Option inside an Option (or a type that recurses
        // through `Option`, `struct Chain(Option<Box<Chain>>)`) reads the same header again
        // without consuming input, so such a step counts as a level, or it would recurse
        // until the stack overflows.
        let again = self.peeked.is_some() && self.peeked_by_option;
        let h = self.read_header()?;
        if h.ty == VariantType::Nil {
            return visitor.visit_none();
        }
        self.peeked = Some(h);
        self.peeked_by_option = true;
        if !again {
            return visitor.visit_some(self);
        }
        if self.depth >= self.config.max_depth {
            return Err(Error::at(
                ErrorKind::DepthLimitExceeded {
                    limit: self.config.max_depth,
                },
                h.offset,
            ));
        }
        self.nested(|de| visitor.visit_some(de))
    }

    #[inline(always)]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            return self.marker_value(m, visitor);
        }
        self.scalar(visitor)
    }

    #[inline(always)]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            return self.marker_value(m, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::Array => {
                self.skip_array_descriptor(h)?;
                self.visit_array(visitor)
            }
            VariantType::PackedStringArray => self.visit_packed_strings(visitor),
            ty if Elem::of(ty).is_some() => {
                let wide = h.wide(self.version());
                let elem = Elem::of(ty).unwrap_or(Elem::BYTE);
                self.visit_packed_elements(elem, wide, visitor)
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline(always)]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            if let Some((n, scalar)) = m.ty.components() {
                return self.math_value(m, n, scalar, visitor);
            }
            return self.marker_value(m, visitor);
        }
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::Dictionary => {
                self.skip_dictionary_descriptors(h)?;
                self.visit_dictionary(&[], visitor)
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::Dictionary => {
                self.skip_dictionary_descriptors(h)?;
                self.visit_dictionary(fields, visitor)
            }
            VariantType::Array => {
                self.skip_array_descriptor(h)?;
                self.visit_array(visitor)
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::String | VariantType::StringName => {
                self.read_str("enum variant", UnitEnum(visitor))
            }
            VariantType::Int => {
                let index = if h.flag() {
                    i64::from_le_bytes(self.read.read_array()?)
                } else {
                    self.read_i32()?.into()
                };
                let index = u32::try_from(index).map_err(|_| {
                    <Error as de::Error>::invalid_value(
                        Unexpected::Signed(index),
                        &"a variant index",
                    )
                })?;
                visitor.visit_enum(de::value::U32Deserializer::<Error>::new(index))
            }
            VariantType::Dictionary => {
                self.skip_dictionary_descriptors(h)?;
                let count = self.read_u32()? & COUNT_MASK;
                if count != 1 {
                    return Err(Error::at(
                        ErrorKind::Message(
                            format!("invalid enum: a Dictionary of {count} entries, expected 1")
                                .into(),
                        ),
                        h.offset,
                    ));
                }
                let key_at = self.read.offset();
                self.nested(|de| visitor.visit_enum(EnumDictionary { de, key_at }))
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.identifier(&mut KnownKeys::new(&[]), visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Visits a String as a unit enum variant.
struct UnitEnum<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitEnum<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(BorrowedStrDeserializer::new(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(v.to_owned().into_deserializer())
    }
}

/// An enum variant with data: a one-entry Dictionary `{variant: payload}`.
struct EnumDictionary<'a, R> {
    de: &'a mut Deserializer<R>,
    /// Where the variant's key starts (to name it in an error of the payload).
    key_at: usize,
}

impl<'de, R: Read<'de>> EnumAccess<'de> for EnumDictionary<'_, R> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        self.de.guard_next_key()?;
        let variant = seed.deserialize(&mut *self.de);
        self.de.guard_key = None;
        Ok((variant?, self))
    }
}

impl<'de, R: Read<'de>> VariantAccess<'de> for EnumDictionary<'_, R> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de).map(|de::IgnoredAny| ())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
}

/// Array elements.
struct ArrayAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: u32,
    /// The element count (the index of an element that fails is `count - left - 1`).
    count: u32,
    hint: Hint,
}

impl<'a, 'de, R: Read<'de>> ArrayAccess<'a, R> {
    fn new(de: &'a mut Deserializer<R>, count: u32) -> Self {
        // Small enough that a forged count reserves little: every element takes at least 4
        // bytes, a decoded one often 8 times that.
        let hint = de.charge(count, 32);
        ArrayAccess {
            de,
            left: count,
            count,
            hint,
        }
    }
}

impl<R> Drop for ArrayAccess<'_, R> {
    fn drop(&mut self) {
        self.hint.release(self.de);
    }
}

impl<R> ArrayAccess<'_, R> {
    fn finish(&self, count: u32) -> Result<()> {
        all_read(self.left, count, "elements")
    }
}

/// An error unless the visitor took every one of the `count` elements or entries.
fn all_read(left: u32, count: u32, unit: &str) -> Result<()> {
    if left == 0 {
        return Ok(());
    }
    Err(de::Error::invalid_length(
        count as usize,
        &format!("{} {unit}", count - left).as_str(),
    ))
}

impl<'de, R: Read<'de>> SeqAccess<'de> for ArrayAccess<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.hint.took_one(self.de);
        match seed.deserialize(&mut *self.de) {
            Ok(value) => Ok(Some(value)),
            Err(e) => Err(e.in_segment(Segment::Index((self.count - self.left - 1) as usize))),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.hint.get()
    }
}

/// Dictionary entries.
struct DictionaryAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: u32,
    /// The struct field names the keys are expected to be (none for a map).
    keys: KnownKeys,
    /// Where the current entry's key starts (to name it in an error of its value).
    key_at: usize,
    hint: Hint,
}

impl<'a, 'de, R: Read<'de>> DictionaryAccess<'a, R> {
    fn new(de: &'a mut Deserializer<R>, count: u32, fields: &'static [&'static str]) -> Self {
        let hint = de.charge(count, 64);
        DictionaryAccess {
            de,
            left: count,
            keys: KnownKeys::new(fields),
            key_at: 0,
            hint,
        }
    }
}

impl<R> Drop for DictionaryAccess<'_, R> {
    fn drop(&mut self) {
        self.hint.release(self.de);
    }
}

impl<R> DictionaryAccess<'_, R> {
    fn finish(&self, count: u32) -> Result<()> {
        all_read(self.left, count, "entries")
    }
}

impl<'de, R: Read<'de>> DictionaryAccess<'_, R> {
    /// `e`, an error of the current entry's value, with the entry's key added to its path:
    /// the struct field it matched, else the key read again from the input when that is a
    /// slice, else where the key starts.
    #[cold]
    fn in_entry(&self, e: Error) -> Error {
        if let Some(name) = self.keys.last {
            return e.in_segment(Segment::Field(name));
        }
        e.in_segment(self.de.key_path(self.key_at))
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// A path step for the Dictionary key that starts at byte `key_at`: read again from the
    /// input when that is a slice, else where it starts.
    #[cold]
    fn key_path(&self, key_at: usize) -> Segment {
        self.read
            .input_from(key_at)
            .and_then(|bytes| key_segment(bytes, self.config))
            .unwrap_or(Segment::KeyAt(key_at))
    }
}

/// A path step for the Dictionary key at the start of `bytes`: its text (String,
/// StringName) or number (int); `None` for other keys.
#[cold]
fn key_segment(bytes: &[u8], config: Config) -> Option<Segment> {
    let mut de = Deserializer::from_slice(bytes, config);
    let h = de.read_header().ok()?;
    match h.ty {
        VariantType::String | VariantType::StringName => {
            Some(Segment::Key(de.read_string("key").ok()?.into()))
        }
        VariantType::Int if h.flag() => Some(Segment::IntKey(i64::from_le_bytes(
            de.read.read_array().ok()?,
        ))),
        VariantType::Int => Some(Segment::IntKey(de.read_i32().ok()?.into())),
        _ => None,
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for DictionaryAccess<'_, R> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.key_at = self.de.read.offset();
        self.keys.last = None;
        self.hint.took_one(self.de);
        // Every key is checked, whatever the visitor: serde's buffering (`flatten`, internally
        // tagged enums) takes matched keys out, so any key may become the first one a
        // self-describing visitor sees.
        self.de.guard_next_key()?;
        let key = seed.deserialize(KeyDe {
            de: &mut *self.de,
            keys: &mut self.keys,
        });
        self.de.guard_key = None;
        key.map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match seed.deserialize(&mut *self.de) {
            Ok(value) => Ok(value),
            Err(e) => Err(self.in_entry(e)),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.hint.get()
    }
}

/// A struct's field names, and which one the next key most likely is (keys usually come in
/// declaration order, as serializers write them).
struct KnownKeys {
    names: &'static [&'static str],
    next: usize,
    /// The name the current key matched, if it did (for error paths).
    last: Option<&'static str>,
}

impl KnownKeys {
    fn new(names: &'static [&'static str]) -> Self {
        KnownKeys {
            names,
            next: 0,
            last: None,
        }
    }

    /// The field name whose text the Godot String bytes `bytes` (length `len`, then padding)
    /// decode to, when it is one of them byte for byte; `None` sends the key down the general
    /// path. A name `text` would change (one with a NUL or a leading BOM) never matches, so a
    /// match is exactly what `text` gives.
    #[inline(always)]
    fn find(&mut self, bytes: &[u8], len: usize) -> Option<&'static str> {
        let key = bytes.get(..len)?;
        let (index, name) = match self.names.get(self.next) {
            Some(&name) if same_bytes(name.as_bytes(), key) => (self.next, name),
            _ => self
                .names
                .iter()
                .enumerate()
                .find(|(_, name)| same_bytes(name.as_bytes(), key))
                .map(|(i, &name)| (i, name))?,
        };
        if has_nul(key) || key.starts_with("\u{FEFF}".as_bytes()) {
            return None;
        }
        self.next = index + 1;
        self.last = Some(name);
        Some(name)
    }
}

/// `a == b`, without a call to `memcmp` for the short keys of struct fields.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // Two overlapping words cover every byte of a key of one to two word lengths.
    if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<8>(),
        a.last_chunk::<8>(),
        b.first_chunk::<8>(),
        b.last_chunk::<8>(),
    ) {
        if a.len() <= 16 {
            return a0 == b0 && a1 == b1;
        }
    } else if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<4>(),
        a.last_chunk::<4>(),
        b.first_chunk::<4>(),
        b.last_chunk::<4>(),
    ) {
        return a0 == b0 && a1 == b1;
    }
    a == b
}

/// A struct's key: `deserialize_identifier` checks it against the field names, every other
/// method is the plain deserializer's.
struct KeyDe<'a, 'k, R> {
    de: &'a mut Deserializer<R>,
    keys: &'k mut KnownKeys,
}

/// `deserialize_*` methods of [`KeyDe`] that forward to the plain deserializer.
macro_rules! forward_to_de {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::$method(self.de, visitor)
        }
    )*};
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for KeyDe<'_, '_, R> {
    type Error = Error;

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.identifier(self.keys, visitor)
    }

    forward_to_de! {
        deserialize_any, deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32,
        deserialize_i64, deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32,
        deserialize_u64, deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char,
        deserialize_str, deserialize_string, deserialize_bytes, deserialize_byte_buf,
        deserialize_option, deserialize_unit, deserialize_seq, deserialize_map,
        deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_unit_struct(self.de, name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_newtype_struct(self.de, name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self.de, len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple_struct(self.de, name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self.de, name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_enum(self.de, name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Refuses a Dictionary key or property name that starts with `$godot_serde::` (header at
/// `offset`): self-describing visitors (`Variant`) take a map whose first key is a marker name
/// for that Godot type, so a plain Dictionary keyed that way (which any peer can send) could
/// decode as another type, a full Object included whatever [`Config::with_allow_objects`]
/// says. serde's buffering can make any key the first, so every key is checked.
#[inline]
fn reserved_key(key: &str, offset: usize) -> Result<()> {
    if key.starts_with(RESERVED_PREFIX) {
        return Err(reserved_key_error(key, offset));
    }
    Ok(())
}

#[cold]
fn reserved_key_error(key: &str, offset: usize) -> Error {
    Error::at(
        ErrorKind::Message(
            format!("Dictionary key {key:?} is reserved for godot_serde's own type markers").into(),
        ),
        offset,
    )
}

/// `key`, after [`reserved_key`] when `guard` (the key's header offset) is set.
#[inline]
fn checked(key: &str, guard: Option<usize>) -> Result<&str> {
    match guard {
        Some(at) => reserved_key(key, at).map(|()| key),
        None => Ok(key),
    }
}

/// The prefix of every marker name.
const RESERVED_PREFIX: &str = "$godot_serde::";

/// What follows the header of a marker-typed value.
enum Payload {
    /// `n` components of one kind (math types, Color).
    Components(u8, Comp),
    /// A Godot String field (StringName).
    Str,
    NodePath,
    Rid,
    /// An object id, already read.
    Id(u64),
    Callable,
    Signal,
    Object {
        class: String,
        count: u32,
    },
    TypedArray(Descriptor),
    TypedDictionary(Descriptor, Descriptor),
    /// Numeric packed array: raw bytes of `elem`-sized elements.
    Packed(Elem, bool),
    PackedStrings,
}

impl Payload {
    fn for_type(ty: VariantType, wide: bool) -> Self {
        if let Some((n, scalar)) = ty.components() {
            return Payload::Components(n, scalar.on_wire(wide));
        }
        match ty {
            VariantType::StringName => Payload::Str,
            VariantType::NodePath => Payload::NodePath,
            VariantType::Rid => Payload::Rid,
            VariantType::Signal => Payload::Signal,
            VariantType::PackedStringArray => Payload::PackedStrings,
            ty => match Elem::of(ty) {
                Some(elem) => Payload::Packed(elem, wide),
                None => Payload::Callable,
            },
        }
    }
}

// One math-type component on the wire.
use crate::wire::Number as Comp;

/// A numeric packed array's element: `n` numbers of one kind (`VariantType::packed_element`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Elem {
    n: u8,
    scalar: Scalar,
}

impl Elem {
    /// PackedByteArray's element.
    const BYTE: Elem = Elem {
        n: 1,
        scalar: Scalar::Byte,
    };

    fn of(ty: VariantType) -> Option<Elem> {
        ty.packed_element().map(|(n, scalar)| Elem { n, scalar })
    }

    fn size(self, wide: bool) -> usize {
        usize::from(self.n) * self.scalar.size(wide)
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Reads a numeric packed array's count and checks it (`decode_variant`: negative or more
    /// than the input holds is an error).
    fn packed_count(&mut self, elem: Elem, wide: bool) -> Result<usize> {
        let what = "packed array count";
        let count = self.read_len(what)?;
        self.check_fits(count as u64, elem.size(wide) as u64, what)?;
        count.checked_mul(elem.size(wide)).ok_or_else(|| {
            Error::at(
                ErrorKind::LengthTooLarge {
                    what,
                    len: count as u64,
                    remaining: 0,
                },
                self.read.offset(),
            )
        })
    }

    fn visit_packed_elements<V: Visitor<'de>>(
        &mut self,
        elem: Elem,
        wide: bool,
        visitor: V,
    ) -> Result<V::Value> {
        if elem == Elem::BYTE {
            let len = self.read_len("PackedByteArray count")?;
            self.check_fits(len as u64, 1, "PackedByteArray count")?;
            let value = visitor.visit_seq(PackedSeq {
                de: self,
                left: len,
                count: len,
                elem,
                wide,
            })?;
            self.read.skip_padding(padding(len))?;
            return Ok(value);
        }
        let bytes = self.packed_count(elem, wide)?;
        let left = bytes / elem.size(wide).max(1);
        visitor.visit_seq(PackedSeq {
            de: self,
            left,
            count: left,
            elem,
            wide,
        })
    }
}

/// The one-entry map `{ name: payload }` for a marker-typed value.
struct MarkerAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    name: &'static str,
    payload: Option<Payload>,
}

impl<'a, R> MarkerAccess<'a, R> {
    fn new(de: &'a mut Deserializer<R>, name: &'static str, payload: Payload) -> Self {
        MarkerAccess {
            de,
            name,
            payload: Some(payload),
        }
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for MarkerAccess<'_, R> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.payload.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(self.name))
            .map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.payload.take() {
            Some(payload) => seed.deserialize(PayloadDe {
                de: &mut *self.de,
                payload,
            }),
            None => Err(de::Error::custom("marker value requested twice")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.payload.is_some()))
    }
}

/// Deserializes a marker payload; its shape is fixed by [`Payload`], so every method visits
/// the same way.
struct PayloadDe<'a, R> {
    de: &'a mut Deserializer<R>,
    payload: Payload,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for PayloadDe<'_, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let de = self.de;
        match self.payload {
            Payload::Components(n, comp) => {
                let mut seq = ComponentSeq { de, left: n, comp };
                let value = visitor.visit_seq(&mut seq)?;
                seq.finish()?;
                Ok(value)
            }
            Payload::Str => de.read_str("StringName", visitor),
            Payload::Rid => {
                // Godot 3 writes no RID payload.
                let id = if de.version().has_rid_payload() {
                    de.read_u64()?
                } else {
                    0
                };
                visitor.visit_u64(id)
            }
            Payload::Id(id) => visitor.visit_u64(id),
            Payload::Callable => visitor.visit_unit(),
            Payload::Signal => visitor.visit_seq(FieldSeq {
                de,
                field: 0,
                kind: Fields::Signal,
            }),
            Payload::NodePath => {
                let offset = de.read.offset();
                let first = de.read_u32()?;
                if !NodePathHead::is_new_format(first) {
                    return Err(Error::at(ErrorKind::LegacyNodePath, offset));
                }
                let subnames = de.read_u32()?;
                let flags = de.read_u32()?;
                // The legacy "has property" flag counts one more subname.
                let head = NodePathHead::decode(first, subnames, flags)
                    .ok_or_else(|| Error::at(ErrorKind::LegacyNodePath, offset))?;
                de.check_fits(
                    u64::from(head.names) + u64::from(head.subnames),
                    4,
                    "NodePath name count",
                )?;
                visitor.visit_seq(FieldSeq {
                    de,
                    field: 0,
                    kind: Fields::NodePath {
                        names: head.names,
                        subnames: head.subnames,
                        absolute: head.absolute,
                    },
                })
            }
            Payload::Object { class, count } => visitor.visit_seq(FieldSeq {
                de,
                field: 0,
                kind: Fields::Object {
                    class: Some(class),
                    count,
                },
            }),
            Payload::TypedArray(d) => visitor.visit_seq(FieldSeq {
                de,
                field: 0,
                kind: Fields::TypedArray(Some(d)),
            }),
            Payload::TypedDictionary(k, v) => visitor.visit_seq(FieldSeq {
                de,
                field: 0,
                kind: Fields::TypedDictionary(Some(k), Some(v)),
            }),
            Payload::Packed(Elem::BYTE, _) => de.visit_packed_bytes(visitor),
            Payload::Packed(elem, wide) => {
                let len = de.packed_count(elem, wide)?;
                match de.read.read_slice(len, &mut de.scratch)? {
                    Reference::Borrowed(b) => visitor.visit_borrowed_bytes(b),
                    Reference::Copied(b) => visitor.visit_bytes(b),
                }
            }
            Payload::PackedStrings => de.visit_packed_strings(visitor),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Math-type components.
struct ComponentSeq<'a, R> {
    de: &'a mut Deserializer<R>,
    left: u8,
    comp: Comp,
}

impl<R> ComponentSeq<'_, R> {
    fn finish(&self) -> Result<()> {
        if self.left == 0 {
            Ok(())
        } else {
            Err(de::Error::custom(format_args!(
                "{} math components left unread",
                self.left
            )))
        }
    }
}

impl<'de, R: Read<'de>> SeqAccess<'de> for ComponentSeq<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(Component {
            de: &mut *self.de,
            comp: self.comp,
        })
        .map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left.into())
    }
}

/// One math-type component.
struct Component<'a, R> {
    de: &'a mut Deserializer<R>,
    comp: Comp,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for Component<'_, R> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.comp {
            Comp::F64 => visitor.visit_f64(f64::from_le_bytes(self.de.read.read_array()?)),
            Comp::I32 => visitor.visit_i32(self.de.read_i32()?),
            // F32: math components are only ever f32, f64 or i32 (`Shape::Components`), and
            // three arms keep this inlined into the math types' visitors.
            _ => visitor.visit_f32(f32::from_le_bytes(self.de.read.read_array()?)),
        }
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// An error when the 64-bit float `v` is finite but beyond `f32`'s range, where a cast
/// would make it infinite (infinities and NaN stay what they are; smaller values round to
/// the nearest `f32`). Checked for `f32` values; the f64 components of a double build's
/// math types read into single-precision ones are cast as Godot's single-precision engine
/// casts them (`real_t`), which keeps the component path lean.
#[inline]
fn fits_f32(v: f64) -> Result<()> {
    #[allow(clippy::cast_possible_truncation)]
    let narrow = v as f32;
    if narrow.is_infinite() && v.is_finite() {
        return Err(f32_overflow(v));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn f32_overflow(v: f64) -> Error {
    Error::new(ErrorKind::Message(
        format!("float {v:e} does not fit in an f32 (beyond ±3.4028235e38)").into(),
    ))
}

/// Packed array elements one by one (when a plain sequence such as `Vec<f32>` is asked for).
struct PackedSeq<'a, R> {
    de: &'a mut Deserializer<R>,
    left: usize,
    /// The element count (for the index of an element that fails).
    count: usize,
    elem: Elem,
    wide: bool,
}

impl<'de, R: Read<'de>> SeqAccess<'de> for PackedSeq<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let de = &mut *self.de;
        let value = match (self.elem.n, self.elem.scalar) {
            (1, Scalar::Byte) => {
                let [b] = de.read.read_array()?;
                seed.deserialize(b.into_deserializer())
            }
            (1, Scalar::I32) => seed.deserialize(de.read_i32()?.into_deserializer()),
            (1, Scalar::I64) => {
                seed.deserialize(i64::from_le_bytes(de.read.read_array()?).into_deserializer())
            }
            (1, Scalar::F32) => {
                seed.deserialize(f32::from_le_bytes(de.read.read_array()?).into_deserializer())
            }
            (1, Scalar::F64) => {
                seed.deserialize(f64::from_le_bytes(de.read.read_array()?).into_deserializer())
            }
            // Vectors and Colors: their numbers, as a math type's components.
            (n, scalar) => seed.deserialize(PayloadDe {
                de,
                payload: Payload::Components(n, scalar.on_wire(self.wide)),
            }),
        };
        match value {
            Ok(value) => Ok(Some(value)),
            Err(e) => Err(e.in_segment(Segment::Index(self.count - self.left - 1))),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        // The count was checked against the bytes left of a slice; a reader's count is
        // unchecked, so no hint: the visitor grows as elements actually arrive.
        self.de.read.remaining().map(|_| self.left)
    }
}

/// Godot String fields one after another (PackedStringArray elements, NodePath names).
struct StrSeq<'a, R> {
    de: &'a mut Deserializer<R>,
    left: u32,
    what: &'static str,
    hint: Hint,
}

impl<'a, 'de, R: Read<'de>> StrSeq<'a, R> {
    fn new(de: &'a mut Deserializer<R>, count: u32, what: &'static str) -> Self {
        // A String field is at least 4 bytes.
        let hint = de.charge(count, 4);
        StrSeq {
            de,
            left: count,
            what,
            hint,
        }
    }
}

impl<R> Drop for StrSeq<'_, R> {
    fn drop(&mut self) {
        self.hint.release(self.de);
    }
}

impl<'de, R: Read<'de>> SeqAccess<'de> for StrSeq<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.hint.took_one(self.de);
        seed.deserialize(StrDe {
            de: &mut *self.de,
            what: self.what,
        })
        .map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        self.hint.get()
    }
}

/// One Godot String field.
struct StrDe<'a, R> {
    de: &'a mut Deserializer<R>,
    what: &'static str,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for StrDe<'_, R> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.read_str(self.what, visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The fields of a multi-field payload.
enum Fields {
    Signal,
    NodePath {
        names: u32,
        subnames: u32,
        absolute: bool,
    },
    Object {
        class: Option<String>,
        count: u32,
    },
    TypedArray(Option<Descriptor>),
    TypedDictionary(Option<Descriptor>, Option<Descriptor>),
}

struct FieldSeq<'a, R> {
    de: &'a mut Deserializer<R>,
    field: u8,
    kind: Fields,
}

impl<'de, R: Read<'de>> SeqAccess<'de> for FieldSeq<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let field = self.field;
        self.field += 1;
        let de = &mut *self.de;
        let value = match (&mut self.kind, field) {
            (Fields::Signal, 0) => seed.deserialize(StrDe {
                de,
                what: "signal name",
            })?,
            (Fields::Signal, 1) => {
                seed.deserialize(de::value::U64Deserializer::<Error>::new(de.read_u64()?))?
            }
            (Fields::NodePath { names, .. }, 0) => {
                seed.deserialize(SeqDe(StrSeq::new(de, *names, "NodePath name")))?
            }
            (Fields::NodePath { subnames, .. }, 1) => {
                seed.deserialize(SeqDe(StrSeq::new(de, *subnames, "NodePath subname")))?
            }
            (Fields::NodePath { absolute, .. }, 2) => {
                seed.deserialize(BoolDeserializer::<Error>::new(*absolute))?
            }
            (Fields::Object { class, .. }, 0) => seed.deserialize(
                StringDeserializer::<Error>::new(class.take().unwrap_or_default()),
            )?,
            (Fields::Object { count, .. }, 1) => {
                let count = *count;
                de.nested(|de| seed.deserialize(MapDe(PropertyAccess::new(de, count))))?
            }
            (Fields::TypedArray(d), 0)
            | (Fields::TypedDictionary(d, _), 0)
            | (Fields::TypedDictionary(_, d), 1) => {
                let d = d.take().unwrap_or_default();
                seed.deserialize(SeqDe(DescriptorSeq { d, field: 0 }))?
            }
            (Fields::TypedArray(_), 1) => {
                let count = de.read_count("Array count", 4)?;
                de.nested(|de| {
                    let mut access = ArrayAccess::new(de, count);
                    let value = seed.deserialize(SeqDe(&mut access))?;
                    access.finish(count)?;
                    Ok(value)
                })?
            }
            (Fields::TypedDictionary(..), 2) => {
                let count = de.read_count("Dictionary count", 8)?;
                de.nested(|de| {
                    let mut access = DictionaryAccess::new(de, count, &[]);
                    let value = seed.deserialize(MapDe(&mut access))?;
                    access.finish(count)?;
                    Ok(value)
                })?
            }
            _ => return Ok(None),
        };
        Ok(Some(value))
    }
}

/// Hands a ready-made `SeqAccess` to whatever deserializes it.
struct SeqDe<A>(A);

impl<'de, A: SeqAccess<'de, Error = Error>> de::Deserializer<'de> for SeqDe<A> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.0)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Hands a ready-made `MapAccess` to whatever deserializes it.
struct MapDe<A>(A);

impl<'de, A: MapAccess<'de, Error = Error>> de::Deserializer<'de> for MapDe<A> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(self.0)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The descriptor as the 3-tuple `(kind, Godot 4 type id, class or script)`.
struct DescriptorSeq {
    d: Descriptor,
    field: u8,
}

impl<'de> SeqAccess<'de> for DescriptorSeq {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        self.field += 1;
        match self.field {
            1 => seed.deserialize(self.d.kind.into_deserializer()).map(Some),
            2 => seed.deserialize(self.d.id.into_deserializer()).map(Some),
            3 => seed
                .deserialize(StringDeserializer::<Error>::new(core::mem::take(
                    &mut self.d.name,
                )))
                .map(Some),
            _ => Ok(None),
        }
    }
}

/// Full-object properties: String-field names, Variant values.
struct PropertyAccess<'a, R> {
    de: &'a mut Deserializer<R>,
    left: u32,
    hint: Hint,
}

impl<'a, 'de, R: Read<'de>> PropertyAccess<'a, R> {
    fn new(de: &'a mut Deserializer<R>, count: u32) -> Self {
        let hint = de.charge(count, 64);
        PropertyAccess {
            de,
            left: count,
            hint,
        }
    }
}

impl<R> Drop for PropertyAccess<'_, R> {
    fn drop(&mut self) {
        self.hint.release(self.de);
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for PropertyAccess<'_, R> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.hint.took_one(self.de);
        self.de.guard_key = Some(self.de.read.offset());
        let name = seed.deserialize(StrDe {
            de: &mut *self.de,
            what: "property name",
        });
        self.de.guard_key = None;
        name.map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn size_hint(&self) -> Option<usize> {
        self.hint.get()
    }
}
