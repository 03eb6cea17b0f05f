//! Replication (Godot 4's `SceneReplicationInterface`), sans IO: the server spawns scenes in
//! the clients' `MultiplayerSpawner`s with their spawn state, despawns them, and sends the
//! state of its `MultiplayerSynchronizer`s on the engine's schedule (full SYNC on the
//! replication interval, delta SYNC of the changed watched properties on the delta interval)
//! to the peers that may see them; it receives the state of client-owned synchronizers.
//!
//! Net ids are given as the engine gives them: one counter for spawned nodes and their
//! synchronizers (`++last_net_id`, the node first, then its synchronizers); a synchronizer that
//! has none (not under a spawner, or owned by a client) is named by `0x80000000 | its
//! path-cache id`, announced with SIMPLIFY_PATH and used once the peer confirmed it.
//!
//! The entry points are methods of [`Session`](crate::Session): `declare_spawner`, `spawn`,
//! `despawn`, `declare_synchronizer`, `set_state`, `handle_timeout` (the network process),
//! `set_interest` and the positions and groups of [`interest`] (who sees which node), and
//! [`Event::Synchronized`](crate::Event::Synchronized) for received state. On a client,
//! a Godot server's spawns, syncs and despawns arrive as `Event::Spawned`, `Synchronized` and
//! `Despawned` for the spawners declared with their scenes' synchronizers.
//!
//! ```no_run
//! use godot_serde_multiplayer::replication::gdscript;
//! use godot_serde_multiplayer::{ReplicationConfig, ReplicationMode, Session, Settings, SpawnScene, Spawner, Synchronizer};
//!
//! #[derive(serde::Serialize, serde::Deserialize, Default)]
//! struct Player { position: godot_serde::Vector2, rotation: f64 }
//!
//! let config = ReplicationConfig::for_struct::<Player>(ReplicationMode::Always)?
//!     .set(".:rotation", true, ReplicationMode::OnChange); // delta sync, Godot 4.2+
//! let sync = Synchronizer::new("Sync", config);
//! let spawner = Spawner::new("World/Spawner", "World/Players").scene("res://player.tscn");
//! // The GDScript that builds the same config and spawnable list on the Godot side:
//! let script = gdscript::script(&[("players", &spawner)], &[("player", &sync)]);
//!
//! let mut session = Session::server(Settings::default());
//! session.declare_spawner(spawner);
//! let player = Player { position: godot_serde::Vector2::new(1.0, 2.0), rotation: 0.5 };
//! let node = session.spawn("World/Spawner", SpawnScene::Index(0), "Alice",
//!     vec![(sync, godot_serde_multiplayer::args::to_arguments(&player)?)])?;
//! let state = session.node_synchronizers(node)[0];
//! session.set_state_as(state, &Player { position: godot_serde::Vector2::new(5.0, 2.0), rotation: 1.0 })?;
//! session.handle_timeout(std::time::Instant::now()); // each network frame (replication step)
//! session.despawn(node)?;
//! # let _ = script;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod config;
pub mod gdscript;
pub mod interest;
mod peers;
mod recv;
mod send;
pub mod typed;
pub mod wire;

use std::collections::{BTreeMap, HashMap};

pub use config::{
    ReplicationConfig, ReplicationMode, SpawnScene, Spawner, SyncProperty, Synchronizer,
};
use godot_serde::Variant;
pub use interest::{InterestRule, Position};
use peers::Peers;

/// `sync_mtu`'s default: full SYNC packets are split above this size.
pub const SYNC_MTU: usize = 1350;
/// `delta_mtu`'s default: delta SYNC packets are split above this size.
pub const DELTA_MTU: usize = 65535;

/// A synchronizer of the session (declared or spawned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SyncId(u64);

/// A node the session spawned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u64);

#[derive(Debug)]
pub(crate) struct SyncObj {
    decl: Synchronizer,
    /// The path relative to the multiplayer root.
    full_path: String,
    node: Option<NodeId>,
    /// One value per config property.
    values: Vec<Variant>,
    /// The full-SYNC properties' indexes (the config does not change).
    sync_idx: Vec<usize>,
    /// The watched (delta) properties' indexes.
    watch_idx: Vec<usize>,
    /// The peers whose visible synchronizers hold this one (their `sync_nodes`).
    viewers: usize,
    /// The full-SYNC state encoded at this time: shared by every peer in one network frame
    /// (cleared when the state changes).
    encoded_sync: Option<(u64, Vec<u8>)>,
    net_id: u32,
    /// The synchronizers' net ids came from this peer's SPAWN (client role).
    remote: Option<i32>,
    last_sync_usec: u64,
    last_inbound: u16,
    sync_started: bool,
    /// Per watched property: the last value seen and when it changed.
    watchers: Vec<Option<(Variant, u64)>>,
    last_watch_usec: u64,
}

