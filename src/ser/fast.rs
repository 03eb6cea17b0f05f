//! The [`Serializer`]'s fast paths, writing side. Each takes the common shape of one kind of
//! value and writes it with fewer steps than the general path, which writes the same bytes
//! (the tests below check that on the same inputs in every target) and keeps every error:
//!
//! - **short Strings** ([`Serializer::short_string`]): a text of at most 8 bytes is one word,
//!   NUL-checked at once and stored with its header and length in one 16-byte store
//!   ([`Output::put_short`]); the general path is [`Serializer::put_string_general`];
//! - **struct keys** ([`Serializer::key`]): a field name is a constant, String's header word
//!   is the same in every target and the struct checked the depth for all its fields, so a
//!   key is its text's word and one store cut to size at compile time ([`Output::put_key`]);
//!   the general path is a String value;
//! - **math plans** ([`Serializer::math_plan`], [`TupleStruct::Math`]): a math type's header
//!   word, component kind and payload size worked out from its constant name, then each
//!   component one store; the general path is [`Compound::components`];
//!
//! The stores themselves ([`Output::put_short`], [`Output::put_key`]) stay methods of the
//! sealed [`Output`] trait, where each sink (a `Vec<u8>`, a counter) has its own.
//!
//! What they earn, in callgrind instructions of the ratio bench (`GODOT_SERDE_BENCH_PROFILE=1`,
//! 20 calls; one build per fast path switched off, against the same tree with all on, all
//! built in one directory):
//!
//! | switched off | `game_state_encode_reused` | `message_to_bytes` |
//! | --- | --- | --- |
//! | none | 134 586 294 | 70 941 |
//! | short Strings | 136 343 197 (+1.3 %) | 75 095 (+5.9 %) |
//! | struct keys | 143 127 033 (+6.3 %) | 74 401 (+4.9 %) |
//! | math plans | 211 321 655 (+57.0 %) | 78 808 (+11.1 %) |
//! | PackedStringArray's own serializer | 134 584 215 (−0.0 %) | 70 899 (−0.1 %) |
//!
//! The first three stay. The fourth (a `PackedStrings` serializer that skipped the marker
//! field's dispatch and stored each short element in one block) saved nothing and is gone:
//! PackedStringArray's strings take the marker field serializer's `Slot::StringArray`.

use super::Serializer;
use super::compound::{Components, Compound};
use super::marker::FieldSerializer;
use crate::error::{Error, ErrorKind, Result};
use crate::types::Marker;
use crate::wire::output::{Output, words};
use crate::wire::{FLAG_64, Header, VariantType, shared_word, zero_byte_in};
use serde::ser::{self, Impossible, Serialize};

/// String's header word, the same in every target.
const STRING_WORD: u32 = shared_word(VariantType::String);
const _: () = assert!(
    STRING_WORD != u32::MAX,
    "String has the same id in every version"
);

/// Whether the fast paths run: always, but the tests below switch them off to run the
/// general path on the same input.
#[inline(always)]
fn enabled() -> bool {
    #[cfg(test)]
    {
        !switch::OFF.with(core::cell::Cell::get)
    }
    #[cfg(not(test))]
    {
        true
    }
}

/// Records that a fast path was taken (the tests check that each one ran); nothing outside
/// the tests.
#[inline(always)]
fn hit() {
    #[cfg(test)]
    switch::HITS.with(|h| h.set(h.get() + 1));
}

/// The tests' switch (see [`enabled`]) and count of fast paths taken, per test thread.
#[cfg(test)]
mod switch {
    use core::cell::Cell;

    thread_local! {
        /// The fast paths are off.
        pub(super) static OFF: Cell<bool> = const { Cell::new(false) };
        /// How many times one was taken.
        pub(super) static HITS: Cell<u32> = const { Cell::new(0) };
    }
}

// ---- Short Strings and struct keys ----

