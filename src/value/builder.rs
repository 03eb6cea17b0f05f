//! [`DictionaryBuilder`]: the one way a Dictionary is built from a sequence of entries (bytes,
//! serde data, the text form, JSON), with the key equality of a [`KeyMode`].

use super::dictionary::{KeyMode, Prints, fingerprint};
use super::{ContainerType, Dictionary, Variant};

/// A Dictionary being built by one sequence of inserts: a repeated key (under the builder's
/// [`KeyMode`]) keeps its first position and first spelling and takes the last value, as
/// Godot does. Each insert costs time linear in the key whatever the keys hold: while the
/// Dictionary is small, new keys are compared by a one-word fingerprint first; above, its
/// hash index finds them.
pub(crate) struct DictionaryBuilder {
    dict: Dictionary,
    mode: KeyMode,
    prints: Prints,
}

impl DictionaryBuilder {
    /// An empty untyped Dictionary with room for `n` entries.
    #[inline]
    pub(crate) fn with_capacity(mode: KeyMode, n: usize) -> Self {
        DictionaryBuilder {
            dict: Dictionary::with_capacity(n),
            mode,
            prints: Prints::new(),
        }
    }

    /// An empty Dictionary with these key and value types and room for `n` entries.
    pub(crate) fn typed(
        mode: KeyMode,
        n: usize,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Self {
        let mut dict = Dictionary::with_capacity(n);
        dict.set_key_type(key_type);
        dict.set_value_type(value_type);
        DictionaryBuilder {
            dict,
            mode,
            prints: Prints::new(),
        }
    }

    /// Adds an entry; a key already there (see [`same_key`](super::dictionary::same_key))
    /// keeps its place and spelling, gets `value`, and its old value is returned.
    #[inline]
    pub(crate) fn insert(&mut self, key: Variant, value: Variant) -> Option<Variant> {
        let print = fingerprint(&key);
        self.dict
            .insert_printed(self.mode, key, value, print, &mut self.prints)
    }

    /// [`insert`](Self::insert) of a key whose fingerprint (`value::fingerprint`) the caller
    /// already has.
    #[inline]
    pub(crate) fn insert_printed(
        &mut self,
        key: Variant,
        value: Variant,
        print: u64,
    ) -> Option<Variant> {
        self.dict
            .insert_printed(self.mode, key, value, print, &mut self.prints)
    }

    /// [`insert`](Self::insert) of a key the caller knows differs from every key so far, with
    /// its fingerprint `print`: no comparison is made.
    #[inline]
    pub(crate) fn push_distinct(&mut self, key: Variant, value: Variant, print: u64) {
        self.dict.push_distinct(key, value, print, &mut self.prints);
    }

    /// The Dictionary built.
    #[inline]
    pub(crate) fn finish(self) -> Dictionary {
        self.dict
    }
}

#[cfg(test)]
mod tests {
    use super::super::dictionary::same_key;
    use super::*;
    use crate::types::StringName;

    /// The builder against the definition: a list of entries where each key is compared with
    /// every earlier one by [`same_key`].
    fn reference(mode: KeyMode, entries: &[(Variant, Variant)]) -> Vec<(Variant, Variant)> {
        let mut out: Vec<(Variant, Variant)> = Vec::new();
        for (k, v) in entries {
            match out.iter_mut().find(|(e, _)| same_key(mode, e, k)) {
                Some(slot) => slot.1 = v.clone(),
                None => out.push((k.clone(), v.clone())),
            }
        }
        out
    }

    fn name(s: &str) -> Variant {
        Variant::StringName(StringName(s.into()))
    }

    #[test]
    fn string_and_string_name_are_one_key_only_in_string_like_mode() {
        let entries: [(Variant, Variant); 4] = [
            ("a".into(), 1.into()),
            (name("a"), 2.into()),
            (name("b"), 3.into()),
            ("b".into(), 4.into()),
        ];
        let mut exact = DictionaryBuilder::with_capacity(KeyMode::Exact, 0);
        let mut like = DictionaryBuilder::with_capacity(KeyMode::StringLike, 0);
        for (k, v) in &entries {
            exact.insert(k.clone(), v.clone());
            like.insert(k.clone(), v.clone());
        }
        assert_eq!(exact.finish().as_slice(), &entries[..]);
        // First spelling, last value.
        assert_eq!(
            like.finish().as_slice(),
            &[("a".into(), 2.into()), (name("b"), 4.into())][..]
        );
    }

    #[test]
    fn builder_agrees_with_same_key_below_and_above_the_index_threshold() {
        // Keys that collide under each rule: texts of both string types, ints, floats with
        // NaN and -0.0 (one key each under hash_compare), 1 and 1.0 (two keys), nested arrays.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [3, 15, 16, 17, 40, 200] {
            let entries: Vec<(Variant, Variant)> = (0..n)
                .map(|i| {
                    let r = next();
                    let text = format!("k{}", r % 23);
                    let key = match r >> 32 & 7 {
                        0 => Variant::String(text.as_str().into()),
                        1 => name(&text),
                        2 => Variant::Int((r % 11) as i64),
                        3 => Variant::Float(if r & 1 == 0 { f64::NAN } else { -0.0 }),
                        4 => Variant::Float(0.0),
                        5 => Variant::Float(1.0),
                        6 => Variant::Int(1),
                        _ => {
                            Variant::from(vec![Variant::Float(if r & 1 == 0 { 0.0 } else { -0.0 })])
                        }
                    };
                    (key, Variant::Int(i))
                })
                .collect();
            for mode in [KeyMode::Exact, KeyMode::StringLike] {
                let mut b = DictionaryBuilder::with_capacity(mode, 0);
                for (k, v) in &entries {
                    b.insert(k.clone(), v.clone());
                }
                let built = b.finish();
                let want = reference(mode, &entries);
                assert_eq!(built.len(), want.len(), "{mode:?}, {n} entries");
                for ((k1, v1), (k2, v2)) in built.iter().zip(&want) {
                    assert!(
                        same_key(KeyMode::Exact, k1, k2) && v1 == v2,
                        "{mode:?} {k1:?} {k2:?}"
                    );
                }
            }
        }
    }
}
