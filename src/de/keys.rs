//! Dictionary keys: a struct's field names matched without a UTF-8 check, and the guard that
//! keeps a plain Dictionary keyed by a marker name from decoding as another type.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::wire::zero_byte_in;

/// A struct's field names, and which one the next key most likely is (keys usually come in
/// declaration order, as serializers write them).
pub(super) struct KnownKeys {
    pub(super) names: &'static [&'static str],
    pub(super) next: usize,
    /// The name the current key matched, if it did (for error paths).
    pub(super) last: Option<&'static str>,
    /// Every name is [`plain_name`] (known from [`PlainLists`]), so a key that matches one
    /// needs no check of its own.
    plain: bool,
    /// Keys may be matched in place ([`expected`](Self::expected)): the names are plain and
    /// the keys' depth is within the limit (it stays the same for all of them).
    direct: bool,
}

impl KnownKeys {
    /// No names (a map, an enum's variant key, a lone identifier).
    pub(super) fn none() -> Self {
        KnownKeys {
            names: &[],
            next: 0,
            last: None,
            plain: true,
            direct: false,
        }
    }

    /// The names of a struct's fields; `lists` remembers which lists are all plain;
    /// `depth_ok`: the keys' depth is within the limit.
    #[inline]
    pub(super) fn new(
        names: &'static [&'static str],
        lists: &mut PlainLists,
        depth_ok: bool,
    ) -> Self {
        let plain = lists.all_plain(names);
        KnownKeys {
            names,
            next: 0,
            last: None,
            plain,
            direct: plain && depth_ok,
        }
    }

    /// The field name whose text the Godot String bytes `bytes` (length `len`, then padding)
    /// decode to, when it is one of them byte for byte; `None` sends the key down the general
    /// path. A name `text` would change (one with a NUL or a leading BOM) never matches, so a
    /// match is exactly what `text` gives; nor does a name starting with `$` (which a
    /// reserved name does), so a match needs no [`reserved_key`] check.
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
        if !self.plain && !plain_name(name) {
            return None;
        }
        self.next = index + 1;
        self.last = Some(name);
        Some(name)
    }
}

impl KnownKeys {
    /// When `unread` starts with the next field name in declaration order as a String
    /// Variant (plain header word, length, text, padding): that name and the bytes after
    /// it. Only for plain names at an allowed depth ([`direct`](Self::direct)), so that a
    /// match is what the general path would read and accept.
    #[inline(always)]
    pub(super) fn expected<'de>(&mut self, unread: &'de [u8]) -> Option<(&'static str, &'de [u8])> {
        if !self.direct {
            return None;
        }
        let &name = self.names.get(self.next)?;
        let len = name.len();
        // Header, length, text and padding: `8 + padded_len(len)`, which cannot overflow for
        // the length of a `str` (at most `isize::MAX`).
        let (key, rest) = unread.split_at_checked(len.wrapping_add(11) & !3)?;
        let (head, text) = key.split_first_chunk::<8>()?;
        let word = u64::from(STRING_WORD) | u64::from(u32::try_from(len).ok()?) << 32;
        if u64::from_le_bytes(*head) != word || !same_bytes(name.as_bytes(), text.get(..len)?) {
            return None;
        }
        self.next += 1;
        self.last = Some(name);
        Some((name, rest))
    }
}

/// The field-name lists (a struct's `FIELDS`, `'static`) seen to be all [`plain_name`], by
/// address and length: a `'static` slice's memory is never reused, so the same address and
/// length always hold the same names. Each decoder checks a list's names once, then one
/// compare per struct value finds them checked.
#[derive(Default)]
pub(super) struct PlainLists {
    /// Direct-mapped on the address: (address, length) of a list found all plain.
    slots: [(usize, usize); 8],
}

impl PlainLists {
    /// Whether every name of `names` is plain.
    #[inline]
    fn all_plain(&mut self, names: &'static [&'static str]) -> bool {
        if names.is_empty() {
            return true;
        }
        let key = (names.as_ptr() as usize, names.len());
        let slot = (key.0 >> 4 ^ key.0 >> 7) % self.slots.len();
        let Some(entry) = self.slots.get_mut(slot) else {
            return false;
        };
        if *entry == key {
            return true;
        }
        Self::check(entry, names, key)
    }

    #[cold]
    #[inline(never)]
    fn check(
        entry: &mut (usize, usize),
        names: &'static [&'static str],
        key: (usize, usize),
    ) -> bool {
        let plain = names.iter().all(|name| plain_name(name));
        if plain {
            *entry = key;
        }
        plain
    }
}

/// Whether the field name `name` is its own text as a key: no NUL, no leading BOM
/// ([`text`](super::text) would change it), and not a possible reserved name (no leading
/// `$`), so that a key equal to it needs no further check.
#[inline(always)]
fn plain_name(name: &str) -> bool {
    let b = name.as_bytes();
    if matches!(b.first(), Some(b'$' | 0xEF)) {
        return false;
    }
    // As `has_nul`, inlined for the short names of struct fields.
    let word = |w: [u8; 8]| zero_byte_in(u64::from_le_bytes(w));
    let half = |w: [u8; 4]| zero_byte_in(u64::from(u32::from_le_bytes(w)) | 0xFFFF_FFFF_0000_0000);
    if b.len() <= 16 {
        if let (Some(&a0), Some(&a1)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
            return !word(a0) && !word(a1);
        }
        if let (Some(&a0), Some(&a1)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            return !half(a0) && !half(a1);
        }
        // The first, middle and last byte are every byte of a name of up to 3.
        let n = b.len();
        return [b.first(), b.get(n / 2), b.last()]
            .iter()
            .all(|c| c.is_none_or(|&c| c != 0));
    }
    !has_nul(b)
}

