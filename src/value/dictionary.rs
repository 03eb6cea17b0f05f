//! More [`Dictionary`] API: lookups, removal, iteration, typed construction, and the key
//! equality and hash index behind them.
//!
//! Entries live in a `Vec` in insertion order, as Godot keeps them. Up to [`LINEAR_MAX`]
//! entries, lookups compare keys one by one (faster than hashing at that size); above, a hash
//! index over the whole key (its type and full payload) finds them, so lookups take constant
//! time and building or decoding a Dictionary linear time, whatever the keys.
//!
//! Lookups take any [`DictionaryKey`]: a `&Variant`, or a `&str` (matching a `String` or a
//! `StringName` key, as Godot's own `dict["name"]` does), an `i64` / `i32` (matching an `int`
//! key) or a `bool`.
//!
//! # Key equality
//!
//! Two keys are the same key when Godot's `Variant::hash_compare` says so: same type and
//! equal payload, floats compared so that `NaN` equals `NaN` and `-0.0` equals `0.0` (also
//! inside vectors, packed arrays and nested containers). A `String` key and a `StringName` key
//! stay distinct, so what a decoded Dictionary holds is what the bytes held.
//!
//! That is [`KeyMode::Exact`]; the text parser and `json::to_native` build Godot 4
//! Dictionaries in [`KeyMode::StringLike`], where a String and a StringName of the same text
//! are one key too, as in the engine. [`same_key`] is the one equality, with the mode.

use core::hash::{BuildHasher, Hash, Hasher};
use std::hash::RandomState;

use hashbrown::HashTable;
use thin_vec::ThinVec;

use super::{ContainerType, Dictionary, Variant};
use crate::types::{Real, StringName};
use crate::wire::VariantType;

/// Up to this many entries a Dictionary has no hash index.
pub(crate) const LINEAR_MAX: usize = 16;

/// What only some Dictionaries have (boxed, out of the two words of every one): key and value
/// types, and the hash index of one with more than [`LINEAR_MAX`] entries.
#[derive(Clone, Default)]
pub(crate) struct Extra {
    key_type: ContainerType,
    value_type: ContainerType,
    index: Option<KeyIndex>,
}

/// [`Extra`]'s types of a plain Dictionary.
static UNTYPED: ContainerType = ContainerType::Untyped;

/// The hash index of a [`Dictionary`]: `(hash, entry index)` per entry.
#[derive(Clone)]
pub(crate) struct KeyIndex {
    table: HashTable<(u64, usize)>,
    state: RandomState,
}

impl KeyIndex {
    fn hash(&self, key: &impl DictionaryKey) -> u64 {
        let mut h = self.state.build_hasher();
        key.hash_key(&mut h);
        h.finish()
    }
}

/// A float by the bit pattern Godot's `hash_compare` equality sees: `-0.0` as `0.0`, every NaN
/// as one NaN.
fn canonical(x: f64) -> u64 {
    if x == 0.0 {
        0
    } else if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        x.to_bits()
    }
}

/// The components of a float math type (all `Real`s) or a slice of them.
fn reals<T: bytemuck::Pod>(v: &[T]) -> &[Real] {
    bytemuck::try_cast_slice(v).unwrap_or_default()
}

/// The components of a `Color` or a slice of them.
fn reals32<T: bytemuck::Pod>(v: &[T]) -> &[f32] {
    bytemuck::try_cast_slice(v).unwrap_or_default()
}

fn reals_eq<F: Copy + Into<f64>>(a: &[F], b: &[F]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| canonical((*x).into()) == canonical((*y).into()))
}

fn hash_reals<F: Copy + Into<f64>, H: Hasher>(a: &[F], h: &mut H) {
    h.write_usize(a.len());
    for x in a {
        h.write_u64(canonical((*x).into()));
    }
}

/// The [`fingerprint`]s of the first keys of a Dictionary being decoded (see
/// [`Dictionary::insert_printed`]).
pub(crate) struct Prints {
    words: [u64; LINEAR_MAX],
    len: usize,
}

