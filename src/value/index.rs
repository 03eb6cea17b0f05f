//! `variant[i]` and `variant["key"]`, as `serde_json::Value` indexes.
//!
//! - `variant[i]` (a `usize`) reads element `i` of an Array;
//! - `variant["key"]` (a `&str`) reads the value of a Dictionary's `String` or `StringName`
//!   key with that text.
//!
//! Reading never panics: a missing element or key, or a value of another type, gives
//! [`Variant::Nil`]. There is deliberately no `IndexMut`: serde_json's inserts a key on a miss
//! but panics on a non-object, and a silent `Nil` for writes would hide mistakes. Write with
//! [`Variant::as_array_mut`] / [`Variant::as_dictionary_mut`] and the `Vec` / `Dictionary`
//! methods instead (`get_mut`, `insert`).

use core::ops::Index;

use super::Variant;

static NIL: Variant = Variant::Nil;

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
        match self {
            Variant::Array(a) => a.items.get(index).unwrap_or(&NIL),
            _ => &NIL,
        }
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
        match self {
            Variant::Dictionary(d) => d.get(key).unwrap_or(&NIL),
            _ => &NIL,
        }
    }
}
