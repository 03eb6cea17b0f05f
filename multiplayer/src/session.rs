//! [`Session`]: the SceneMultiplayer state of one side (server, peer 1, or a client), sans IO.
//!
//! The transport reports connections, disconnections and packets; the session answers with
//! [`Event`]s for the application and [`Output`]s for the transport. The session reads no
//! clock: the transport passes milliseconds from any fixed start to `tick` (the
//! authentication timeout), and the application passes microseconds to `replicate` (the
//! synchronizers' intervals).
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

use std::collections::{BTreeMap, HashMap, VecDeque};

use godot_serde::Variant;
use serde::Serialize;

use crate::args::{self, Encoded};
use crate::event::{Event, Output, RemoteCall};
use crate::rpc::relative_path;
use crate::wire::{self, NodeRef, Packet};
use crate::{ProtocolError, RpcTable, Settings, TransferMode};

#[derive(Debug, Default)]
struct Pending {
    since_ms: u64,
    local: bool,
    remote: bool,
}

#[derive(Debug, Default)]
pub(crate) struct Peer {
    /// Path-cache ids the peer announced → table index.
    pub(crate) recv: HashMap<u32, usize>,
    /// Table index → whether the peer confirmed our id.
    pub(crate) confirmed: HashMap<usize, bool>,
}

