//! Array and Dictionary entries and enum variants as serde's `SeqAccess`, `MapAccess` and
//! `EnumAccess`.

#[allow(clippy::wildcard_imports)]
use super::*;

/// An enum variant with data: a one-entry Dictionary `{variant: payload}`.
pub(super) struct EnumDictionary<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    /// Where the variant's key starts (to name it in an error of the payload).
    pub(super) key_at: usize,
    /// The enum's name (for the error of an int key in the name mode).
    pub(super) name: &'static str,
}

impl<'de, R: Read<'de>> EnumAccess<'de> for EnumDictionary<'_, R> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        if !self.de.rd.config.enum_indices() {
            // `{3: payload}` names a variant by position: only with EnumRepr::Index.
            self.de.guard_next_key()?;
            if let Some(h) = self.de.peeked.filter(|h| h.ty == VariantType::Int) {
                let h = self.de.read_header().map(|_| h)?;
                let index = self.de.rd.read_int(h.head)?;
                return Err(super::enum_index_refused(self.name, index).or_at(h.offset));
            }
        }
        let variant = seed.deserialize(KeyDe {
            de: &mut *self.de,
            keys: &mut KnownKeys::none(),
        })?;
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
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
            .map_err(|e| e.in_segment(self.de.key_path(self.key_at)))
    }
}

/// A container's items as the budget sees them (`wire::Hint`): charged when the container
/// opens, each item's share given back as it starts, the rest when the container closes,
/// also on an error. Every counted container of the byte reader (Array, Dictionary, Object
/// properties, String fields) reads its items through one.
pub(super) struct Claim<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
    /// Items not started yet.
    pub(super) left: u32,
    hint: Hint,
}

impl<'a, 'de, R: Read<'de>> Claim<'a, R> {
    /// Charges `count` items of kind `item`.
    pub(super) fn new(de: &'a mut Deserializer<R>, count: u32, item: Item) -> Self {
        let hint = de.rd.charge(count, item);
        Claim {
            de,
            left: count,
            hint,
        }
    }
}

impl<R> Claim<'_, R> {
    /// Starts the next item; `false` when none is left.
    #[inline(always)]
    pub(super) fn next(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        self.hint.took_one(self.left, &mut self.de.rd);
        true
    }

    /// The size hint for the visitor.
    pub(super) fn size_hint(&self) -> Option<usize> {
        self.hint.get(self.left)
    }
}

impl<R> Drop for Claim<'_, R> {
    fn drop(&mut self) {
        self.hint.release(self.left, &mut self.de.rd);
    }
}

/// Array elements.
pub(super) struct ArrayAccess<'a, R> {
    pub(super) items: Claim<'a, R>,
    /// The element count (the index of an element that fails is `count - left - 1`).
    pub(super) count: u32,
}

impl<'a, 'de, R: Read<'de>> ArrayAccess<'a, R> {
    pub(super) fn new(de: &'a mut Deserializer<R>, count: u32) -> Self {
        // Small enough that a forged count reserves little: every element takes at least 4
        // bytes, a decoded one often 8 times that.
        ArrayAccess {
            items: Claim::new(de, count, Item::Element),
            count,
        }
    }
}

impl<R> ArrayAccess<'_, R> {
    pub(super) fn finish(&self, count: u32) -> Result<()> {
        all_read(self.items.left, count, "elements")
    }
}

/// An error unless the visitor took every one of the `count` elements or entries.
#[inline]
pub(super) fn all_read(left: u32, count: u32, unit: &str) -> Result<()> {
    if left == 0 {
        return Ok(());
    }
    Err(not_all_read(left, count, unit))
}

#[cold]
#[inline(never)]
fn not_all_read(left: u32, count: u32, unit: &str) -> Error {
    de::Error::invalid_length(count as usize, &format!("{} {unit}", count - left).as_str())
}

impl<'de, R: Read<'de>> SeqAccess<'de> for ArrayAccess<'_, R> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if !self.items.next() {
            return Ok(None);
        }
        match seed.deserialize(&mut *self.items.de) {
            Ok(value) => Ok(Some(value)),
            Err(e) => {
                Err(e.in_segment(Segment::Index((self.count - self.items.left - 1) as usize)))
            }
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.items.size_hint()
    }
}

/// Dictionary entries.
pub(super) struct DictionaryAccess<'a, R> {
    pub(super) entries: Claim<'a, R>,
    /// The struct field names the keys are expected to be (none for a map).
    pub(super) keys: KnownKeys,
    /// Where the current entry's key starts (to name it in an error of its value).
    pub(super) key_at: usize,
}

impl<'a, 'de, R: Read<'de>> DictionaryAccess<'a, R> {
    pub(super) fn new(
        de: &'a mut Deserializer<R>,
        count: u32,
        fields: &'static [&'static str],
    ) -> Self {
        let entries = Claim::new(de, count, Item::Entry);
        // Every key is read one level deeper than the Dictionary, at the depth `nested` set.
        let depth_ok = entries.de.rd.depth.allows();
        let keys = KnownKeys::new(fields, &mut entries.de.plain_lists, depth_ok);
        DictionaryAccess {
            entries,
            keys,
            key_at: 0,
        }
    }
}

impl<R> DictionaryAccess<'_, R> {
    pub(super) fn finish(&self, count: u32) -> Result<()> {
        all_read(self.entries.left, count, "entries")
    }
}

impl<'de, R: Read<'de>> DictionaryAccess<'_, R> {
    /// `e`, an error of the current entry's value, with the entry's key added to its path:
    /// the struct field it matched, else the key read again from the input when that is a
    /// slice, else where the key starts.
    #[cold]
    pub(super) fn in_entry(&self, e: Error) -> Error {
        if let Some(name) = self.keys.last {
            return e.in_segment(Segment::Field(name));
        }
        e.in_segment(self.entries.de.key_path(self.key_at))
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// A path step for the Dictionary key that starts at byte `key_at`: read again from the
    /// input when that is a slice, else where it starts.
    #[cold]
    pub(crate) fn key_path(&self, key_at: usize) -> Segment {
        self.rd
            .input_from(key_at)
            .and_then(|bytes| key_segment(bytes, self.rd.config))
            .unwrap_or(Segment::KeyAt(key_at))
    }
}

/// A path step for the Dictionary key at the start of `bytes`: its text (String,
/// StringName) or number (int); `None` for other keys.
#[cold]
pub(super) fn key_segment(bytes: &[u8], config: Config) -> Option<Segment> {
    let mut r = Reader::new(SliceRead::new(bytes), config);
    let h = r.read_header().ok()?;
    match h.ty {
        VariantType::String | VariantType::StringName => {
            Some(Segment::Key(r.read_string("key").ok()?.into()))
        }
        VariantType::Int => Some(Segment::IntKey(r.read_int(h.head).ok()?)),
        _ => None,
    }
}

impl<'de, R: Read<'de>> MapAccess<'de> for DictionaryAccess<'_, R> {
    type Error = Error;
    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.entries.next() {
            return Ok(None);
        }
        self.key_at = self.entries.de.rd.offset();
        self.keys.last = None;
        // Every key is checked, whatever the visitor (see `KeyDe`): serde's buffering
        // (`flatten`, internally tagged enums) takes matched keys out, so any key may become
        // the first one a self-describing visitor sees.
        seed.deserialize(KeyDe {
            de: &mut *self.entries.de,
            keys: &mut self.keys,
        })
        .map(Some)
    }
    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        match seed.deserialize(&mut *self.entries.de) {
            Ok(value) => Ok(value),
            Err(e) => Err(self.in_entry(e)),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.entries.size_hint()
    }
}
