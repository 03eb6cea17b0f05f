//! Many independent worlds (rooms) in one server process, spread over worker threads; a peer
//! is in one room at a time and can be moved between rooms.
//!
//! Each room is a server [`Session`] of its own: its RPC tables, spawners, synchronizers,
//! authority and visibility, and its [`RoomLogic`] (the game code of the room), run on the
//! room's thread. [`Rooms`] is the transport thread's side, sans IO as a session is: the
//! transport reports connections and packets ([`connected`](Rooms::connected),
//! [`receive`](Rooms::receive), [`disconnected`](Rooms::disconnected)), `Rooms` routes each to
//! the thread of the peer's room through a channel, and the rooms' outputs come back to
//! [`poll_output`](Rooms::poll_output) for the transports. [`RoomsHost`] does this over the
//! crate's transports (ENet and WebSocket at once).
//!
//! What a room does reaches only its peers: an RPC to `Target::All` (0) within a room goes to
//! the room's peers, relay stays inside the room, and with relay on a Godot client hears
//! `peer_connected`/`peer_disconnected` (ADD_PEER/DEL_PEER) only for its room-mates.
//!
//! A move ([`Rooms::move_peer`], or [`Room::move_peer`] from a room's logic) goes through the
//! transport thread: the room left despawns what it spawned on the peer, tells it that its
//! mates left (and them that it left; its logic sees [`Event::PeerDisconnected`]); then the
//! room joined tells it of its new mates, spawns what it may see (its logic sees
//! [`Event::PeerConnected`]). The client's path cache stays valid: the rooms' sessions take
//! their ids from one counter (an id names one path in every room), and the ids the client
//! holds and announced travel with it (see `session/handoff.rs`). The peer's packets that
//! arrive during the move wait, in order, for the room joined. A peer authenticates once, in
//! the room it connects to ([`set_lobby`](Rooms::set_lobby)); one still authenticating is not
//! moved ([`RoomsEvent::MoveRefused`]).
//!
//! Bounds ([`RoomsLimits`], in [`Limits::rooms`](crate::Limits)): packets waiting for one
//! room's thread (`room_queue`, 4,096) and for one peer's room (`peer_queue`, 256, counting
//! those held during a move); a packet above either bound is its sender's
//! [`RoomsEvent::Error`] and the sender is disconnected, so a full queue is a per-peer event
//! and the transport thread never waits for a room. The rooms' outputs wait in one channel of
//! `output_batches` turns (1,024; a room's thread waits when it is full, until the transport
//! thread reads). A room's logic that panics stops that room alone: its peers are
//! disconnected and [`RoomsEvent::RoomStopped`] says so.
//!
//! ```no_run
//! # #[cfg(feature = "enet")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use godot_serde_multiplayer::enet::EnetTransport;
//! use godot_serde_multiplayer::rooms::{Room, RoomId, RoomsHost};
//! use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings};
//!
//! fn chat_room(room: &mut Room<'_>, event: Event) {
//!     if let Event::Rpc(call) = event {
//!         let Some((text,)) = room.session().args_of::<(String,)>(&call) else { return };
//!         if text == "/next" {
//!             let next = RoomId(room.id().0 % 8 + 1);
//!             room.move_peer(call.from, next);
//!         } else {
//!             let _ = room.session().rpc(0, "Chat", "said", &(call.from, text)); // room-mates only
//!         }
//!     }
//! }
//!
//! let settings = Settings::default();
//! let mut host = RoomsHost::new(settings.clone(), 2); // two threads
//! for id in 1..=8 {
//!     host.rooms().add_room(RoomId(id), chat_room)?;
//!     host.rooms().run_in(RoomId(id), |room| {
//!         room.session().declare(
//!             RpcTable::new("/root/Chat")
//!                 .with(RpcMethod::any_peer("say"))
//!                 .with(RpcMethod::authority("said")),
//!         );
//!     })?;
//! }
//! host.rooms().set_lobby(RoomId(1));
//! host.add(EnetTransport::server("0.0.0.0:7777".parse()?, 400, &settings.limits)?);
//! loop {
//!     host.service()?;
//!     while let Some(event) = host.rooms().poll_event() {
//!         println!("{event:?}");
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(1));
//! }
//! # }
//! # #[cfg(not(feature = "enet"))]
//! # fn main() {}
//! ```

