//! Fuzz target `pck`: see `pck_fuzz::pck` (shared with `tests/suite/pck_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/pck_fuzz.rs"]
mod pck_fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| pck_fuzz::pck(data));
