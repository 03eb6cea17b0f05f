//! Migrating Godot 3 data to Godot 4: decode as Godot 3, replace what cannot carry over, encode
//! as Godot 4.
//!
//! A Godot 3 game that saved with `File.store_var` (or sent with `put_var`) wrote the Godot 3
//! layout; Godot 4 expects its own (other type ids: Vector3 is 7 in Godot 3 and 9 in Godot 4,
//! Array 19 and 28, ...). Decoded into a [`Variant`], a Godot 3 value encodes for Godot 4
//! directly: `Transform` becomes `Transform3D`, `Quat` `Quaternion`, `Pool*Array`
//! `Packed*Array`, all without loss.
//!
//! What cannot carry over is reported as a [`Problem`] and replaced by `null`:
//! - an RID: Godot 3 writes no id for it at all, and a resource id is only valid in the
//!   process that made it anyway;
//! - an object stored as its instance id (`store_var(node)`): the id names an object of the
//!   process that saved, not of the one loading;
//! - a full object (`store_var(obj, true)`): its class and properties are Godot 3's (many
//!   classes were renamed in Godot 4, e.g. `Spatial` → `Node3D`), so it needs a migration of
//!   its own.
//!
//! Such values used as Dictionary keys are kept (replacing keys could merge entries) and
//! reported.
//!
//! ```
//! use godot_serde::{Config, Variant, migrate::{migrate, migrate_variant}};
//!
//! // One value: a Godot 3 Array holding an RID.
//! let mut value = Config::godot3().from_bytes::<Variant>(&[19, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0])?;
//! let problems = migrate_variant(&mut value, 0);
//! assert_eq!(problems[0].to_string(), "value 0[0]: RID (Godot 3 stores no id; resource ids are per process): replaced by null");
//! assert_eq!(godot_serde::to_bytes(&value)?, [28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
//!
//! // A whole store_var file.
//! let godot3 = godot_serde::frame::to_frame_bytes(&godot_serde::Vector3::new(1.0, 2.0, 3.0), Config::godot3())?;
//! let (godot4, values, problems) = migrate(&godot3);
//! assert_eq!(godot4[4], 9); // Vector3 is type 9 in Godot 4 (7 in Godot 3)
//! assert_eq!(values.len(), 1);
//! assert!(problems.is_empty());
//! # Ok::<(), godot_serde::Error>(())
//! ```

use crate::config::Config;
use crate::save::{SaveReader, SaveWriter};
use crate::value::Variant;
use core::fmt::{self, Write as _};

/// A value that could not be carried over as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Which value of the file or stream (0 = the first `store_var`).
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

/// Makes a value decoded as Godot 3 fit for Godot 4 in place, replacing what cannot carry over
/// by `null`, and returns the problems found (`index` is the value's number in its file).
pub fn migrate_variant(value: &mut Variant, index: usize) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut path = String::new();
    fix(value, &mut path, &mut |path, what| {
        problems.push(Problem {
            value: index,
            path: path.to_owned(),
            what,
        });
    });
    problems
}

/// Reads a Godot 3 `store_var` file and returns the Godot 4 file, the migrated values and
/// the problems found. A value that does not decode, or cannot be written for Godot 4, is
/// reported and skipped; a framing error (a truncated file) is reported and ends the file.
#[must_use]
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
        problems.extend(migrate_variant(&mut value, index));
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
                let _ = write!(path, "[{i}]");
                fix(item, path, report);
                path.truncate(len);
            }
            return;
        }
        Variant::Dictionary(dict) => {
            for (key, item) in dict.iter_mut() {
                let len = path.len();
                let label = key_label(key);
                let _ = write!(path, "[{label}]");
                if matches!(
                    key,
                    Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_)
                ) {
                    report(
                        path,
                        format!("key {label} kept as is, but it means nothing in Godot 4"),
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

/// A Dictionary key as it appears in a path: its text form on one line (`"name"`, `3`,
/// `Vector2(1, 2)`), with short names for the keys that cannot carry over.
fn key_label(key: &Variant) -> String {
    match key {
        Variant::Rid(rid) => format!("RID {}", rid.0),
        Variant::ObjectId(id) => format!("instance id {}", id.0),
        Variant::Object(obj) => format!("{} object", obj.class),
        // The text form breaks lines only between elements (newlines in strings are escaped).
        other => other.to_string().replace('\n', " "),
    }
}
