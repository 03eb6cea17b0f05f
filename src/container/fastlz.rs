//! FastLZ, the default compression of `FileAccess.open_compressed` and
//! `PackedByteArray.compress()` (Godot's `thirdparty/misc/fastlz.c`, 0.1 in Godot 3, 0.5 in
//! Godot 4; both write and read the same streams).
//!
//! No maintained pure-Rust FastLZ crate exists (the `fastlz` crate binds the C library), so
//! this is a small one of our own: a decoder for both levels (the level is the top 3 bits of
//! the first byte) and a level-1 encoder, which both engines decode. Every read is bounds
//! checked, the output never grows past the caller's limit, and the fuzz target
//! `container_compressed` exercises it.
//!
//! Stream layout (level 1): a sequence of instructions, each starting with a control byte.
//! `000lllll`: a literal run of `lllll + 1` bytes follows. `nnnooooo`, `nnn` 1-6: a match of
//! `nnn + 2` bytes at distance `ooooo << 8 | next byte` + 1; `nnn` = 7: the next byte adds to
//! the length (9 + byte), then the distance byte. Level 2 lets the length byte repeat while it
//! is 255 and reaches distances up to 65535 + 8191 with two more bytes.

use crate::error::{ErrorKind, Result};

/// Longest literal run of one control byte.
const MAX_LITERAL: usize = 32;
/// Longest match of a level-1 instruction.
const MAX_LEN: usize = 264;
/// Farthest match of a level-1 instruction.
const MAX_DISTANCE: usize = 8192;
/// The far-distance threshold of level 2.
const MAX_L2_DISTANCE: usize = 8191;
/// Bits of the encoder's hash table.
const HASH_LOG: u32 = 13;

fn corrupt(what: &str) -> crate::Error {
    ErrorKind::InvalidContainer(format!("corrupt FastLZ stream: {what}").into()).into()
}

/// Decompresses a FastLZ stream (level 1 or 2), producing at most `max` bytes.
///
/// # Errors
///
/// As [`decompress_into`].
#[cfg(test)]
pub(crate) fn decompress(input: &[u8], max: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    decompress_into(input, max, &mut out)?;
    Ok(out)
}

/// Decompresses a FastLZ stream (level 1 or 2) onto the end of `out`, appending at most `max`
/// bytes; matches reach back into what this stream wrote only.
///
/// The output is written into room made in `out` beforehand: four times the input (at most
/// `max`), doubled as the stream needs more, never past `max`, plus [`WILD`] bytes of slack,
/// cut off at the end. The slack lets short literal runs and matches be copied as one
/// fixed-size block of [`WILD`] bytes (whose tail the next instruction overwrites), as the
/// engine's C decoder does with its own unaligned copies, instead of a copy sized at run time
/// or a loop of single bytes. A match that overlaps its own output (distance below its
/// length, a repeated pattern) is copied in rounds that double, each a whole number of
/// periods.
///
/// # Errors
///
/// [`ErrorKind::InvalidContainer`] for a stream that reads past its end or refers back
/// before the start of its output; [`ErrorKind::DecompressedTooLarge`] when the output would
/// exceed `max`. `out` may hold part of the output after an error.
pub(crate) fn decompress_into(input: &[u8], max: usize, out: &mut Vec<u8>) -> Result<()> {
    let Some(&first) = input.first() else {
        return Ok(());
    };
    let level2 = match first >> 5 {
        0 => false,
        1 => true,
        n => return Err(corrupt(&format!("unknown level {}", n + 1))),
    };
    let base = out.len();
    let mut room = max.min(input.len().saturating_mul(4));
    out.resize(base + room + WILD, 0);
    let mut op = 0usize;
    let result = run(input, level2, max, out, base, &mut room, &mut op);
    out.truncate(base + op);
    result
}

/// Bytes copied at once by the fixed-size copies, and the slack kept after the room for them.
const WILD: usize = 32;

