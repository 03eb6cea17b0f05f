//! The server's announcements (`SYS_ADD_PEER`, `SYS_DEL_PEER`, relay on): who is told of whom,
//! and when.
//!
//! Godot's `_admit_peer` tells every connected peer of the new one and the new one of every
//! connected peer at once: a burst of N joins is N² one-command reliable packets queued in
//! one frame (4 million for 2,000 players), which ENet then walks on every flush. Here the
//! same packets, in the same order for each peer, are sent within budgets of a *round* (one
//! `service` of a transport, [`Session::announce_round`](crate::Session::announce_round)):
//! at most [`Limits::announce_per_round`](crate::Limits::announce_per_round) to one peer and
//! [`Limits::announce_per_round_total`](crate::Limits::announce_per_round_total) to all. What
//! is not sent yet is not queued anywhere: each peer keeps a cursor into the admission log
//! ("told of every peer admitted before this one") and one into the log of departures, so a
//! burst of joins or of departures makes the process hold one log entry and one record per
//! peer, whatever its size. A small burst (every peer's share
//! within its budget) is sent at admission, byte for byte and in the order Godot sends it.

use std::collections::{HashMap, VecDeque};

use crate::Limits;

/// Whom a server with relay on ([`Settings::relay`](crate::Settings::relay)) tells its clients
/// of (`SYS_ADD_PEER` and `SYS_DEL_PEER`), which is what a Godot client's
/// `multiplayer.peer_connected` / `peer_disconnected` signals and `get_peers()` show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Announce {
    /// Every client learns of every other (Godot's `SceneMultiplayer`, the default): its
    /// `peer_connected` fires for each, `get_peers()` lists the server and all of them.
    /// Bursts are paced by the round budgets of [`Limits`].
    #[default]
    All,
    /// No client learns of another: `peer_connected` fires for the server (1) only and
    /// `get_peers()` is `[1]`. The relay still forwards what clients send each other
    /// (`rpc_id(n)`, broadcasts reach every client); a Godot client runs a relayed call of a
    /// peer it was never told of, with that peer as its `get_remote_sender_id()`. For games
    /// where clients address the server only, or learn of each other from the game's own
    /// messages; a burst then costs N notices instead of N².
    None,
}

/// One admitted peer's place in the announcements.
#[derive(Debug)]
struct Record {
    /// Its place in the admission log.
    seq: u64,
    /// It was told of every peer in the log with a `seq` below this (itself aside).
    cursor: u64,
    /// It was sent (or needs not be sent) every departure in `gone` with a `dseq` below this.
    del_cursor: u64,
    /// The round its `used` counts.
    round: u64,
    /// Announcements sent to it in `round`.
    used: usize,
    /// Whether it is in `Announcer::lagging`.
    lagging: bool,
}

/// The announcement state of a server: the admission log, each peer's cursor, the peers that
/// were not told of everyone yet, and the round's budgets.
#[derive(Debug, Default)]
pub(crate) struct Announcer {
    /// The admitted peers in order of admission (increasing `seq`), departed ones removed.
    log: Vec<(u64, i32)>,
    /// The next admission's `seq`.
    next_seq: u64,
    /// The departures not yet sent to every peer that was told of the departed one, in order:
    /// (`dseq`, the peer, its `seq`). Pruned once every peer has passed an entry.
    gone: VecDeque<(u64, i32, u64)>,
    /// The next departure's `dseq`.
    next_dseq: u64,
    peers: HashMap<i32, Record>,
    /// Peers with a cursor behind the log's end, in turn (entries of departed or caught-up
    /// peers are passed over). At most one entry per admitted peer.
    lagging: VecDeque<i32>,
    /// The current round.
    round: u64,
    /// Announcements sent to anyone in this round.
    used: usize,
}

/// The round's budgets: whether `record` may be sent one more announcement in round `round`
/// (counting it if so).
fn take(record: &mut Record, round: u64, used: &mut usize, limits: &Limits) -> bool {
    if record.round != round {
        record.round = round;
        record.used = 0;
    }
    if record.used >= limits.announce_per_round || *used >= limits.announce_per_round_total {
        return false;
    }
    record.used += 1;
    *used += 1;
    true
}