impl Prints {
    pub(crate) const fn new() -> Self {
        Prints {
            words: [0; LINEAR_MAX],
            len: 0,
        }
    }
}

/// A one-word summary of a key: keys equal under [`key_eq`] have the same fingerprint (the
/// converse need not hold). Texts give their length and their first two and last two bytes;
/// ints and floats their value; other types their type.
#[inline]
pub(crate) fn fingerprint(key: &Variant) -> u64 {
    match key {
        Variant::String(s) => text_print(s.as_bytes()),
        Variant::StringName(StringName(s)) => text_print(s.as_bytes()),
        Variant::Int(i) => *i as u64,
        Variant::Float(f) => canonical(*f),
        _ => key.variant_type() as u64,
    }
}

/// The [`fingerprint`] of a String or StringName key of text `b`.
#[inline]
pub(crate) fn text_print(b: &[u8]) -> u64 {
    let byte = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
    let n = b.len();
    n as u64
        | byte(0) << 32
        | byte(1) << 40
        | byte(n.wrapping_sub(2)) << 48
        | byte(n.wrapping_sub(1)) << 56
}

/// Godot's key equality (`Variant::hash_compare`): the same type and equal payloads, floats
/// compared by [`canonical`] (NaN equals NaN, `-0.0` equals `0.0`), recursively.
pub(crate) fn key_eq(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    use core::slice::from_ref as one;
    // The usual keys first, and no payload comparison across types.
    match (a, b) {
        (V::String(x), V::String(y)) => return x == y,
        (V::Int(x), V::Int(y)) => return x == y,
        _ if core::mem::discriminant(a) != core::mem::discriminant(b) => return false,
        _ => {}
    }
    match (a, b) {
        (V::Float(x), V::Float(y)) => canonical(*x) == canonical(*y),
        (V::Vector2(x), V::Vector2(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Rect2(x), V::Rect2(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Vector3(x), V::Vector3(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Transform2D(x), V::Transform2D(y)) => reals_eq(reals(one(&**x)), reals(one(&**y))),
        (V::Vector4(x), V::Vector4(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Plane(x), V::Plane(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Quaternion(x), V::Quaternion(y)) => reals_eq(reals(one(x)), reals(one(y))),
        (V::Aabb(x), V::Aabb(y)) => reals_eq(reals(one(&**x)), reals(one(&**y))),
        (V::Basis(x), V::Basis(y)) => reals_eq(reals(one(&**x)), reals(one(&**y))),
        (V::Transform3D(x), V::Transform3D(y)) => reals_eq(reals(one(&**x)), reals(one(&**y))),
        (V::Projection(x), V::Projection(y)) => reals_eq(reals(one(&**x)), reals(one(&**y))),
        (V::Color(x), V::Color(y)) => reals_eq(reals32(one(x)), reals32(one(y))),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => reals_eq(&x.0, &y.0),
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => reals_eq(&x.0, &y.0),
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => reals_eq(reals(&x.0), reals(&y.0)),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => reals_eq(reals(&x.0), reals(&y.0)),
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => reals_eq(reals(&x.0), reals(&y.0)),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => reals_eq(reals32(&x.0), reals32(&y.0)),
        (V::Array(x), V::Array(y)) => {
            x.element_type == y.element_type
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| key_eq(p, q))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.key_type() == y.key_type()
                && x.value_type() == y.value_type()
                && x.entries.len() == y.entries.len()
                && x.entries
                    .iter()
                    .zip(&y.entries)
                    .all(|((k1, v1), (k2, v2))| key_eq(k1, k2) && key_eq(v1, v2))
        }
        (V::Object(x), V::Object(y)) => {
            x.class == y.class
                && x.properties.len() == y.properties.len()
                && x.properties
                    .iter()
                    .zip(&y.properties)
                    .all(|((n1, v1), (n2, v2))| n1 == n2 && key_eq(v1, v2))
        }
        _ => a == b,
    }
}

/// Which keys a Dictionary being built (see
/// [`DictionaryBuilder`](super::builder::DictionaryBuilder)) takes as one key: the Godot 3 /
/// Godot 4 / decoder differences, in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyMode {
    /// Godot's `Variant::hash_compare` ([`key_eq`]): String and StringName keys stay
    /// distinct. Godot 3's Dictionary (3.x has no StringName), [`Dictionary::insert`], and
    /// decoding bytes or serde data, which keeps what was sent (a deliberate difference from
    /// Godot 4, listed in `docs/conformance.md`).
    Exact,
    /// Godot 4's Dictionary (`StringLikeVariantComparator`, `core/variant/variant.h`): also a
    /// String and a StringName of the same text are one key, at the top level of the key
    /// only; the first spelling stays. The Godot 4 text parser and `json::to_native`.
    StringLike,
}

impl KeyMode {
    /// The mode of the engine's own Dictionary in Godot 3 (`godot3`) or Godot 4.
    pub(crate) fn of_engine(godot3: bool) -> Self {
        if godot3 {
            KeyMode::Exact
        } else {
            KeyMode::StringLike
        }
    }
}

/// The one key equality: whether `a` and `b` are the same Dictionary key in `mode`.
#[inline]
pub(crate) fn same_key(mode: KeyMode, a: &Variant, b: &Variant) -> bool {
    key_eq(a, b)
        || (mode == KeyMode::StringLike
            && matches!((a.as_str(), b.as_str()), (Some(x), Some(y)) if x == y))
}

/// Hashes a key consistently with [`key_eq`], over its whole payload. `String` and
/// `StringName` hash alike (a `&str` lookup finds either); everything else hashes its type.
pub(crate) fn hash_variant<H: Hasher>(v: &Variant, h: &mut H) {
    use Variant as V;
    use core::slice::from_ref as one;
    match v {
        V::String(s) => return hash_str(s, h),
        V::StringName(StringName(s)) => return hash_str(s, h),
        V::Int(i) => return hash_int(*i, h),
        V::Bool(b) => return hash_bool(*b, h),
        _ => v.variant_type().hash(h),
    }
    match v {
        V::Float(x) => h.write_u64(canonical(*x)),
        V::Vector2(x) => hash_reals(reals(one(x)), h),
        V::Rect2(x) => hash_reals(reals(one(x)), h),
        V::Vector3(x) => hash_reals(reals(one(x)), h),
        V::Transform2D(x) => hash_reals(reals(one(&**x)), h),
        V::Vector4(x) => hash_reals(reals(one(x)), h),
        V::Plane(x) => hash_reals(reals(one(x)), h),
        V::Quaternion(x) => hash_reals(reals(one(x)), h),
        V::Aabb(x) => hash_reals(reals(one(&**x)), h),
        V::Basis(x) => hash_reals(reals(one(&**x)), h),
        V::Transform3D(x) => hash_reals(reals(one(&**x)), h),
        V::Projection(x) => hash_reals(reals(one(&**x)), h),
        V::Color(x) => hash_reals(reals32(one(x)), h),
        V::Vector2i(x) => x.hash(h),
        V::Rect2i(x) => x.hash(h),
        V::Vector3i(x) => x.hash(h),
        V::Vector4i(x) => x.hash(h),
        V::NodePath(x) => x.hash(h),
        V::Rid(x) => x.hash(h),
        V::ObjectId(x) => x.hash(h),
        V::Signal(x) => x.hash(h),
        V::Object(x) => {
            x.class.hash(h);
            h.write_usize(x.properties.len());
            for (name, value) in &x.properties {
                name.hash(h);
                hash_variant(value, h);
            }
        }
        V::Array(x) => {
            h.write_usize(x.items.len());
            for item in &x.items {
                hash_variant(item, h);
            }
        }
        V::Dictionary(x) => {
            h.write_usize(x.entries.len());
            for (k, value) in &x.entries {
                hash_variant(k, h);
                hash_variant(value, h);
            }
        }
        V::PackedByteArray(x) => x.0.hash(h),
        V::PackedInt32Array(x) => x.0.hash(h),
        V::PackedInt64Array(x) => x.0.hash(h),
        V::PackedStringArray(x) => x.0.hash(h),
        V::PackedFloat32Array(x) => hash_reals(&x.0, h),
        V::PackedFloat64Array(x) => hash_reals(&x.0, h),
        V::PackedVector2Array(x) => hash_reals(reals(&x.0), h),
        V::PackedVector3Array(x) => hash_reals(reals(&x.0), h),
        V::PackedVector4Array(x) => hash_reals(reals(&x.0), h),
        V::PackedColorArray(x) => hash_reals(reals32(&x.0), h),
        _ => {}
    }
}

fn hash_str<H: Hasher>(s: &str, h: &mut H) {
    VariantType::String.hash(h);
    s.hash(h);
}

fn hash_int<H: Hasher>(i: i64, h: &mut H) {
    VariantType::Int.hash(h);
    h.write_i64(i);
}

fn hash_bool<H: Hasher>(b: bool, h: &mut H) {
    VariantType::Bool.hash(h);
    h.write_u8(u8::from(b));
}

mod sealed {
    /// Keeps [`super::DictionaryKey`] implemented only here: its hash must agree with the
    /// index's.
    pub trait Sealed {
        /// Feeds `h` what the index hashes for a key this one matches.
        fn hash_key<H: core::hash::Hasher>(&self, h: &mut H);
    }
}

/// Something a [`Dictionary`] key can be compared with, for lookups without building a
/// [`Variant`].
///
/// Two keys are the same key when Godot's `Variant::hash_compare` says so: same type and
/// equal payload, floats compared so that `NaN` equals `NaN` and `-0.0` equals `0.0` (also
/// inside vectors, packed arrays and nested containers). A `String` key and a `StringName`
/// key stay distinct, so what a decoded Dictionary holds is what the bytes held; a `&str`
/// finds either.
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
/// d.insert(f64::NAN.into(), 1.into());
/// assert_eq!(d.get(&Variant::Float(f64::NAN)), Some(&Variant::Int(1))); // Godot's key equality
/// ```
pub trait DictionaryKey: sealed::Sealed {
    /// Whether `key` (a key stored in a Dictionary) is this one.
    fn matches_key(&self, key: &Variant) -> bool;
}

impl DictionaryKey for &Variant {
    /// Keys equal under Godot's key equality (see [`DictionaryKey`]); a `String` key does not
    /// match a `StringName` key.
    fn matches_key(&self, key: &Variant) -> bool {
        key_eq(self, key)
    }
}

impl sealed::Sealed for &Variant {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_variant(self, h);
    }
}

impl sealed::Sealed for &str {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_str(self, h);
    }
}

impl sealed::Sealed for &String {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_str(self, h);
    }
}