mod host;
mod worker;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use host::{Health, RoomsHost};
use worker::{FromWorker, ToWorker, Worker};

use crate::session::handoff::Handoff;
use crate::{Event, Output, ProtocolError, Session, Settings, TransferMode};

/// A room's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(pub u32);

impl std::fmt::Display for RoomId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "room {}", self.0)
    }
}

/// What [`Rooms`] may hold: rooms, and the packets waiting between the transport thread and
/// the rooms' threads, per room and per peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RoomsLimits {
    /// Rooms in one process: default 1,024; [`Rooms::add_room`] refuses more.
    pub max_rooms: usize,
    /// Packets waiting for one room's thread: default 4,096. A packet above it is its
    /// sender's [`RoomsEvent::Error`], and the sender is disconnected.
    pub room_queue: usize,
    /// Packets of one peer waiting for its room (sent to the room's thread, or held while the
    /// peer moves): default 256. Above it, the peer is disconnected with its
    /// [`RoomsEvent::Error`].
    pub peer_queue: usize,
    /// Turns of outputs (each what one thread did with up to 256 messages) waiting for the
    /// transport thread, all rooms together: default 1,024. A room's thread waits when it is
    /// full (the transport thread never waits for the rooms).
    pub output_batches: usize,
    /// Path-cache ids a moved peer holds from the rooms it was in (a Godot client keeps them
    /// while connected): default 4,096; a move that would carry more disconnects the peer
    /// ([`ProtocolError::PathCacheFull`]).
    pub max_held_paths: usize,
}

impl Default for RoomsLimits {
    fn default() -> Self {
        Self {
            max_rooms: 1_024,
            room_queue: 4_096,
            peer_queue: 256,
            output_batches: 1_024,
            max_held_paths: 4_096,
        }
    }
}

impl RoomsLimits {
    /// With another room cap.
    #[must_use]
    pub fn with_max_rooms(mut self, n: usize) -> Self {
        self.max_rooms = n;
        self
    }
    /// With another bound of the packets waiting per room (at least 1).
    #[must_use]
    pub fn with_room_queue(mut self, n: usize) -> Self {
        self.room_queue = n.max(1);
        self
    }
    /// With another bound of the packets waiting per peer (at least 1).
    #[must_use]
    pub fn with_peer_queue(mut self, n: usize) -> Self {
        self.peer_queue = n.max(1);
        self
    }
    /// With another bound of the output turns waiting (at least 1).
    #[must_use]
    pub fn with_output_batches(mut self, n: usize) -> Self {
        self.output_batches = n.max(1);
        self
    }
    /// With another bound of the path-cache ids a moved peer holds.
    #[must_use]
    pub fn with_max_held_paths(mut self, n: usize) -> Self {
        self.max_held_paths = n;
        self
    }
}

/// A room's game code, run on the room's thread.
pub trait RoomLogic: Send + 'static {
    /// Once, when the room starts on its thread.
    fn start(&mut self, _room: &mut Room<'_>) {}
    /// Each event of the room's session.
    fn event(&mut self, room: &mut Room<'_>, event: Event);
    /// Each network frame, after the session's `handle_timeout` (replication).
    fn frame(&mut self, _room: &mut Room<'_>) {}
}

impl<F: FnMut(&mut Room<'_>, Event) + Send + 'static> RoomLogic for F {
    fn event(&mut self, room: &mut Room<'_>, event: Event) {
        self(room, event);
    }
}

/// A room as its logic sees it, on its thread.
pub struct Room<'a> {
    id: RoomId,
    session: &'a mut Session,
    logic: Option<&'a mut dyn RoomLogic>,
    moves: &'a mut Vec<(i32, RoomId)>,
}

impl std::fmt::Debug for Room<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room").field("id", &self.id).finish()
    }
}

