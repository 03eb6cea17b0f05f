//! [`Compound`]: an Array, Dictionary, struct or math type while its elements come in, and
//! the count patching (and typed-Array inference) at its end.

use super::field::FieldValue;
use super::marker::{FieldSerializer, MarkerState, Slot, finish_marker, marker_field};
use super::{Infer, MathPlan, Output, Serializer};
use crate::error::{Error, ErrorKind, Result};
use crate::types::Marker;
use crate::wire::{Descriptor, FLAG_64, Scalar, TYPED_KEY_SHIFT, VariantType};
use serde::ser::{self, Impossible, Serialize};

/// What a [`Compound`] is writing.
///
/// A plain tag byte (no niche in the fields' padding), so that telling the kinds apart on
/// every element is one byte compare.
#[repr(u8)]
pub(super) enum CompoundKind {
    /// A Dictionary, or an Array whose element type is not inferred: its values are one
    /// level deeper than any depth an enclosing Array watches, so the inference state stays.
    Plain,
    /// An Array whose element type is being inferred: typed at its end if the elements
    /// agree, then the enclosing inference state comes back.
    Inferring,
    /// A map whose entries are sorted by their key bytes at its end
    /// ([`Config::with_sorted_maps`](crate::Config::with_sorted_maps)): where each key
    /// starts and ends, from index `base` of the serializer's `map_entries` stack on.
    Sorted { base: usize },
    /// The fields of a marker type, written through a [`FieldSerializer`] each.
    Marker(MarkerState),
    /// The components of a math type (Vector2, Color, ...): numbers of one kind.
    Components(Components),
}

/// The component kind of a math type.
///
/// Fieldless, so that the check each component makes is one compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Components {
    /// Float math types with f32 components.
    Real32,
    /// Float math types with f64 components (the 4.x double-build flag).
    Real64,
    /// Integer vectors.
    I32,
    /// Color.
    F32,
}

impl Components {
    /// Float components, f64 when `wide`.
    #[inline]
    pub(super) fn real(wide: bool) -> Self {
        if wide {
            Components::Real64
        } else {
            Components::Real32
        }
    }

    #[inline]
    pub(super) fn of(ty: VariantType) -> Option<Self> {
        ty.components().map(|(_, scalar)| match scalar {
            Scalar::Real => Components::Real32,
            Scalar::I32 => Components::I32,
            _ => Components::F32,
        })
    }

    /// Bytes of one component on the wire.
    #[inline]
    pub(super) fn width(self) -> u8 {
        match self {
            Components::Real64 => 8,
            _ => 4,
        }
    }

    #[inline]
    fn slot(self) -> Slot<'static> {
        match self {
            Components::Real32 => Slot::Component {
                kind: Scalar::Real,
                wide: false,
            },
            Components::Real64 => Slot::Component {
                kind: Scalar::Real,
                wide: true,
            },
            Components::I32 => Slot::Component {
                kind: Scalar::I32,
                wide: false,
            },
            Components::F32 => Slot::Component {
                kind: Scalar::F32,
                wide: false,
            },
        }
    }
}

/// The state for writing an Array, Dictionary, struct, or marker type's fields.
pub struct Compound<'a, W> {
    pub(super) ser: &'a mut Serializer<W>,
    pub(super) ty: VariantType,
    pub(super) header_at: usize,
    pub(super) count_at: usize,
    pub(super) count: usize,
    /// The count written with the header: patched at the end only if `count` differs.
    pub(super) declared: usize,
    pub(super) outer_infer: Infer,
    pub(super) kind: CompoundKind,
    /// The payload of an enum variant's one-entry Dictionary (one more level to leave).
    pub(super) in_variant: bool,
    /// Its entries would sit deeper than the depth limit: a struct field is an error (the
    /// limit checked once per struct instead of once per field).
    pub(super) deep: bool,
}

impl<'a, W: Output> Compound<'a, W> {
    /// Starts a math type: its header, then components as they come.
    #[inline]
    pub(super) fn components(
        ser: &'a mut Serializer<W>,
        ty: VariantType,
        comp: Components,
    ) -> Result<Self> {
        let header_at = ser.w.out.pos();
        let comp = match comp {
            Components::Real32 | Components::Real64 => Components::real(ser.wide_reals()?),
            other => other,
        };
        let flags = match comp {
            Components::Real64 => FLAG_64,
            _ => 0,
        };
        ser.header(ty, flags)?;
        let outer_infer = ser.infer;
        let numbers = ty.components().map_or(0, |(n, _)| usize::from(n));
        ser.w.out.reserve(numbers * usize::from(comp.width()));
        Ok(Compound {
            ser,
            ty,
            header_at,
            // The components start after the header and must fill exactly their bytes.
            count_at: header_at + 4,
            count: numbers * usize::from(comp.width()),
            declared: 0,
            outer_infer,
            kind: CompoundKind::Components(comp),
            in_variant: false,
            deep: false,
        })
    }