impl sealed::Sealed for i64 {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_int(*self, h);
    }
}

impl sealed::Sealed for i32 {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_int(i64::from(*self), h);
    }
}

impl sealed::Sealed for bool {
    fn hash_key<H: Hasher>(&self, h: &mut H) {
        hash_bool(*self, h);
    }
}

impl DictionaryKey for &str {
    /// A `String` or `StringName` key with this text.
    fn matches_key(&self, key: &Variant) -> bool {
        match key {
            Variant::String(s) => s == self,
            Variant::StringName(StringName(s)) => s == self,
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
    /// An empty, untyped Dictionary.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty, untyped Dictionary with room for `n` entries.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        Dictionary {
            entries: ThinVec::with_capacity(n),
            extra: None,
        }
    }

    /// The hash index, when there is one.
    fn index(&self) -> Option<&KeyIndex> {
        self.extra.as_ref()?.index.as_ref()
    }

    /// The boxed part, made when first needed.
    fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    /// The key type; [`ContainerType::Untyped`] for a plain `Dictionary`.
    #[must_use]
    pub fn key_type(&self) -> &ContainerType {
        self.extra.as_ref().map_or(&UNTYPED, |e| &e.key_type)
    }

    /// The value type; [`ContainerType::Untyped`] for a plain `Dictionary`.
    #[must_use]
    pub fn value_type(&self) -> &ContainerType {
        self.extra.as_ref().map_or(&UNTYPED, |e| &e.value_type)
    }

