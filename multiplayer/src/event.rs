//! What a session reports, in both dialects: [`Event`]s for the application (a
//! [`RemoteCall`] among them) and [`Output`]s for the transport. The Godot 4
//! [`Session`](crate::Session) and the Godot 3 [`Session`](crate::godot3::Session) report the
//! same types; Godot 3's "unreliable" is [`TransferMode::Unreliable`] (else `Reliable`), its
//! channel always 0, and its remote sets are [`Event::Rset`].

use godot_serde::Variant;

use crate::args::{self, Args};
use crate::{ProtocolError, TransferMode};

/// A remote call received (or, in Godot 3, a remote set: see [`Event::Rset`]). The argument
/// bytes are kept as they came (an owned copy of the packet's argument region, with its shape
/// and offset) and decoded only when asked: typed with [`args_as`](Self::args_as) (or
/// [`Session::args_of`](crate::Session::args_of) in a serve loop), as `Variant`s with
/// [`variants`](Self::variants). Malformed argument bytes are an error of that call then.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteCall {
    /// The caller (the original sender for relayed calls).
    pub from: i32,
    /// The node path, relative to the multiplayer root.
    pub path: String,
    /// The method (the property of a Godot 3 remote set).
    pub method: String,
    /// The channel it came on (always 0 in Godot 3).
    pub channel: u8,
    /// The transfer mode the transport reported.
    pub mode: TransferMode,
    args: ArgBytes,
}

/// The undecoded arguments of a call: the bytes, their shape, where they started in the
/// packet, and whose Variant layout they use.
#[derive(Debug, Clone, PartialEq)]
struct ArgBytes {
    bytes: Vec<u8>,
    shape: Shape,
    offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Godot 4: `count` compressed Variants.
    List(u8),
    /// Godot 4's "byte only or no args": one bare `PackedByteArray`, or nothing.
    Bare,
    /// Godot 3: `count` Variants in Godot 3's layout.
    Godot3List(u8),
    /// Godot 3's remote set: one value.
    Godot3Value,
}

/// What a Godot 3 call or set carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Godot3Args {
    /// A call's `count` arguments.
    Call(u8),
    /// A set's one value.
    Set,
}

impl Godot3Args {
    /// A list of Variants as Godot 3 writes a call's arguments (`_send_rpc`): the count (at
    /// most 255) and the values one after the other, in Godot 3's layout.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::TooManyArguments`], [`ProtocolError::EncodeValue`] for a value Godot 3
    /// cannot hold.
    pub(crate) fn encode(args: &[Variant]) -> Result<(u8, Vec<u8>), ProtocolError> {
        let count =
            u8::try_from(args.len()).map_err(|_| ProtocolError::TooManyArguments(args.len()))?;
        let mut bytes = Vec::new();
        for arg in args {
            crate::godot3::wire::config()
                .to_bytes_into(arg, &mut bytes)
                .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
        }
        Ok((count, bytes))
    }
}

impl RemoteCall {
    /// A Godot 4 call; the argument region is copied.
    pub(crate) fn godot4(
        (from, path, method): (i32, String, String),
        channel: u8,
        mode: TransferMode,
        args: &Args<'_>,
    ) -> Self {
        let (count, bytes, offset) = args.parts();
        let shape = count.map_or(Shape::Bare, Shape::List);
        Self {
            from,
            path,
            method,
            channel,
            mode,
            args: ArgBytes {
                bytes: bytes.to_vec(),
                shape,
                offset,
            },
        }
    }

    /// A Godot 3 call or set; `bytes` (at `offset` in the packet) are copied.
    pub(crate) fn godot3(
        (from, path, method): (i32, String, String),
        mode: TransferMode,
        kind: Godot3Args,
        (bytes, offset): (&[u8], usize),
    ) -> Self {
        let shape = match kind {
            Godot3Args::Call(count) => Shape::Godot3List(count),
            Godot3Args::Set => Shape::Godot3Value,
        };
        Self {
            from,
            path,
            method,
            channel: 0,
            mode,
            args: ArgBytes {
                bytes: bytes.to_vec(),
                shape,
                offset,
            },
        }
    }