impl Room<'_> {
    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.id
    }

    /// The room's server session: declare, spawn, call RPCs (`0` = the room's peers).
    pub fn session(&mut self) -> &mut Session {
        self.session
    }

    /// Moves `peer` (one of this room's; another room's peer is not moved, and
    /// [`RoomsEvent::MoveRefused`] says so) to room `to`, after what this call does now.
    pub fn move_peer(&mut self, peer: i32, to: RoomId) {
        self.moves.push((peer, to));
    }

    fn with_logic(&mut self, f: impl FnOnce(&mut dyn RoomLogic, &mut Self)) {
        if let Some(logic) = self.logic.take() {
            f(&mut *logic, self);
            self.logic = Some(logic);
        }
    }

    /// Gives the session's events to the logic, until none is left.
    fn deliver_events(&mut self) {
        self.with_logic(|logic, room| {
            while let Some(event) = room.session.poll_event() {
                logic.event(room, event);
            }
        });
    }

    fn logic_start(&mut self) {
        self.with_logic(|logic, room| logic.start(room));
    }

    fn logic_frame(&mut self) {
        self.with_logic(|logic, room| logic.frame(room));
    }
}

/// What happened to the rooms, for the transport thread's application.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RoomsEvent {
    /// A peer moved.
    Moved {
        /// The peer.
        peer: i32,
        /// The room it left.
        from: RoomId,
        /// The room it is in now.
        to: RoomId,
    },
    /// A move that did not happen: the peer was not admitted in its room yet
    /// (authenticating), or the room asked for does not exist; the peer stays.
    MoveRefused {
        /// The peer.
        peer: i32,
        /// The room asked for.
        to: RoomId,
    },
    /// Something of one peer's: a queue bound it broke (it was disconnected), a room that
    /// does not exist.
    Error {
        /// The peer.
        peer: i32,
        /// What was wrong.
        error: ProtocolError,
    },
    /// A room's logic panicked: the room is gone and its peers were disconnected.
    RoomStopped(RoomId),
}

/// Why [`Rooms::add_room`] or [`Rooms::run_in`] refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RoomsError {
    /// A room of that id exists.
    #[error("{0} exists")]
    Exists(RoomId),
    /// No room of that id.
    #[error("no {0}")]
    NoRoom(RoomId),
    /// [`RoomsLimits::max_rooms`] rooms exist.
    #[error("{0} rooms exist, the limit")]
    Full(usize),
    /// The room's thread stopped.
    #[error("the thread of {0} stopped")]
    ThreadStopped(RoomId),
}

/// Player counts and liveness, for an orchestrator (Agones' player tracking and health).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomsStats {
    /// Peers in all rooms (those moving counted in the room they go to).
    pub peers: usize,
    /// Each room with its thread and its peers, by id.
    pub rooms: Vec<RoomStats>,
    /// Threads started.
    pub threads: usize,
    /// Threads still running.
    pub threads_alive: usize,
}

/// One room in [`RoomsStats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomStats {
    /// The room.
    pub id: RoomId,
    /// The index of its thread.
    pub thread: usize,
    /// Its peers.
    pub peers: usize,
}

struct Thread {
    tx: Option<Sender<ToWorker>>,
    handle: Option<JoinHandle<()>>,
    rooms: usize,
}

struct RoomEntry {
    thread: usize,
    peers: usize,
    waiting: Arc<AtomicUsize>,
}

/// A packet held for a moving peer: channel, transfer mode, bytes.
type Held = (u8, TransferMode, Vec<u8>);

struct PeerEntry {
    room: RoomId,
    /// While moving: the room it goes to, and its packets held until it is there.
    moving: Option<(RoomId, VecDeque<Held>)>,
    waiting: Arc<AtomicUsize>,
}

/// Many rooms over worker threads: the transport thread's side (see the [module](self)).
pub struct Rooms {
    settings: Settings,
    limits: RoomsLimits,
    threads: Vec<Thread>,
    rooms: HashMap<RoomId, RoomEntry>,
    peers: HashMap<i32, PeerEntry>,
    lobby: Option<RoomId>,
    rx: Receiver<FromWorker>,
    outputs: VecDeque<Output>,
    events: VecDeque<RoomsEvent>,
    pending: Arc<AtomicUsize>,
}

