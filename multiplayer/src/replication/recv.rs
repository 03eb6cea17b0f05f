//! The receiving side: `on_spawn_receive`, `on_despawn_receive`, `on_sync_receive` and
//! `on_delta_receive`, with the engine's authority checks.

use godot_serde::Variant;

use super::SyncId;
use super::wire::{Spawn, Sync};
use crate::args;
use crate::{Event, ProtocolError, Session};

impl Session {
    /// A SIMPLIFY_PATH's node: a declared RPC table, a synchronizer (a client-owned one names
    /// itself by path before its first SYNC) or a spawner.
    pub(crate) fn table_index_or_sync(
        &mut self,
        from: i32,
        path: &str,
    ) -> Result<usize, ProtocolError> {
        let rel = crate::rpc::relative_path(path);
        if let Some(&i) = self.by_path.get(rel) {
            return Ok(i);
        }
        if self.rep.sync_at_path(rel).is_some() || self.rep.spawner_index(rel).is_some() {
            self.declare(crate::RpcTable::new(rel));
            if let Some(&i) = self.by_path.get(rel) {
                return Ok(i);
            }
        }
        Err(ProtocolError::UnknownNode {
            peer: from,
            path: path.to_owned(),
        })
    }

    fn cached_path(&self, from: i32, id: u32) -> Option<String> {
        let index = *self.peers.get(&from)?.recv.get(&id)?;
        self.tables.get(index).map(|t| t.path().to_owned())
    }

    /// `on_spawn_receive`: only a spawner's authority may spawn in it. The server owns every
    /// declared spawner, so a client's SPAWN is refused as the engine refuses it.
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
        let Some(index) = self.rep.spawner_index(&path) else {
            return Err(ProtocolError::UnknownNode { peer: from, path });
        };
        // Spawners are the server's (authority 1).
        let authority = 1;
        if from != authority {
            return Err(ProtocolError::NotAuthority {
                peer: from,
                command: "SPAWN",
                path,
                authority,
            });
        }
        let _ = index;
        Err(ProtocolError::Unsupported(
            "SPAWN received by a client session",
        ))
    }

    /// `on_despawn_receive`: a net id the sender spawned here, or refused.
    pub(crate) fn receive_despawn(&mut self, from: i32, net_id: u32) -> Result<(), ProtocolError> {
        // This session never takes spawns from a peer, so no net id is the sender's.
        Err(ProtocolError::UnknownNetId { peer: from, net_id })
    }

    /// `_find_synchronizer`: a path-based id through the sender's path cache; spawn-assigned
    /// ids only name synchronizers the sender spawned here (none).
    fn find_synchronizer(&self, from: i32, net_id: u32) -> Option<SyncId> {
        if net_id & 0x8000_0000 == 0 {
            return None;
        }
        let path = self.cached_path(from, net_id & 0x7FFF_FFFF)?;
        self.rep.sync_at_path(&path)
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
            let Some(s) = self.rep.sync_mut(sid) else {
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
            for (i, v) in targets.into_iter().zip(values.0) {
                if let Some(slot) = s.values.get_mut(i) {
                    *slot = v;
                }
            }
            self.events.push_back(Event::Synchronized {
                from,
                sync: sid,
                delta: entry.indexes.is_some(),
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
                message: "state ends before this value".into(),
            });
        }
        let (v, n) = args::decode_one(rest).map_err(|e| ProtocolError::Argument {
            index,
            offset: offset + used,
            message: e.to_string(),
        })?;
        out.push(v);
        used += n;
    }
    Ok((out, used))
}
