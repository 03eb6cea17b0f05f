//! The CLI's integration tests, one test binary (`cargo test --test suite`): each former
//! `tests/<name>.rs` is the module `<name>` here, so `cargo test --test suite -- <name>::` runs
//! one of them.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
// The library's one lookup of the engine ($GODOT3, else godot3-server on PATH) and loud skip.
use godot_serde_test_support::engine;

mod bots;
mod cli;
mod containers;
mod debug_run;
mod godot3_engine;
mod json_mapping;
mod malformed;
mod pck;
mod resource;
mod resource_convert;
mod untrusted;