impl std::fmt::Debug for Rooms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rooms")
            .field("threads", &self.threads.len())
            .field("rooms", &self.rooms.len())
            .field("peers", &self.peers.len())
            .finish()
    }
}

impl Rooms {
    /// Rooms over `threads` worker threads (at least 1), each room's session made with
    /// `settings` (its `limits.rooms` bound the queues), a network frame every 16 ms.
    ///
    /// # Panics
    ///
    /// Never; a thread the system cannot start counts as stopped ([`RoomsStats`]).
    pub fn new(settings: Settings, threads: usize) -> Self {
        Self::with_frame(settings, threads, Duration::from_millis(16))
    }

    /// As [`new`](Self::new), with another network frame (the rooms' `handle_timeout` and
    /// [`RoomLogic::frame`] period; Godot's is the process frame).
    pub fn with_frame(settings: Settings, threads: usize, frame: Duration) -> Self {
        let limits = settings.limits.rooms;
        let (out_tx, rx) = mpsc::sync_channel(limits.output_batches.max(1));
        let pending = Arc::new(AtomicUsize::new(0));
        let ids = Arc::new(AtomicU32::new(1));
        let threads = (0..threads.max(1))
            .map(|i| {
                let (tx, worker_rx) = mpsc::channel();
                let worker = Worker {
                    rx: worker_rx,
                    tx: out_tx.clone(),
                    settings: settings.clone(),
                    limits,
                    ids: ids.clone(),
                    frame,
                    pending: pending.clone(),
                    rooms: HashMap::new(),
                    held: HashMap::new(),
                    members: HashMap::new(),
                };
                let handle = std::thread::Builder::new()
                    .name(format!("rooms-{i}"))
                    .spawn(move || worker.run())
                    .ok();
                Thread {
                    tx: handle.as_ref().map(|_| tx),
                    handle,
                    rooms: 0,
                }
            })
            .collect();
        Self {
            settings,
            limits,
            threads,
            rooms: HashMap::new(),
            peers: HashMap::new(),
            lobby: None,
            rx,
            outputs: VecDeque::new(),
            events: VecDeque::new(),
            pending,
        }
    }

    /// The settings of the rooms' sessions.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Adds a room with its logic, on the thread with the fewest rooms; its
    /// [`RoomLogic::start`] runs there.
    ///
    /// # Errors
    ///
    /// A room of that id exists, [`RoomsLimits::max_rooms`] rooms exist, or no thread runs.
    pub fn add_room(&mut self, id: RoomId, logic: impl RoomLogic) -> Result<(), RoomsError> {
        if self.rooms.contains_key(&id) {
            return Err(RoomsError::Exists(id));
        }
        if self.rooms.len() >= self.limits.max_rooms {
            return Err(RoomsError::Full(self.rooms.len()));
        }
        let thread = self
            .threads
            .iter()
            .enumerate()
            .filter(|(_, t)| t.tx.is_some())
            .min_by_key(|(_, t)| t.rooms)
            .map(|(i, _)| i)
            .ok_or(RoomsError::ThreadStopped(id))?;
        let waiting = Arc::new(AtomicUsize::new(0));
        if !self.send(
            thread,
            ToWorker::AddRoom(id, Box::new(logic), waiting.clone()),
        ) {
            return Err(RoomsError::ThreadStopped(id));
        }
        if let Some(t) = self.threads.get_mut(thread) {
            t.rooms += 1;
        }
        self.rooms.insert(
            id,
            RoomEntry {
                thread,
                peers: 0,
                waiting,
            },
        );
        Ok(())
    }

