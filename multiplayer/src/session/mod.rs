//! [`Session`]: the SceneMultiplayer state of one side (server, peer 1, or a client), sans IO.
//!
//! The transport reports connections, disconnections and packets; the session answers with
//! [`Event`]s for the application and [`Output`](crate::Output)s for the transport. The session reads no
//! clock: as quinn-proto's connection, it is given `Instant`s ([`Session::connected`],
//! [`Session::handle_timeout`]) and says when it next needs one
//! ([`Session::poll_timeout`]): the authentication timeout and the synchronizers'
//! intervals run on that one clock.
//!
//! # Whose error is it
//!
//! A peer is untrusted, so nothing a peer does or is ends a serve loop: its malformed or
//! refused packets, arguments that do not fit the type the application asks for
//! ([`Session::args_of`]), a call of ours to a peer that has left meanwhile, all arrive as that
//! peer's [`Event::Error`]; [`Session::complete_auth`] on a peer that is no longer (or not yet)
//! authenticating answers `false`. The `Err` of a session call is ours alone: an undeclared
//! node or method, arguments that cannot be encoded, an empty payload, a replication call the
//! declarations do not allow. So `?` on a session call is right in a serve loop:
//!
//! ```
//! use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Session, Settings};
//!
//! let mut session = Session::server(Settings::default());
//! session.declare(RpcTable::new("/root/Lobby").with(RpcMethod::any_peer("chat")));
//! while let Some(event) = session.poll_event() {
//!     match event {
//!         Event::Rpc(call) if call.method == "chat" => {
//!             // A `chat(42)` is the caller's Event::Error, and the loop goes on.
//!             let Some((text,)) = session.args_of::<(String,)>(&call) else { continue };
//!             session.rpc(0, "Lobby", "chat", &(text,))?;
//!         }
//!         Event::Error { peer, error } => eprintln!("peer {peer}: {error}"),
//!         _ => {}
//!     }
//! }
//! # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
//! ```

mod announce;
mod auth;
pub(crate) mod handoff;
mod paths;
mod rpc;

pub use announce::Announce;

use std::time::{Duration, Instant};

use crate::core::{SessionCommon, Target, deref_common};
use crate::event::Event;
use crate::replication::Replication;
use crate::rpc::relative_path;
use crate::wire::{self, Packet};
use crate::{ProtocolError, RpcTable, Settings, TransferMode};

/// Where a packet came from: its sender, and the channel and transfer mode it came on.
#[derive(Debug, Clone, Copy)]
struct Came {
    from: i32,
    channel: u8,
    mode: TransferMode,
}

/// The SceneMultiplayer state of one side, sans IO: the transport reports connections and
/// packets; the session answers with [`Event`]s and [`Output`](crate::Output)s.
///
/// Its state is kept in rooms along Godot's own seams, each private to its module: the path
/// cache (`paths`, which also knows the connected peers), authentication (`auth`),
/// replication (`replication`); remote calls (`rpc`) keep no state of their own.
#[derive(Debug)]
pub struct Session {
    common: SessionCommon,
    settings: Settings,
    paths: paths::Paths,
    auth: auth::Auth,
    rep: Replication,
    /// Who is told of whom (a server with relay on).
    announcer: announce::Announcer,
    /// The clock's start: the first `Instant` the session was given. Replication counts
    /// microseconds from it (from 1: the engine's 0 means "never").
    epoch: Option<Instant>,
}

deref_common!(Session);

impl Session {
    /// The server's session (peer 1).
    pub fn server(settings: Settings) -> Self {
        Self::with_id(1, settings)
    }

    /// A client's session; `id` is the id it sent the server (2..=i32::MAX).
    pub fn client(id: i32, settings: Settings) -> Self {
        Self::with_id(id, settings)
    }

    fn with_id(id: i32, settings: Settings) -> Self {
        Self {
            common: SessionCommon::new(id),
            settings,
            paths: paths::Paths::new(),
            auth: auth::Auth::default(),
            rep: Replication::default(),
            announcer: announce::Announcer::default(),
            epoch: None,
        }
    }

    /// Declares a node's RPC table (replacing one of the same path).
    pub fn declare(&mut self, table: RpcTable) {
        self.paths.declare(table);
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The connected (admitted) peers.
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.paths.ids()
    }

