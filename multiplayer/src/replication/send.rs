//! The authority side: declarations, spawn, despawn, state, visibility and the network
//! process (`on_network_process`, `_send_sync`, `_send_delta`).

use std::collections::BTreeSet;

use godot_serde::Variant;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{NodeId, NodeObj, SpawnScene, Spawner, SyncId, SyncObj, Synchronizer, wire};
use crate::args;
use crate::{ProtocolError, Session, TransferMode};

fn refuse(msg: String) -> ProtocolError {
    ProtocolError::Replication(msg)
}

fn encode(values: &[Variant]) -> Result<Vec<u8>, ProtocolError> {
    let mut out = Vec::new();
    for v in values {
        args::encode_one(v, &mut out).map_err(|e| ProtocolError::EncodeValue(e.into()))?;
    }
    Ok(out)
}

impl Session {
    // ---- declarations ---------------------------------------------------------------------

    /// Declares a `MultiplayerSpawner` (replacing one at the same path).
    pub fn declare_spawner(&mut self, spawner: Spawner) {
        match self.rep_mut().spawner_index(&spawner.path) {
            Some(i) => {
                if let Some(slot) = self.rep_mut().spawners.get_mut(i) {
                    *slot = spawner;
                }
            }
            None => self.rep_mut().spawners.push(spawner),
        }
    }

    /// Declares a `MultiplayerSynchronizer` that is part of the scene on every side (not
    /// spawned), with its initial state (one value per config property). Its net id is its
    /// path-cache id (`0x80000000 | id`), as the engine names unspawned synchronizers.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for a path in use or a state of the wrong length.
    pub fn declare_synchronizer(
        &mut self,
        sync: Synchronizer,
        state: Vec<Variant>,
    ) -> Result<SyncId, ProtocolError> {
        let path = sync.path.clone();
        let id = self.add_sync(sync, path, None, state)?;
        // `on_replication_start`: the synchronizer's visibility for every peer.
        let peers: Vec<i32> = self.rep_mut().peers.keys().copied().collect();
        for peer in peers {
            self.update_sync_visibility(peer, id);
        }
        Ok(id)
    }

    fn add_sync(
        &mut self,
        sync: Synchronizer,
        full_path: String,
        node: Option<NodeId>,
        state: Vec<Variant>,
    ) -> Result<SyncId, ProtocolError> {
        if self.rep_mut().sync_by_path.contains_key(&full_path) {
            return Err(refuse(format!(
                "a synchronizer at {full_path:?} exists already"
            )));
        }
        let n = sync.config.properties().len();
        if state.len() != n {
            return Err(refuse(format!(
                "{full_path:?} has {n} properties, the state has {} values",
                state.len()
            )));
        }
        let id = SyncId(self.rep_mut().handle());
        self.rep_mut().sync_by_path.insert(full_path.clone(), id);
        self.rep_mut()
            .syncs
            .insert(id, SyncObj::new(sync, full_path, node, state));
        Ok(id)
    }

    fn remove_sync(&mut self, id: SyncId) {
        let Some(obj) = self.rep_mut().syncs.remove(&id) else {
            return;
        };
        self.rep_mut().sync_by_path.remove(&obj.full_path);
        for p in self.rep_mut().peers.values_mut() {
            p.sync_nodes.remove(&id);
            p.last_watch.remove(&id);
        }
        self.forget_path(&obj.full_path);
    }

    /// Removes a declared synchronizer (`on_replication_stop`).
    pub fn remove_synchronizer(&mut self, sync: SyncId) {
        self.remove_sync(sync);
    }

    // ---- spawn and despawn ----------------------------------------------------------------

