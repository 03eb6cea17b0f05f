//! [`Output`]: where the serializer writes (a `Vec<u8>` or a byte counter), with the
//! word-wise writes of headers, short Strings and padding.

use crate::wire::padding;

mod private {
    pub trait Sealed {}
}

/// Where the [`Serializer`](crate::Serializer) writes: a `Vec<u8>` or a byte counter. Sealed.
pub trait Output: private::Sealed {
    /// Appends bytes.
    #[doc(hidden)]
    fn put(&mut self, bytes: &[u8]);
    /// Bytes written so far.
    #[doc(hidden)]
    fn pos(&self) -> usize;
    /// Makes room for `additional` more bytes (a hint; counters ignore it).
    #[doc(hidden)]
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
    /// Overwrites the little-endian word at `at` (written earlier as a placeholder).
    #[doc(hidden)]
    fn patch_u32(&mut self, at: usize, value: u32);
    /// Inserts a little-endian word at `at`, moving what follows.
    #[doc(hidden)]
    fn insert_u32(&mut self, at: usize, value: u32);
    /// Reorders the map entries written since `entries[0].0`: entry `i` is its key at
    /// `entries[i].0..entries[i].1` and its value up to the next entry's key (the last one
    /// up to the end), and they are sorted by their key bytes. Counters, whose sizes do not
    /// change, ignore it.
    #[doc(hidden)]
    fn sort_entries(&mut self, entries: &[(usize, usize)]) {
        let _ = entries;
    }
    /// Appends two little-endian words (a header and its first payload word, or a length).
    #[doc(hidden)]
    #[inline]
    fn put_words(&mut self, a: u32, b: u32) {
        self.put(&words(a, b));
    }
    /// Appends `head`, then `text`, then zeros up to a multiple of 4 (a Godot String field
    /// with its header, or a PackedByteArray).
    #[doc(hidden)]
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        self.put(&head);
        self.put(text);
        put_padding(self, text.len());
    }
    /// [`Output::put_short`] for a struct key, whose length is a constant once inlined:
    /// the store is cut to size at compile time instead of cut back after it.
    #[doc(hidden)]
    #[inline]
    fn put_key(&mut self, head: [u8; 8], text: u64, n: usize) {
        self.put_short(head, text, n);
    }
    /// [`Output::put_padded`] for a text of `n` ≤ 8 bytes held in `text`'s low bytes, zero
    /// above them.
    #[doc(hidden)]
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        let text = text.to_le_bytes();
        self.put_padded(head, text.get(..n).unwrap_or(&text));
    }
}

/// Appends the zeros that pad `len` bytes to a multiple of 4.
#[inline]
pub(crate) fn put_padding<O: Output + ?Sized>(out: &mut O, len: usize) {
    match padding(len) {
        1 => out.put(&[0]),
        2 => out.put(&[0; 2]),
        3 => out.put(&[0; 3]),
        _ => {}
    }
}

/// Two little-endian words as 8 bytes.
#[inline]
pub(crate) fn words(a: u32, b: u32) -> [u8; 8] {
    (u64::from(a) | u64::from(b) << 32).to_le_bytes()
}

/// Longest text [`Output::put_padded`] writes through a fixed-size block.
pub(crate) const SHORT_TEXT: usize = 24;

/// Copies `src` (at most [`SHORT_TEXT`] bytes) to the start of `dst` with fixed-size,
/// possibly overlapping word copies instead of a variable-length `memcpy`.
#[inline]
pub(crate) fn copy_short(dst: &mut [u8; SHORT_TEXT], src: &[u8]) {
    let n = src.len();
    if let (Some(first), Some(last)) = (src.first_chunk::<8>(), src.last_chunk::<8>()) {
        if let Some(d) = dst.get_mut(..8) {
            d.copy_from_slice(first);
        }
        if let (Some(mid), Some(d)) = (src.get(8..16), dst.get_mut(8..16)) {
            d.copy_from_slice(mid);
        }
        if let Some(d) = n.checked_sub(8).and_then(|at| dst.get_mut(at..n)) {
            d.copy_from_slice(last);
        }
    } else if let (Some(first), Some(last)) = (src.first_chunk::<4>(), src.last_chunk::<4>()) {
        if let Some(d) = dst.get_mut(..4) {
            d.copy_from_slice(first);
        }
        if let Some(d) = n.checked_sub(4).and_then(|at| dst.get_mut(at..n)) {
            d.copy_from_slice(last);
        }
    } else {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
    }
}

