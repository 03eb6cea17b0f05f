//! `variant_from_bytes` / `Deserializer::read_variant`, the direct path into a `Variant`: the
//! value, errors and bytes used of `from_bytes::<Variant>`, on inputs built by hand from the
//! spec (Godot 4 ids: int 2, String 4, Vector3 9, Dictionary 27, Array 28; a String field is
//! its length, the text and zero padding to a multiple of 4).
//!
//! The Dictionaries of an Array are where the direct path takes its shortcut (a key with the
//! bytes of the same key in the Dictionary before is copied, and needs no comparison while
//! every key before it matched too), so most cases are Arrays of Dictionaries whose keys
//! repeat, reorder or collide.

use godot_serde::{Config, Deserializer, GodotVersion, Variant, Vector3};

fn word(w: u32) -> Vec<u8> {
    w.to_le_bytes().to_vec()
}

/// A String value: header 4, length, text, padding.
fn string(s: &str) -> Vec<u8> {
    let mut out = word(4);
    out.extend(word(u32::try_from(s.len()).unwrap()));
    out.extend(s.as_bytes());
    out.resize(out.len() + (4 - s.len() % 4) % 4, 0);
    out
}

/// An int value: header 2, 32-bit payload.
fn int(i: i32) -> Vec<u8> {
    [word(2), i.to_le_bytes().to_vec()].concat()
}

/// A Dictionary: header 27, count, then key and value bytes as given (keys may repeat).
fn dict(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut out = [word(27), word(u32::try_from(entries.len()).unwrap())].concat();
    for (k, v) in entries {
        out.extend(k);
        out.extend(v);
    }
    out
}

/// An Array: header 28, count, elements.
fn array(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = [word(28), word(u32::try_from(items.len()).unwrap())].concat();
    for i in items {
        out.extend(i);
    }
    out
}

/// A Dictionary of String keys and int values, keys repeating as given.
fn record(pairs: &[(&str, i32)]) -> Vec<u8> {
    dict(
        &pairs
            .iter()
            .map(|&(k, v)| (string(k), int(v)))
            .collect::<Vec<_>>(),
    )
}

/// The Variant Godot gives for `pairs`: a repeated key keeps its first place and takes the
/// last value.
fn expected(pairs: &[(&str, i64)]) -> Variant {
    let mut out: Vec<(&str, i64)> = Vec::new();
    for &(k, v) in pairs {
        match out.iter_mut().find(|(kk, _)| *kk == k) {
            Some(slot) => slot.1 = v,
            None => out.push((k, v)),
        }
    }
    let mut d = godot_serde::Dictionary::new();
    for (k, v) in out {
        d.insert(k.into(), v.into());
    }
    Variant::from(d)
}

/// Decodes `bytes` both ways (slice and a reader), checks they agree with the serde path,
/// and returns the direct path's result.
fn both(bytes: &[u8]) -> godot_serde::Result<Variant> {
    let config = Config::default();
    let direct = config.variant_from_bytes(bytes);
    let serde = config.from_bytes::<Variant>(bytes);
    match (&direct, &serde) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("direct {direct:?}, serde {serde:?}"),
    }
    let from_reader = config.variant_from_reader(bytes);
    assert_eq!(
        format!("{from_reader:?}"),
        format!("{:?}", config.from_reader::<_, Variant>(bytes))
    );
    direct
}

#[test]
fn records_with_the_same_keys_decode_as_written() {
    let rows: Vec<Vec<(&str, i32)>> = (0..5)
        .map(|i| vec![("id", i), ("hp", 10 * i), ("name_of_a_longer_key", -i)])
        .collect();
    let bytes = array(&rows.iter().map(|r| record(r)).collect::<Vec<_>>());
    let v = both(&bytes).unwrap();
    let want: Vec<Variant> = (0..5i64)
        .map(|i| expected(&[("id", i), ("hp", 10 * i), ("name_of_a_longer_key", -i)]))
        .collect();
    assert_eq!(v, Variant::from(want));
}

