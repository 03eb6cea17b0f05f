//! The Godot String field (spec §1 "GString", §4.5, §6.2-6.3): a `u32` byte length, the
//! UTF-8 text, zero padding to a multiple of four. Used for String and StringName values,
//! NodePath names, class, property and signal names and typed-container names; a
//! PackedStringArray element counts and carries one NUL more (§4.19). "§N": a section of
//! `docs/wire-format.md`.

/// Zero bytes needed after `len` bytes to reach a multiple of four.
#[inline]
pub(crate) const fn padding(len: usize) -> usize {
    (4 - (len % 4)) % 4
}

/// A field's length as read (`i32`): `None` when negative, which Godot rejects.
#[inline]
pub(crate) fn field_len(raw: i32) -> Option<usize> {
    usize::try_from(raw).ok()
}

/// The bytes a field of `len` text bytes takes after its length word, padding included
/// (which must be present when decoding, §6.2).
#[inline]
pub(crate) const fn padded_len(len: usize) -> usize {
    len + padding(len)
}

/// The length word for `len` bytes: `None` beyond `i32::MAX`, which Godot cannot read.
#[inline]
pub(crate) fn len_word(len: usize) -> Option<u32> {
    i32::try_from(len).ok().map(i32::cast_unsigned)
}

/// A PackedStringArray element's length word counts a NUL after the text (§4.19).
#[inline]
pub(crate) const fn packed_element_len(text_len: usize) -> usize {
    text_len + 1
}

/// The text of a field whose first `len` bytes are in `bytes`, as Godot decodes it: cut at
/// the first NUL, well-formed UTF-8 (4.x is strict; 3.x leniency is not reproduced), one
/// leading BOM removed.
#[inline]
pub(crate) fn text(bytes: &[u8], len: usize) -> Result<&str, core::str::Utf8Error> {
    let mut bytes = bytes.get(..len).unwrap_or(bytes);
    if has_nul(bytes) {
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        bytes = bytes.get(..end).unwrap_or_default();
    }
    let s = core::str::from_utf8(bytes)?;
    Ok(s.strip_prefix('\u{FEFF}').unwrap_or(s))
}

/// Whether any of the 8 bytes of `w` is zero.
#[inline]
pub(crate) fn zero_byte_in(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    w.wrapping_sub(LO) & !w & HI != 0
}

/// Whether `bytes` contain a NUL, checked a word at a time. The encoder refuses such text:
/// Godot would read it cut at the NUL.
#[inline]
pub(crate) fn has_nul(bytes: &[u8]) -> bool {
    use zero_byte_in as zero_in;
    if let (Some(first), Some(last)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        // Up to two words (most names and keys): the first and the last overlap.
        if bytes.len() <= 16 {
            return zero_in(u64::from_le_bytes(*first)) || zero_in(u64::from_le_bytes(*last));
        }
        let mut chunks = bytes.chunks_exact(8);
        let inner = chunks.by_ref().any(|c| {
            let mut w = [0; 8];
            w.copy_from_slice(c);
            zero_in(u64::from_le_bytes(w))
        });
        // The tail overlaps the last whole word.
        inner || zero_in(u64::from_le_bytes(*last))
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        zero_in(w)
    } else {
        bytes.contains(&0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_to_four() {
        assert_eq!([0, 1, 2, 3, 4, 5].map(padding), [0, 3, 2, 1, 0, 3]);
    }

    #[test]
    fn field_layouts_from_the_spec() {
        // §8.1: "" → `00000000`, no padding; "hi" → `02000000 68690000`;
        // "Godot" → `05000000 476f646f 74000000`; "héllo" counts 6 UTF-8 bytes.
        assert_eq!(padded_len(0), 0);
        assert_eq!(padded_len("hi".len()), 4);
        assert_eq!(padded_len("Godot".len()), 8);
        assert_eq!(len_word("héllo".len()), Some(6));
        // §4.19: "ab" → `03000000 61620000`, "cde" → `04000000 63646500`.
        assert_eq!(packed_element_len(2), 3);
        assert_eq!(padded_len(packed_element_len(2)), 4);
        assert_eq!(packed_element_len(3), 4);
        assert_eq!(padded_len(packed_element_len(3)), 4);
        // §6.2: a negative length is an error; §10: at most i32::MAX.
        assert_eq!(field_len(-1), None);
        assert_eq!(field_len(5), Some(5));
        assert_eq!(len_word(i32::MAX as usize), Some(0x7FFF_FFFF));
        assert_eq!(len_word(i32::MAX as usize + 1), None);
    }

    #[test]
    fn text_rules_from_the_spec() {
        // §4.5: decoding stops at the first NUL, one leading BOM is stripped.
        assert_eq!(text(b"ab\0cd\0\0\0", 5), Ok("ab"));
        assert_eq!(text(b"\xef\xbb\xbfhi\0", 5), Ok("hi"));
        assert_eq!(text(b"\xef\xbb\xbf\xef\xbb\xbfhi", 8), Ok("\u{FEFF}hi"));
        // Padding after `len` is not text.
        assert_eq!(text(b"hi\0\0", 2), Ok("hi"));
        // §6.3: 4.x accepts exactly well-formed UTF-8: overlongs and surrogates fail.
        assert!(text(b"\xc0\xaf", 2).is_err());
        assert!(text(b"\xed\xa0\x80", 3).is_err());
        assert_eq!(text("héllo".as_bytes(), 6), Ok("héllo"));
    }

    #[test]
    fn nul_detection() {
        for n in 0..40 {
            let clean = vec![b'a'; n];
            assert!(!has_nul(&clean), "length {n}");
            for at in 0..n {
                let mut with = clean.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {n}, NUL at {at}");
            }
        }
    }
}
