//! The marker types' fields: each goes through a [`FieldSerializer`] that accepts only what
//! its [`Slot`] expects (a component, a String field, an id, packed bytes, a descriptor, ...)
//! and writes it in the marker's wire layout.

use super::{Output, Serializer};
use crate::error::{Error, ErrorKind, Result};
use crate::types::Marker;
use crate::wire::header::DescriptorBody;
use crate::wire::{FLAG_64, FLAG_OBJECT_AS_ID, NodePathHead, Scalar, VariantType, string};
use serde::ser::{self, Impossible, Serialize};
use std::borrow::Cow;

/// Progress through a marker type's fields.
#[derive(Clone, Copy)]
pub(super) struct MarkerState {
    pub(super) field: usize,
    pub(super) wide: bool,
    /// Where the marker's first placeholder word is (NodePath counts, Object property count).
    pub(super) slot: usize,
    pub(super) names: u32,
    pub(super) subnames: u32,
    /// Object: the class name was empty, the header became NIL and nothing else is written.
    pub(super) null: bool,
}

/// A typed container descriptor; the marker protocol sends it as `(kind, type id, name)`.
pub(super) use crate::wire::Descriptor;

/// Writes the payload of a newtype marker (StringName, RID, ObjectId, packed arrays).
pub(super) fn newtype_marker<W: Output, T: ?Sized + Serialize>(
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
            return Err(ser.w.error(ErrorKind::Unsupported(
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
    value.serialize(FieldSerializer { ser, slot })
}

/// Writes one field of a marker tuple struct.
pub(super) fn marker_field<W: Output, T: ?Sized + Serialize>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    state: &mut MarkerState,
    field: usize,
    value: &T,
) -> Result<()> {
    if field >= marker_fields(ty) {
        return Err(ser.w.error(ErrorKind::Message(
            format!("{ty} has {} marker fields, got more", marker_fields(ty)).into(),
        )));
    }
    let slot = match ty {
        _ if ty.has_real_components() => Slot::Component {
            kind: Scalar::Real,
            wide: state.wide,
        },
        VariantType::Vector2i
        | VariantType::Rect2i
        | VariantType::Vector3i
        | VariantType::Vector4i => Slot::Component {
            kind: Scalar::I32,
            wide: false,
        },
        VariantType::Color => Slot::Component {
            kind: Scalar::F32,
            wide: false,
        },
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
                let r = value.serialize(FieldSerializer {
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
            return value.serialize(FieldSerializer { ser, slot });
        }
        _ => {
            return Err(ser.w.error(ErrorKind::Unsupported(
                format!("{ty} serialized as a tuple struct").into(),
            )));
        }
    };
    value.serialize(FieldSerializer { ser, slot })
}

/// Writes the header of a typed container (the descriptors only where the target reads them).
pub(super) fn typed_header<W: Output>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    key: &Descriptor,
    value: &Descriptor,
) -> Result<()> {
    let (key, value) = (as_written(ser, key)?, as_written(ser, value)?);
    let (flags, written) = Descriptor::encode(ty, ser.version(), &key, &value);
    ser.header(ty, flags)?;
    for d in written.into_iter().flatten() {
        match d.body() {
            Some(DescriptorBody::Id(id)) => ser.w.put_u32(id),
            Some(DescriptorBody::Name(name)) => ser.w.string_field(name)?,
            None => {}
        }
    }
    Ok(())
}

/// A descriptor as Godot writes it: an empty class name is the class-less OBJECT (BUILTIN 24);
/// without full objects (`var_to_bytes`) a class or a script is `EncodedObjectAsID`; with them
/// a script must have a `res://` path (Godot refuses to encode it otherwise).
fn as_written<'d, W: Output>(
    ser: &Serializer<W>,
    d: &'d Descriptor,
) -> Result<Cow<'d, Descriptor>> {
    if d.kind == Descriptor::CLASS_NAME && d.name.is_empty() {
        return Ok(Cow::Owned(Descriptor {
            kind: Descriptor::BUILTIN,
            id: VariantType::Object as u32,
            name: String::new(),
        }));
    }
    if d.kind < Descriptor::CLASS_NAME {
        return Ok(Cow::Borrowed(d));
    }
    if !ser.config.allow_objects {
        return Ok(Cow::Owned(Descriptor::encoded_object_as_id()));
    }
    if d.kind == Descriptor::SCRIPT && !d.name.starts_with("res://") {
        return Err(ser.w.error(ErrorKind::InvalidContainerType(
            format!("script path {:?} is not a res:// path", d.name).into(),
        )));
    }
    Ok(Cow::Borrowed(d))
}

/// Patches what a marker's fields could not write up front.
pub(super) fn finish_marker<W: Output>(
    ser: &mut Serializer<W>,
    ty: VariantType,
    state: &MarkerState,
) -> Result<()> {
    if state.field != marker_fields(ty) {
        return Err(ser.w.error(ErrorKind::Message(
            format!(
                "{ty} has {} marker fields, got {}",
                marker_fields(ty),
                state.field
            )
            .into(),
        )));
    }
    if ty == VariantType::NodePath {
        ser.w
            .out
            .patch_u32(state.slot, NodePathHead::names_word(state.names));
        ser.w.out.patch_u32(state.slot + 4, state.subnames);
    }
    Ok(())
}

