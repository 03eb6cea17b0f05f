//! Migrates a Godot 3 save file to Godot 4.
//!
//! A Godot 3 game that saved with `File.store_var` wrote length-prefixed values in the Godot 3
//! layout; Godot 4's `FileAccess.get_var` expects the Godot 4 layout (other type ids:
//! Vector3 is 7 in Godot 3 and 9 in Godot 4, Array 19 and 28, ...). This reads every value as
//! Godot 3 and writes it again as Godot 4. `Transform` becomes `Transform3D`, `Quat`
//! `Quaternion`, `Pool*Array` `Packed*Array`, all without loss.
//!
//! What cannot carry over is reported and replaced by `null`:
//! - an RID: Godot 3 writes no id for it at all, and a resource id is only valid in the
//!   process that made it anyway;
//! - an object stored as its instance id (`store_var(node)`): the id names an object of the
//!   process that saved, not of the one loading;
//! - a full object (`store_var(obj, true)`): its class and properties are Godot 3's (many
//!   classes were renamed in Godot 4, e.g. `Spatial` → `Node3D`), so it needs a migration of
//!   its own.
//!
//! A value that does not decode at all is reported and skipped. The logic is the library's
//! `godot_serde::migrate` module; the `godot-serde convert` command does the same from a shell.
//!
//! ```sh
//! cargo run --example migrate_save -- examples/data/godot3_save.dat godot4_save.dat
//! ```
//!
//! `examples/data/godot3_save.dat` was written by a real Godot 3.2.3 engine with
//! `examples/data/make_godot3_save.gd`.

use godot_serde::migrate::migrate;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let input = args
        .next()
        .unwrap_or_else(|| "examples/data/godot3_save.dat".to_owned());
    let output = args.next().map_or_else(
        || std::env::temp_dir().join("godot4_save.dat"),
        std::path::PathBuf::from,
    );
    let godot3 = std::fs::read(&input)?;
    let (godot4, values, problems) = migrate(&godot3);
    std::fs::write(&output, &godot4)?;

    for (i, value) in values.iter().enumerate() {
        println!("value {i}: {value}");
    }
    println!(
        "{} values migrated from {input} ({} bytes, Godot 3) to {} ({} bytes, Godot 4)",
        values.len(),
        godot3.len(),
        output.display(),
        godot4.len()
    );
    if problems.is_empty() {
        println!("everything converted");
    } else {
        println!("{} values could not convert:", problems.total());
        for p in &problems {
            println!("  {p}");
        }
        if problems.unlisted() > 0 {
            println!("  ... and {} more", problems.unlisted());
        }
    }
    Ok(())
}
