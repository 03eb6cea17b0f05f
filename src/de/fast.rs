//! The serde [`Deserializer`]'s fast paths, reading side: the common scalars (an int, a
//! 32-bit float, a String) matched by their exact header word in the input slice and read
//! from it without the general path's header decoding. Each leaves anything it does not take
//! (and every error) to the general path, which reads the same bytes; the tests below check
//! that both give the same value for the same bytes.
//!
//! What each earns (callgrind instructions of the ratio bench) is in `BENCHMARKS.md`.

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
