//! Declared RPC tables: a node's `@rpc` methods, their ids and their checksum, derived as
//! `SceneRPCInterface::_parse_rpc_config` and `get_rpc_md5` derive them (Godot 4.6): the
//! script's RPC names sorted, a method's id is its index, and the checksum is the MD5 (lower-case
//! hex) of the names concatenated in that order.

use md5::{Digest, Md5};

/// Who may call a method (`MultiplayerAPI.RPCMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RpcMode {
    /// `RPC_MODE_DISABLED` (0): nobody.
    Disabled,
    /// `RPC_MODE_ANY_PEER` (1), `@rpc("any_peer")`: every peer.
    AnyPeer,
    /// `RPC_MODE_AUTHORITY` (2), `@rpc` / `@rpc("authority")`: the node's multiplayer authority
    /// only (peer 1, the server, unless set otherwise).
    Authority,
}

/// How a packet travels (`MultiplayerPeer.TransferMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TransferMode {
    /// `TRANSFER_MODE_UNRELIABLE` (0), `@rpc("unreliable")`: may be lost or reordered.
    Unreliable,
    /// `TRANSFER_MODE_UNRELIABLE_ORDERED` (1), `@rpc("unreliable_ordered")`: may be lost, late
    /// ones dropped.
    UnreliableOrdered,
    /// `TRANSFER_MODE_RELIABLE` (2), the default: resent until acknowledged, in order.
    #[default]
    Reliable,
}

impl From<TransferMode> for u8 {
    /// The engine's `MultiplayerPeer.TransferMode` value: 0, 1 or 2.
    fn from(mode: TransferMode) -> Self {
        match mode {
            TransferMode::Unreliable => 0,
            TransferMode::UnreliableOrdered => 1,
            TransferMode::Reliable => 2,
        }
    }
}

impl TryFrom<u8> for TransferMode {
    type Error = crate::ProtocolError;

    /// The mode of the engine's value 0, 1 or 2.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Invalid`](crate::ProtocolError::Invalid) for any other value.
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            0 => Ok(Self::Unreliable),
            1 => Ok(Self::UnreliableOrdered),
            2 => Ok(Self::Reliable),
            other => Err(crate::ProtocolError::Invalid {
                what: "transfer mode",
                offset: 0,
                detail: format!("{other}: the engine's modes are 0, 1 and 2"),
            }),
        }
    }
}

/// One `@rpc` method as GDScript declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcMethod {
    /// The method's name.
    pub name: String,
    /// Who may call it.
    pub mode: RpcMode,
    /// Its transfer mode.
    pub transfer_mode: TransferMode,
    /// `call_local`: kept for the GDScript side's declaration; a Rust peer calls its own
    /// handlers directly.
    pub call_local: bool,
    /// Its channel (0 = the default channels of the transfer mode).
    pub channel: u8,
}

impl RpcMethod {
    /// `@rpc` (authority, reliable, channel 0): only the node's authority may call it.
    pub fn authority(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            mode: RpcMode::Authority,
            transfer_mode: TransferMode::Reliable,
            call_local: false,
            channel: 0,
        }
    }

    /// `@rpc("any_peer")` (reliable, channel 0): every peer may call it.
    pub fn any_peer(name: impl Into<String>) -> Self {
        Self {
            mode: RpcMode::AnyPeer,
            ..Self::authority(name)
        }
    }

    /// The same method with another transfer mode.
    #[must_use]
    pub fn transfer(mut self, mode: TransferMode) -> Self {
        self.transfer_mode = mode;
        self
    }

    /// The same method on another channel.
    #[must_use]
    pub fn channel(mut self, channel: u8) -> Self {
        self.channel = channel;
        self
    }

    /// The same method with `call_local`.
    #[must_use]
    pub fn call_local(mut self) -> Self {
        self.call_local = true;
        self
    }
}

/// The RPC methods of one node, by its path.
///
/// ```
/// use godot_serde_multiplayer::{RpcMethod, RpcTable};
/// // extends Node; @rpc("any_peer") func chat(text): ...; @rpc func welcome(name): ...
/// let table = RpcTable::new("/root/Lobby")
///     .with(RpcMethod::any_peer("chat"))
///     .with(RpcMethod::authority("welcome"));
/// assert_eq!(table.path(), "Lobby");
/// assert_eq!(table.method_id("chat"), Some(0));
/// assert_eq!(table.method_id("welcome"), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcTable {
    path: String,
    methods: Vec<RpcMethod>,
    md5: String,
    authority: i32,
}

/// A node path relative to the multiplayer root `/root`, as the engine sends it.
pub(crate) fn relative_path(path: &str) -> &str {
    let p = path
        .strip_prefix("/root")
        .map_or(path, |rest| rest.strip_prefix('/').unwrap_or(rest));
    p.trim_start_matches('/')
}

impl RpcTable {
    /// An empty table for the node at `path` (`/root/Lobby` or `Lobby`: paths are relative to
    /// the multiplayer root, `/root`), whose authority is the server (peer 1).
    pub fn new(path: &str) -> Self {
        let mut table = Self {
            path: relative_path(path).to_owned(),
            methods: Vec::new(),
            md5: String::new(),
            authority: 1,
        };
        table.md5 = checksum(&table.methods);
        table
    }

    /// Adds a method; one with the same name is replaced. Ids follow the sorted names.
    #[must_use]
    pub fn with(mut self, method: RpcMethod) -> Self {
        match self
            .methods
            .binary_search_by(|m| m.name.as_str().cmp(&method.name))
        {
            Ok(i) => {
                if let Some(slot) = self.methods.get_mut(i) {
                    *slot = method;
                }
            }
            Err(i) => self.methods.insert(i, method),
        }
        self.md5 = checksum(&self.methods);
        self
    }

    /// Sets the node's multiplayer authority (`set_multiplayer_authority`), 1 by default.
    #[must_use]
    pub fn with_authority(mut self, peer: i32) -> Self {
        self.authority = peer;
        self
    }

    /// The path relative to the multiplayer root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The methods in id order.
    pub fn methods(&self) -> &[RpcMethod] {
        &self.methods
    }

    /// The method names in id order.
    pub fn method_names(&self) -> Vec<String> {
        self.methods.iter().map(|m| m.name.clone()).collect()
    }

    /// A method's id.
    pub fn method_id(&self, name: &str) -> Option<u16> {
        let i = self
            .methods
            .binary_search_by(|m| m.name.as_str().cmp(name))
            .ok()?;
        u16::try_from(i).ok()
    }

    /// The RPC checksum: MD5 of the names in id order, 32 lower-case hex digits.
    pub fn md5(&self) -> &str {
        &self.md5
    }

    /// The node's multiplayer authority.
    pub fn authority(&self) -> i32 {
        self.authority
    }
}

fn checksum(methods: &[RpcMethod]) -> String {
    let mut hasher = Md5::new();
    for m in methods {
        hasher.update(m.name.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
