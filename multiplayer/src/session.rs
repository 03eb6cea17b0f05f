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
use crate::{ProtocolError, RpcTable, TransferMode};

/// Limits that bound what a peer can make the session hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Path-cache ids one peer may announce (Godot has no limit). Each costs one map entry
    /// (about 16 bytes). Default 1024.
    pub max_cached_paths: usize,
    /// The bounds of the WebSocket transports (Godot 4's `WsPeer` and Godot 3's `Ws3Peer`).
    pub websocket: WsLimits,
    /// The bounds of the ENet transports (Godot 4's `EnetPeer` and Godot 3's `Enet3Peer`).
    pub enet: EnetLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_cached_paths: 1024,
            websocket: WsLimits::default(),
            enet: EnetLimits::default(),
        }
    }
}

impl Limits {
    /// With another path-cache limit per peer.
    #[must_use]
    pub fn with_max_cached_paths(mut self, n: usize) -> Self {
        self.max_cached_paths = n;
        self
    }

    /// With other WebSocket bounds.
    #[must_use]
    pub fn with_websocket(mut self, websocket: WsLimits) -> Self {
        self.websocket = websocket;
        self
    }

    /// With other ENet bounds.
    #[must_use]
    pub fn with_enet(mut self, enet: EnetLimits) -> Self {
        self.enet = enet;
        self
    }
}

/// What one WebSocket connection may make the process hold or do, and how many connections
/// there may be: the bounds of `WsPeer` (Godot 4) and `Ws3Peer` (Godot 3), server and client.
///
/// The per-peer defaults are those of Godot 4.6's `WebSocketMultiplayerPeer`
/// (`inbound_buffer_size`, `outbound_buffer_size`, `max_queued_packets`,
/// `handshake_timeout`); Godot has no connection cap and no idle timeout, ENet's
/// `max_clients` and peer timeout are the models for those. A peer that breaks a bound is
/// dropped with an `Event::Error` naming it, then its disconnection; `service` never returns an
/// error for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WsLimits {
    /// The largest message a peer may send, in bytes, and the bytes read from one peer in one
    /// `service` call (frame headers included): Godot's `inbound_buffer_size`, default 65,535.
    /// A larger message drops the peer with `ProtocolError::MessageTooLarge`; a peer sending
    /// faster is read at this rate (TCP holds the rest back, as Godot's full buffer does).
    pub inbound_buffer_size: usize,
    /// Bytes queued for one peer that its socket did not take yet (frame headers included):
    /// Godot's `outbound_buffer_size`, default 65,535. A peer that does not read until more is
    /// queued is dropped with `ProtocolError::OutboundFull`; a message of ours larger than
    /// this is not sent (`ProtocolError::SendTooLarge`).
    pub outbound_buffer_size: usize,
    /// Messages (pings and pongs included) read from one peer in one `service` call: Godot's
    /// `max_queued_packets`, default 4,096.
    pub max_queued_packets: usize,
    /// Bytes read from all peers together in one `service` call (Godot has no such bound):
    /// default 1 MiB (16 peers at the full `inbound_buffer_size`). Peers are read
    /// round-robin, so those left over are read first in the next call.
    pub inbound_bytes_per_call: usize,
    /// Messages read from all peers together in one `service` call, so what one call can add
    /// to the session's event queue is bounded whatever the number of peers (Godot has no
    /// such bound): default 65,536.
    pub packets_per_call: usize,
    /// Open connections of a server (Godot has none; ENet's `max_clients`): default 1,024.
    /// Connections above it are accepted and closed at once.
    pub max_peers: usize,
    /// Handshakes in progress at once (Godot has none): default 128; more are closed at once.
    pub max_pending: usize,
    /// Milliseconds a handshake may take: Godot's `handshake_timeout`, default 3,000.
    pub handshake_timeout_ms: u64,
    /// Milliseconds a connection may stay silent (no complete frame) before it is dropped with
    /// `ProtocolError::TimedOut`, or keep a data message unfinished (whatever else it sends
    /// meanwhile) before it is dropped with `ProtocolError::Unfinished`: default 10,000 (ENet
    /// drops an unresponsive peer after 5 to 30 s); 0 = never. A peer silent for half of it
    /// is sent a ping, which every WebSocket client (browsers, Godot) answers by itself.
    pub idle_timeout_ms: u64,
}

impl Default for WsLimits {
    fn default() -> Self {
        Self {
            inbound_buffer_size: 65_535,
            outbound_buffer_size: 65_535,
            max_queued_packets: 4_096,
            inbound_bytes_per_call: 1 << 20,
            packets_per_call: 65_536,
            max_peers: 1_024,
            max_pending: 128,
            handshake_timeout_ms: 3_000,
            idle_timeout_ms: 10_000,
        }
    }
}

impl WsLimits {
    /// With another largest inbound message and read budget per call (at least 1 byte).
    #[must_use]
    pub fn with_inbound_buffer_size(mut self, bytes: usize) -> Self {
        self.inbound_buffer_size = bytes.max(1);
        self
    }

