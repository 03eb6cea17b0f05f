//! Dictionary keys: a struct's field names matched without a UTF-8 check, and the guard that
//! keeps a plain Dictionary keyed by a marker name from decoding as another type.

use super::*;

/// A struct's field names, and which one the next key most likely is (keys usually come in
/// declaration order, as serializers write them).
pub(super) struct KnownKeys {
    pub(super) names: &'static [&'static str],
    pub(super) next: usize,
}

impl KnownKeys {
    pub(super) fn new(names: &'static [&'static str]) -> Self {
        KnownKeys { names, next: 0 }
    }

    /// The field name whose text the Godot String bytes `bytes` (length `len`, then padding)
    /// decode to, when it is one of them byte for byte; `None` sends the key down the general
    /// path. A name `text` would change (one with a NUL or a leading BOM) never matches, so a
    /// match is exactly what `text` gives.
    #[inline(always)]
    pub(super) fn find(&mut self, bytes: &[u8], len: usize) -> Option<&'static str> {
        let key = bytes.get(..len)?;
        let (index, name) = match self.names.get(self.next) {
            Some(&name) if same_bytes(name.as_bytes(), key) => (self.next, name),
            _ => self
                .names
                .iter()
                .enumerate()
                .find(|(_, name)| same_bytes(name.as_bytes(), key))
                .map(|(i, &name)| (i, name))?,
        };
        if has_nul(key) || key.starts_with("\u{FEFF}".as_bytes()) {
            return None;
        }
        self.next = index + 1;
        Some(name)
    }
}

/// `a == b`, without a call to `memcmp` for the short keys of struct fields.
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // Two overlapping words cover every byte of a key of one to two word lengths.
    if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<8>(),
        a.last_chunk::<8>(),
        b.first_chunk::<8>(),
        b.last_chunk::<8>(),
    ) {
        if a.len() <= 16 {
            return a0 == b0 && a1 == b1;
        }
    } else if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<4>(),
        a.last_chunk::<4>(),
        b.first_chunk::<4>(),
        b.last_chunk::<4>(),
    ) {
        return a0 == b0 && a1 == b1;
    }
    a == b
}

/// A struct's key: `deserialize_identifier` checks it against the field names, every other
/// method is the plain deserializer's.
pub(super) struct KeyDe<'a, 'k, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) keys: &'k mut KnownKeys,
}

/// `deserialize_*` methods of [`KeyDe`] that forward to the plain deserializer.
macro_rules! forward_to_de {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::$method(self.de, visitor)
        }
    )*};
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for KeyDe<'_, '_, R> {
    type Error = Error;

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.identifier(self.keys, visitor)
    }

    forward_to_de! {
        deserialize_any, deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32,
        deserialize_i64, deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32,
        deserialize_u64, deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char,
        deserialize_str, deserialize_string, deserialize_bytes, deserialize_byte_buf,
        deserialize_option, deserialize_unit, deserialize_seq, deserialize_map,
        deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_unit_struct(self.de, name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_newtype_struct(self.de, name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self.de, len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple_struct(self.de, name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self.de, name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_enum(self.de, name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The first String key of a Dictionary visited by `deserialize_any`, header read.
pub(super) struct GuardedKey<'a, R> {
    pub(super) de: &'a mut Deserializer<R>,
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for GuardedKey<'_, R> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.read_str("key", MarkerGuard(visitor))
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Refuses a key that is one of the marker names: self-describing visitors (`Variant`)
/// take a map whose first key is a marker name for that Godot type, so a plain Dictionary
/// keyed that way (which any peer can send) would decode as another type, a full Object
/// included whatever [`Config::with_allow_objects`] says.
pub(super) struct MarkerGuard<V>(pub(super) V);

impl<V> MarkerGuard<V> {
    pub(super) fn check<E: de::Error>(v: &str) -> core::result::Result<(), E> {
        if marker(v).is_some() {
            return Err(E::custom(format_args!(
                "Dictionary key {v:?} is reserved for godot_serde's own type markers"
            )));
        }
        Ok(())
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for MarkerGuard<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<V::Value, E> {
        Self::check(v)?;
        self.0.visit_borrowed_str(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<V::Value, E> {
        Self::check(v)?;
        self.0.visit_str(v)
    }
}
