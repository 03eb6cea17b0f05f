//! The serde access types over a Variant: enum, Array and Dictionary access, and the one-entry
//! marker map of a Godot type with its payload.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::super::Variant;
use super::{Lend, Result, VariantDe};
use crate::error::Error;

/// An enum variant with data: the one entry of a Dictionary.
pub(super) struct EnumEntry<'a, L> {
    pub(super) key: VariantDe<'a, L>,
    pub(super) value: VariantDe<'a, L>,
}

impl<'a, 'de, L: Lend<'a, 'de>> EnumAccess<'de> for EnumEntry<'a, L> {
    type Error = Error;
    type Variant = VariantDe<'a, L>;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self::Variant)> {
        Ok((seed.deserialize(self.key)?, self.value))
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> VariantAccess<'de> for VariantDe<'a, L> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self).map(|de::IgnoredAny| ())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

/// Array elements.
pub(super) struct Items<'a, L> {
    pub(super) de: VariantDe<'a, L>,
    pub(super) iter: core::slice::Iter<'a, Variant>,
}

impl<'a, 'de, L: Lend<'a, 'de>> SeqAccess<'de> for Items<'a, L> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.iter.next() {
            Some(v) => seed.deserialize(self.de.at(v)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// What the keys of [`Pairs`] are read as.
pub(super) trait PairKey<'a, 'de, L> {
    /// The key's deserializer.
    type De: de::Deserializer<'de, Error = Error>;
    /// The error of a value asked for before its key.
    const VALUE_FIRST: &'static str;
    /// The deserializer of this key.
    fn key(&'a self, de: &VariantDe<'a, L>) -> Self::De;
}

/// A Dictionary key: a Variant.
impl<'a, 'de, L: Lend<'a, 'de>> PairKey<'a, 'de, L> for Variant {
    type De = VariantDe<'a, L>;
    const VALUE_FIRST: &'static str = "Dictionary value requested before its key";
    fn key(&'a self, de: &VariantDe<'a, L>) -> Self::De {
        de.at(self)
    }
}

/// An Object property name: a string.
impl<'a, 'de, L: Lend<'a, 'de>> PairKey<'a, 'de, L> for String {
    type De = L::Str;
    const VALUE_FIRST: &'static str = "property value requested before its name";
    fn key(&'a self, de: &VariantDe<'a, L>) -> Self::De {
        de.lend.str_de(self)
    }
}

/// Key-value pairs (Dictionary entries, Object properties). Not serde's `MapDeserializer`,
/// which panics on a value asked for before its key: this one gives an error.
pub(super) struct Pairs<'a, L, K> {
    pub(super) de: VariantDe<'a, L>,
    pub(super) iter: core::slice::Iter<'a, (K, Variant)>,
    pub(super) value: Option<&'a Variant>,
}

impl<'a, L, K> Pairs<'a, L, K> {
    pub(super) fn new(de: VariantDe<'a, L>, pairs: &'a [(K, Variant)]) -> Self {
        Pairs {
            de,
            iter: pairs.iter(),
            value: None,
        }
    }
}

impl<'a, 'de, L: Lend<'a, 'de>, K: PairKey<'a, 'de, L>> MapAccess<'de> for Pairs<'a, L, K> {
    type Error = Error;
    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(k.key(&self.de)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.value.take() {
            Some(v) => seed.deserialize(self.de.at(v)),
            None => Err(de::Error::custom(K::VALUE_FIRST)),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The one-entry map `{ name: payload }` of a Godot type.
pub(super) struct MarkerMap<'a, L> {
    de: Option<VariantDe<'a, L>>,
    name: &'static str,
    key_done: bool,
}

impl<'a, L> MarkerMap<'a, L> {
    pub(super) fn new(de: VariantDe<'a, L>, name: &'static str) -> Self {
        MarkerMap {
            de: Some(de),
            name,
            key_done: false,
        }
    }
}

impl<'a, 'de, L: Lend<'a, 'de>> MapAccess<'de> for MarkerMap<'a, L> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.key_done || self.de.is_none() {
            return Ok(None);
        }
        self.key_done = true;
        seed.deserialize(BorrowedStrDeserializer::new(self.name))
            .map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match self.de.take() {
            Some(de) => seed.deserialize(MarkerValue(de)),
            None => Err(de::Error::custom("marker value requested twice")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(!self.key_done))
    }
}

/// A marker map's value (the type's payload): its shape is fixed, so every method visits
/// the same way.
struct MarkerValue<'a, L>(VariantDe<'a, L>);

impl<'a, 'de, L: Lend<'a, 'de>> de::Deserializer<'de> for MarkerValue<'a, L> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.payload(visitor)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
