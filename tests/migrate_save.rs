//! The save migration (`godot_serde::migrate`, used by `examples/migrate_save.rs`) on a save file written by a real Godot 3.2.3 engine
//! (`examples/data/make_godot3_save.gd`).

use godot_serde::frame::Framing;
use godot_serde::migrate::{Problem, migrate};
use godot_serde::save::{SaveReader, SaveWriter};
use godot_serde::{Config, Variant};

const GODOT3_SAVE: &[u8] = include_bytes!("../examples/data/godot3_save.dat");

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
    assert_eq!(
        problems,
        vec![
            Problem {
                value: 2,
                path: "[\"navmesh\"]".into(),
                what: "RID (Godot 3 stores no id; resource ids are per process): replaced by null"
                    .into(),
            },
            Problem {
                value: 2,
                path: "[\"owner\"]".into(),
                what: "object stored as instance id 1288 (ids are per process): replaced by null"
                    .into(),
            },
        ]
    );
    assert_eq!(
        problems[0].to_string(),
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
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].value, 1);
    assert!(
        problems[0]
            .what
            .starts_with("cannot be read, skipped: unknown type id 99"),
        "{}",
        problems[0]
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
