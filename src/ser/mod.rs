//! [`Serializer`]: serde data model → Godot Variant bytes, as `encode_variant` in
//! `core/io/marshalls.cpp` writes them.
//!
//! Output goes to a `Vec<u8>` (or a byte counter for [`serialized_size`](crate::serialized_size)),
//! which lets counts that serde does not know up front (`serialize_seq(None)`, `flatten`,
//! skipped struct fields) be patched in place at the end instead of buffering the contents.
//!
//! - `mod.rs`: the [`Serializer`], its per-value rules (headers, depth, inference) and the
//!   entry for every serde call;
//! - the [`Output`] sink (`Vec<u8>` or [`SizeCounter`](crate::SizeCounter)) and its word-wise writes are the
//!   wire layer's ([`crate::wire::output`]), under the [`Writer`] as under every writer;
//! - [`compound`]: Arrays, Dictionaries and structs while their elements come in (and the
//!   count patching at their end), and math types' components ([`TupleStruct`]);
//! - [`field`]: a struct field's value ([`field::FieldValue`]), whose checks its field made
//!   once for the key and the value;
//! - [`marker`]: the marker types' fields (StringName, NodePath, Object, typed containers,
//!   packed arrays, ...), each through a [`marker::FieldSerializer`];
//! - [`fast`]: the fast paths (short Strings, struct keys, math types' components), each
//!   with its switch back to the general path and what it saves.

mod compound;
mod fast;
mod field;
mod marker;

pub use compound::Compound;
pub use fast::{MathComponents, TupleStruct};

use crate::config::{Config, EnumRepr, GodotVersion};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{Marker, marker};
use crate::wire::output::{Output, words};
use crate::wire::writer::Writer;
use crate::wire::{FLAG_64, VariantType};
use compound::{Components, CompoundKind};
use fast::MathPlan;
use marker::{Descriptor, newtype_marker};
use serde::ser::{self, Serialize};

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
        core::mem::swap(self.home, &mut self.ser.w.out);
    }
}

/// The Godot type that `name` stands for when a `Serialize` impl passes it to
/// `serialize_newtype_struct`, `serialize_tuple_struct` or `serialize_unit_struct`: the marker
/// types' names (this crate's [`Vector2`](crate::Vector2), [`StringName`](crate::StringName),
/// typed Arrays, ...), each one Godot value, or `None` for any other name (a struct of the
/// caller's, written as a Dictionary or an Array of its fields). For formats that frame
/// Variants in a layout of their own and must tell one value from a list of fields, such as
/// the RPC arguments of `godot-serde-multiplayer`; the lookup is the serializer's own.
///
/// ```
/// use godot_serde::{VariantType, marker_type};
///
/// assert_eq!(marker_type("$godot_serde::Vector2"), Some(VariantType::Vector2));
/// assert_eq!(marker_type("$godot_serde::NotAType"), None);
/// assert_eq!(marker_type("Player"), None);
/// ```
#[inline]
#[must_use]
pub fn marker_type(name: &str) -> Option<VariantType> {
    marker(name).map(|m| m.ty)
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
    /// The wire writer: output, depth, header words, String fields.
    w: Writer<W>,
    config: Config,
    /// Element type seen so far in the innermost array, for typed-container inference.
    infer: Infer,
    /// Typed container descriptors (key, value) of the marker being written, captured from
    /// its first fields.
    descriptors: [Descriptor; 2],
    /// Where the keys of the maps being sorted start and end (a stack: nested maps push
    /// above their parent's entries and pop theirs when done).
    map_entries: Vec<(usize, usize)>,
}

