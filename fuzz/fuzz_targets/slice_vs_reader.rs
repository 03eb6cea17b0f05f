//! Fuzz target `slice_vs_reader`: see `fuzz_checks::slice_vs_reader` (shared with `tests/fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::slice_vs_reader(data));
