//! The serde [`Deserializer`]'s fast paths, reading side: the common scalars (an int, a
//! 32-bit float, a String) matched by their exact header word in the input slice and read
//! from it without the general path's header decoding. Each leaves anything it does not take
//! (and every error) to the general path, which reads the same bytes; the tests below check
//! that both give the same value for the same bytes.
//!
//! What they earn, in callgrind instructions of the ratio bench (`GODOT_SERDE_BENCH_PROFILE=1`,
//! 20 calls; one build with `next_word` returning `None`, i.e. all three off, against the
//! same tree with them on): `game_state_decode_owned` 691.9 M off / 620.2 M on (11.6 % more
//! without), `game_state_decode_borrowed` 559.6 M / 493.3 M (13.4 %), `message_decode_owned`
//! 310.9 k / 264.8 k (17.4 %); the `Variant` reader does not use them (947.7 M either way).
//! They stay.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::wire::shared_word;

/// Header words the fast paths match exactly (see [`Deserializer::next_word`]).
const INT_WORD: u32 = shared_word(VariantType::Int);
const FLOAT_WORD: u32 = shared_word(VariantType::Float);
pub(super) const STRING_WORD: u32 = shared_word(VariantType::String);
const _: () = assert!(
    INT_WORD != u32::MAX && FLOAT_WORD != u32::MAX && STRING_WORD != u32::MAX,
    "int, float and String have the same id in every version"
);

impl<'de, R: Read<'de>> Deserializer<R> {
    /// The next value's header word and the input after it, for the fast paths of the
    /// common scalars: each accepts a few exact words, reads its payload from the slice and
    /// leaves anything else (and any error) to the general path, which reads the same bytes.
    /// Only when the input is a slice, no header was read ahead, no key's text is to be
    /// checked and the depth allows one more value, so that the general path's checks hold.
    #[inline(always)]
    pub(super) fn next_word(&self) -> Option<(u32, &'de [u8])> {
        if self.peeked.is_some() || self.guard_key.is_some() || !self.rd.depth.allows() {
            return None;
        }
        let (word, rest) = self.rd.unread()?.split_first_chunk::<4>()?;
        Some((u32::from_le_bytes(*word), rest))
    }

    /// An int read on the fast path (see [`next_word`](Self::next_word)), with the bytes it took.
    #[inline(always)]
    pub(super) fn fast_int(&mut self) -> Option<(i64, usize)> {
        let (word, rest) = self.next_word()?;
        let (v, rest, used) = if word == INT_WORD {
            let (b, rest) = rest.split_first_chunk::<4>()?;
            (i64::from(i32::from_le_bytes(*b)), rest, 8)
        } else if word == INT_WORD | FLAG_64 {
            let (b, rest) = rest.split_first_chunk::<8>()?;
            (i64::from_le_bytes(*b), rest, 12)
        } else {
            return None;
        };
        self.rd.read_to(rest);
        Some((v, used))
    }

    /// A 32-bit float read on the fast path (see [`next_word`](Self::next_word)).
    #[inline(always)]
    pub(super) fn fast_f32(&mut self) -> Option<f32> {
        let (word, rest) = self.next_word()?;
        if word != FLOAT_WORD {
            return None;
        }
        let (b, rest) = rest.split_first_chunk::<4>()?;
        self.rd.read_to(rest);
        Some(f32::from_le_bytes(*b))
    }

    /// A String read on the fast path (see [`next_word`](Self::next_word)), with the bytes it took;
    /// `None` for anything `read_str` would refuse, which then says why.
    #[inline(always)]
    pub(super) fn fast_str(&mut self) -> Option<(&'de str, usize)> {
        let (word, rest) = self.next_word()?;
        if word != STRING_WORD {
            return None;
        }
        let (len, rest) = rest.split_first_chunk::<4>()?;
        let len = string::field_len(i32::from_le_bytes(*len))?;
        let total = string::padded_len(len);
        let (bytes, rest) = rest.split_at_checked(total)?;
        let s = string::text(bytes, len).ok()?;
        self.rd.read_to(rest);
        Some((s, 8 + total))
    }

    /// `e`, an error of a value read on the fast path that took `used` bytes, placed at its header.
    #[cold]
    pub(super) fn fast_error(&self, e: Error, used: usize) -> Error {
        e.or_at(self.rd.offset() - used)
    }

