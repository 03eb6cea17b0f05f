//! Dictionary keys are found through a hash over the whole key (issue 11 item 2, issue 13):
//! decoding or building a Dictionary takes linear time whatever its keys, including keys that
//! used to hash alike (NaN floats, Vector4, packed arrays, Arrays equal in their first 16
//! items). Each timing test compares two sizes in the same run: linear work doubles when the
//! input doubles, quadratic work quadruples, so a ratio below 3 (best of three runs each)
//! separates them on a busy machine. The sizes are those at which colliding keys cost seconds
//! in a debug build while linear work takes milliseconds.

use std::time::{Duration, Instant};

use godot_serde::{Dictionary, Variant};

/// The timing tests run one at a time, not beside each other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

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

/// The same bytes as an Array of `2n` elements (keys and values in turn): the same decoding
/// work without duplicate detection, the baseline for what the machine's memory costs.
fn as_array(dictionary: &[u8]) -> Vec<u8> {
    let mut b = dictionary.to_vec();
    let n = u32::from_le_bytes(b[4..8].try_into().unwrap());
    b[0..4].copy_from_slice(&28u32.to_le_bytes()); // ARRAY (4.x id 28)
    b[4..8].copy_from_slice(&(2 * n).to_le_bytes());
    b
}

/// Decodes `bytes(n)` and `bytes(2n)` into a Variant; asserts linear time and returns the
/// two Dictionaries' lengths. Linear work doubles when the input doubles, quadratic work
/// quadruples: the ratio must stay below 3, or (when even the Array baseline grows faster
/// than linearly on a busy machine with small caches) below 1.5 times the baseline's ratio.
fn assert_linear_decode(n: u32, bytes: impl Fn(u32) -> Vec<u8>) -> (usize, usize) {
    let small = bytes(n);
    let large = bytes(2 * n);
    let (small_array, large_array) = (as_array(&small), as_array(&large));
    let decode = |b: &[u8]| match godot_serde::from_bytes::<Variant>(b).unwrap() {
        Variant::Dictionary(d) => d.len(),
        Variant::Array(a) => a.len(),
        other => panic!("not a Dictionary: {other:?}"),
    };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (mut len_small, mut len_large) = (0, 0);
    // A first look, so that quadratic work fails at once instead of timing 2n keys: n keys
    // cost a few times what the same bytes cost as an Array (1.2-2.3 x in a debug build),
    // keys that all land on one hash far more (2 276 x for 20,000 Vector4 keys with the
    // Vector4 hash reduced to the type).
    let as_array = best_of_3(|| assert_eq!(decode(&small_array), 2 * n as usize));
    let as_dictionary = best_of_3(|| len_small = decode(&small));
    let first = as_dictionary.as_secs_f64() / as_array.as_secs_f64();
    eprintln!("{n} keys: {first:.1} x the Array's time");
    assert!(
        first < 20.0,
        "decoding {n} keys took {as_dictionary:?}, {first:.1} times the same bytes as an Array \
         ({as_array:?})"
    );
    // Two attempts: a burst of load can spoil one, quadratic work fails both.
    for attempt in 0..2 {
        // Interleaved, so that load on a shared machine hits every size.
        let mut t = [Duration::MAX; 4];
        for _ in 0..3 {
            t[0] = t[0].min(best_of_3(|| len_small = decode(&small)));
            t[1] = t[1].min(best_of_3(|| len_large = decode(&large)));
            t[2] = t[2].min(best_of_3(|| {
                assert_eq!(decode(&small_array), 2 * n as usize)
            }));
            t[3] = t[3].min(best_of_3(|| {
                assert_eq!(decode(&large_array), 4 * n as usize)
            }));
        }
        let ratio = t[1].as_secs_f64() / t[0].as_secs_f64();
        let array_ratio = t[3].as_secs_f64() / t[2].as_secs_f64();
        if ratio < 3.0 || ratio < 1.5 * array_ratio {
            break;
        }
        assert!(
            attempt == 0,
            "decoding {} keys took {:?}, {n} keys {:?}: ratio {ratio:.2} (as an Array: \
             {array_ratio:.2})",
            2 * n,
            t[1],
            t[0]
        );
    }
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
    let (small, large) = assert_linear_decode(40_000, bytes);
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
    assert_eq!(assert_linear_decode(20_000, bytes), (20_000, 40_000));
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
    assert_eq!(assert_linear_decode(20_000, bytes), (20_000, 40_000));
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
    assert_eq!(assert_linear_decode(5_000, bytes), (5_000, 10_000));
}

#[test]
fn building_many_keys_costs_the_same_per_key() {
    // Only the inserting is timed: the keys are made before and the Dictionary dropped after.
    let ours = |n: i64| {
        let pairs: Vec<(Variant, Variant)> = (0..n)
            .map(|i| (Variant::from(format!("key{i}")), Variant::from(i)))
            .collect();
        let t = Instant::now();
        let d: Dictionary = pairs.into_iter().collect();
        let elapsed = t.elapsed();
        assert_eq!(d.len(), usize::try_from(n).unwrap());
        assert_eq!(d.get("key7"), Some(&Variant::Int(7)));
        elapsed
    };
    // The same work with std's HashMap (keys and insertion order kept in a Vec): on a
    // machine whose caches hold 10,000 entries but not 80,000, even this costs more per key
    // at 80,000 (measured 4.7-7.3x on the 2-core build machine under load).
    let std_map = |n: usize| {
        let keys: Vec<String> = (0..n).map(|i| format!("key{i}")).collect();
        let t = Instant::now();
        let mut index = std::collections::HashMap::with_capacity(n);
        let mut order = Vec::with_capacity(n);
        for (i, k) in keys.into_iter().enumerate() {
            index.insert(k.clone(), i);
            order.push((k, i));
        }
        let elapsed = t.elapsed();
        assert_eq!(index.len(), order.len());
        elapsed
    };
    // Interleaved, best of five each, so that load on a shared machine hits every run.
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut t = [Duration::MAX; 4];
    for _ in 0..5 {
        t[0] = t[0].min(ours(10_000));
        t[1] = t[1].min(ours(80_000));
        t[2] = t[2].min(std_map(10_000));
        t[3] = t[3].min(std_map(80_000));
    }
    let per_key = |small: Duration, large: Duration| {
        (large.as_secs_f64() / 80_000.0) / (small.as_secs_f64() / 10_000.0)
    };
    let (ratio, std_ratio) = (per_key(t[0], t[1]), per_key(t[2], t[3]));
    // At most 2x per key, or what the machine's memory costs std's map, with a margin.
    // Quadratic work would be 8x per key on top of that (the issue measured 5.75 s for
    // 40,000 keys before the index).
    assert!(
        ratio <= 2.0_f64.max(1.5 * std_ratio),
        "80,000 keys {:?}, 10,000 keys {:?}: {ratio:.2}x per key (std: {std_ratio:.2}x)",
        t[1],
        t[0]
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
