//! [`Session`]: the `MultiplayerAPI` state of one Godot 3.2.3 side (server, peer 1, or a
//! client), sans IO. The transport (e.g. [`super::enet`]) strips its own framing and reports
//! connections and packets; the session answers with the crate's [`Event`]s and [`Output`](crate::Output)s
//! (the same types as the Godot 4 session's: "unreliable" is [`TransferMode::Unreliable`], a
//! remote set is [`Event::Rset`], an output's `to` is the engine's target, `0` and `-n`
//! included, for the transport's header).
//!
//! As in the Godot 4 session, what a peer does or is arrives as its [`Event::Error`] (its
//! refused packets, arguments that do not fit the requested type through
//! [`Session::args_of`] and [`Session::value_of`], a call of ours to a peer that has left
//! meanwhile), and the `Err` of a session call is ours alone (an undeclared node or member,
//! arguments that cannot be encoded, an empty payload): `?` on a session call is right in a
//! serve loop.

use std::collections::BTreeMap;

use godot_serde::Variant;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::MemberKind;
use super::table::NodeTable;
use super::wire::{self, NodeRef, Packet};
use crate::args;
use crate::core::cache::{self, PathCache, PeerPaths, Repeat};
use crate::core::{SessionCommon, Target, deref_common, node_id};
use crate::event::Godot3Args;
use crate::rpc::relative_path;
use crate::{Event, Limits, ProtocolError, RemoteCall, TransferMode};

/// The transfer mode of Godot 3's "unreliable" flag.
fn mode_of(unreliable: bool) -> TransferMode {
    if unreliable {
        TransferMode::Unreliable
    } else {
        TransferMode::Reliable
    }
}

/// The per-peer record: the path-cache ids the peer announced → the declared table, `None`
/// for a path we do not declare (the engine stores any path; calls through it are refused
/// later), and which of our ids it confirmed.
type Peer = PeerPaths<Option<usize>>;

/// The `MultiplayerAPI` state of one Godot 3 side, sans IO.
#[derive(Debug)]
pub struct Session {
    common: SessionCommon,
    limits: Limits,
    cache: PathCache<NodeTable>,
    peers: BTreeMap<i32, Peer>,
}

deref_common!(Session);

impl Session {
    /// The server's session: the side whose id is 1.
    pub fn server(limits: Limits) -> Self {
        Self::client(1, limits)
    }

    /// A client's session; `id` is the id it sent the server (2..=i32::MAX).
    pub fn client(id: i32, limits: Limits) -> Self {
        Self {
            common: SessionCommon::new(id),
            limits,
            // `last_send_cache_id` starts at 1; ids never use the "path in packet" bit.
            cache: PathCache::new(!node_id::PATH_IN_PACKET),
            peers: BTreeMap::new(),
        }
    }

    /// Declares a node's table (replacing one of the same path).
    pub fn declare(&mut self, table: NodeTable) {
        self.cache.declare(table);
    }

    /// Sets a declared node's network master (`set_network_master`).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::RemoteNotDeclared`] when no table has this path.
    pub fn set_network_master(&mut self, path: &str, peer: i32) -> Result<(), ProtocolError> {
        let path = relative_path(path);
        let table = self
            .cache
            .index(path)
            .and_then(|i| self.cache.table_mut(i))
            .ok_or_else(|| ProtocolError::RemoteNotDeclared {
                path: path.to_owned(),
                kind: MemberKind::Method,
                member: String::new(),
            })?;
        table.set_master(peer);
        Ok(())
    }

