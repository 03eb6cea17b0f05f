//! The root crate's one test file that needs a process-wide heap counter (`alloc`, with
//! `peak_alloc` as the global allocator): its tests take turns, and no other test may
//! allocate beside them, so it is a binary of its own (`cargo test --test heap`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/fuzz_checks.rs"]
mod fuzz_checks;
// `fuzz_checks`' heap module; not the global allocator here, so its budgets check nothing.
#[path = "../common/heap.rs"]
mod heap;

mod alloc;