    /// Spawns a node named `name` in the spawner at `spawner` on every peer that may see it:
    /// the scene (a spawnable-scene index or a custom spawn's data), and its synchronizers
    /// (paths relative to the spawned node) with their initial state, whose spawn properties
    /// travel in the SPAWN packet. Peers that join later get the spawn when they join.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`]: an undeclared spawner, a spawner of another authority,
    /// a scene index out of range, an invalid or used name, the spawn limit, a state of the
    /// wrong length; [`ProtocolError::Encode`] for a custom argument Godot cannot hold.
    pub fn spawn(
        &mut self,
        spawner: &str,
        scene: SpawnScene,
        name: &str,
        synchronizers: Vec<(Synchronizer, Vec<Variant>)>,
    ) -> Result<NodeId, ProtocolError> {
        let spawner_path = crate::rpc::relative_path(spawner);
        let index = self
            .rep_mut()
            .spawner_index(spawner_path)
            .ok_or_else(|| refuse(format!("no spawner declared at {spawner_path:?}")))?;
        let decl = self.rep_mut().spawner_decl(index);
        if !self.is_server() {
            return Err(refuse(format!(
                "spawner {spawner_path:?} belongs to the server"
            )));
        }
        if let SpawnScene::Index(i) = scene {
            if usize::from(i) >= decl.scenes.len() || i == wire::CUSTOM_SPAWN {
                return Err(refuse(format!(
                    "scene {i} of spawner {spawner_path:?}, which has {} spawnable scenes",
                    decl.scenes.len()
                )));
            }
        }
        if name.is_empty() || name.contains(['.', ':', '/', '"', '%', '@']) {
            return Err(refuse(format!("{name:?} is not a valid node name")));
        }
        let siblings = self.rep_mut().nodes.values().filter(|n| n.spawner == index);
        if decl.spawn_limit > 0 && siblings.clone().count() >= decl.spawn_limit as usize {
            return Err(refuse(format!(
                "spawner {spawner_path:?} reached its limit {}",
                decl.spawn_limit
            )));
        }
        let node_path = format!("{}/{name}", decl.spawn_parent)
            .trim_start_matches('/')
            .to_owned();
        if self.rep().nodes.values().any(|n| {
            self.rep()
                .spawners
                .get(n.spawner)
                .is_some_and(|s| s.spawn_parent == decl.spawn_parent)
                && n.name == name
        }) {
            return Err(refuse(format!("a node {node_path:?} exists already")));
        }
        for (s, state) in &synchronizers {
            let full = format!("{node_path}/{}", s.path);
            let n = s.config.properties().len();
            if state.len() != n || self.rep_mut().sync_by_path.contains_key(&full) {
                return Err(refuse(format!(
                    "synchronizer {full:?}: {n} properties, {} values, or in use",
                    state.len()
                )));
            }
        }
        if let SpawnScene::Custom(arg) = &scene {
            encode(std::slice::from_ref(arg))?;
        }
        let id = NodeId(self.rep_mut().handle());
        self.rep_mut().nodes.insert(
            id,
            NodeObj {
                spawner: index,
                name: name.to_owned(),
                scene,
                net_id: 0,
                syncs: Vec::new(),
            },
        );
        for (s, state) in synchronizers {
            let full = format!("{node_path}/{}", s.path);
            let sid = self.add_sync(s, full, Some(id), state)?;
            if let Some(n) = self.rep_mut().nodes.get_mut(&id) {
                n.syncs.push(sid);
            }
        }
        // `on_replication_start` of its synchronizers (their visibility, once the node has all
        // of them: interest lets the owner of any see the node), then `_node_ready`: spawn to
        // every peer that may see it. Under an interest rule a new node is in nobody's
        // interest yet: only its synchronizers' authorities can see it.
        let peers: Vec<i32> = if self.rep().interest.active() {
            let syncs = self.node_synchronizers(id);
            let mut owners: Vec<i32> = syncs
                .iter()
                .filter_map(|s| self.rep().sync(*s).map(|s| s.decl.authority))
                .filter(|p| self.rep().peers.contains_key(p))
                .collect();
            owners.sort_unstable();
            owners.dedup();
            owners
        } else {
            self.rep_mut().peers.keys().copied().collect()
        };
        let syncs = self.node_synchronizers(id).to_vec();
        for &peer in &peers {
            for &sid in &syncs {
                self.update_sync_visibility(peer, sid);
            }
        }
        let visible: Vec<i32> = peers
            .into_iter()
            .filter(|&p| self.spawn_visible(id, p))
            .collect();
        self.send_spawn(id, &visible)?;
        Ok(id)
    }

