//! Dictionary keys are found through a hash over the whole key (issue 11 item 2, issue 13):
//! decoding or building a Dictionary takes linear time whatever its keys, including keys that
//! used to hash alike (NaN floats, Vector4, packed arrays, Arrays equal in their first 16
//! items). Each timing test compares two sizes in the same run: linear work doubles when the
//! input doubles, quadratic work quadruples, so a ratio below 3 (best of three runs each)
//! separates them on a busy machine.

use std::time::{Duration, Instant};

use godot_serde::{Dictionary, Variant};

/// The best of three runs of `f`.
fn best_of_3(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// `1b000000 <n>` then `n` times `key(i)` followed by the value `int i` (`02000000 <i>`).
fn dictionary_bytes(n: u32, key: impl Fn(u32, &mut Vec<u8>)) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&27u32.to_le_bytes()); // DICTIONARY (4.x id 27)
    b.extend_from_slice(&n.to_le_bytes());
    for i in 0..n {
        key(i, &mut b);
        b.extend_from_slice(&2u32.to_le_bytes()); // INT
        b.extend_from_slice(&i.to_le_bytes());
    }
    b
}

/// Decodes `bytes(n)` and `bytes(2n)` into a Variant; asserts linear time and returns the
/// two Dictionaries' lengths.
fn assert_linear_decode(n: u32, bytes: impl Fn(u32) -> Vec<u8>) -> (usize, usize) {
    let small = bytes(n);
    let large = bytes(2 * n);
    let decode = |b: &[u8]| match godot_serde::from_bytes::<Variant>(b).unwrap() {
        Variant::Dictionary(d) => d.len(),
        other => panic!("not a Dictionary: {other:?}"),
    };
    let (mut len_small, mut len_large) = (0, 0);
    let t_small = best_of_3(|| len_small = decode(&small));
    let t_large = best_of_3(|| len_large = decode(&large));
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64();
    assert!(
        ratio < 3.0,
        "decoding {} keys took {t_large:?}, {n} keys {t_small:?}: ratio {ratio:.2}",
        2 * n
    );
    (len_small, len_large)
}

#[test]
fn nan_keys_decode_in_linear_time_and_are_one_key() {
    // The input: `1b000000 <N> (03000000 0000c07f 00000000)×N`, written here with
    // each value an int. FLOAT (id 3), 32-bit: 0x7fc00000 is a quiet NaN.
    let bytes = |n| {
        dictionary_bytes(n, |_, b| {
            b.extend_from_slice(&3u32.to_le_bytes());
            b.extend_from_slice(&0x7fc0_0000u32.to_le_bytes());
        })
    };
    let (small, large) = assert_linear_decode(80_000, bytes);
    // Godot's key equality (`hash_compare`) makes every NaN the same key: the last value wins
    // in the first position, as `d[NAN] = v` repeated does in the engine.
    assert_eq!((small, large), (1, 1));
    let v: Variant = godot_serde::from_bytes(&bytes(3)).unwrap();
    assert_eq!(v[""], Variant::Nil);
    let d = v.as_dictionary().unwrap();
    assert_eq!(d.get(&Variant::Float(f64::NAN)), Some(&Variant::Int(2)));
}

#[test]
fn vector4_keys_decode_in_linear_time() {
    // VECTOR4 (4.x id 12): x = i as f32, y = z = w = 0.
    let bytes = |n| {
        dictionary_bytes(n, |i, b| {
            b.extend_from_slice(&12u32.to_le_bytes());
            #[allow(clippy::cast_precision_loss)] // i < 2^24: exact
            b.extend_from_slice(&(i as f32).to_le_bytes());
            b.extend_from_slice(&[0; 12]);
        })
    };
    assert_eq!(assert_linear_decode(40_000, bytes), (40_000, 80_000));
}

