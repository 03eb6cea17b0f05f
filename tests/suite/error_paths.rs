//! Decoding errors name where in the value they happened: struct fields, Dictionary keys and
//! Array indices, from a slice and from a reader.
use godot_serde::{Config, Error, Variant};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Player {
    name: String,
    hp: i32,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct World {
    players: Vec<Player>,
}

/// What a Godot script sends when one player's hp became a float.
#[derive(Serialize)]
struct SentPlayer {
    name: &'static str,
    hp: Variant,
}

#[derive(Serialize)]
struct SentWorld {
    players: Vec<SentPlayer>,
}

fn world_bytes() -> Vec<u8> {
    let players = (0..4)
        .map(|i| SentPlayer {
            name: "ab",
            hp: if i == 3 {
                Variant::Float(87.0)
            } else {
                Variant::Int(10)
            },
        })
        .collect();
    godot_serde::to_bytes(&SentWorld { players }).unwrap()
}

/// Both paths give the same error; the slice one is returned.
fn both<T: serde::de::DeserializeOwned + std::fmt::Debug>(bytes: &[u8]) -> Error {
    let from_slice = godot_serde::from_bytes::<T>(bytes).unwrap_err();
    let from_reader = godot_serde::from_reader::<_, T>(bytes).unwrap_err();
    assert_eq!(from_slice.to_string(), from_reader.to_string());
    from_slice
}

#[test]
fn struct_fields_and_array_indices() {
    let bytes = world_bytes();
    // Hand derivation of the offset (Godot 4, 4-byte words): Dictionary header + count (8),
    // key "players" (header, length, 7 bytes + 1 padding: 16), Array header + count (8): the
    // first player starts at 32. Each player: Dictionary header + count (8), key "name" (12),
    // "ab" (header, length, 2 + 2 padding: 12), key "hp" (12), hp (int 10: header + 4 = 8) =
    // 52 bytes. Player 3 starts at 32 + 3 * 52 = 188; its hp header at 188 + 44 = 232.
    let err = both::<World>(&bytes);
    assert_eq!(err.path().as_deref(), Some("players[3].hp"));
    assert_eq!(err.offset(), Some(232));
    assert_eq!(
        err.to_string(),
        "players[3].hp: invalid type: floating point `87.0`, expected i32 (byte 232)"
    );
}

#[test]
fn top_level_errors_have_no_path() {
    let bytes = godot_serde::to_bytes(&1.5).unwrap();
    let err = godot_serde::from_bytes::<i32>(&bytes).unwrap_err();
    assert_eq!(err.path(), None);
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `1.5`, expected i32 (byte 0)"
    );
}

#[test]
fn nested_arrays() {
    let bytes = godot_serde::to_bytes(&vec![vec![1, 2], vec![3, 300, 5]]).unwrap();
    let err = both::<Vec<Vec<u8>>>(&bytes);
    assert_eq!(err.path().as_deref(), Some("[1][1]"));
    assert!(
        err.to_string()
            .starts_with("[1][1]: invalid value: integer `300`, expected u8"),
        "{err}"
    );
}

#[test]
fn packed_array_elements() {
    let bytes = godot_serde::to_bytes(&godot_serde::PackedInt32Array(vec![1, 2, -3])).unwrap();
    let err = both::<Vec<u32>>(&bytes);
    assert_eq!(err.path().as_deref(), Some("[2]"));
}

#[test]
fn map_keys_from_a_slice() {
    // String keys: `.name` when it reads as an identifier, `["text"]` otherwise.
    let mut scores = BTreeMap::new();
    scores.insert("two words", vec![1.0, 2.5]);
    let mut outer = BTreeMap::new();
    outer.insert("scores", scores);
    let bytes = godot_serde::to_bytes(&outer).unwrap();
    let err =
        godot_serde::from_bytes::<HashMap<String, HashMap<String, Vec<i32>>>>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("scores[\"two words\"][0]"));
    // Int keys: `[n]`.
    let mut by_id = BTreeMap::new();
    by_id.insert(7, "x");
    let bytes = godot_serde::to_bytes(&by_id).unwrap();
    let err = godot_serde::from_bytes::<BTreeMap<i32, i32>>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("[7]"));
}

#[test]
fn map_keys_from_a_reader() {
    // A reader's bytes are gone when the value fails: the key is named by where it starts
    // (Dictionary header + count: byte 8). Struct fields keep their names (see above).
    let mut by_name = BTreeMap::new();
    by_name.insert("a", "x");
    let bytes = godot_serde::to_bytes(&by_name).unwrap();
    let err = godot_serde::from_reader::<_, BTreeMap<String, i32>>(&bytes[..]).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("[key at byte 8]"));
    let err = godot_serde::from_bytes::<BTreeMap<String, i32>>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("a"));
}

#[test]
fn godot3_paths() {
    let config = Config::godot3();
    let bytes = config
        .to_bytes(&vec![vec![true], vec![false, true]])
        .unwrap();
    let err = config.from_bytes::<Vec<(bool, bool)>>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("[0]"), "{err}");
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Msg {
    Chat(String),
    Move { to: (i32, i32) },
}

#[test]
fn enum_variants() {
    // {"Chat": 42}, as Godot's put_var({"Chat": 42}) sends it.
    let mut chat = BTreeMap::new();
    chat.insert("Chat", 42);
    let bytes = godot_serde::to_bytes(&chat).unwrap();
    let err = godot_serde::from_bytes::<Msg>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("Chat"));
    assert!(
        err.to_string()
            .starts_with("Chat: invalid type: integer `42`, expected a string"),
        "{err}"
    );
    // {"Move": {"to": [1, "x"]}}
    let mut to = BTreeMap::new();
    to.insert("to", (1, "x"));
    let mut mv = BTreeMap::new();
    mv.insert("Move", to);
    let bytes = godot_serde::to_bytes(&mv).unwrap();
    let err = godot_serde::from_bytes::<Msg>(&bytes).unwrap_err();
    assert_eq!(err.path().as_deref(), Some("Move.to[1]"));
}
