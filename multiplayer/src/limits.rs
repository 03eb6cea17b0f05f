//! The settings and bounds of a session and its transports: [`Settings`] (SceneMultiplayer's
//! properties), [`Limits`] (what a peer can make the session hold), [`WsLimits`] and
//! [`EnetLimits`] (what a connection can make a transport hold or do).

/// The builder methods of a settings struct, each with its doc: `with_<field>(value)` sets
/// `field`, raised to `at least` where one is given (a bound of 0 would refuse everything).
macro_rules! builders {
    ($ty:ident { $($(#[$doc:meta])* $name:ident($arg:ident: $t:ty) => $field:ident $(, at least $min:expr)?;)* }) => {
        impl $ty {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $name(mut self, $arg: $t) -> Self {
                    self.$field = $arg $(.max($min))?;
                    self
                }
            )*
        }
    };
}

/// Limits that bound what a peer can make the session hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Path-cache ids one peer may announce (Godot has no limit). Each costs one map entry
    /// (about 16 bytes). Default 1024.
    pub max_cached_paths: usize,
    /// The bounds of the WebSocket transports (Godot 4's `WsTransport`, under `WsPeer`, and
    /// Godot 3's `Ws3Peer`).
    pub websocket: WsLimits,
    /// The bounds of the ENet transports (Godot 4's `EnetTransport`, under `EnetPeer`, and
    /// Godot 3's `Enet3Peer`).
    pub enet: EnetLimits,
    /// The bounds of [`Rooms`](crate::rooms::Rooms): rooms, the queues between the transport
    /// thread and the rooms' threads, per room and per peer.
    pub rooms: crate::rooms::RoomsLimits,
    /// Spawned nodes an interest rule may give one peer at once
    /// ([`replication::interest`](crate::replication::interest); Godot has no interest
    /// management): default 1,024. Under a radius rule a peer sees the nearest this many, under
    /// the other rules those of the lowest node ids. It bounds what interest makes the session
    /// hold and send for a peer: its interest set (8 bytes a node) and, through them, its
    /// spawned nodes, visible synchronizers and delta times (plus its focus node and the nodes
    /// whose synchronizers it owns, which it always sees).
    pub max_interest_per_peer: usize,
    /// The bounds of a bot swarm (`bots::Swarm`): its bots are clients, each with these
    /// `Limits` for its session and connection.
    pub bots: BotLimits,
    /// `SYS_ADD_PEER` notices (a server with relay on telling its clients of each other,
    /// [`Announce::All`](crate::Announce::All)) sent to one client in one round (one
    /// `service` call): default 256. A join burst is announced over as many rounds as it
    /// needs, each client told of the others in admission order (Godot sends all of them at
    /// once: N² packets for N joins). Joins within the budgets are announced at admission,
    /// as Godot does. Nothing waits in a queue: each client keeps a cursor (about 64 bytes
    /// per client, whatever the burst). At least 1.
    pub announce_per_round: usize,
    /// `SYS_ADD_PEER` notices sent to all clients together in one round: default 16,384
    /// (each an ENet packet of 6 bytes, charged [`ENET_PACKET_OVERHEAD`] against its
    /// client's `outbound_buffer_size` until acknowledged: about 4 MiB of ENet records at
    /// most per round). At least 1.
    pub announce_per_round_total: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_cached_paths: 1024,
            websocket: WsLimits::default(),
            enet: EnetLimits::default(),
            rooms: crate::rooms::RoomsLimits::default(),
            max_interest_per_peer: 1_024,
            bots: BotLimits::default(),
            announce_per_round: 256,
            announce_per_round_total: 16_384,
        }
    }
}

