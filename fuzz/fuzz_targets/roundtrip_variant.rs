//! Fuzz target `roundtrip_variant`: see `fuzz_checks::roundtrip_variant` (shared with `tests/fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::roundtrip_variant(data));
