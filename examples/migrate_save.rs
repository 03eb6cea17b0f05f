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
//! A value that does not decode at all is reported and skipped.
//!
//! ```sh
//! cargo run --example migrate_save -- examples/data/godot3_save.dat godot4_save.dat
//! ```
//!
//! `examples/data/godot3_save.dat` was written by a real Godot 3.2.3 engine with
//! `examples/data/make_godot3_save.gd`.

use godot_serde::save::{SaveReader, SaveWriter};
use godot_serde::{Config, Variant};
use std::fmt;

/// A value that could not be carried over as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Which value of the file (0 = the first `store_var`).
    pub value: usize,
    /// Where in the value, e.g. `["world"]["navmesh"]` (empty for the value itself).
    pub path: String,
    /// What was found and what was done.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value {}{}: {}", self.value, self.path, self.what)
    }
}

/// Reads a Godot 3 `store_var` file and returns the Godot 4 file, the migrated values and
/// the problems found.
pub fn migrate(godot3_file: &[u8]) -> (Vec<u8>, Vec<Variant>, Vec<Problem>) {
    // Full objects are read as plain data (class name and properties); nothing is
    // instantiated, so allowing them is safe here.
    let mut reader = SaveReader::new(godot3_file, Config::godot3().with_allow_objects(true));
    let mut writer = SaveWriter::new(Vec::new(), Config::godot4());
    let mut values = Vec::new();
    let mut problems = Vec::new();
    loop {
        let index = reader.index();
        let mut value = match reader.next_variant() {
            Ok(Some(value)) => value,
            Ok(None) => break,
            Err(e) => {
                problems.push(Problem {
                    value: index,
                    path: String::new(),
                    what: format!("cannot be read, skipped: {e}"),
                });
                continue;
            }
        };
        let mut path = String::new();
        fix(&mut value, &mut path, &mut |path, what| {
            problems.push(Problem {
                value: index,
                path: path.to_owned(),
                what,
            })
        });
        match writer.write(&value) {
            Ok(()) => values.push(value),
            Err(e) => problems.push(Problem {
                value: index,
                path: String::new(),
                what: format!("cannot be written for Godot 4, skipped: {e}"),
            }),
        }
    }
    (writer.into_inner(), values, problems)
}

/// Replaces what cannot carry over by null, reporting each.
fn fix(value: &mut Variant, path: &mut String, report: &mut dyn FnMut(&str, String)) {
    let what = match value {
        Variant::Rid(_) => "RID (Godot 3 stores no id; resource ids are per process)".to_owned(),
        Variant::ObjectId(id) => format!(
            "object stored as instance id {} (ids are per process)",
            id.0
        ),
        Variant::Object(obj) => format!(
            "full {} object (Godot 3 class and properties; migrate it separately)",
            obj.class
        ),
        Variant::Array(array) => {
            for (i, item) in array.iter_mut().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                fix(item, path, report);
                path.truncate(len);
            }
            return;
        }
        Variant::Dictionary(dict) => {
            for (key, item) in dict.iter_mut() {
                let len = path.len();
                path.push_str(&format!("[{key}]"));
                if matches!(
                    key,
                    Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_)
                ) {
                    report(
                        path,
                        format!("key {key} kept as is, but it means nothing in Godot 4"),
                    );
                }
                fix(item, path, report);
                path.truncate(len);
            }
            return;
        }
        _ => return,
    };
    report(path, format!("{what}: replaced by null"));
    *value = Variant::Nil;
}

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
        println!("{} values could not convert:", problems.len());
        for p in &problems {
            println!("  {p}");
        }
    }
    Ok(())
}
