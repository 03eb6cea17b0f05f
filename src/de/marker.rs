//! Marker-typed values (math types, StringName, NodePath, RID, objects, typed containers,
//! packed arrays): the one-entry map `{ marker name: payload }` and the small deserializers
//! that read each payload.

#[allow(clippy::wildcard_imports)]
use super::*;

/// What follows the header of a marker-typed value.
pub(super) enum Payload {
    /// `n` components of one kind (math types, Color).
    Components(u8, Scalar),
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
    pub(super) fn for_type(ty: VariantType, wide: bool) -> Self {
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

/// A numeric packed array's element: `n` numbers of one kind (`VariantType::packed_element`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Elem {
    pub(super) n: u8,
    pub(super) scalar: Scalar,
}

impl Elem {
    /// PackedByteArray's element.
    pub(super) const BYTE: Elem = Elem {
        n: 1,
        scalar: Scalar::Byte,
    };

    pub(super) fn of(ty: VariantType) -> Option<Elem> {
        ty.packed_element().map(|(n, scalar)| Elem { n, scalar })
    }

    pub(super) fn size(self, wide: bool) -> usize {
        usize::from(self.n) * self.scalar.size(wide)
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    pub(super) fn visit_packed_elements<V: Visitor<'de>>(
        &mut self,
        elem: Elem,
        wide: bool,
        visitor: V,
    ) -> Result<V::Value> {
        if elem == Elem::BYTE {
            let len = self.rd.read_byte_array_len()?;
            let value = visitor.visit_seq(PackedSeq {
                de: self,
                left: len,
                count: len,
                elem,
                wide,
            })?;
            self.rd.skip_padding(padding(len))?;
            return Ok(value);
        }
        let bytes = self.rd.read_packed_len(elem.size(wide))?;
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
pub(super) struct MarkerAccess<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) name: &'static str,
    pub(super) payload: Option<Payload>,
}

impl<'a, R> MarkerAccess<'a, R> {
    pub(super) fn new(de: &'a mut Deserializer<R>, name: &'static str, payload: Payload) -> Self {
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
pub(super) struct PayloadDe<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) payload: Payload,
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
            Payload::Rid => visitor.visit_u64(de.rd.read_rid()?),
            Payload::Id(id) => visitor.visit_u64(id),
            Payload::Callable => visitor.visit_unit(),
            Payload::Signal => visitor.visit_seq(FieldSeq {
                de,
                field: 0,
                kind: Fields::Signal,
            }),
            Payload::NodePath => {
                let head = de.rd.read_node_path_head()?;
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
                let len = de.rd.read_packed_len(elem.size(wide))?;
                match de.rd.read_slice(len)? {
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
pub(super) struct ComponentSeq<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) left: u8,
    pub(super) comp: Scalar,
}

impl<R> ComponentSeq<'_, R> {
    pub(super) fn finish(&self) -> Result<()> {
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
    #[inline(always)]
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
pub(super) struct Component<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) comp: Scalar,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for Component<'_, R> {
    type Error = Error;
    #[inline(always)]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.de.rd.read_component(self.comp)? {
            // Three arms keep this inlined into the math types' visitors.
            Number::F64(v) => visitor.visit_f64(v),
            Number::I32(v) => visitor.visit_i32(v),
            Number::F32(v) => visitor.visit_f32(v),
        }
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The f32 range rule (checked for `f32` values; the f64 components of a double build's
/// math types read into single-precision ones are cast as Godot's single-precision engine
/// casts them, `real_t`, which keeps the component path lean).
pub(super) use crate::error::fits_f32;

/// Packed array elements one by one (when a plain sequence such as `Vec<f32>` is asked for).
pub(super) struct PackedSeq<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) left: usize,
    /// The element count (for the index of an element that fails).
    pub(super) count: usize,
    pub(super) elem: Elem,
    pub(super) wide: bool,
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
                let [b] = de.rd.read_array()?;
                seed.deserialize(b.into_deserializer())
            }
            (1, Scalar::I32) => seed.deserialize(de.read_i32()?.into_deserializer()),
            (1, Scalar::I64) => {
                seed.deserialize(i64::from_le_bytes(de.rd.read_array()?).into_deserializer())
            }
            (1, Scalar::F32) => {
                seed.deserialize(f32::from_le_bytes(de.rd.read_array()?).into_deserializer())
            }
            (1, Scalar::F64) => {
                seed.deserialize(f64::from_le_bytes(de.rd.read_array()?).into_deserializer())
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
        self.de.rd.remaining().map(|_| self.left)
    }
}

