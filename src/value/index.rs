//! `variant[i]`, `variant["key"]`, [`Variant::get`], [`Variant::pointer`] and
//! [`Variant::take`], as `serde_json::Value` has them.
//!
//! - `variant[i]` (a `usize`) is element `i` of an Array;
//! - `variant["key"]` (a `&str`) is the value of a Dictionary's `String` or `StringName` key
//!   with that text.
//!
//! Reading never panics: a missing element or key, or a value of another type, gives
//! [`Variant::Nil`]. Writing (`IndexMut`) works as serde_json's: `v["key"] = x` inserts the
//! key when it is missing (a `Nil` becomes an empty Dictionary first), `v[i] = x` replaces an
//! existing element; writing into a value of another type, or past an Array's end, panics.
//! [`Variant::get_mut`] and [`Variant::pointer_mut`] are the non-panicking ways to write.

use core::ops::{Index, IndexMut};

use super::{Dictionary, Variant};

static NIL: Variant = Variant::Nil;

/// What indexes a [`Variant`]: a `usize` (an Array element) or a string (a Dictionary's
/// `String` or `StringName` key). Used by [`Variant::get`] and [`Variant::get_mut`].
pub trait VariantIndex: sealed::Sealed {
    /// The value at this index of `v`, if there is one.
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant>;
    /// The value at this index of `v`, mutably, if there is one.
    fn index_into_mut<'v>(&self, v: &'v mut Variant) -> Option<&'v mut Variant>;
}

mod sealed {
    /// Keeps [`super::VariantIndex`] to the types implemented here.
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: ?Sized + Sealed> Sealed for &T {}
}

impl VariantIndex for usize {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        v.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Variant) -> Option<&'v mut Variant> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl VariantIndex for str {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        v.as_dictionary()?.get(self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Variant) -> Option<&'v mut Variant> {
        v.as_dictionary_mut()?.get_mut(self)
    }
}

impl VariantIndex for String {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Variant) -> Option<&'v mut Variant> {
        self.as_str().index_into_mut(v)
    }
}

impl<T: ?Sized + VariantIndex> VariantIndex for &T {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Variant) -> Option<&'v mut Variant> {
        (**self).index_into_mut(v)
    }
}

impl Variant {
    /// The element `i` of an Array (`v.get(2)`) or the value under a String / StringName key
    /// of a Dictionary (`v.get("hp")`); `None` when missing or of another type.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let v = variant!({"hp": 5, "items": ["sword"]});
    /// assert_eq!(v.get("hp"), Some(&Variant::Int(5)));
    /// assert_eq!(v.get("items").and_then(|a| a.get(0)), Some(&Variant::from("sword")));
    /// assert_eq!(v.get("mp"), None);
    /// ```
    #[must_use]
    pub fn get<I: VariantIndex>(&self, index: I) -> Option<&Variant> {
        index.index_into(self)
    }

    /// [`Variant::get`], mutably.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let mut v = variant!({"hp": 5});
    /// *v.get_mut("hp").unwrap() = 7.into();
    /// assert_eq!(v["hp"], Variant::Int(7));
    /// ```
    pub fn get_mut<I: VariantIndex>(&mut self, index: I) -> Option<&mut Variant> {
        index.index_into_mut(self)
    }

    /// Takes the value out, leaving `Nil` in its place.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let mut v = variant!({"name": "Ann"});
    /// let name = v["name"].take();
    /// assert_eq!(name, Variant::from("Ann"));
    /// assert_eq!(v["name"], Variant::Nil);
    /// ```
    pub fn take(&mut self) -> Variant {
        core::mem::take(self)
    }

