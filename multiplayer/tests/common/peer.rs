//! One peer over either transport (ENet or WebSocket), or a `Host` of both, shared by the
//! live tests: the Rust client of `live_client.rs` and the Rust server of `live_server.rs`
//! drive it the same way.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use godot_serde_multiplayer::enet::{Captured, EnetPeer};
use godot_serde_multiplayer::transport::Host;
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Event, Session};

/// A Rust peer over either transport, or a host of several (one per test: its size does not
/// matter).
#[allow(clippy::large_enum_variant)]
pub enum Peer {
    Enet(EnetPeer),
    Ws(WsPeer),
    Host(Host),
}

impl Peer {
    /// The sans-IO session under the transport.
    pub fn session(&mut self) -> &mut Session {
        match self {
            Peer::Enet(p) => p.session(),
            Peer::Ws(p) => p.session(),
            Peer::Host(h) => h.session(),
        }
    }

    /// Moves packets both ways once; a transport error as text.
    pub fn service(&mut self) -> Result<(), String> {
        match self {
            Peer::Enet(p) => p.service().map_err(|e| e.to_string()),
            Peer::Ws(p) => p.service().map_err(|e| e.to_string()),
            Peer::Host(h) => h.service().map_err(|e| e.to_string()),
        }
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        match self {
            Peer::Enet(p) => p.poll_event(),
            Peer::Ws(p) => p.poll_event(),
            Peer::Host(h) => h.poll_event(),
        }
    }

    /// The packets captured since the last call (`EnetPeer` only).
    pub fn take_captured(&mut self) -> Vec<Captured> {
        match self {
            Peer::Enet(p) => p.take_captured(),
            Peer::Ws(_) | Peer::Host(_) => Vec::new(),
        }
    }

    /// Closes the transport.
    pub fn close(&mut self) {
        match self {
            Peer::Enet(p) => p.close(),
            Peer::Ws(p) => p.close(),
            Peer::Host(h) => h.close(),
        }
    }
}

/// A GDScript file of `tests/godot/`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot")
        .join(name)
}
