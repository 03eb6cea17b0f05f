//! The receiving side: `on_spawn_receive`, `on_despawn_receive`, `on_sync_receive` and
//! `on_delta_receive`, with the engine's authority checks.

use godot_serde::Variant;

use super::wire::{self, Spawn, Sync};
use super::{NodeId, NodeObj, SpawnScene, SyncId, SyncObj};
use crate::args;
use crate::{Event, ProtocolError, Session};

impl Session {
    /// `on_spawn_receive`: only a spawner's authority (the server) may spawn in it. On a
    /// client, the node and the synchronizers declared with the spawner are created with the
    /// packet's net ids and spawn state, and reported as [`Event::Spawned`].
    pub(crate) fn receive_spawn(
        &mut self,
        from: i32,
        spawn: &Spawn<'_>,
    ) -> Result<(), ProtocolError> {
        let path = self
            .cached_path(from, spawn.spawner)
            .ok_or(ProtocolError::UnknownCacheId {
                peer: from,
                id: spawn.spawner,
            })?;
        let Some(index) = self.rep_mut().spawner_index(&path) else {
            return Err(ProtocolError::UnknownNode { peer: from, path });
        };
        // Spawners are the server's (authority 1).
        let authority = 1;
        if from != authority || self.is_server() {
            return Err(ProtocolError::NotAuthority {
                peer: from,
                command: "SPAWN",
                path,
                authority,
            });
        }
        let decl = self.rep_mut().spawner_decl(index);
        let invalid = |what, offset, detail: String| ProtocolError::Invalid {
            what,
            offset,
            detail,
        };
        if spawn.scene != wire::CUSTOM_SPAWN && usize::from(spawn.scene) >= decl.scenes.len() {
            return Err(invalid(
                "spawn scene",
                1,
                format!("{} of {} spawnable scenes", spawn.scene, decl.scenes.len()),
            ));
        }
        let taken = |n: &super::NodeObj| {
            self.rep()
                .spawners
                .get(n.spawner)
                .is_some_and(|s| s.spawn_parent == decl.spawn_parent)
                && n.name == spawn.name
        };
        if self.rep().nodes.values().any(taken) {
            return Err(invalid(
                "spawn name",
                18,
                format!("{:?} exists already", spawn.name),
            ));
        }
        let peer = self
            .rep_mut()
            .peers
            .get(&from)
            .ok_or(ProtocolError::NoSuchPeer(from))?;
        if peer.received().nodes.contains_key(&spawn.net_id) {
            return Err(invalid(
                "spawn net id",
                6,
                format!("{} is in use", spawn.net_id),
            ));
        }
        // The SPAWN lists the net ids of the synchronizers its sender owns.
        let owned = decl
            .synchronizers
            .iter()
            .filter(|s| s.authority == from)
            .count();
        if spawn.sync_count() != owned {
            return Err(invalid(
                "spawn synchronizer count",
                10,
                format!(
                    "{}, the spawner declares {owned} of the server's",
                    spawn.sync_count()
                ),
            ));
        }
        let scene = match spawn.custom {
            Some(bytes) => {
                let (v, _) = args::decode_one(bytes).map_err(|e| ProtocolError::Argument {
                    index: 0,
                    offset: spawn.state_offset - bytes.len(),
                    source: e.into(),
                })?;
                SpawnScene::Custom(v)
            }
            None => SpawnScene::Index(spawn.scene),
        };
        // The spawn state: each synchronizer's spawn properties in turn (before `_ready`).
        let node_path = format!("{}/{}", decl.spawn_parent, spawn.name);
        let mut objs = Vec::new();
        let mut used = 0;
        let mut ids = spawn.sync_ids();
        for sync in &decl.synchronizers {
            let theirs = sync.authority == from;
            let net_id = if theirs {
                ids.next().unwrap_or_default()
            } else {
                0
            };
            let spawn_idx = sync.config.spawn_indexes();
            let rest = spawn.state.get(used..).unwrap_or_default();
            let mut values = vec![Variant::Nil; sync.config.properties().len()];
            if theirs && !rest.is_empty() {
                let (got, n) = decode_values(rest, spawn_idx.len(), spawn.state_offset + used)?;
                used += n;
                for (i, v) in spawn_idx.into_iter().zip(got) {
                    if let Some(slot) = values.get_mut(i) {
                        *slot = v;
                    }
                }
            }
            let full = format!("{node_path}/{}", sync.path);
            if self.rep_mut().sync_by_path.contains_key(&full) {
                return Err(invalid(
                    "spawn name",
                    18,
                    format!("{full:?} exists already"),
                ));
            }
            objs.push((sync.clone(), full, net_id, values));
        }
        let node = NodeId(self.rep_mut().handle());
        let mut syncs = Vec::new();
        for (decl, full, net_id, values) in objs {
            let id = SyncId(self.rep_mut().handle());
            let mut obj = SyncObj::new(decl, full.clone(), Some(node), values);
            obj.net_id = net_id;
            obj.remote = (net_id != 0).then_some(from);
            self.rep_mut().sync_by_path.insert(full, id);
            self.rep_mut().syncs.insert(id, obj);
            if net_id != 0 {
                if let Some(p) = self.rep_mut().peers.record(from) {
                    p.receiving().syncs.insert(net_id, id);
                }
            }
            syncs.push(id);
        }
        let name = spawn.name.to_owned();
        self.rep_mut().nodes.insert(
            node,
            NodeObj {
                spawner: index,
                name,
                scene,
                net_id: spawn.net_id,
                syncs,
            },
        );
        if let Some(p) = self.rep_mut().peers.record(from) {
            p.receiving().nodes.insert(spawn.net_id, node);
        }
        // Ours (a client-owned synchronizer in the spawned scene) start sending.
        let peers: Vec<i32> = self.rep_mut().peers.keys().copied().collect();
        for &sid in self
            .rep_mut()
            .nodes
            .get(&node)
            .map_or(&[][..], |n| &n.syncs)
            .to_vec()
            .iter()
        {
            for &p in &peers {
                self.update_sync_visibility(p, sid);
            }
        }
        let spawner = decl.path.clone();
        let (name, scene) = self
            .rep()
            .node(node)
            .map(|n| (n.name.clone(), n.scene.clone()))
            .unwrap_or_else(|| (String::new(), SpawnScene::Index(0)));
        self.emit(Event::Spawned {
            from,
            node,
            name,
            spawner,
            scene,
        });
        Ok(())
    }

