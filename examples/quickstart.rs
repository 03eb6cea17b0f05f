//! Encodes a game state for Godot 4 and Godot 3, prints the annotated bytes of each, and
//! decodes them back.
//!
//! Run with `cargo run --example quickstart`.

use godot_serde::{Config, PackedStringArray, Variant, Vector2, Vector3};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Team {
    Red,
    Blue,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Item {
    name: String,
    count: u32,
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

fn main() -> Result<(), godot_serde::Error> {
    let player = Player {
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
    };

    for (engine, config) in [
        ("Godot 4 (var_to_bytes)", Config::godot4()),
        ("Godot 3 (var2bytes)", Config::godot3()),
    ] {
        let bytes = config.to_bytes(&player)?;
        println!("== {engine}: {} bytes", bytes.len());
        println!("{}", godot_serde::dump::annotate(&bytes, config));
        let back: Player = config.from_bytes(&bytes)?;
        assert_eq!(back, player);
        let dynamic: Variant = config.from_bytes(&bytes)?;
        if config.version().is_godot4() {
            println!("as GDScript sees it (var_to_str):\n{dynamic}\n");
        } else {
            println!(
                "as GDScript sees it (var2str):\n{}\n",
                dynamic.to_godot3_string()
            );
        }
    }
    println!("decoded back: {player:?}");
    Ok(())
}