impl private::Sealed for Vec<u8> {}
impl Output for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }
    #[inline]
    fn pos(&self) -> usize {
        self.len()
    }
    #[inline]
    fn patch_u32(&mut self, at: usize, value: u32) {
        if let Some(word) = self.get_mut(at..at + 4) {
            word.copy_from_slice(&value.to_le_bytes());
        }
    }
    fn insert_u32(&mut self, at: usize, value: u32) {
        let at = at.min(self.len());
        self.splice(at..at, value.to_le_bytes());
    }
    fn sort_entries(&mut self, entries: &[(usize, usize)]) {
        let end = self.len();
        let Some(&(start, _)) = entries.first() else {
            return;
        };
        // Entry i spans entries[i].0 up to entries[i + 1].0 (or the end).
        let span = |i: usize| {
            let (from, key_end) = entries.get(i).copied().unwrap_or((end, end));
            let to = entries.get(i + 1).map_or(end, |e| e.0);
            (from, key_end, to)
        };
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by(|&a, &b| {
            let ((a0, a1, _), (b0, b1, _)) = (span(a), span(b));
            self.get(a0..a1).cmp(&self.get(b0..b1))
        });
        let mut sorted = Vec::with_capacity(end - start);
        for i in order {
            let (from, _, to) = span(i);
            sorted.extend_from_slice(self.get(from..to).unwrap_or_default());
        }
        if let Some(region) = self.get_mut(start..) {
            region.copy_from_slice(&sorted);
        }
    }
    #[inline(always)]
    fn put_key(&mut self, head: [u8; 8], text: u64, n: usize) {
        let block = (u128::from(u64::from_le_bytes(head)) | u128::from(text) << 64).to_le_bytes();
        match n.next_multiple_of(4) {
            0 => self.extend_from_slice(block.get(..8).unwrap_or_default()),
            4 => self.extend_from_slice(block.get(..12).unwrap_or_default()),
            _ => self.extend_from_slice(&block),
        }
    }
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        // Header and text as one 16-byte store, cut back to the padded length (the bytes
        // past the text are already zero).
        let start = self.len();
        self.extend_from_slice(
            &(u128::from(u64::from_le_bytes(head)) | u128::from(text) << 64).to_le_bytes(),
        );
        self.truncate(start + 8 + n.next_multiple_of(4));
    }
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        let n = text.len();
        if n <= SHORT_TEXT {
            // One fixed-size block of zeros, the header and text stored into it in place
            // (not assembled on the stack and copied: reloading small stores as one wide
            // load stalls), then cut back to the padded length.
            let start = self.len();
            self.extend_from_slice(&[0; 8 + SHORT_TEXT]);
            if let Some(block) = self.get_mut(start..) {
                let (h, t) = block.split_at_mut(8);
                h.copy_from_slice(&head);
                if let Ok(t) = <&mut [u8; SHORT_TEXT]>::try_from(t) {
                    copy_short(t, text);
                }
            }
            self.truncate(start + 8 + n + padding(n));
        } else {
            self.reserve(8 + n + 3);
            self.extend_from_slice(&head);
            self.extend_from_slice(text);
            put_padding(self, n);
        }
    }
}

impl<O: Output + ?Sized> private::Sealed for &mut O {}
impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        (**self).put(bytes);
    }
    #[inline]
    fn pos(&self) -> usize {
        (**self).pos()
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional);
    }
    fn patch_u32(&mut self, at: usize, value: u32) {
        (**self).patch_u32(at, value);
    }
    fn insert_u32(&mut self, at: usize, value: u32) {
        (**self).insert_u32(at, value);
    }
    fn sort_entries(&mut self, entries: &[(usize, usize)]) {
        (**self).sort_entries(entries);
    }
    #[inline]
    fn put_words(&mut self, a: u32, b: u32) {
        (**self).put_words(a, b);
    }
    #[inline]
    fn put_padded(&mut self, head: [u8; 8], text: &[u8]) {
        (**self).put_padded(head, text);
    }
    #[inline]
    fn put_short(&mut self, head: [u8; 8], text: u64, n: usize) {
        (**self).put_short(head, text, n);
    }
    #[inline(always)]
    fn put_key(&mut self, head: [u8; 8], text: u64, n: usize) {
        (**self).put_key(head, text, n);
    }
}

/// Counts bytes instead of writing them (for [`serialized_size`](crate::serialized_size)).
#[derive(Debug, Default)]
pub struct SizeCounter(pub usize);

impl private::Sealed for SizeCounter {}
impl Output for SizeCounter {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
    #[inline]
    fn pos(&self) -> usize {
        self.0
    }
    fn patch_u32(&mut self, _at: usize, _value: u32) {}
    fn insert_u32(&mut self, _at: usize, _value: u32) {
        self.0 += 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::has_nul;

    #[test]
    fn put_padded_matches_the_plain_layout_for_every_short_length() {
        let text: Vec<u8> = (1..=40).collect();
        for n in 0..=40 {
            let t = &text[..n];
            let head = words(4, u32::try_from(n).unwrap());
            let mut fast = vec![9u8; 3];
            fast.put_padded(head, t);
            let mut plain = vec![9u8; 3];
            plain.extend_from_slice(&head);
            plain.extend_from_slice(t);
            plain.resize(3 + 8 + n.div_ceil(4) * 4, 0);
            assert_eq!(fast, plain, "length {n}");
            let mut counter = SizeCounter::default();
            counter.put_padded(head, t);
            assert_eq!(counter.0, plain.len() - 3);
        }
    }

    #[test]
    fn has_nul_finds_a_nul_at_every_position() {
        for n in 0..=40 {
            let clean = vec![0xffu8; n];
            assert!(!has_nul(&clean), "length {n}");
            let ascii = vec![b'a'; n];
            assert!(!has_nul(&ascii), "length {n}");
            // Bytes just above zero and 0x80 must not look like NUL.
            let edgy: Vec<u8> = (0..n).map(|i| [1, 0x80, 0x81, 0x7f][i % 4]).collect();
            assert!(!has_nul(&edgy), "length {n}");
            for at in 0..n {
                let mut with = ascii.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {n}, NUL at {at}");
                let mut with = edgy.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {n}, NUL at {at}");
            }
        }
    }
}
