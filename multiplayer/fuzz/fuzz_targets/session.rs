//! Packets of every command, forged or not, through the parser and a session.
#![no_main]

#[path = "../../tests/common/fuzz_body.rs"]
mod fuzz_body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_body::session(data));
