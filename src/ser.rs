//! [`Serializer`]: serde data model → Godot Variant bytes, as `encode_variant` in
//! `core/io/marshalls.cpp` writes them.
//!
//! Output goes to a `Vec<u8>` (or a byte counter for [`serialized_size`](crate::serialized_size)),
//! which lets counts that serde does not know up front (`serialize_seq(None)`, `flatten`,
//! skipped struct fields) be patched in place at the end instead of buffering the contents.

use crate::config::{Config, EnumRepr, GodotVersion};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{Marker, marker};
use crate::wire::{
    FLAG_64, FLAG_OBJECT_AS_ID, NODE_PATH_NEW_FORMAT, Scalar, TYPED_KEY_SHIFT, TYPED_VALUE_SHIFT,
    VariantType, has_nul, padding, zero_byte_in,
};
use serde::ser::{self, Impossible, Serialize};

mod private {
    pub trait Sealed {}
}

/// Where the [`Serializer`] writes: a `Vec<u8>` or a byte counter. Sealed.
pub trait Output: private::Sealed {
    /// Appends bytes.
    #[doc(hidden)]
    fn put(&mut self, bytes: &[u8]);
    /// Bytes written so far.
    #[doc(hidden)]
    fn pos(&self) -> usize;
    /// Overwrites the little-endian word at `at` (written earlier as a placeholder).
    #[doc(hidden)]
    fn patch_u32(&mut self, at: usize, value: u32);
    /// Inserts a little-endian word at `at`, moving what follows.
    #[doc(hidden)]
    fn insert_u32(&mut self, at: usize, value: u32);
    /// Appends two little-endian words (a header and its first payload word, or a length).
    #[doc(hidden)]
    #[inline]
    fn put_words(&mut self, a: u32, b: u32) {
        self.put(&words(a, b));
    }
    /// Appends `head`, then `text`, then zeros up to a multiple of 4 (a Godot String field
    /// with its header, or a PackedByteArray).
    #[doc(hidden)]
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        self.put(&head);
        self.put(text);
        put_padding(self, text.len());
    }
    /// [`Output::put_padded`] for a text of `n` ≤ 8 bytes held in `text`'s low bytes, zero
    /// above them.
    #[doc(hidden)]
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        let text = text.to_le_bytes();
        self.put_padded(head, text.get(..n).unwrap_or(&text));
    }
}

/// A text of at most 8 bytes as a little-endian word, zero above its length.
#[inline]
fn short_word(bytes: &[u8]) -> Option<u64> {
    let n = bytes.len();
    if n > 8 {
        return None;
    }
    Some(
        if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            // Two overlapping halves: the shared bytes are equal, so OR keeps them.
            u64::from(u32::from_le_bytes(*first))
                | u64::from(u32::from_le_bytes(*last)) << ((n - 4) * 8)
        } else {
            bytes
                .iter()
                .rev()
                .fold(0, |word, &b| word << 8 | u64::from(b))
        },
    )
}

/// Whether the first `n` bytes of a [`short_word`] hold a NUL.
#[inline]
fn short_has_nul(word: u64, n: usize) -> bool {
    // Bytes past the text become 0xFF so that only the text can hold a zero.
    zero_byte_in(word | u64::MAX.checked_shl(8 * n as u32).unwrap_or(0))
}

/// Appends the zeros that pad `len` bytes to a multiple of 4.
#[inline]
fn put_padding<O: Output + ?Sized>(out: &mut O, len: usize) {
    match padding(len) {
        1 => out.put(&[0]),
        2 => out.put(&[0; 2]),
        3 => out.put(&[0; 3]),
        _ => {}
    }
}

/// Two little-endian words as 8 bytes.
#[inline]
fn words(a: u32, b: u32) -> [u8; 8] {
    (u64::from(a) | u64::from(b) << 32).to_le_bytes()
}

/// Longest text [`Output::put_padded`] writes through a fixed-size block.
const SHORT_TEXT: usize = 24;

/// Copies `src` (at most [`SHORT_TEXT`] bytes) to the start of `dst` with fixed-size,
/// possibly overlapping word copies instead of a variable-length `memcpy`.
#[inline]
fn copy_short(dst: &mut [u8; SHORT_TEXT], src: &[u8]) {
    let n = src.len();
    if let (Some(first), Some(last)) = (src.first_chunk::<8>(), src.last_chunk::<8>()) {
        if let Some(d) = dst.get_mut(..8) {
            d.copy_from_slice(first);
        }
        if let (Some(mid), Some(d)) = (src.get(8..16), dst.get_mut(8..16)) {
            d.copy_from_slice(mid);
        }
        if let Some(d) = n.checked_sub(8).and_then(|at| dst.get_mut(at..n)) {
            d.copy_from_slice(last);
        }
    } else if let (Some(first), Some(last)) = (src.first_chunk::<4>(), src.last_chunk::<4>()) {
        if let Some(d) = dst.get_mut(..4) {
            d.copy_from_slice(first);
        }
        if let Some(d) = n.checked_sub(4).and_then(|at| dst.get_mut(at..n)) {
            d.copy_from_slice(last);
        }
    } else {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
    }
}

impl private::Sealed for Vec<u8> {}
impl Output for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    #[inline]
    fn pos(&self) -> usize {
        self.len()
    }
    #[inline]
    fn patch_u32(&mut self, at: usize, value: u32) {
        if let Some(word) = self.get_mut(at..at + 4) {
            word.copy_from_slice(&value.to_le_bytes());
        }
    }
    fn insert_u32(&mut self, at: usize, value: u32) {
        let at = at.min(self.len());
        self.splice(at..at, value.to_le_bytes());
    }
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        // Header and text as one 16-byte store, cut back to the padded length (the bytes
        // past the text are already zero).
        let start = self.len();
        self.extend_from_slice(
            &(u128::from(u64::from_le_bytes(head)) | u128::from(text) << 64).to_le_bytes(),
        );
        self.truncate(start + 8 + n.next_multiple_of(4));
    }
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        let n = text.len();
        if n <= SHORT_TEXT {
            // One fixed-size block of zeros, the header and text stored into it in place
            // (not assembled on the stack and copied: reloading small stores as one wide
            // load stalls), then cut back to the padded length.
            let start = self.len();
            self.extend_from_slice(&[0; 8 + SHORT_TEXT]);
            if let Some(block) = self.get_mut(start..) {
                let (h, t) = block.split_at_mut(8);
                h.copy_from_slice(&head);
                if let Ok(t) = <&mut [u8; SHORT_TEXT]>::try_from(t) {
                    copy_short(t, text);
                }
            }
            self.truncate(start + 8 + n + padding(n));
        } else {
            self.reserve(8 + n + 3);
            self.extend_from_slice(&head);
            self.extend_from_slice(text);
            put_padding(self, n);
        }
    }
}

