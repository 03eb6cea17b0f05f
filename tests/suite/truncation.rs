//! Every cut of a valid value is an end of input (`Error::is_eof`), from a slice and from a
//! reader, in both engine layouts.
use godot_serde::{
    Color, Config, NodePath, PackedFloat32Array, PackedStringArray, PackedVector3Array, Variant,
    Vector2, Vector3,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum State {
    Idle,
    Moving { to: Vector2 },
    Chat(String),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Player {
    id: u32,
    name: String,
    hp: f64,
    position: Vector3,
    color: Color,
    state: State,
    guild: Option<String>,
    inventory: Vec<(String, i64)>,
    tags: PackedStringArray,
    #[serde(with = "serde_bytes")]
    avatar: Vec<u8>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct World {
    name: String,
    players: Vec<Player>,
    heights: PackedFloat32Array,
    path: Vec<Vector3>,
    points: PackedVector3Array,
    scores: BTreeMap<String, i32>,
    spawn: NodePath,
    extra: Variant,
}

fn world() -> World {
    let player = |i: u32| Player {
        id: i,
        name: format!("player {i}"),
        hp: 87.5,
        position: Vector3::new(1.0, 2.0, 3.0),
        color: Color::new(1.0, 0.5, 0.25, 1.0),
        state: match i {
            0 => State::Idle,
            1 => State::Moving {
                to: Vector2::new(4.0, 5.0),
            },
            _ => State::Chat("hi".into()),
        },
        guild: (i == 1).then(|| "red".to_string()),
        inventory: vec![("sword".into(), 1), ("gold".into(), 1 << 40)],
        tags: PackedStringArray(vec!["a".into(), "bc".into()]),
        avatar: vec![1, 2, 3, 4, 5],
    };
    World {
        name: "arena".into(),
        players: (0..3).map(player).collect(),
        heights: PackedFloat32Array(vec![0.5, 1.5, 2.5]),
        path: vec![Vector3::new(0.0, 1.0, 0.0)],
        points: PackedVector3Array(vec![Vector3::new(1.0, 1.0, 1.0)]),
        scores: [("a".to_string(), 1), ("b".to_string(), -2)].into(),
        spawn: NodePath::from("/root/Spawn:position"),
        extra: Variant::from(vec![Variant::from(1), Variant::from("x")]),
    }
}

fn every_cut_is_eof(config: Config) {
    let bytes = config.to_bytes(&world()).unwrap();
    assert_eq!(config.from_bytes::<World>(&bytes).unwrap(), world());
    let mut wrong = Vec::new();
    for n in 0..bytes.len() {
        let cut = &bytes[..n];
        let slice = config.take_from_bytes::<World>(cut).unwrap_err();
        let reader = config.from_reader::<_, World>(cut).unwrap_err();
        if !slice.is_eof() || !reader.is_eof() {
            wrong.push(format!("{n}: slice {slice} / reader {reader}"));
        }
        let variant = config.take_from_bytes::<Variant>(cut).unwrap_err();
        if !variant.is_eof() {
            wrong.push(format!("{n}: Variant {variant}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cuts are not an end of input:\n{}",
        wrong.len(),
        bytes.len(),
        wrong.join("\n")
    );
}

#[test]
fn every_cut_is_eof_godot4() {
    every_cut_is_eof(Config::godot4());
}

#[test]
fn every_cut_is_eof_godot3() {
    every_cut_is_eof(Config::godot3());
}

#[test]
fn every_cut_is_eof_godot4_typed_double() {
    every_cut_is_eof(
        Config::godot4()
            .with_typed_containers(true)
            .with_double_precision(true),
    );
}