    /// Whether a spawned node is visible to `peer`: OR over its synchronizers we own
    /// (`_update_spawn_visibility`); visible when it has none.
    pub(crate) fn spawn_visible(&self, node: NodeId, peer: i32) -> bool {
        let Some(n) = self.rep().nodes.get(&node) else {
            return false;
        };
        if !self.interest_allows(peer, node) {
            return false;
        }
        let mut visible = true;
        for sid in &n.syncs {
            let Some(s) = self.rep().syncs.get(sid) else {
                continue;
            };
            if s.decl.authority != self.unique_id() {
                continue;
            }
            if s.decl.is_visible_to(peer) {
                return true;
            }
            visible = false;
        }
        visible
    }

    /// `_make_spawn_packet` (net ids given on first use) and its sending to `peers`.
    pub(crate) fn send_spawn(&mut self, node: NodeId, peers: &[i32]) -> Result<(), ProtocolError> {
        if peers.is_empty() {
            return Ok(());
        }
        let me = self.unique_id();
        let Some(n) = self.rep_mut().nodes.get(&node) else {
            return Ok(());
        };
        let (spawner, syncs) = (n.spawner, n.syncs.clone());
        if n.net_id == 0 {
            self.rep_mut().last_net_id += 1;
            let nid = self.rep_mut().last_net_id;
            if let Some(n) = self.rep_mut().nodes.get_mut(&node) {
                n.net_id = nid;
            }
        }
        let mut sync_ids = Vec::new();
        let mut state = Vec::new();
        for sid in syncs {
            let Some(s) = self.rep_mut().syncs.get(&sid) else {
                continue;
            };
            if s.decl.authority != me {
                continue;
            }
            state.extend(s.values_at(&s.decl.config.spawn_indexes()));
            if s.net_id == 0 {
                self.rep_mut().last_net_id += 1;
                let nid = self.rep_mut().last_net_id;
                if let Some(s) = self.rep_mut().syncs.get_mut(&sid) {
                    s.net_id = nid;
                }
            }
            sync_ids.push(self.rep_mut().syncs.get(&sid).map_or(0, |s| s.net_id));
        }
        let state = encode(&state)?;
        let Some(n) = self.rep_mut().nodes.get(&node) else {
            return Ok(());
        };
        let (scene, custom) = match &n.scene {
            SpawnScene::Index(i) => (*i, None),
            SpawnScene::Custom(arg) => {
                (wire::CUSTOM_SPAWN, Some(encode(std::slice::from_ref(arg))?))
            }
        };
        let (name, net_id) = (n.name.clone(), n.net_id);
        let spawner_path = self
            .rep_mut()
            .spawners
            .get(spawner)
            .map(|s| s.path.clone())
            .unwrap_or_default();
        for &peer in peers {
            let (cache_id, _) = self.object_cache(&spawner_path, peer);
            let mut packet = Vec::with_capacity(32 + state.len());
            wire::write_spawn(
                &mut packet,
                scene,
                cache_id,
                net_id,
                &sync_ids,
                &name,
                custom.as_deref(),
                &state,
            );
            self.send_command(peer, 0, TransferMode::Reliable, packet);
            if let Some(p) = self.rep_mut().peers.record(peer) {
                p.spawned.insert(node);
            }
        }
        Ok(())
    }

