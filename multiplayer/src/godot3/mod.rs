//! Godot 3.2.3's high-level multiplayer (`MultiplayerAPI` + `NetworkedMultiplayerENet`), a
//! dialect of its own: remote calls and sets by name (`rpc`, `rpc_id`, `rpc_unreliable`,
//! `rset`, `rset_unreliable`), a path cache without checksums, RAW packets, the
//! `remote`/`master`/`puppet`/`remotesync`/`mastersync`/`puppetsync` modes, and an ENet peer
//! that puts a source/target header on every packet and relays client-to-client traffic itself.
//!
//! - [`Session`]: the protocol core, sans IO, server or client.
//! - [`NodeTable`]: a node's remote methods and properties with their modes, and its network
//!   master; [`RemoteMode::can_call`] is the engine's `_can_call_mode`.
//! - [`wire`]: the packet layouts (both layers), stateless.
//! - [`args`]: a call's arguments typed straight from and into the packet bytes.
//! - `enet` (feature `enet`): the transport, as `NetworkedMultiplayerENet` frames it.
//! - `websocket` (feature `websocket`): the transport, as 3.2's `WebSocketMultiplayerPeer`
//!   (`WebSocketServer`/`WebSocketClient` with `gd_mp_api = true`) frames it.
//!
//! Arguments use Godot 3's Variant layout (`godot_serde::Config::godot3()`): typed through
//! serde, or `Variant` lists.

pub mod args;
#[cfg(feature = "enet")]
pub mod enet;
mod session;
mod table;
#[cfg(feature = "websocket")]
pub mod websocket;
pub mod wire;

pub use session::{Event, Output, Remote, Session};
pub use table::{NodeTable, RemoteMode};

use crate::ProtocolError;

/// The server's own packet for `target` (everyone: 0; everyone but `n`: `-n`; or one peer),
/// as the peers connected now (`peers`) receive it: the same rule in both Godot 3 transports.
#[cfg(any(feature = "enet", feature = "websocket"))]
fn targets(target: i32, peers: Vec<i32>) -> Vec<i32> {
    match target {
        0 => peers,
        t if t < 0 => peers
            .into_iter()
            .filter(|&p| p != t.saturating_neg())
            .collect(),
        t => vec![t],
    }
}

/// Whether a member is a method (`rpc`) or a property (`rset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemberKind {
    /// A method.
    Method,
    /// A property.
    Property,
}

impl std::fmt::Display for MemberKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Method => "call",
            Self::Property => "set",
        })
    }
}

/// An error of the Godot 3 dialect: a malformed or refused packet of one peer, or a call of
/// ours that cannot be sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A packet or call error shared with the Godot 4 dialect (truncation, path cache, ...).
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The member's mode does not let this peer call or set it (the engine's
    /// "RPC '...' is not allowed on node ... from: N. Mode is M, master is K.").
    #[error(
        "peer {peer} may not {kind} {member:?} on node {path:?} (mode {mode:?}, master {master})"
    )]
    NotAllowed {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// Call or set.
        kind: MemberKind,
        /// The method or property.
        member: String,
        /// Its mode (`Disabled` when not declared).
        mode: RemoteMode,
        /// The node's network master.
        master: i32,
    },
    /// A peer confirmed a path we never sent it (the engine: "Tries to confirm a path which
    /// was not found in cache").
    #[error("peer {peer} confirmed path {path:?}, which was never sent to it")]
    UnexpectedConfirm {
        /// The peer.
        peer: i32,
        /// The path.
        path: String,
    },
    /// A call of ours names a node, method or property that is not declared.
    #[error("no remote {kind} target {member:?} declared on node {path:?}")]
    NotDeclared {
        /// The node.
        path: String,
        /// Call or set.
        kind: MemberKind,
        /// The method or property.
        member: String,
    },
}
