//! The save migration (`godot_serde::migrate`, used by `examples/migrate_save.rs`) on a save file written by a real Godot 3.2.3 engine
//! (`examples/data/make_godot3_save.gd`).

use crate::heap;

use godot_serde::frame::Framing;
use godot_serde::migrate::{Problem, migrate};
use godot_serde::save::{SaveReader, SaveWriter};
use godot_serde::{Config, Variant};
use godot_serde_test_support::inputs::long_key_over_rids;

// main.rs's allocator counts the heap each test thread holds (`heap::within`).
const GODOT3_SAVE: &[u8] = include_bytes!("../../examples/data/godot3_save.dat");

#[test]
fn godot3_save_reads_and_rewrites_byte_identically() {
    let values = SaveReader::new(GODOT3_SAVE, Config::godot3())
        .read_all()
        .unwrap();
    assert_eq!(values.len(), 4);
    assert_eq!(values[0]["saved_at"].as_int(), Some(1_700_000_000));
    assert_eq!(values[1]["inventory"][1]["item"].as_str(), Some("sword"));
    assert_eq!(values[3].as_str(), Some("end"));
    // Writing the same values as Godot 3 gives back the engine's file exactly.
    let mut w = SaveWriter::new(Vec::new(), Config::godot3());
    for v in &values {
        w.write(v).unwrap();
    }
    assert_eq!(w.into_inner(), GODOT3_SAVE);
}

#[test]
fn migration_reports_what_cannot_convert() {
    let (godot4, values, problems) = migrate(GODOT3_SAVE);
    let listed: Vec<(usize, String, &str)> = problems
        .iter()
        .map(|p: &Problem| (p.value, p.path.to_string(), p.what.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                2,
                "[\"navmesh\"]".to_owned(),
                "RID (Godot 3 stores no id; resource ids are per process): replaced by null"
            ),
            (
                2,
                "[\"owner\"]".to_owned(),
                "object stored as instance id 1288 (ids are per process): replaced by null"
            ),
        ]
    );
    assert_eq!(problems.total(), 2);
    assert_eq!(problems.listed()[0].path, "[\"navmesh\"]");
    assert_eq!(
        problems.listed()[0].to_string(),
        "value 2[\"navmesh\"]: RID (Godot 3 stores no id; resource ids are per process): replaced by null"
    );

    // The Godot 4 file holds the migrated values, each framed as FileAccess.store_var does.
    let back = SaveReader::new(&godot4[..], Config::godot4())
        .read_all()
        .unwrap();
    assert_eq!(back, values);
    let original = SaveReader::new(GODOT3_SAVE, Config::godot3())
        .read_all()
        .unwrap();
    assert_eq!(values[0], original[0]);
    assert_eq!(values[1], original[1]);
    assert_eq!(values[3], original[3]);
    assert_eq!(values[2]["navmesh"], Variant::Nil);
    assert_eq!(values[2]["owner"], Variant::Nil);
    assert_eq!(values[2]["seed"].as_int(), Some(42));

    let framing = Framing::new(Config::godot4());
    let mut expected = Vec::new();
    for v in &values {
        framing.to_bytes_into(v, &mut expected).unwrap();
    }
    assert_eq!(godot4, expected);
    // Godot 4 type ids: Dictionary 27 (Godot 3: 18) right after the first prefix, and the
    // last value is `store_var("end")`.
    assert_eq!(&godot4[..8], &[0x50, 0, 0, 0, 27, 0, 0, 0]);
    assert_eq!(&GODOT3_SAVE[..8], &[0x50, 0, 0, 0, 18, 0, 0, 0]);
    assert!(godot4.ends_with(&[12, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, b'e', b'n', b'd', 0]));
    // The RID (4 bytes) and the object id (12 bytes) became nils (4 bytes each).
    assert_eq!(godot4.len(), GODOT3_SAVE.len() - 8);
}

