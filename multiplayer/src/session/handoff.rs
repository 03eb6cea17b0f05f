//! A peer moved from one server session to another (`rooms`): what it takes along, and how
//! the session it leaves and the one it joins keep the client's state consistent.
//!
//! A Godot 4 client keeps, for as long as it is connected to peer 1, every path-cache id the
//! server announced (`SceneCacheInterface::PeerInfo::recv_nodes`, never cleaned while the peer
//! is connected) and refuses a second SIMPLIFY_PATH of an id it has ("Duplicate remote cache
//! ID", no CONFIRM_PATH); the ids it announced itself it keeps as confirmed by peer 1
//! (`NodeCache::confirmed_peers`) and uses without announcing them again. So the sessions a
//! client meets take their ids from one shared counter (an id names one path in all of them),
//! the session it joins counts the ids the client holds as sent and confirmed, and learns the
//! ids the client announced (with the client's checksum). The SYNC sequence the client's
//! synchronizers compare (`last_sent_sync`) continues. What was spawned on it is despawned
//! before it leaves, and with relay on it is told that its room-mates left (DEL_PEER), as they
//! are told of it; the new room's mates and nodes then arrive as for a new peer.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::time::Instant;

use crate::event::Event;
use crate::replication::wire::write_despawn;
use crate::rpc::relative_path;
use crate::wire;
use crate::{RpcTable, Session, TransferMode};

/// What a peer takes from the session it leaves to the one it joins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Handoff {
    /// The peer.
    pub(crate) peer: i32,
    /// The path-cache ids it announced, with their paths and its checksum of each node.
    pub(crate) announced: Vec<(u32, String, String)>,
    /// Our ids it was sent (it keeps them while connected), with their paths.
    pub(crate) held: Vec<(u32, String)>,
    /// `last_sent_sync`: the SYNC sequence it was sent last.
    pub(crate) last_sent_sync: u16,
}

impl Session {
    /// Takes path-cache ids from `counter` from now on, shared with the other sessions one
    /// client may be moved between.
    pub(crate) fn share_path_ids(&mut self, counter: Arc<AtomicU32>) {
        self.paths.share_ids(counter);
    }

    /// Moves `peer` out: despawns what was spawned on it, tells it (relay on) that its
    /// room-mates left and them that it left, forgets it ([`Event::PeerDisconnected`]), and
    /// returns what it takes along. `None` (nothing done) for a peer that is not admitted.
    pub(crate) fn hand_off(&mut self, peer: i32) -> Option<Handoff> {
        if !self.paths.is_connected(peer) || peer == self.common.id {
            return None;
        }
        let ids: HashMap<String, u32> = self.paths.entries().into_iter().collect();
        let held = self
            .paths
            .confirmations(peer)
            .into_iter()
            .filter_map(|(path, _)| Some((*ids.get(&path)?, path)))
            .collect();
        let announced = self
            .paths
            .peer_entries(peer)
            .into_iter()
            .map(|(id, path)| {
                let md5 = self
                    .paths
                    .by_path(&path)
                    .map_or_else(String::new, |(i, t)| {
                        self.paths
                            .their_md5(peer, i)
                            .filter(|theirs| !theirs.is_empty())
                            .unwrap_or(t.md5())
                            .to_owned()
                    });
                (id, path, md5)
            })
            .collect();
        let (spawned, last_sent_sync) = self.rep().peer_handoff(peer).unwrap_or_default();
        for node in spawned {
            let Some(net_id) = self.node_net_id(node) else {
                continue;
            };
            let mut packet = Vec::with_capacity(5);
            write_despawn(&mut packet, net_id);
            self.send_command(peer, 0, TransferMode::Reliable, packet);
        }
        if self.announces() {
            // Of the mates it was told of (a join burst's notices may not all be out yet).
            let mates: Vec<i32> = self.paths.ids().filter(|&p| p != peer).collect();
            for mate in mates {
                if self.announcer.told(peer, mate) {
                    super::push_sys(&mut self.common.queues, peer, wire::SYS_DEL_PEER, mate);
                }
            }
        }
        self.del_peer(peer, true);
        Some(Handoff {
            peer,
            announced,
            held,
            last_sent_sync,
        })
    }

