//! Fuzz target `container_encrypted`: see `container_fuzz::encrypted` (shared with
//! `tests/suite/container_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/container_fuzz.rs"]
mod container_fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| container_fuzz::encrypted(data));