    /// With another outbound queue per peer (at least 1 byte).
    #[must_use]
    pub fn with_outbound_buffer_size(mut self, bytes: usize) -> Self {
        self.outbound_buffer_size = bytes.max(1);
        self
    }

    /// With another count of messages read per peer and call (at least 1).
    #[must_use]
    pub fn with_max_queued_packets(mut self, n: usize) -> Self {
        self.max_queued_packets = n.max(1);
        self
    }

    /// With another bound on the bytes read from all peers in one call (at least 1).
    #[must_use]
    pub fn with_inbound_bytes_per_call(mut self, bytes: usize) -> Self {
        self.inbound_bytes_per_call = bytes.max(1);
        self
    }

    /// With another bound on the messages read from all peers in one call (at least 1).
    #[must_use]
    pub fn with_packets_per_call(mut self, n: usize) -> Self {
        self.packets_per_call = n.max(1);
        self
    }

    /// With another connection cap.
    #[must_use]
    pub fn with_max_peers(mut self, n: usize) -> Self {
        self.max_peers = n;
        self
    }

    /// With another cap on handshakes in progress.
    #[must_use]
    pub fn with_max_pending(mut self, n: usize) -> Self {
        self.max_pending = n;
        self
    }

    /// With another handshake timeout (milliseconds, at least 1).
    #[must_use]
    pub fn with_handshake_timeout_ms(mut self, ms: u64) -> Self {
        self.handshake_timeout_ms = ms.max(1);
        self
    }

    /// With another idle timeout (milliseconds, 0 = never).
    #[must_use]
    pub fn with_idle_timeout_ms(mut self, ms: u64) -> Self {
        self.idle_timeout_ms = ms;
        self
    }
}

/// What one ENet peer may make the process hold or do, and the work of one `service` call:
/// the bounds of `EnetPeer` (Godot 4) and `Enet3Peer` (Godot 3), server and client.
///
/// Godot's `ENetConnection` (4.x) and `NetworkedMultiplayerENet` (3.x) keep ENet's own
/// defaults: packets up to 32 MiB, 32 MiB of received data waiting per peer, no bound on what
/// is queued for a peer, and a poll that services until ENet has no event left. Ours are
/// lower. What one peer can make the process hold, by default (measured in
/// `tests/memory.rs`): 64 KiB of waiting data plus one packet of 1 MiB; ENet's records of
/// the waiting packets, about 9 MiB when all 64 KiB are one-byte packets; 1 MiB queued out;
/// and ENet's records of empty packets held out of order, which ENet does not count, about
/// 3 MiB per channel (see `max_waiting_data`): about 21 MiB for a Godot 3 peer (3
/// channels), 11 MiB + 3.3 MiB × (`user_channels` + 2) for a Godot 4 peer, and up to about
/// 850 MiB with Godot's default of 255 channels. A peer that breaks a bound is dropped with
/// an `Event::Error` naming it, then its disconnection, or its packet is refused by ENet;
/// `service` never returns an error for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EnetLimits {
    /// The largest packet a peer may send or be sent, in bytes (ENet's `maximumPacketSize`,
    /// also the total length a first fragment may announce): default 1 MiB (Godot: 32 MiB).
    /// ENet drops a larger incoming packet, or a fragment announcing one, as it arrives; a
    /// packet of ours above it is not sent (`ProtocolError::SendTooLarge`).
    pub max_packet_size: usize,
    /// Bytes of received packets one peer may have waiting in ENet (out of order, fragments
    /// of an unfinished packet, not yet dispatched) before ENet discards what it sends
    /// next (ENet's `maximumWaitingData`): default 64 KiB (Godot: 32 MiB), as Godot's
    /// WebSocket `inbound_buffer_size`. ENet checks it before adding a packet, so one packet
    /// of any size up to `max_packet_size` still passes, and a peer holds at most this plus
    /// one `max_packet_size`. ENet counts data bytes only, while each waiting packet costs
    /// it about 90 to 140 bytes of records: 65,536 one-byte packets held out of order hold
    /// 9.1 MiB (with 1 MiB, 229,360 of them held 26.6 MiB). Empty packets held out of order
    /// (behind a gap in a channel's reliable sequence) count nothing, up to 7 × 4,096 per
    /// channel (ENet's free reliable windows): 2.4 to 3.3 MiB per channel measured, which
    /// this does not bound (see `user_channels`).
    pub max_waiting_data: usize,
    /// Godot 4 (`EnetPeer`) only: the user channels a host opens besides the two system
    /// ones, as `channel_count` of Godot's `create_server` and `create_client`; 0 (the
    /// default, as Godot's) opens every channel ENet allows, 255. A peer has as many channels
    /// as the smaller count of its host and ours; each can hold about 3 MiB of empty
    /// out-of-order packets that `max_waiting_data` does not count (up to about 850 MiB a
    /// peer with 255 channels), so a game that uses few channels should set this (Godot 3's
    /// `Enet3Peer` always has 3).
    pub user_channels: usize,
    /// Bytes queued for one peer that it has not acknowledged yet (reliable packets until
    /// their acknowledgement, unreliable ones until sent), each packet counted with
    /// [`ENET_PACKET_OVERHEAD`] for ENet's bookkeeping: default 1 MiB (Godot has no bound;
    /// ENet keeps reliable packets until it times the peer out, 5 to 30 s). A peer that
    /// does not acknowledge until more is queued is dropped with
    /// `ProtocolError::OutboundFull`; relayed Godot 3 packets count too.
    pub outbound_buffer_size: usize,
    /// UDP datagrams read from the socket in one `service` call, all peers together:
    /// default 512. What is left waits in the kernel's socket buffer (which drops
    /// datagrams when full, as UDP does; ENet resends reliable data).
    pub datagrams_per_call: usize,
    /// Bytes of UDP datagrams read in one `service` call, all peers together: default
    /// 128 KiB (7.5 MiB/s at 60 calls a second). ENet turns each datagram into as many
    /// packets as it holds commands (up to 400 of a 10-byte command in 4 KiB), each held in
    /// ENet's records of about 200 bytes until taken, so this bounds what one call can make
    /// ENet allocate: about 2.5 MiB.
    pub inbound_bytes_per_call: usize,
    /// ENet events (packets, connections, disconnections) taken in one `service` call, all
    /// peers together, so that what one call adds to the session's event queue is bounded:
    /// default 8,192. ENet hands out the packets of different peers in turn; the rest
    /// stays in ENet until the next call, which reads no datagram before they are taken.
    pub packets_per_call: usize,
}