    /// The path cache's send side, for harnesses: each declared path (tables, and the paths
    /// replication made) with our path-cache id (0 while it was never sent), by path.
    pub fn cached_paths(&self) -> Vec<(String, u32)> {
        self.paths.entries()
    }

    /// The path-cache ids `peer` announced to us, with their paths, in id order.
    pub fn peer_cached_paths(&self, peer: i32) -> Vec<(u32, String)> {
        self.paths.peer_entries(peer)
    }

    /// The paths we sent `peer` (SIMPLIFY_PATH), with whether it confirmed them, by path.
    pub fn path_confirmations(&self, peer: i32) -> Vec<(String, bool)> {
        self.paths.confirmations(peer)
    }

    // ---- the rooms, for replication -------------------------------------------------------

    /// The replication room.
    pub(crate) fn rep(&self) -> &Replication {
        &self.rep
    }

    /// The replication room, to change.
    pub(crate) fn rep_mut(&mut self) -> &mut Replication {
        &mut self.rep
    }

    /// Queues an event for the application.
    pub(crate) fn emit(&mut self, event: Event) {
        self.common.queues.event(event);
    }

    // ---- transport side -------------------------------------------------------------------

    /// The transport connected `peer` (`_add_peer`) at `now` (when its authentication
    /// timeout starts).
    pub fn connected(&mut self, peer: i32, now: Instant) {
        self.usec(now);
        if self.paths.is_connected(peer) || self.auth.is_pending(peer) {
            return;
        }
        if self.settings.auth {
            self.auth.start(peer, now);
            self.common.queues.event(Event::PeerAuthenticating(peer));
        } else {
            self.admit(peer);
        }
    }

    /// The transport lost `peer` (`_del_peer`). On a client, losing peer 1 drops everyone.
    pub fn disconnected(&mut self, peer: i32) {
        self.del_peer(peer, true);
        if !self.is_server() && peer == 1 {
            let others: Vec<i32> = self.paths.ids().collect();
            for p in others {
                self.del_peer(p, true);
            }
        }
    }

    /// The session's clock at `now`: microseconds since the first `Instant` it was given,
    /// from 1.
    fn usec(&mut self, now: Instant) -> u64 {
        let epoch = *self.epoch.get_or_insert(now);
        let micros = now.saturating_duration_since(epoch).as_micros();
        u64::try_from(micros).unwrap_or(u64::MAX).saturating_add(1)
    }

    fn auth_timeout(&self) -> Option<Duration> {
        let ms = self.settings.auth_timeout_ms;
        (ms > 0).then(|| Duration::from_millis(ms))
    }

    /// What is due at `now` (quinn-proto's `handle_timeout`; call it when
    /// [`poll_timeout`](Self::poll_timeout)'s instant has come, or on every network frame —
    /// the transports do when it is due, in `service`): peers still authenticating after
    /// [`Settings::auth_timeout_ms`] are disconnected ([`Event::AuthenticationFailed`]), then
    /// the replication step runs (`on_network_process`: full SYNC of the synchronizers whose
    /// replication interval passed, delta SYNC of changed watched properties).
    pub fn handle_timeout(&mut self, now: Instant) {
        let usec = self.usec(now);
        if let Some(timeout) = self.auth_timeout() {
            for peer in self.auth.expire(now, timeout) {
                self.common.queues.disconnect(peer);
                self.common.queues.event(Event::AuthenticationFailed(peer));
            }
        }
        self.replicate(usec);
    }