impl Announcer {
    /// Admits `peer` and sends (`add(to, about)`) what the round's budgets allow, in Godot's
    /// order: for each connected peer `x` in admission order, `x` is told of `peer`, then
    /// `peer` of `x`. The rest waits for [`round`](Self::round).
    pub(crate) fn admit(&mut self, peer: i32, limits: &Limits, add: &mut dyn FnMut(i32, i32)) {
        if self.peers.contains_key(&peer) {
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let mut new = Record {
            seq,
            cursor: 0,
            // No departure concerns it: it was told of no one yet.
            del_cursor: self.next_dseq,
            round: self.round,
            used: 0,
            lagging: false,
        };
        let mut new_stopped = false;
        for &(x_seq, x) in &self.log {
            if let Some(old) = self.peers.get_mut(&x) {
                // Told of everyone before `peer` and of every departure: it can be told of
                // `peer` now.
                if old.cursor == seq && old.del_cursor == self.next_dseq {
                    if take(old, self.round, &mut self.used, limits) {
                        add(x, peer);
                        old.cursor = seq + 1;
                    } else if !old.lagging {
                        old.lagging = true;
                        self.lagging.push_back(x);
                    }
                }
            }
            if !new_stopped {
                if take(&mut new, self.round, &mut self.used, limits) {
                    add(peer, x);
                    new.cursor = x_seq + 1;
                } else {
                    new_stopped = true;
                }
            }
        }
        if new_stopped {
            new.lagging = true;
            self.lagging.push_back(peer);
        } else {
            new.cursor = seq + 1;
        }
        self.log.push((seq, peer));
        self.peers.insert(peer, new);
    }

    /// Whether `to` was told of `about` (both admitted): its cursor is past `about`'s
    /// admission.
    pub(crate) fn told(&self, to: i32, about: i32) -> bool {
        match (self.peers.get(&to), self.peers.get(&about)) {
            (Some(t), Some(a)) => t.cursor > a.seq,
            _ => false,
        }
    }

    /// Forgets `peer` and sends (`del(to, about)`) its departure, within the round's
    /// budgets, to every peer that was told of it (Godot sends it to every peer at once);
    /// the rest follows in [`round`](Self::round), before any later admission. Peers not
    /// told of it yet never will be.
    pub(crate) fn remove(&mut self, peer: i32, limits: &Limits, del: &mut dyn FnMut(i32, i32)) {
        let Some(gone) = self.peers.remove(&peer) else {
            return;
        };
        if let Ok(i) = self.log.binary_search_by_key(&gone.seq, |&(s, _)| s) {
            self.log.remove(i);
        }
        let dseq = self.next_dseq;
        self.next_dseq += 1;
        let mut pending = false;
        for &(_, x) in &self.log {
            let Some(record) = self.peers.get_mut(&x) else {
                continue;
            };
            if record.del_cursor != dseq {
                pending = true; // Behind: it takes this one in turn.
                continue;
            }
            if record.cursor <= gone.seq {
                record.del_cursor = dseq + 1; // Never told of it.
            } else if take(record, self.round, &mut self.used, limits) {
                del(x, peer);
                record.del_cursor = dseq + 1;
            } else {
                pending = true;
                if !record.lagging {
                    record.lagging = true;
                    self.lagging.push_back(x);
                }
            }
        }
        if pending {
            self.gone.push_back((dseq, peer, gone.seq));
        }
    }

    /// Sends `record` (peer `x`) the departures it was not sent yet, within the budgets:
    /// whether it is through them.
    fn departures(
        gone: &VecDeque<(u64, i32, u64)>,
        next_dseq: u64,
        (x, record): (i32, &mut Record),
        (round, used, limits): (u64, &mut usize, &Limits),
        del: &mut dyn FnMut(i32, i32),
    ) -> bool {
        let start = gone.partition_point(|&(d, _, _)| d < record.del_cursor);
        for &(d, about, about_seq) in gone.range(start..) {
            if record.cursor > about_seq {
                if !take(record, round, used, limits) {
                    return false;
                }
                del(x, about);
            }
            record.del_cursor = d + 1;
        }
        record.del_cursor = next_dseq;
        true
    }

    /// Starts a round: the budgets are new, and the peers that were not told of everyone are
    /// sent (`add(to, about)`) the next peers of the log, in turn, within them. A peer for
    /// which `congested` is true (its transport's queue is full) waits for a later round.
    pub(crate) fn round(
        &mut self,
        limits: &Limits,
        congested: &dyn Fn(i32) -> bool,
        add: &mut dyn FnMut(i32, i32),
        del: &mut dyn FnMut(i32, i32),
    ) {
        self.round = self.round.wrapping_add(1);
        self.used = 0;
        self.prune();
        let end = self.next_seq;
        for _ in 0..self.lagging.len() {
            if self.used >= limits.announce_per_round_total {
                return;
            }
            let Some(x) = self.lagging.pop_front() else {
                return;
            };
            let Some(record) = self.peers.get_mut(&x) else {
                continue;
            };
            if congested(x) {
                self.lagging.push_back(x);
                continue;
            }
            // Departures first: a peer that left and joined again (the same id) is told
            // gone, then there.
            let budget = (self.round, &mut self.used, limits);
            if !Self::departures(&self.gone, self.next_dseq, (x, record), budget, del) {
                self.lagging.push_back(x);
                continue;
            }
            let start = self.log.partition_point(|&(s, _)| s < record.cursor);
            let mut done = true;
            for &(s, about) in self.log.get(start..).unwrap_or_default() {
                if about != x {
                    if !take(record, self.round, &mut self.used, limits) {
                        done = false;
                        break;
                    }
                    add(x, about);
                }
                record.cursor = s + 1;
            }
            if done {
                record.cursor = end;
                record.lagging = false;
            } else {
                self.lagging.push_back(x);
            }
        }
    }

    /// Drops the departures every peer is through (at most one pass over the peers per
    /// round, and only while some are kept).
    fn prune(&mut self) {
        if self.gone.is_empty() {
            return;
        }
        let through = self
            .peers
            .values()
            .map(|r| r.del_cursor)
            .min()
            .unwrap_or(self.next_dseq);
        while self.gone.front().is_some_and(|&(d, _, _)| d < through) {
            self.gone.pop_front();
        }
    }

    /// Peers not told of everyone yet (for tests and the bench: 0 once a burst is announced).
    pub(crate) fn lagging(&self) -> usize {
        self.peers.values().filter(|r| r.lagging).count()
    }
}