/// How many fields a marker tuple struct of `ty` has (src/types/mod.rs lists them).
fn marker_fields(ty: VariantType) -> usize {
    match ty {
        VariantType::NodePath | VariantType::Dictionary => 3,
        VariantType::Signal | VariantType::Object | VariantType::Array => 2,
        _ => ty.components().map_or(0, |(n, _)| usize::from(n)),
    }
}

/// What a [`FieldSerializer`] serializer accepts and how it writes it.
pub(super) enum Slot<'s> {
    /// A math-type component of the table's `kind` (`Real` for float math types, `I32` for
    /// integer vectors, `F32` for Color); `wide`: the header's 64-bit flag, which makes a
    /// `Real` an f64.
    Component { kind: Scalar, wide: bool },
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
pub(super) struct FieldSerializer<'a, 's, W> {
    pub(super) ser: &'a mut Serializer<W>,
    pub(super) slot: Slot<'s>,
}

impl<W: Output> FieldSerializer<'_, '_, W> {
    #[cold]
    pub(super) fn unexpected(&self, what: &str) -> Error {
        let expected = match self.slot {
            Slot::Component {
                kind: Scalar::Real, ..
            } => "a float component",
            Slot::Component {
                kind: Scalar::I32, ..
            } => "an i32 component",
            Slot::Component { .. } => "an f32 component",
            Slot::Str | Slot::Class { .. } | Slot::Names(_) | Slot::StringArray => "a string",
            Slot::U64 | Slot::Rid | Slot::ObjectId => "a u64 id",
            Slot::Absolute(_) => "a bool",
            Slot::Packed { .. } => "packed array bytes",
            Slot::Descriptor(_) | Slot::DescriptorField(..) => "a container type (kind, id, name)",
            Slot::Properties | Slot::Entries => "a map",
            Slot::Items => "a sequence",
        };
        self.ser.w.error(ErrorKind::Message(
            format!("invalid marker field: {what}, expected {expected}").into(),
        ))
    }

