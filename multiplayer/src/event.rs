//! What a session reports, in both dialects: [`Event`]s for the application (a
//! [`RemoteCall`] among them) and [`Output`]s for the transport. The Godot 4
//! [`Session`](crate::Session) and the Godot 3 [`Session`](crate::godot3::Session) report the
//! same types; Godot 3's "unreliable" is [`TransferMode::Unreliable`] (else `Reliable`), its
//! channel always 0, and its remote sets are [`Event::Rset`].

use godot_serde::Variant;

use crate::{ProtocolError, TransferMode, args};

/// A remote call received (or, in Godot 3, a remote set: see [`Event::Rset`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteCall {
    /// The caller (the original sender for relayed calls).
    pub from: i32,
    /// The node path, relative to the multiplayer root.
    pub path: String,
    /// The method (the property of a Godot 3 remote set).
    pub method: String,
    /// The arguments (the one value of a Godot 3 remote set).
    pub args: Vec<Variant>,
    /// The channel it came on (always 0 in Godot 3).
    pub channel: u8,
    /// The transfer mode the transport reported.
    pub mode: TransferMode,
    /// Whose Variant layout the arguments came in (for [`args_as`](Self::args_as)).
    pub(crate) dialect: Dialect,
}

/// The Variant layout of a call's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Dialect {
    /// Godot 4 (`encode_and_compress_variant`).
    #[default]
    Godot4,
    /// Godot 3.2.3 (`encode_variant`, Godot 3's type ids).
    Godot3,
}

impl RemoteCall {
    /// The arguments as a typed tuple or struct (fields in order). In a serve loop,
    /// [`Session::args_of`](crate::Session::args_of) is the shape: a mismatch is the caller's
    /// event there, not an `Err` that `?` would turn into the end of the loop.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when they do not fit `T`.
    pub fn args_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        match self.dialect {
            Dialect::Godot4 => args::from_arguments(&self.method, &self.args),
            Dialect::Godot3 => {
                let list = Variant::from(self.args.clone());
                args::typed_in(&crate::godot3::wire::config(), &self.method, &list)
            }
        }
    }

    /// The value of a Godot 3 remote set (the first argument) as `T`
    /// ([`godot3::Session::value_of`](crate::godot3::Session::value_of) in a serve loop).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when it does not fit `T`.
    pub fn value_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        let value = self.args.first().unwrap_or(&Variant::Nil);
        let config = match self.dialect {
            Dialect::Godot4 => godot_serde::Config::godot4(),
            Dialect::Godot3 => crate::godot3::wire::config(),
        };
        args::typed_in(&config, &self.method, value)
    }
}

/// What happened, for the application.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `peer_authenticating`: a peer connected and must authenticate.
    PeerAuthenticating(i32),
    /// Authentication data from a peer (the `auth_callback`'s call).
    AuthData {
        /// The peer.
        peer: i32,
        /// The data.
        data: Vec<u8>,
    },
    /// `peer_authentication_failed`: a pending peer left or timed out.
    AuthenticationFailed(i32),
    /// `peer_connected` (peer 1 on a client: `connected_to_server`).
    PeerConnected(i32),
    /// `peer_disconnected`.
    PeerDisconnected(i32),
    /// A remote call its mode allows.
    Rpc(RemoteCall),
    /// Godot 3: a remote set (`rset*`) its mode allows; `method` is the property and `args`
    /// holds its one value (the application sets the property).
    Rset(RemoteCall),
    /// `peer_packet`: RAW bytes.
    Raw {
        /// The sender.
        from: i32,
        /// The bytes.
        data: Vec<u8>,
        /// The channel.
        channel: u8,
        /// The transfer mode.
        mode: TransferMode,
    },
    /// The state of a synchronizer arrived from its authority (`synchronized`, or
    /// `delta_synchronized` when `delta`): read it with
    /// [`Session::state`](crate::Session::state) or
    /// [`Session::state_as`](crate::Session::state_as).
    Synchronized {
        /// The sender.
        from: i32,
        /// The synchronizer.
        sync: crate::SyncId,
        /// Whether it was a delta (only the changed watched properties).
        delta: bool,
    },
    /// A client's spawner got a node from the server (SPAWN): its synchronizers are
    /// [`Session::node_synchronizers`](crate::Session::node_synchronizers), their spawn state
    /// already set.
    Spawned {
        /// The sender (the spawner's authority).
        from: i32,
        /// The node.
        node: crate::NodeId,
    },
    /// The server despawned a node it spawned here; its synchronizers are gone.
    Despawned {
        /// The sender.
        from: i32,
        /// The node (no longer known to the session).
        node: crate::NodeId,
        /// Its name.
        name: String,
    },
    /// Something of `peer`'s, never the end of a serve loop: its packet was refused, its call's
    /// arguments did not fit ([`Session::args_of`](crate::Session::args_of)), or a call of ours
    /// found it gone ([`ProtocolError::NoSuchPeer`]). The session goes on.
    Error {
        /// The peer it concerns.
        peer: i32,
        /// What was wrong.
        error: ProtocolError,
    },
}

/// What the transport must do.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Output {
    /// Send `data` to `to`: the Godot 4 session gives a transport peer (a positive id: it
    /// expands broadcasts and relays itself); the Godot 3 session gives the engine's target
    /// (`0` everyone, `-n` everyone but `n`, see [`Target`](crate::Target)), which the
    /// transport's header carries and the server relays.
    Packet {
        /// The transport peer or (Godot 3) the engine's target.
        to: i32,
        /// The user channel (0: the transfer mode's default channel).
        channel: u8,
        /// The transfer mode.
        mode: TransferMode,
        /// The bytes.
        data: Vec<u8>,
    },
    /// Disconnect this transport peer.
    Disconnect(i32),
}