    pub(crate) fn send_despawn(&mut self, node: NodeId, peers: &[i32]) {
        let net_id = self.rep_mut().nodes.get(&node).map_or(0, |n| n.net_id);
        for &peer in peers {
            let mut packet = Vec::with_capacity(5);
            wire::write_despawn(&mut packet, net_id);
            if let Some(p) = self.rep_mut().peers.get_mut(&peer) {
                p.spawned.remove(&node);
            }
            self.send_command(peer, 0, TransferMode::Reliable, packet);
        }
    }

    /// Despawns a node on every peer that has it (`on_despawn`), and forgets it and its
    /// synchronizers.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for an unknown node.
    pub fn despawn(&mut self, node: NodeId) -> Result<(), ProtocolError> {
        if !self.rep_mut().nodes.contains_key(&node) {
            return Err(refuse(format!("no spawned node {node:?}")));
        }
        let peers: Vec<i32> = self
            .rep_mut()
            .peers
            .iter()
            .filter(|(_, p)| p.spawned.contains(&node))
            .map(|(&id, _)| id)
            .collect();
        self.send_despawn(node, &peers);
        self.rep_mut().interest.forget_node(node);
        if let Some(n) = self.rep_mut().nodes.remove(&node) {
            for sid in n.syncs {
                self.remove_sync(sid);
            }
        }
        Ok(())
    }

    /// The synchronizers of a spawned node, in the order given to [`spawn`](Self::spawn).
    pub fn node_synchronizers(&self, node: NodeId) -> &[SyncId] {
        self.rep().node(node).map_or(&[], |n| &n.syncs)
    }

    /// A synchronizer's net id, for harnesses: the spawn counter's id, `0x80000000 | path-cache
    /// id` for one named by path, 0 while it has none yet.
    pub fn synchronizer_net_id(&self, sync: SyncId) -> Option<u32> {
        self.rep().sync(sync).map(|s| s.net_id)
    }

    /// A spawned node's net id (0 until it is first spawned on a peer).
    pub fn node_net_id(&self, node: NodeId) -> Option<u32> {
        self.rep().node(node).map(|n| n.net_id)
    }

    /// The synchronizer at `path` (relative to the root; for a spawned node
    /// `spawn_parent/name/sync`).
    pub fn synchronizer_at(&self, path: &str) -> Option<SyncId> {
        self.rep().sync_at_path(crate::rpc::relative_path(path))
    }

    // ---- state ---------------------------------------------------------------------------

    /// Sets a synchronizer's state: one value per config property, in the config's order.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for an unknown synchronizer or a wrong length.
    pub fn set_state(&mut self, sync: SyncId, values: Vec<Variant>) -> Result<(), ProtocolError> {
        let s = self
            .rep_mut()
            .sync_mut(sync)
            .ok_or_else(|| refuse(format!("no synchronizer {sync:?}")))?;
        if values.len() != s.values.len() {
            return Err(refuse(format!(
                "{:?} has {} properties, the state has {} values",
                s.full_path,
                s.values.len(),
                values.len()
            )));
        }
        s.values = values;
        Ok(())
    }

    /// Sets a synchronizer's state from a struct whose fields are the config's properties in
    /// order (see [`ReplicationConfig::for_struct`](super::ReplicationConfig::for_struct)).
    ///
    /// # Errors
    ///
    /// As [`set_state`](Self::set_state); [`ProtocolError::Encode`].
    pub fn set_state_as<T: ?Sized + Serialize>(
        &mut self,
        sync: SyncId,
        state: &T,
    ) -> Result<(), ProtocolError> {
        let values = args::to_arguments(state)?;
        self.set_state(sync, values)
    }

    /// A synchronizer's state, one value per config property.
    pub fn state(&self, sync: SyncId) -> Option<&[Variant]> {
        self.rep().sync(sync).map(|s| s.values.as_slice())
    }

