//! The allocation-budget tests (`alloc`): `peak_alloc` counts the whole process's heap, so no
//! other test may allocate beside them and they are a binary of their own
//! (`cargo test --test heap`).

mod alloc;
