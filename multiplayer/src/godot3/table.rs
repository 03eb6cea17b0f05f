//! Godot 3 RPC tables: a node's `remote`/`master`/`puppet`/`*sync` methods and properties
//! (`MultiplayerAPI.RPCMode` in 3.2.3) and its network master, with the engine's rules of who
//! may call what (`_can_call_mode`) and when a call also runs locally (`_should_call_local`).

use std::collections::BTreeMap;

use crate::rpc::relative_path;

/// `MultiplayerAPI.RPCMode` of Godot 3.2.3: the keyword before `func` or `var`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RemoteMode {
    /// `RPC_MODE_DISABLED` (0): no keyword; nobody may call it remotely.
    Disabled,
    /// `RPC_MODE_REMOTE` (1), `remote`: every peer may call it; never called locally.
    Remote,
    /// `RPC_MODE_MASTER` (2), `master`: runs only where the node's network master is; any
    /// peer may call it there.
    Master,
    /// `RPC_MODE_PUPPET` (3), `puppet` (`slave` before 3.1): runs only on the puppets, called
    /// by the node's network master.
    Puppet,
    /// `RPC_MODE_REMOTESYNC` (4), `remotesync` (`sync`): as `remote`, and also runs locally.
    RemoteSync,
    /// `RPC_MODE_MASTERSYNC` (5), `mastersync`: as `master`, and also runs locally.
    MasterSync,
    /// `RPC_MODE_PUPPETSYNC` (6), `puppetsync`: as `puppet`, and also runs locally.
    PuppetSync,
}

impl RemoteMode {
    /// The GDScript keyword (`None` for `Disabled`).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            Self::Disabled => None,
            Self::Remote => Some("remote"),
            Self::Master => Some("master"),
            Self::Puppet => Some("puppet"),
            Self::RemoteSync => Some("remotesync"),
            Self::MasterSync => Some("mastersync"),
            Self::PuppetSync => Some("puppetsync"),
        }
    }

    /// The engine's enum value.
    pub fn value(self) -> i32 {
        match self {
            Self::Disabled => 0,
            Self::Remote => 1,
            Self::Master => 2,
            Self::Puppet => 3,
            Self::RemoteSync => 4,
            Self::MasterSync => 5,
            Self::PuppetSync => 6,
        }
    }

    /// `_can_call_mode`: may `remote` call a member of this mode on a node whose network
    /// master is `master`, on the side whose id is `local`?
    pub fn can_call(self, master: i32, local: i32, remote: i32) -> bool {
        let is_master = master == local;
        match self {
            Self::Disabled => false,
            Self::Remote | Self::RemoteSync => true,
            Self::Master | Self::MasterSync => is_master,
            Self::Puppet | Self::PuppetSync => !is_master && remote == master,
        }
    }

    /// `_should_call_local`: `(call locally, skip the remote call)` when the side that is
    /// (`is_master`) or is not the node's master calls a member of this mode for everyone or
    /// for itself.
    pub fn local_call(self, is_master: bool) -> (bool, bool) {
        match self {
            Self::Disabled | Self::Remote => (false, false),
            Self::MasterSync => (true, is_master),
            Self::RemoteSync | Self::PuppetSync => (true, false),
            Self::Master => (is_master, is_master),
            Self::Puppet => (!is_master, false),
        }
    }
}

/// The remote methods and properties of one Godot 3 node, by its path.
///
/// ```
/// use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode};
/// // extends Node; remote func chat(text): ...; puppet func moved(pos): ...; puppet var hp
/// let table = NodeTable::new("/root/Lobby")
///     .method("chat", RemoteMode::Remote)
///     .method("moved", RemoteMode::Puppet)
///     .property("hp", RemoteMode::Puppet);
/// assert_eq!(table.path(), "Lobby");
/// assert_eq!(table.method_mode("chat"), RemoteMode::Remote);
/// assert_eq!(table.method_mode("undeclared"), RemoteMode::Disabled);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeTable {
    path: String,
    methods: BTreeMap<String, RemoteMode>,
    properties: BTreeMap<String, RemoteMode>,
    master: i32,
}

impl NodeTable {
    /// An empty table for the node at `path` (`/root/Lobby` or `Lobby`: relative to the
    /// multiplayer root node, `/root`), whose network master is the server (peer 1).
    pub fn new(path: &str) -> Self {
        Self {
            path: relative_path(path).to_owned(),
            methods: BTreeMap::new(),
            properties: BTreeMap::new(),
            master: 1,
        }
    }

    /// Adds (or replaces) a method (`rpc`, `rpc_id`, `rpc_unreliable` target).
    #[must_use]
    pub fn method(mut self, name: impl Into<String>, mode: RemoteMode) -> Self {
        self.methods.insert(name.into(), mode);
        self
    }

    /// Adds (or replaces) a property (`rset`, `rset_unreliable` target).
    #[must_use]
    pub fn property(mut self, name: impl Into<String>, mode: RemoteMode) -> Self {
        self.properties.insert(name.into(), mode);
        self
    }

    /// Sets the node's network master (`set_network_master`), 1 by default.
    #[must_use]
    pub fn with_master(mut self, peer: i32) -> Self {
        self.master = peer;
        self
    }

    /// The path relative to the multiplayer root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The methods and their modes, sorted by name.
    pub fn methods(&self) -> impl Iterator<Item = (&str, RemoteMode)> {
        self.methods.iter().map(|(k, &v)| (k.as_str(), v))
    }

    /// The properties and their modes, sorted by name.
    pub fn properties(&self) -> impl Iterator<Item = (&str, RemoteMode)> {
        self.properties.iter().map(|(k, &v)| (k.as_str(), v))
    }

    /// A method's mode; `Disabled` when it is not declared (as the engine treats a method
    /// without a keyword).
    pub fn method_mode(&self, name: &str) -> RemoteMode {
        self.methods
            .get(name)
            .copied()
            .unwrap_or(RemoteMode::Disabled)
    }

    /// A property's mode; `Disabled` when it is not declared.
    pub fn property_mode(&self, name: &str) -> RemoteMode {
        self.properties
            .get(name)
            .copied()
            .unwrap_or(RemoteMode::Disabled)
    }

    /// Whether a method of this name is declared.
    pub fn has_method(&self, name: &str) -> bool {
        self.methods.contains_key(name)
    }

    /// Whether a property of this name is declared.
    pub fn has_property(&self, name: &str) -> bool {
        self.properties.contains_key(name)
    }

    /// The node's network master.
    pub fn master(&self) -> i32 {
        self.master
    }

    /// Sets the node's network master on a declared table.
    pub fn set_master(&mut self, peer: i32) {
        self.master = peer;
    }
}