/// What a tuple-struct or newtype name stands for (see [`Serializer::resolve_name`]).
#[derive(Clone, Copy)]
struct TupleName {
    marker: Option<Marker>,
    /// For a math type whose components this target can hold: its header word and plan.
    math: Option<MathPlan>,
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
            w: Writer::new(out, &config),
            config,
            infer: Infer::OFF,
            descriptors: Default::default(),
            map_entries: Vec::new(),
        }
    }

    /// Gives back the output.
    pub fn into_inner(self) -> W {
        self.w.into_inner()
    }

    /// The output written so far, to append bytes of another layout between complete values
    /// (a container's format around Variants, such as the compressed RPC arguments of
    /// `godot-serde-multiplayer`). Only between values: bytes changed inside a value being
    /// written would move the counts it patches at its end.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut ser = godot_serde::Serializer::new(Vec::new(), godot_serde::Config::default());
    /// ser.output_mut().push(0xFF);
    /// true.serialize(&mut ser)?;
    /// assert_eq!(ser.into_inner(), [0xFF, 1, 0, 0, 0, 1, 0, 0, 0]);
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.w.out
    }

    /// What `name` stands for, worked out from the name: for a constant name (a marker
    /// type's `Serialize` passes one), the lookup folds away at compile time and only the
    /// target's header word is left to compute.
    #[inline(always)]
    fn resolve_name(&self, name: &str) -> TupleName {
        let marker = marker(name);
        let math = marker.and_then(|m| self.math_plan(m));
        TupleName { marker, math }
    }

    #[inline]
    fn version(&self) -> GodotVersion {
        self.config.version
    }

    /// A value's header word, after enforcing the depth limit (Godot checks
    /// `depth > MAX_RECURSION_DEPTH` on entry to every value).
    #[inline]
    fn head(&mut self, ty: VariantType, flags: u32) -> Result<u32> {
        self.check_value(ty)?;
        Ok(self.w.type_id(ty)? | flags)
    }

    /// What every value does before its header: the depth limit, and recording its type
    /// when an enclosing Array watches this depth.
    #[inline]
    fn check_value(&mut self, ty: VariantType) -> Result<()> {
        self.w.check_depth()?;
        if self.infer.depth() == self.w.depth.level() as u64 {
            self.observe(ty);
        }
        Ok(())
    }

    /// Writes a value's header word (see [`Serializer::head`]).
    #[inline]
    fn header(&mut self, ty: VariantType, flags: u32) -> Result<()> {
        let word = self.head(ty, flags)?;
        self.w.put_u32(word);
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

    /// A String-like value: header, length, UTF-8, zero padding.
    #[inline]
    fn string_value(&mut self, ty: VariantType, s: &str) -> Result<()> {
        self.put_string::<true>(ty, s)
    }

    /// [`Serializer::string_value`], with the value's checks ([`Serializer::check_value`])
    /// when `CHECK`; without them for a struct field's value, whose field made them. A short
    /// text takes [`fast`]'s one-store path.
    #[inline(always)]
    fn put_string<const CHECK: bool>(&mut self, ty: VariantType, s: &str) -> Result<()> {
        if let Some(done) = self.short_string::<CHECK>(ty, s) {
            return done;
        }
        self.put_string_general::<CHECK>(ty, s)
    }

    /// [`Serializer::put_string`]'s general path, for a text of any length: the NUL check,
    /// the header, the length word, the text and its padding.
    #[inline(always)]
    fn put_string_general<const CHECK: bool>(&mut self, ty: VariantType, s: &str) -> Result<()> {
        self.w.check_no_nul(s)?;
        let word = self.head_if::<CHECK>(ty, 0)?;
        let len = self.w.len_i32(s.len(), "String")?;
        self.w.out.put_padded(words(word, len), s.as_bytes());
        Ok(())
    }

    /// A value's header word: through [`Serializer::head`] when `CHECK`, else only the
    /// type's id (a struct field's value, whose checks its field made).
    #[inline(always)]
    fn head_if<const CHECK: bool>(&mut self, ty: VariantType, flags: u32) -> Result<u32> {
        if CHECK {
            self.head(ty, flags)
        } else {
            Ok(self.w.type_id(ty)? | flags)
        }
    }

    /// An int: 32-bit when it fits (inlined into the caller, one check and one store), else
    /// 64-bit out of line.
    #[inline(always)]
    fn int(&mut self, v: i64) -> Result<()> {
        self.put_int::<true>(v)
    }

    /// [`Serializer::int`], with the value's checks only when `CHECK` (see
    /// [`Serializer::head_if`]).
    #[inline(always)]
    fn put_int<const CHECK: bool>(&mut self, v: i64) -> Result<()> {
        match i32::try_from(v) {
            Ok(small) => {
                let word = self.head_if::<CHECK>(VariantType::Int, 0)?;
                self.w.out.put_words(word, small.cast_unsigned());
                Ok(())
            }
            Err(_) => self.int64(v),
        }
    }

    #[inline(never)]
    fn int64(&mut self, v: i64) -> Result<()> {
        self.header(VariantType::Int, FLAG_64)?;
        self.w.out.put(&v.to_le_bytes());
        Ok(())
    }

    #[inline]
    fn float(&mut self, v: f64) -> Result<()> {
        self.put_float::<true>(v)
    }

    /// [`Serializer::float`], with the value's checks only when `CHECK` (see
    /// [`Serializer::head_if`]).
    #[inline(always)]
    fn put_float<const CHECK: bool>(&mut self, v: f64) -> Result<()> {
        // `encode_variant`: 32-bit iff converting to f32 and back gives an equal value.
        #[allow(clippy::cast_possible_truncation)]
        let narrow = v as f32;
        if f64::from(narrow) == v {
            let word = self.head_if::<CHECK>(VariantType::Float, 0)?;
            self.w.out.put_words(word, narrow.to_bits());
        } else {
            self.header(VariantType::Float, FLAG_64)?;
            self.w.out.put(&v.to_le_bytes());
        }
        Ok(())
    }

    /// An f32 value: 32-bit unless it is a NaN (which never compares equal to itself, so
    /// `encode_variant`'s round-trip test sends it as 64-bit: [`Serializer::float`]).
    #[inline(always)]
    fn put_f32<const CHECK: bool>(&mut self, v: f32) -> Result<()> {
        if v.is_nan() {
            return self.put_float::<CHECK>(v.into());
        }
        let word = self.head_if::<CHECK>(VariantType::Float, 0)?;
        self.w.out.put_words(word, v.to_bits());
        Ok(())
    }

    /// Whether float math components go out as f64 (the 4.x double-build flag).
    fn wide_reals(&self) -> Result<bool> {
        if !self.config.double_precision {
            return Ok(false);
        }
        if !self.version().has_64bit_reals() {
            return Err(self.w.error(ErrorKind::Unsupported(
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
        let word = self.head(ty, 0)?;
        let header_at = self.w.out.pos();
        let declared = len.unwrap_or(0);
        let count = self.w.len_i32(declared, ty.name())?;
        self.w.out.put_words(word, count);
        self.w.enter();
        let deep = self.w.too_deep();
        let outer_infer = self.infer;
        let kind = if ty == VariantType::Array
            && self.config.typed_containers
            && self.version().has_typed_arrays()
        {
            self.infer = Infer::pending(self.w.depth.level());
            CompoundKind::Inferring
        } else {
            CompoundKind::Plain
        };
        Ok(Compound {
            ser: self,
            ty,
            header_at,
            count_at: header_at + 4,
            count: 0,
            declared,
            outer_infer,
            kind,
            in_variant: false,
            deep,
        })
    }

    /// `serialize_tuple_struct`, with a math value's checks only when `CHECK` (see
    /// [`Serializer::head_if`]).
    #[inline(always)]
    fn tuple_struct<const CHECK: bool>(
        &mut self,
        name: &'static str,
        len: usize,
    ) -> Result<TupleStruct<'_, W>> {
        let known = self.resolve_name(name);
        if let Some(plan) = known.math {
            if CHECK {
                self.check_value(plan.ty)?;
            }
            return Ok(TupleStruct::Math(MathComponents::start(self, plan)));
        }
        self.tuple_struct_other(known.marker, len)
            .map(TupleStruct::Other)
    }

    /// A tuple struct that is not a math type: a marker's fields, a math type this target
    /// cannot hold (the error), or a plain Array.
    fn tuple_struct_other(
        &mut self,
        marker: Option<Marker>,
        len: usize,
    ) -> Result<Compound<'_, W>> {
        match marker {
            Some(m) => match Components::of(m.ty) {
                Some(comp) => Compound::components(self, m.ty, comp),
                None => Compound::marker(self, m),
            },
            None => self.container(VariantType::Array, Some(len)),
        }
    }

    /// Writes the one-entry Dictionary header of a data-carrying enum variant and its key.
    fn variant_wrapper(&mut self, index: u32, name: &str) -> Result<()> {
        self.header(VariantType::Dictionary, 0)?;
        self.w.put_u32(1);
        self.w.enter();
        self.enum_key(index, name)
    }
}

impl<'a, W: Output> ser::Serializer for &'a mut Serializer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = TupleStruct<'a, W>;
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
        self.w.put_u32(u32::from(v));
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
        let v = i64::try_from(v).map_err(|_| {
            self.w
                .error(ErrorKind::IntegerOutOfRange(v.to_string().into()))
        })?;
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
        let v = i64::try_from(v).map_err(|_| {
            self.w
                .error(ErrorKind::IntegerOutOfRange(v.to_string().into()))
        })?;
        self.int(v)
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        let v = i64::try_from(v).map_err(|_| {
            self.w
                .error(ErrorKind::IntegerOutOfRange(v.to_string().into()))
        })?;
        self.int(v)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.put_f32::<true>(v)
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
        let len = self.w.len_i32(v.len(), "PackedByteArray")?;
        self.w.out.put_padded(words(word, len), v);
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
            Some(_) => Err(self.w.error(ErrorKind::Unsupported(
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
        self.w.leave();
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

    // Always inlined: a math type's header, components and end then become straight-line
    // code at its call site; every other tuple struct takes `tuple_struct_other`.
    #[inline(always)]
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<TupleStruct<'a, W>> {
        self.tuple_struct::<true>(name, len)
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
        c.in_variant = true;
        Ok(c)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        let sorted = self.config.sorted_maps;
        let mut c = self.container(VariantType::Dictionary, len)?;
        if sorted {
            c.kind = CompoundKind::Sorted {
                base: c.ser.map_entries.len(),
            };
        }
        Ok(c)
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
        c.in_variant = true;
        Ok(c)
    }
}
