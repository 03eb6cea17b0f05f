//! Array and Dictionary entries and enum variants as serde's `SeqAccess`, `MapAccess` and
//! `EnumAccess`.

use super::*;

/// Visits a String as a unit enum variant.
pub(super) struct UnitEnum<V>(pub(super) V);

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitEnum<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(BorrowedStrDeserializer::new(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<V::Value, E> {
        self.0.visit_enum(v.to_owned().into_deserializer())
    }
}

/// An enum variant with data: a one-entry Dictionary `{variant: payload}`.
pub(super) struct EnumDictionary<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
}

impl<'de, R: Read<'de>> EnumAccess<'de> for EnumDictionary<'_, R> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let variant = seed.deserialize(&mut *self.de)?;
        Ok((variant, self))
    }
}

impl<'de, R: Read<'de>> VariantAccess<'de> for EnumDictionary<'_, R> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de).map(|de::IgnoredAny| ())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// Array elements.
pub(super) struct ArrayAccess<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) left: u32,
}

impl<R> ArrayAccess<'_, R> {
    pub(super) fn finish(&self, count: u32) -> Result<()> {
        all_read(self.left, count, "elements")
    }
}

/// An error unless the visitor took every one of the `count` elements or entries.
pub(super) fn all_read(left: u32, count: u32, unit: &str) -> Result<()> {
    if left == 0 {
        return Ok(());
    }
    Err(de::Error::invalid_length(
        count as usize,
        &format!("{} {unit}", count - left).as_str(),
    ))
}

impl<'de, R: Read<'de>> SeqAccess<'de> for ArrayAccess<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        // At most what the input can hold, and small enough that a forged count reserves
        // little: every element takes at least 4 bytes, a decoded one often 8 times that.
        self.de.cautious_hint(self.left, 32)
    }
}

/// Dictionary entries.
pub(super) struct DictionaryAccess<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) left: u32,
    /// The first key, if a String, is checked by [`MarkerGuard`].
    pub(super) guard_first: bool,
    /// The struct field names the keys are expected to be (none for a map).
    pub(super) keys: KnownKeys,
}

impl<R> DictionaryAccess<'_, R> {
    pub(super) fn finish(&self, count: u32) -> Result<()> {
        all_read(self.left, count, "entries")
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for DictionaryAccess<'_, R> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        if core::mem::take(&mut self.guard_first) {
            let h = self.de.read_header()?;
            if h.ty == VariantType::String {
                return seed
                    .deserialize(GuardedKey { de: &mut *self.de })
                    .map(Some)
                    .map_err(|e| e.or_at(h.offset));
            }
            self.de.peeked = Some(h);
        }
        seed.deserialize(KeyDe {
            de: &mut *self.de,
            keys: &mut self.keys,
        })
        .map(Some)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn size_hint(&self) -> Option<usize> {
        self.de.cautious_hint(self.left, 64)
    }
}