    /// The value a JSON Pointer (RFC 6901) names: `"/a/0/b"` is key `"a"`, element 0, key
    /// `"b"`; `""` is the value itself. A token names a Dictionary's String or StringName key
    /// (`~1` stands for `/`, `~0` for `~`), or when there is none and the token is a number,
    /// its int key; in an Array it is an index (decimal, no leading zeros).
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let v = variant!({"players": [{"name": "Ann"}], 7: "seven", "a/b": 1});
    /// assert_eq!(v.pointer("/players/0/name"), Some(&Variant::from("Ann")));
    /// assert_eq!(v.pointer("/7"), Some(&Variant::from("seven")));
    /// assert_eq!(v.pointer("/a~1b"), Some(&Variant::Int(1)));
    /// assert_eq!(v.pointer("/players/1"), None);
    /// assert_eq!(v.pointer(""), Some(&v));
    /// ```
    #[must_use]
    pub fn pointer(&self, pointer: &str) -> Option<&Variant> {
        let mut v = self;
        for token in tokens(pointer)? {
            v = match v {
                Variant::Dictionary(d) => match int_key(d, &token) {
                    Some(n) => d.get(n)?,
                    None => d.get(token.as_str())?,
                },
                Variant::Array(a) => a.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// [`Variant::pointer`], mutably.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let mut v = variant!({"players": [{"hp": 5}]});
    /// *v.pointer_mut("/players/0/hp").unwrap() = 9.into();
    /// assert_eq!(v.pointer("/players/0/hp"), Some(&Variant::Int(9)));
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Variant> {
        let mut v = self;
        for token in tokens(pointer)? {
            v = match v {
                Variant::Dictionary(d) => match int_key(d, &token) {
                    Some(n) => d.get_mut(n)?,
                    None => d.get_mut(token.as_str())?,
                },
                Variant::Array(a) => a.get_mut(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(v)
    }
}

/// The unescaped tokens of a JSON Pointer; `None` when it is neither empty nor starts with
/// `/`.
fn tokens(pointer: &str) -> Option<impl Iterator<Item = String> + '_> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    Some(
        pointer
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~")),
    )
}

/// The int key a pointer token names: when `d` has no String / StringName key with the
/// token's text and the token is a number.
fn int_key(d: &Dictionary, token: &str) -> Option<i64> {
    if d.contains_key(token) {
        return None;
    }
    token.parse().ok()
}

/// The Array index a pointer token names (decimal digits, no leading zero but `0` itself).
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

impl Index<usize> for Variant {
    type Output = Variant;

    /// Element `index` of an Array; `Nil` when out of range or not an Array.
    ///
    /// ```
    /// use godot_serde::Variant;
    ///
    /// let v = Variant::from(vec![Variant::from(1), Variant::from("two")]);
    /// assert_eq!(v[1], Variant::from("two"));
    /// assert_eq!(v[5], Variant::Nil);
    /// assert_eq!(Variant::from(3)[0], Variant::Nil);
    /// ```
    fn index(&self, index: usize) -> &Variant {
        self.get(index).unwrap_or(&NIL)
    }
}

impl Index<&str> for Variant {
    type Output = Variant;

    /// The value under a `String` or `StringName` key of a Dictionary; `Nil` when missing or
    /// not a Dictionary.
    ///
    /// ```
    /// use godot_serde::{Dictionary, Variant};
    ///
    /// let d: Dictionary = [("hp", 10)].into_iter().collect();
    /// let v = Variant::from(d);
    /// assert_eq!(v["hp"], Variant::Int(10));
    /// assert_eq!(v["mp"], Variant::Nil);
    /// assert_eq!(v["hp"]["nested"], Variant::Nil);
    /// ```
    fn index(&self, key: &str) -> &Variant {
        self.get(key).unwrap_or(&NIL)
    }
}

impl IndexMut<usize> for Variant {
    /// Element `index` of an Array, to write.
    ///
    /// # Panics
    ///
    /// When this is not an Array or `index` is out of range, as `Vec` indexing does.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let mut v = variant!([1, 2]);
    /// v[1] = "two".into();
    /// assert_eq!(v, variant!([1, "two"]));
    /// ```
    #[allow(clippy::panic)] // `IndexMut` can only fail by panicking, as `Vec`'s does.
    fn index_mut(&mut self, index: usize) -> &mut Variant {
        match self {
            Variant::Array(a) => {
                let len = a.len();
                a.get_mut(index)
                    .unwrap_or_else(|| panic!("cannot index an Array of length {len} with {index}"))
            }
            other => panic!("cannot index {} with {index}", other.variant_type()),
        }
    }
}

impl IndexMut<&str> for Variant {
    /// The value under a `String` or `StringName` key of a Dictionary, to write: a missing
    /// key is inserted (as a `String`, with a `Nil` value), and a `Nil` becomes an empty
    /// Dictionary first, as in serde_json.
    ///
    /// # Panics
    ///
    /// When this is neither a Dictionary nor `Nil`.
    ///
    /// ```
    /// use godot_serde::{variant, Variant};
    ///
    /// let mut v = variant!({"hp": 5});
    /// v["hp"] = 6.into();
    /// v["mp"] = 3.into();
    /// v["pos"]["x"] = 1.5.into();
    /// assert_eq!(v, variant!({"hp": 6, "mp": 3, "pos": {"x": 1.5}}));
    /// ```
    #[allow(clippy::panic)] // `IndexMut` can only fail by panicking, as serde_json's does.
    fn index_mut(&mut self, key: &str) -> &mut Variant {
        if self.is_nil() {
            *self = Variant::from(Dictionary::new());
        }
        let Variant::Dictionary(d) = self else {
            panic!("cannot index {} with {key:?}", self.variant_type());
        };
        if !d.contains_key(key) {
            d.insert(Variant::String(key.into()), Variant::Nil);
        }
        d.get_mut(key)
            .unwrap_or_else(|| unreachable!("the key was just inserted"))
    }
}
