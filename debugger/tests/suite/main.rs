//! godot-serde-debugger's integration tests, one binary (`cargo test -p
//! godot-serde-debugger --test suite`); a module with a filter: `-- live_godot4::`.

mod fuzz_frames;
mod game;
mod hostile;
mod live_breakpoints;
mod live_godot3;
mod live_godot4;
mod live_limits;
mod live_profilers;
mod live_proxy;
mod live_stepping;
mod proxy;
#[cfg(feature = "tokio")]
mod tokio_adapter;
