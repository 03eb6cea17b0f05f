//! The payload readers of Godot types: math components, numbers, strings, fields, container
//! descriptors and Object properties as sequences and maps.

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::super::{Array, ContainerType, Dictionary, Variant};
use super::access::Pairs;
use super::{Lend, Result, VariantDe, f32s, reals};
use crate::de::DescriptorSeq;
use crate::error::Error;
use crate::types::Real;
use crate::wire::{Descriptor, Scalar};

/// Math components, as the wire gives them: `f32` (rounded from an f64 `Real`) or `f64`
/// reals, `f32` Color channels, `i32` integer components.
pub(super) struct Components {
    values: [f64; 16],
    ints: [i32; 4],
    n: u8,
    at: u8,
    /// `F32`, `F64` or `I32` (resolved by [`Scalar::on_wire`]).
    comp: Scalar,
}

impl Components {
    pub(super) fn new(v: &Variant, n: u8, scalar: Scalar, wide: bool) -> Self {
        let mut c = Components {
            values: [0.0; 16],
            ints: [0; 4],
            n,
            at: 0,
            comp: scalar.on_wire(wide),
        };
        use core::slice::from_ref as one;
        let src: &[Real] = match v {
            Variant::Vector2(x) => reals(one(x)),
            Variant::Rect2(x) => reals(one(x)),
            Variant::Vector3(x) => reals(one(x)),
            Variant::Transform2D(x) => reals(one(&**x)),
            Variant::Vector4(x) => reals(one(x)),
            Variant::Plane(x) => reals(one(x)),
            Variant::Quaternion(x) => reals(one(x)),
            Variant::Aabb(x) => reals(one(&**x)),
            Variant::Basis(x) => reals(one(&**x)),
            Variant::Transform3D(x) => reals(one(&**x)),
            Variant::Projection(x) => reals(one(&**x)),
            _ => &[],
        };
        for (d, s) in c.values.iter_mut().zip(src) {
            #[allow(clippy::useless_conversion)] // f32 or f64, by feature
            let x = f64::from(*s);
            *d = x;
        }
        if let Variant::Color(x) = v {
            for (d, s) in c.values.iter_mut().zip(f32s(one(x))) {
                *d = f64::from(*s);
            }
        }
        let ints: &[i32] = match v {
            Variant::Vector2i(x) => bytemuck::cast_slice(one(x)),
            Variant::Rect2i(x) => bytemuck::cast_slice(one(x)),
            Variant::Vector3i(x) => bytemuck::cast_slice(one(x)),
            Variant::Vector4i(x) => bytemuck::cast_slice(one(x)),
            _ => &[],
        };
        for (d, s) in c.ints.iter_mut().zip(ints) {
            *d = *s;
        }
        c
    }

    fn finish(&self) -> Result<()> {
        if self.at >= self.n {
            Ok(())
        } else {
            Err(de::Error::custom(format_args!(
                "{} math components left unread",
                self.n - self.at
            )))
        }
    }
}

impl<'de> SeqAccess<'de> for Components {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.at >= self.n {
            return Ok(None);
        }
        let i = usize::from(self.at);
        self.at += 1;
        let x = self.values.get(i).copied().unwrap_or_default();
        match self.comp {
            Scalar::F64 => seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(x))
                .map(Some),
            Scalar::I32 => {
                let n = self.ints.get(i).copied().unwrap_or_default();
                seed.deserialize(IntoDeserializer::<Error>::into_deserializer(n))
                    .map(Some)
            }
            // F32 (math components are only ever f32, f64 or i32 once resolved).
            #[allow(clippy::cast_possible_truncation)]
            _ => seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(x as f32))
                .map(Some),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.n - self.at))
    }
}

/// Visits the components, then checks that all were taken (as the byte deserializer does).
impl Components {
    pub(super) fn visit<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_seq(&mut self)?;
        self.finish()?;
        Ok(value)
    }
}

/// The components as a packed vector element. Not serde's `SeqAccessDeserializer`: that one
/// does not check that the visitor took every component, as [`Components::visit`] does.
impl<'de> de::Deserializer<'de> for Components {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit(visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Numbers of a packed array, one by one.
pub(super) struct NumberSeq<I>(pub(super) I);

impl<'de, T, I: Iterator<Item = T> + ExactSizeIterator> SeqAccess<'de> for NumberSeq<I>
where
    T: IntoDeserializer<'de, Error>,
{
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.0.next() {
            Some(x) => seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(x))
                .map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// Packed vector / Color elements one by one, each the seq of its components.
pub(super) struct ElementSeq<'a, F> {
    chunks: core::slice::ChunksExact<'a, F>,
    comp: Scalar,
}

impl<'a, F> ElementSeq<'a, F> {
    pub(super) fn new(items: &'a [F], n: usize, scalar: Scalar, wide: bool) -> Self {
        ElementSeq {
            chunks: items.chunks_exact(n.max(1)),
            comp: scalar.on_wire(wide),
        }
    }
}

impl<'de, F: Copy + Into<f64>> SeqAccess<'de> for ElementSeq<'_, F> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some(chunk) = self.chunks.next() else {
            return Ok(None);
        };
        let mut c = Components {
            values: [0.0; 16],
            ints: [0; 4],
            n: u8::try_from(chunk.len()).unwrap_or(0),
            at: 0,
            comp: self.comp,
        };
        for (d, s) in c.values.iter_mut().zip(chunk) {
            *d = (*s).into();
        }
        seed.deserialize(c).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.chunks.len())
    }
}