impl<O: Output + ?Sized> private::Sealed for &mut O {}
impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        (**self).put(bytes);
    }
    #[inline]
    fn pos(&self) -> usize {
        (**self).pos()
    }
    fn patch_u32(&mut self, at: usize, value: u32) {
        (**self).patch_u32(at, value);
    }
    fn insert_u32(&mut self, at: usize, value: u32) {
        (**self).insert_u32(at, value);
    }
    #[inline]
    fn put_words(&mut self, a: u32, b: u32) {
        (**self).put_words(a, b);
    }
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        (**self).put_padded(head, text);
    }
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        (**self).put_short(head, text, n);
    }
}

/// Counts bytes instead of writing them (for [`serialized_size`](crate::serialized_size)).
#[derive(Debug, Default)]
pub struct SizeCounter(pub usize);

impl private::Sealed for SizeCounter {}
impl Output for SizeCounter {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
    #[inline]
    fn pos(&self) -> usize {
        self.0
    }
    fn patch_u32(&mut self, _at: usize, _value: u32) {}
    fn insert_u32(&mut self, _at: usize, _value: u32) {
        self.0 += 4;
    }
}

/// A [`Serializer`] that owns a caller's buffer while it writes and hands it back when
/// dropped, unwinding included.
pub(crate) struct Lend<'b> {
    home: &'b mut Vec<u8>,
    ser: Serializer<Vec<u8>>,
}

impl<'b> Lend<'b> {
    /// Takes `home`'s contents (appending to them) until dropped.
    #[inline]
    pub(crate) fn new(home: &'b mut Vec<u8>, config: Config) -> Self {
        let out = core::mem::take(home);
        Lend {
            home,
            ser: Serializer::new(out, config),
        }
    }

    /// The serializer writing into the lent buffer.
    #[inline]
    pub(crate) fn serializer(&mut self) -> &mut Serializer<Vec<u8>> {
        &mut self.ser
    }
}

impl Drop for Lend<'_> {
    #[inline]
    fn drop(&mut self) {
        core::mem::swap(self.home, &mut self.ser.out);
    }
}

/// Writes serde values as Godot Variant bytes.
///
/// Most users call [`to_bytes`](crate::to_bytes) or [`Config::to_bytes`]; use this type to
/// drive serialization yourself:
///
/// ```
/// use serde::Serialize;
/// let mut buf = Vec::new();
/// let mut ser = godot_serde::Serializer::new(&mut buf, godot_serde::Config::godot3());
/// 1u8.serialize(&mut ser)?;
/// assert_eq!(buf, [2, 0, 0, 0, 1, 0, 0, 0]);
/// # Ok::<(), godot_serde::Error>(())
/// ```
pub struct Serializer<W> {
    out: W,
    config: Config,
    /// Depth of the value being written (top level = 0), as Godot counts it.
    depth: usize,
    /// Element type seen so far in the innermost array, for typed-container inference.
    infer: Infer,
    /// Typed container descriptors (key, value) of the marker being written, captured from
    /// its first fields.
    descriptors: [Descriptor; 2],
}

/// Typed-container inference state, packed in one word so that the check every value makes
/// is one comparison: the depth of the Array being watched, and the type of every element
/// so far if they all agree ([`Infer::PENDING`] before the first, [`Infer::MIXED`] once
/// they differ or one is a container). [`Infer::OFF`] watches nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Infer(u64);

impl Infer {
    /// No element seen yet.
    const PENDING: u8 = 0xFF;
    /// Elements differ: untyped.
    const MIXED: u8 = 0xFE;
    /// Not inferring (a depth no value has).
    const OFF: Infer = Infer(u64::MAX);

    /// Watching the values written at `depth`.
    #[inline]
    fn pending(depth: usize) -> Self {
        Infer((depth as u64) << 8 | u64::from(Self::PENDING))
    }

    /// The depth whose values are watched.
    #[inline]
    fn depth(self) -> u64 {
        self.0 >> 8
    }

    /// The one element type seen, if every element so far had it.
    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn same(self) -> Option<VariantType> {
        // The enum's values are the Godot 4 ids, the order of `ALL`.
        VariantType::ALL.get(usize::from(self.0 as u8)).copied()
    }
}

impl<W: Output> Serializer<W> {
    /// A serializer writing to `out` with `config`.
    pub fn new(out: W, config: Config) -> Self {
        Serializer {
            out,
            config,
            depth: 0,
            infer: Infer::OFF,
            descriptors: Default::default(),
        }
    }