    /// `on_despawn_receive`: a net id the sender spawned here, or refused.
    pub(crate) fn receive_despawn(&mut self, from: i32, net_id: u32) -> Result<(), ProtocolError> {
        let node = self
            .rep_mut()
            .peers
            .get_mut(&from)
            .and_then(|p| p.received_mut()?.nodes.remove(&net_id))
            .ok_or(ProtocolError::UnknownNetId { peer: from, net_id })?;
        let Some(obj) = self.rep_mut().nodes.remove(&node) else {
            return Ok(());
        };
        for sid in obj.syncs {
            if let Some(s) = self.rep_mut().syncs.remove(&sid) {
                self.rep_mut().sync_by_path.remove(&s.full_path);
                let record = self.rep_mut().peers.get_mut(&from);
                if let Some(p) = record.and_then(super::peers::PeerRep::received_mut) {
                    p.syncs.remove(&s.net_id);
                }
                self.forget_path(&s.full_path);
            }
        }
        self.emit(Event::Despawned {
            from,
            node,
            name: obj.name,
        });
        Ok(())
    }

    /// `_find_synchronizer`: a path-based id through the sender's path cache, or a
    /// spawn-assigned id of a synchronizer the sender spawned here.
    fn find_synchronizer(&self, from: i32, net_id: u32) -> Option<SyncId> {
        if net_id & 0x8000_0000 == 0 {
            return self
                .rep()
                .peers
                .get(&from)?
                .received()
                .syncs
                .get(&net_id)
                .copied();
        }
        let path = self.cached_path(from, net_id & 0x7FFF_FFFF)?;
        self.rep().sync_at_path(&path)
    }

