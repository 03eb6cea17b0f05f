//! More [`Dictionary`] API: lookups, removal, iteration, typed construction.
//!
//! Entries live in a `Vec` in insertion order, as Godot keeps them, so every lookup compares
//! keys one by one (linear time). That suits the small dictionaries of network messages and
//! save data; index a large one into a `HashMap` yourself if you look up many keys.
//!
//! Lookups take any [`DictionaryKey`]: a `&Variant`, or a `&str` (matching a `String` or a
//! `StringName` key, as Godot's own `dict["name"]` does), an `i64` / `i32` (matching an `int`
//! key) or a `bool`.

use super::{ContainerType, Dictionary, Variant};
use crate::types::StringName;

/// Something a [`Dictionary`] key can be compared with, for lookups without building a
/// [`Variant`].
///
/// ```
/// use godot_serde::{Dictionary, StringName, Variant};
///
/// let mut d = Dictionary::new();
/// d.insert(Variant::StringName(StringName("hp".into())), 10.into());
/// d.insert(3.into(), "three".into());
/// assert_eq!(d.get("hp"), Some(&Variant::Int(10)));
/// assert_eq!(d.get(3), Some(&Variant::from("three")));
/// assert_eq!(d.get(&Variant::Int(3)), d.get(3));
/// ```
pub trait DictionaryKey {
    /// Whether `key` (a key stored in a Dictionary) is this one.
    fn matches_key(&self, key: &Variant) -> bool;
}

impl DictionaryKey for &Variant {
    /// Exactly equal keys (a String key does not match a StringName key).
    fn matches_key(&self, key: &Variant) -> bool {
        *self == key
    }
}

impl DictionaryKey for &str {
    /// A `String` or `StringName` key with this text.
    fn matches_key(&self, key: &Variant) -> bool {
        match key {
            Variant::String(s) | Variant::StringName(StringName(s)) => s == self,
            _ => false,
        }
    }
}

impl DictionaryKey for &String {
    /// A `String` or `StringName` key with this text.
    fn matches_key(&self, key: &Variant) -> bool {
        self.as_str().matches_key(key)
    }
}

impl DictionaryKey for i64 {
    /// An `int` key with this value.
    fn matches_key(&self, key: &Variant) -> bool {
        *key == Variant::Int(*self)
    }
}

impl DictionaryKey for i32 {
    /// An `int` key with this value.
    fn matches_key(&self, key: &Variant) -> bool {
        *key == Variant::Int(i64::from(*self))
    }
}

impl DictionaryKey for bool {
    /// A `bool` key with this value.
    fn matches_key(&self, key: &Variant) -> bool {
        *key == Variant::Bool(*self)
    }
}

impl Dictionary {
    /// An empty typed Dictionary (`Dictionary[K, V]`, Godot 4.4+). Types are not enforced
    /// when inserting.
    ///
    /// ```
    /// use godot_serde::{ContainerType, Dictionary, VariantType};
    ///
    /// let mut d = Dictionary::typed(
    ///     ContainerType::Builtin(VariantType::String),
    ///     ContainerType::Builtin(VariantType::Int),
    /// );
    /// d.insert("a".into(), 1.into());
    /// assert_eq!(d.to_string(), "Dictionary[String, int]({\n\"a\": 1\n})");
    /// ```
    #[must_use]
    pub fn typed(key_type: ContainerType, value_type: ContainerType) -> Self {
        Dictionary {
            key_type,
            value_type,
            entries: Vec::new(),
        }
    }

    /// Whether the Dictionary has a key or value type (`Dictionary[K, V]`).
    #[must_use]
    pub fn is_typed(&self) -> bool {
        self.key_type != ContainerType::Untyped || self.value_type != ContainerType::Untyped
    }

    /// The value under the first key that matches `key` (linear search).
    ///
    /// ```
    /// use godot_serde::{Dictionary, Variant};
    ///
    /// let d: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
    /// assert_eq!(d.get("b"), Some(&Variant::Int(2)));
    /// assert_eq!(d.get("z"), None);
    /// ```
    #[must_use]
    pub fn get(&self, key: impl DictionaryKey) -> Option<&Variant> {
        self.entries
            .iter()
            .find(|(k, _)| key.matches_key(k))
            .map(|(_, v)| v)
    }

    /// The value under the first key that matches `key`, mutably.
    pub fn get_mut(&mut self, key: impl DictionaryKey) -> Option<&mut Variant> {
        self.entries
            .iter_mut()
            .find(|(k, _)| key.matches_key(k))
            .map(|(_, v)| v)
    }

    /// Whether some key matches `key`.
    #[must_use]
    pub fn contains_key(&self, key: impl DictionaryKey) -> bool {
        self.entries.iter().any(|(k, _)| key.matches_key(k))
    }

    /// Removes the first entry whose key matches `key` and returns its value; the other
    /// entries keep their order.
    ///
    /// ```
    /// use godot_serde::Dictionary;
    ///
    /// let mut d: Dictionary = [("a", 1), ("b", 2), ("c", 3)].into_iter().collect();
    /// assert_eq!(d.remove("b"), Some(2.into()));
    /// assert_eq!(d.keys().filter_map(|k| k.as_str()).collect::<Vec<_>>(), ["a", "c"]);
    /// ```
    pub fn remove(&mut self, key: impl DictionaryKey) -> Option<Variant> {
        let index = self.entries.iter().position(|(k, _)| key.matches_key(k))?;
        Some(self.entries.remove(index).1)
    }

    /// Removes the first entry whose key matches `key` and returns it.
    pub fn remove_entry(&mut self, key: impl DictionaryKey) -> Option<(Variant, Variant)> {
        let index = self.entries.iter().position(|(k, _)| key.matches_key(k))?;
        Some(self.entries.remove(index))
    }

    /// The keys in insertion order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Variant> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in insertion order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Variant> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in insertion order, mutably.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Variant> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The entries in insertion order, values mutable (keys stay fixed so they stay unique).
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&Variant, &mut Variant)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// Removes every entry, keeping the key and value types.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = std::vec::IntoIter<(Variant, Variant)>;

    /// The entries in insertion order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Dictionary {
    type Item = &'a (Variant, Variant);
    type IntoIter = core::slice::Iter<'a, (Variant, Variant)>;

    /// The entries in insertion order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

impl<K: Into<Variant>, V: Into<Variant>> Extend<(K, V)> for Dictionary {
    /// Inserts each pair as [`Dictionary::insert`] does: an existing key keeps its position
    /// and takes the new value.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k.into(), v.into());
        }
    }
}

impl Dictionary {
    /// A Dictionary of `entries` whose keys are already distinct (the text parser merges
    /// repeated keys itself, in linear time): no per-key search.
    pub(crate) fn from_distinct_entries(
        key_type: ContainerType,
        value_type: ContainerType,
        entries: Vec<(Variant, Variant)>,
    ) -> Self {
        Dictionary {
            key_type,
            value_type,
            entries,
        }
    }
}
