//! Declarations: what a `SceneReplicationConfig`, a `MultiplayerSynchronizer` and a
//! `MultiplayerSpawner` hold on the GDScript side, so the Rust side writes and reads the same
//! property lists in the same order.

use std::collections::BTreeSet;

use godot_serde::{Config, Variant};
use serde::Serialize;

use crate::ProtocolError;
use crate::rpc::relative_path;

/// `SceneReplicationConfig.ReplicationMode`: when a property is synchronized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ReplicationMode {
    /// `REPLICATION_MODE_NEVER` (0): only in the spawn state (when `spawn` is set).
    Never,
    /// `REPLICATION_MODE_ALWAYS` (1), the default: in every full SYNC, on the replication
    /// interval.
    #[default]
    Always,
    /// `REPLICATION_MODE_ON_CHANGE` (2): in a delta SYNC when it changed, on the delta interval
    /// (Godot 4.2+). At most 64 per config; the engine ignores the ones after.
    OnChange,
}

impl ReplicationMode {
    /// The engine's enum value.
    pub fn as_int(self) -> i64 {
        match self {
            Self::Never => 0,
            Self::Always => 1,
            Self::OnChange => 2,
        }
    }
}

/// One property of a [`ReplicationConfig`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncProperty {
    /// The property path relative to the synchronizer's root node: `.:position`,
    /// `Sprite:modulate`.
    pub path: String,
    /// Whether it is part of the spawn state (default true).
    pub spawn: bool,
    /// When it is synchronized.
    pub mode: ReplicationMode,
}

/// `SceneReplicationConfig`: the properties in order, each with its spawn flag and mode.
/// The order is the wire order; the engine derives the spawn, sync and watch lists from it,
/// and so does this type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReplicationConfig {
    properties: Vec<SyncProperty>,
}

impl ReplicationConfig {
    /// An empty config.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a property as `add_property` does: spawn on, mode [`ReplicationMode::Always`].
    /// A path already present is left as it is (the engine refuses duplicates).
    #[must_use]
    pub fn property(self, path: &str) -> Self {
        self.with(path, true, ReplicationMode::Always)
    }

    /// Adds a property with its spawn flag and mode.
    #[must_use]
    pub fn with(mut self, path: &str, spawn: bool, mode: ReplicationMode) -> Self {
        if !self.properties.iter().any(|p| p.path == path) {
            self.properties.push(SyncProperty {
                path: path.to_owned(),
                spawn,
                mode,
            });
        }
        self
    }

    /// One property per field of `T`, in declaration order: a field `position` is `.:position`
    /// (a property of the synchronizer's root node); a field renamed to a path with `:`
    /// (`#[serde(rename = "Sprite:modulate")]`) is kept as it is. Every property is spawned
    /// and in `mode`; change them with [`set`](Self::set).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] when `T` does not serialize as a struct.
    pub fn for_struct<T: Serialize + Default>(
        mode: ReplicationMode,
    ) -> Result<Self, ProtocolError> {
        let value = Config::godot4()
            .to_variant(&T::default())
            .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
        let Variant::Dictionary(dict) = value else {
            return Err(ProtocolError::Encode(
                "a synchronized state must be a struct with named fields".into(),
            ));
        };
        let mut config = Self::new();
        for key in dict.keys() {
            let name = match key {
                Variant::String(s) => s.to_string(),
                Variant::StringName(s) => s.to_string(),
                other => {
                    return Err(ProtocolError::Encode(format!(
                        "field key {other:?} is not a name"
                    )));
                }
            };
            let path = if name.contains(':') {
                name
            } else {
                format!(".:{name}")
            };
            config = config.with(&path, true, mode);
        }
        Ok(config)
    }

    /// Changes the spawn flag and mode of the property at `path` (nothing if absent).
    #[must_use]
    pub fn set(mut self, path: &str, spawn: bool, mode: ReplicationMode) -> Self {
        if let Some(p) = self.properties.iter_mut().find(|p| p.path == path) {
            p.spawn = spawn;
            p.mode = mode;
        }
        self
    }

    /// The properties in order.
    pub fn properties(&self) -> &[SyncProperty] {
        &self.properties
    }

    /// Indexes (into [`properties`](Self::properties)) of the spawn properties.
    pub fn spawn_indexes(&self) -> Vec<usize> {
        self.indexes(|p| p.spawn)
    }

    /// Indexes of the properties in every full SYNC ([`ReplicationMode::Always`]).
    pub fn sync_indexes(&self) -> Vec<usize> {
        self.indexes(|p| p.mode == ReplicationMode::Always)
    }

    /// Indexes of the watched properties ([`ReplicationMode::OnChange`]), at most 64 as the
    /// engine keeps: delta bit `i` is the `i`-th of these.
    pub fn watch_indexes(&self) -> Vec<usize> {
        let mut v = self.indexes(|p| p.mode == ReplicationMode::OnChange);
        v.truncate(64);
        v
    }

