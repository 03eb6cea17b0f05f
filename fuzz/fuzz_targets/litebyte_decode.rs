//! Fuzzes the LiteByte decoders (typed and schema-driven) with the shared check.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/litebyte_fuzz.rs"]
mod litebyte_fuzz;

fuzz_target!(|data: &[u8]| {
    litebyte_fuzz::check(data);
});
