//! [`Compound`]: an Array, Dictionary, struct or math type while its elements come in, and
//! the count patching (and typed-Array inference) at its end.

use super::field::FieldValue;
use super::marker::{FieldSerializer, MarkerState, Slot, finish_marker, marker_field};
use super::{Infer, Output, Serializer};
use crate::error::{Error, ErrorKind, Result};
use crate::types::Marker;
use crate::wire::{Descriptor, FLAG_64, Scalar, VariantType};
use serde::ser::{self, Serialize};

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
    pub(super) fn slot(self) -> Slot<'static> {
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
                if ser.infer.depth() == ser.w.depth.level() as u64 {
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
    pub(super) fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
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
    pub(super) fn finish(self) -> Result<()> {
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
                        // Typed Array: kind BUILTIN, the type id right after the header.
                        let id = ser.w.type_id(ty)?;
                        let kinds = Descriptor::kinds_flags(Descriptor::BUILTIN, Descriptor::NONE);
                        ser.w.out.patch_u32(header_at, id | kinds);
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