    /// Gives back the output.
    pub fn into_inner(self) -> W {
        self.out
    }

    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.out.put(&v.to_le_bytes());
    }

    #[inline]
    fn version(&self) -> GodotVersion {
        self.config.version
    }

    #[cold]
    fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.out.pos())
    }

    #[inline]
    fn type_id(&self, ty: VariantType) -> Result<u32> {
        // Nil to Vector2 have the same ids everywhere; Godot 4 ids are the enum's values.
        if ty as u8 <= VariantType::Vector2 as u8
            || (self.version().is_godot4() && ty != VariantType::PackedVector4Array)
        {
            return Ok(u32::from(ty as u8));
        }
        self.other_type_id(ty)
    }

    fn other_type_id(&self, ty: VariantType) -> Result<u32> {
        ty.id(self.version()).map(u32::from).ok_or_else(|| {
            self.error(ErrorKind::TypeNotInTarget {
                ty,
                version: self.version(),
            })
        })
    }

    #[cold]
    fn depth_error(&self) -> Error {
        self.error(ErrorKind::DepthLimitExceeded {
            limit: self.config.max_depth,
        })
    }

    /// A value's header word, after enforcing the depth limit (Godot checks
    /// `depth > MAX_RECURSION_DEPTH` on entry to every value).
    #[inline]
    fn head(&mut self, ty: VariantType, flags: u32) -> Result<u32> {
        if self.depth > self.config.max_depth {
            return Err(self.depth_error());
        }
        if self.infer.depth() == self.depth as u64 {
            self.observe(ty);
        }
        Ok(self.type_id(ty)? | flags)
    }

    /// Writes a value's header word (see [`Serializer::head`]).
    #[inline]
    fn header(&mut self, ty: VariantType, flags: u32) -> Result<()> {
        let word = self.head(ty, flags)?;
        self.put_u32(word);
        Ok(())
    }

    /// Records the type of a value written at the watched depth.
    #[cold]
    fn observe(&mut self, ty: VariantType) {
        let typed = !matches!(
            ty,
            VariantType::Nil | VariantType::Array | VariantType::Dictionary | VariantType::Object
        );
        #[allow(clippy::cast_possible_truncation)]
        let state = self.infer.0 as u8;
        let next = match state {
            Infer::PENDING if typed => ty as u8,
            seen if typed && seen == ty as u8 => seen,
            _ => Infer::MIXED,
        };
        self.infer = Infer(self.infer.0 & !0xFF | u64::from(next));
    }

    /// Godot's String field: length, UTF-8, zero padding.
    fn gstring(&mut self, s: &str) -> Result<()> {
        self.len_u32(s.len(), "String")?;
        self.out.put(s.as_bytes());
        self.pad(s.len());
        Ok(())
    }

    /// A String-like value: header, length, UTF-8, zero padding.
    #[inline]
    fn string_value(&mut self, ty: VariantType, s: &str) -> Result<()> {
        // Most keys and names are short: one word of text, checked and stored at once.
        if let Some(word) = short_word(s.as_bytes()) {
            let n = s.len();
            if short_has_nul(word, n) {
                return Err(self.nul_error());
            }
            let head = self.head(ty, 0)?;
            #[allow(clippy::cast_possible_truncation)]
            self.out.put_short(words(head, n as u32), word, n);
            return Ok(());
        }
        self.check_no_nul(s)?;
        let word = self.head(ty, 0)?;
        let len = self.len_i32(s.len(), "String")?;
        self.out.put_padded(words(word, len), s.as_bytes());
        Ok(())
    }

    /// Godot cuts strings at the first NUL when decoding: refuse to write one rather than
    /// let the engine read a different string.
    #[inline]
    fn check_no_nul(&self, s: &str) -> Result<()> {
        if has_nul(s.as_bytes()) {
            return Err(self.nul_error());
        }
        Ok(())
    }

    #[cold]
    fn nul_error(&self) -> Error {
        self.error(ErrorKind::Unsupported(
            "string contains a NUL character, which Godot cuts the string at".into(),
        ))
    }

    #[inline]
    fn pad(&mut self, len: usize) {
        put_padding(&mut self.out, len);
    }

    /// A length Godot reads as a signed 32-bit int, as the word to write.
    #[inline]
    fn len_i32(&self, len: usize, what: &'static str) -> Result<u32> {
        match i32::try_from(len) {
            Ok(n) => Ok(n.cast_unsigned()),
            Err(_) => Err(self.len_error(len, what)),
        }
    }

    #[cold]
    fn len_error(&self, len: usize, what: &'static str) -> Error {
        self.error(ErrorKind::Unsupported(
            format!("{what} of {len} elements exceeds Godot's 2^31 - 1 limit").into(),
        ))
    }

    /// Writes a length Godot reads as a signed 32-bit int.
    #[inline]
    fn len_u32(&mut self, len: usize, what: &'static str) -> Result<()> {
        let n = self.len_i32(len, what)?;
        self.put_u32(n);
        Ok(())
    }

    #[inline]
    fn int(&mut self, v: i64) -> Result<()> {
        match i32::try_from(v) {
            Ok(small) => {
                let word = self.head(VariantType::Int, 0)?;
                self.out.put_words(word, small.cast_unsigned());
            }
            Err(_) => {
                self.header(VariantType::Int, FLAG_64)?;
                self.out.put(&v.to_le_bytes());
            }
        }
        Ok(())
    }

    #[inline]
    fn float(&mut self, v: f64) -> Result<()> {
        // `encode_variant`: 32-bit iff converting to f32 and back gives an equal value.
        #[allow(clippy::cast_possible_truncation)]
        let narrow = v as f32;
        if f64::from(narrow) == v {
            let word = self.head(VariantType::Float, 0)?;
            self.out.put_words(word, narrow.to_bits());
        } else {
            self.header(VariantType::Float, FLAG_64)?;
            self.out.put(&v.to_le_bytes());
        }
        Ok(())
    }

    /// Whether float math components go out as f64 (the 4.x double-build flag).
    fn wide_reals(&self) -> Result<bool> {
        if !self.config.double_precision {
            return Ok(false);
        }
        if self.version() == GodotVersion::V3 {
            return Err(self.error(ErrorKind::Unsupported(
                "double-precision math types do not exist in Godot 3".into(),
            )));
        }
        Ok(true)
    }

    fn enum_key(&mut self, index: u32, name: &str) -> Result<()> {
        match self.config.enum_repr {
            EnumRepr::Name => self.string_value(VariantType::String, name),
            EnumRepr::Index => self.int(i64::from(index)),
        }
    }

    /// Starts an untyped Array or Dictionary with a count that is patched at the end if it
    /// was not known.
    #[inline]
    fn container(&mut self, ty: VariantType, len: Option<usize>) -> Result<Compound<'_, W>> {
        let infer_array = ty == VariantType::Array
            && self.config.typed_containers
            && self.version().has_typed_arrays();
        self.header(ty, 0)?;
        let header_at = self.out.pos() - 4;
        let count_at = self.out.pos();
        self.len_u32(len.unwrap_or(0), ty.name())?;
        self.enter()?;
        let outer_infer = self.infer;
        self.infer = if infer_array {
            Infer::pending(self.depth)
        } else {
            Infer::OFF
        };
        Ok(Compound {
            ser: self,
            ty,
            header_at,
            count_at,
            count: 0,
            outer_infer,
            kind: CompoundKind::Plain,
        })
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        self.depth = self.depth.checked_add(1).ok_or_else(|| {
            Error::new(ErrorKind::DepthLimitExceeded {
                limit: self.config.max_depth,
            })
        })?;
        Ok(())
    }

    #[inline]
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Writes the one-entry Dictionary header of a data-carrying enum variant and its key.
    fn variant_wrapper(&mut self, index: u32, name: &str) -> Result<()> {
        self.header(VariantType::Dictionary, 0)?;
        self.put_u32(1);
        self.enter()?;
        self.enum_key(index, name)
    }
}