/// Godot String fields one after another (PackedStringArray elements, NodePath names).
pub(super) struct StrSeq<'a, R> {
    pub(super) fields: Claim<'a, R>,
    pub(super) what: &'static str,
}

impl<'a, 'de, R: Read<'de>> StrSeq<'a, R> {
    pub(super) fn new(de: &'a mut Deserializer<R>, count: u32, what: &'static str) -> Self {
        // A String field is at least 4 bytes.
        StrSeq {
            fields: Claim::new(de, count, Item::PackedString),
            what,
        }
    }
}

impl<'de, R: Read<'de>> SeqAccess<'de> for StrSeq<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if !self.fields.next() {
            return Ok(None);
        }
        seed.deserialize(StrDe {
            de: &mut *self.fields.de,
            what: self.what,
        })
        .map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        self.fields.size_hint()
    }
}

/// One Godot String field, read from the input (so not one of serde's string
/// deserializers, which it answers as: a String, or a unit enum variant when an enum is asked
/// for, as the value layer's `StrDeserializer` does).
pub(super) struct StrDe<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) what: &'static str,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for StrDe<'_, R> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.read_str(self.what, visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.de.read_str(self.what, UnitEnum(visitor))
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// The fields of a multi-field payload.
pub(super) enum Fields {
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

pub(super) struct FieldSeq<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) field: u8,
    pub(super) kind: Fields,
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
                what: SIGNAL_NAME,
            })?,
            (Fields::Signal, 1) => seed.deserialize(de::value::U64Deserializer::<Error>::new(
                de.rd.read_signal_object()?,
            ))?,
            (Fields::NodePath { names, .. }, 0) => seed.deserialize(SeqAccessDeserializer::new(
                StrSeq::new(de, *names, NODE_PATH_NAME),
            ))?,
            (Fields::NodePath { subnames, .. }, 1) => seed.deserialize(
                SeqAccessDeserializer::new(StrSeq::new(de, *subnames, NODE_PATH_SUBNAME)),
            )?,
            (Fields::NodePath { absolute, .. }, 2) => {
                seed.deserialize(BoolDeserializer::<Error>::new(*absolute))?
            }
            (Fields::Object { class, .. }, 0) => seed.deserialize(
                StringDeserializer::<Error>::new(class.take().unwrap_or_default()),
            )?,
            (Fields::Object { count, .. }, 1) => {
                let count = *count;
                de.nested(|de| {
                    seed.deserialize(MapAccessDeserializer::new(PropertyAccess::new(de, count)))
                })?
            }
            (Fields::TypedArray(d), 0)
            | (Fields::TypedDictionary(d, _), 0)
            | (Fields::TypedDictionary(_, d), 1) => {
                let d = d.take().unwrap_or_default();
                seed.deserialize(SeqAccessDeserializer::new(DescriptorSeq::new(d)))?
            }
            (Fields::TypedArray(_), 1) => {
                let count = de.rd.read_count("Array count", Item::Element)?;
                de.nested(|de| {
                    let mut access = ArrayAccess::new(de, count);
                    let value = seed.deserialize(SeqAccessDeserializer::new(&mut access))?;
                    access.finish(count)?;
                    Ok(value)
                })?
            }
            (Fields::TypedDictionary(..), 2) => {
                let count = de.rd.read_count("Dictionary count", Item::Entry)?;
                de.nested(|de| {
                    let mut access = DictionaryAccess::new(de, count, &[]);
                    let value = seed.deserialize(MapAccessDeserializer::new(&mut access))?;
                    access.finish(count)?;
                    Ok(value)
                })?
            }
            _ => return Ok(None),
        };
        Ok(Some(value))
    }
}

/// Full-object properties: String-field names, Variant values.
pub(super) struct PropertyAccess<'a, R>(Claim<'a, R>);

impl<'a, 'de, R: Read<'de>> PropertyAccess<'a, R> {
    pub(super) fn new(de: &'a mut Deserializer<R>, count: u32) -> Self {
        PropertyAccess(Claim::new(de, count, Item::Property))
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for PropertyAccess<'_, R> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.0.next() {
            return Ok(None);
        }
        let de = &mut *self.0.de;
        de.guard_key = Some(de.rd.offset());
        let name = seed.deserialize(StrDe {
            de: &mut *de,
            what: PROPERTY_NAME,
        });
        de.guard_key = None;
        name.map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.0.de)
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}