    /// A synchronizer's state as a struct (fields in the config's order).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when it does not fit `T`, [`ProtocolError::Replication`]
    /// for an unknown synchronizer.
    pub fn state_as<T: DeserializeOwned>(&self, sync: SyncId) -> Result<T, ProtocolError> {
        let s = self
            .rep()
            .sync(sync)
            .ok_or_else(|| refuse(format!("no synchronizer {sync:?}")))?;
        args::from_arguments(&s.full_path, &s.values)
    }

    // ---- visibility ----------------------------------------------------------------------

    /// `set_visibility_for(peer, visible)` (peer 0: `public_visibility`): spawns or despawns
    /// the node on the peers it concerns, and starts or stops sending its state.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for an unknown synchronizer.
    pub fn set_visibility_for(
        &mut self,
        sync: SyncId,
        peer: i32,
        visible: bool,
    ) -> Result<(), ProtocolError> {
        let s = self
            .rep_mut()
            .sync_mut(sync)
            .ok_or_else(|| refuse(format!("no synchronizer {sync:?}")))?;
        if peer == 0 {
            s.decl.public = visible;
        } else if visible {
            s.decl.visible_to.insert(peer);
        } else {
            s.decl.visible_to.remove(&peer);
        }
        let node = s.node;
        // `_visibility_changed`: spawn visibility first, then sync visibility.
        let peers: Vec<i32> = if peer == 0 {
            self.rep_mut().peers.keys().copied().collect()
        } else {
            vec![peer]
        };
        for p in peers {
            if !self.rep_mut().peers.contains_key(&p) {
                continue;
            }
            if let Some(node) = node {
                self.update_spawn_visibility(p, node)?;
            }
            self.update_sync_visibility(p, sync);
        }
        Ok(())
    }

    pub(crate) fn update_spawn_visibility(
        &mut self,
        peer: i32,
        node: NodeId,
    ) -> Result<(), ProtocolError> {
        let visible = self.spawn_visible(node, peer);
        let has = self
            .rep_mut()
            .peers
            .get(&peer)
            .is_some_and(|p| p.spawned.contains(&node));
        if visible && !has {
            self.send_spawn(node, &[peer])?;
        } else if !visible && has {
            self.send_despawn(node, &[peer]);
        }
        Ok(())
    }

    pub(crate) fn update_sync_visibility(&mut self, peer: i32, sync: SyncId) {
        let me = self.unique_id();
        let Some(s) = self.rep_mut().syncs.get(&sync) else {
            return;
        };
        if s.decl.authority != me || peer == me {
            return;
        }
        let (node, visible) = (s.node, s.decl.is_visible_to(peer));
        let visible = visible && node.is_none_or(|n| self.interest_allows(peer, n));
        // A record is made for a synchronizer the peer comes to see, not for one it does not.
        let changed = if visible {
            let Some(p) = self.rep_mut().peers.record(peer) else {
                return;
            };
            p.sync_nodes.insert(sync)
        } else {
            let Some(p) = self.rep_mut().peers.get_mut(&peer) else {
                return;
            };
            p.last_watch.remove(&sync);
            p.sync_nodes.remove(&sync)
        };
        if let (true, Some(s)) = (changed, self.rep_mut().syncs.get_mut(&sync)) {
            s.viewers = if visible {
                s.viewers.saturating_add(1)
            } else {
                s.viewers.saturating_sub(1)
            };
        }
    }

    pub(crate) fn replication_peer_added(&mut self, peer: i32) {
        self.rep_mut().peers.connect(peer);
        let nodes: Vec<NodeId> = self.rep().nodes.keys().copied().collect();
        for node in nodes {
            let ours = self
                .rep()
                .nodes
                .get(&node)
                .and_then(|n| self.rep().spawners.get(n.spawner))
                .is_some();
            if ours && self.is_server() {
                // A node whose custom argument no longer encodes was refused at spawn.
                let _ = self.update_spawn_visibility(peer, node);
            }
        }
        let syncs: Vec<SyncId> = self.rep_mut().syncs.keys().copied().collect();
        for sync in syncs {
            self.update_sync_visibility(peer, sync);
        }
    }