    /// Moves a peer in at `now`: with relay on, it and its new room-mates are told of each
    /// other (ADD_PEER); the ids it holds count as sent and confirmed, those it announced are
    /// known (a checksum that differs from ours is reported as its [`Event::Error`], and its
    /// calls on that node refused, as for a SIMPLIFY_PATH); what it may see is spawned on it;
    /// [`Event::PeerConnected`]. Nothing for a peer that is here already.
    pub(crate) fn take_over(&mut self, handoff: &Handoff, now: Instant) {
        let peer = handoff.peer;
        self.usec(now);
        if self.paths.is_connected(peer) || self.auth.is_pending(peer) || peer == self.common.id {
            return;
        }
        if self.announces() {
            // As a join: each mate told of it and it of each, in admission order, within the
            // round's budgets (the rest in the next announcement rounds).
            let queues = &mut self.common.queues;
            self.announcer
                .admit(peer, &self.settings.limits, &mut |to, about| {
                    super::push_sys(queues, to, wire::SYS_ADD_PEER, about);
                });
        }
        self.paths.add_peer(peer);
        let held: HashMap<u32, &str> = handoff
            .held
            .iter()
            .map(|(id, path)| (*id, path.as_str()))
            .collect();
        for (path, id) in self.paths.entries() {
            if id == 0 || held.get(&id) != Some(&path.as_str()) {
                continue;
            }
            if let Some(index) = self.paths.index(&path) {
                self.paths.send(index, &[peer]);
                // Marked sent just now: its confirmation cannot fail.
                let _ = self.paths.receive_confirm(peer, true, id);
            }
        }
        let limit = self.settings.limits.max_cached_paths;
        for (id, path, md5) in &handoff.announced {
            let rel = relative_path(path);
            let index = match self.paths.index(rel) {
                Some(index) => index,
                // A node of the room it left that this one has not declared (yet): its calls
                // are refused as for any undeclared method until it is.
                None => self.paths.declare(RpcTable::new(rel)),
            };
            match self.paths.receive_simplify(peer, (md5, *id, index), limit) {
                Ok((_, Some(mismatch))) | Err(mismatch) => {
                    self.common.queues.report(peer, mismatch)
                }
                Ok((_, None)) => {}
            }
        }
        self.replication_peer_added(peer);
        self.rep_mut()
            .set_last_sent_sync(peer, handoff.last_sent_sync);
        self.common.queues.event(Event::PeerConnected(peer));
    }
}

