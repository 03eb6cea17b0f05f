//! Fuzz target `roundtrip_text`: see `tests/common/text_roundtrip.rs` (shared with `tests/suite/text_fuzz_replay.rs`).
#![no_main]

#[path = "../../tests/common/text_roundtrip.rs"]
mod text_roundtrip;

libfuzzer_sys::fuzz_target!(|data: &[u8]| text_roundtrip::roundtrip_text(data));
