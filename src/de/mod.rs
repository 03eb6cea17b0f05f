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
use crate::wire::depth::grow;
use crate::wire::payload::{
    NODE_PATH_NAME, NODE_PATH_SUBNAME, Number, ObjectHead, PACKED_STRING, PROPERTY_NAME,
    SIGNAL_NAME,
};
use crate::wire::reader::text;
use crate::wire::{
    COUNT_MASK, Descriptor, FLAG_64, HeaderAt, Hint, Item, Reader, Scalar, VariantType, has_nul,
    padding, string,
};
use serde::de::value::{
    BoolDeserializer, BorrowedStrDeserializer, MapAccessDeserializer, SeqAccessDeserializer,
    StringDeserializer,
};
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

mod access;
mod adapters;
mod fast;
mod hint;
mod keys;
mod marker;
mod serde_impl;

use access::*;
pub(crate) use adapters::{DescriptorSeq, UnitEnum};
use fast::STRING_WORD;
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
    /// The input, offset, depth, budget and String fields ([`Reader`]).
    rd: Reader<R>,
    /// A header read ahead (by `deserialize_option`) and not consumed yet.
    peeked: Option<HeaderAt>,
    /// `peeked` was put back by `deserialize_option`.
    peeked_by_option: bool,
    /// Set while a Dictionary key (or property name) that is a String or StringName is being
    /// decoded: the offset of its header. The next Godot String field read is that key's
    /// text, which may not be a reserved marker name (see [`reserved_key`]).
    guard_key: Option<usize>,
    /// The struct field-name lists known to need no check as keys.
    plain_lists: PlainLists,
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

impl<'de> Deserializer<SliceRead<'de>> {
    /// Decodes from a byte slice; strings and byte arrays can be borrowed from it.
    #[must_use]
    pub fn from_slice(bytes: &'de [u8], config: Config) -> Self {
        Self::new(SliceRead::new(bytes), config)
    }

