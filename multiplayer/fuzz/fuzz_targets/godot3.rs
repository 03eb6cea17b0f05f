//! Godot 3.2.3 packets of every command (and ENet headers, system messages), forged or not,
//! through the parsers and a session.
#![no_main]

#[path = "../../tests/common/fuzz_godot3.rs"]
mod fuzz_godot3;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_godot3::session(data));