#[test]
fn packed_float_array_keys_decode_in_linear_time() {
    // PACKED_FLOAT32_ARRAY (4.x id 32) of one element, i as f32.
    let bytes = |n| {
        dictionary_bytes(n, |i, b| {
            b.extend_from_slice(&32u32.to_le_bytes());
            b.extend_from_slice(&1u32.to_le_bytes());
            #[allow(clippy::cast_precision_loss)] // i < 2^24: exact
            b.extend_from_slice(&(i as f32).to_le_bytes());
        })
    };
    assert_eq!(assert_linear_decode(40_000, bytes), (40_000, 80_000));
}

#[test]
fn long_array_keys_decode_in_linear_time() {
    // ARRAY (4.x id 28) of 17 ints: 16 zeros, then i. Equal in their first 16 items.
    let bytes = |n| {
        dictionary_bytes(n, |i, b| {
            b.extend_from_slice(&28u32.to_le_bytes());
            b.extend_from_slice(&17u32.to_le_bytes());
            for _ in 0..16 {
                b.extend_from_slice(&2u32.to_le_bytes());
                b.extend_from_slice(&0u32.to_le_bytes());
            }
            b.extend_from_slice(&2u32.to_le_bytes());
            b.extend_from_slice(&i.to_le_bytes());
        })
    };
    assert_eq!(assert_linear_decode(10_000, bytes), (10_000, 20_000));
}

#[test]
fn building_many_keys_costs_the_same_per_key() {
    let build = |n: i64| {
        let d: Dictionary = (0..n).map(|i| (format!("key{i}"), i)).collect();
        assert_eq!(d.len(), usize::try_from(n).unwrap());
        assert_eq!(d.get("key7"), Some(&Variant::Int(7)));
    };
    let t10k = best_of_3(|| build(10_000));
    let t80k = best_of_3(|| build(80_000));
    let per_key_ratio = (t80k.as_secs_f64() / 80_000.0) / (t10k.as_secs_f64() / 10_000.0);
    assert!(
        per_key_ratio <= 2.0,
        "80,000 keys {t80k:?}, 10,000 keys {t10k:?}: {per_key_ratio:.2}x per key"
    );
}

#[test]
fn key_equality_is_godots() {
    let mut d = Dictionary::new();
    // Past the linear-scan size, so the hash index answers too.
    for i in 0..20 {
        d.insert(i.into(), i.into());
    }
    d.insert(Variant::Float(0.0), "zero".into());
    assert_eq!(
        d.insert(Variant::Float(-0.0), "minus zero".into()),
        Some("zero".into())
    );
    d.insert(Variant::Float(f64::NAN), 1.into());
    // A NaN with another payload is the same key.
    let other_nan = f64::from_bits(0x7ff8_0000_0000_0001);
    assert_eq!(
        d.insert(Variant::Float(other_nan), 2.into()),
        Some(1.into())
    );
    // String and StringName keys stay distinct; a &str lookup finds the first.
    d.insert("a".into(), 1.into());
    d.insert(Variant::StringName("a".into()), 2.into());
    assert_eq!(d.len(), 20 + 1 + 1 + 2);
    assert_eq!(d.get("a"), Some(&Variant::Int(1)));
    assert_eq!(
        d.get(&Variant::StringName("a".into())),
        Some(&Variant::Int(2))
    );
    // Removal keeps the order and the index consistent.
    assert_eq!(d.remove(5), Some(5.into()));
    assert_eq!(d.get(6), Some(&Variant::Int(6)));
    assert_eq!(d.get(19), Some(&Variant::Int(19)));
    assert_eq!(
        d.get(&Variant::Float(-0.0)),
        Some(&Variant::from("minus zero"))
    );
    assert_eq!(d.keys().nth(5), Some(&Variant::Int(6)));
    // Nested NaN: an Array key holding NaN finds itself.
    let key = Variant::from(vec![Variant::Float(f64::NAN)]);
    d.insert(key.clone(), "nested".into());
    assert_eq!(d.get(&key), Some(&Variant::from("nested")));
}
