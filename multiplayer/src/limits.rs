//! The settings and bounds of a session and its transports: [`Settings`] (SceneMultiplayer's
//! properties), [`Limits`] (what a peer can make the session hold), [`WsLimits`] and
//! [`EnetLimits`] (what a connection can make a transport hold or do).

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

    /// With another cap on handshakes in progress from one IP address.
    #[must_use]
    pub fn with_max_pending_per_address(mut self, n: usize) -> Self {
        self.max_pending_per_address = n;
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
    /// [`Event::PeerAuthenticating`](crate::Event::PeerAuthenticating) until both sides complete.
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
    /// A server-authoritative game: relay off, so clients reach only the server and learn of no
    /// other client (`server_relay = false` on the Godot side too). Same as
    /// `Settings::default().with_relay(false)`.
    #[must_use]
    pub fn authoritative() -> Self {
        Self::default().with_relay(false)
    }

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
