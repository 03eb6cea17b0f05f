//! [`Session`]: the `MultiplayerAPI` state of one Godot 3.2.3 side (server, peer 1, or a
//! client), sans IO. The transport (e.g. [`super::enet`]) strips its own framing and reports
//! connections and packets; the session answers with [`Event`]s and [`Output`]s.
//!
//! As in the Godot 4 session, what a peer does or is arrives as its [`Event::Error`] (its
//! refused packets, arguments that do not fit the requested type through
//! [`Session::args_of`] and [`Session::value_of`], a call of ours to a peer that has left
//! meanwhile), and the `Err` of a session call is ours alone (an undeclared node or member,
//! arguments that cannot be encoded, an empty payload): `?` on a session call is right in a
//! serve loop.

use std::collections::{BTreeMap, HashMap, VecDeque};

use godot_serde::Variant;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::table::NodeTable;
use super::wire::{self, NodeRef, Packet};
use super::{Error, MemberKind};
use crate::args;
use crate::rpc::relative_path;
use crate::{Limits, ProtocolError};

/// A remote call (`rpc*`) or remote set (`rset*`) received.
#[derive(Debug, Clone, PartialEq)]
pub struct Remote {
    /// The caller.
    pub from: i32,
    /// The node path, relative to the multiplayer root.
    pub path: String,
    /// The method or property name.
    pub member: String,
    /// The arguments of a call; the one value of a set.
    pub args: Vec<Variant>,
    /// Whether it came unreliable (`rpc_unreliable`, `rset_unreliable`).
    pub unreliable: bool,
}

impl Remote {
    /// The arguments as a typed tuple or struct (fields in order), through Godot 3's layout.
    /// In a serve loop, [`Session::args_of`] is the shape (a mismatch is the caller's event).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when they do not fit `T`.
    pub fn args_as<T: DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        let list = Variant::from(self.args.clone());
        args::typed_in(&wire::config(), &self.member, &list)
    }

    /// The value of a set as a typed value ([`Session::value_of`] in a serve loop).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when it does not fit `T`.
    pub fn value_as<T: DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        let value = self.args.first().unwrap_or(&Variant::Nil);
        args::typed_in(&wire::config(), &self.member, value)
    }
}

/// What happened, for the application.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `network_peer_connected` (peer 1 on a client: `connected_to_server`).
    PeerConnected(i32),
    /// `network_peer_disconnected`.
    PeerDisconnected(i32),
    /// A remote call its mode allows.
    Rpc(Remote),
    /// A remote set its mode allows (the application sets the property).
    Rset(Remote),
    /// `network_peer_packet`: RAW bytes.
    Raw {
        /// The sender.
        from: i32,
        /// The bytes.
        data: Vec<u8>,
        /// Whether they came unreliable.
        unreliable: bool,
    },
    /// Something of `peer`'s, never the end of a serve loop: its packet was refused (the
    /// engine prints an error and drops it), its call's arguments did not fit
    /// ([`Session::args_of`]), or a call of ours found it gone ([`ProtocolError::NoSuchPeer`]).
    /// The session goes on.
    Error {
        /// The peer it concerns.
        peer: i32,
        /// What was wrong.
        error: Error,
    },
}

/// What the transport must send: `MultiplayerAPI`'s `set_target_peer`, `set_transfer_mode`
/// and `put_packet` in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The target peer: an id, 0 for everyone, `-n` for everyone but `n` (the transport
    /// relays through the server as Godot 3's peers do).
    pub target: i32,
    /// `TRANSFER_MODE_UNRELIABLE` (else reliable).
    pub unreliable: bool,
    /// The `MultiplayerAPI` bytes.
    pub data: Vec<u8>,
}

#[derive(Debug, Default)]
struct Peer {
    /// Path-cache ids the peer announced → the declared table, `None` for a path we do not
    /// declare (the engine stores any path; calls through it are refused later).
    recv: HashMap<u32, Option<usize>>,
    /// Table index → whether the peer confirmed our SIMPLIFY_PATH.
    confirmed: HashMap<usize, bool>,
}