#[derive(Debug)]
pub(crate) struct NodeObj {
    spawner: usize,
    name: String,
    scene: SpawnScene,
    net_id: u32,
    syncs: Vec<SyncId>,
}

/// The replication state of a session.
#[derive(Debug)]
pub(crate) struct Replication {
    spawners: Vec<Spawner>,
    /// By handle, hashed by [`IdHasher`] (handles are ours, never a peer's).
    syncs: HashMap<SyncId, SyncObj, IdHash>,
    nodes: BTreeMap<NodeId, NodeObj>,
    sync_by_path: HashMap<String, SyncId>,
    /// The connected peers, with a record for those replication works with.
    peers: Peers,
    next_handle: u64,
    last_net_id: u32,
    sync_mtu: usize,
    delta_mtu: usize,
    interest: interest::Interest,
}

impl Default for Replication {
    fn default() -> Self {
        Self {
            spawners: Vec::new(),
            syncs: HashMap::default(),
            nodes: BTreeMap::new(),
            sync_by_path: HashMap::new(),
            peers: Peers::default(),
            next_handle: 1,
            last_net_id: 0,
            sync_mtu: SYNC_MTU,
            delta_mtu: DELTA_MTU,
            interest: interest::Interest::default(),
        }
    }
}

impl SyncObj {
    pub(crate) fn new(
        decl: Synchronizer,
        full_path: String,
        node: Option<NodeId>,
        values: Vec<Variant>,
    ) -> Self {
        Self {
            sync_idx: decl.config.sync_indexes(),
            watch_idx: decl.config.watch_indexes(),
            viewers: 0,
            encoded_sync: None,
            decl,
            full_path,
            node,
            values,
            net_id: 0,
            remote: None,
            last_sync_usec: 0,
            last_inbound: 0,
            sync_started: false,
            watchers: Vec::new(),
            last_watch_usec: 0,
        }
    }

    /// `update_outbound_sync_time`.
    fn update_outbound_sync_time(&mut self, usec: u64) -> bool {
        if self.last_sync_usec == usec {
            return true;
        }
        if usec < self.last_sync_usec.saturating_add(self.decl.interval_us) {
            return false;
        }
        self.last_sync_usec = usec;
        true
    }

    /// `update_inbound_sync_time`: false for a state older than the last one (u16 wrap-around
    /// as the engine compares).
    fn update_inbound_sync_time(&mut self, time: u16) -> bool {
        if !self.sync_started {
            self.sync_started = true;
        } else if time <= self.last_inbound && self.last_inbound - time < 32767 {
            return false;
        }
        self.last_inbound = time;
        true
    }

    /// `get_delta_state`: the changed watched values since `last_usec`, and their bits.
    fn delta_state(&mut self, cur: u64, last_usec: u64) -> (u64, Vec<Variant>) {
        if self.last_watch_usec == cur {
            // Watched already in this frame.
        } else if cur < last_usec.saturating_add(self.decl.delta_interval_us) {
            return (0, Vec::new());
        } else {
            self.watchers.resize(self.watch_idx.len(), None);
            for (w, &i) in self.watchers.iter_mut().zip(&self.watch_idx) {
                let Some(v) = self.values.get(i) else {
                    continue;
                };
                match w {
                    Some((old, _)) if same(old, v) => {}
                    _ => *w = Some((v.clone(), cur)),
                }
            }
            self.last_watch_usec = cur;
        }
        let mut indexes = 0u64;
        let mut out = Vec::new();
        for (bit, w) in self.watchers.iter().enumerate() {
            if let Some((v, changed)) = w {
                if *changed > last_usec {
                    out.push(v.clone());
                    indexes |= 1 << bit;
                }
            }
        }
        (indexes, out)
    }

    fn values_at(&self, indexes: &[usize]) -> Vec<Variant> {
        indexes
            .iter()
            .map(|&i| self.values.get(i).cloned().unwrap_or_default())
            .collect()
    }
}

