//! The two small serde adapters both readers share (the byte [`Deserializer`](super::Deserializer)
//! and the value layer's `&Variant` deserializer): a String visited as a unit enum variant,
//! and a typed-container descriptor as its `(kind, id, name)` sequence.

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, SeqAccess, Visitor};

use crate::error::{Error, Result};
use crate::wire::Descriptor;

/// Visits a String as a unit enum variant: serde's string deserializers are the `EnumAccess`
/// (borrowed when the input lends the text, transient otherwise). A visitor adapter, so it
/// works wherever a String is read (a `Deserializer` wrapper would not: the text comes from
/// the input or the Variant through the caller's own string rule).
pub(crate) struct UnitEnum<V>(pub(crate) V);

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitEnum<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(BorrowedStrDeserializer::new(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(StrDeserializer::new(v))
    }
}

/// A typed-container descriptor as the 3-tuple `(kind, Godot 4 type id, class or script)`
/// of the marker protocol (`types::TypedArray`, `types::TypedDictionary`).
pub(crate) struct DescriptorSeq {
    d: Descriptor,
    field: u8,
}

impl DescriptorSeq {
    /// The sequence of `d`'s three fields.
    pub(crate) fn new(d: Descriptor) -> Self {
        DescriptorSeq { d, field: 0 }
    }
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