/// `a == b`, without a call to `memcmp` for the short keys of struct fields.
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    if n > 16 {
        return a == b;
    }
    // Two overlapping words cover every byte of a key of one to two word lengths; the first,
    // middle and last byte every byte of a shorter one.
    if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<8>(),
        a.last_chunk::<8>(),
        b.first_chunk::<8>(),
        b.last_chunk::<8>(),
    ) {
        return a0 == b0 && a1 == b1;
    }
    if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (
        a.first_chunk::<4>(),
        a.last_chunk::<4>(),
        b.first_chunk::<4>(),
        b.last_chunk::<4>(),
    ) {
        return a0 == b0 && a1 == b1;
    }
    a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last()
}

/// A Dictionary key (or an enum's variant key): `deserialize_identifier` checks it against
/// the struct's field names; a String or StringName key's text, whatever method reads it, is
/// checked by [`reserved_key`] unless it matched a field name.
pub(super) struct KeyDe<'a, 'k, R> {
    pub(super) de: &'a mut Deserializer<R>,
    pub(super) keys: &'k mut KnownKeys,
}

/// `deserialize_*` methods of [`KeyDe`] for values that [`Deserializer::key_with`] reads with
/// the header given (`$with`: `scalar_at` or `visit_value`).
macro_rules! key_with {
    ($with:ident: $($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.de.key_with(visitor, |de, h, visitor| de.$with(h, visitor))
        }
    )*};
}

impl<'de, R: Read<'de>> KeyDe<'_, '_, R> {
    /// Reads the key's header ahead and runs `f` on the plain deserializer: the header is
    /// read again from there, and a String's text checked (see
    /// [`guard_next_key`](Deserializer::guard_next_key)). For the methods keys rarely take.
    fn guarded<T>(self, f: impl FnOnce(&mut Deserializer<R>) -> Result<T>) -> Result<T> {
        self.de.guard_next_key()?;
        let r = f(&mut *self.de);
        self.de.guard_key = None;
        r
    }
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for KeyDe<'_, '_, R> {
    type Error = Error;

    #[inline(always)]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(name) = self.de.expected_key(self.keys) {
            return visitor.visit_borrowed_str(name);
        }
        self.de.key_identifier(self.keys, visitor)
    }

    key_with! {
        visit_value: deserialize_any, deserialize_ignored_any
    }

    key_with! {
        scalar_at: deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32,
        deserialize_i64, deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32,
        deserialize_u64, deserialize_u128, deserialize_f64, deserialize_char, deserialize_str,
        deserialize_string, deserialize_unit
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_f32(de, visitor))
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_bytes(de, visitor))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_byte_buf(de, visitor))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_option(de, visitor))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_seq(de, visitor))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_map(de, visitor))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_unit_struct(de, name, visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_newtype_struct(de, name, visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_tuple(de, len, visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_tuple_struct(de, name, len, visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_struct(de, name, fields, visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.guarded(|de| de::Deserializer::deserialize_enum(de, name, variants, visitor))
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
    if crate::types::is_reserved_key(key) {
        return Err(reserved_key_error(key, offset));
    }
    Ok(())
}

#[cold]
pub(super) fn reserved_key_error(key: &str, offset: usize) -> Error {
    Error::at(ErrorKind::ReservedKey { key: key.into() }, offset)
}

/// `key`, after [`reserved_key`] when `guard` (the key's header offset) is set.
#[inline]
pub(super) fn checked(key: &str, guard: Option<usize>) -> Result<&str> {
    match guard {
        Some(at) => reserved_key(key, at).map(|()| key),
        None => Ok(key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_sees_every_byte_of_every_length() {
        for n in 0..=40usize {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()), "equal, length {n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "length {n}, byte {at} differs");
            }
            let longer = [a.as_slice(), b"x"].concat();
            assert!(!same_bytes(&a, &longer), "lengths {n} and {}", n + 1);
        }
    }

    #[test]
    fn a_name_that_text_would_change_or_that_could_be_reserved_is_not_plain() {
        assert!(plain_name("position"));
        assert!(plain_name(""));
        assert!(!plain_name("$godot_serde::Object"));
        assert!(!plain_name("$other"));
        assert!(!plain_name("\u{FEFF}bom"));
        assert!(!plain_name("a\0b"));
        assert!(!plain_name("sixteen_bytes_\0x"));
        assert!(!plain_name("\0"));
        assert!(!plain_name("a\0"));
        assert!(!plain_name("seventeen_bytes_\0"));
    }

    #[test]
    fn a_list_is_plain_when_every_name_is() {
        static PLAIN: [&str; 3] = ["id", "name", "position"];
        static NOT: [&str; 3] = ["id", "$godot_serde::Object", "position"];
        let mut lists = PlainLists::default();
        for _ in 0..2 {
            assert!(lists.all_plain(&PLAIN));
            assert!(!lists.all_plain(&NOT));
            // A shorter list at the same address is another list.
            assert!(lists.all_plain(&NOT[..1]));
            assert!(!lists.all_plain(&NOT[..2]));
        }
        assert!(lists.all_plain(&[]));
    }
}