    fn indexes(&self, keep: impl Fn(&SyncProperty) -> bool) -> Vec<usize> {
        self.properties
            .iter()
            .enumerate()
            .filter(|(_, p)| keep(p))
            .map(|(i, _)| i)
            .collect()
    }
}

/// A `MultiplayerSynchronizer`: where it is, what it replicates, who owns it, when and to whom
/// it sends.
#[derive(Debug, Clone, PartialEq)]
pub struct Synchronizer {
    /// Its node path: relative to the spawned node for one inside a spawned scene
    /// (`MultiplayerSynchronizer`), relative to the multiplayer root otherwise
    /// (`World/MultiplayerSynchronizer`).
    pub path: String,
    /// The replication config.
    pub config: ReplicationConfig,
    /// Its multiplayer authority (1, the server, by default).
    pub authority: i32,
    /// `replication_interval` in microseconds (0: every network frame, the default).
    pub interval_us: u64,
    /// `delta_interval` in microseconds (0: every network frame, the default).
    pub delta_interval_us: u64,
    /// `public_visibility` (default true).
    pub public: bool,
    /// `set_visibility_for(peer, true)` peers.
    pub visible_to: BTreeSet<i32>,
}

impl Synchronizer {
    /// A server-owned synchronizer at `path` with `config`, public, on every frame.
    pub fn new(path: &str, config: ReplicationConfig) -> Self {
        Self {
            path: relative_path(path).to_owned(),
            config,
            authority: 1,
            interval_us: 0,
            delta_interval_us: 0,
            public: true,
            visible_to: BTreeSet::new(),
        }
    }

    /// With another authority (a client-owned synchronizer: its state comes from that peer).
    #[must_use]
    pub fn with_authority(mut self, peer: i32) -> Self {
        self.authority = peer;
        self
    }

    /// With `replication_interval` in seconds, stored in microseconds as the engine stores it.
    #[must_use]
    pub fn with_interval(mut self, seconds: f64) -> Self {
        self.interval_us = (seconds.max(0.0) * 1000.0 * 1000.0) as u64;
        self
    }

    /// With `delta_interval` in seconds.
    #[must_use]
    pub fn with_delta_interval(mut self, seconds: f64) -> Self {
        self.delta_interval_us = (seconds.max(0.0) * 1000.0 * 1000.0) as u64;
        self
    }

    /// With `public_visibility` on or off.
    #[must_use]
    pub fn with_public(mut self, public: bool) -> Self {
        self.public = public;
        self
    }

    /// `is_visible_to` without visibility filters.
    pub fn is_visible_to(&self, peer: i32) -> bool {
        self.public || self.visible_to.contains(&peer)
    }
}

/// A `MultiplayerSpawner`.
#[derive(Debug, Clone, PartialEq)]
pub struct Spawner {
    /// Its node path, relative to the multiplayer root.
    pub path: String,
    /// The node under which it spawns (its `spawn_path` resolved), relative to the root.
    pub spawn_parent: String,
    /// The spawnable scenes (`add_spawnable_scene`), in order: a spawn names one by index.
    pub scenes: Vec<String>,
    /// `spawn_limit` (0: none).
    pub spawn_limit: u32,
    /// On a client: the synchronizers of the scenes the server spawns here that the server
    /// owns, in the order of the SPAWN packet's net ids (paths relative to the spawned node).
    pub synchronizers: Vec<Synchronizer>,
}

impl Spawner {
    /// A spawner at `path` that spawns under `spawn_parent` (both relative to the root).
    pub fn new(path: &str, spawn_parent: &str) -> Self {
        Self {
            path: relative_path(path).to_owned(),
            spawn_parent: relative_path(spawn_parent).to_owned(),
            scenes: Vec::new(),
            spawn_limit: 0,
            synchronizers: Vec::new(),
        }
    }

    /// On a client: adds a synchronizer the spawned scenes hold (see
    /// [`synchronizers`](Self::synchronizers)).
    #[must_use]
    pub fn synchronizer(mut self, sync: Synchronizer) -> Self {
        self.synchronizers.push(sync);
        self
    }

    /// Adds a spawnable scene (`res://player.tscn`).
    #[must_use]
    pub fn scene(mut self, path: &str) -> Self {
        self.scenes.push(path.to_owned());
        self
    }

    /// With a spawn limit.
    #[must_use]
    pub fn with_limit(mut self, limit: u32) -> Self {
        self.spawn_limit = limit;
        self
    }
}

/// What a spawn instantiates on the clients.
#[derive(Debug, Clone, PartialEq)]
pub enum SpawnScene {
    /// The spawner's spawnable scene at this index.
    Index(u8),
    /// A custom spawn: the clients' `spawn_function` gets this data.
    Custom(Variant),
}
