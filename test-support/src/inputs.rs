//! Hand-built inputs more than one crate's tests feed to the decoder, written byte by byte
//! from the wire format (`docs/wire-format.md`), never by the code under test.

/// A Godot 3 `store_var` file of one value, `{"kkk…": [RID, RID, …]}`: a String key of
/// `key_len` bytes (a multiple of 4, so no padding) over an Array of `rids` RIDs. Godot 3's
/// layout: Dictionary is type 18 with its entry count, String 4 with its byte length, Array
/// 19 with its count, RID 16 with no payload at all; the file's first 4 bytes are the
/// value's length. Its small size for what it makes a decoder hold (an owned key, a
/// `Variant` per RID) makes it the memory tests' input.
///
/// # Panics
///
/// When `key_len` is not a multiple of 4, or a length does not fit in 32 bits.
pub fn long_key_over_rids(key_len: usize, rids: usize) -> Vec<u8> {
    assert_eq!(key_len % 4, 0, "key_len must be a multiple of 4");
    let u32le = |n: usize| u32::try_from(n).expect("fits in 32 bits").to_le_bytes();
    let mut payload = Vec::new();
    payload.extend([18, 0, 0, 0]);
    payload.extend(u32le(1));
    payload.extend([4, 0, 0, 0]);
    payload.extend(u32le(key_len));
    payload.resize(payload.len() + key_len, b'k');
    payload.extend([19, 0, 0, 0]);
    payload.extend(u32le(rids));
    for _ in 0..rids {
        payload.extend([16, 0, 0, 0]);
    }
    let mut file = u32le(payload.len()).to_vec();
    file.extend(payload);
    file
}
