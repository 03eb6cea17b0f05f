//! Body of the fuzz target `resource_binary` (`fuzz/fuzz_targets/resource_binary.rs`),
//! replayed on the stable toolchain by `tests/suite/resource_fuzz_replay.rs`.

use godot_serde::resource::{read_binary_with_info, write_binary};

/// `resource_binary`: reading a binary resource never panics; a file that reads is written
/// again with its own options; what we write reads back, and writing that again gives the
/// same bytes (a read and a write are each other's inverse after one normalisation).
pub fn resource_binary(data: &[u8]) {
    let Ok((file, info)) = read_binary_with_info(data) else {
        return;
    };
    let Ok(first) = write_binary(&file, &info.options()) else {
        // A model the writer refuses: only what the reader takes and the format cannot
        // write again (none known); the refusal itself must not panic.
        return;
    };
    let (again, again_info) = read_binary_with_info(&first)
        .unwrap_or_else(|e| panic!("our own file does not read back: {e}"));
    let second = write_binary(&again, &again_info.options())
        .unwrap_or_else(|e| panic!("our own file's model does not write: {e}"));
    assert!(first == second, "writing is not stable after one read");
}