#[test]
fn unreadable_values_are_skipped_and_reported() {
    let mut file = godot_serde::frame::to_frame_bytes("ok", Config::godot3()).unwrap();
    file.extend([4, 0, 0, 0, 99, 0, 0, 0]); // type id 99 does not exist
    file.extend(godot_serde::frame::to_frame_bytes(&1, Config::godot3()).unwrap());
    let (_, values, problems) = migrate(&file);
    assert_eq!(values, vec![Variant::from("ok"), Variant::Int(1)]);
    assert_eq!(problems.total(), 1);
    assert_eq!(problems.listed()[0].value, 1);
    assert!(
        problems.listed()[0]
            .what
            .starts_with("cannot be read, skipped: unknown type id 99"),
        "{}",
        problems.listed()[0]
    );
}

#[test]
fn one_value_migrates_in_place_with_paths() {
    use godot_serde::migrate::migrate_variant;
    use godot_serde::{Dictionary, Object, ObjectId, Rid};
    // {ObjectId(5): [1, Object], "k": RID}
    let mut inner = godot_serde::Array::new();
    inner.push(1);
    inner.push(Variant::from(Object {
        class: "Spatial".into(),
        properties: vec![],
    }));
    let mut dict = Dictionary::new();
    dict.insert(Variant::from(ObjectId(5)), Variant::from(inner));
    dict.insert(Variant::from("k"), Variant::from(Rid(0)));
    let mut value = Variant::from(dict);
    let problems: Vec<String> = migrate_variant(&mut value, 3)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        problems,
        [
            "value 3[instance id 5]: key instance id 5 kept as is, but it means nothing in Godot 4",
            "value 3[instance id 5][1]: full Spatial object (Godot 3 class and properties; migrate it separately): replaced by null",
            "value 3[\"k\"]: RID (Godot 3 stores no id; resource ids are per process): replaced by null",
        ]
    );
    // The key stays, the values inside are null.
    assert_eq!(value["k"], Variant::Nil);
    let Variant::Dictionary(d) = &value else {
        panic!()
    };
    let (key, items) = &d.as_slice()[0];
    assert_eq!(*key, Variant::from(ObjectId(5)));
    assert_eq!(items[1], Variant::Nil);
    assert_eq!(items[0], Variant::Int(1));
}

/// Heap per input byte a migration of [`long_key_over_rids`] (`migrate`, its results
/// included) may hold: the decoded key (1 ×) and RIDs (a 4-byte RID becomes a 32-byte
/// `Variant`, 8 ×, but they are 6 % of the input), the Godot 4 file (1 ×) and at most
/// `DEFAULT_MAX_LISTED` (1 000) problems of about 200 bytes each, within the 64 KiB slack
/// and the margin. Measured: 5.1 × for the 278 KB file (1 417 957 bytes).
const MIGRATE_PER_BYTE: usize = 8;

/// Peak heap held by `migrate(file)`, results included, asserted within the budget.
fn migrate_peak(file: &[u8]) -> usize {
    let budget = heap::budget(MIGRATE_PER_BYTE, file.len());
    let (_, peak) = heap::peak_of(|| migrate(file));
    assert!(
        peak <= budget,
        "migrate of {} bytes held {peak} bytes of heap, over its budget of {budget}",
        file.len()
    );
    peak
}

#[test]
fn a_long_key_over_many_rids_migrates_in_linear_memory() {
    // The 278 KB save of one 256 KiB key over 4 000 RIDs: each problem's path repeated the
    // key, 4 000 × 256 KiB = 1.05 GB of heap (and as much text printed by `convert`).
    let file = long_key_over_rids(256 << 10, 4000);
    assert_eq!(file.len(), 278_172); // 4 + 8 + 8 + 262 144 + 8 + 4 × 4 000
    let big = migrate_peak(&file);
    // The same shape at a quarter of the size: linear memory grows about 4 ×, a path copied
    // per problem 16 ×.
    let small = migrate_peak(&long_key_over_rids(64 << 10, 1000));
    eprintln!(
        "migrate: {big} bytes of heap for {} bytes; {small} for a quarter",
        file.len()
    );
    assert!(
        big < 6 * small,
        "4 × the input took {big} bytes of heap against {small}"
    );

    let (_, values, problems) = migrate(&file);
    // 4 000 problems, the first 1 000 listed (DEFAULT_MAX_LISTED) and the rest counted.
    assert_eq!(problems.total(), 4000);
    assert_eq!(problems.listed().len(), 1000);
    assert_eq!(problems.unlisted(), 3000);
    // The key shows as its first 40 characters of text form (the quote and 39 k's), then `…`.
    let key = format!("\"{}…", "k".repeat(39));
    assert_eq!(
        problems.listed()[999].to_string(),
        format!(
            "value 0[{key}][999]: RID (Godot 3 stores no id; resource ids are per process): replaced by null"
        )
    );
    // Every RID became null all the same.
    let Variant::Dictionary(dict) = &values[0] else {
        panic!("{:?}", values[0])
    };
    let Variant::Array(items) = &dict.as_slice()[0].1 else {
        panic!("{dict:?}")
    };
    assert_eq!(items.len(), 4000);
    assert!(items.iter().all(|v| *v == Variant::Nil));
}