    /// The connected peers.
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers.keys().copied()
    }

    // ---- transport side -------------------------------------------------------------------

    /// `_add_peer`: the transport reports `peer` (on a client, the server at connection and
    /// the other clients from `SYSMSG_ADD_PEER`).
    pub fn connected(&mut self, peer: i32) {
        if peer == self.common.id || self.peers.contains_key(&peer) {
            return;
        }
        self.peers.insert(peer, Peer::default());
        self.common.queues.event(Event::PeerConnected(peer));
    }

    /// `_del_peer`: its path caches are forgotten. On a client, losing peer 1 drops everyone.
    pub fn disconnected(&mut self, peer: i32) {
        if self.peers.remove(&peer).is_some() {
            self.common.queues.event(Event::PeerDisconnected(peer));
        }
        if !self.is_server() && peer == 1 {
            while let Some((p, _)) = self.peers.pop_first() {
                self.common.queues.event(Event::PeerDisconnected(p));
            }
        }
    }

    /// The arguments of `call` as a typed tuple or struct (fields in order), or `None` when
    /// they do not fit `T`: then the mismatch ([`ProtocolError::ArgumentType`]) is queued as
    /// the caller's [`Event::Error`], as the engine logs a call its method refuses and goes
    /// on. A serve loop skips the call with
    /// `let Some(args) = session.args_of::<T>(&call) else { continue };`.
    pub fn args_of<T: DeserializeOwned>(&mut self, call: &RemoteCall) -> Option<T> {
        self.common.or_report(call.from, call.args_as())
    }

    /// The value of a remote set as `T`, or `None` when it does not fit (queued as the
    /// sender's [`Event::Error`], as with [`args_of`](Self::args_of)).
    pub fn value_of<T: DeserializeOwned>(&mut self, set: &RemoteCall) -> Option<T> {
        self.common.or_report(set.from, set.value_as())
    }

    /// A packet from `from` (`MultiplayerAPI::_process_packet`).
    pub fn receive(&mut self, from: i32, unreliable: bool, packet: &[u8]) {
        if let Err(error) = self.receive_inner(from, mode_of(unreliable), packet) {
            self.common.queues.report(from, error);
        }
    }

    fn receive_inner(
        &mut self,
        from: i32,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<(), ProtocolError> {
        // The engine takes packets of any sender; a sender that is not connected here has no
        // path cache, so only its RAW packets could mean anything. Refusing it keeps state
        // bounded to connected peers.
        let Some(peer) = self.peers.get_mut(&from) else {
            return Err(ProtocolError::State {
                peer: from,
                detail: "is not connected",
            });
        };
        match wire::parse(packet)? {
            Packet::SimplifyPath { id, path } => {
                let index = self.cache.index(path);
                let limit = self.limits.max_cached_paths;
                // A repeated id replaces the old path, as `nodes[id] = ni` does.
                peer.remember(from, id, index, limit, Repeat::Replace)?;
                let mut data = Vec::with_capacity(path.len() + 2);
                wire::write_confirm_path(&mut data, path);
                self.common
                    .queues
                    .packet(from, 0, TransferMode::Reliable, data);
                Ok(())
            }
            Packet::ConfirmPath { path } => {
                let confirmed = self.cache.index(path).is_some_and(|i| peer.confirm(i));
                if confirmed {
                    return Ok(());
                }
                Err(ProtocolError::UnexpectedConfirm {
                    peer: from,
                    path: path.to_owned(),
                })
            }
            Packet::Raw(data) => {
                self.common.queues.event(Event::Raw {
                    from,
                    data: data.to_vec(),
                    channel: 0,
                    mode,
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
                let names = (from, path, method.to_owned());
                let kind = Godot3Args::Call(count);
                let call = RemoteCall::godot3(names, mode, kind, (args, args_offset));
                self.common.queues.event(Event::Rpc(call));
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
                let names = (from, path, property.to_owned());
                let set = RemoteCall::godot3(names, mode, Godot3Args::Set, (value, value_offset));
                self.common.queues.event(Event::Rset(set));
                Ok(())
            }
        }
    }

    /// `_process_get_node`: the declared table a call names.
    fn node(&self, from: i32, node: &NodeRef<'_>) -> Result<usize, ProtocolError> {
        match *node {
            NodeRef::Path(path) => {
                self.cache
                    .index(path)
                    .ok_or_else(|| ProtocolError::UnknownNode {
                        peer: from,
                        path: path.to_owned(),
                    })
            }
            NodeRef::Cached(id) => {
                let entry = self
                    .peers
                    .get(&from)
                    .and_then(|p| p.lookup(id))
                    .ok_or(ProtocolError::UnknownCacheId { peer: from, id })?;
                entry.ok_or_else(|| ProtocolError::UnknownNode {
                    peer: from,
                    path: format!("(path-cache id {id})"),
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
    ) -> Result<String, ProtocolError> {
        let table = self.cache.table(index).ok_or(ProtocolError::State {
            peer: from,
            detail: "names a node that is not declared",
        })?;
        let mode = match kind {
            MemberKind::Method => table.method_mode(member),
            MemberKind::Property => table.property_mode(member),
        };
        if !mode.can_call(table.master(), self.common.id, from) {
            return Err(ProtocolError::RemoteNotAllowed {
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
    /// [`ProtocolError::RemoteNotDeclared`], encoding errors, [`ProtocolError::NoSuchPeer`]
    /// for our own id as `-n` (Godot sends nothing to itself).
    pub fn rpc<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &T,
    ) -> Result<bool, ProtocolError> {
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
    ) -> Result<bool, ProtocolError> {
        self.send_typed(to, (path, method, MemberKind::Method), true, args)
    }

    /// A typed call (its arguments) or set (its one value), in Godot 3's layout: written
    /// straight into it, no `Variant` in between (a set's value goes through one).
    fn send_typed<T: ?Sized + Serialize>(
        &mut self,
        to: i32,
        (path, member, kind): (&str, &str, MemberKind),
        unreliable: bool,
        value: &T,
    ) -> Result<bool, ProtocolError> {
        let mut bytes = Vec::new();
        let body = match kind {
            MemberKind::Method => Body::Call(super::args::encode_into(value, &mut bytes)?, bytes),
            MemberKind::Property => {
                let value = args::value_in(&wire::config(), value)?;
                wire::config()
                    .to_bytes_into(&value, &mut bytes)
                    .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
                Body::Set(bytes)
            }
        };
        self.send(to, (path, member, kind), unreliable, body)
    }

    /// A call whose `count` arguments are already in Godot 3's layout (an RPC set's value).
    pub(crate) fn rpc_encoded(
        &mut self,
        to: i32,
        (path, method): (&str, &str),
        unreliable: bool,
        (count, bytes): (u8, Vec<u8>),
    ) -> Result<bool, ProtocolError> {
        self.send(
            to,
            (path, method, MemberKind::Method),
            unreliable,
            Body::Call(count, bytes),
        )
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
    ) -> Result<bool, ProtocolError> {
        let (count, bytes) = Godot3Args::encode(args)?;
        let body = Body::Call(count, bytes);
        self.send(to, (path, method, MemberKind::Method), unreliable, body)
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
    ) -> Result<bool, ProtocolError> {
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
    ) -> Result<bool, ProtocolError> {
        self.send_typed(to, (path, property, MemberKind::Property), true, value)
    }

    /// `send_bytes(data, to, mode)`: a RAW packet. A target that is not connected gets
    /// nothing and a [`ProtocolError::NoSuchPeer`] event, as with [`rpc`](Self::rpc).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`] for no bytes (Godot refuses them),
    /// [`ProtocolError::NoSuchPeer`] for our own id as `-n`.
    pub fn send_bytes(
        &mut self,
        to: i32,
        data: &[u8],
        unreliable: bool,
    ) -> Result<(), ProtocolError> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("RAW"));
        }
        if self.gone(Target::from_engine(to))? {
            return Ok(());
        }
        let mut packet = Vec::with_capacity(data.len() + 1);
        wire::write_raw(&mut packet, data);
        self.common
            .queues
            .packet(to, 0, mode_of(unreliable), packet);
        Ok(())
    }

    /// Whether the peer `target` names (`n` of `n` or `-n`) is not connected: then it is
    /// reported as its [`Event::Error`], unless it is us (we are no peer of ours: the caller's
    /// mistake).
    fn gone(&mut self, target: Target) -> Result<bool, ProtocolError> {
        let Some(peer) = target.named().filter(|p| !self.peers.contains_key(p)) else {
            return Ok(false);
        };
        if peer == self.common.id {
            return Err(ProtocolError::NoSuchPeer(target.to_engine()));
        }
        self.report(peer, ProtocolError::NoSuchPeer(peer));
        Ok(true)
    }

    /// `rpcp`/`rsetp` then `_send_rpc`.
    fn send(
        &mut self,
        to: i32,
        (path, member, kind): (&str, &str, MemberKind),
        unreliable: bool,
        body: Body,
    ) -> Result<bool, ProtocolError> {
        let path = relative_path(path);
        let not_declared = || ProtocolError::RemoteNotDeclared {
            path: path.to_owned(),
            kind,
            member: member.to_owned(),
        };
        let (index, table) = self.cache.by_path(path).ok_or_else(not_declared)?;
        let (declared, mode) = match kind {
            MemberKind::Method => (table.has_method(member), table.method_mode(member)),
            MemberKind::Property => (table.has_property(member), table.property_mode(member)),
        };
        if !declared {
            return Err(not_declared());
        }
        let table_path = table.path().to_owned();
        let is_master = table.master() == self.common.id;
        let target = Target::from_engine(to);
        let mut skip = to == self.common.id;
        let mut local = false;
        if target.includes(self.common.id) {
            let (call_local, skip_remote) = mode.local_call(is_master);
            local = call_local;
            skip |= skip_remote;
        }
        if skip {
            return Ok(local);
        }
        let mut base = Vec::new();
        match &body {
            Body::Call(count, bytes) => {
                wire::write_remote_call_encoded(&mut base, 0, None, member, *count, bytes);
            }
            Body::Set(bytes) => wire::write_remote_set_encoded(&mut base, 0, None, member, bytes),
        }
        // `_send_rpc`: `p_to != 0 && !connected_peers.has(ABS(p_to))` is refused (and logged);
        // `rpcp` still makes the local call.
        if self.gone(target)? {
            return Ok(local);
        }
        let cache_id = self.cache.id_for(index);
        // `_send_confirm_path`: SIMPLIFY_PATH to the targets that were never sent it.
        let targets =
            target.expand_with(self.peers.keys().copied(), |p| self.peers.contains_key(&p));
        let mut fresh = Vec::new();
        let all_confirmed = cache::announce(&mut self.peers, index, &targets, |t| fresh.push(t));
        for t in fresh {
            let mut packet = Vec::new();
            wire::write_simplify_path(&mut packet, cache_id, &table_path);
            self.common
                .queues
                .packet(t, 0, TransferMode::Reliable, packet);
        }
        let mode = mode_of(unreliable);
        node_id::set(&mut base, 0, cache_id);
        if all_confirmed {
            self.common.queues.packet(to, 0, mode, base);
            return Ok(local);
        }
        let mut with_path = base.clone();
        node_id::append_path(&mut with_path, 0, &table_path);
        for t in targets {
            let data = if cache::confirmed(&self.peers, t, index) {
                base.clone()
            } else {
                with_path.clone()
            };
            self.common.queues.packet(t, 0, mode, data);
        }
        Ok(local)
    }
}

/// What a call or set carries, already in Godot 3's layout.
enum Body {
    /// A call's argument count and arguments.
    Call(u8, Vec<u8>),
    /// A set's value.
    Set(Vec<u8>),
}
