//! Support for the workspace's engine tests, a dev-dependency of each crate's test suite:
//!
//! - [`engine`]: the one lookup of Godot 3 (`$GODOT3`, else `godot3-server`) and Godot 4
//!   (`$GODOT4`, else `godot4`), the loud skip without them, throw-away projects to run a
//!   GDScript in ([`engine::Godot4Project`], [`engine::Godot3Project`]), each holding the shared
//!   GDScript harness of its engine as `res://harness.gd` (`gdscript/`, see README.md).
//! - [`inputs`]: hand-built hostile inputs that more than one crate's tests decode.
//! - [`summary`]: every engine lookup of a test records whether the test ran against an
//!   engine or skipped; the test binary's last line says how many did which, and the last line
//!   of a whole `cargo test` totals every binary of the run (`rustdoc-then-engines`).

pub mod engine;
pub mod inputs;
pub mod summary;