#[test]
fn problems_past_the_cap_are_counted_across_values() {
    use godot_serde::migrate::{Problems, migrate_variant_into};
    use godot_serde::{Object, Rid};
    let mut problems = Problems::with_max_listed(2);
    for index in 0..3 {
        let mut value = Variant::from(Rid(0));
        migrate_variant_into(&mut value, index, &mut problems);
        assert_eq!(value, Variant::Nil);
    }
    assert_eq!((problems.listed().len(), problems.unlisted()), (2, 1));
    assert_eq!(problems.listed()[1].value, 1);
    assert!(problems.listed()[1].path.is_empty());
    // A long class name is cut in the message as a key is in a path.
    let mut value = Variant::from(Object {
        class: "N".repeat(100_000),
        properties: vec![],
    });
    let problems = godot_serde::migrate::migrate_variant(&mut value, 0);
    assert_eq!(
        problems.listed()[0].what,
        format!(
            "full {}… object (Godot 3 class and properties; migrate it separately): replaced by null",
            "N".repeat(40)
        )
    );
}

/// One `store_var` frame around `payload`.
fn framed(payload: &[u8]) -> Vec<u8> {
    let mut file = u32::try_from(payload.len()).unwrap().to_le_bytes().to_vec();
    file.extend_from_slice(payload);
    file
}

#[test]
fn migration_heap_is_within_the_variant_budget() {
    // What README "Security and limits" states for migration: the decoding budget of a
    // `Variant` (64 KiB + size_of::<Variant>() × the input: a 4-byte RID becomes a whole
    // Variant) and 256 KiB for the listed problems (1 000 of about 200 bytes).
    let budget = |len: usize| heap::budget(size_of::<Variant>(), len) + (256 << 10);
    // An Array of 100 000 RIDs (Godot 3: Array 19, count, RID 16 each).
    let mut rids = vec![19, 0, 0, 0];
    rids.extend(100_000u32.to_le_bytes());
    for _ in 0..100_000 {
        rids.extend([16, 0, 0, 0]);
    }
    // 100 000 frames of one RID each.
    let frames: Vec<u8> = (0..100_000).flat_map(|_| framed(&[16, 0, 0, 0])).collect();
    // 1 000 frames of 127 nested Dictionaries, each keyed by 40 `k`s, over a RID: every
    // problem has a path of 127 keys of its own.
    let mut nested = Vec::new();
    for _ in 0..127 {
        nested.extend([18, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 40, 0, 0, 0]);
        nested.extend([b'k'; 40]);
    }
    nested.extend([16, 0, 0, 0]);
    let nested: Vec<u8> = (0..1000).flat_map(|_| framed(&nested)).collect();
    for (what, file) in [
        ("an Array of 100 000 RIDs", framed(&rids)),
        ("100 000 frames of a RID", frames),
        ("1 000 frames of 127 keyed Dictionaries", nested),
    ] {
        let ((_, values, problems), peak) = heap::peak_of(|| migrate(&file));
        assert!(!values.is_empty() && problems.total() >= 1000, "{what}");
        eprintln!(
            "{what}: {peak} bytes of heap for {} bytes ({:.1} x)",
            file.len(),
            peak as f64 / file.len() as f64
        );
        assert!(
            peak <= budget(file.len()),
            "{what}: {peak} bytes of heap for {} bytes",
            file.len()
        );
    }
}