impl<'a, W: Output> ser::Serializer for &'a mut Serializer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.header(VariantType::Bool, 0)?;
        self.put_u32(u32::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v)
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| self.error(ErrorKind::IntegerOutOfRange(v.to_string().into())))?;
        self.int(v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| self.error(ErrorKind::IntegerOutOfRange(v.to_string().into())))?;
        self.int(v)
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| self.error(ErrorKind::IntegerOutOfRange(v.to_string().into())))?;
        self.int(v)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.float(v.into())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(v)
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string_value(VariantType::String, v)
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let word = self.head(VariantType::PackedByteArray, 0)?;
        let len = self.len_i32(v.len(), "PackedByteArray")?;
        self.out.put_padded(words(word, len), v);
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }

    #[inline]
    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        match marker(name) {
            Some(m) if m.ty == VariantType::Callable => self.header(VariantType::Callable, 0),
            Some(_) => Err(self.error(ErrorKind::Unsupported(
                format!("{name} serialized as a unit struct").into(),
            ))),
            None => self.header(VariantType::Nil, 0),
        }
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.enum_key(index, variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match marker(name) {
            Some(m) => newtype_marker(self, m, value),
            None => value.serialize(self),
        }
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.variant_wrapper(index, variant)?;
        value.serialize(&mut *self)?;
        self.leave();
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.container(VariantType::Array, len)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.container(VariantType::Array, Some(len))
    }

    #[inline]
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        match marker(name) {
            Some(m) => match Components::of(m.ty) {
                Some(comp) => Compound::components(self, m.ty, comp),
                None => Compound::marker(self, m),
            },
            None => self.container(VariantType::Array, Some(len)),
        }
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.variant_wrapper(index, variant)?;
        let mut c = self.container(VariantType::Array, Some(len))?;
        c.kind = CompoundKind::InVariant;
        Ok(c)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.container(VariantType::Dictionary, len)
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.container(VariantType::Dictionary, Some(len))
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.variant_wrapper(index, variant)?;
        let mut c = self.container(VariantType::Dictionary, Some(len))?;
        c.kind = CompoundKind::InVariant;
        Ok(c)
    }
}

/// What a [`Compound`] is writing.
enum CompoundKind {
    /// An Array or Dictionary.
    Plain,
    /// An Array or Dictionary that is the payload of an enum variant's one-entry Dictionary.
    InVariant,
    /// The fields of a marker type, written through a [`Payload`] each.
    Marker(MarkerState),
    /// The components of a math type (Vector2, Color, ...): numbers of one kind.
    Components(Components),
}

/// The component kind of a math type.
#[derive(Clone, Copy, Debug)]
enum Components {
    /// Float math types: f32, or f64 when `wide`.
    Real { wide: bool },
    /// Integer vectors.
    I32,
    /// Color.
    F32,
}

impl Components {
    #[inline]
    fn of(ty: VariantType) -> Option<Self> {
        ty.components().map(|(_, scalar)| match scalar {
            Scalar::Real => Components::Real { wide: false },
            Scalar::I32 => Components::I32,
            _ => Components::F32,
        })
    }

    /// Bytes of one component on the wire.
    #[inline]
    fn width(self) -> u8 {
        match self {
            Components::Real { wide: true } => 8,
            _ => 4,
        }
    }

    #[inline]
    fn slot(self) -> Slot<'static> {
        match self {
            Components::Real { wide } => Slot::Real { wide },
            Components::I32 => Slot::I32,
            Components::F32 => Slot::F32,
        }
    }
}

/// Progress through a marker type's fields.
struct MarkerState {
    field: usize,
    wide: bool,
    /// Where the marker's first placeholder word is (NodePath counts, Object property count).
    slot: usize,
    names: u32,
    subnames: u32,
    /// Object: the class name was empty, the header became NIL and nothing else is written.
    null: bool,
}

/// A typed container descriptor as the marker protocol sends it: `(kind, type id, name)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Descriptor {
    kind: u8,
    id: u32,
    name: String,
}

/// The state for writing an Array, Dictionary, struct, or marker type's fields.
pub struct Compound<'a, W> {
    ser: &'a mut Serializer<W>,
    ty: VariantType,
    header_at: usize,
    count_at: usize,
    count: usize,
    outer_infer: Infer,
    kind: CompoundKind,
}

impl<'a, W: Output> Compound<'a, W> {
    /// Starts a math type: its header, then components as they come.
    #[inline]
    fn components(ser: &'a mut Serializer<W>, ty: VariantType, comp: Components) -> Result<Self> {
        let header_at = ser.out.pos();
        let comp = match comp {
            Components::Real { .. } => Components::Real {
                wide: ser.wide_reals()?,
            },
            other => other,
        };
        let flags = match comp {
            Components::Real { wide: true } => FLAG_64,
            _ => 0,
        };
        ser.header(ty, flags)?;
        let outer_infer = ser.infer;
        let numbers = ty.components().map_or(0, |(n, _)| usize::from(n));
        Ok(Compound {
            ser,
            ty,
            header_at,
            // The components start after the header and must fill exactly their bytes.
            count_at: header_at + 4,
            count: numbers * usize::from(comp.width()),
            outer_infer,
            kind: CompoundKind::Components(comp),
        })
    }