    pub(crate) fn replication_peer_removed(&mut self, peer: i32) {
        // `_free_remotes`: what the peer spawned here goes with it (no despawn event).
        self.rep_mut().interest.forget_peer(peer);
        if let Some(mut p) = self.rep_mut().peers.disconnect(peer) {
            for sid in &p.sync_nodes {
                if let Some(s) = self.rep_mut().syncs.get_mut(sid) {
                    s.viewers = s.viewers.saturating_sub(1);
                }
            }
            for node in p.take_received().nodes.into_values() {
                self.rep_mut().interest.forget_node(node);
                if let Some(n) = self.rep_mut().nodes.remove(&node) {
                    for sid in n.syncs {
                        self.remove_sync(sid);
                    }
                }
            }
        }
    }

    // ---- the network process -------------------------------------------------------------

    /// The replication step of `SceneMultiplayer::poll` (`on_network_process`): for every peer
    /// that sees a synchronizer of ours, a full SYNC of the synchronizers whose replication
    /// interval passed (unreliable) and a delta SYNC of the watched properties that changed
    /// since the peer's last delta (reliable). `now_us` is the session clock's microseconds
    /// (the engine's `get_ticks_usec`); [`Session::handle_timeout`] runs it.
    pub(crate) fn replicate(&mut self, now_us: u64) {
        // Interest first, so a node that entered a peer's interest is spawned before its
        // state is sent.
        self.interest_tick(now_us);
        let peers: Vec<i32> = self.rep_mut().peers.keys().copied().collect();
        for peer in peers {
            let Some(p) = self.rep_mut().peers.get_mut(&peer) else {
                continue;
            };
            if p.sync_nodes.is_empty() {
                continue;
            }
            p.last_sent_sync = p.last_sent_sync.wrapping_add(1);
            let time = p.last_sent_sync;
            let syncs: Vec<SyncId> = p.sync_nodes.iter().copied().collect();
            self.send_sync(peer, &syncs, time, now_us);
            self.send_delta(peer, &syncs, now_us);
        }
    }

    /// `_verify_synchronizer`: the net id to write, or `None` while the path-based id is not
    /// confirmed by `peer`.
    fn verify_synchronizer(&mut self, peer: i32, sync: SyncId) -> Option<u32> {
        let s = self.rep_mut().syncs.get(&sync)?;
        let net_id = s.net_id;
        if net_id != 0 && net_id & 0x8000_0000 == 0 {
            return Some(net_id);
        }
        let path = s.full_path.clone();
        let (cache_id, confirmed) = self.object_cache(&path, peer);
        let id = 0x8000_0000 | cache_id;
        if net_id == 0 {
            if let Some(s) = self.rep_mut().syncs.get_mut(&sync) {
                s.net_id = id;
            }
        }
        confirmed.then_some(id)
    }

