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
//! # Limits
//!
//! A save is untrusted input, and what it makes a migration hold is bounded by its size: the
//! first [`DEFAULT_MAX_LISTED`] (1 000) problems are listed in full, the rest only counted
//! ([`Problems::unlisted`]); a Dictionary key shows in a path as its first [`MAX_KEY_LABEL`]
//! (40) characters; and problems under one container share the path above it
//! ([`ValuePath`]) instead of each holding a copy. A 278 KB save of one 256 KiB key over
//! 4 000 RIDs takes about 1 × its size of heap in migration, on top of the decoded values,
//! not the 1 GB that a copied path per problem took.
//!
//! ```
//! use godot_serde::{Config, Variant, migrate::{migrate, migrate_variant}};
//!
//! // One value: a Godot 3 Array holding an RID.
//! let mut value = Config::godot3().from_bytes::<Variant>(&[19, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0])?;
//! let problems = migrate_variant(&mut value, 0);
//! assert_eq!(problems.listed()[0].to_string(), "value 0[0]: RID (Godot 3 stores no id; resource ids are per process): replaced by null");
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
use std::sync::Arc;

/// How many problems a [`Problems`] lists by default; past it, problems are only counted
/// ([`Problems::unlisted`]).
pub const DEFAULT_MAX_LISTED: usize = 1_000;

/// How many characters of a Dictionary key's text form a path shows; a longer key is cut
/// there and ends with `…`.
pub const MAX_KEY_LABEL: usize = 40;

/// A value that could not be carried over as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Which value of the file or stream (0 = the first `store_var`).
    pub value: usize,
    /// Where in the value, e.g. `["world"]["navmesh"]` (empty for the value itself).
    pub path: ValuePath,
    /// What was found and what was done.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value {}{}: {}", self.value, self.path, self.what)
    }
}

/// Where a [`Problem`] is inside its value: Array indices and Dictionary keys from the value
/// down, printed as `["world"][3]` (empty for the value itself).
///
/// Problems under the same container share the steps above them instead of each holding a
/// copy: a path costs one step of at most [`MAX_KEY_LABEL`] characters per container that
/// holds a listed problem, whatever the number of problems in it and the length of its keys.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ValuePath(Option<Arc<Step>>);

/// One step of a [`ValuePath`] and the path it continues.
#[derive(PartialEq, Eq)]
struct Step {
    parent: ValuePath,
    label: Label,
}

#[derive(PartialEq, Eq)]
enum Label {
    /// `[3]`.
    Index(usize),
    /// `[key]`: the key's text form, cut at [`MAX_KEY_LABEL`] characters.
    Key(Box<str>),
}

impl ValuePath {
    /// Whether this is the value itself (no step).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    fn child(&self, label: Label) -> ValuePath {
        ValuePath(Some(Arc::new(Step {
            parent: self.clone(),
            label,
        })))
    }

    /// The steps from the value down.
    fn steps(&self) -> Vec<&Label> {
        let mut steps = Vec::new();
        let mut at = self;
        while let Some(step) = &at.0 {
            steps.push(&step.label);
            at = &step.parent;
        }
        steps.reverse();
        steps
    }
}