/// What each packet queued for an ENet peer counts toward
/// [`EnetLimits::outbound_buffer_size`] on top of its bytes: ENet's packet and outgoing
/// command records and ours, 256 bytes (an upper estimate), so that a flood of empty
/// packets is bounded too.
pub const ENET_PACKET_OVERHEAD: usize = 256;

impl Default for EnetLimits {
    fn default() -> Self {
        Self {
            max_packet_size: 1 << 20,
            max_waiting_data: 64 << 10,
            user_channels: 0,
            outbound_buffer_size: 1 << 20,
            datagrams_per_call: 512,
            inbound_bytes_per_call: 128 << 10,
            packets_per_call: 8_192,
        }
    }
}

impl EnetLimits {
    /// With another largest packet (at least 1 byte).
    #[must_use]
    pub fn with_max_packet_size(mut self, bytes: usize) -> Self {
        self.max_packet_size = bytes.max(1);
        self
    }

    /// With another bound on the received data waiting per peer (at least 1 byte).
    #[must_use]
    pub fn with_max_waiting_data(mut self, bytes: usize) -> Self {
        self.max_waiting_data = bytes.max(1);
        self
    }

    /// With another count of user channels (Godot 4; 0 = every channel ENet allows).
    #[must_use]
    pub fn with_user_channels(mut self, n: usize) -> Self {
        self.user_channels = n;
        self
    }

    /// With another outbound bound per peer (at least 1 byte).
    #[must_use]
    pub fn with_outbound_buffer_size(mut self, bytes: usize) -> Self {
        self.outbound_buffer_size = bytes.max(1);
        self
    }

    /// With another count of datagrams read per call (at least 1).
    #[must_use]
    pub fn with_datagrams_per_call(mut self, n: usize) -> Self {
        self.datagrams_per_call = n.max(1);
        self
    }

    /// With another bound on the bytes read per call (at least 1).
    #[must_use]
    pub fn with_inbound_bytes_per_call(mut self, bytes: usize) -> Self {
        self.inbound_bytes_per_call = bytes.max(1);
        self
    }

    /// With another count of events taken per call (at least 1).
    #[must_use]
    pub fn with_packets_per_call(mut self, n: usize) -> Self {
        self.packets_per_call = n.max(1);
        self
    }
}

/// How the session behaves, as SceneMultiplayer's properties.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// `server_relay` (default true): the server forwards client-to-client packets and tells
    /// clients who joins and leaves.
    pub relay: bool,
    /// Whether peers authenticate (`auth_callback` set): new peers wait in
    /// [`Event::PeerAuthenticating`] until both sides complete.
    pub auth: bool,
    /// `auth_timeout` in milliseconds (Godot's default 3000; 0 = none).
    pub auth_timeout_ms: u64,
    /// Memory bounds.
    pub limits: Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            relay: true,
            auth: false,
            auth_timeout_ms: 3000,
            limits: Limits::default(),
        }
    }
}

impl Settings {
    /// With authentication on or off.
    #[must_use]
    pub fn with_auth(mut self, on: bool) -> Self {
        self.auth = on;
        self
    }

    /// With another authentication timeout (milliseconds, 0 = none).
    #[must_use]
    pub fn with_auth_timeout_ms(mut self, ms: u64) -> Self {
        self.auth_timeout_ms = ms;
        self
    }

    /// With server relay on or off.
    #[must_use]
    pub fn with_relay(mut self, on: bool) -> Self {
        self.relay = on;
        self
    }

    /// With other limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

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
        let list = args::to_arguments(args)?;
        self.rpc_variants(to, path, method, &list)
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
        let encoded: Encoded = args::encode_variants(args)?;
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