    /// Sets the key type (not enforced on the entries, as [`Dictionary::typed`]).
    pub fn set_key_type(&mut self, key_type: ContainerType) {
        if key_type != ContainerType::Untyped || self.extra.is_some() {
            self.extra_mut().key_type = key_type;
        }
    }

    /// Sets the value type (not enforced on the entries, as [`Dictionary::typed`]).
    pub fn set_value_type(&mut self, value_type: ContainerType) {
        if value_type != ContainerType::Untyped || self.extra.is_some() {
            self.extra_mut().value_type = value_type;
        }
    }

    /// The index of the entry whose key matches `key`.
    fn position(&self, key: &impl DictionaryKey) -> Option<usize> {
        match self.index() {
            None => self.entries.iter().position(|(k, _)| key.matches_key(k)),
            Some(ix) => {
                let hash = ix.hash(key);
                ix.table
                    .find(hash, |&(h, i)| {
                        h == hash && self.entries.get(i).is_some_and(|(k, _)| key.matches_key(k))
                    })
                    .map(|&(_, i)| i)
            }
        }
    }

    /// Builds the hash index over the current entries.
    fn build_index(&mut self) {
        let mut ix = KeyIndex {
            // Room for every entry the Vec has room for: no rehashing while it fills.
            table: HashTable::with_capacity(self.entries.capacity().max(self.entries.len() * 2)),
            state: RandomState::new(),
        };
        for (i, (k, _)) in self.entries.iter().enumerate() {
            let hash = ix.hash(&k);
            ix.table.insert_unique(hash, (hash, i), |&(h, _)| h);
        }
        self.extra_mut().index = Some(ix);
    }