/// The hasher of the maps keyed by the session's own handles ([`SyncId`], [`NodeId`]): one multiply
/// (the handles count up from 1, chosen by us, so no peer can make them collide); the
/// synchronizer map is read once per peer and visible synchronizer each network frame.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

type IdHash = std::hash::BuildHasherDefault<IdHasher>;

/// `Variant::hash_compare`: equality where NaN equals NaN (the encoded bytes compare so).
fn same(a: &Variant, b: &Variant) -> bool {
    a == b
        || matches!((godot_serde::Config::godot4().to_bytes(a), godot_serde::Config::godot4().to_bytes(b)), (Ok(x), Ok(y)) if x == y)
}

impl Replication {
    pub(crate) fn handle(&mut self) -> u64 {
        let h = self.next_handle;
        self.next_handle += 1;
        h
    }

    pub(crate) fn sync(&self, id: SyncId) -> Option<&SyncObj> {
        self.syncs.get(&id)
    }

    pub(crate) fn sync_mut(&mut self, id: SyncId) -> Option<&mut SyncObj> {
        self.syncs.get_mut(&id)
    }

    pub(crate) fn sync_at_path(&self, path: &str) -> Option<SyncId> {
        self.sync_by_path.get(path).copied()
    }

    pub(crate) fn node(&self, id: NodeId) -> Option<&NodeObj> {
        self.nodes.get(&id)
    }

    pub(crate) fn spawner_index(&self, path: &str) -> Option<usize> {
        self.spawners.iter().position(|s| s.path == path)
    }

    /// A copy of spawner `index`'s declaration (an empty one if there is none).
    pub(crate) fn spawner_decl(&self, index: usize) -> Spawner {
        self.spawners
            .get(index)
            .cloned()
            .unwrap_or_else(|| Spawner::new("", ""))
    }

    /// The next time (in the session's microseconds) the network process has work: the
    /// earliest full SYNC (`last sync + replication interval`) or delta watch (`last watch +
    /// delta interval`) of a synchronizer some peer sees. Intervals of 0 ("every network
    /// frame", as the engine's process frame) add no deadline: they run on every
    /// `handle_timeout`.
    pub(crate) fn next_deadline_us(&self) -> Option<u64> {
        // Asked at every `service()`: one walk of the synchronizers, those some peer sees
        // (not one per peer and visible synchronizer: 30 times more with 30 neighbours).
        let interest = self.interest.deadline_us();
        if self.syncs.is_empty() {
            return interest;
        }
        self.syncs
            .values()
            .filter(|s| s.viewers > 0)
            .flat_map(|s| {
                let full = (s.decl.interval_us > 0)
                    .then(|| s.last_sync_usec.saturating_add(s.decl.interval_us));
                let watches = !s.watch_idx.is_empty();
                let delta = (watches && s.decl.delta_interval_us > 0)
                    .then(|| s.last_watch_usec.saturating_add(s.decl.delta_interval_us));
                [full, delta]
            })
            .flatten()
            .chain(interest)
            .min()
    }

    /// Memory held, for the bounds tests: synchronizers, nodes, per-peer entries (interest
    /// entries included).
    pub(crate) fn counts(&self) -> (usize, usize, usize) {
        let per_peer = self
            .peers
            .values()
            .map(|p| {
                p.spawned.len()
                    + p.sync_nodes.len()
                    + p.last_watch.len()
                    + p.received().nodes.len()
                    + p.received().syncs.len()
            })
            .sum::<usize>()
            + self.interest.count();
        (self.syncs.len(), self.nodes.len(), per_peer)
    }
}

/// What a peer moved to another session (`rooms`) takes along and leaves: the nodes spawned on
/// it here, and its SYNC sequence.
impl Replication {
    /// The nodes spawned on `peer` and its `last_sent_sync`; `None` for no such peer.
    pub(crate) fn peer_handoff(&self, peer: i32) -> Option<(Vec<NodeId>, u16)> {
        let p = self.peers.get(&peer)?;
        Some((p.spawned.iter().copied().collect(), p.last_sent_sync))
    }

    /// Continues `peer`'s SYNC sequence from another session, whose synchronizers the client
    /// may keep (a synchronizer outside any spawner refuses a time older than its last).
    pub(crate) fn set_last_sent_sync(&mut self, peer: i32, time: u16) {
        let record = if time == 0 {
            self.peers.get_mut(&peer)
        } else {
            self.peers.record(peer)
        };
        if let Some(p) = record {
            p.last_sent_sync = time;
        }
    }
}
