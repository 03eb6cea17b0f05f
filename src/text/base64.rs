//! Standard base64 with `=` padding (RFC 4648 §4), as the engine's `CryptoCore::b64_encode_str`
//! writes it and `CryptoCore::b64_decode` reads it: the text form's `PackedByteArray("…")`,
//! which the resource saver writes in `format=4` files and every Godot 4 parser reads.

/// The 64 digits, in value order.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The value of one base64 digit.
fn digit_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => u32::from(c - b'A'),
        b'a'..=b'z' => u32::from(c - b'a') + 26,
        b'0'..=b'9' => u32::from(c - b'0') + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}

/// Appends the base64 text of `bytes` to `out`: four digits per three bytes, the last group
/// padded with `=` (no line breaks).
pub(crate) fn encode_into(out: &mut String, bytes: &[u8]) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        // A chunk of k bytes gives k + 1 digits, then `=` up to four.
        for i in 0..4 {
            if i <= chunk.len() {
                let index = (n >> (18 - 6 * i)) & 63;
                let c = ALPHABET.get(index as usize).copied().unwrap_or(b'=');
                out.push(char::from(c));
            } else {
                out.push('=');
            }
        }
    }
}

/// Strict standard base64 with padding, as the engine's `CryptoCore::b64_decode`: a length
/// that is a multiple of four, padding only at the end. The output is at most three quarters
/// of the input.
pub(crate) fn decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let chunks = b.len() / 4;
    for (i, chunk) in b.chunks(4).enumerate() {
        let last = i + 1 == chunks;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n: u32 = 0;
        for &c in chunk.get(..4 - pad)? {
            n = (n << 6) | digit_value(c)?;
        }
        n <<= 6 * pad;
        let bytes = n.to_be_bytes();
        out.extend_from_slice(bytes.get(1..4 - pad)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(bytes: &[u8]) -> String {
        let mut s = String::new();
        encode_into(&mut s, bytes);
        s
    }

    #[test]
    fn rfc4648_vectors() {
        // RFC 4648 §10.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in cases {
            assert_eq!(encode(plain.as_bytes()), coded, "{plain}");
            assert_eq!(decode(coded).as_deref(), Some(plain.as_bytes()), "{coded}");
        }
    }

    #[test]
    fn every_digit_both_ways() {
        // Bytes 0x00 0x10 0x83 0x10 0x51 0x87 ... are the digits A B C D ... in order:
        // the 48 bytes below hold the 64 six-bit values 0..63 one after another.
        let mut bits: Vec<u8> = Vec::new();
        let mut acc: u32 = 0;
        for (i, v) in (0u32..64).enumerate() {
            acc = (acc << 6) | v;
            if i % 4 == 3 {
                bits.extend_from_slice(&acc.to_be_bytes()[1..]);
                acc = 0;
            }
        }
        let all = core::str::from_utf8(ALPHABET).unwrap();
        assert_eq!(encode(&bits), all);
        assert_eq!(decode(all), Some(bits));
    }

    #[test]
    fn decode_refuses_what_the_engine_refuses() {
        for bad in ["Zg=", "Zg", "Z===", "Zg==Zg==", "Zm9v!A==", "Zm 9"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