    pub(super) fn marker(ser: &'a mut Serializer<W>, marker: Marker) -> Result<Self> {
        let ty = marker.ty;
        let mut wide = false;
        let header_at = ser.w.out.pos();
        match ty {
            _ if ty.has_real_components() => {
                wide = ser.wide_reals()?;
                ser.header(ty, if wide { FLAG_64 } else { 0 })?;
            }
            // Written once the descriptors (the first fields) are known; the sequence holding
            // it sees a container now, as inference is off while the fields are written.
            VariantType::Array | VariantType::Dictionary if marker.typed => {
                ser.descriptors = Default::default();
                if ser.infer.depth() == ser.w.depth as u64 {
                    ser.observe(ty);
                }
            }
            VariantType::Object => {
                ser.header(ty, 0)?;
            }
            _ => ser.header(ty, 0)?,
        }
        let slot = ser.w.out.pos();
        if ty == VariantType::NodePath {
            // name count | new-format bit, subname count, flags: patched at the end.
            ser.w.out.put(&[0; 12]);
        }
        let outer_infer = ser.infer;
        ser.infer = Infer::OFF;
        Ok(Compound {
            ser,
            ty,
            header_at,
            count_at: slot,
            count: 0,
            declared: 0,
            outer_infer,
            in_variant: false,
            deep: false,
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

    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        // The common case first: an Array's element (or a map's, never here).
        if let CompoundKind::Plain | CompoundKind::Inferring | CompoundKind::Sorted { .. } =
            self.kind
        {
            self.count += 1;
            return value.serialize(&mut *self.ser);
        }
        if let CompoundKind::Components(comp) = self.kind {
            return value.serialize(FieldSerializer {
                ser: &mut *self.ser,
                slot: comp.slot(),
            });
        }
        if let CompoundKind::Marker(state) = &mut self.kind {
            // Through a copy: no pointer into the compound leaves this function, so that
            // a math type's `TupleStruct` (which shares its memory) can live in registers.
            let mut local = *state;
            let field = local.field;
            local.field += 1;
            let r = marker_field(self.ser, self.ty, &mut local, field, value);
            *state = local;
            return r;
        }
        self.count += 1;
        value.serialize(&mut *self.ser)
    }

    /// Ends the compound: the common cases (a math type's components complete, a container
    /// whose count was declared) inline, the rest in [`Compound::finish_slow`].
    #[inline(always)]
    fn finish(self) -> Result<()> {
        match self.kind {
            CompoundKind::Components(_) if self.ser.w.out.pos() == self.count_at + self.count => {
                Ok(())
            }
            CompoundKind::Plain if self.count == self.declared && !self.in_variant => {
                self.ser.w.leave();
                Ok(())
            }
            _ => self.finish_slow(),
        }
    }

    fn finish_slow(self) -> Result<()> {
        let Compound {
            ser,
            ty,
            header_at,
            count_at,
            count,
            declared,
            outer_infer,
            kind,
            in_variant,
            deep: _,
        } = self;
        match kind {
            CompoundKind::Components(_) => {
                let written = ser.w.out.pos().saturating_sub(count_at);
                if written != count {
                    return Err(ser.w.error(ErrorKind::Message(
                        format!("{ty} needs {count} bytes of components, got {written}").into(),
                    )));
                }
                Ok(())
            }
            CompoundKind::Marker(state) => {
                ser.infer = outer_infer;
                finish_marker(ser, ty, &state)
            }
            CompoundKind::Plain | CompoundKind::Inferring | CompoundKind::Sorted { .. } => {
                if let CompoundKind::Sorted { base } = kind {
                    if let Some(entries) = ser.map_entries.get(base..) {
                        ser.w.out.sort_entries(entries);
                    }
                    ser.map_entries.truncate(base);
                }
                if count != declared {
                    let count = u32::try_from(count).map_err(|_| {
                        ser.w
                            .error(ErrorKind::Unsupported("more than 2^31 - 1 elements".into()))
                    })?;
                    ser.w.out.patch_u32(count_at, count);
                }
                ser.w.leave();
                if in_variant {
                    ser.w.leave();
                }
                if matches!(kind, CompoundKind::Inferring) {
                    let inferred = ser.infer;
                    ser.infer = outer_infer;
                    if let Some(elem) = inferred.same() {
                        // Typed Array: kind BUILTIN in bits 16-17, the type id right after
                        // the header.
                        let id = ser.w.type_id(ty)?;
                        ser.w.out.patch_u32(
                            header_at,
                            id | u32::from(Descriptor::BUILTIN) << TYPED_KEY_SHIFT,
                        );
                        ser.w.out.insert_u32(header_at + 4, u32::from(elem as u8));
                    }
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

/// A tuple struct: a math type's components (the common case, kept small so that it stays
/// in registers and each component is one store) or anything else through [`Compound`].
pub enum TupleStruct<'a, W> {
    /// A math type whose header is written: its components go straight to the output.
    Math(MathComponents<'a, W>),
    /// A marker type's fields or a plain Array.
    Other(Compound<'a, W>),
}

/// The components of a math type being written (see [`TupleStruct`]).
pub struct MathComponents<'a, W> {
    ser: &'a mut Serializer<W>,
    /// Where the components start (just after the header) and must end.
    start: usize,
    end: usize,
    comp: Components,
    ty: VariantType,
}

impl<'a, W: Output> MathComponents<'a, W> {
    /// Starts a math type from its plan (see `Serializer::resolve_name`): writes its header.
    /// The caller has made the value's checks ([`Serializer::check_value`]): this cannot
    /// fail, so the state is built in place rather than moved out of a `Result`.
    #[inline(always)]
    pub(super) fn start(ser: &'a mut Serializer<W>, plan: MathPlan) -> Self {
        ser.w.put_u32(plan.word);
        let start = ser.w.out.pos();
        MathComponents {
            ser,
            start,
            end: start + usize::from(plan.bytes),
            comp: plan.comp,
            ty: plan.ty,
        }
    }

    #[cold]
    fn size_error(&self, start: usize) -> Error {
        let (ty, count) = (self.ty, self.end.saturating_sub(start));
        let written = self.ser.w.out.pos().saturating_sub(start);
        self.ser.w.error(ErrorKind::Message(
            format!("{ty} needs {count} bytes of components, got {written}").into(),
        ))
    }
}

/// Takes one math component: a number of the component's kind is one store; anything else
/// goes to the [`FieldSerializer`] of that kind (conversions and errors).
struct ComponentSink<'a, W> {
    ser: &'a mut Serializer<W>,
    comp: Components,
}

impl<'a, W: Output> ComponentSink<'a, W> {
    #[inline]
    fn field(self) -> FieldSerializer<'a, 'static, W> {
        FieldSerializer {
            ser: self.ser,
            slot: self.comp.slot(),
        }
    }

    #[cold]
    fn reject(self, what: &str) -> Error {
        self.field().unexpected(what)
    }
}

/// Numbers other than the fast kind: through the [`FieldSerializer`].
macro_rules! component_numbers {
    ($($m:ident($t:ty);)*) => {$(
        #[inline]
        fn $m(self, v: $t) -> Result<()> {
            ser::Serializer::$m(self.field(), v)
        }
    )*};
}

/// Everything that is not a number: refused.
macro_rules! component_reject {
    ($($m:ident($($arg:ty),*) $what:literal;)*) => {$(
        fn $m(self $(, _: $arg)*) -> Result<()> {
            Err(self.reject($what))
        }
    )*};
}

impl<W: Output> ser::Serializer for ComponentSink<'_, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if let Components::F32 | Components::Real32 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_f32(self.field(), v)
    }
    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if let Components::Real64 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_f64(self.field(), v)
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<()> {
        if let Components::I32 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_i32(self.field(), v)
    }

    component_numbers! {
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
    }

    component_reject! {
        serialize_bool(bool) "a bool";
        serialize_char(char) "a char";
        serialize_str(&str) "a string";
        serialize_bytes(&[u8]) "bytes";
        serialize_none() "none";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "an enum";
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.reject("an enum"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(self.reject("a sequence"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a sequence"))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(self.reject("an enum"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(self.reject("a map"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(self.reject("an enum"))
    }
}

impl<W: Output> ser::SerializeTupleStruct for TupleStruct<'_, W> {
    type Ok = ();
    type Error = Error;
    // Always inlined: in a math type's loop over its components, each component becomes a
    // tag check and one store.
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            TupleStruct::Math(m) => value.serialize(ComponentSink {
                ser: &mut *m.ser,
                comp: m.comp,
            }),
            TupleStruct::Other(c) => c.element(value),
        }
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        match self {
            TupleStruct::Math(m) if m.ser.w.out.pos() == m.end => Ok(()),
            TupleStruct::Math(m) => Err(m.size_error(m.start)),
            TupleStruct::Other(c) => c.finish(),
        }
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
        if let CompoundKind::Sorted { .. } = self.kind {
            let at = self.ser.w.out.pos();
            self.ser.map_entries.push((at, at));
        }
        key.serialize(&mut *self.ser)
    }
    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if let CompoundKind::Sorted { .. } = self.kind {
            let at = self.ser.w.out.pos();
            if let Some(last) = self.ser.map_entries.last_mut() {
                last.1 = at;
            }
        }
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
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        if self.deep {
            return Err(self.ser.w.depth_error());
        }
        self.count += 1;
        // The key's and the value's checks are the field's (see `FieldValue`).
        self.ser.key(key)?;
        value.serialize(FieldValue(&mut *self.ser))
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