    /// Runs `f` in room `id` on its thread (declarations, a spawn from outside the room's
    /// logic), in order with the room's packets.
    ///
    /// # Errors
    ///
    /// No room `id`, or its thread stopped.
    pub fn run_in(
        &mut self,
        id: RoomId,
        f: impl FnOnce(&mut Room<'_>) + Send + 'static,
    ) -> Result<(), RoomsError> {
        let thread = self.rooms.get(&id).ok_or(RoomsError::NoRoom(id))?.thread;
        if self.send(thread, ToWorker::Run(id, Box::new(f))) {
            Ok(())
        } else {
            Err(RoomsError::ThreadStopped(id))
        }
    }

    /// The room new peers join ([`connected`](Self::connected)).
    pub fn set_lobby(&mut self, id: RoomId) {
        self.lobby = Some(id);
    }

    /// Sends to a thread; false (and its rooms' peers dropped) when it stopped.
    fn send(&mut self, thread: usize, msg: ToWorker) -> bool {
        let Some(tx) = self.threads.get(thread).and_then(|t| t.tx.as_ref()) else {
            return false;
        };
        self.pending.fetch_add(1, Ordering::AcqRel);
        if tx.send(msg).is_ok() {
            return true;
        }
        self.pending.fetch_sub(1, Ordering::AcqRel);
        self.thread_stopped(thread);
        false
    }

    /// A thread is gone (its logic panicked outside a room's call): its rooms and their
    /// peers too.
    fn thread_stopped(&mut self, thread: usize) {
        if let Some(t) = self.threads.get_mut(thread) {
            t.tx = None;
        }
        let gone: Vec<RoomId> = self
            .rooms
            .iter()
            .filter(|(_, r)| r.thread == thread)
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            self.room_stopped(id);
        }
    }

    fn room_stopped(&mut self, id: RoomId) {
        if let Some(r) = self.rooms.remove(&id) {
            if let Some(t) = self.threads.get_mut(r.thread) {
                t.rooms = t.rooms.saturating_sub(1);
            }
        }
        let peers: Vec<i32> = self
            .peers
            .iter()
            .filter(|(_, p)| p.room == id || p.moving.as_ref().is_some_and(|(to, _)| *to == id))
            .map(|(&peer, _)| peer)
            .collect();
        for peer in peers {
            self.drop_peer(peer);
        }
        self.events.push_back(RoomsEvent::RoomStopped(id));
    }

    // ---- transport side -------------------------------------------------------------------

    /// The transport connected `peer` at `now`: it joins the lobby ([`set_lobby`](Self::set_lobby)).
    pub fn connected(&mut self, peer: i32, now: Instant) {
        match self.lobby {
            Some(lobby) => self.connected_to(peer, lobby, now),
            None => self.refuse(peer, "connected, but no lobby room is set"),
        }
    }

    /// The transport connected `peer` at `now`, into room `room`.
    pub fn connected_to(&mut self, peer: i32, room: RoomId, now: Instant) {
        if self.peers.contains_key(&peer) {
            return;
        }
        let Some(r) = self.rooms.get_mut(&room) else {
            self.refuse(peer, "connected into a room that does not exist");
            return;
        };
        r.peers += 1;
        let thread = r.thread;
        self.peers.insert(
            peer,
            PeerEntry {
                room,
                moving: None,
                waiting: Arc::new(AtomicUsize::new(0)),
            },
        );
        self.send(thread, ToWorker::Connect(room, peer, now));
    }

    fn refuse(&mut self, peer: i32, detail: &'static str) {
        self.outputs.push_back(Output::Disconnect(peer));
        self.events.push_back(RoomsEvent::Error {
            peer,
            error: ProtocolError::State { peer, detail },
        });
    }

    /// The transport lost `peer`.
    pub fn disconnected(&mut self, peer: i32) {
        let Some(entry) = self.peers.remove(&peer) else {
            return;
        };
        self.leave_counts(&entry);
        // Moving: the room left has it no more once its handoff is back; that is dropped.
        if entry.moving.is_none() {
            if let Some(thread) = self.rooms.get(&entry.room).map(|r| r.thread) {
                self.send(thread, ToWorker::Disconnect(entry.room, peer));
            }
        }
    }

    fn leave_counts(&mut self, entry: &PeerEntry) {
        let counted = entry.moving.as_ref().map_or(entry.room, |(to, _)| *to);
        if let Some(r) = self.rooms.get_mut(&counted) {
            r.peers = r.peers.saturating_sub(1);
        }
    }

    /// Drops a peer: the transport disconnects it, its room forgets it.
    fn drop_peer(&mut self, peer: i32) {
        if self.peers.contains_key(&peer) {
            self.disconnected(peer);
            self.outputs.push_back(Output::Disconnect(peer));
        }
    }