    /// The bytes after the last value read.
    #[must_use]
    pub fn rest(&self) -> &'de [u8] {
        self.rd.source().rest()
    }

    /// Checks that the whole input was used.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TrailingBytes`] when bytes are left.
    pub fn end(&self) -> Result<()> {
        match self.rd.source().rest().len() {
            0 => Ok(()),
            count => Err(Error::at(
                ErrorKind::TrailingBytes { count },
                self.rd.offset(),
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
            rd: Reader::new(read, config),
            peeked: None,
            peeked_by_option: false,
            guard_key: None,
            plain_lists: PlainLists::default(),
        }
    }

    /// Gives back the input source.
    pub fn into_inner(self) -> R {
        self.rd.into_inner()
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.rd.offset()
    }

    fn version(&self) -> GodotVersion {
        self.rd.version()
    }

    #[inline]
    fn read_u32(&mut self) -> Result<u32> {
        self.rd.read_u32()
    }

    #[inline]
    fn read_i32(&mut self) -> Result<i32> {
        self.rd.read_i32()
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64> {
        self.rd.read_u64()
    }

    /// The next value's header: the one read ahead, if any, else read by the [`Reader`]
    /// (which checks the depth).
    #[inline]
    fn read_header(&mut self) -> Result<HeaderAt> {
        if self.peeked.is_some() {
            if let Some(h) = self.peeked.take() {
                self.peeked_by_option = false;
                return Ok(h);
            }
        }
        self.rd.read_header()
    }

    /// Reads a Godot String field (length, UTF-8, padding that must be present) and visits
    /// the text, borrowed from the input when possible.
    fn read_str<V: Visitor<'de>>(&mut self, what: &'static str, visitor: V) -> Result<V::Value> {
        let guard = self.guard_key.take();
        match self.rd.read_text(what)? {
            Reference::Borrowed(s) => {
                if let Some(at) = guard {
                    reserved_key(s, at)?;
                }
                visitor.visit_borrowed_str(s)
            }
            Reference::Copied(s) => {
                if let Some(at) = guard {
                    reserved_key(s, at)?;
                }
                visitor.visit_str(s)
            }
        }
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
        let (start, len, bytes) = self.rd.read_field()?;
        match bytes {
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

    /// Reads the Array's descriptor, if any, and drops it (the elements are what is wanted).
    #[inline]
    fn skip_array_descriptor(&mut self, h: HeaderAt) -> Result<()> {
        if !h.may_be_typed() {
            return Ok(());
        }
        self.rd.array_descriptor(h.head).map(drop)
    }

    /// Reads the Dictionary's descriptors, if any, and drops them (the entries are what is
    /// wanted).
    #[inline]
    fn skip_dictionary_descriptors(&mut self, h: HeaderAt) -> Result<()> {
        if !h.may_be_typed() {
            return Ok(());
        }
        self.rd.dictionary_descriptors(h.head).map(drop)
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
    /// segment when the thread's stack is nearly used up (see [`STACK_RED_ZONE`](crate::wire::depth::STACK_RED_ZONE)).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.nested_every(1, f)
    }

    /// [`nested`](Self::nested), checking the stack left only at every `levels`-th level (for
    /// callers whose levels are small enough that `levels` of them fit the red zone).
    #[inline]
    pub(crate) fn nested_every<T>(
        &mut self,
        levels: usize,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.rd.depth.enter();
        let r = if self.rd.depth.level().is_multiple_of(levels) {
            grow(|| f(self))
        } else {
            f(self)
        };
        self.rd.depth.leave();
        r
    }

    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let count = self.rd.read_count("Array count", Item::Element)?;
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
        let count = self.rd.read_count("Dictionary count", Item::Entry)?;
        self.nested(|de| {
            let mut access = DictionaryAccess::new(de, count, fields);
            let value = visitor.visit_map(&mut access)?;
            access.finish(count)?;
            Ok(value)
        })
    }

    /// Visits a value whose header has been read.
    fn visit_value<V: Visitor<'de>>(&mut self, h: HeaderAt, visitor: V) -> Result<V::Value> {
        match h.ty {
            VariantType::Nil => visitor.visit_unit(),
            VariantType::Bool => visitor.visit_bool(self.read_u32()? != 0),
            VariantType::Int if h.flag() => {
                visitor.visit_i64(i64::from_le_bytes(self.rd.read_array()?))
            }
            VariantType::Int => visitor.visit_i64(self.read_i32()?.into()),
            VariantType::Float if h.flag() => {
                visitor.visit_f64(f64::from_le_bytes(self.rd.read_array()?))
            }
            VariantType::Float => {
                visitor.visit_f64(f32::from_le_bytes(self.rd.read_array()?).into())
            }
            VariantType::String => self.read_str("String", visitor),
            VariantType::Array => match self.rd.array_descriptor(h.head)? {
                Some(d) => {
                    visitor.visit_map(MarkerAccess::new(self, TYPED_ARRAY, Payload::TypedArray(d)))
                }
                None => self.visit_array(visitor),
            },
            VariantType::Dictionary => match self.rd.dictionary_descriptors(h.head)? {
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

    fn visit_object<V: Visitor<'de>>(&mut self, h: HeaderAt, visitor: V) -> Result<V::Value> {
        match self.rd.read_object_head(h)? {
            ObjectHead::Null => visitor.visit_unit(),
            ObjectHead::Id(id) => {
                visitor.visit_map(MarkerAccess::new(self, OBJECT_ID, Payload::Id(id)))
            }
            ObjectHead::Full { class, count } => visitor.visit_map(MarkerAccess::new(
                self,
                OBJECT,
                Payload::Object { class, count },
            )),
        }
    }

    /// The error for a value of Godot type `h.ty` where the visitor wanted something else.
    #[cold]
    fn unexpected<V: Visitor<'de>>(&self, h: HeaderAt, visitor: &V) -> Error {
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
                let v = f64::from_le_bytes(self.rd.read_array()?);
                fits_f32(v).and_then(|()| visitor.visit_f64(v))
            }
            VariantType::Float => visitor.visit_f32(f32::from_le_bytes(self.rd.read_array()?)),
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
    fn scalar_at<V: Visitor<'de>>(&mut self, h: HeaderAt, visitor: V) -> Result<V::Value> {
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
                let d = self.rd.array_descriptor(h.head)?.unwrap_or_default();
                visitor.visit_map(MarkerAccess::new(self, TYPED_ARRAY, Payload::TypedArray(d)))
            }
            VariantType::Dictionary if m.typed && m.ty == VariantType::Dictionary => {
                let (k, v) = self.rd.dictionary_descriptors(h.head)?.unwrap_or_default();
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
            ty if ty == m.ty && !m.typed => match Payload::for_type(ty, self.rd.wide(h.head)) {
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
        let (name, rest) = keys.expected(self.rd.unread()?)?;
        self.rd.read_to(rest);
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
    /// of [`KeyDe`], whose fast path is inlined.
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
        read: impl FnOnce(&mut Self, HeaderAt, V) -> Result<V::Value>,
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
        let comp = scalar.on_wire(self.rd.wide(h.head));
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
        let count = self.rd.read_string_array_count()?;
        visitor.visit_seq(StrSeq::new(self, count, PACKED_STRING))
    }

    /// Reads PackedByteArray bytes (its padding may be missing at the end of the input).
    fn visit_packed_bytes<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let len = self.rd.read_byte_array_len()?;
        let value = match self.rd.read_slice(len)? {
            Reference::Borrowed(b) => visitor.visit_borrowed_bytes::<Error>(b),
            Reference::Copied(b) => visitor.visit_bytes::<Error>(b),
        }?;
        self.rd.skip_padding(padding(len))?;
        Ok(value)
    }
}

/// What the bytes → [`Variant`](crate::Variant) reader (`value/from_bytes.rs`) uses: the
/// [`Reader`], the header read ahead, and the key rule.
impl<'de, R: Read<'de>> Deserializer<R> {
    /// The wire reader under this Deserializer.
    #[inline(always)]
    pub(crate) fn wire(&mut self) -> &mut Reader<R> {
        &mut self.rd
    }

    /// The header read ahead and not consumed yet (by `deserialize_option`), if any: the next
    /// value's, which the caller then reads.
    #[inline]
    pub(crate) fn take_read_ahead(&mut self) -> Option<HeaderAt> {
        let h = self.peeked.take();
        if h.is_some() {
            self.peeked_by_option = false;
        }
        h
    }

    /// Refuses a Dictionary key whose header is at `at` when its text is a reserved marker
    /// name (see [`reserved_key`]).
    #[inline]
    pub(crate) fn check_key(text: &str, at: usize) -> Result<()> {
        reserved_key(text, at)
    }
}