/// A text of at most 8 bytes as a little-endian word, zero above its length.
#[inline]
pub(super) fn short_word(bytes: &[u8]) -> Option<u64> {
    let n = bytes.len();
    if n > 8 {
        return None;
    }
    Some(
        if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            // Two overlapping halves: the shared bytes are equal, so OR keeps them.
            u64::from(u32::from_le_bytes(*first))
                | u64::from(u32::from_le_bytes(*last)) << ((n - 4) * 8)
        } else {
            bytes
                .iter()
                .rev()
                .fold(0, |word, &b| word << 8 | u64::from(b))
        },
    )
}

/// Whether the first `n` bytes of a [`short_word`] hold a NUL.
#[inline]
pub(super) fn short_has_nul(word: u64, n: usize) -> bool {
    // Bytes past the text become 0xFF so that only the text can hold a zero.
    zero_byte_in(word | u64::MAX.checked_shl(8 * n as u32).unwrap_or(0))
}

impl<W: Output> Serializer<W> {
    /// A String-like value of at most 8 bytes in one store (see the module doc), with the
    /// value's checks when `CHECK`; `None` for a longer text, which takes
    /// [`Serializer::put_string_general`].
    #[inline(always)]
    pub(super) fn short_string<const CHECK: bool>(
        &mut self,
        ty: VariantType,
        s: &str,
    ) -> Option<Result<()>> {
        if !enabled() {
            return None;
        }
        let word = short_word(s.as_bytes())?;
        hit();
        let n = s.len();
        if short_has_nul(word, n) {
            return Some(Err(self.w.nul_error()));
        }
        Some(self.head_if::<CHECK>(ty, 0).map(|head| {
            #[allow(clippy::cast_possible_truncation)]
            self.w.out.put_short(words(head, n as u32), word, n);
        }))
    }

    /// A struct field's key (a String). Keys sit one level inside their Dictionary, where no
    /// Array's element inference watches (it watches the Dictionary itself), so of
    /// [`Serializer::check_value`] only the depth limit applies, which the struct checked for
    /// all its fields at once (`Compound::deep`); the header is String's id, the same in
    /// every target. A key is a constant: its NUL check and bytes fold at compile time.
    #[inline(always)]
    pub(super) fn key(&mut self, key: &'static str) -> Result<()> {
        debug_assert_ne!(self.infer.depth(), self.w.depth.level() as u64);
        debug_assert!(!self.w.too_deep());
        if enabled()
            && let Some(word) = short_word(key.as_bytes())
        {
            hit();
            let n = key.len();
            if short_has_nul(word, n) {
                return Err(self.w.nul_error());
            }
            #[allow(clippy::cast_possible_truncation)]
            self.w.out.put_key(words(STRING_WORD, n as u32), word, n);
            return Ok(());
        }
        self.put_string::<false>(VariantType::String, key)
    }

    // ---- Math plans ----

    /// A math type's plan for this target (see [`MathPlan`]); `None` for any other marker,
    /// and for real components this target cannot hold (the general path says why).
    #[inline(always)]
    pub(super) fn math_plan(&self, m: Marker) -> Option<MathPlan> {
        if !enabled() {
            return None;
        }
        let comp = match Components::of(m.ty)? {
            // A target without wide reals errors on the general path instead.
            Components::Real32 | Components::Real64 => match (
                self.config.double_precision,
                self.version().has_64bit_reals(),
            ) {
                (false, _) => Components::Real32,
                (true, true) => Components::Real64,
                (true, false) => return None,
            },
            other => other,
        };
        let flags = if comp.width() == 8 { FLAG_64 } else { 0 };
        let numbers = m.ty.components().map_or(0, |(n, _)| n);
        hit();
        Some(MathPlan {
            ty: m.ty,
            word: Header::encode(m.ty, self.version(), flags)?,
            comp,
            bytes: numbers * comp.width(),
        })
    }
}

/// A math type's header word, component kind and payload size for one target.
#[derive(Clone, Copy)]
pub(super) struct MathPlan {
    pub(super) ty: VariantType,
    pub(super) word: u32,
    pub(super) comp: Components,
    pub(super) bytes: u8,
}