    fn marker(ser: &'a mut Serializer<W>, marker: Marker) -> Result<Self> {
        let ty = marker.ty;
        let mut wide = false;
        let header_at = ser.out.pos();
        match ty {
            _ if ty.has_real_components() => {
                wide = ser.wide_reals()?;
                ser.header(ty, if wide { FLAG_64 } else { 0 })?;
            }
            // Written once the descriptors (the first fields) are known; the sequence holding
            // it sees a container now, as inference is off while the fields are written.
            VariantType::Array | VariantType::Dictionary if marker.typed => {
                ser.descriptors = Default::default();
                if ser.infer.depth() == ser.depth as u64 {
                    ser.observe(ty);
                }
            }
            VariantType::Object => {
                ser.header(ty, 0)?;
            }
            _ => ser.header(ty, 0)?,
        }
        let slot = ser.out.pos();
        if ty == VariantType::NodePath {
            // name count | new-format bit, subname count, flags: patched at the end.
            ser.out.put(&[0; 12]);
        }
        let outer_infer = ser.infer;
        ser.infer = Infer::OFF;
        Ok(Compound {
            ser,
            ty,
            header_at,
            count_at: slot,
            count: 0,
            outer_infer,
            kind: CompoundKind::Marker(MarkerState {
                field: 0,
                wide,
                slot,
                names: 0,
                subnames: 0,
                null: false,
            }),
        })
    }

    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if let CompoundKind::Components(comp) = self.kind {
            return value.serialize(Payload {
                ser: &mut *self.ser,
                slot: comp.slot(),
            });
        }
        if let CompoundKind::Marker(state) = &mut self.kind {
            let field = state.field;
            state.field += 1;
            return marker_field(self.ser, self.ty, state, field, value);
        }
        self.count += 1;
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn finish(self) -> Result<()> {
        let Compound {
            ser,
            ty,
            header_at,
            count_at,
            count,
            outer_infer,
            kind,
        } = self;
        match kind {
            CompoundKind::Components(_) => {
                let written = ser.out.pos().saturating_sub(count_at);
                if written != count {
                    return Err(ser.error(ErrorKind::Message(
                        format!("{ty} needs {count} bytes of components, got {written}").into(),
                    )));
                }
                Ok(())
            }
            CompoundKind::Marker(state) => {
                ser.infer = outer_infer;
                finish_marker(ser, ty, &state)
            }
            CompoundKind::Plain | CompoundKind::InVariant => {
                let count = u32::try_from(count).map_err(|_| {
                    ser.error(ErrorKind::Unsupported("more than 2^31 - 1 elements".into()))
                })?;
                ser.out.patch_u32(count_at, count);
                let inferred = ser.infer;
                ser.leave();
                ser.infer = outer_infer;
                if let Some(elem) = inferred.same() {
                    // Typed Array: kind BUILTIN in bits 16-17, the type id right after the
                    // header.
                    let id = ser.type_id(ty)?;
                    ser.out.patch_u32(header_at, id | (1 << TYPED_KEY_SHIFT));
                    ser.out.insert_u32(header_at + 4, u32::from(elem as u8));
                }
                if matches!(kind, CompoundKind::InVariant) {
                    ser.leave();
                }
                Ok(())
            }
        }
    }
}

impl<W: Output> ser::SerializeSeq for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeTuple for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeTupleStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeTupleVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.count += 1;
        key.serialize(&mut *self.ser)
    }
    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.count += 1;
        self.ser.string_value(VariantType::String, key)?;
        value.serialize(&mut *self.ser)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<W: Output> ser::SerializeStructVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Writes the payload of a newtype marker (StringName, RID, ObjectId, packed arrays).
fn newtype_marker<W: Output, T: ?Sized + Serialize>(
    ser: &mut Serializer<W>,
    m: Marker,
    value: &T,
) -> Result<()> {
    let ty = m.ty;
    let slot = match ty {
        VariantType::StringName => Slot::Str,
        VariantType::Rid => Slot::Rid,
        VariantType::Object if m.as_id => Slot::ObjectId,
        VariantType::PackedStringArray => Slot::StringArray,
        VariantType::PackedByteArray
        | VariantType::PackedInt32Array
        | VariantType::PackedInt64Array
        | VariantType::PackedFloat32Array
        | VariantType::PackedFloat64Array
        | VariantType::PackedVector2Array
        | VariantType::PackedVector3Array
        | VariantType::PackedColorArray
        | VariantType::PackedVector4Array => Slot::Packed { ty, wide: m.wide },
        _ => {
            return Err(ser.error(ErrorKind::Unsupported(
                format!("{ty} serialized as a newtype struct").into(),
            )));
        }
    };
    if !matches!(slot, Slot::ObjectId | Slot::Packed { .. }) {
        ser.header(ty, 0)?;
    } else if let Slot::Packed { ty, .. } = slot {
        // The header needs the wire width, known before the bytes arrive.
        let flags = if ty.has_real_components() && ser.wide_reals()? {
            FLAG_64
        } else {
            0
        };
        ser.header(ty, flags)?;
    }
    value.serialize(Payload { ser, slot })
}

