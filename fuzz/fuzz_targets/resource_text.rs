//! Fuzz target `resource_text`: see `resource_text_fuzz::resource_text` (shared with
//! `tests/suite/resource_text_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/resource_text_fuzz.rs"]
mod resource_text_fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| resource_text_fuzz::resource_text(data));