/// A path's id in `handoff`'s held set, for the unit tests of the rooms.
#[cfg(test)]
pub(crate) fn held_id(handoff: &Handoff, path: &str) -> Option<u32> {
    handoff
        .held
        .iter()
        .find_map(|(id, p)| (p == path).then_some(*id))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicU32;
    use std::time::Instant;

    use super::held_id;
    use crate::{Event, Output, RpcMethod, RpcTable, Session, Settings, TransferMode};

    fn packets(session: &mut Session) -> Vec<(i32, Vec<u8>)> {
        let mut out = Vec::new();
        while let Some(o) = session.poll_output() {
            if let Output::Packet { to, data, .. } = o {
                out.push((to, data));
            }
        }
        out
    }

    fn room(counter: &Arc<AtomicU32>) -> Session {
        let mut s = Session::server(Settings::default());
        s.share_path_ids(counter.clone());
        s.declare(RpcTable::new("/root/Chat").with(RpcMethod::any_peer("say")));
        s
    }

    /// Two rooms on one id counter: the id of `Chat` the peer was sent in room A is counted
    /// as held in room B, whose own `Chat` has another id; B announces its id (never A's
    /// again) and the peer's own announcement and sync sequence travel along.
    #[test]
    fn a_moved_peer_keeps_its_ids_and_sees_despawn_del_add() {
        let counter = Arc::new(AtomicU32::new(1));
        let (mut a, mut b) = (room(&counter), room(&counter));
        let now = Instant::now();
        a.connected(5, now);
        a.connected(6, now);
        b.connected(7, now);
        // A announces Chat to 5 (id 1), B announces its Chat to 7 (id 2: one counter).
        a.rpc(5, "Chat", "say", &("hi",)).unwrap();
        b.rpc(7, "Chat", "say", &("yo",)).unwrap();
        assert_eq!(a.cached_paths(), vec![("Chat".to_owned(), 1)]);
        assert_eq!(b.cached_paths(), vec![("Chat".to_owned(), 2)]);
        // 5 announces its own id 9 for Chat (SIMPLIFY_PATH: cmd 1, md5 + NUL, id, path + NUL).
        let md5 = RpcTable::new("/root/Chat")
            .with(RpcMethod::any_peer("say"))
            .md5()
            .to_owned();
        let mut simplify = vec![1u8];
        simplify.extend_from_slice(md5.as_bytes());
        simplify.push(0);
        simplify.extend_from_slice(&9u32.to_le_bytes());
        simplify.extend_from_slice(b"Chat\0");
        a.receive(5, 0, TransferMode::Reliable, &simplify);
        a.receive(5, 0, TransferMode::Reliable, &[2, 1, 1, 0, 0, 0]); // CONFIRM_PATH 1, valid
        packets(&mut a);
        packets(&mut b);
        while a.poll_event().is_some() {}
        while b.poll_event().is_some() {}

        let handoff = a.hand_off(5).unwrap();
        assert_eq!(held_id(&handoff, "Chat"), Some(1));
        assert_eq!(handoff.announced, vec![(9, "Chat".to_owned(), md5)]);
        // 5 is told 6 left (NETWORK_COMMAND_SYS = 7, SYS_COMMAND_DEL_PEER = 2, id 6 LE),
        // and 6 is told 5 left.
        assert_eq!(
            packets(&mut a),
            vec![(5, vec![7, 2, 6, 0, 0, 0]), (6, vec![7, 2, 5, 0, 0, 0])]
        );
        assert_eq!(a.poll_event(), Some(Event::PeerDisconnected(5)));
        assert_eq!(a.peers().collect::<Vec<_>>(), vec![6]);

        b.take_over(&handoff, now);
        // ADD_PEER (SYS_COMMAND_ADD_PEER = 1) both ways with 7.
        assert_eq!(
            packets(&mut b),
            vec![(7, vec![7, 1, 5, 0, 0, 0]), (5, vec![7, 1, 7, 0, 0, 0])]
        );
        assert_eq!(b.poll_event(), Some(Event::PeerConnected(5)));
        assert_eq!(b.peer_cached_paths(5), vec![(9, "Chat".to_owned())]);
        // B's Chat (id 2) is new to 5: announced, not confirmed.
        b.rpc(5, "Chat", "say", &("x",)).unwrap();
        let sent = packets(&mut b);
        assert_eq!(
            sent.first().map(|(to, d)| (*to, d[0], d[34])),
            Some((5, 1, 2))
        );
        // Back in A: A's id 1 is held, so no SIMPLIFY_PATH, and the call uses id 1 at once.
        let back = b.hand_off(5).unwrap();
        let mut carry = back.clone();
        carry.held.extend(handoff.held.iter().cloned());
        a.take_over(&carry, now);
        packets(&mut a);
        assert_eq!(a.path_confirmations(5), vec![("Chat".to_owned(), true)]);
        a.rpc(5, "Chat", "say", &("again",)).unwrap();
        let sent = packets(&mut a);
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(sent[0].1[0] & 0x0F, 0); // REMOTE_CALL, no SIMPLIFY_PATH before it
    }
}
