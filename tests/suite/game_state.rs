//! A derived, nested game-state type encodes to exactly what Godot 3.2.3's `var2bytes` wrote
//! for the same Dictionary (tests/godot3/game_state.gd → tests/fixtures/godot3/game_state.hex),
//! and decodes back from the engine's bytes.
use crate::common;
use common::*;
use godot_serde::{
    Basis, Color, Config, NodePath, PackedByteArray, PackedFloat32Array, PackedInt32Array,
    PackedStringArray, Quaternion, Rect2, Transform2D, Transform3D, Variant, Vector2, Vector3,
};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Item {
    name: String,
    count: u32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Team {
    Red,
    Blue,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    id: u32,
    name: String,
    team: Team,
    position: Vector2,
    hp: f32,
    items: Vec<Item>,
    tags: PackedStringArray,
    target: Option<Vector3>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct State {
    tick: u64,
    players: Vec<Player>,
    spawn: Vector3,
    bounds: Rect2,
    tint: Color,
    path: NodePath,
    heights: PackedFloat32Array,
    ids: PackedInt32Array,
    blob: PackedByteArray,
    rot: Quaternion,
    xf: Transform3D,
    xf2: Transform2D,
    ratio: f64,
}

fn state() -> State {
    State {
        tick: 4_000_000_000,
        players: vec![Player {
            id: 7,
            name: "Ada".into(),
            team: Team::Blue,
            position: Vector2::new(1.5, -2.0),
            hp: 87.5,
            items: vec![Item {
                name: "potion".into(),
                count: 3,
            }],
            tags: PackedStringArray(vec!["admin".into()]),
            target: None,
        }],
        spawn: Vector3::new(1.0, 2.0, 3.0),
        bounds: Rect2::new(Vector2::new(0.0, 0.0), Vector2::new(64.0, 32.0)),
        tint: Color::new(1.0, 0.5, 0.25, 1.0),
        path: "/root/Main:position".parse().unwrap(),
        heights: PackedFloat32Array(vec![0.5, 1.5]),
        ids: PackedInt32Array(vec![1, -2]),
        blob: PackedByteArray(vec![1, 2, 3]),
        rot: Quaternion::new(0.0, 0.0, 0.0, 1.0),
        // GDScript `Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))` takes axes.
        xf: Transform3D::new(
            Basis::from_axes(
                Vector3::new(1.0, 2.0, 3.0),
                Vector3::new(4.0, 5.0, 6.0),
                Vector3::new(7.0, 8.0, 9.0),
            ),
            Vector3::new(10.0, 11.0, 12.0),
        ),
        xf2: Transform2D::new(
            Vector2::new(1.0, 2.0),
            Vector2::new(3.0, 4.0),
            Vector2::new(5.0, 6.0),
        ),
        ratio: 0.1,
    }
}

fn engine_bytes() -> Vec<u8> {
    hex(include_str!("../fixtures/godot3/game_state.hex"))
}

#[test]
fn derived_game_state_encodes_like_godot3_var2bytes() {
    // "/root/Main:position" has names of 4, 4 and 8 bytes: no NodePath padding to mask.
    let ours = Config::godot3().to_bytes(&state()).unwrap();
    assert_eq!(to_hex(&ours), to_hex(&engine_bytes()));
}

#[test]
fn engine_game_state_decodes_into_the_derived_type_and_variant() {
    let back: State = Config::godot3().from_bytes(&engine_bytes()).unwrap();
    assert_eq!(back, state());
    let v: Variant = Config::godot3().from_bytes(&engine_bytes()).unwrap();
    assert_eq!(v["players"][0]["name"].as_str(), Some("Ada"));
    assert_eq!(Config::godot3().to_bytes(&v).unwrap(), engine_bytes());
}

#[test]
fn game_state_round_trips_for_every_godot4_layout() {
    for config in GODOT4 {
        let bytes = config.to_bytes(&state()).unwrap();
        assert_eq!(config.from_bytes::<State>(&bytes).unwrap(), state());
        let v: Variant = config.from_bytes(&bytes).unwrap();
        assert_eq!(config.to_bytes(&v).unwrap(), bytes);
        // Godot 4 ids: the top level is a Dictionary (27), and Godot 3's 18 appears nowhere
        // as a header here.
        assert_eq!(&bytes[..4], &[27, 0, 0, 0]);
    }
}