/// Writes one field of a marker tuple struct.
fn marker_field<W: Output, T: ?Sized + Serialize>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    state: &mut MarkerState,
    field: usize,
    value: &T,
) -> Result<()> {
    let slot = match ty {
        _ if ty.has_real_components() => Slot::Real { wide: state.wide },
        VariantType::Vector2i
        | VariantType::Rect2i
        | VariantType::Vector3i
        | VariantType::Vector4i => Slot::I32,
        VariantType::Color => Slot::F32,
        VariantType::NodePath => match field {
            0 => Slot::Names(&mut state.names),
            1 => Slot::Names(&mut state.subnames),
            _ => Slot::Absolute(state.slot),
        },
        VariantType::Signal => match field {
            0 => Slot::Str,
            _ => Slot::U64,
        },
        VariantType::Object => match field {
            0 => Slot::Class {
                header_at: state.slot.saturating_sub(4),
                null: &mut state.null,
            },
            // A null object has no properties on the wire.
            _ if state.null => return Ok(()),
            _ => Slot::Properties,
        },
        VariantType::Array | VariantType::Dictionary => {
            let descriptors = if ty == VariantType::Array { 1 } else { 2 };
            if field < descriptors {
                // Kept in the serializer (not in the Compound, which stays small) until
                // the header is written.
                let [key, val] = &mut ser.descriptors;
                let mut d = core::mem::take(if field == 1 { val } else { key });
                let r = value.serialize(Payload {
                    ser: &mut *ser,
                    slot: Slot::Descriptor(&mut d),
                });
                let [key, val] = &mut ser.descriptors;
                *(if field == 1 { val } else { key }) = d;
                return r;
            }
            let [key, val] = core::mem::take(&mut ser.descriptors);
            let slot = if ty == VariantType::Array {
                typed_header(ser, ty, &key, &Descriptor::default())?;
                Slot::Items
            } else {
                typed_header(ser, ty, &key, &val)?;
                Slot::Entries
            };
            return value.serialize(Payload { ser, slot });
        }
        _ => {
            return Err(ser.error(ErrorKind::Unsupported(
                format!("{ty} serialized as a tuple struct").into(),
            )));
        }
    };
    value.serialize(Payload { ser, slot })
}

/// Writes the header of a typed container (the descriptors only where the target reads them).
fn typed_header<W: Output>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    key: &Descriptor,
    value: &Descriptor,
) -> Result<()> {
    let version = ser.version();
    let typed = match ty {
        VariantType::Array => version.has_typed_arrays(),
        _ => version.has_typed_dictionaries(),
    };
    let none = Descriptor::default();
    // A builtin type of NIL is no typing at all: Godot writes kind NONE for it.
    let written = |d: &Descriptor| typed && !(d.kind == 1 && d.id == 0);
    let (key, value) = (
        if written(key) { key } else { &none },
        if written(value) { value } else { &none },
    );
    let flags =
        (u32::from(key.kind) << TYPED_KEY_SHIFT) | (u32::from(value.kind) << TYPED_VALUE_SHIFT);
    ser.header(ty, flags)?;
    for d in [key, value] {
        match d.kind {
            0 => {}
            1 => ser.put_u32(d.id),
            _ => ser.gstring(&d.name)?,
        }
    }
    Ok(())
}

/// Patches what a marker's fields could not write up front.
fn finish_marker<W: Output>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    state: &MarkerState,
) -> Result<()> {
    if ty == VariantType::NodePath {
        ser.out
            .patch_u32(state.slot, state.names | NODE_PATH_NEW_FORMAT);
        ser.out.patch_u32(state.slot + 4, state.subnames);
    }
    Ok(())
}