    /// Inserts `value` under `key`. An existing equal key (Godot's key equality, see
    /// [`DictionaryKey`]) keeps its position and gets the new value, which is returned
    /// (Godot's behaviour, also when decoding a repeated key). Constant time on average.
    ///
    /// ```
    /// use godot_serde::{Dictionary, Variant};
    ///
    /// let mut d = Dictionary::new();
    /// assert_eq!(d.insert("a".into(), 1.into()), None);
    /// assert_eq!(d.insert("b".into(), 2.into()), None);
    /// assert_eq!(d.insert("a".into(), 3.into()), Some(Variant::Int(1)));
    /// assert_eq!(d.to_string(), "{\"a\": 3, \"b\": 2}");
    /// ```
    pub fn insert(&mut self, key: Variant, value: Variant) -> Option<Variant> {
        self.insert_in(KeyMode::Exact, key, value)
    }

    /// [`insert`](Self::insert) with the key equality of `mode` ([`same_key`]). The hash
    /// index and the fingerprints treat a String and a StringName of one text alike, so they
    /// serve both modes.
    pub(crate) fn insert_in(
        &mut self,
        mode: KeyMode,
        key: Variant,
        value: Variant,
    ) -> Option<Variant> {
        if self.entries.len() >= LINEAR_MAX && self.index().is_none() {
            self.build_index();
        }
        let entries = &mut self.entries;
        let Some(ix) = self.extra.as_deref_mut().and_then(|e| e.index.as_mut()) else {
            if let Some(slot) = entries.iter_mut().find(|(k, _)| same_key(mode, k, &key)) {
                return Some(core::mem::replace(&mut slot.1, value));
            }
            entries.push((key, value));
            return None;
        };
        let hash = ix.hash(&&key);
        let found = ix.table.find(hash, |&(h, i)| {
            h == hash && entries.get(i).is_some_and(|(k, _)| same_key(mode, k, &key))
        });
        if let Some(slot) = found.and_then(|&(_, i)| entries.get_mut(i)) {
            return Some(core::mem::replace(&mut slot.1, value));
        }
        ix.table
            .insert_unique(hash, (hash, entries.len()), |&(h, _)| h);
        entries.push((key, value));
        None
    }