#[test]
fn repeated_reordered_and_colliding_keys_across_siblings() {
    // Each row against the row before it: the same keys; keys reordered; a key repeated
    // after a matching prefix; the first key repeated at once; a key that was the previous
    // row's third now second then repeated; fewer keys; more keys; a repeat of a learned
    // key after a mismatch.
    let rows: [&[(&str, i32)]; 9] = [
        &[("a", 1), ("b", 2), ("x", 3)],
        &[("a", 4), ("b", 5), ("x", 6)],
        &[("b", 7), ("a", 8), ("x", 9)],
        &[("b", 10), ("a", 11), ("b", 12)],
        &[("b", 13), ("b", 14), ("a", 15)],
        &[("a", 16), ("x", 17), ("x", 18)],
        &[("a", 19)],
        &[("a", 20), ("b", 21), ("x", 22), ("y", 23)],
        &[("a", 24), ("q", 25), ("a", 26), ("y", 27)],
    ];
    let bytes = array(&rows.iter().map(|r| record(r)).collect::<Vec<_>>());
    let v = both(&bytes).unwrap();
    let want: Vec<Variant> = rows
        .iter()
        .map(|r| {
            let pairs: Vec<(&str, i64)> = r.iter().map(|&(k, v)| (k, i64::from(v))).collect();
            expected(&pairs)
        })
        .collect();
    assert_eq!(v, Variant::from(want));
    let Variant::Array(a) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(a.items[3], expected(&[("b", 12), ("a", 11)]));
    assert_eq!(a.items[5], expected(&[("a", 16), ("x", 18)]));
    assert_eq!(a.items[8], expected(&[("a", 26), ("q", 25), ("y", 27)]));
}