/// Strings one by one (PackedStringArray elements, NodePath names).
pub(super) struct Strs<'a, L> {
    pub(super) iter: core::slice::Iter<'a, String>,
    pub(super) lend: L,
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Strs<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.iter.next() {
            Some(s) => seed.deserialize(self.lend.str_de(s)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The fields of a multi-field payload.
pub(super) enum FieldKind<'a> {
    Signal(&'a crate::types::Signal),
    NodePath(&'a crate::types::NodePath),
    Object(&'a super::super::Object),
    TypedArray(&'a Array),
    TypedDictionary(&'a Dictionary),
}

pub(super) struct Fields<'a, L> {
    de: VariantDe<'a, L>,
    kind: FieldKind<'a>,
    field: u8,
}

impl<'a, L> Fields<'a, L> {
    pub(super) fn new(de: VariantDe<'a, L>, kind: FieldKind<'a>) -> Self {
        Fields { de, kind, field: 0 }
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Fields<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let field = self.field;
        self.field += 1;
        let lend = self.de.lend;
        let de = self.de.at(&Variant::Nil);
        let value = match (&self.kind, field) {
            (FieldKind::Signal(s), 0) => seed.deserialize(lend.str_de(&s.name))?,
            (FieldKind::Signal(s), 1) => {
                seed.deserialize(de::value::U64Deserializer::<Error>::new(s.object.0))?
            }
            (FieldKind::NodePath(p), 0) => seed.deserialize(SeqAccessDeserializer::new(Strs {
                iter: p.names.iter(),
                lend,
            }))?,
            (FieldKind::NodePath(p), 1) => seed.deserialize(SeqAccessDeserializer::new(Strs {
                iter: p.subnames.iter(),
                lend,
            }))?,
            (FieldKind::NodePath(p), 2) => {
                seed.deserialize(de::value::BoolDeserializer::<Error>::new(p.absolute))?
            }
            (FieldKind::Object(o), 0) => {
                seed.deserialize(StringDeserializer::<Error>::new(o.class.clone()))?
            }
            (FieldKind::Object(o), 1) => super::super::grow(|| {
                seed.deserialize(MapAccessDeserializer::new(Pairs::new(de, &o.properties)))
            })?,
            (FieldKind::TypedArray(a), 0) => seed.deserialize(descriptor(&a.element_type))?,
            (FieldKind::TypedDictionary(d), 0) => seed.deserialize(descriptor(d.key_type()))?,
            (FieldKind::TypedDictionary(d), 1) => seed.deserialize(descriptor(d.value_type()))?,
            (FieldKind::TypedArray(a), 1) => seed.deserialize(Contents(de, Content::Items(a)))?,
            (FieldKind::TypedDictionary(d), 2) => {
                seed.deserialize(Contents(de, Content::Entries(d)))?
            }
            _ => return Ok(None),
        };
        Ok(Some(value))
    }
}

/// A typed container's elements or entries.
enum Content<'a> {
    Items(&'a Array),
    Entries(&'a Dictionary),
}

/// A typed container's elements or entries as a deserializer. Not serde's
/// `SeqAccessDeserializer` / `MapAccessDeserializer`: this one also checks that the visitor
/// took every element or entry and grows the stack per level (as [`VariantDe`]'s own
/// Arrays and Dictionaries, and the byte deserializer, do).
struct Contents<'a, L>(VariantDe<'a, L>, Content<'a>);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for Contents<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.1 {
            Content::Items(a) => self.0.items(a, visitor),
            Content::Entries(d) => self.0.entries(d, false, visitor),
        }
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A container type as the 3-tuple `(kind, Godot 4 type id, class or script)`.
fn descriptor(t: &ContainerType) -> SeqAccessDeserializer<DescriptorSeq> {
    let (kind, id, name) = t.parts();
    SeqAccessDeserializer::new(DescriptorSeq::new(Descriptor {
        kind,
        id,
        name: name.to_owned(),
    }))
}