    /// [`insert_in`](Self::insert_in) for a Dictionary being built by one sequence of inserts
    /// (see [`DictionaryBuilder`](super::DictionaryBuilder)), of a key whose [`fingerprint`]
    /// is `print`: while it is small, each new key is compared with the earlier ones by a
    /// one-word [`Prints`] fingerprint first, and only a matching fingerprint compares keys.
    /// Every insert into `self` must go through this with the same `prints`.
    #[inline]
    pub(crate) fn insert_printed(
        &mut self,
        mode: KeyMode,
        key: Variant,
        value: Variant,
        print: u64,
        prints: &mut Prints,
    ) -> Option<Variant> {
        let n = self.entries.len();
        if n >= LINEAR_MAX || prints.len != n {
            return self.insert_in(mode, key, value);
        }
        for (i, &p) in prints.words.get(..n).unwrap_or_default().iter().enumerate() {
            if p == print {
                if let Some(slot) = self.entries.get_mut(i) {
                    if same_key(mode, &slot.0, &key) {
                        return Some(core::mem::replace(&mut slot.1, value));
                    }
                }
            }
        }
        self.push_distinct(key, value, print, prints);
        None
    }

    /// [`insert_printed`](Self::insert_printed) of a key the caller knows differs from every
    /// key in `self`, with its [`fingerprint`] `print`: no comparison is made.
    #[inline]
    pub(crate) fn push_distinct(
        &mut self,
        key: Variant,
        value: Variant,
        print: u64,
        prints: &mut Prints,
    ) {
        let n = self.entries.len();
        match prints.words.get_mut(n) {
            Some(slot) if prints.len == n => {
                *slot = print;
                prints.len = n + 1;
                self.entries.push((key, value));
            }
            _ => {
                self.insert(key, value);
            }
        }
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in insertion order.
    pub fn iter(&self) -> core::slice::Iter<'_, (Variant, Variant)> {
        self.entries.iter()
    }

    /// The entries in insertion order, as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[(Variant, Variant)] {
        &self.entries
    }

    /// Removes entry `i` (which exists), keeping the others' order and the index right.
    fn remove_at(&mut self, i: usize) -> (Variant, Variant) {
        if let Some(ix) = self.extra.as_deref_mut().and_then(|e| e.index.as_mut()) {
            ix.table.retain(|(_, j)| *j != i);
            for (_, j) in &mut ix.table {
                if *j > i {
                    *j -= 1;
                }
            }
        }
        self.entries.remove(i)
    }

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
    /// assert_eq!(d.to_string(), "Dictionary[String, int]({\"a\": 1})");
    /// assert_eq!(format!("{d:#}"), "Dictionary[String, int]({\n\"a\": 1\n})");
    /// ```
    #[must_use]
    pub fn typed(key_type: ContainerType, value_type: ContainerType) -> Self {
        let mut d = Dictionary::new();
        d.set_key_type(key_type);
        d.set_value_type(value_type);
        d
    }

    /// Whether the Dictionary has a key or value type (`Dictionary[K, V]`).
    #[must_use]
    pub fn is_typed(&self) -> bool {
        *self.key_type() != ContainerType::Untyped || *self.value_type() != ContainerType::Untyped
    }

    /// The value under the key that matches `key`.
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
        let i = self.position(&key)?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// The value under the key that matches `key`, mutably.
    pub fn get_mut(&mut self, key: impl DictionaryKey) -> Option<&mut Variant> {
        let i = self.position(&key)?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    /// Whether some key matches `key`.
    #[must_use]
    pub fn contains_key(&self, key: impl DictionaryKey) -> bool {
        self.position(&key).is_some()
    }

    /// Removes the entry whose key matches `key` and returns its value; the other entries
    /// keep their order (linear time, as `Vec::remove`).
    ///
    /// ```
    /// use godot_serde::Dictionary;
    ///
    /// let mut d: Dictionary = [("a", 1), ("b", 2), ("c", 3)].into_iter().collect();
    /// assert_eq!(d.remove("b"), Some(2.into()));
    /// assert_eq!(d.keys().filter_map(|k| k.as_str()).collect::<Vec<_>>(), ["a", "c"]);
    /// ```
    pub fn remove(&mut self, key: impl DictionaryKey) -> Option<Variant> {
        let i = self.position(&key)?;
        Some(self.remove_at(i).1)
    }

    /// Removes the entry whose key matches `key` and returns it.
    pub fn remove_entry(&mut self, key: impl DictionaryKey) -> Option<(Variant, Variant)> {
        let i = self.position(&key)?;
        Some(self.remove_at(i))
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
        if let Some(e) = &mut self.extra {
            e.index = None;
        }
    }
}