/// The SceneMultiplayer state of one side, sans IO: the transport reports connections and
/// packets; the session answers with [`Event`]s and [`Output`]s.
#[derive(Debug)]
pub struct Session {
    id: i32,
    settings: Settings,
    pub(crate) tables: Vec<RpcTable>,
    pub(crate) by_path: HashMap<String, usize>,
    /// Table slots freed by `forget_path`, reused by `declare`.
    pub(crate) free_tables: Vec<usize>,
    pub(crate) cache_ids: Vec<u32>,
    pub(crate) next_cache_id: u32,
    pub(crate) peers: BTreeMap<i32, Peer>,
    pending: BTreeMap<i32, Pending>,
    pub(crate) events: VecDeque<Event>,
    pub(crate) out: VecDeque<Output>,
    pub(crate) rep: crate::replication::Replication,
}

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
            id,
            settings,
            tables: Vec::new(),
            by_path: HashMap::new(),
            free_tables: Vec::new(),
            cache_ids: Vec::new(),
            next_cache_id: 1,
            peers: BTreeMap::new(),
            pending: BTreeMap::new(),
            events: VecDeque::new(),
            out: VecDeque::new(),
            rep: crate::replication::Replication::default(),
        }
    }

    /// Declares a node's RPC table (replacing one of the same path).
    pub fn declare(&mut self, table: RpcTable) {
        if let Some(&i) = self.by_path.get(table.path()) {
            if let Some(slot) = self.tables.get_mut(i) {
                *slot = table;
            }
            return;
        }
        if let Some(i) = self.free_tables.pop() {
            self.by_path.insert(table.path().to_owned(), i);
            if let (Some(slot), Some(id)) = (self.tables.get_mut(i), self.cache_ids.get_mut(i)) {
                *slot = table;
                *id = 0;
            }
            return;
        }
        self.by_path
            .insert(table.path().to_owned(), self.tables.len());
        self.tables.push(table);
        self.cache_ids.push(0);
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets our id: a WebSocket client learns it from the server's first message.
    #[cfg(feature = "websocket")]
    pub(crate) fn set_unique_id(&mut self, id: i32) {
        self.id = id;
    }

    /// Our peer id.
    pub fn unique_id(&self) -> i32 {
        self.id
    }

    /// Whether this is the server.
    pub fn is_server(&self) -> bool {
        self.id == 1
    }

    /// The connected (admitted) peers.
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers.keys().copied()
    }

    /// The peers still authenticating.
    pub fn authenticating(&self) -> impl Iterator<Item = i32> + '_ {
        self.pending.keys().copied()
    }

    /// The next event for the application.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next thing for the transport to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    // ---- transport side -------------------------------------------------------------------

    /// The transport connected `peer` (`_add_peer`).
    pub fn connected(&mut self, peer: i32, now_ms: u64) {
        if self.peers.contains_key(&peer) || self.pending.contains_key(&peer) {
            return;
        }
        if self.settings.auth {
            self.pending.insert(
                peer,
                Pending {
                    since_ms: now_ms,
                    ..Pending::default()
                },
            );
            self.events.push_back(Event::PeerAuthenticating(peer));
        } else {
            self.admit(peer);
        }
    }

    /// The transport lost `peer` (`_del_peer`). On a client, losing peer 1 drops everyone.
    pub fn disconnected(&mut self, peer: i32) {
        self.del_peer(peer, true);
        if !self.is_server() && peer == 1 {
            let others: Vec<i32> = self.peers.keys().copied().collect();
            for p in others {
                self.del_peer(p, true);
            }
        }
    }

    /// Checks the authentication timeout: pending peers older than it are disconnected.
    pub fn tick(&mut self, now_ms: u64) {
        let timeout = self.settings.auth_timeout_ms;
        if timeout == 0 {
            return;
        }
        let expired: Vec<i32> = self
            .pending
            .iter()
            .filter(|(_, p)| p.since_ms.saturating_add(timeout) <= now_ms)
            .map(|(&id, _)| id)
            .collect();
        for peer in expired {
            self.pending.remove(&peer);
            self.out.push_back(Output::Disconnect(peer));
            self.events.push_back(Event::AuthenticationFailed(peer));
        }
    }

    /// Reports an error of `peer` (a transport's, or the application's verdict on what the
    /// peer sent) as its [`Event::Error`].
    pub fn report(&mut self, peer: i32, error: ProtocolError) {
        self.events.push_back(Event::Error { peer, error });
    }

    /// The arguments of `call` as a typed tuple or struct (fields in order), or `None` when they
    /// do not fit `T`: then the mismatch ([`ProtocolError::ArgumentType`]) is queued as the
    /// caller's [`Event::Error`], as the engine logs a call whose arguments its method refuses
    /// and goes on. A serve loop skips the call with
    /// `let Some(args) = session.args_of::<T>(&call) else { continue };`, or answers with a
    /// kick: `else { session.disconnect_peer(call.from); continue };`.
    pub fn args_of<T: serde::de::DeserializeOwned>(&mut self, call: &RemoteCall) -> Option<T> {
        match call.args_as() {
            Ok(args) => Some(args),
            Err(error) => {
                self.report(call.from, error);
                None
            }
        }
    }

    /// `to` is not a connected peer (it left while its events were queued, or never was): the
    /// packet for it is dropped and reported as its [`Event::Error`], not as an `Err` of ours,
    /// unless it is us (we are no peer of ours: the caller's mistake).
    fn gone(&mut self, to: i32) -> Result<(), ProtocolError> {
        if to == self.id {
            return Err(ProtocolError::NoSuchPeer(to));
        }
        self.report(to, ProtocolError::NoSuchPeer(to));
        Ok(())
    }

    /// A packet from the transport peer `from` (`SceneMultiplayer::poll`'s loop body).
    pub fn receive(&mut self, from: i32, channel: u8, mode: TransferMode, packet: &[u8]) {
        if let Err(error) = self.receive_inner(from, channel, mode, packet) {
            self.events.push_back(Event::Error { peer: from, error });
        }
    }

    fn receive_inner(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<(), ProtocolError> {
        if let Some(pending) = self.pending.get_mut(&from) {
            if pending.local {
                // Authentication is over on our side: the first packet admits the peer.
                self.pending.remove(&from);
                self.admit(from);
            } else {
                let (Some(&cmd), Some(&sub)) = (packet.first(), packet.get(1)) else {
                    return Err(ProtocolError::State {
                        peer: from,
                        detail: "sent a packet before authenticating",
                    });
                };
                if cmd & wire::CMD_MASK != wire::COMMAND_SYS || sub != wire::SYS_AUTH {
                    return Err(ProtocolError::State {
                        peer: from,
                        detail: "sent a packet before authenticating",
                    });
                }
                let data = packet.get(2..).unwrap_or_default();
                if data.is_empty() {
                    pending.remote = true;
                    if pending.local {
                        self.pending.remove(&from);
                        self.admit(from);
                    }
                } else {
                    self.events.push_back(Event::AuthData {
                        peer: from,
                        data: data.to_vec(),
                    });
                }
                return Ok(());
            }
        }
        if !self.peers.contains_key(&from) {
            return Err(ProtocolError::State {
                peer: from,
                detail: "is not connected",
            });
        }
        if packet
            .first()
            .is_some_and(|b| b & wire::CMD_MASK == wire::COMMAND_SYS)
        {
            return self.process_sys(from, channel, mode, packet);
        }
        self.process_packet(from, channel, mode, packet)
    }

    fn process_sys(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<(), ProtocolError> {
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
            Packet::AddPeer(peer) | Packet::DelPeer(peer)
                if self.is_server() || from != 1 || !self.settings.relay =>
            {
                let _ = peer;
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
                    if peer > 0 && !self.peers.contains_key(&peer) {
                        return Ok(());
                    }
                    let mut data = Vec::with_capacity(inner.len() + wire::SYS_CMD_SIZE);
                    wire::write_sys(&mut data, wire::SYS_RELAY, from);
                    data.extend_from_slice(inner);
                    if peer > 0 {
                        self.out.push_back(Output::Packet {
                            to: peer,
                            channel,
                            mode,
                            data,
                        });
                        return Ok(());
                    }
                    let targets: Vec<i32> = self
                        .peers
                        .keys()
                        .copied()
                        .filter(|&p| p != from && p != -peer)
                        .collect();
                    for to in targets {
                        self.out.push_back(Output::Packet {
                            to,
                            channel,
                            mode,
                            data: data.clone(),
                        });
                    }
                    if peer != -1 {
                        // The server is one of the targets.
                        return self.process_packet(from, channel, mode, inner);
                    }
                    Ok(())
                } else {
                    if from != 1 {
                        return Err(ProtocolError::State {
                            peer: from,
                            detail: "relayed, but only the server relays",
                        });
                    }
                    if !self.peers.contains_key(&peer) {
                        return Err(ProtocolError::NoSuchPeer(peer));
                    }
                    self.process_packet(peer, channel, mode, inner)
                }
            }
            _ => Err(ProtocolError::UnknownSys(
                packet.get(1).copied().unwrap_or_default(),
            )),
        }
    }

    fn process_packet(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<(), ProtocolError> {
        match wire::parse(packet)? {
            Packet::RemoteCall { node, method, args } => {
                let table_index = match node {
                    NodeRef::Cached(id) => *self
                        .peers
                        .get(&from)
                        .and_then(|p| p.recv.get(&id))
                        .ok_or(ProtocolError::UnknownCacheId { peer: from, id })?,
                    NodeRef::Path(path) => self.table_index(from, path)?,
                };
                let Some(table) = self.tables.get(table_index) else {
                    return Err(ProtocolError::UnknownCacheId { peer: from, id: 0 });
                };
                let Some(config) = table.methods().get(usize::from(method)) else {
                    return Err(ProtocolError::UnknownMethod {
                        peer: from,
                        path: table.path().to_owned(),
                        id: method,
                        count: table.methods().len(),
                        methods: table.method_names(),
                    });
                };
                let allowed = match config.mode {
                    crate::RpcMode::Disabled => false,
                    crate::RpcMode::AnyPeer => true,
                    crate::RpcMode::Authority => from == table.authority(),
                };
                if !allowed {
                    return Err(ProtocolError::NotAllowed {
                        peer: from,
                        path: table.path().to_owned(),
                        method: config.name.clone(),
                        mode: config.mode,
                        authority: table.authority(),
                    });
                }
                let args = args.decode()?;
                self.events.push_back(Event::Rpc(RemoteCall {
                    from,
                    path: table.path().to_owned(),
                    method: config.name.clone(),
                    args,
                    channel,
                    mode,
                }));
                Ok(())
            }
            Packet::SimplifyPath { md5, id, path } => {
                let limit = self.settings.limits.max_cached_paths;
                let known = self
                    .peers
                    .get(&from)
                    .ok_or(ProtocolError::NoSuchPeer(from))?;
                if known.recv.contains_key(&id) {
                    return Err(ProtocolError::DuplicateCacheId { peer: from, id });
                }
                if known.recv.len() >= limit {
                    return Err(ProtocolError::PathCacheFull { peer: from, limit });
                }
                let index = self.table_index_or_sync(from, path)?;
                let Some(table) = self.tables.get(index) else {
                    return Err(ProtocolError::UnknownNode {
                        peer: from,
                        path: path.to_owned(),
                    });
                };
                let valid = table.md5() == md5;
                let mismatch = (!valid).then(|| ProtocolError::ChecksumMismatch {
                    peer: from,
                    path: table.path().to_owned(),
                    theirs: md5.to_owned(),
                    ours: table.md5().to_owned(),
                    methods: table.method_names(),
                });
                if let Some(peer) = self.peers.get_mut(&from) {
                    peer.recv.insert(id, index);
                }
                let mut data = Vec::with_capacity(6);
                wire::write_confirm_path(&mut data, valid, id);
                self.send_command(from, 0, TransferMode::Reliable, data);
                mismatch.map_or(Ok(()), Err)
            }
            Packet::ConfirmPath { valid, id } => {
                let Some(index) = self.cache_ids.iter().position(|&c| c == id && c != 0) else {
                    return Ok(()); // Godot: may confirm a node that was removed.
                };
                let peer = self
                    .peers
                    .get_mut(&from)
                    .ok_or(ProtocolError::NoSuchPeer(from))?;
                let Some(confirmed) = peer.confirmed.get_mut(&index) else {
                    return Err(ProtocolError::State {
                        peer: from,
                        detail: "confirmed a path that was not sent to it",
                    });
                };
                *confirmed = true;
                if valid {
                    return Ok(());
                }
                let table = self.tables.get(index);
                Err(ProtocolError::ChecksumMismatch {
                    peer: from,
                    path: table.map(|t| t.path().to_owned()).unwrap_or_default(),
                    theirs: String::new(),
                    ours: table.map(|t| t.md5().to_owned()).unwrap_or_default(),
                    methods: table.map(RpcTable::method_names).unwrap_or_default(),
                })
            }
            Packet::Spawn(spawn) => self.receive_spawn(from, &spawn),
            Packet::Despawn(net_id) => self.receive_despawn(from, net_id),
            Packet::Sync(sync) => self.receive_sync(from, &sync),
            Packet::Raw(data) => {
                self.events.push_back(Event::Raw {
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

    fn table_index(&self, from: i32, path: &str) -> Result<usize, ProtocolError> {
        self.by_path
            .get(relative_path(path))
            .copied()
            .ok_or_else(|| ProtocolError::UnknownNode {
                peer: from,
                path: path.to_owned(),
            })
    }

    fn admit(&mut self, peer: i32) {
        if self.peers.contains_key(&peer) || peer == self.id {
            return;
        }
        if self.settings.relay && self.is_server() {
            let existing: Vec<i32> = self.peers.keys().copied().collect();
            for other in existing {
                let mut to_other = Vec::with_capacity(wire::SYS_CMD_SIZE);
                wire::write_sys(&mut to_other, wire::SYS_ADD_PEER, peer);
                self.push_packet(other, 0, TransferMode::Reliable, to_other);
                let mut to_new = Vec::with_capacity(wire::SYS_CMD_SIZE);
                wire::write_sys(&mut to_new, wire::SYS_ADD_PEER, other);
                self.push_packet(peer, 0, TransferMode::Reliable, to_new);
            }
        }
        self.peers.insert(peer, Peer::default());
        self.replication_peer_added(peer);
        self.events.push_back(Event::PeerConnected(peer));
    }

    fn del_peer(&mut self, peer: i32, signal: bool) {
        if self.pending.remove(&peer).is_some() {
            self.events.push_back(Event::AuthenticationFailed(peer));
            return;
        }
        if self.peers.remove(&peer).is_none() {
            return;
        }
        self.replication_peer_removed(peer);
        if self.settings.relay && self.is_server() {
            let others: Vec<i32> = self.peers.keys().copied().collect();
            for other in others {
                let mut data = Vec::with_capacity(wire::SYS_CMD_SIZE);
                wire::write_sys(&mut data, wire::SYS_DEL_PEER, peer);
                self.push_packet(other, 0, TransferMode::Reliable, data);
            }
        }
        if signal {
            self.events.push_back(Event::PeerDisconnected(peer));
        }
    }

    // ---- application side -----------------------------------------------------------------

    /// Sends authentication data to a pending peer (`send_auth`). When `peer` is not
    /// authenticating or completed already (it left, timed out, or was admitted), nothing is
    /// sent and [`ProtocolError::NoSuchPeer`] is queued as its [`Event::Error`].
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`] for empty data, [`ProtocolError::NoSuchPeer`] for our
    /// own id.
    pub fn send_auth(&mut self, peer: i32, data: &[u8]) -> Result<(), ProtocolError> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("auth"));
        }
        match self.pending.get(&peer) {
            Some(p) if !p.local && !p.remote => {}
            _ => {
                self.gone(peer)?;
                return Ok(());
            }
        }
        let mut packet = Vec::with_capacity(data.len() + 2);
        wire::write_auth(&mut packet, data);
        self.push_packet(peer, 0, TransferMode::Reliable, packet);
        Ok(())
    }

    /// Completes authentication of a pending peer on our side (`complete_auth`); whether it
    /// did. `false`, with nothing sent, when `peer` is not authenticating (it left, timed out,
    /// was disconnected, or never connected) or was completed already (auth data sent twice):
    /// the peer's doing, which Godot answers with an error code and a log line, and a serve
    /// loop with nothing (or a kick).
    pub fn complete_auth(&mut self, peer: i32) -> bool {
        let Some(pending) = self.pending.get_mut(&peer).filter(|p| !p.local) else {
            return false;
        };
        pending.local = true;
        let remote = pending.remote;
        let mut packet = Vec::with_capacity(2);
        wire::write_auth(&mut packet, &[]);
        self.push_packet(peer, 0, TransferMode::Reliable, packet);
        if remote {
            self.pending.remove(&peer);
            self.admit(peer);
        }
        true
    }

    /// Disconnects a peer (`disconnect_peer`): the others are told, no event for it.
    pub fn disconnect_peer(&mut self, peer: i32) {
        if self.pending.remove(&peer).is_none() {
            self.del_peer(peer, false);
        }
        self.out.push_back(Output::Disconnect(peer));
    }

    /// Sends RAW bytes (`send_bytes`): `to` is a peer, 0 for all, or `-id` for all but one. A
    /// target that is not connected gets nothing and a [`ProtocolError::NoSuchPeer`] event.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`], [`ProtocolError::NoSuchPeer`] for our own id.
    pub fn send_bytes(
        &mut self,
        to: i32,
        data: &[u8],
        mode: TransferMode,
        channel: u8,
    ) -> Result<(), ProtocolError> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("RAW"));
        }
        let mut packet = Vec::with_capacity(data.len() + 1);
        wire::write_raw(&mut packet, data);
        if to > 0 && !self.peers.contains_key(&to) {
            self.gone(to)?;
            return Ok(());
        }
        self.send_command(to, channel, mode, packet);
        Ok(())
    }

    /// Calls `method` on the node at `path` of peer `to` (0 all, `-id` all but one) with typed
    /// arguments: a tuple, a struct (fields in order), `()`, or a `Vec<Variant>`. A target that
    /// is not connected (it left while its events were queued) gets nothing and a
    /// [`ProtocolError::NoSuchPeer`] event: its departure is no error of ours.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::NotDeclared`] for an undeclared node or method, naming what is
    /// declared; [`ProtocolError::Encode`] and [`ProtocolError::TooManyArguments`] for
    /// arguments that cannot be sent; [`ProtocolError::NoSuchPeer`] for our own id.
    pub fn rpc<A: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &A,
    ) -> Result<(), ProtocolError> {
        // Straight into the layout, no Variants: the bytes `rpc_variants` writes for them.
        self.rpc_with(to, path, method, || args::encode(args))
    }

    /// [`rpc`](Self::rpc) with the arguments as `Variant`s.
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rpc_variants(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<(), ProtocolError> {
        self.rpc_with(to, path, method, || args::encode_variants(args))
    }

    /// [`rpc`](Self::rpc) with the arguments encoded by `encode`, once the node and method
    /// are known to be declared.
    pub(crate) fn rpc_with(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        encode: impl FnOnce() -> Result<Encoded, ProtocolError>,
    ) -> Result<(), ProtocolError> {
        let path = relative_path(path);
        let not_declared = |methods| ProtocolError::NotDeclared {
            path: path.to_owned(),
            method: method.to_owned(),
            methods,
        };
        let &index = self
            .by_path
            .get(path)
            .ok_or_else(|| not_declared(Vec::new()))?;
        let table = self
            .tables
            .get(index)
            .ok_or_else(|| not_declared(Vec::new()))?;
        let method_id = table
            .method_id(method)
            .ok_or_else(|| not_declared(table.method_names()))?;
        let config = table
            .methods()
            .get(usize::from(method_id))
            .cloned()
            .ok_or_else(|| not_declared(table.method_names()))?;
        let (table_path, md5) = (table.path().to_owned(), table.md5().to_owned());
        let encoded: Encoded = encode()?;
        if to > 0 && !self.peers.contains_key(&to) {
            self.gone(to)?;
            return Ok(());
        }
        let targets: Vec<i32> = if to > 0 {
            vec![to]
        } else {
            self.peers.keys().copied().filter(|&p| p != -to).collect()
        };
        let cache_id = match self.cache_ids.get(index).copied() {
            Some(0) | None => {
                let id = self.next_cache_id;
                self.next_cache_id = self.next_cache_id.wrapping_add(1).max(1);
                if let Some(slot) = self.cache_ids.get_mut(index) {
                    *slot = id;
                }
                id
            }
            Some(id) => id,
        };
        // SIMPLIFY_PATH to every target that has not been sent it (SceneCacheInterface).
        let mut all_confirmed = true;
        for &target in &targets {
            let state = self
                .peers
                .get(&target)
                .and_then(|p| p.confirmed.get(&index).copied());
            match state {
                Some(true) => {}
                Some(false) => all_confirmed = false,
                None => {
                    all_confirmed = false;
                    let mut packet = Vec::new();
                    wire::write_simplify_path(&mut packet, &md5, cache_id, &table_path);
                    self.send_command(target, 0, TransferMode::Reliable, packet);
                    if let Some(peer) = self.peers.get_mut(&target) {
                        peer.confirmed.insert(index, false);
                    }
                }
            }
        }
        for &target in &targets {
            let confirmed = all_confirmed
                || self
                    .peers
                    .get(&target)
                    .and_then(|p| p.confirmed.get(&index).copied())
                    == Some(true);
            let mut packet = Vec::with_capacity(encoded.bytes.len() + 8);
            if all_confirmed {
                wire::write_remote_call(&mut packet, cache_id, None, method_id, &encoded);
            } else if confirmed {
                // Godot writes the id in 32 bits when not every target has confirmed it.
                wire::write_remote_call(&mut packet, cache_id, None, method_id, &encoded);
                force_node_id_32(&mut packet, cache_id);
            } else {
                wire::write_remote_call(
                    &mut packet,
                    cache_id,
                    Some(&table_path),
                    method_id,
                    &encoded,
                );
            }
            self.send_command(target, config.channel, config.transfer_mode, packet);
        }
        Ok(())
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
        if to > 0 {
            self.push_packet(to, channel, mode, packet);
            return;
        }
        let targets: Vec<i32> = self.peers.keys().copied().filter(|&p| p != -to).collect();
        for target in targets {
            self.push_packet(target, channel, mode, packet.clone());
        }
    }

    fn push_packet(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        // A client's transport has one peer, the server.
        let to = if self.is_server() { to } else { 1 };
        self.out.push_back(Output::Packet {
            to,
            channel,
            mode,
            data,
        });
    }
}

/// Rewrites a compact REMOTE_CALL to use a 32-bit node id (what `_send_rpc` writes for the
/// targets that confirmed the id when others have not).
fn force_node_id_32(packet: &mut Vec<u8>, id: u32) {
    let Some(&meta) = packet.first() else { return };
    let shift = wire::NODE_ID_SHIFT;
    let width = match (meta >> shift) & 3 {
        0 => 1,
        1 => 2,
        _ => return,
    };
    packet.splice(1..1 + width, id.to_le_bytes());
    if let Some(m) = packet.first_mut() {
        *m = (meta & !(3 << shift)) | (2 << shift);
    }
}