/// The decoding loop of [`decompress_into`]: `op` bytes written at `out[base..]`, room for
/// `room` (plus the slack).
#[allow(clippy::too_many_arguments)]
fn run(
    input: &[u8],
    level2: bool,
    max: usize,
    out: &mut Vec<u8>,
    base: usize,
    room: &mut usize,
    op: &mut usize,
) -> Result<()> {
    let mut ip = 1usize;
    let mut ctrl = usize::from(input.first().copied().unwrap_or(0) & 31);
    let byte = |ip: &mut usize| -> Result<usize> {
        let b = input
            .get(*ip)
            .copied()
            .ok_or_else(|| corrupt("ends inside a match"))?;
        *ip += 1;
        Ok(usize::from(b))
    };
    loop {
        if ctrl >= 32 {
            let mut len = (ctrl >> 5) - 1;
            let ofs = (ctrl & 31) << 8;
            if len == 6 {
                if level2 {
                    loop {
                        let code = byte(&mut ip)?;
                        len += code;
                        if code != 255 {
                            break;
                        }
                    }
                } else {
                    len += byte(&mut ip)?;
                }
            }
            let code = byte(&mut ip)?;
            len += 3;
            let mut distance = ofs + code + 1;
            if level2 && code == 255 && ofs == 31 << 8 {
                let far = (byte(&mut ip)? << 8) + byte(&mut ip)?;
                distance = far + MAX_L2_DISTANCE + 1;
            }
            if distance > *op {
                return Err(corrupt("match refers before the start of the output"));
            }
            make_room(out, base, room, *op, len, max)?;
            let at = base + *op;
            copy_match(out, at, distance, len)?;
            *op += len;
        } else {
            let len = ctrl + 1;
            make_room(out, base, room, *op, len, max)?;
            let at = base + *op;
            // A whole block of WILD bytes when the input has them (the room's slack takes
            // the excess): one fixed-size copy. Else exactly the run.
            let wild = input.get(ip..ip + WILD).zip(out.get_mut(at..at + WILD));
            if let Some((src, dst)) = wild {
                let src: &[u8; WILD] = src.try_into().map_err(|_| corrupt("literal run"))?;
                let dst: &mut [u8; WILD] = dst.try_into().map_err(|_| corrupt("literal run"))?;
                *dst = *src;
            } else {
                let run = input
                    .get(ip..ip + len)
                    .ok_or_else(|| corrupt("ends inside a literal run"))?;
                out.get_mut(at..at + len)
                    .ok_or_else(|| corrupt("literal run"))?
                    .copy_from_slice(run);
            }
            *op += len;
            ip += len;
        }
        match input.get(ip) {
            Some(&c) => {
                ctrl = usize::from(c);
                ip += 1;
            }
            None => return Ok(()),
        }
    }
}

/// Makes room for `len` more bytes after `op` (of at most `max`), growing the room by
/// doubling (plus the slack).
fn make_room(
    out: &mut Vec<u8>,
    base: usize,
    room: &mut usize,
    op: usize,
    len: usize,
    max: usize,
) -> Result<()> {
    let need = op + len;
    if need > *room {
        grow_check(op, len, max)?;
        *room = need.max(room.saturating_mul(2)).min(max);
        out.resize(base + *room + WILD, 0);
    }
    Ok(())
}

/// Writes at `at` the `len` bytes found `distance` bytes back (`1 <= distance`, `at -
/// distance` within the stream's output; room and slack made): an overlapping match repeats
/// the last `distance` bytes, as the C loop copying byte by byte does.
fn copy_match(out: &mut [u8], at: usize, distance: usize, len: usize) -> Result<()> {
    let src = at - distance;
    if distance >= WILD && len <= WILD {
        // Source and destination do not overlap within WILD bytes: one fixed-size copy.
        let (before, after) = out.split_at_mut(at);
        let from: &[u8; WILD] = before
            .get(src..src + WILD)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| corrupt("match"))?;
        let to: &mut [u8; WILD] = after
            .get_mut(..WILD)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| corrupt("match"))?;
        *to = *from;
        Ok(())
    } else if distance >= len {
        copy_within(out, src, len, at)
    } else if distance == 1 {
        let b = out.get(src).copied().unwrap_or(0);
        let dst = out.get_mut(at..at + len).ok_or_else(|| corrupt("match"))?;
        dst.fill(b);
        Ok(())
    } else {
        // Each round copies every byte written since `src`: a whole number of periods.
        let mut done = 0;
        while done < len {
            let n = (distance + done).min(len - done);
            copy_within(out, src, n, at + done)?;
            done += n;
        }
        Ok(())
    }
}

/// `out.copy_within(src..src + len, dst)`, an error instead of a panic out of bounds (which
/// the callers' room rules out).
fn copy_within(out: &mut [u8], src: usize, len: usize, dst: usize) -> Result<()> {
    if src.max(dst) + len > out.len() {
        return Err(corrupt("match"));
    }
    out.copy_within(src..src + len, dst);
    Ok(())
}