impl PartialEq for Dictionary {
    /// The same key and value types and equal entries in the same order (Variant's `==`,
    /// under which NaN differs from itself).
    fn eq(&self, other: &Self) -> bool {
        self.key_type() == other.key_type()
            && self.value_type() == other.value_type()
            && self.entries == other.entries
    }
}

impl core::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Dictionary")
            .field("key_type", self.key_type())
            .field("value_type", self.value_type())
            .field("entries", &self.entries.as_slice())
            .finish()
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = IntoIter;

    /// The entries in insertion order.
    fn into_iter(self) -> IntoIter {
        IntoIter(self.entries.into_iter())
    }
}

/// The entries of a [`Dictionary`] taken by value, in insertion order (its `IntoIterator`).
pub struct IntoIter(thin_vec::IntoIter<(Variant, Variant)>);

impl Iterator for IntoIter {
    type Item = (Variant, Variant);
    fn next(&mut self) -> Option<(Variant, Variant)> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<(Variant, Variant)> {
        self.0.next_back()
    }
}

impl ExactSizeIterator for IntoIter {}

impl core::iter::FusedIterator for IntoIter {}

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
        let iter = iter.into_iter();
        self.entries.reserve(iter.size_hint().0);
        for (k, v) in iter {
            self.insert(k.into(), v.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a Dictionary with the builder, as decoding does.
    fn fresh(pairs: Vec<(Variant, Variant)>) -> Dictionary {
        let mut d = super::super::DictionaryBuilder::with_capacity(KeyMode::Exact, 0);
        for (k, v) in pairs {
            d.insert(k, v);
        }
        d.finish()
    }

    #[test]
    fn insert_fresh_finds_repeated_keys_past_fingerprint_collisions() {
        // Same length, same first and last two bytes: one fingerprint, two keys.
        let a = "abcdefgh_1_ijklmnop";
        let b = "abcdefgh_2_ijklmnop";
        assert_eq!(
            fingerprint(&Variant::from(a)),
            fingerprint(&Variant::from(b))
        );
        let d = fresh(vec![
            (a.into(), 1.into()),
            (b.into(), 2.into()),
            (Variant::StringName(StringName(a.into())), 3.into()),
            (f64::NAN.into(), 4.into()),
            ((-0.0f64).into(), 5.into()),
            (a.into(), 6.into()),
            (f64::NAN.into(), 7.into()),
            (0.0f64.into(), 8.into()),
        ]);
        // Repeated keys (NaN == NaN, -0.0 == 0.0) keep their place and take the later value;
        // a StringName stays distinct from the String of the same text.
        let keys: Vec<_> = d.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys.len(), 5, "{keys:?}");
        let values: Vec<_> = d.iter().map(|(_, v)| v.clone()).collect();
        assert_eq!(
            values,
            [6, 2, 3, 7, 8].map(Variant::from).to_vec(),
            "{keys:?}"
        );
    }

    #[test]
    fn insert_fresh_hands_over_to_the_index_past_the_linear_size() {
        let mut pairs: Vec<(Variant, Variant)> = (0..40i64)
            .map(|i| (format!("key{i}").into(), i.into()))
            .collect();
        pairs.push(("key3".into(), 100.into()));
        pairs.push(("key30".into(), 300.into()));
        let d = fresh(pairs);
        assert_eq!(d.len(), 40);
        assert_eq!(d.get("key3"), Some(&Variant::Int(100)));
        assert_eq!(d.get("key30"), Some(&Variant::Int(300)));
        assert_eq!(d.as_slice()[3].0, Variant::from("key3"));
        assert_eq!(d.as_slice()[30].0, Variant::from("key30"));
    }
}