    /// A packet of `from`: to its room's thread, or held while it moves. Above
    /// [`RoomsLimits::peer_queue`] or [`RoomsLimits::room_queue`] the peer is disconnected
    /// ([`RoomsEvent::Error`]).
    pub fn receive(&mut self, from: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        let Some(entry) = self.peers.get_mut(&from) else {
            self.events.push_back(RoomsEvent::Error {
                peer: from,
                error: ProtocolError::NoSuchPeer(from),
            });
            return;
        };
        let held = entry.moving.as_ref().map_or(0, |(_, q)| q.len());
        if entry.waiting.load(Ordering::Acquire) + held >= self.limits.peer_queue {
            return self.overflow(
                from,
                "has more packets waiting for its room than peer_queue",
            );
        }
        if let Some((_, queue)) = entry.moving.as_mut() {
            queue.push_back((channel, mode, data));
            return;
        }
        let room = entry.room;
        let waiting = entry.waiting.clone();
        self.send_packet(room, from, (channel, mode, data), waiting);
    }

    fn send_packet(
        &mut self,
        room: RoomId,
        from: i32,
        (channel, mode, data): Held,
        waiting: Arc<AtomicUsize>,
    ) {
        let Some(r) = self.rooms.get(&room) else {
            return;
        };
        if r.waiting.load(Ordering::Acquire) >= self.limits.room_queue {
            return self.overflow(from, "sent to a room with room_queue packets waiting");
        }
        r.waiting.fetch_add(1, Ordering::AcqRel);
        waiting.fetch_add(1, Ordering::AcqRel);
        let (thread, room_waiting) = (r.thread, r.waiting.clone());
        let msg = ToWorker::Packet {
            room,
            from,
            channel,
            mode,
            data,
            waiting: waiting.clone(),
        };
        if !self.send(thread, msg) {
            room_waiting.fetch_sub(1, Ordering::AcqRel);
            waiting.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn overflow(&mut self, peer: i32, detail: &'static str) {
        self.events.push_back(RoomsEvent::Error {
            peer,
            error: ProtocolError::State { peer, detail },
        });
        self.drop_peer(peer);
    }

    /// Moves `peer` to room `to` (see the [module](self)); false when there is no such peer
    /// or room, or it is moving already.
    pub fn move_peer(&mut self, peer: i32, to: RoomId) -> bool {
        if !self.rooms.contains_key(&to) {
            return false;
        }
        let Some(entry) = self.peers.get_mut(&peer) else {
            return false;
        };
        if entry.moving.is_some() || entry.room == to {
            return false;
        }
        entry.moving = Some((to, VecDeque::new()));
        let from = entry.room;
        if let Some(r) = self.rooms.get_mut(&from) {
            r.peers = r.peers.saturating_sub(1);
        }
        if let Some(r) = self.rooms.get_mut(&to) {
            r.peers += 1;
        }
        let Some(thread) = self.rooms.get(&from).map(|r| r.thread) else {
            return false;
        };
        self.send(
            thread,
            ToWorker::Leave {
                room: from,
                peer,
                to,
            },
        )
    }

    /// The rooms' outputs that came back so far, and their moves: call it often (the
    /// transport loop does, [`RoomsHost::service`]). Never blocks.
    pub fn service(&mut self) {
        for i in 0..self.threads.len() {
            let finished = self.threads.get(i).is_some_and(|t| {
                t.tx.is_some() && t.handle.as_ref().is_none_or(JoinHandle::is_finished)
            });
            if finished {
                self.thread_stopped(i);
            }
        }
        // Each turn a thread sent is read once: at most `output_batches` per call.
        for _ in 0..self.limits.output_batches.max(1) {
            match self.rx.try_recv() {
                Ok(msg) => self.handle(msg),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
            }
        }
    }

    fn handle(&mut self, msg: FromWorker) {
        match msg {
            FromWorker::Outputs(outputs) => {
                for output in outputs {
                    if let Output::Disconnect(peer) = output {
                        if let Some(entry) = self.peers.remove(&peer) {
                            self.leave_counts(&entry);
                        }
                    }
                    self.outputs.push_back(output);
                }
            }
            FromWorker::Left {
                peer,
                from,
                to,
                handoff,
            } => self.left(peer, from, to, handoff),
            FromWorker::MoveRequest(peer, from, to) => {
                // A room moves its own peers only.
                let its = self.peers.get(&peer).is_some_and(|p| p.room == from);
                if !its || !self.move_peer(peer, to) {
                    self.events.push_back(RoomsEvent::MoveRefused { peer, to });
                }
            }
            FromWorker::Error(peer, error) => {
                if let Some(entry) = self.peers.remove(&peer) {
                    self.leave_counts(&entry);
                }
                self.events.push_back(RoomsEvent::Error { peer, error });
            }
            FromWorker::RoomStopped(id) => self.room_stopped(id),
        }
    }

    fn left(&mut self, peer: i32, from: RoomId, to: RoomId, handoff: Option<Box<Handoff>>) {
        let Some(entry) = self.peers.get_mut(&peer) else {
            return; // It left meanwhile: the room it left has told its mates.
        };
        let Some((going, held)) = entry.moving.take() else {
            return;
        };
        if going != to || entry.room != from {
            return;
        }
        let waiting = entry.waiting.clone();
        let now_in = match handoff {
            Some(handoff) => {
                entry.room = to;
                match self.rooms.get(&to).map(|r| r.thread) {
                    Some(thread) => {
                        self.send(thread, ToWorker::Join(to, handoff, Instant::now()));
                    }
                    None => {
                        // The room stopped meanwhile: the peer has no room left.
                        self.drop_peer(peer);
                        return;
                    }
                }
                self.events.push_back(RoomsEvent::Moved { peer, from, to });
                to
            }
            None => {
                for (a, b) in [(to, -1), (from, 1)] {
                    if let Some(r) = self.rooms.get_mut(&a) {
                        r.peers = r.peers.saturating_add_signed(b);
                    }
                }
                self.events.push_back(RoomsEvent::MoveRefused { peer, to });
                from
            }
        };
        for packet in held {
            self.send_packet(now_in, peer, packet, waiting.clone());
        }
    }

    /// The next thing for the transports to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// The next event of the rooms (moves, a peer's error, a stopped room). The rooms'
    /// sessions' events go to their [`RoomLogic`].
    pub fn poll_event(&mut self) -> Option<RoomsEvent> {
        self.events.pop_front()
    }

    /// The room `peer` is in (the one it goes to while it moves).
    pub fn room_of(&self, peer: i32) -> Option<RoomId> {
        let entry = self.peers.get(&peer)?;
        Some(entry.moving.as_ref().map_or(entry.room, |(to, _)| *to))
    }

    /// Player counts per room and in total, and the threads running.
    pub fn stats(&self) -> RoomsStats {
        let mut rooms: Vec<RoomStats> = self
            .rooms
            .iter()
            .map(|(&id, r)| RoomStats {
                id,
                thread: r.thread,
                peers: r.peers,
            })
            .collect();
        rooms.sort_by_key(|r| r.id);
        RoomsStats {
            peers: self.peers.len(),
            rooms,
            threads: self.threads.len(),
            threads_alive: self
                .threads
                .iter()
                .filter(|t| t.tx.is_some() && t.handle.as_ref().is_some_and(|h| !h.is_finished()))
                .count(),
        }
    }

    /// Services until every message sent to the rooms' threads was handled and its outputs
    /// are in [`poll_output`](Self::poll_output) (moves included), or `timeout` passed;
    /// whether it got there. For tests and measurements: a serve loop calls
    /// [`service`](Self::service).
    pub fn settle(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        loop {
            self.service();
            if self.pending.load(Ordering::Acquire) == 0 {
                self.service();
                if self.pending.load(Ordering::Acquire) == 0 {
                    return true;
                }
            }
            if Instant::now() >= end {
                return false;
            }
            // Sleeps rather than spins: the rooms' threads need the cores.
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

impl Drop for Rooms {
    /// Closes the threads' channels: each thread ends when it sees it (detached).
    fn drop(&mut self) {
        for t in &mut self.threads {
            t.tx = None;
        }
    }
}
