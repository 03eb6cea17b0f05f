//! Dictionary keys: a struct's field names matched without a UTF-8 check, and the guard that
//! keeps a plain Dictionary keyed by a marker name from decoding as another type.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A struct's field names, and which one the next key most likely is (keys usually come in
/// declaration order, as serializers write them).
pub(super) struct KnownKeys {
    pub(super) names: &'static [&'static str],
    pub(super) next: usize,
    /// The name the current key matched, if it did (for error paths).
    pub(super) last: Option<&'static str>,
}

impl KnownKeys {
    pub(super) fn new(names: &'static [&'static str]) -> Self {
        KnownKeys {
            names,
            next: 0,
            last: None,
        }
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
        self.last = Some(name);
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

/// Refuses a Dictionary key or property name that starts with `$godot_serde::` (header at
/// `offset`): self-describing visitors (`Variant`) take a map whose first key is a marker name
/// for that Godot type, so a plain Dictionary keyed that way (which any peer can send) could
/// decode as another type, a full Object included whatever [`Config::with_allow_objects`]
/// says. serde's buffering can make any key the first, so every key is checked.
#[inline]
pub(super) fn reserved_key(key: &str, offset: usize) -> Result<()> {
    if key.starts_with(RESERVED_PREFIX) {
        return Err(reserved_key_error(key, offset));
    }
    Ok(())
}

#[cold]
pub(super) fn reserved_key_error(key: &str, offset: usize) -> Error {
    Error::at(
        ErrorKind::Message(
            format!("Dictionary key {key:?} is reserved for godot_serde's own type markers").into(),
        ),
        offset,
    )
}

/// `key`, after [`reserved_key`] when `guard` (the key's header offset) is set.
#[inline]
pub(super) fn checked(key: &str, guard: Option<usize>) -> Result<&str> {
    match guard {
        Some(at) => reserved_key(key, at).map(|()| key),
        None => Ok(key),
    }
}

/// The prefix of every marker name.
pub(super) const RESERVED_PREFIX: &str = "$godot_serde::";
