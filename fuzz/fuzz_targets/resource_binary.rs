//! Fuzz target `resource_binary`: see `resource_fuzz::resource_binary` (shared with
//! `tests/suite/resource_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/resource_fuzz.rs"]
mod resource_fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| resource_fuzz::resource_binary(data));