    /// An int-typed `deserialize_*`: an int on the fast path, anything else as a scalar.
    #[inline(always)]
    pub(super) fn int_scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.fast_int() {
            Some((v, used)) => visitor.visit_i64(v).map_err(|e| self.fast_error(e, used)),
            None => self.scalar(visitor),
        }
    }

    /// A string-typed `deserialize_*`: a String on the fast path, anything else as a scalar.
    #[inline(always)]
    pub(super) fn str_scalar<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.fast_str() {
            Some((s, used)) => visitor
                .visit_borrowed_str(s)
                .map_err(|e| self.fast_error(e, used)),
            None => self.scalar(visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a visitor was given, to compare the fast and the general path.
    #[derive(Debug, PartialEq)]
    enum Got {
        Int(i64),
        /// The bits, so that NaNs compare.
        Float(u64),
        Str(String),
        Other,
    }

    struct Record;

    impl Visitor<'_> for Record {
        type Value = Got;
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("anything")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<Got, E> {
            Ok(Got::Int(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<Got, E> {
            Ok(i64::try_from(v).map_or(Got::Other, Got::Int))
        }
        fn visit_f32<E: de::Error>(self, v: f32) -> core::result::Result<Got, E> {
            Ok(Got::Float(f64::from(v).to_bits()))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<Got, E> {
            Ok(Got::Float(v.to_bits()))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<Got, E> {
            Ok(Got::Str(v.to_owned()))
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> core::result::Result<Got, E> {
            Ok(Got::Other)
        }
        fn visit_unit<E: de::Error>(self) -> core::result::Result<Got, E> {
            Ok(Got::Other)
        }
    }

    /// Inputs around the fast paths' words: int, 64-bit int, float, 64-bit float, String and
    /// StringName headers (ids shared by 3.x and 4.x), then payloads that are whole, cut
    /// short, or odd (a BOM, a NUL, bad UTF-8, a negative length), in every prefix.
    fn inputs() -> Vec<Vec<u8>> {
        let words: [u32; 6] = [2, 2 | FLAG_64, 3, 3 | FLAG_64, 4, 0x15];
        let payloads: [&[u8]; 9] = [
            &[0x2A, 0, 0, 0],
            &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
            &[0, 0, 0x80, 0x3F, 0, 0, 0, 0],
            &[2, 0, 0, 0, b'h', b'i', 0, 0],
            &[5, 0, 0, 0, 0xEF, 0xBB, 0xBF, b'h', b'i', 0, 0, 0],
            &[3, 0, 0, 0, b'a', 0, b'b', 0],
            &[1, 0, 0, 0, 0xFF, 0, 0, 0],
            &[0xFF, 0xFF, 0xFF, 0xFF],
            &[6, 0, 0, 0, b'h', b'i', 0, 0],
        ];
        let mut out = Vec::new();
        for w in words {
            for p in payloads {
                let mut bytes = w.to_le_bytes().to_vec();
                bytes.extend_from_slice(p);
                for cut in 0..=bytes.len() {
                    out.push(bytes.get(..cut).unwrap_or_default().to_vec());
                }
            }
        }
        out
    }

    /// For every input: when `fast` takes it, the general path `general` (run on a fresh
    /// Deserializer) gives the same value and reads the same bytes.
    fn agrees(
        fast: impl Fn(&mut Deserializer<SliceRead<'_>>) -> Option<Got>,
        general: impl Fn(&mut Deserializer<SliceRead<'_>>) -> Result<Got>,
    ) -> usize {
        let mut taken = 0;
        for config in [Config::godot3(), Config::godot4()] {
            for bytes in inputs() {
                let mut a = Deserializer::from_slice(&bytes, config);
                let Some(v) = fast(&mut a) else { continue };
                taken += 1;
                let mut b = Deserializer::from_slice(&bytes, config);
                let w = general(&mut b);
                assert_eq!(w.ok().as_ref(), Some(&v), "{bytes:02x?}");
                assert_eq!(a.offset(), b.offset(), "{bytes:02x?}");
            }
        }
        taken
    }

    #[test]
    fn fast_int_agrees_with_the_general_path() {
        let taken = agrees(
            |de| {
                de.fast_int().map(|(v, used)| {
                    assert_eq!(used, de.offset());
                    Got::Int(v)
                })
            },
            |de| de.scalar(Record),
        );
        // The whole int and 64-bit int inputs (one value each, in both engines).
        assert!(taken >= 8, "{taken}");
    }

    #[test]
    fn fast_f32_agrees_with_the_general_path() {
        let taken = agrees(
            |de| de.fast_f32().map(|v| Got::Float(f64::from(v).to_bits())),
            |de| de.f32_value(Record),
        );
        assert!(taken >= 4, "{taken}");
    }

    #[test]
    fn fast_str_agrees_with_the_general_path() {
        let taken = agrees(
            |de| {
                de.fast_str().map(|(s, used)| {
                    assert_eq!(used, de.offset());
                    Got::Str(s.to_owned())
                })
            },
            |de| de.scalar(Record),
        );
        // "hi", the BOM (dropped), the NUL (cut): whole Strings in both engines.
        assert!(taken >= 6, "{taken}");
    }
}