builders! {
    Limits {
        /// With another path-cache limit per peer.
        with_max_cached_paths(n: usize) => max_cached_paths;

        /// With other WebSocket bounds.
        with_websocket(websocket: WsLimits) => websocket;

        /// With other ENet bounds.
        with_enet(enet: EnetLimits) => enet;

        /// With other bounds of the rooms.
        with_rooms(rooms: crate::rooms::RoomsLimits) => rooms;
        /// With another bound on the nodes an interest rule gives one peer.
        with_max_interest_per_peer(n: usize) => max_interest_per_peer;
        /// With other bot-swarm bounds.
        with_bots(bots: BotLimits) => bots;
        /// With another count of announcements per client and round (at least 1).
        with_announce_per_round(n: usize) => announce_per_round, at least 1;

        /// With another count of announcements per round, all clients together (at least 1).
        with_announce_per_round_total(n: usize) => announce_per_round_total, at least 1;
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
    /// Handshakes in progress at once (Godot has none): default 128. When all are taken, a new
    /// connection closes the oldest handshake in progress (the one nearest its timeout) and
    /// takes its place, so that connections which never finish their handshake cannot keep
    /// every new client out: they would have to be opened faster than a client completes its
    /// handshake.
    pub max_pending: usize,
    /// Handshakes in progress from one IP address (Godot has none): default 8; a further
    /// connection from that address is closed at once, so that one host cannot hold the
    /// handshake slots of everyone else.
    pub max_pending_per_address: usize,
    /// Milliseconds a handshake may take: Godot's `handshake_timeout`, default 3,000.
    pub handshake_timeout_ms: u64,
    /// Milliseconds a connection may stay silent (no complete frame) before it is dropped with
    /// `ProtocolError::TimedOut`, or keep a data message unfinished (whatever else it sends
    /// meanwhile) before it is dropped with `ProtocolError::Unfinished`: default 10,000 (ENet
    /// drops an unresponsive peer after 5 to 30 s); 0 = never. A peer silent for half of it
    /// is sent a ping, which every WebSocket client (browsers, Godot) answers by itself.
    pub idle_timeout_ms: u64,
    /// `wss://` only (feature `tls`): TLS handshakes with new bytes to process that one
    /// `service` call advances, all connections together (Godot has no such bound): default
    /// 16. Each costs the server a key exchange and a signature: 98 µs of CPU with an ECDSA
    /// P-256 certificate (`benches/wss.rs`, more with an RSA one), so a call spends about
    /// 1.6 ms on them at most whatever the number of ClientHellos arriving; the others wait,
    /// oldest first, within their `handshake_timeout_ms`.
    pub tls_handshakes_per_call: usize,
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
            max_pending_per_address: 8,
            handshake_timeout_ms: 3_000,
            idle_timeout_ms: 10_000,
            tls_handshakes_per_call: 16,
        }
    }
}

builders! {
    WsLimits {
        /// With another largest inbound message and read budget per call (at least 1 byte).
        with_inbound_buffer_size(bytes: usize) => inbound_buffer_size, at least 1;

        /// With another outbound queue per peer (at least 1 byte).
        with_outbound_buffer_size(bytes: usize) => outbound_buffer_size, at least 1;

        /// With another count of messages read per peer and call (at least 1).
        with_max_queued_packets(n: usize) => max_queued_packets, at least 1;

        /// With another bound on the bytes read from all peers in one call (at least 1).
        with_inbound_bytes_per_call(bytes: usize) => inbound_bytes_per_call, at least 1;

        /// With another bound on the messages read from all peers in one call (at least 1).
        with_packets_per_call(n: usize) => packets_per_call, at least 1;

        /// With another connection cap.
        with_max_peers(n: usize) => max_peers;

        /// With another cap on handshakes in progress.
        with_max_pending(n: usize) => max_pending;

        /// With another cap on handshakes in progress from one IP address.
        with_max_pending_per_address(n: usize) => max_pending_per_address;

        /// With another handshake timeout (milliseconds, at least 1).
        with_handshake_timeout_ms(ms: u64) => handshake_timeout_ms, at least 1;

        /// With another idle timeout (milliseconds, 0 = never).
        with_idle_timeout_ms(ms: u64) => idle_timeout_ms;

        /// With another count of TLS handshakes advanced per call (at least 1).
        with_tls_handshakes_per_call(n: usize) => tls_handshakes_per_call, at least 1;
    }
}