    /// When [`handle_timeout`](Self::handle_timeout) has work next: the earliest
    /// authentication deadline (connection + [`Settings::auth_timeout_ms`]) and replication
    /// deadline (a synchronizer's last full SYNC + its replication interval, its last watch +
    /// its delta interval, for synchronizers a peer sees). `None` when nothing waits; an
    /// instant in the past means "now". Synchronizers with interval 0 sync on every
    /// `handle_timeout` (every network frame) and add no deadline.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let auth = self
            .auth_timeout()
            .and_then(|timeout| self.auth.deadline(timeout));
        let replication = self.epoch.and_then(|epoch| {
            let us = self.rep.next_deadline_us()?;
            epoch.checked_add(Duration::from_micros(us.saturating_sub(1)))
        });
        auth.into_iter().chain(replication).min()
    }

    /// `to` is not a connected peer (it left while its events were queued, or never was): the
    /// packet for it is dropped and reported as its [`Event::Error`], not as an `Err` of ours,
    /// unless it is us (we are no peer of ours: the caller's mistake).
    fn gone(&mut self, to: i32) -> Result<(), ProtocolError> {
        if to == self.common.id {
            return Err(ProtocolError::NoSuchPeer(to));
        }
        self.report(to, ProtocolError::NoSuchPeer(to));
        Ok(())
    }

    /// A packet from the transport peer `from` (`SceneMultiplayer::poll`'s loop body).
    pub fn receive(&mut self, from: i32, channel: u8, mode: TransferMode, packet: &[u8]) {
        if let Err(error) = self.receive_inner(
            Came {
                from,
                channel,
                mode,
            },
            packet,
        ) {
            self.common.queues.report(from, error);
        }
    }

    fn receive_inner(&mut self, came: Came, packet: &[u8]) -> Result<(), ProtocolError> {
        let from = came.from;
        if !self.receive_pending(from, packet)? {
            return Ok(());
        }
        if !self.paths.is_connected(from) {
            return Err(ProtocolError::State {
                peer: from,
                detail: "is not connected",
            });
        }
        if packet
            .first()
            .is_some_and(|b| b & wire::CMD_MASK == wire::COMMAND_SYS)
        {
            return self.process_sys(came, packet);
        }
        self.process_packet(came, packet)
    }

    fn process_sys(&mut self, came: Came, packet: &[u8]) -> Result<(), ProtocolError> {
        let (from, channel, mode) = (came.from, came.channel, came.mode);
        match wire::parse(packet)? {
            Packet::Auth(data) => {
                if data.is_empty() {
                    Ok(()) // A late confirmation: the peer is admitted already.
                } else {
                    Err(ProtocolError::State {
                        peer: from,
                        detail: "sent authentication data after authenticating",
                    })
                }
            }
            Packet::AddPeer(_) | Packet::DelPeer(_)
                if self.is_server() || from != 1 || !self.settings.relay =>
            {
                Err(ProtocolError::State {
                    peer: from,
                    detail: "sent ADD_PEER/DEL_PEER, which only the server sends",
                })
            }
            Packet::AddPeer(peer) => {
                self.admit(peer);
                Ok(())
            }
            Packet::DelPeer(peer) => {
                self.del_peer(peer, true);
                Ok(())
            }
            Packet::Relay { peer, inner } => {
                if !self.settings.relay {
                    return Err(ProtocolError::State {
                        peer: from,
                        detail: "sent RELAY, but relay is off",
                    });
                }
                if self.is_server() {
                    // The target may have left while the packet was in transit: dropped silently.
                    if peer > 0 && !self.paths.is_connected(peer) {
                        return Ok(());
                    }
                    let mut data = Vec::with_capacity(inner.len() + wire::SYS_CMD_SIZE);
                    wire::write_sys(&mut data, wire::SYS_RELAY, from);
                    data.extend_from_slice(inner);
                    let target = Target::from_engine(peer);
                    let (local, forward) =
                        target.relay_with(from, self.paths.ids(), |p| self.paths.is_connected(p));
                    for to in forward {
                        self.common.queues.packet(to, channel, mode, data.clone());
                    }
                    if local && target != Target::Peer(1) {
                        // The server is one of the targets.
                        return self.process_packet(came, inner);
                    }
                    Ok(())
                } else {
                    if from != 1 {
                        return Err(ProtocolError::State {
                            peer: from,
                            detail: "relayed, but only the server relays",
                        });
                    }
                    // A sender we were not told of (the server's `Announce::None`, or its
                    // notice still on the way) is processed as Godot's client does: its RAW
                    // packets arrive; its calls and path announcements need the path cache
                    // of a known peer, and are its `NoSuchPeer` error.
                    self.process_packet(Came { from: peer, ..came }, inner)
                }
            }
            _ => Err(ProtocolError::UnknownSys(
                packet.get(1).copied().unwrap_or_default(),
            )),
        }
    }

    fn process_packet(&mut self, came: Came, packet: &[u8]) -> Result<(), ProtocolError> {
        let (from, channel, mode) = (came.from, came.channel, came.mode);
        match wire::parse(packet)? {
            Packet::RemoteCall { node, method, args } => {
                self.receive_call(from, (channel, mode), (node, method, args))
            }
            Packet::SimplifyPath { md5, id, path } => {
                if self.paths.announced(from, id)? {
                    return Err(ProtocolError::DuplicateCacheId { peer: from, id });
                }
                let index = self.table_index_or_sync(from, path)?;
                let limit = self.settings.limits.max_cached_paths;
                let (valid, mismatch) =
                    self.paths.receive_simplify(from, (md5, id, index), limit)?;
                let mut data = Vec::with_capacity(6);
                wire::write_confirm_path(&mut data, valid, id);
                self.send_command(from, 0, TransferMode::Reliable, data);
                mismatch.map_or(Ok(()), Err)
            }
            Packet::ConfirmPath { valid, id } => self.paths.receive_confirm(from, valid, id),
            Packet::Spawn(spawn) => self.receive_spawn(from, &spawn),
            Packet::Despawn(net_id) => self.receive_despawn(from, net_id),
            Packet::Sync(sync) => self.receive_sync(from, &sync),
            Packet::Raw(data) => {
                self.common.queues.event(Event::Raw {
                    from,
                    data: data.to_vec(),
                    channel,
                    mode,
                });
                Ok(())
            }
            // SceneMultiplayer::_process_packet has no case for SYS (a relayed SYS, say).
            _ => Err(ProtocolError::UnknownCommand(wire::COMMAND_SYS)),
        }
    }

    /// A SIMPLIFY_PATH's node: a declared RPC table, a synchronizer (a client-owned one names
    /// itself by path before its first SYNC) or a spawner.
    fn table_index_or_sync(&mut self, from: i32, path: &str) -> Result<usize, ProtocolError> {
        let rel = relative_path(path);
        if let Some(i) = self.paths.index(rel) {
            return Ok(i);
        }
        if self.rep.sync_at_path(rel).is_some() || self.rep.spawner_index(rel).is_some() {
            return Ok(self.paths.declare(RpcTable::new(rel)));
        }
        Err(ProtocolError::UnknownNode {
            peer: from,
            path: path.to_owned(),
        })
    }

    /// The path `from` announced as `id`.
    pub(crate) fn cached_path(&self, from: i32, id: u32) -> Option<String> {
        self.paths.announced_path(from, id).map(str::to_owned)
    }

    /// `make_object_cache` + `send_object_cache` for one peer: the path's cache id, and whether
    /// the peer confirmed it (a SIMPLIFY_PATH goes out the first time).
    pub(crate) fn object_cache(&mut self, path: &str, peer: i32) -> (u32, bool) {
        let index = match self.paths.index(path) {
            Some(i) => i,
            None => self.paths.declare(RpcTable::new(path)),
        };
        let send = self.paths.send(index, &[peer]);
        for target in send.announce {
            let md5 = self.paths.table(index).map(|t| t.md5().to_owned());
            let mut packet = Vec::new();
            wire::write_simplify_path(&mut packet, &md5.unwrap_or_default(), send.id, path);
            self.send_command(target, 0, TransferMode::Reliable, packet);
        }
        (send.id, send.all_confirmed)
    }

    /// Drops a path-cache entry made for a replicated node that is gone (and the ids peers
    /// announced for it); its slot is reused. Tables with RPC methods are kept.
    pub(crate) fn forget_path(&mut self, path: &str) {
        self.paths.forget(path);
    }

    fn admit(&mut self, peer: i32) {
        if self.paths.is_connected(peer) || peer == self.common.id {
            return;
        }
        if self.announces() {
            let queues = &mut self.common.queues;
            self.announcer
                .admit(peer, &self.settings.limits, &mut |to, about| {
                    push_sys(queues, to, wire::SYS_ADD_PEER, about);
                });
        }
        self.paths.add_peer(peer);
        self.replication_peer_added(peer);
        self.common.queues.event(Event::PeerConnected(peer));
    }

    fn del_peer(&mut self, peer: i32, signal: bool) {
        if self.auth.remove(peer) {
            self.common.queues.event(Event::AuthenticationFailed(peer));
            return;
        }
        if !self.paths.remove_peer(peer) {
            return;
        }
        self.replication_peer_removed(peer);
        if self.announces() {
            let queues = &mut self.common.queues;
            self.announcer
                .remove(peer, &self.settings.limits, &mut |to, about| {
                    push_sys(queues, to, wire::SYS_DEL_PEER, about);
                });
        }
        if signal {
            self.common.queues.event(Event::PeerDisconnected(peer));
        }
    }

    /// Whether this session tells its clients of each other: a server with relay on and
    /// [`Announce::All`].
    fn announces(&self) -> bool {
        self.settings.relay && self.is_server() && self.settings.announce == Announce::All
    }

    /// Starts an announcement round: the budgets of [`Limits::announce_per_round`] and
    /// [`Limits::announce_per_round_total`](crate::Limits::announce_per_round_total) are new,
    /// and the clients not yet told of every other client (after a burst of joins) are sent
    /// the next `SYS_ADD_PEER`s within them, in turn; a client for which `congested` answers
    /// true (the ENet transport: more than a 64th of its `outbound_buffer_size`, 16 KiB,
    /// is queued for it) waits for a later round.
    /// The crate's hosts call it once per `service`; a transport of one's own calls it once
    /// per network frame. Nothing to do (and no cost) when every client is told.
    ///
    /// [`Limits::announce_per_round`]: crate::Limits::announce_per_round
    pub fn announce_round(&mut self, congested: &dyn Fn(i32) -> bool) {
        if !self.announces() {
            return;
        }
        let queues = std::cell::RefCell::new(&mut self.common.queues);
        self.announcer.round(
            &self.settings.limits,
            congested,
            &mut |to, about| push_sys(&mut queues.borrow_mut(), to, wire::SYS_ADD_PEER, about),
            &mut |to, about| push_sys(&mut queues.borrow_mut(), to, wire::SYS_DEL_PEER, about),
        );
    }

    /// How many clients are not yet told of every other client (their `SYS_ADD_PEER`s wait
    /// for the next [`announce_round`](Self::announce_round)s): 0 once a burst is announced.
    pub fn announcing(&self) -> usize {
        self.announcer.lagging()
    }

    // ---- application side -----------------------------------------------------------------

    /// Disconnects a peer (`disconnect_peer`): the others are told, no event for it.
    pub fn disconnect_peer(&mut self, peer: i32) {
        if !self.auth.remove(peer) {
            self.del_peer(peer, false);
        }
        self.common.queues.disconnect(peer);
    }

    /// `SceneMultiplayer::send_command`: through the server's relay for a client's packet to
    /// another client; to every peer (but one) for 0 and negative targets on the server.
    pub(crate) fn send_command(
        &mut self,
        to: i32,
        channel: u8,
        mode: TransferMode,
        packet: Vec<u8>,
    ) {
        if self.settings.relay && !self.is_server() && to != 1 {
            let mut data = Vec::with_capacity(packet.len() + wire::SYS_CMD_SIZE);
            wire::write_sys(&mut data, wire::SYS_RELAY, to);
            data.extend_from_slice(&packet);
            self.push_packet(1, channel, mode, data);
            return;
        }
        let target = Target::from_engine(to);
        if let Target::Peer(peer) = target {
            self.push_packet(peer, channel, mode, packet);
            return;
        }
        let targets = target.expand(self.paths.ids());
        for target in targets {
            self.push_packet(target, channel, mode, packet.clone());
        }
    }

    fn push_packet(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        // A client's transport has one peer, the server.
        let to = if self.is_server() { to } else { 1 };
        self.common.queues.packet(to, channel, mode, data);
    }
}

/// Queues a one-command SYS packet for `to` (`sub`: `SYS_ADD_PEER`, `SYS_DEL_PEER`) about
/// `peer`, reliable on channel 0, as the server tells its clients of each other.
fn push_sys(queues: &mut crate::core::Queues, to: i32, sub: u8, peer: i32) {
    let mut data = Vec::with_capacity(wire::SYS_CMD_SIZE);
    wire::write_sys(&mut data, sub, peer);
    queues.packet(to, 0, TransferMode::Reliable, data);
}