    /// A Godot 4 call of `method` on `path` from peer `from` with these arguments, as the
    /// session would report it (reliable, channel 0): for tests of game logic without a
    /// packet. The arguments are encoded as a peer would send them.
    ///
    /// # Errors
    ///
    /// What [`args::encode_variants`] reports (more than 255 arguments, ...).
    pub fn godot4_call(
        from: i32,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<Self, ProtocolError> {
        let encoded = args::encode_variants(args)?;
        let view = if encoded.byte_only_or_none {
            Args::raw_or_none(&encoded.bytes, 0)
        } else {
            Args::list(encoded.count, &encoded.bytes, 0)
        };
        let names = (from, path.to_owned(), method.to_owned());
        Ok(Self::godot4(names, 0, TransferMode::Reliable, &view))
    }

    /// A Godot 3 call (see [`godot4_call`](Self::godot4_call)), its arguments in Godot 3's
    /// layout.
    ///
    /// # Errors
    ///
    /// More than 255 arguments, a value Godot 3 cannot hold.
    pub fn godot3_call(
        from: i32,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<Self, ProtocolError> {
        let (count, bytes) = Godot3Args::encode(args)?;
        let names = (from, path.to_owned(), method.to_owned());
        let kind = Godot3Args::Call(count);
        Ok(Self::godot3(
            names,
            TransferMode::Reliable,
            kind,
            (&bytes, 0),
        ))
    }

    /// The argument bytes as they came (Godot 4: after the count byte, or the bare
    /// `PackedByteArray`; Godot 3: after the count byte, or a set's value).
    pub fn arg_bytes(&self) -> &[u8] {
        &self.args.bytes
    }

    /// Where [`arg_bytes`](Self::arg_bytes) started in the packet (error offsets count from the
    /// packet's start).
    pub fn args_offset(&self) -> usize {
        self.args.offset
    }

    /// The number of arguments the packet announces (a Godot 4 bare `PackedByteArray` is 1,
    /// no arguments 0; a Godot 3 set's value is 1).
    pub fn arg_count(&self) -> usize {
        match self.args.shape {
            Shape::List(n) | Shape::Godot3List(n) => usize::from(n),
            Shape::Bare => usize::from(!self.args.bytes.is_empty()),
            Shape::Godot3Value => 1,
        }
    }

    /// The Godot 4 arguments, still encoded (`None` for a Godot 3 call or set).
    pub fn args(&self) -> Option<Args<'_>> {
        let a = &self.args;
        match a.shape {
            Shape::List(n) => Some(Args::list(n, &a.bytes, a.offset)),
            Shape::Bare => Some(Args::raw_or_none(&a.bytes, a.offset)),
            Shape::Godot3List(_) | Shape::Godot3Value => None,
        }
    }

    /// A Godot 3 call's argument count, bytes and their offset in the packet (`None` for a
    /// Godot 4 call or a Godot 3 set).
    pub(crate) fn godot3_list(&self) -> Option<(u8, &[u8], usize)> {
        match self.args.shape {
            Shape::Godot3List(n) => Some((n, &self.args.bytes, self.args.offset)),
            _ => None,
        }
    }

    /// The arguments decoded to `Variant`s (a Godot 3 set: its one value).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Argument`] (with the argument's index and byte offset) or
    /// [`ProtocolError::Truncated`] for bytes that do not hold what the packet announced.
    pub fn variants(&self) -> Result<Vec<Variant>, ProtocolError> {
        let a = &self.args;
        match a.shape {
            Shape::Godot3List(count) => crate::godot3::wire::decode_args(count, &a.bytes, a.offset),
            Shape::Godot3Value => Ok(vec![crate::godot3::wire::decode_value(&a.bytes, a.offset)?]),
            Shape::List(_) | Shape::Bare => self.args().map_or(Ok(Vec::new()), |g4| g4.decode()),
        }
    }

    /// The arguments as a typed tuple or struct (fields in order), decoded from the bytes
    /// (Godot 4: through the crate's one typed decoder). In a serve loop,
    /// [`Session::args_of`](crate::Session::args_of) is the shape: a mismatch is the caller's
    /// event there, not an `Err` that `?` would turn into the end of the loop.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when they do not fit `T`; what
    /// [`variants`](Self::variants) reports for malformed bytes.
    pub fn args_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        let typed = match self.args() {
            Some(g4) => args::decode::<T>(&g4),
            None => match self.godot3_list() {
                Some((count, bytes, offset)) => {
                    crate::godot3::args::decode(&self.method, count, bytes, offset)
                }
                None => {
                    let list = Variant::from(self.variants()?);
                    args::typed_in(&crate::godot3::wire::config(), &self.method, &list)
                }
            },
        };
        typed.map_err(|e| match e {
            ProtocolError::ArgumentType { source, .. } => ProtocolError::ArgumentType {
                method: self.method.clone(),
                source,
            },
            other => other,
        })
    }

    /// The value of a Godot 3 remote set (the first argument) as `T`
    /// ([`godot3::Session::value_of`](crate::godot3::Session::value_of) in a serve loop).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when it does not fit `T`; what
    /// [`variants`](Self::variants) reports for malformed bytes.
    pub fn value_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        let values = self.variants()?;
        let value = values.first().unwrap_or(&Variant::Nil);
        let config = match self.args.shape {
            Shape::List(_) | Shape::Bare => godot_serde::Config::godot4(),
            Shape::Godot3List(_) | Shape::Godot3Value => crate::godot3::wire::config(),
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
        /// The paths of the properties whose value this packet changed (as the config names
        /// them, `.:position`), in the config's order; empty when it repeated the state.
        changed: Vec<String>,
    },
    /// A client's spawner got a node from the server (SPAWN): its synchronizers are
    /// [`Session::node_synchronizers`](crate::Session::node_synchronizers), their spawn state
    /// already set.
    Spawned {
        /// The sender (the spawner's authority).
        from: i32,
        /// The node.
        node: crate::NodeId,
        /// Its name (under the spawner's spawn parent).
        name: String,
        /// The spawner's path, relative to the multiplayer root.
        spawner: String,
        /// The spawnable scene's index, or the custom spawn data.
        scene: crate::SpawnScene,
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