/// What a [`Payload`] serializer accepts and how it writes it.
enum Slot<'s> {
    /// A float component: f32, or f64 when `wide`.
    Real { wide: bool },
    /// An integer-vector component.
    I32,
    /// A Color component.
    F32,
    /// A Godot String field (StringName text, class or signal name).
    Str,
    /// A full object's class name; an empty one (the null object) turns the OBJECT header at
    /// `header_at` into NIL, as Godot writes a null object, and sets `null`.
    Class {
        header_at: usize,
        null: &'s mut bool,
    },
    /// A u64 (Signal's object id).
    U64,
    /// RID: a u64 in 4.x, nothing in 3.x.
    Rid,
    /// An object id: nil for 0, else OBJECT with the as-id flag.
    ObjectId,
    /// NodePath names or subnames: a seq of strings, counted.
    Names(&'s mut u32),
    /// NodePath absolute flag: patched into the flags word at `slot + 8`.
    Absolute(usize),
    /// Packed array bytes in the marker's element layout.
    Packed { ty: VariantType, wide: bool },
    /// PackedStringArray elements.
    StringArray,
    /// A typed container descriptor `(kind, id, name)`, as a 3-tuple.
    Descriptor(&'s mut Descriptor),
    /// One field of a descriptor tuple: 0 kind, 1 type id, 2 name.
    DescriptorField(&'s mut Descriptor, u8),
    /// Full object properties: a map of name → Variant.
    Properties,
    /// Typed Array elements: count, then values.
    Items,
    /// Typed Dictionary entries: count, then pairs.
    Entries,
}

/// A serializer for one marker field, accepting only what its [`Slot`] expects.
struct Payload<'a, 's, W> {
    ser: &'a mut Serializer<W>,
    slot: Slot<'s>,
}

impl<W: Output> Payload<'_, '_, W> {
    #[cold]
    fn unexpected(&self, what: &str) -> Error {
        let expected = match self.slot {
            Slot::Real { .. } => "a float component",
            Slot::I32 => "an i32 component",
            Slot::F32 => "an f32 component",
            Slot::Str | Slot::Class { .. } | Slot::Names(_) | Slot::StringArray => "a string",
            Slot::U64 | Slot::Rid | Slot::ObjectId => "a u64 id",
            Slot::Absolute(_) => "a bool",
            Slot::Packed { .. } => "packed array bytes",
            Slot::Descriptor(_) | Slot::DescriptorField(..) => "a container type (kind, id, name)",
            Slot::Properties | Slot::Entries => "a map",
            Slot::Items => "a sequence",
        };
        self.ser.error(ErrorKind::Message(
            format!("invalid marker field: {what}, expected {expected}").into(),
        ))
    }

    fn number(mut self, v: f64, int: Option<i64>) -> Result<()> {
        match self.slot {
            Slot::Real { wide: true } => self.ser.out.put(&v.to_le_bytes()),
            #[allow(clippy::cast_possible_truncation)]
            Slot::Real { wide: false } | Slot::F32 => self.ser.out.put(&(v as f32).to_le_bytes()),
            Slot::I32 => {
                let n = int
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| self.unexpected("a value outside i32"))?;
                self.ser.out.put(&n.to_le_bytes());
            }
            Slot::U64 | Slot::Rid | Slot::ObjectId => {
                let id = int
                    .and_then(|n| u64::try_from(n).ok())
                    .ok_or_else(|| self.unexpected("a negative or fractional number"))?;
                return self.id(id);
            }
            Slot::DescriptorField(ref mut d, field @ (0 | 1)) => {
                let n = int.and_then(|n| u32::try_from(n).ok());
                let kind = n.and_then(|n| u8::try_from(n).ok()).filter(|k| *k <= 3);
                match (field, n, kind) {
                    (0, _, Some(kind)) => d.kind = kind,
                    (1, Some(id), _) => d.id = id,
                    _ => return Err(self.unexpected("an invalid container kind or type id")),
                }
            }
            _ => return Err(self.unexpected("a number")),
        }
        Ok(())
    }

    fn id(self, id: u64) -> Result<()> {
        match self.slot {
            Slot::U64 => self.ser.out.put(&id.to_le_bytes()),
            Slot::Rid => {
                if self.ser.version().is_godot4() {
                    self.ser.out.put(&id.to_le_bytes());
                }
            }
            Slot::ObjectId if id == 0 => self.ser.header(VariantType::Nil, 0)?,
            Slot::ObjectId => {
                self.ser.header(VariantType::Object, FLAG_OBJECT_AS_ID)?;
                self.ser.out.put(&id.to_le_bytes());
            }
            _ => return Err(self.unexpected("an id")),
        }
        Ok(())
    }

    fn packed(self, bytes: &[u8]) -> Result<()> {
        let Slot::Packed { ty, wide } = self.slot else {
            return Err(self.unexpected("bytes"));
        };
        let Some((numbers, scalar)) = ty.packed_element() else {
            return Err(self.unexpected("bytes"));
        };
        let elem = usize::from(numbers) * scalar.size(wide);
        if !bytes.len().is_multiple_of(elem) {
            return Err(self.unexpected("a byte length that is not a whole number of elements"));
        }
        let count = bytes.len() / elem;
        self.ser.len_u32(count, ty.name())?;
        let out_wide = ty.has_real_components() && self.ser.wide_reals()?;
        if !ty.has_real_components() || wide == out_wide {
            self.ser.out.put(bytes);
            self.ser.pad(bytes.len());
            return Ok(());
        }
        // Component width differs between the Rust type and the target build: convert.
        if wide {
            for c in bytes.chunks_exact(8) {
                let mut b = [0; 8];
                b.copy_from_slice(c);
                #[allow(clippy::cast_possible_truncation)]
                let narrow = f64::from_le_bytes(b) as f32;
                self.ser.out.put(&narrow.to_le_bytes());
            }
        } else {
            for c in bytes.chunks_exact(4) {
                let mut b = [0; 4];
                b.copy_from_slice(c);
                self.ser
                    .out
                    .put(&f64::from(f32::from_le_bytes(b)).to_le_bytes());
            }
        }
        Ok(())
    }

    fn string(self, s: &str) -> Result<()> {
        match self.slot {
            Slot::Str => {
                self.ser.check_no_nul(s)?;
                self.ser.gstring(s)
            }
            Slot::Class { header_at, null } if s.is_empty() => {
                let nil = self.ser.type_id(VariantType::Nil)?;
                self.ser.out.patch_u32(header_at, nil);
                *null = true;
                Ok(())
            }
            Slot::Class { .. } => {
                self.ser.check_no_nul(s)?;
                self.ser.gstring(s)
            }
            Slot::Names(n) => {
                self.ser.check_no_nul(s)?;
                *n += 1;
                self.ser.gstring(s)
            }
            Slot::StringArray => {
                self.ser.check_no_nul(s)?;
                // PackedStringArray elements count and carry a NUL terminator.
                let len = s.len() + 1;
                self.ser.len_u32(len, "PackedStringArray element")?;
                self.ser.out.put(s.as_bytes());
                self.ser.out.put(&[0]);
                self.ser.pad(len);
                Ok(())
            }
            Slot::DescriptorField(d, 2) => {
                d.name = s.to_owned();
                Ok(())
            }
            _ => Err(self.unexpected("a string")),
        }
    }
}

macro_rules! payload_reject {
    ($($method:ident($($arg:ty),*) $what:literal;)*) => {$(
        fn $method(self $(, _: $arg)*) -> Result<()> {
            Err(self.unexpected($what))
        }
    )*};
}

impl<'a, 's, W: Output> ser::Serializer for Payload<'a, 's, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = PayloadSeq<'a, 's, W>;
    type SerializeTuple = PayloadSeq<'a, 's, W>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = PayloadMap<'a, W>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        let Slot::Absolute(slot) = self.slot else {
            return Err(self.unexpected("a bool"));
        };
        self.ser.out.patch_u32(slot + 8, u32::from(v));
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[allow(clippy::cast_precision_loss)]
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.number(v as f64, Some(v))
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.number(v.into(), Some(v.into()))
    }
    #[allow(clippy::cast_precision_loss)]
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        if matches!(self.slot, Slot::U64 | Slot::Rid | Slot::ObjectId) {
            return self.id(v);
        }
        self.number(v as f64, i64::try_from(v).ok())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if let Slot::F32 | Slot::Real { wide: false } = self.slot {
            self.ser.out.put(&v.to_le_bytes());
            return Ok(());
        }
        self.number(v.into(), None)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.number(v, None)
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v)
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.packed(v)
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    payload_reject! {
        serialize_char(char) "a char";
        serialize_none() "none";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "an enum";
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.unexpected("an enum"))
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<PayloadSeq<'a, 's, W>> {
        PayloadSeq::start(self, len)
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<PayloadSeq<'a, 's, W>> {
        PayloadSeq::start(self, Some(len))
    }
    #[inline]
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.unexpected("a tuple struct"))
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.unexpected("an enum"))
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<PayloadMap<'a, W>> {
        let properties = match self.slot {
            Slot::Properties => true,
            Slot::Entries => false,
            _ => return Err(self.unexpected("a map")),
        };
        let ser = self.ser;
        let count_at = ser.out.pos();
        ser.put_u32(0);
        ser.enter()?;
        Ok(PayloadMap {
            ser,
            count_at,
            count: 0,
            properties,
        })
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.unexpected("a struct"))
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.unexpected("an enum"))
    }
}