/// What one ENet peer may make the process hold or do, and the work of one `service` call:
/// the bounds of `EnetPeer` (Godot 4) and `Enet3Peer` (Godot 3), server and client.
///
/// Godot's `ENetConnection` (4.x) and `NetworkedMultiplayerENet` (3.x) keep ENet's own
/// defaults: packets up to 32 MiB, 32 MiB of received data waiting per peer, no bound on what
/// is queued for a peer, and a poll that services until ENet has no event left. Ours are
/// lower. What one peer can make the process hold, by default (measured in
/// `tests/heap/enet.rs`): 64 KiB of waiting data plus one packet of 1 MiB; ENet's records of
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
    /// The kernel's receive and send buffers of the host's UDP socket (`SO_RCVBUF`,
    /// `SO_SNDBUF`), in bytes: default 4 MiB (ENet's host asks for 256 KiB, Linux's
    /// default is 208 KiB; Linux caps it at `net.core.rmem_max` / `wmem_max`). What arrives
    /// while the server is busy waits there; Linux counts each datagram with its
    /// bookkeeping (about 1 KiB for a small one), so 208 KiB hold about 200 of them, fewer
    /// than the acknowledgements of a join burst's second (a full buffer drops datagrams,
    /// and clients whose connects and acknowledgements are lost time out).
    pub socket_buffer: usize,
    /// Passes of ENet's host service (send, read, send) in one `service` call: default 16.
    /// Each pass walks every peer and every command it has queued or in flight, and ENet
    /// ends a pass's reads at each connection or disconnection, so a burst of N joins read
    /// pass by pass cost N full walks (a 2,000-client burst made one `service` call last
    /// seconds). Past it, the call takes only the packets ENet has already read; the next
    /// call goes on reading. At least 1.
    pub host_passes_per_call: usize,
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
            socket_buffer: 4 << 20,
            host_passes_per_call: 16,
        }
    }
}

builders! {
    EnetLimits {
        /// With another largest packet (at least 1 byte).
        with_max_packet_size(bytes: usize) => max_packet_size, at least 1;

        /// With another bound on the received data waiting per peer (at least 1 byte).
        with_max_waiting_data(bytes: usize) => max_waiting_data, at least 1;

        /// With another count of user channels (Godot 4; 0 = every channel ENet allows).
        with_user_channels(n: usize) => user_channels;

        /// With another outbound bound per peer (at least 1 byte).
        with_outbound_buffer_size(bytes: usize) => outbound_buffer_size, at least 1;

        /// With another count of datagrams read per call (at least 1).
        with_datagrams_per_call(n: usize) => datagrams_per_call, at least 1;

        /// With another bound on the bytes read per call (at least 1).
        with_inbound_bytes_per_call(bytes: usize) => inbound_bytes_per_call, at least 1;

        /// With another count of events taken per call (at least 1).
        with_packets_per_call(n: usize) => packets_per_call, at least 1;

        /// With other kernel socket buffers (bytes; 0 keeps the system's default).
        with_socket_buffer(bytes: usize) => socket_buffer;

        /// With another count of ENet host passes per call (at least 1).
        with_host_passes_per_call(n: usize) => host_passes_per_call, at least 1;
    }
}

/// What a bot swarm (`bots::Swarm`) may hold besides its bots' sessions and connections
/// (which each have the [`Limits`] of a client): bounded per bot and per swarm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BotLimits {
    /// ENet bots sharing one UDP socket (one ENet host with that many client peers; a server
    /// sees each as its own peer): default 64, at most 4,095 (ENet's peer ids). 4,000 bots
    /// take 63 file descriptors instead of 4,000.
    pub bots_per_socket: usize,
    /// Timed calls per bot awaiting their answer (the round-trip probes of
    /// `Bot::call_timed`): default 64; a further call forgets the oldest, counted in
    /// `Stats::unanswered`. 16 bytes each.
    pub max_in_flight: usize,
    /// Swarm events (`SwarmEvent`: joins, failures, departures, per-bot errors) queued until
    /// `Swarm::poll_event` takes them: default 65,536 (about 100 bytes each); the rest are
    /// counted in `Stats::events_dropped`, never queued.
    pub max_events: usize,
}

impl Default for BotLimits {
    fn default() -> Self {
        Self {
            bots_per_socket: 64,
            max_in_flight: 64,
            max_events: 65_536,
        }
    }
}

builders! {
    BotLimits {
        /// With another count of ENet bots per UDP socket (1 to 4,095).
        with_bots_per_socket(n: usize) => bots_per_socket, at least 1;

        /// With another count of timed calls remembered per bot (at least 1).
        with_max_in_flight(n: usize) => max_in_flight, at least 1;

        /// With another bound on the queued swarm events.
        with_max_events(n: usize) => max_events;
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
    /// [`Event::PeerAuthenticating`](crate::Event::PeerAuthenticating) until both sides complete.
    pub auth: bool,
    /// `auth_timeout` in milliseconds (Godot's default 3000; 0 = none).
    pub auth_timeout_ms: u64,
    /// Memory bounds.
    pub limits: Limits,
    /// Whom a server with relay on tells its clients of: [`Announce::All`] (Godot's
    /// behaviour, the default) or [`Announce::None`].
    ///
    /// [`Announce::All`]: crate::Announce::All
    /// [`Announce::None`]: crate::Announce::None
    pub announce: crate::Announce,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            relay: true,
            auth: false,
            auth_timeout_ms: 3000,
            limits: Limits::default(),
            announce: crate::Announce::All,
        }
    }
}