    /// `on_sync_receive` / `on_delta_receive`.
    pub(crate) fn receive_sync(&mut self, from: i32, sync: &Sync<'_>) -> Result<(), ProtocolError> {
        let mut refused = None;
        for entry in sync.entries() {
            let entry = entry?;
            let Some(sid) = self.find_synchronizer(from, entry.net_id) else {
                if sync.delta {
                    refused.get_or_insert(ProtocolError::State {
                        peer: from,
                        detail: "sent a delta for an unknown synchronizer",
                    });
                }
                continue; // Full sync: "not received yet".
            };
            let Some(s) = self.rep_mut().sync_mut(sid) else {
                continue;
            };
            if s.decl.authority != from {
                // "Ignoring sync data from non-authority": the rest of the packet is read.
                refused.get_or_insert(ProtocolError::NotAuthority {
                    peer: from,
                    command: "SYNC",
                    path: s.full_path.clone(),
                    authority: s.decl.authority,
                });
                continue;
            }
            let targets = match entry.indexes {
                None => {
                    if !s.update_inbound_sync_time(sync.time) {
                        continue; // Older than the last state.
                    }
                    s.decl.config.sync_indexes()
                }
                Some(bits) => {
                    let watch = s.decl.config.watch_indexes();
                    let t: Vec<usize> = watch
                        .iter()
                        .enumerate()
                        .filter(|(bit, _)| bits & (1 << bit) != 0)
                        .map(|(_, &i)| i)
                        .collect();
                    if t.is_empty() {
                        return Err(ProtocolError::Invalid {
                            what: "delta indexes",
                            offset: entry.offset - 12,
                            detail: format!(
                                "{bits:#x} names none of the {} watched properties",
                                watch.len()
                            ),
                        });
                    }
                    t
                }
            };
            let values = decode_values(entry.state, targets.len(), entry.offset)?;
            if entry.indexes.is_some() && values.1 != entry.state.len() {
                return Err(ProtocolError::Invalid {
                    what: "delta size",
                    offset: entry.offset - 4,
                    detail: format!("{} bytes, the values use {}", entry.state.len(), values.1),
                });
            }
            s.encoded_sync = None;
            let mut changed = Vec::new();
            for (i, v) in targets.into_iter().zip(values.0) {
                if let Some(slot) = s.values.get_mut(i) {
                    if !super::same(slot, &v) {
                        let property = s.decl.config.properties().get(i);
                        changed.extend(property.map(|p| p.path.clone()));
                    }
                    *slot = v;
                }
            }
            self.emit(Event::Synchronized {
                from,
                sync: sid,
                delta: entry.indexes.is_some(),
                changed,
            });
        }
        refused.map_or(Ok(()), Err)
    }
}

/// `decode_and_decompress_variants` of `count` values: the values and the bytes used.
fn decode_values(
    bytes: &[u8],
    count: usize,
    offset: usize,
) -> Result<(Vec<Variant>, usize), ProtocolError> {
    let mut out = Vec::with_capacity(count.min(bytes.len()));
    let mut used = 0;
    for index in 0..count {
        let rest = bytes.get(used..).unwrap_or_default();
        if rest.is_empty() {
            return Err(ProtocolError::Argument {
                index,
                offset: offset + used,
                source: crate::error::FormatError::custom("the state ends before this value"),
            });
        }
        let (v, n) = args::decode_one(rest).map_err(|e| ProtocolError::Argument {
            index,
            offset: offset + used,
            source: e.into(),
        })?;
        out.push(v);
        used += n;
    }
    Ok((out, used))
}