    fn number(mut self, v: f64, int: Option<i64>) -> Result<()> {
        match self.slot {
            Slot::Component { kind, wide } => match kind.on_wire(wide) {
                Scalar::F64 => self.ser.w.out.put(&v.to_le_bytes()),
                Scalar::I32 => {
                    let n = int
                        .and_then(|n| i32::try_from(n).ok())
                        .ok_or_else(|| self.unexpected("a value outside i32"))?;
                    self.ser.w.out.put(&n.to_le_bytes());
                }
                // F32: math components are only ever f32, f64 or i32 once resolved.
                _ => {
                    // A finite value beyond f32's range would become infinite: an error instead.
                    if let Err(e) = crate::error::fits_f32(v) {
                        return Err(self.ser.w.error(e.into_kind()));
                    }
                    #[allow(clippy::cast_possible_truncation)]
                    let narrow = v as f32;
                    self.ser.w.out.put(&narrow.to_le_bytes());
                }
            },
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
            Slot::U64 => self.ser.w.out.put(&id.to_le_bytes()),
            Slot::Rid => {
                if self.ser.version().has_rid_payload() {
                    self.ser.w.out.put(&id.to_le_bytes());
                }
            }
            Slot::ObjectId if id == 0 => self.ser.header(VariantType::Nil, 0)?,
            Slot::ObjectId => {
                self.ser.header(VariantType::Object, FLAG_OBJECT_AS_ID)?;
                self.ser.w.out.put(&id.to_le_bytes());
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
        self.ser.w.len_u32(count, ty.name())?;
        let out_wide = ty.has_real_components() && self.ser.wide_reals()?;
        if !ty.has_real_components() || wide == out_wide {
            self.ser.w.out.put(bytes);
            self.ser.w.pad(bytes.len());
            return Ok(());
        }
        // Component width differs between the Rust type and the target build: convert.
        if wide {
            for c in bytes.chunks_exact(8) {
                let mut b = [0; 8];
                b.copy_from_slice(c);
                #[allow(clippy::cast_possible_truncation)]
                let narrow = f64::from_le_bytes(b) as f32;
                self.ser.w.out.put(&narrow.to_le_bytes());
            }
        } else {
            for c in bytes.chunks_exact(4) {
                let mut b = [0; 4];
                b.copy_from_slice(c);
                self.ser
                    .w
                    .out
                    .put(&f64::from(f32::from_le_bytes(b)).to_le_bytes());
            }
        }
        Ok(())
    }

    fn string(self, s: &str) -> Result<()> {
        match self.slot {
            Slot::Str => {
                self.ser.w.check_no_nul(s)?;
                self.ser.w.string_field(s)
            }
            Slot::Class { header_at, null } if s.is_empty() => {
                let nil = self.ser.w.type_id(VariantType::Nil)?;
                self.ser.w.out.patch_u32(header_at, nil);
                *null = true;
                Ok(())
            }
            Slot::Class { .. } => {
                self.ser.w.check_no_nul(s)?;
                self.ser.w.string_field(s)
            }
            Slot::Names(n) => {
                self.ser.w.check_no_nul(s)?;
                *n += 1;
                self.ser.w.string_field(s)
            }
            Slot::StringArray => {
                self.ser.w.check_no_nul(s)?;
                // PackedStringArray elements count and carry a NUL terminator.
                let len = string::packed_element_len(s.len());
                self.ser.w.len_u32(len, "PackedStringArray element")?;
                self.ser.w.out.put(s.as_bytes());
                self.ser.w.out.put(&[0]);
                self.ser.w.pad(len);
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

macro_rules! field_reject {
    ($($method:ident($($arg:ty),*) $what:literal;)*) => {$(
        fn $method(self $(, _: $arg)*) -> Result<()> {
            Err(self.unexpected($what))
        }
    )*};
}

impl<'a, 's, W: Output> ser::Serializer for FieldSerializer<'a, 's, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = FieldSeq<'a, 's, W>;
    type SerializeTuple = FieldSeq<'a, 's, W>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = FieldMap<'a, W>;
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
        self.ser
            .w
            .out
            .patch_u32(slot + 8, NodePathHead::flags_word(v));
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
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<()> {
        if let Slot::Component {
            kind: Scalar::I32, ..
        } = self.slot
        {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
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
    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if let Slot::Component {
            kind: Scalar::F32, ..
        }
        | Slot::Component {
            kind: Scalar::Real,
            wide: false,
        } = self.slot
        {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        self.number(v.into(), None)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if let Slot::Component {
            kind: Scalar::Real,
            wide: true,
        } = self.slot
        {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
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

    field_reject! {
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
    fn serialize_seq(self, len: Option<usize>) -> Result<FieldSeq<'a, 's, W>> {
        FieldSeq::start(self, len)
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<FieldSeq<'a, 's, W>> {
        FieldSeq::start(self, Some(len))
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
    fn serialize_map(self, _len: Option<usize>) -> Result<FieldMap<'a, W>> {
        let properties = match self.slot {
            Slot::Properties => true,
            Slot::Entries => false,
            _ => return Err(self.unexpected("a map")),
        };
        let ser = self.ser;
        let count_at = ser.w.out.pos();
        ser.w.put_u32(0);
        ser.w.enter();
        Ok(FieldMap {
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
pub(super) struct FieldSeq<'a, 's, W> {
    ser: &'a mut Serializer<W>,
    slot: Slot<'s>,
    count_at: usize,
    count: u32,
}

impl<'a, 's, W: Output> FieldSeq<'a, 's, W> {
    fn start(p: FieldSerializer<'a, 's, W>, _len: Option<usize>) -> Result<Self> {
        let FieldSerializer { ser, slot } = p;
        let count_at = ser.w.out.pos();
        match slot {
            Slot::StringArray => ser.w.put_u32(0),
            Slot::Items => {
                ser.w.put_u32(0);
                ser.w.enter();
            }
            Slot::Names(_) | Slot::Descriptor(_) => {}
            other => return Err(FieldSerializer { ser, slot: other }.unexpected("a sequence")),
        }
        Ok(FieldSeq {
            ser,
            slot,
            count_at,
            count: 0,
        })
    }
}

impl<W: Output> ser::SerializeSeq for FieldSeq<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        match &mut self.slot {
            Slot::Items => value.serialize(&mut *self.ser),
            Slot::StringArray => value.serialize(FieldSerializer {
                ser: self.ser,
                slot: Slot::StringArray,
            }),
            Slot::Names(n) => value.serialize(FieldSerializer {
                ser: self.ser,
                slot: Slot::Names(n),
            }),
            Slot::Descriptor(d) => {
                let field = u8::try_from(self.count - 1).unwrap_or(u8::MAX);
                value.serialize(FieldSerializer {
                    ser: self.ser,
                    slot: Slot::DescriptorField(d, field),
                })
            }
            _ => Err(self
                .ser
                .w
                .error(ErrorKind::Message("unexpected marker sequence".into()))),
        }
    }
    fn end(self) -> Result<()> {
        match self.slot {
            Slot::StringArray => self.ser.w.out.patch_u32(self.count_at, self.count),
            Slot::Items => {
                self.ser.w.out.patch_u32(self.count_at, self.count);
                self.ser.w.leave();
            }
            _ => {}
        }
        Ok(())
    }
}

impl<W: Output> ser::SerializeTuple for FieldSeq<'_, '_, W> {
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
pub(super) struct FieldMap<'a, W> {
    ser: &'a mut Serializer<W>,
    count_at: usize,
    count: u32,
    properties: bool,
}

impl<W: Output> ser::SerializeMap for FieldMap<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.count += 1;
        if self.properties {
            key.serialize(FieldSerializer {
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
        self.ser.w.out.patch_u32(self.count_at, self.count);
        self.ser.w.leave();
        Ok(())
    }
}
