//! Fuzzes the LiteByte decoders (typed and schema-driven) with the shared check.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/fuzz_check.rs"]
mod fuzz_check;

fuzz_target!(|data: &[u8]| {
    fuzz_check::check(data);
});
