//! `Config::with_sorted_maps`: map entries in one stable order (by their encoded key bytes),
//! so that a `HashMap` gives the same bytes on every run.

#![allow(clippy::unwrap_used)]

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, HashMap, HashSet};

use godot_serde::Config;

/// An 8-entry map with a fresh `RandomState` (a new iteration order each time).
fn fresh_map() -> HashMap<String, i32, RandomState> {
    let mut m = HashMap::with_hasher(RandomState::new());
    for i in 0..8 {
        m.insert(format!("k{i}"), i * 10);
    }
    m
}

#[test]
fn five_encodings_of_a_hash_map_give_one_digest_when_sorted() {
    let config = Config::godot4().with_sorted_maps(true);
    let digests: HashSet<Vec<u8>> = (0..5)
        .map(|_| config.to_bytes(&fresh_map()).unwrap())
        .collect();
    assert_eq!(digests.len(), 1);
    let bytes = digests.into_iter().next().unwrap();

    // Hand derivation: DICTIONARY (27), count 8; then for i = 0..8 in key order the String
    // key "k{i}" (type 4, length 2, "k", digit, 2 zero bytes of padding) and INT (2) i * 10.
    let mut expected = vec![27, 0, 0, 0, 8, 0, 0, 0];
    for i in 0..8u8 {
        expected.extend_from_slice(&[4, 0, 0, 0, 2, 0, 0, 0, b'k', b'0' + i, 0, 0]);
        expected.extend_from_slice(&[2, 0, 0, 0, i * 10, 0, 0, 0]);
    }
    assert_eq!(bytes, expected);
    let back: HashMap<String, i32> = godot_serde::from_bytes(&bytes).unwrap();
    assert_eq!(back, fresh_map().into_iter().collect());
}

#[test]
fn without_the_option_hash_maps_follow_their_iteration_order() {
    // Not a promise of different bytes on every run (two random orders can agree), only that
    // iteration order is what gets written.
    for _ in 0..5 {
        let m = fresh_map();
        let bytes = godot_serde::to_bytes(&m).unwrap();
        let first_key = m.keys().next().unwrap();
        assert_eq!(&bytes[16..18], first_key.as_bytes());
    }
}

#[test]
fn keys_sort_by_their_bytes_length_word_first_and_nested_maps_sort_too() {
    let config = Config::godot4().with_sorted_maps(true);
    let mut inner = HashMap::new();
    inner.insert("zz".to_owned(), 1);
    inner.insert("a".to_owned(), 2);
    let mut outer = HashMap::new();
    outer.insert("bb".to_owned(), inner.clone());
    outer.insert("c".to_owned(), inner);
    let bytes = config.to_bytes(&outer).unwrap();
    // The String key's length word comes before its text: "a"/"c" (length 1) before
    // "bb"/"zz" (length 2).
    let s = |t: &str| {
        let mut v = vec![4, 0, 0, 0, t.len() as u8, 0, 0, 0];
        v.extend_from_slice(t.as_bytes());
        v.resize(8 + t.len().div_ceil(4) * 4, 0);
        v
    };
    let inner_bytes = [
        vec![27, 0, 0, 0, 2, 0, 0, 0],
        s("a"),
        vec![2, 0, 0, 0, 2, 0, 0, 0],
        s("zz"),
        vec![2, 0, 0, 0, 1, 0, 0, 0],
    ]
    .concat();
    let expected = [
        vec![27, 0, 0, 0, 2, 0, 0, 0],
        s("c"),
        inner_bytes.clone(),
        s("bb"),
        inner_bytes,
    ]
    .concat();
    assert_eq!(bytes, expected);
    assert_eq!(config.serialized_size(&outer).unwrap(), bytes.len());
}

#[test]
fn sorted_entries_keep_typed_arrays_inferred_inside_them() {
    // Typed-Array inference inserts a word inside a value after its entry began: the
    // recorded entry offsets must still hold.
    let config = Config::godot4()
        .with_typed_containers(true)
        .with_sorted_maps(true);
    let mut m: HashMap<String, Vec<i32>> = HashMap::new();
    for (k, n) in [("d", 3), ("a", 1), ("c", 0), ("b", 2)] {
        m.insert(k.to_owned(), (0..n).collect());
    }
    let sorted: BTreeMap<String, Vec<i32>> = m.clone().into_iter().collect();
    // One-byte keys: encoded-byte order is text order, BTreeMap's own order.
    let plain = Config::godot4().with_typed_containers(true);
    assert_eq!(
        config.to_bytes(&m).unwrap(),
        plain.to_bytes(&sorted).unwrap()
    );
    let mut buf = vec![0xAA; 3];
    config.to_bytes_into(&m, &mut buf).unwrap();
    assert_eq!(buf[..3], [0xAA; 3]);
    assert_eq!(buf[3..], plain.to_bytes(&sorted).unwrap());
}

#[test]
fn structs_keep_their_field_order() {
    #[derive(serde::Serialize)]
    struct S {
        z: i32,
        a: i32,
    }
    let config = Config::godot4().with_sorted_maps(true);
    let v = S { z: 1, a: 2 };
    assert_eq!(
        config.to_bytes(&v).unwrap(),
        godot_serde::to_bytes(&v).unwrap()
    );
}
