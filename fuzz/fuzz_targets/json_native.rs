//! Fuzz target `json_native`: see `tests/common/json_fuzz.rs` (shared with `tests/suite/json_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/json_fuzz.rs"]
mod json_fuzz;

/// Counts the heap so each decode is held to its budget (`json_fuzz::heap`).
#[global_allocator]
static HEAP: json_fuzz::heap::Tracking = json_fuzz::heap::Tracking;

libfuzzer_sys::fuzz_target!(|data: &[u8]| json_fuzz::json_native(data));