impl fmt::Display for ValuePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for label in self.steps() {
            match label {
                Label::Index(i) => write!(f, "[{i}]")?,
                Label::Key(key) => write!(f, "[{key}]")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ValuePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl PartialEq<str> for ValuePath {
    /// Whether the path prints as `other` (compared as it prints, without building the text).
    fn eq(&self, other: &str) -> bool {
        /// The part of the expected text not yet matched.
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(other);
        write!(rest, "{self}").is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for ValuePath {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl Drop for Step {
    /// Unlinks the steps above one by one: a path as deep as its value (thousands of steps
    /// when `max_depth` allows) is dropped without a recursion per step.
    fn drop(&mut self) {
        let mut parent = self.parent.0.take();
        while let Some(step) = parent {
            match Arc::try_unwrap(step) {
                Ok(mut step) => parent = step.parent.0.take(),
                // Still shared: whoever holds it drops the rest.
                Err(_) => break,
            }
        }
    }
}

/// The problems a migration found: the first [`max_listed`](Problems::with_max_listed)
/// ([`DEFAULT_MAX_LISTED`] by default) in full, and how many more there were.
///
/// The cap bounds what hostile input can make a migration hold and print: a save with
/// millions of RIDs gives a thousand problems and a count, not millions of messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems {
    listed: Vec<Problem>,
    unlisted: usize,
    max_listed: usize,
}

impl Problems {
    /// No problems yet, listing up to [`DEFAULT_MAX_LISTED`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_max_listed(DEFAULT_MAX_LISTED)
    }

    /// No problems yet, listing up to `max_listed` (the rest are counted).
    #[must_use]
    pub const fn with_max_listed(max_listed: usize) -> Self {
        Problems {
            listed: Vec::new(),
            unlisted: 0,
            max_listed,
        }
    }

    /// The problems listed, in the order they were found.
    #[must_use]
    pub fn listed(&self) -> &[Problem] {
        &self.listed
    }

    /// How many problems were found past the ones listed.
    #[must_use]
    pub const fn unlisted(&self) -> usize {
        self.unlisted
    }

    /// How many problems were found, listed or not.
    #[must_use]
    pub fn total(&self) -> usize {
        self.listed.len().saturating_add(self.unlisted)
    }

    /// Whether no problem was found.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The listed problems.
    pub fn iter(&self) -> core::slice::Iter<'_, Problem> {
        self.listed.iter()
    }

    /// Whether the next problem is only counted.
    fn full(&self) -> bool {
        self.listed.len() >= self.max_listed
    }

    /// Lists the problem `make` describes, or only counts it once the list is full.
    fn push(&mut self, make: impl FnOnce() -> Problem) {
        if self.full() {
            self.unlisted = self.unlisted.saturating_add(1);
        } else {
            self.listed.push(make());
        }
    }
}

impl Default for Problems {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> IntoIterator for &'a Problems {
    type Item = &'a Problem;
    type IntoIter = core::slice::Iter<'a, Problem>;

    fn into_iter(self) -> Self::IntoIter {
        self.listed.iter()
    }
}

/// Makes a value decoded as Godot 3 fit for Godot 4 in place, replacing what cannot carry over
/// by `null`, and returns the problems found (`index` is the value's number in its file).
pub fn migrate_variant(value: &mut Variant, index: usize) -> Problems {
    let mut problems = Problems::new();
    migrate_variant_into(value, index, &mut problems);
    problems
}

/// [`migrate_variant`], adding the problems to `problems` (one list, and one cap, for the
/// values of a whole file or stream).
pub fn migrate_variant_into(value: &mut Variant, index: usize, problems: &mut Problems) {
    fix(value, &ValuePath::default(), index, problems);
}

/// Reads a Godot 3 `store_var` file and returns the Godot 4 file, the migrated values and
/// the problems found. A value that does not decode, or cannot be written for Godot 4, is
/// reported and skipped; a framing error (a truncated file) is reported and ends the file.
#[must_use]
pub fn migrate(godot3_file: &[u8]) -> (Vec<u8>, Vec<Variant>, Problems) {
    // Full objects are read as plain data (class name and properties); nothing is
    // instantiated, so allowing them is safe here.
    let mut reader = SaveReader::new(godot3_file, Config::godot3().with_allow_objects(true));
    let mut writer = SaveWriter::new(Vec::new(), Config::godot4());
    let mut values = Vec::new();
    let mut problems = Problems::new();
    loop {
        let index = reader.index();
        let mut value = match reader.next_variant() {
            Ok(Some(value)) => value,
            Ok(None) => break,
            Err(e) => {
                problems.push(|| Problem {
                    value: index,
                    path: ValuePath::default(),
                    what: format!("cannot be read, skipped: {e}"),
                });
                continue;
            }
        };
        migrate_variant_into(&mut value, index, &mut problems);
        match writer.write(&value) {
            Ok(()) => values.push(value),
            Err(e) => problems.push(|| Problem {
                value: index,
                path: ValuePath::default(),
                what: format!("cannot be written for Godot 4, skipped: {e}"),
            }),
        }
    }
    (writer.into_inner(), values, problems)
}

/// Replaces what cannot carry over by null, reporting each. A step is added to `path` only
/// for an item that may hold a problem, and only while problems are still listed.
fn fix(value: &mut Variant, path: &ValuePath, index: usize, problems: &mut Problems) {
    let what = match value {
        Variant::Rid(_) => "RID (Godot 3 stores no id; resource ids are per process)".to_owned(),
        Variant::ObjectId(id) => format!(
            "object stored as instance id {} (ids are per process)",
            id.0
        ),
        Variant::Object(obj) => format!(
            "full {} object (Godot 3 class and properties; migrate it separately)",
            Elided(&obj.class)
        ),
        Variant::Array(array) => {
            for (i, item) in array.iter_mut().enumerate() {
                if may_hold_problems(item) {
                    let path = step(path, problems, || Label::Index(i));
                    fix(item, &path, index, problems);
                }
            }
            return;
        }
        Variant::Dictionary(dict) => {
            for (key, item) in dict.iter_mut() {
                let bad_key = matches!(
                    key,
                    Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_)
                );
                if !bad_key && !may_hold_problems(item) {
                    continue;
                }
                let path = step(path, problems, || Label::Key(key_label(key)));
                if bad_key {
                    problems.push(|| Problem {
                        value: index,
                        what: format!(
                            "key {} kept as is, but it means nothing in Godot 4",
                            key_label(key)
                        ),
                        path: path.clone(),
                    });
                }
                fix(item, &path, index, problems);
            }
            return;
        }
        _ => return,
    };
    problems.push(|| Problem {
        value: index,
        path: path.clone(),
        what: format!("{what}: replaced by null"),
    });
    *value = Variant::Nil;
}

/// Whether `value` is, or may contain, something [`fix`] reports.
fn may_hold_problems(value: &Variant) -> bool {
    matches!(
        value,
        Variant::Rid(_)
            | Variant::ObjectId(_)
            | Variant::Object(_)
            | Variant::Array(_)
            | Variant::Dictionary(_)
    )
}

/// `path` and one more step; once problems are only counted, `path` itself (no allocation:
/// the path of an unlisted problem is never shown).
fn step(path: &ValuePath, problems: &Problems, label: impl FnOnce() -> Label) -> ValuePath {
    if problems.full() {
        path.clone()
    } else {
        path.child(label())
    }
}

/// A Dictionary key as it appears in a path: its text form on one line (`"name"`, `3`,
/// `Vector2(1, 2)`), cut at [`MAX_KEY_LABEL`] characters, with short names for the keys that
/// cannot carry over.
fn key_label(key: &Variant) -> Box<str> {
    let mut label = Bounded::default();
    // An error only says the label is full.
    let _ = match key {
        Variant::Rid(rid) => write!(label, "RID {}", rid.0),
        Variant::ObjectId(id) => write!(label, "instance id {}", id.0),
        Variant::Object(obj) => write!(label, "{} object", obj.class),
        other => write!(label, "{other}"),
    };
    label.finish().into_boxed_str()
}

/// Text shown in a message, cut as a key label is.
struct Elided<'a>(&'a str);

impl fmt::Display for Elided<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Bounded::default();
        let _ = text.write_str(self.0);
        f.write_str(&text.finish())
    }
}

/// A text writer that keeps [`MAX_KEY_LABEL`] characters on one line and refuses the rest, so
/// that printing a long key stops early instead of building its whole text.
#[derive(Default)]
struct Bounded {
    text: String,
    chars: usize,
    cut: bool,
}

impl Bounded {
    fn finish(mut self) -> String {
        if self.cut {
            self.text.push('…');
        }
        self.text
    }
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            if self.chars == MAX_KEY_LABEL {
                self.cut = true;
                return Err(fmt::Error);
            }
            // The text form breaks lines only between elements (newlines in strings are
            // escaped).
            self.text.push(if c == '\n' { ' ' } else { c });
            self.chars += 1;
        }
        Ok(())
    }
}
