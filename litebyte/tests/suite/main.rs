//! litebyte's integration tests, one test binary (`cargo test --test suite`): each former
//! `tests/<name>.rs` is the module `<name>` here, so `cargo test --test suite -- <name>::` runs
//! one of them. The global allocator is `heap::Tracking`, which counts per thread, so each
//! replayed decode is held to its heap budget while other tests run. `tests/heap/` holds
//! `alloc`, whose process-wide counter needs a binary of its own.

#[path = "../common/fuzz_check.rs"]
mod fuzz_check;
#[path = "../../../tests/common/heap.rs"]
mod heap;

/// Counts, per thread, the heap each test holds.
#[global_allocator]
static HEAP: heap::Tracking = heap::Tracking;

mod fixtures;
mod fuzz_replay;
mod props;
mod schema;
mod typed;