impl Settings {
    /// A server-authoritative game: relay off, so clients reach only the server and learn of no
    /// other client (`server_relay = false` on the Godot side too). Same as
    /// `Settings::default().with_relay(false)`.
    #[must_use]
    pub fn authoritative() -> Self {
        Self::default().with_relay(false)
    }
}

builders! {
    Settings {
        /// With authentication on or off.
        with_auth(on: bool) => auth;

        /// With another authentication timeout (milliseconds, 0 = none).
        with_auth_timeout_ms(ms: u64) => auth_timeout_ms;

        /// With server relay on or off.
        with_relay(on: bool) => relay;

        /// With other limits.
        with_limits(limits: Limits) => limits;

        /// With another announcement policy (relay on).
        with_announce(announce: crate::Announce) => announce;
    }
}

#[cfg(test)]
mod tests {
    use super::{EnetLimits, Limits, Settings, WsLimits};

    /// Each builder sets its own field: a bound that would refuse everything at 0 is raised
    /// to 1, a cap or a timeout where 0 means "none" or "every" keeps 0.
    #[test]
    fn builders_set_their_field_and_raise_zero_bounds_to_one() {
        let ws = WsLimits::default()
            .with_inbound_buffer_size(0)
            .with_outbound_buffer_size(0)
            .with_max_queued_packets(0)
            .with_inbound_bytes_per_call(0)
            .with_packets_per_call(0)
            .with_max_peers(0)
            .with_max_pending(0)
            .with_max_pending_per_address(0)
            .with_handshake_timeout_ms(0)
            .with_idle_timeout_ms(0);
        assert_eq!(
            (
                ws.inbound_buffer_size,
                ws.outbound_buffer_size,
                ws.max_queued_packets
            ),
            (1, 1, 1)
        );
        assert_eq!((ws.inbound_bytes_per_call, ws.packets_per_call), (1, 1));
        assert_eq!(
            (ws.max_peers, ws.max_pending, ws.max_pending_per_address),
            (0, 0, 0)
        );
        assert_eq!((ws.handshake_timeout_ms, ws.idle_timeout_ms), (1, 0));
        let enet = EnetLimits::default()
            .with_max_packet_size(0)
            .with_max_waiting_data(0)
            .with_user_channels(0)
            .with_outbound_buffer_size(0)
            .with_datagrams_per_call(0)
            .with_inbound_bytes_per_call(0)
            .with_packets_per_call(0);
        assert_eq!(
            (
                enet.max_packet_size,
                enet.max_waiting_data,
                enet.user_channels
            ),
            (1, 1, 0)
        );
        assert_eq!(
            (
                enet.outbound_buffer_size,
                enet.datagrams_per_call,
                enet.inbound_bytes_per_call,
                enet.packets_per_call
            ),
            (1, 1, 1, 1)
        );
        let enet = EnetLimits::default()
            .with_max_packet_size(5_000)
            .with_user_channels(2);
        assert_eq!((enet.max_packet_size, enet.user_channels), (5_000, 2));
        let bursts = EnetLimits::default()
            .with_socket_buffer(0)
            .with_host_passes_per_call(0);
        assert_eq!((bursts.socket_buffer, bursts.host_passes_per_call), (0, 1));
        let announce = Limits::default()
            .with_announce_per_round(0)
            .with_announce_per_round_total(0);
        assert_eq!(
            (
                announce.announce_per_round,
                announce.announce_per_round_total
            ),
            (1, 1)
        );
        let limits = Limits::default()
            .with_max_cached_paths(0)
            .with_websocket(ws)
            .with_enet(enet);
        assert_eq!(limits.max_cached_paths, 0);
        assert_eq!((limits.websocket, limits.enet), (ws, enet));
        let settings = Settings::default()
            .with_auth(true)
            .with_auth_timeout_ms(0)
            .with_relay(false)
            .with_limits(limits)
            .with_announce(crate::Announce::None);
        assert!(settings.auth && !settings.relay);
        assert_eq!(settings.announce, crate::Announce::None);
        assert_eq!((settings.auth_timeout_ms, settings.limits), (0, limits));
    }
}
