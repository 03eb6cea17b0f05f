//! Fuzz target `parse_text`: see `tests/common/text_fuzz.rs` (shared with `tests/suite/text_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/text_fuzz.rs"]
mod text_fuzz;

/// Counts the heap so each decode is held to its budget (`text_fuzz::heap`).
#[global_allocator]
static HEAP: text_fuzz::heap::Tracking = text_fuzz::heap::Tracking;

libfuzzer_sys::fuzz_target!(|data: &[u8]| text_fuzz::parse_text(data));