/// The `MultiplayerAPI` state of one Godot 3 side, sans IO.
#[derive(Debug)]
pub struct Session {
    id: i32,
    limits: Limits,
    tables: Vec<NodeTable>,
    by_path: HashMap<String, usize>,
    cache_ids: Vec<u32>,
    next_cache_id: u32,
    peers: BTreeMap<i32, Peer>,
    events: VecDeque<Event>,
    out: VecDeque<Output>,
}

impl Session {
    /// The server's session (peer 1).
    pub fn server(limits: Limits) -> Self {
        Self::with_id(1, limits)
    }

    /// A client's session; `id` is the id it sent the server (2..=i32::MAX).
    pub fn client(id: i32, limits: Limits) -> Self {
        Self::with_id(id, limits)
    }

    fn with_id(id: i32, limits: Limits) -> Self {
        Self {
            id,
            limits,
            tables: Vec::new(),
            by_path: HashMap::new(),
            cache_ids: Vec::new(),
            // `last_send_cache_id` starts at 1.
            next_cache_id: 1,
            peers: BTreeMap::new(),
            events: VecDeque::new(),
            out: VecDeque::new(),
        }
    }

    /// Declares a node's table (replacing one of the same path).
    pub fn declare(&mut self, table: NodeTable) {
        if let Some(&i) = self.by_path.get(table.path()) {
            if let Some(slot) = self.tables.get_mut(i) {
                *slot = table;
            }
            return;
        }
        self.by_path
            .insert(table.path().to_owned(), self.tables.len());
        self.tables.push(table);
        self.cache_ids.push(0);
    }

    /// Sets a declared node's network master (`set_network_master`).
    ///
    /// # Errors
    ///
    /// [`Error::NotDeclared`] when no table has this path.
    pub fn set_network_master(&mut self, path: &str, peer: i32) -> Result<(), Error> {
        let path = relative_path(path);
        let table = self
            .by_path
            .get(path)
            .and_then(|&i| self.tables.get_mut(i))
            .ok_or_else(|| Error::NotDeclared {
                path: path.to_owned(),
                kind: MemberKind::Method,
                member: String::new(),
            })?;
        table.set_master(peer);
        Ok(())
    }

    /// Sets our id: a WebSocket client learns it from the server's `SYS_ID`.
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