/// A tuple struct: a math type's components (the common case, kept small so that it stays
/// in registers and each component is one store) or anything else through [`Compound`].
pub enum TupleStruct<'a, W> {
    /// A math type whose header is written: its components go straight to the output.
    Math(MathComponents<'a, W>),
    /// A marker type's fields or a plain Array.
    Other(Compound<'a, W>),
}

/// The components of a math type being written (see [`TupleStruct`]).
pub struct MathComponents<'a, W> {
    ser: &'a mut Serializer<W>,
    /// Where the components start (just after the header) and must end.
    start: usize,
    end: usize,
    comp: Components,
    ty: VariantType,
}

impl<'a, W: Output> MathComponents<'a, W> {
    /// Starts a math type from its plan (see `Serializer::resolve_name`): writes its header.
    /// The caller has made the value's checks ([`Serializer::check_value`]): this cannot
    /// fail, so the state is built in place rather than moved out of a `Result`.
    #[inline(always)]
    pub(super) fn start(ser: &'a mut Serializer<W>, plan: MathPlan) -> Self {
        ser.w.put_u32(plan.word);
        let start = ser.w.out.pos();
        MathComponents {
            ser,
            start,
            end: start + usize::from(plan.bytes),
            comp: plan.comp,
            ty: plan.ty,
        }
    }

    #[cold]
    fn size_error(&self, start: usize) -> Error {
        let (ty, count) = (self.ty, self.end.saturating_sub(start));
        let written = self.ser.w.out.pos().saturating_sub(start);
        self.ser.w.error(ErrorKind::Message(
            format!("{ty} needs {count} bytes of components, got {written}").into(),
        ))
    }
}

/// Takes one math component: a number of the component's kind is one store; anything else
/// goes to the [`FieldSerializer`] of that kind (conversions and errors).
struct ComponentSink<'a, W> {
    ser: &'a mut Serializer<W>,
    comp: Components,
}

impl<'a, W: Output> ComponentSink<'a, W> {
    #[inline]
    fn field(self) -> FieldSerializer<'a, 'static, W> {
        FieldSerializer {
            ser: self.ser,
            slot: self.comp.slot(),
        }
    }

    #[cold]
    fn reject(self, what: &str) -> Error {
        self.field().unexpected(what)
    }
}

/// Numbers other than the fast kind: through the [`FieldSerializer`].
macro_rules! component_numbers {
    ($($m:ident($t:ty);)*) => {$(
        #[inline]
        fn $m(self, v: $t) -> Result<()> {
            ser::Serializer::$m(self.field(), v)
        }
    )*};
}

/// Everything that is not a number: refused.
macro_rules! component_reject {
    ($($m:ident($($arg:ty),*) $what:literal;)*) => {$(
        fn $m(self $(, _: $arg)*) -> Result<()> {
            Err(self.reject($what))
        }
    )*};
}

