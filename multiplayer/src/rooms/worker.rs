//! A rooms' thread: the sessions of the rooms assigned to it, fed by the transport thread's
//! messages, its outputs sent back in one batch per turn.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use super::{Room, RoomId, RoomLogic, RoomsLimits};
use crate::session::handoff::Handoff;
use crate::{Output, ProtocolError, Session, Settings, TransferMode};

/// Messages handled in one turn before the outputs go back (then the channel is read again).
const TURN: usize = 256;

/// What the transport thread asks of a rooms' thread.
pub(super) enum ToWorker {
    /// A new room: its logic, and its count of packets waiting.
    AddRoom(RoomId, Box<dyn RoomLogic>, Arc<AtomicUsize>),
    /// Runs a closure in a room (setup, a spawn from outside).
    Run(RoomId, Box<dyn FnOnce(&mut Room<'_>) + Send>),
    /// A peer connected into a room.
    Connect(RoomId, i32, Instant),
    /// A packet of a peer of a room, with the peer's count of packets waiting.
    Packet {
        room: RoomId,
        from: i32,
        channel: u8,
        mode: TransferMode,
        data: Vec<u8>,
        waiting: Arc<AtomicUsize>,
    },
    /// The transport lost a peer (or dropped it).
    Disconnect(RoomId, i32),
    /// A peer leaves a room for another.
    Leave { room: RoomId, peer: i32, to: RoomId },
    /// A peer moved in.
    Join(RoomId, Box<Handoff>, Instant),
}

/// What a rooms' thread gives back.
pub(super) enum FromWorker {
    /// Packets and disconnections for the transports, in order.
    Outputs(Vec<Output>),
    /// A peer left `from` for `to` (`None`: it was not admitted there, so it stays).
    Left {
        peer: i32,
        from: RoomId,
        to: RoomId,
        handoff: Option<Box<Handoff>>,
    },
    /// A room's logic asks to move a peer (the peer, the asking room, the room asked for).
    MoveRequest(i32, RoomId, RoomId),
    /// Something of one peer's found on a rooms' thread.
    Error(i32, ProtocolError),
    /// A room's logic panicked: the room is gone, its peers were disconnected.
    RoomStopped(RoomId),
}

pub(super) struct RoomState {
    session: Session,
    logic: Box<dyn RoomLogic>,
    waiting: Arc<AtomicUsize>,
}

/// A rooms' thread's state.
pub(super) struct Worker {
    pub(super) rx: Receiver<ToWorker>,
    pub(super) tx: SyncSender<FromWorker>,
    pub(super) settings: Settings,
    pub(super) limits: RoomsLimits,
    pub(super) ids: Arc<AtomicU32>,
    pub(super) frame: Duration,
    /// Messages sent to any rooms' thread and not handled yet (with their outputs sent).
    pub(super) pending: Arc<AtomicUsize>,
    pub(super) rooms: HashMap<RoomId, RoomState>,
    /// Per peer of this thread's rooms that was moved here: the path-cache ids it holds.
    pub(super) held: HashMap<i32, Vec<(u32, String)>>,
    /// The room of each peer of this thread's rooms (authenticating ones too), so that a
    /// room disconnects only its own peers.
    pub(super) members: HashMap<i32, RoomId>,
}

/// One turn's results: outputs first, then the messages that must follow them.
#[derive(Default)]
struct Turn {
    outputs: Vec<Output>,
    after: Vec<FromWorker>,
}

impl Worker {
    /// The thread's loop: until the transport thread's side is gone.
    pub(super) fn run(mut self) {
        let mut next_frame = Instant::now() + self.frame;
        loop {
            let wait = next_frame.saturating_duration_since(Instant::now());
            let mut turn = Turn::default();
            let mut handled = 0;
            match self.rx.recv_timeout(wait) {
                Ok(msg) => {
                    handled += 1;
                    self.handle(msg, &mut turn);
                    while handled < TURN {
                        let Ok(msg) = self.rx.try_recv() else { break };
                        handled += 1;
                        self.handle(msg, &mut turn);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let now = Instant::now();
            if now >= next_frame {
                let ids: Vec<RoomId> = self.rooms.keys().copied().collect();
                for id in ids {
                    self.in_room(id, &mut turn, |room| {
                        room.session.handle_timeout(now);
                        // A join burst's ADD_PEERs beyond a round's budgets (the transport
                        // thread's congestion is not known here: the budgets pace alone).
                        room.session.announce_round(&|_| false);
                        room.logic_frame();
                    });
                }
                next_frame = now + self.frame;
            }
            if !turn.outputs.is_empty() && self.tx.send(FromWorker::Outputs(turn.outputs)).is_err()
            {
                return;
            }
            for msg in turn.after {
                if self.tx.send(msg).is_err() {
                    return;
                }
            }
            self.pending.fetch_sub(handled, Ordering::AcqRel);
        }
    }

    fn handle(&mut self, msg: ToWorker, turn: &mut Turn) {
        match msg {
            ToWorker::AddRoom(id, logic, waiting) => {
                let mut session = Session::server(self.settings.clone());
                session.share_path_ids(self.ids.clone());
                self.rooms.insert(
                    id,
                    RoomState {
                        session,
                        logic,
                        waiting,
                    },
                );
                self.in_room(id, turn, |room| room.logic_start());
            }
            ToWorker::Run(id, f) => self.in_room(id, turn, f),
            ToWorker::Connect(id, peer, now) => {
                self.members.insert(peer, id);
                self.in_room(id, turn, |room| room.session.connected(peer, now));
            }
            ToWorker::Packet {
                room,
                from,
                channel,
                mode,
                data,
                waiting,
            } => {
                waiting.fetch_sub(1, Ordering::AcqRel);
                if let Some(r) = self.rooms.get(&room) {
                    r.waiting.fetch_sub(1, Ordering::AcqRel);
                }
                self.in_room(room, turn, |r| {
                    r.session.receive(from, channel, mode, &data)
                });
            }
            ToWorker::Disconnect(id, peer) => {
                self.held.remove(&peer);
                self.members.remove(&peer);
                self.in_room(id, turn, |room| room.session.disconnected(peer));
            }
            ToWorker::Leave { room, peer, to } => self.leave(room, peer, to, turn),
            ToWorker::Join(id, handoff, now) => {
                self.held.insert(handoff.peer, handoff.held.clone());
                self.members.insert(handoff.peer, id);
                self.in_room(id, turn, |room| room.session.take_over(&handoff, now));
            }
        }
    }

    fn leave(&mut self, from: RoomId, peer: i32, to: RoomId, turn: &mut Turn) {
        let mut handoff = None;
        self.in_room(from, turn, |room| handoff = room.session.hand_off(peer));
        let handoff = handoff.map(|mut h| {
            self.members.remove(&peer);
            for (id, path) in self.held.remove(&peer).unwrap_or_default() {
                if !h.held.iter().any(|(held, _)| *held == id) {
                    h.held.push((id, path));
                }
            }
            Box::new(h)
        });
        if let Some(h) = &handoff {
            let limit = self.limits.max_held_paths;
            if h.held.len() > limit {
                // The client would refuse our next announcement of an id we forgot: drop it.
                turn.outputs.push(Output::Disconnect(peer));
                turn.after.push(FromWorker::Error(
                    peer,
                    ProtocolError::PathCacheFull { peer, limit },
                ));
                return;
            }
        }
        turn.after.push(FromWorker::Left {
            peer,
            from,
            to,
            handoff,
        });
    }

    /// Runs `f` in room `id`, then gives the room's events to its logic and collects its
    /// outputs; a panic of the logic stops the room (its peers are disconnected).
    fn in_room(&mut self, id: RoomId, turn: &mut Turn, f: impl FnOnce(&mut Room<'_>)) {
        let Some(state) = self.rooms.get_mut(&id) else {
            return;
        };
        let mut moves = Vec::new();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            let RoomState { session, logic, .. } = state;
            let mut room = Room {
                id,
                session,
                logic: Some(&mut **logic),
                moves: &mut moves,
            };
            f(&mut room);
            room.deliver_events();
        }))
        .is_ok();
        if !ok {
            self.rooms.remove(&id);
            let gone: Vec<i32> = self
                .members
                .iter()
                .filter(|(_, room)| **room == id)
                .map(|(&peer, _)| peer)
                .collect();
            for peer in gone {
                self.members.remove(&peer);
                self.held.remove(&peer);
                turn.outputs.push(Output::Disconnect(peer));
            }
            turn.after.push(FromWorker::RoomStopped(id));
            return;
        }
        while let Some(output) = state.session.poll_output() {
            if let Output::Disconnect(peer) = output {
                if self.members.get(&peer) != Some(&id) {
                    // `disconnect_peer` of a peer of another room: not this room's to drop.
                    continue;
                }
                // Dropped by its room (authentication, `disconnect_peer`): nothing to carry.
                self.members.remove(&peer);
                self.held.remove(&peer);
            }
            turn.outputs.push(output);
        }
        turn.after.extend(
            moves
                .into_iter()
                .map(|(peer, to)| FromWorker::MoveRequest(peer, id, to)),
        );
    }
}
