//! Fuzz target `slice_vs_reader`: see `fuzz_checks::slice_vs_reader` (shared with `tests/suite/fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

/// Counts the heap so each decode is held to its budget (`fuzz_checks::heap`).
#[global_allocator]
static HEAP: fuzz_checks::heap::Tracking = fuzz_checks::heap::Tracking;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::slice_vs_reader(data));