impl<W: Output> ser::Serializer for ComponentSink<'_, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if let Components::F32 | Components::Real32 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_f32(self.field(), v)
    }
    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if let Components::Real64 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_f64(self.field(), v)
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<()> {
        if let Components::I32 = self.comp {
            self.ser.w.out.put(&v.to_le_bytes());
            return Ok(());
        }
        ser::Serializer::serialize_i32(self.field(), v)
    }

    component_numbers! {
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
    }

    component_reject! {
        serialize_bool(bool) "a bool";
        serialize_char(char) "a char";
        serialize_str(&str) "a string";
        serialize_bytes(&[u8]) "bytes";
        serialize_none() "none";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "an enum";
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.reject("an enum"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(self.reject("a sequence"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a sequence"))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(self.reject("an enum"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Impossible<(), Error>> {
        Err(self.reject("a map"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>> {
        Err(self.reject("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>> {
        Err(self.reject("an enum"))
    }
}

impl<W: Output> ser::SerializeTupleStruct for TupleStruct<'_, W> {
    type Ok = ();
    type Error = Error;
    // Always inlined: in a math type's loop over its components, each component becomes a
    // tag check and one store.
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            TupleStruct::Math(m) => value.serialize(ComponentSink {
                ser: &mut *m.ser,
                comp: m.comp,
            }),
            TupleStruct::Other(c) => c.element(value),
        }
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        match self {
            TupleStruct::Math(m) if m.ser.w.out.pos() == m.end => Ok(()),
            TupleStruct::Math(m) => Err(m.size_error(m.start)),
            TupleStruct::Other(c) => c.finish(),
        }
    }
}

#[cfg(test)]
mod short_text_tests {
    use super::{short_has_nul, short_word};
    use crate::wire::output::Output;

    /// The one-word text path against the plain definitions: every length up to 8, a NUL
    /// at every position, and bytes with the high bit set (which must not pass for NUL).
    #[test]
    fn short_word_and_nul_check() {
        for n in 0..=8usize {
            for fill in [b'a', 0x80, 0xFF, 0x01] {
                let text: Vec<u8> = (0..n).map(|i| fill.wrapping_add(i as u8 % 3)).collect();
                let word = short_word(&text).unwrap();
                let mut expected = [0u8; 8];
                expected[..n].copy_from_slice(&text);
                assert_eq!(word.to_le_bytes(), expected, "{text:?}");
                assert_eq!(short_has_nul(word, n), text.contains(&0), "{text:?}");
                for at in 0..n {
                    let mut with_nul = text.clone();
                    with_nul[at] = 0;
                    let word = short_word(&with_nul).unwrap();
                    assert!(short_has_nul(word, n), "{with_nul:?}");
                }
            }
        }
        assert_eq!(short_word(b"123456789"), None);
    }

    /// `put_short` writes the plain layout: header, text, zeros to a multiple of 4.
    #[test]
    fn put_short_matches_the_plain_layout() {
        for n in 0..=8usize {
            let text: Vec<u8> = (1..=n as u8).collect();
            let head = [4, 0, 0, 0, n as u8, 0, 0, 0];
            let mut out = vec![0xEE];
            out.put_short(head, short_word(&text).unwrap(), n);
            let mut expected = vec![0xEE];
            expected.extend_from_slice(&head);
            expected.extend_from_slice(&text);
            expected.resize(1 + 8 + n.div_ceil(4) * 4, 0);
            assert_eq!(out, expected, "n = {n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::switch::{HITS, OFF};
    use crate::config::{Config, GodotVersion};
    use crate::wire::VariantType;
    use crate::wire::types::marker_of;
    use serde::ser::{SerializeStruct, SerializeTupleStruct};
    use serde::{Serialize, Serializer};

    /// Every target whose layout differs where the fast paths write: 3.x, 4.0, 4.3, 4.4, and
    /// 4.x with double-precision reals (3.x with them: the error).
    fn configs() -> [Config; 6] {
        [
            Config::godot3(),
            Config::godot3().with_double_precision(true),
            Config::godot4().with_version(GodotVersion::V4_0),
            Config::godot4().with_version(GodotVersion::V4_3),
            Config::godot4(),
            Config::godot4().with_double_precision(true),
        ]
    }

    /// `value`'s bytes (or error) with the fast paths on and with them off, and how many
    /// fast paths each run took.
    fn both<T: Serialize + ?Sized>(value: &T, config: Config) -> [(String, u32); 2] {
        [false, true].map(|off| {
            OFF.with(|o| o.set(off));
            HITS.with(|h| h.set(0));
            let got = match config.to_bytes(value) {
                Ok(bytes) => format!("{bytes:02x?}"),
                Err(e) => format!("error {e:?}"),
            };
            OFF.with(|o| o.set(false));
            (got, HITS.with(core::cell::Cell::get))
        })
    }

    /// For every value and target: the same bytes (or error) on both paths; the fast run
    /// took a fast path (for the values `taken` says should) and the general run none.
    /// Returns how many runs took one.
    fn agrees<T: Serialize>(values: &[T], taken: impl Fn(&T) -> bool) -> usize {
        let mut count = 0;
        for config in configs() {
            for v in values {
                let [(fast, hits), (general, none)] = both(v, config);
                assert_eq!(fast, general, "{config:?}");
                assert_eq!(none, 0);
                if taken(v) && !fast.starts_with("error") {
                    assert!(hits > 0, "{fast}");
                }
                count += usize::from(hits > 0);
            }
        }
        count
    }

    /// Texts around the one-word limit: empty, 1..=8 bytes, 9 and more, multi-byte UTF-8
    /// across the limit, a NUL (refused) at the start, middle and end.
    const TEXTS: [&str; 15] = [
        "",
        "a",
        "hi",
        "abc",
        "abcd",
        "abcde",
        "1234567",
        "12345678",
        "123456789",
        "é",
        "日本語",
        "ü\u{1F600}",
        "\0",
        "ab\0cd",
        "1234567\0",
    ];

    #[test]
    fn short_strings_agree_with_the_general_path() {
        let taken = agrees(&TEXTS, |s| s.len() <= 8);
        // The 11 texts of at most 8 bytes without a NUL, in 6 targets.
        assert!(taken >= 6 * 11, "{taken}");
        // Enum variant names are Strings too.
        #[derive(Serialize)]
        enum E {
            A,
            Abcdefgh,
            Abcdefghi,
        }
        assert!(
            agrees(&[E::A, E::Abcdefgh, E::Abcdefghi], |e| !matches!(
                e,
                E::Abcdefghi
            )) >= 12
        );
    }

    /// A struct with one field named `KEY` (a `u8` value).
    struct Keyed<const KEY: usize>;

    impl<const KEY: usize> Serialize for Keyed<KEY> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Keyed", 1)?;
            st.serialize_field(TEXTS[KEY], &7u8)?;
            st.end()
        }
    }

    #[test]
    fn struct_keys_agree_with_the_general_path() {
        let mut taken = 0;
        macro_rules! each {
            ($($k:literal)*) => {$(
                taken += agrees(&[Keyed::<$k>], |_| TEXTS[$k].len() <= 8);
            )*};
        }
        each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14);
        // The 11 keys of at most 8 bytes without a NUL, in 6 targets.
        assert!(taken >= 6 * 11, "{taken}");
    }

    /// One component as serde hands it over.
    #[derive(Clone, Copy, Debug)]
    enum Num {
        F32(f32),
        F64(f64),
        I32(i32),
        I64(i64),
        Str(&'static str),
    }

    /// A math type by its marker name with the given components (any count, any kinds).
    struct Math(VariantType, Vec<Num>);

    impl Serialize for Math {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct(marker_of(self.0), self.1.len())?;
            for n in &self.1 {
                match *n {
                    Num::F32(v) => t.serialize_field(&v)?,
                    Num::F64(v) => t.serialize_field(&v)?,
                    Num::I32(v) => t.serialize_field(&v)?,
                    Num::I64(v) => t.serialize_field(&v)?,
                    Num::Str(v) => t.serialize_field(v)?,
                }
            }
            t.end()
        }
    }

    #[test]
    fn math_types_agree_with_the_general_path() {
        let mut values = Vec::new();
        for ty in VariantType::ALL {
            let Some((n, _)) = ty.components() else {
                continue;
            };
            let n = usize::from(n);
            let f32s = [1.5, -0.0, f32::NAN, f32::INFINITY, f32::MIN_POSITIVE, -2.25];
            let f64s = [1.5, -0.0, f64::NAN, 1e300, 0.1, -2.25];
            let i32s = [0, -1, i32::MIN, i32::MAX, 7, 42];
            let cycle = |i: usize| i % 6;
            values.push(Math(ty, (0..n).map(|i| Num::F32(f32s[cycle(i)])).collect()));
            values.push(Math(ty, (0..n).map(|i| Num::F64(f64s[cycle(i)])).collect()));
            values.push(Math(ty, (0..n).map(|i| Num::I32(i32s[cycle(i)])).collect()));
            values.push(Math(
                ty,
                (0..n)
                    .map(|i| Num::I64(i64::from(i32s[cycle(i)]) << 1))
                    .collect(),
            ));
            // Too few, too many, a string among the numbers.
            values.push(Math(ty, (1..n).map(|_| Num::F32(1.0)).collect()));
            values.push(Math(ty, (0..=n).map(|_| Num::I32(1)).collect()));
            values.push(Math(
                ty,
                (0..n)
                    .map(|i| if i == 1 { Num::Str("x") } else { Num::F32(1.0) })
                    .collect(),
            ));
        }
        let taken = agrees(&values, |_| true);
        // Every math type whose components the target holds took the plan.
        assert!(taken > 100, "{taken}");
    }
}