/// Fails when `len` more bytes after `have` exceed `max`.
fn grow_check(have: usize, len: usize, max: usize) -> Result<()> {
    if have + len > max {
        return Err(ErrorKind::DecompressedTooLarge {
            len: (have + len) as u64,
            max,
        }
        .into());
    }
    Ok(())
}

/// Compresses `input` as a level-1 FastLZ stream (greedy matches through a hash of the next
/// three bytes). Empty input gives an empty stream.
// Every index is bounded by the loop conditions (`ip + 3 <= len`, `candidate < ip`,
// `ip + len < len`) and the hash is masked to the table size.
#[allow(clippy::indexing_slicing)]
pub(crate) fn compress(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 16 + 8);
    let mut table = vec![0usize; 1 << HASH_LOG];
    let mut literal_start = 0usize;
    // The first instruction must be a literal run (its top bits carry the level).
    let mut ip = 1usize;
    while ip + 3 <= input.len() {
        let key = &input[ip..ip + 3];
        let h = hash(key);
        let candidate = table[h];
        table[h] = ip;
        let distance = ip - candidate;
        if candidate < ip
            && distance <= MAX_DISTANCE
            && input[candidate..candidate + 3] == *key
            && ip > literal_start
        {
            let mut len = 3;
            while len < MAX_LEN
                && ip + len < input.len()
                && input[candidate + len] == input[ip + len]
            {
                len += 1;
            }
            emit_literals(&mut out, &input[literal_start..ip]);
            emit_match(&mut out, len, distance);
            ip += len;
            literal_start = ip;
        } else {
            ip += 1;
        }
    }
    emit_literals(&mut out, &input[literal_start..]);
    out
}

#[allow(clippy::indexing_slicing)] // callers pass exactly three bytes
fn hash(key: &[u8]) -> usize {
    let v = u32::from(key[0]) | u32::from(key[1]) << 8 | u32::from(key[2]) << 16;
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
}

fn emit_literals(out: &mut Vec<u8>, run: &[u8]) {
    for chunk in run.chunks(MAX_LITERAL) {
        out.push((chunk.len() - 1) as u8);
        out.extend_from_slice(chunk);
    }
}

fn emit_match(out: &mut Vec<u8>, len: usize, distance: usize) {
    let m = len - 2;
    let d = distance - 1;
    if m < 7 {
        out.push(((m << 5) | (d >> 8)) as u8);
    } else {
        out.push(((7 << 5) | (d >> 8)) as u8);
        out.push((m - 7) as u8);
    }
    out.push((d & 255) as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_engines_stream() {
        // `"hello hello hello hello".to_utf8_buffer().compress(0)` in Godot 4.6 and 3.2.3:
        // 05 = 6 literals "hello ", e0 05 05 = match of 9 + 5 = 14 bytes at distance 6,
        // 02 = 3 literals "llo".
        let stream = [
            0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0xe0, 0x05, 0x05, 0x02, 0x6c, 0x6c, 0x6f,
        ];
        assert_eq!(
            decompress(&stream, 100).unwrap(),
            b"hello hello hello hello"
        );
        let err = decompress(&stream, 10).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::DecompressedTooLarge { max: 10, .. }
        ));
    }

    #[test]
    fn level2_long_match_and_far_distance() {
        // Level 2 (first byte 0x20 | 0): literal "a", then a match of length
        // 3 + 6 + 255 + 4 = 268 at distance 1 (ctrl 0xe0, length bytes ff 04, distance 00).
        let stream = [0x20, b'a', 0xe0, 0xff, 0x04, 0x00];
        let out = decompress(&stream, 1000).unwrap();
        assert_eq!(out.len(), 269);
        assert!(out.iter().all(|&b| b == b'a'));
    }

    #[test]
    fn rejects_bad_references() {
        assert!(decompress(&[0x00, b'a', 0x20, 0x05], 100).is_err()); // distance 6 > 1 byte
        assert!(decompress(&[0x03, b'a'], 100).is_err()); // run of 4, 1 present
        assert!(decompress(&[0x60], 100).is_err()); // level 4
    }

    #[test]
    fn round_trips() {
        let mut data = Vec::new();
        for i in 0..20_000u32 {
            data.extend_from_slice(&(i % 251).to_le_bytes()[..1 + (i % 3) as usize]);
        }
        data.extend(std::iter::repeat_n(7u8, 5000));
        for input in [&b""[..], b"x", b"abcabcabcabcabc", &data] {
            let c = compress(input);
            assert_eq!(decompress(&c, input.len()).unwrap(), input);
        }
        assert!(compress(&data).len() < data.len() / 2);
    }
}