    /// The connected peers.
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers.keys().copied()
    }

    /// The next event for the application.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next packet for the transport.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    // ---- transport side -------------------------------------------------------------------

    /// `_add_peer`: the transport reports `peer` (on a client, the server at connection and
    /// the other clients from `SYSMSG_ADD_PEER`).
    pub fn connected(&mut self, peer: i32) {
        if peer == self.id || self.peers.contains_key(&peer) {
            return;
        }
        self.peers.insert(peer, Peer::default());
        self.events.push_back(Event::PeerConnected(peer));
    }

    /// `_del_peer`: its path caches are forgotten. On a client, losing peer 1 drops everyone.
    pub fn disconnected(&mut self, peer: i32) {
        if self.peers.remove(&peer).is_some() {
            self.events.push_back(Event::PeerDisconnected(peer));
        }
        if !self.is_server() && peer == 1 {
            let others: Vec<i32> = self.peers.keys().copied().collect();
            for p in others {
                self.peers.remove(&p);
                self.events.push_back(Event::PeerDisconnected(p));
            }
        }
    }

    /// Reports an error of `peer` (a transport's, or the application's verdict on what the
    /// peer sent) as its [`Event::Error`].
    pub fn report(&mut self, peer: i32, error: Error) {
        self.events.push_back(Event::Error { peer, error });
    }

    /// The arguments of `call` as a typed tuple or struct (fields in order), or `None` when
    /// they do not fit `T`: then the mismatch ([`ProtocolError::ArgumentType`]) is queued as
    /// the caller's [`Event::Error`], as the engine logs a call its method refuses and goes
    /// on. A serve loop skips the call with
    /// `let Some(args) = session.args_of::<T>(&call) else { continue };`.
    pub fn args_of<T: DeserializeOwned>(&mut self, call: &Remote) -> Option<T> {
        self.typed_or_report(call.from, call.args_as())
    }

    /// The value of a remote set as `T`, or `None` when it does not fit (queued as the
    /// sender's [`Event::Error`], as with [`args_of`](Self::args_of)).
    pub fn value_of<T: DeserializeOwned>(&mut self, set: &Remote) -> Option<T> {
        self.typed_or_report(set.from, set.value_as())
    }

    fn typed_or_report<T>(&mut self, from: i32, typed: Result<T, ProtocolError>) -> Option<T> {
        typed.map_err(|e| self.report(from, e.into())).ok()
    }

    /// A packet from `from` (`MultiplayerAPI::_process_packet`).
    pub fn receive(&mut self, from: i32, unreliable: bool, packet: &[u8]) {
        if let Err(error) = self.receive_inner(from, unreliable, packet) {
            self.events.push_back(Event::Error { peer: from, error });
        }
    }

    fn receive_inner(&mut self, from: i32, unreliable: bool, packet: &[u8]) -> Result<(), Error> {
        // The engine takes packets of any sender; a sender that is not connected here has no
        // path cache, so only its RAW packets could mean anything. Refusing it keeps state
        // bounded to connected peers.
        if !self.peers.contains_key(&from) {
            return Err(ProtocolError::State {
                peer: from,
                detail: "is not connected",
            }
            .into());
        }
        match wire::parse(packet)? {
            Packet::SimplifyPath { id, path } => {
                let index = self.by_path.get(path).copied();
                let limit = self.limits.max_cached_paths;
                let peer = self.peers.entry(from).or_default();
                if !peer.recv.contains_key(&id) && peer.recv.len() >= limit {
                    return Err(ProtocolError::PathCacheFull { peer: from, limit }.into());
                }
                // A repeated id replaces the old path, as `nodes[id] = ni` does.
                peer.recv.insert(id, index);
                let mut data = Vec::with_capacity(path.len() + 2);
                wire::write_confirm_path(&mut data, path);
                self.out.push_back(Output {
                    target: from,
                    unreliable: false,
                    data,
                });
                Ok(())
            }
            Packet::ConfirmPath { path } => {
                let index = self.by_path.get(path).copied();
                let slot = index.and_then(|i| {
                    self.peers
                        .get_mut(&from)
                        .and_then(|p| p.confirmed.get_mut(&i))
                });
                match slot {
                    Some(flag) => {
                        *flag = true;
                        Ok(())
                    }
                    None => Err(Error::UnexpectedConfirm {
                        peer: from,
                        path: path.to_owned(),
                    }),
                }
            }
            Packet::Raw(data) => {
                self.events.push_back(Event::Raw {
                    from,
                    data: data.to_vec(),
                    unreliable,
                });
                Ok(())
            }
            Packet::RemoteCall {
                node,
                method,
                count,
                args,
                args_offset,
            } => {
                let index = self.node(from, &node)?;
                let path = self.check(index, from, method, MemberKind::Method)?;
                let args = wire::decode_args(count, args, args_offset)?;
                self.events.push_back(Event::Rpc(Remote {
                    from,
                    path,
                    member: method.to_owned(),
                    args,
                    unreliable,
                }));
                Ok(())
            }
            Packet::RemoteSet {
                node,
                property,
                value,
                value_offset,
            } => {
                let index = self.node(from, &node)?;
                let path = self.check(index, from, property, MemberKind::Property)?;
                let value = wire::decode_value(value, value_offset)?;
                self.events.push_back(Event::Rset(Remote {
                    from,
                    path,
                    member: property.to_owned(),
                    args: vec![value],
                    unreliable,
                }));
                Ok(())
            }
        }
    }

    /// `_process_get_node`: the declared table a call names.
    fn node(&self, from: i32, node: &NodeRef<'_>) -> Result<usize, Error> {
        match *node {
            NodeRef::Path(path) => self.by_path.get(path).copied().ok_or_else(|| {
                ProtocolError::UnknownNode {
                    peer: from,
                    path: path.to_owned(),
                }
                .into()
            }),
            NodeRef::Cached(id) => {
                let entry = self
                    .peers
                    .get(&from)
                    .and_then(|p| p.recv.get(&id))
                    .ok_or(ProtocolError::UnknownCacheId { peer: from, id })?;
                entry.ok_or_else(|| {
                    ProtocolError::UnknownNode {
                        peer: from,
                        path: format!("(path-cache id {id})"),
                    }
                    .into()
                })
            }
        }
    }

    /// `_can_call_mode` for a received call or set.
    fn check(
        &self,
        index: usize,
        from: i32,
        member: &str,
        kind: MemberKind,
    ) -> Result<String, Error> {
        let table = self.tables.get(index).ok_or(ProtocolError::State {
            peer: from,
            detail: "names a node that is not declared",
        })?;
        let mode = match kind {
            MemberKind::Method => table.method_mode(member),
            MemberKind::Property => table.property_mode(member),
        };
        if !mode.can_call(table.master(), self.id, from) {
            return Err(Error::NotAllowed {
                peer: from,
                path: table.path().to_owned(),
                kind,
                member: member.to_owned(),
                mode,
                master: table.master(),
            });
        }
        Ok(table.path().to_owned())
    }

    // ---- application side -----------------------------------------------------------------

    /// `rpc_id(to, method, args...)` (`to` 0: `rpc`, everyone; `-n`: everyone but `n`) with
    /// typed arguments (a tuple, a struct in field order, `()`). Returns whether the engine
    /// would also run the method locally (`remotesync` and friends, `master` on the master):
    /// the caller runs its own handler then.
    ///
    /// A target that is not connected (`n` of `-n` included, as `_send_rpc` checks
    /// `ABS(p_to)`) gets nothing and a [`ProtocolError::NoSuchPeer`] event: its departure is no
    /// error of ours; the local call is still answered, as the engine still makes it.
    ///
    /// # Errors
    ///
    /// [`Error::NotDeclared`], encoding errors, [`ProtocolError::NoSuchPeer`] for our own id
    /// as `-n` (Godot sends nothing to itself).
    pub fn rpc<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &T,
    ) -> Result<bool, Error> {
        self.send_typed(to, (path, method, MemberKind::Method), false, args)
    }

    /// `rpc_unreliable_id`: as [`rpc`](Self::rpc), unreliable.
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rpc_unreliable<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &T,
    ) -> Result<bool, Error> {
        self.send_typed(to, (path, method, MemberKind::Method), true, args)
    }

    /// A typed call (its arguments) or set (its one value), in Godot 3's layout.
    fn send_typed<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        (path, member, kind): (&str, &str, MemberKind),
        unreliable: bool,
        value: &T,
    ) -> Result<bool, Error> {
        let args = match kind {
            MemberKind::Method => args::arguments_in(&wire::config(), value)?,
            MemberKind::Property => vec![args::value_in(&wire::config(), value)?],
        };
        self.send(to, path, member, kind, unreliable, &args)
    }

    /// `rpc` with a list of Variants (the fallback for untyped arguments).
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rpc_variants(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        unreliable: bool,
        args: &[Variant],
    ) -> Result<bool, Error> {
        self.send(to, path, method, MemberKind::Method, unreliable, args)
    }

    /// `rset_id(to, property, value)` (`to` 0: `rset`, everyone). Returns whether the engine
    /// would also set it locally.
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rset<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        property: &str,
        value: &T,
    ) -> Result<bool, Error> {
        self.send_typed(to, (path, property, MemberKind::Property), false, value)
    }

    /// `rset_unreliable_id`: as [`rset`](Self::rset), unreliable.
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rset_unreliable<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        property: &str,
        value: &T,
    ) -> Result<bool, Error> {
        self.send_typed(to, (path, property, MemberKind::Property), true, value)
    }

    /// `send_bytes(data, to, mode)`: a RAW packet. A target that is not connected gets
    /// nothing and a [`ProtocolError::NoSuchPeer`] event, as with [`rpc`](Self::rpc).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`] for no bytes (Godot refuses them),
    /// [`ProtocolError::NoSuchPeer`] for our own id as `-n`.
    pub fn send_bytes(&mut self, to: i32, data: &[u8], unreliable: bool) -> Result<(), Error> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("RAW").into());
        }
        if to != 0 && !self.peers.contains_key(&to.saturating_abs()) {
            self.gone(to)?;
            return Ok(());
        }
        let mut packet = Vec::with_capacity(data.len() + 1);
        wire::write_raw(&mut packet, data);
        self.out.push_back(Output {
            target: to,
            unreliable,
            data: packet,
        });
        Ok(())
    }

    /// `to` (or `n` of `-n`) is not a connected peer: reported as its [`Event::Error`], unless
    /// it is us (we are no peer of ours: the caller's mistake).
    fn gone(&mut self, to: i32) -> Result<(), Error> {
        let peer = to.saturating_abs();
        if peer == self.id {
            return Err(ProtocolError::NoSuchPeer(to).into());
        }
        self.report(peer, ProtocolError::NoSuchPeer(peer).into());
        Ok(())
    }

    /// `rpcp`/`rsetp` then `_send_rpc`.
    fn send(
        &mut self,
        to: i32,
        path: &str,
        member: &str,
        kind: MemberKind,
        unreliable: bool,
        args: &[Variant],
    ) -> Result<bool, Error> {
        let path = relative_path(path);
        let not_declared = || Error::NotDeclared {
            path: path.to_owned(),
            kind,
            member: member.to_owned(),
        };
        let &index = self.by_path.get(path).ok_or_else(not_declared)?;
        let table = self.tables.get(index).ok_or_else(not_declared)?;
        let declared = match kind {
            MemberKind::Method => table.has_method(member),
            MemberKind::Property => table.has_property(member),
        };
        if !declared {
            return Err(not_declared());
        }
        let mode = match kind {
            MemberKind::Method => table.method_mode(member),
            MemberKind::Property => table.property_mode(member),
        };
        let table_path = table.path().to_owned();
        let is_master = table.master() == self.id;
        let mut skip = to == self.id;
        let mut local = false;
        if to == 0 || to == self.id || (to < 0 && to != -self.id) {
            let (call_local, skip_remote) = mode.local_call(is_master);
            local = call_local;
            skip |= skip_remote;
        }
        if skip {
            return Ok(local);
        }
        let mut base = Vec::new();
        match kind {
            MemberKind::Method => wire::write_remote_call(&mut base, 0, None, member, args)?,
            MemberKind::Property => {
                let value = args.first().unwrap_or(&Variant::Nil);
                wire::write_remote_set(&mut base, 0, None, member, value)?;
            }
        }
        // `_send_rpc`: `p_to != 0 && !connected_peers.has(ABS(p_to))` is refused (and logged);
        // `rpcp` still makes the local call.
        if to != 0 && !self.peers.contains_key(&to.saturating_abs()) {
            self.gone(to)?;
            return Ok(local);
        }
        let cache_id = match self.cache_ids.get(index).copied() {
            Some(0) | None => {
                let id = self.next_cache_id;
                self.next_cache_id =
                    self.next_cache_id.wrapping_add(1).max(1) & !wire::PATH_IN_PACKET;
                if let Some(slot) = self.cache_ids.get_mut(index) {
                    *slot = id;
                }
                id
            }
            Some(id) => id,
        };
        // `_send_confirm_path`: SIMPLIFY_PATH to the targets that were never sent it.
        let targets: Vec<i32> = self
            .peers
            .keys()
            .copied()
            .filter(|&p| (to >= 0 || p != -to) && (to <= 0 || p == to))
            .collect();
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
                    wire::write_simplify_path(&mut packet, cache_id, &table_path);
                    self.out.push_back(Output {
                        target,
                        unreliable: false,
                        data: packet,
                    });
                    if let Some(peer) = self.peers.get_mut(&target) {
                        peer.confirmed.insert(index, false);
                    }
                }
            }
        }
        set_node_id(&mut base, cache_id);
        if all_confirmed {
            self.out.push_back(Output {
                target: to,
                unreliable,
                data: base,
            });
            return Ok(local);
        }
        let len = base.len();
        let mut with_path = base.clone();
        with_path.extend_from_slice(table_path.as_bytes());
        with_path.push(0);
        set_node_id(&mut with_path, wire::PATH_IN_PACKET | len as u32);
        for target in targets {
            let confirmed = self
                .peers
                .get(&target)
                .and_then(|p| p.confirmed.get(&index).copied())
                == Some(true);
            self.out.push_back(Output {
                target,
                unreliable,
                data: if confirmed {
                    base.clone()
                } else {
                    with_path.clone()
                },
            });
        }
        Ok(local)
    }
}

fn set_node_id(packet: &mut [u8], id: u32) {
    if let Some(slot) = packet.get_mut(1..5) {
        slot.copy_from_slice(&id.to_le_bytes());
    }
}