/// Sequences inside marker payloads: NodePath names, PackedStringArray elements, typed Array
/// items, and the descriptor tuple.
struct PayloadSeq<'a, 's, W> {
    ser: &'a mut Serializer<W>,
    slot: Slot<'s>,
    count_at: usize,
    count: u32,
}

impl<'a, 's, W: Output> PayloadSeq<'a, 's, W> {
    fn start(p: Payload<'a, 's, W>, _len: Option<usize>) -> Result<Self> {
        let Payload { ser, slot } = p;
        let count_at = ser.out.pos();
        match slot {
            Slot::StringArray => ser.put_u32(0),
            Slot::Items => {
                ser.put_u32(0);
                ser.enter()?;
            }
            Slot::Names(_) | Slot::Descriptor(_) => {}
            other => return Err(Payload { ser, slot: other }.unexpected("a sequence")),
        }
        Ok(PayloadSeq {
            ser,
            slot,
            count_at,
            count: 0,
        })
    }
}

impl<W: Output> ser::SerializeSeq for PayloadSeq<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        match &mut self.slot {
            Slot::Items => value.serialize(&mut *self.ser),
            Slot::StringArray => value.serialize(Payload {
                ser: self.ser,
                slot: Slot::StringArray,
            }),
            Slot::Names(n) => value.serialize(Payload {
                ser: self.ser,
                slot: Slot::Names(n),
            }),
            Slot::Descriptor(d) => {
                let field = u8::try_from(self.count - 1).unwrap_or(u8::MAX);
                value.serialize(Payload {
                    ser: self.ser,
                    slot: Slot::DescriptorField(d, field),
                })
            }
            _ => Err(self
                .ser
                .error(ErrorKind::Message("unexpected marker sequence".into()))),
        }
    }
    fn end(self) -> Result<()> {
        match self.slot {
            Slot::StringArray => self.ser.out.patch_u32(self.count_at, self.count),
            Slot::Items => {
                self.ser.out.patch_u32(self.count_at, self.count);
                self.ser.leave();
            }
            _ => {}
        }
        Ok(())
    }
}

impl<W: Output> ser::SerializeTuple for PayloadSeq<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

/// Maps inside marker payloads: object properties (keys are raw String fields) and typed
/// Dictionary entries (keys are Variants).
struct PayloadMap<'a, W> {
    ser: &'a mut Serializer<W>,
    count_at: usize,
    count: u32,
    properties: bool,
}

impl<W: Output> ser::SerializeMap for PayloadMap<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.count += 1;
        if self.properties {
            key.serialize(Payload {
                ser: self.ser,
                slot: Slot::Str,
            })
        } else {
            key.serialize(&mut *self.ser)
        }
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        self.ser.out.patch_u32(self.count_at, self.count);
        self.ser.leave();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_padded_matches_the_plain_layout_for_every_short_length() {
        let text: Vec<u8> = (1..=40).collect();
        for n in 0..=40 {
            let t = &text[..n];
            let head = words(4, u32::try_from(n).unwrap());
            let mut fast = vec![9u8; 3];
            fast.put_padded(head, t);
            let mut plain = vec![9u8; 3];
            plain.extend_from_slice(&head);
            plain.extend_from_slice(t);
            plain.resize(3 + 8 + n.div_ceil(4) * 4, 0);
            assert_eq!(fast, plain, "length {n}");
            let mut counter = SizeCounter::default();
            counter.put_padded(head, t);
            assert_eq!(counter.0, plain.len() - 3);
        }
    }

    #[test]
    fn has_nul_finds_a_nul_at_every_position() {
        for n in 0..=40 {
            let clean = vec![0xffu8; n];
            assert!(!has_nul(&clean), "length {n}");
            let ascii = vec![b'a'; n];
            assert!(!has_nul(&ascii), "length {n}");
            // Bytes just above zero and 0x80 must not look like NUL.
            let edgy: Vec<u8> = (0..n).map(|i| [1, 0x80, 0x81, 0x7f][i % 4]).collect();
            assert!(!has_nul(&edgy), "length {n}");
            for at in 0..n {
                let mut with = ascii.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {n}, NUL at {at}");
                let mut with = edgy.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {n}, NUL at {at}");
            }
        }
    }
}
#[cfg(test)]
mod short_text_tests {
    use super::{short_has_nul, short_word};

    /// The one-word text path against the plain definitions: every length up to 8, a NUL
    /// at every position, and bytes with the high bit set (which must not pass for NUL).
    #[test]
    fn short_word_and_nul_check() {
        for n in 0..=8usize {
            for fill in [b'a', 0x80, 0xFF, 0x01] {
                let text: Vec<u8> = (0..n).map(|i| fill.wrapping_add(i as u8 % 3)).collect();
                let word = short_word(&text).unwrap();
                let mut expected = [0u8; 8];
                expected[..n].copy_from_slice(&text);
                assert_eq!(word.to_le_bytes(), expected, "{text:?}");
                assert_eq!(short_has_nul(word, n), text.contains(&0), "{text:?}");
                for at in 0..n {
                    let mut with_nul = text.clone();
                    with_nul[at] = 0;
                    let word = short_word(&with_nul).unwrap();
                    assert!(short_has_nul(word, n), "{with_nul:?}");
                }
            }
        }
        assert_eq!(short_word(b"123456789"), None);
    }

    /// `put_short` writes the plain layout: header, text, zeros to a multiple of 4.
    #[test]
    fn put_short_matches_the_plain_layout() {
        use super::Output;
        for n in 0..=8usize {
            let text: Vec<u8> = (1..=n as u8).collect();
            let head = [4, 0, 0, 0, n as u8, 0, 0, 0];
            let mut out = vec![0xEE];
            out.put_short(head, short_word(&text).unwrap(), n);
            let mut expected = vec![0xEE];
            expected.extend_from_slice(&head);
            expected.extend_from_slice(&text);
            expected.resize(1 + 8 + n.div_ceil(4) * 4, 0);
            assert_eq!(out, expected, "n = {n}");
        }
    }
}