    fn send_sync(&mut self, peer: i32, syncs: &[SyncId], time: u16, usec: u64) {
        let mtu = self.rep_mut().sync_mtu;
        let mut packet = Vec::new();
        wire::start_sync(&mut packet, time);
        for &sid in syncs {
            // One lookup in the common case (a spawned synchronizer, room in the packet): the
            // path-based ids and a full packet need the session between two lookups.
            let Some(s) = self.rep_mut().syncs.get_mut(&sid) else {
                continue;
            };
            if !s.update_outbound_sync_time(usec) {
                continue;
            }
            let mut net_id = s.net_id;
            let s = if net_id == 0 || net_id & 0x8000_0000 != 0 {
                let Some(id) = self.verify_synchronizer(peer, sid) else {
                    continue;
                };
                net_id = id;
                let Some(s) = self.rep_mut().syncs.get_mut(&sid) else {
                    continue;
                };
                s
            } else {
                s
            };
            // Encoded once per frame, whatever the number of peers.
            if s.encoded_sync.as_ref().is_none_or(|(t, _)| *t != usec) {
                let Ok(bytes) = encode(&s.values_at(&s.sync_idx)) else {
                    continue;
                };
                s.encoded_sync = Some((usec, bytes));
            }
            let Some((_, state)) = s.encoded_sync.as_ref() else {
                continue;
            };
            if state.len() > mtu {
                continue; // "Node states bigger than MTU will not be sent".
            }
            if packet.len() + 8 + state.len() <= mtu {
                if !state.is_empty() {
                    wire::write_sync_entry(&mut packet, net_id, state);
                }
                continue;
            }
            // The packet is full: sent, and the entry starts the next one.
            let full = std::mem::take(&mut packet);
            self.send_command(peer, 0, TransferMode::Unreliable, full);
            wire::start_sync(&mut packet, time);
            let cached = self
                .rep_mut()
                .syncs
                .get(&sid)
                .and_then(|s| s.encoded_sync.as_ref());
            if let Some((_, state)) = cached {
                if !state.is_empty() {
                    wire::write_sync_entry(&mut packet, net_id, state);
                }
            }
        }
        if packet.len() > 3 {
            self.send_command(peer, 0, TransferMode::Unreliable, packet);
        }
    }

    fn send_delta(&mut self, peer: i32, syncs: &[SyncId], usec: u64) {
        let mtu = self.rep_mut().delta_mtu;
        // The peer's delta times, out of the peer for the walk (one lookup, not one a
        // synchronizer), put back after.
        let Some(mut last_watch) = self
            .rep_mut()
            .peers
            .get_mut(&peer)
            .map(|p| std::mem::take(&mut p.last_watch))
        else {
            return;
        };
        let mut packet = Vec::new();
        wire::start_delta(&mut packet);
        for &sid in syncs {
            // A spawned synchronizer without watched properties has no delta (and no path to
            // announce): skipped at once. Path-based ones go through the check, which may
            // announce their path as the engine's does.
            let spawned_id = |s: &super::SyncObj| s.net_id != 0 && s.net_id & 0x8000_0000 == 0;
            if self
                .rep()
                .syncs
                .get(&sid)
                .is_none_or(|s| s.watch_idx.is_empty() && spawned_id(s))
            {
                continue;
            }
            let Some(net_id) = self.verify_synchronizer(peer, sid) else {
                continue;
            };
            let last = last_watch.get(&sid).copied().unwrap_or(0);
            let Some(s) = self.rep_mut().syncs.get_mut(&sid) else {
                continue;
            };
            let (indexes, values) = s.delta_state(usec, last);
            if values.is_empty() {
                continue;
            }
            let Ok(state) = encode(&values) else { continue };
            if state.len() > mtu {
                continue;
            }
            if packet.len() + 16 + state.len() > mtu {
                let full = std::mem::take(&mut packet);
                self.send_command(peer, 0, TransferMode::Reliable, full);
                wire::start_delta(&mut packet);
            }
            if !state.is_empty() {
                wire::write_delta_entry(&mut packet, net_id, indexes, &state);
            }
            last_watch.insert(sid, usec);
        }
        if let Some(p) = self.rep_mut().peers.get_mut(&peer) {
            p.last_watch = last_watch;
        }
        if packet.len() > 1 {
            self.send_command(peer, 0, TransferMode::Reliable, packet);
        }
    }

    /// What replication holds, for memory bounds: (synchronizers, spawned nodes, per-peer
    /// entries: spawned nodes, visible synchronizers and delta times over every peer).
    pub fn replication_footprint(&self) -> (usize, usize, usize) {
        self.rep().counts()
    }

    /// The peers a spawned node is spawned on.
    pub fn spawned_on(&self, node: NodeId) -> BTreeSet<i32> {
        self.rep()
            .peers
            .iter()
            .filter(|(_, p)| p.spawned.contains(&node))
            .map(|(&id, _)| id)
            .collect()
    }
}