#[test]
fn keys_remembered_from_two_rows_never_mix() {
    // After [b, a, x] follows [a, b, x], the keys known are b, a, x (not a, b, a, x): the
    // third row's second "a" is a repeated key, found and merged.
    let rows: [&[(&str, i32)]; 3] = [
        &[("a", 1), ("b", 2), ("x", 3)],
        &[("b", 4), ("a", 5), ("x", 6)],
        &[("b", 7), ("a", 8), ("b", 9)],
    ];
    let bytes = array(&rows.iter().map(|r| record(r)).collect::<Vec<_>>());
    let v = both(&bytes).unwrap();
    let Variant::Array(a) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(a.items[2], expected(&[("b", 9), ("a", 8)]));
    // And the other way round: [a, b, x], [b, a, x], [a, b, a].
    let rows: [&[(&str, i32)]; 3] = [
        &[("a", 1), ("b", 2), ("x", 3)],
        &[("b", 4), ("a", 5), ("x", 6)],
        &[("a", 7), ("b", 8), ("a", 9)],
    ];
    let bytes = array(&rows.iter().map(|r| record(r)).collect::<Vec<_>>());
    let Variant::Array(a) = both(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(a.items[2], expected(&[("a", 9), ("b", 8)]));
    // A repeated key is not remembered: [a, a] then [a, a, b].
    let rows: [&[(&str, i32)]; 2] = [&[("a", 1), ("a", 2)], &[("a", 3), ("a", 4), ("b", 5)]];
    let bytes = array(&rows.iter().map(|r| record(r)).collect::<Vec<_>>());
    let Variant::Array(a) = both(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(a.items[0], expected(&[("a", 2)]));
    assert_eq!(a.items[1], expected(&[("a", 4), ("b", 5)]));
}

#[test]
fn inner_arrays_of_records_keep_their_own_keys() {
    // Records whose values hold Arrays of records, between two keys of the outer record:
    // the inner keys come and go without disturbing the outer ones.
    let inner = |keys: &[(&str, i32)], n: usize| array(&vec![record(keys); n]);
    let row = |a: i32, list: Vec<u8>, b: i32| {
        dict(&[
            (string("a"), int(a)),
            (string("list"), list),
            (string("b"), int(b)),
        ])
    };
    let rows = [
        row(1, inner(&[("x", 1), ("y", 2)], 3), 2),
        row(3, inner(&[("y", 3), ("x", 4), ("y", 5)], 2), 4),
        row(5, inner(&[("a", 6), ("b", 7), ("a", 8)], 2), 6),
        row(7, array(&[]), 8),
    ];
    let v = both(&array(&rows)).unwrap();
    let Variant::Array(a) = &v else {
        panic!("{v:?}")
    };
    let want_row = |a: i64, list: Variant, b: i64| {
        let mut d = godot_serde::Dictionary::new();
        d.insert("a".into(), a.into());
        d.insert("list".into(), list);
        d.insert("b".into(), b.into());
        Variant::from(d)
    };
    let rows_of = |pairs: &[(&str, i64)], n: usize| Variant::from(vec![expected(pairs); n]);
    assert_eq!(
        a.items[0],
        want_row(1, rows_of(&[("x", 1), ("y", 2)], 3), 2)
    );
    assert_eq!(
        a.items[1],
        want_row(3, rows_of(&[("y", 5), ("x", 4)], 2), 4)
    );
    assert_eq!(
        a.items[2],
        want_row(5, rows_of(&[("a", 8), ("b", 7)], 2), 6)
    );
    assert_eq!(
        a.items[3],
        want_row(7, Variant::from(Vec::<Variant>::new()), 8)
    );

    // An inner Array's keys are forgotten when it ends: after two rows whose lists hold a
    // record keyed "a", a row repeating its own "a" after the list has one "a".
    let row = |n: i32, list: Vec<u8>, extra: Option<i32>| {
        let mut entries = vec![(string("a"), int(n)), (string("list"), list)];
        entries.extend(extra.map(|x| (string("a"), int(x))));
        dict(&entries)
    };
    let rows = [
        row(1, array(&[record(&[("a", 10)])]), None),
        row(2, array(&[record(&[("a", 20)])]), None),
        row(3, array(&[]), Some(4)),
    ];
    let Variant::Array(a) = both(&array(&rows)).unwrap() else {
        panic!()
    };
    let Variant::Dictionary(last) = &a.items[2] else {
        panic!()
    };
    assert_eq!(last.len(), 2, "{last:?}");
    assert_eq!(last.get("a"), Some(&Variant::Int(4)));
}

#[test]
fn an_array_starts_from_the_keys_of_the_array_before() {
    // Rows whose lists of records have one shape: each list starts from the last one's keys.
    // A list whose first record repeats a key the last list had once is still merged, and
    // keys left over from two lists never mix.
    let row = |list: Vec<Vec<u8>>| dict(&[(string("list"), array(&list))]);
    let rows = [
        row(vec![record(&[("x", 1), ("y", 2)])]),
        row(vec![record(&[("x", 3)])]),
        row(vec![record(&[("x", 4), ("y", 5), ("x", 6)])]),
        row(vec![
            record(&[("x", 7), ("x", 8)]),
            record(&[("y", 9), ("x", 10)]),
        ]),
    ];
    let Variant::Array(a) = both(&array(&rows)).unwrap() else {
        panic!()
    };
    let list = |i: usize| a.items[i]["list"].clone();
    assert_eq!(
        list(0),
        Variant::from(vec![expected(&[("x", 1), ("y", 2)])])
    );
    assert_eq!(list(1), Variant::from(vec![expected(&[("x", 3)])]));
    assert_eq!(
        list(2),
        Variant::from(vec![expected(&[("x", 6), ("y", 5)])])
    );
    assert_eq!(
        list(3),
        Variant::from(vec![
            expected(&[("x", 8)]),
            expected(&[("y", 9), ("x", 10)])
        ])
    );
}

/// `bytes`, 4 levels deep: a limit of 3 refuses them on both paths with the same error (its
/// offset included), a limit of 4 reads them.
#[track_caller]
fn exactly_4_deep(bytes: &[u8]) {
    let config = Config::new(GodotVersion::V4_4).with_max_depth(3);
    let direct = config.variant_from_bytes(bytes).unwrap_err();
    let serde = config.from_bytes::<Variant>(bytes).unwrap_err();
    assert_eq!(direct.to_string(), serde.to_string());
    assert!(
        matches!(
            direct.kind(),
            godot_serde::ErrorKind::DepthLimitExceeded { limit: 3 }
        ),
        "{direct}"
    );
    assert!(config.with_max_depth(4).variant_from_bytes(bytes).is_ok());
}

#[test]
fn keys_known_from_a_shallower_array_still_meet_the_depth_limit() {
    // [[{k: 1}], {m: [{k: 2}]}]: the first list's record has its key at depth 3; the second
    // list starts from that record's keys, but its record's key is at depth 4, past a limit
    // of 3, though its bytes are those of the key known from before.
    let bytes = array(&[
        array(&[record(&[("k", 1)])]),
        dict(&[(string("m"), array(&[record(&[("k", 2)])]))]),
    ]);
    exactly_4_deep(&bytes);
}

#[test]
fn keys_an_inner_array_passes_on_do_not_mix_with_the_outer_ones() {
    // [[{k: [{k: 1}]}], [{k: 2, k: 3}]]: when the first list ends, it passes on its own keys
    // only (not the inner list's as well), so the second list's record merges its two "k".
    let inner = array(&[record(&[("k", 1)])]);
    let bytes = array(&[
        array(&[dict(&[(string("k"), inner)])]),
        array(&[record(&[("k", 2), ("k", 3)])]),
    ]);
    let Variant::Array(a) = both(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(a.items[1], Variant::from(vec![expected(&[("k", 3)])]));
}

#[test]
fn a_key_that_only_looks_like_the_one_before_is_read_for_itself() {
    // Same length and first and last bytes (one fingerprint); an int key where a String
    // was; a String key of a StringName's text; the same text with other padding bytes is
    // other bytes and is read again (Godot requires zero padding? it skips it: the text
    // decides).
    let mut padded_oddly = string("ab");
    let n = padded_oddly.len();
    padded_oddly[n - 1] = 7;
    let rows = [
        dict(&[(string("key_1_x"), int(1)), (string("other"), int(2))]),
        dict(&[(string("key_2_x"), int(3)), (string("other"), int(4))]),
        dict(&[(int(5), int(5)), (string("other"), int(6))]),
        dict(&[(string("ab"), int(7)), (string("other"), int(8))]),
        dict(&[(padded_oddly, int(9)), (string("ab"), int(10))]),
    ];
    let v = both(&array(&rows)).unwrap();
    let Variant::Array(a) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(a.items[0], expected(&[("key_1_x", 1), ("other", 2)]));
    assert_eq!(a.items[1], expected(&[("key_2_x", 3), ("other", 4)]));
    let Variant::Dictionary(d) = &a.items[2] else {
        panic!()
    };
    assert_eq!(d.get(5), Some(&Variant::Int(5)));
    // Padding bytes are skipped, not checked: "ab" twice is one key.
    assert_eq!(a.items[4], expected(&[("ab", 10)]));
}

#[test]
fn errors_in_a_later_sibling_name_the_same_place() {
    // The second row's second value is cut short; the third row has a reserved key.
    let good = record(&[("id", 1), ("hp", 2)]);
    let mut cut = record(&[("id", 3), ("hp", 4)]);
    cut.truncate(cut.len() - 2);
    let e = both(&array(&[good.clone(), cut])).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("[1].hp"), "{msg}");
    let reserved = dict(&[(string("$godot_serde::Vector2"), int(1))]);
    let e = both(&array(&[good.clone(), good, reserved])).unwrap_err();
    assert!(e.to_string().contains("reserved"), "{e}");
}

#[test]
fn math_types_and_nested_containers_read_directly() {
    // Vector3 (id 9), three f32 components.
    let mut v3 = word(9);
    for x in [1.5f32, -2.0, 0.25] {
        v3.extend(x.to_le_bytes());
    }
    let inner = array(&[v3.clone(), int(7)]);
    let bytes = array(&[
        dict(&[(string("pos"), v3.clone()), (string("list"), inner.clone())]),
        dict(&[(string("pos"), v3), (string("list"), inner)]),
    ]);
    let v = both(&bytes).unwrap();
    let one = {
        let mut d = godot_serde::Dictionary::new();
        d.insert(
            "pos".into(),
            Variant::Vector3(Vector3::new(1.5, -2.0, 0.25)),
        );
        d.insert(
            "list".into(),
            Variant::from(vec![
                Variant::Vector3(Vector3::new(1.5, -2.0, 0.25)),
                Variant::Int(7),
            ]),
        );
        Variant::from(d)
    };
    assert_eq!(v, Variant::from(vec![one.clone(), one]));
}

#[test]
fn the_depth_limit_holds_on_the_direct_path() {
    // Arrays of one-entry Dictionaries, 4 levels; a limit of 3 refuses them at the same
    // offset on both paths.
    let mut bytes = int(1);
    for _ in 0..2 {
        bytes = array(&[dict(&[(string("k"), bytes)])]);
    }
    exactly_4_deep(&bytes);
}

#[test]
fn a_stream_of_values_reads_one_at_a_time() {
    let a = record(&[("id", 1)]);
    let b = record(&[("id", 2)]);
    let bytes = [a, b, int(9)].concat();
    let mut de = Deserializer::from_slice(&bytes, Config::default());
    assert_eq!(de.read_variant().unwrap(), expected(&[("id", 1)]));
    assert_eq!(de.read_variant().unwrap(), expected(&[("id", 2)]));
    assert_eq!(de.read_variant().unwrap(), Variant::Int(9));
    de.end().unwrap();
    let (v, rest) = Config::default().take_variant_from_bytes(&bytes).unwrap();
    assert_eq!(v, expected(&[("id", 1)]));
    // The first record: header, count, "id" (length, 2 bytes, 2 of padding), an int.
    assert_eq!(rest.len(), bytes.len() - 4 * 7);
    // Trailing bytes are an error for the whole-input form, as for from_bytes.
    assert_eq!(
        Config::default()
            .variant_from_bytes(&bytes)
            .unwrap_err()
            .to_string(),
        Config::default()
            .from_bytes::<Variant>(&bytes)
            .unwrap_err()
            .to_string()
    );
}
