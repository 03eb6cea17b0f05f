//! godot-serde-multiplayer's integration tests, one test binary (`cargo test --test suite`):
//! each former `tests/<name>.rs` is the module `<name>` here, so
//! `cargo test --test suite -- <name>::` runs one of them. `tests/heap/` holds the memory tests,
//! whose process-wide heap counter needs a binary of its own.

// Unused without the transports (`--no-default-features`): the live tests compile to nothing.
#[allow(unused_imports)]
use godot_serde_test_support::engine;
#[path = "../common/clock.rs"]
mod clock;
#[cfg(any(feature = "enet", feature = "websocket"))]
#[path = "../common/dialect.rs"]
mod dialect;
#[path = "../common/fuzz_body.rs"]
mod fuzz_body;
#[path = "../common/fuzz_godot3.rs"]
mod fuzz_godot3;
// The root crate's seeded value generator, shared rather than copied.
#[path = "../../../tests/common/generate.rs"]
mod generate;
#[path = "../common/lobby.rs"]
mod lobby;
#[cfg(all(feature = "enet", feature = "websocket"))]
#[path = "../common/peer.rs"]
mod peer;
#[cfg(feature = "enet")]
#[path = "../common/raw_enet.rs"]
mod raw_enet;
#[path = "../common/replay.rs"]
mod replay;
#[cfg(feature = "enet")]
#[path = "../common/world.rs"]
mod world;
#[cfg(feature = "websocket")]
#[path = "../common/ws.rs"]
mod ws;

#[cfg(feature = "enet")]
mod burst;
mod core;
mod dispatch;
mod fuzz_replay;
mod fuzz_replay_godot3;
mod gdscript;
#[cfg(feature = "enet")]
mod godot3_enet_hostile;
mod godot3_protocol;
mod hostile;
mod interest;
#[cfg(all(feature = "enet", feature = "websocket"))]
mod live_announce;
#[cfg(all(feature = "enet", feature = "websocket"))]
mod live_client;
#[cfg(feature = "enet")]
mod live_gdscript;
#[cfg(all(feature = "enet", feature = "websocket"))]
mod live_godot3;
#[cfg(feature = "enet")]
mod live_interest;
#[cfg(all(feature = "enet", feature = "derive"))]
mod live_lobby;
#[cfg(feature = "enet")]
mod live_replication;
#[cfg(feature = "enet")]
mod live_rooms;
#[cfg(all(feature = "enet", feature = "websocket"))]
mod live_server;
#[cfg(all(feature = "enet", feature = "websocket"))]
mod live_swarm;
#[cfg(feature = "enet")]
mod live_world;
#[cfg(feature = "tls")]
mod live_wss;
#[cfg(all(feature = "enet", feature = "derive"))]
mod lobby_godot3;
mod protocol;
mod replication;
mod rooms;
mod transport;
mod typed_args;
#[cfg(feature = "derive")]
mod typed_rpcs;
mod typed_sync;
#[cfg(feature = "tls")]
mod wss;
