//! Bytes from a game through the debugger's frame reader and session (body and seed replay in
//! ../tests/suite/fuzz_frames.rs).
#![no_main]

#[path = "../../tests/suite/fuzz_frames.rs"]
mod fuzz_frames;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzz_frames::frames(data);
});
