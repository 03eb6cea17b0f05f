//! Edits a save written with `FileAccess.open_encrypted_with_pass` + `store_var`: decrypts it,
//! changes a value, and writes it back encrypted the same way (same engine layout, password).
//!
//! ```sh
//! cargo run --example edit_encrypted_save --features crypto -- SAVE PASSWORD [--godot3]
//! ```
//!
//! Without arguments it first writes a demo save (what the GDScript below writes) to a
//! temporary file and edits that:
//!
//! ```gdscript
//! var f = FileAccess.open_encrypted_with_pass("user://save.bin", FileAccess.WRITE, "secret")
//! f.store_var({"name": "hero", "gold": 120, "level": 3})
//! f.store_var([Vector2(1, 2), Vector2(3, 4)])
//! ```
//!
//! The first value's `"gold"` gains 1000. The engine reads the result with the same call.

use godot_serde::container::{self, Key, Layout, Limits, Wrapping};
use godot_serde::save::{SaveReader, SaveWriter};
use godot_serde::{Config, Variant, Vector2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let godot3 = args.iter().any(|a| a == "--godot3");
    let config = if godot3 {
        Config::godot3()
    } else {
        Config::godot4()
    };
    let (path, password) = match (args.first(), args.get(1)) {
        (Some(path), Some(pw)) if !path.starts_with("--") => (path.into(), pw.clone()),
        _ => (demo_save(config)?, "secret".to_owned()),
    };
    let key = Key::from_password(&password);

    // Decrypt (the layout, Godot 3 or 4, comes from the header) and read every value.
    let file = std::fs::read(&path)?;
    let opened = container::open(&file, Some(&key), &Limits::new())?;
    println!("{}: {}", path.display(), opened.wrapping);
    let mut values = SaveReader::new(&opened.data[..], config).read_all()?;

    // Edit: the first value's "gold".
    let gold = values
        .first_mut()
        .and_then(|v| v.get_mut("gold"))
        .ok_or("the first value has no \"gold\" key")?;
    let before = gold.as_int().unwrap_or(0);
    *gold = Variant::Int(before + 1000);
    println!("gold: {before} -> {}", before + 1000);

    // Write back: the same values, encrypted the same way (a fresh IV for Godot 4).
    let mut plain = Vec::new();
    let mut writer = SaveWriter::new(&mut plain, config);
    for v in &values {
        writer.write(v)?;
    }
    let sealed = container::seal(&plain, &opened.wrapping, Some(&key))?;
    std::fs::write(&path, sealed)?;
    println!("wrote {} values back to {}", values.len(), path.display());
    Ok(())
}

/// Writes the demo save of the module docs to a temporary file.
fn demo_save(config: Config) -> Result<std::path::PathBuf, godot_serde::Error> {
    let mut plain = Vec::new();
    let mut writer = SaveWriter::new(&mut plain, config);
    let player: godot_serde::Dictionary = [
        ("name", Variant::from("hero")),
        ("gold", Variant::Int(120)),
        ("level", Variant::Int(3)),
    ]
    .into_iter()
    .collect();
    writer.write(&Variant::Dictionary(player))?;
    writer.write(&Variant::from(vec![
        Variant::Vector2(Vector2::new(1.0, 2.0)),
        Variant::Vector2(Vector2::new(3.0, 4.0)),
    ]))?;
    let layout = Layout::from(config.version());
    let file = container::seal(
        &plain,
        &Wrapping::Encrypted(layout),
        Some(&Key::from_password("secret")),
    )?;
    let path = std::env::temp_dir().join("godot_serde_demo_save.bin");
    std::fs::write(&path, file)?;
    Ok(path)
}
