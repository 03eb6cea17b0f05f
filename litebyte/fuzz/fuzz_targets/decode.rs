//! Fuzzes the LiteByte decoders (typed and schema-driven) with the shared check.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/fuzz_check.rs"]
mod fuzz_check;

/// Counts the heap so each decode is held to its budget (`fuzz_check::heap`).
#[global_allocator]
static HEAP: fuzz_check::heap::Tracking = fuzz_check::heap::Tracking;

fuzz_target!(|data: &[u8]| {
    fuzz_check::check(data);
});
