//! The ENet transport, as Godot 4.6's `ENetMultiplayerPeer` uses ENet
//! (`modules/enet/enet_multiplayer_peer.cpp`): a client sends its peer id as the connect data
//! (the server refuses ids below 2 and ids in use); packets carry SceneMultiplayer's bytes as
//! they are; ENet channel 0 is `SYSCH_RELIABLE`, 1 `SYSCH_UNRELIABLE` (unreliable and
//! unreliable-ordered), and user channel `n` is ENet channel `1 + n` (`enet_multiplayer_peer.h`
//! in 4.x; Godot 3's `SYSCH_CONFIG` channel is gone, checked against the live engine). Unreliable packets have `UNRELIABLE_FRAGMENT`, unordered ones `UNSEQUENCED`.
//!
//! [`EnetTransport`] is the [`Transport`] (a server's socket and clients, or a client's
//! connection): give it to a [`Host`](crate::transport::Host), beside other transports.
//! [`EnetPeer`] is the one-transport convenience: a [`Session`] over one `EnetTransport`; call
//! [`EnetPeer::service`] often (each frame, or every few milliseconds), then drain
//! [`EnetPeer::poll_event`]. Nothing blocks: a client's connection completes (or fails, as
//! an [`Event::Error`] for peer 1 after ENet's timeout) in `service`. Dropping a transport
//! disconnects its peers at once, as [`close`](EnetTransport::close) does, so clients do not
//! wait for ENet's timeout (about 9.5 s in Godot's client).
//!
//! Every peer, and the work of one `service` call, is bounded by
//! [`EnetLimits`](crate::EnetLimits) (`Settings::limits.enet`): packets up to 1 MiB, 64 KiB
//! of received data waiting and 1 MiB queued out per peer; 512 datagrams, 128 KiB and
//! 8,192 events per call, by default. A peer that breaks a bound is dropped with an
//! [`Event::Error`] naming it, then its [`Event::PeerDisconnected`]. The socket's kernel
//! buffers are 4 MiB (`EnetLimits::socket_buffer`), so that a join burst's datagrams wait
//! there instead of being dropped by a full buffer.
//!
//! One ENet host takes at most 4,095 peers (`max_clients`); for more, give a
//! [`Host`](crate::transport::Host) several `EnetTransport`s on different ports (the crate
//! README, "Join bursts and thousands of players").
//!
//! [`Event::Error`]: crate::Event::Error
//! [`Event::PeerDisconnected`]: crate::Event::PeerDisconnected

use std::net::SocketAddr;

use crate::enet_core::{HostEvent, Hosts, Sent, packet_kind};
use crate::transport::{Events, Peer, Transport, TransportEvent, enet_channel, from_enet_channel};
use crate::{Limits, ProtocolError, Session, Settings, TransferMode};

/// Godot connects with every channel ENet allows when no channel count is given.
const CHANNELS: usize = 255;

/// The ENet channels of a host: `SYSCH_MAX` plus `user_channels`, or every channel ENet allows
/// for 0 (`create_server`'s and `create_client`'s `channel_count`).
fn channels(limits: &crate::EnetLimits) -> usize {
    match limits.user_channels {
        0 => CHANNELS,
        n => n
            .saturating_add(usize::from(crate::transport::ENET_SYSCH_MAX))
            .min(CHANNELS),
    }
}

/// A transport error (socket or ENet).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EnetError {
    /// The socket failed.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// ENet refused the host settings or has no free peer slot.
    #[error("ENet: {0}")]
    Enet(String),
}

/// A packet as it arrived, kept by [`EnetTransport::set_capture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// The sender's peer id.
    pub from: i32,
    /// The ENet channel.
    pub enet_channel: u8,
    /// The bytes.
    pub data: Vec<u8>,
}

/// Godot 4's ENet transport (`ENetMultiplayerPeer`): a server's UDP socket and its clients, or
/// a client's connection to its server, bounded by [`EnetLimits`](crate::EnetLimits).
pub struct EnetTransport {
    hosts: Hosts,
    id: i32,
    events: Events,
    capture: Option<Vec<Captured>>,
    /// A client whose server has not answered yet.
    connecting: bool,
}

impl std::fmt::Debug for EnetTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnetTransport")
            .field("id", &self.id)
            .field("peers", &self.hosts.map.len())
            .finish()
    }
}

impl EnetTransport {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients.
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(
        addr: SocketAddr,
        max_clients: usize,
        limits: &Limits,
    ) -> Result<Self, EnetError> {
        let hosts = Hosts::server(addr, max_clients, channels(&limits.enet), limits.enet)?;
        Ok(Self::with(hosts, 1))
    }

    /// A client that joins the server at `addr` (`create_client`) as peer `id`
    /// (2..=i32::MAX; [`generate_unique_id`](crate::generate_unique_id) picks one as Godot
    /// does). Returns at once: the connection completes in [`service`](Transport::service)
    /// ([`TransportEvent::Connected`] for peer 1), or fails there after ENet's timeout
    /// ([`TransportEvent::Error`] then [`TransportEvent::Disconnected`] for peer 1).
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client(addr: SocketAddr, id: i32, limits: &Limits) -> Result<Self, EnetError> {
        let hosts = Hosts::client(addr, id, channels(&limits.enet), limits.enet)?;
        let mut transport = Self::with(hosts, id);
        transport.connecting = true;
        Ok(transport)
    }

    fn with(hosts: Hosts, id: i32) -> Self {
        Self {
            hosts,
            id,
            events: Events::default(),
            capture: None,
            connecting: false,
        }
    }

    /// The bound address.
    ///
    /// # Errors
    ///
    /// The socket's error.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.hosts.local_addr()
    }

    /// Keeps (or stops keeping) a copy of every received packet, for tests and debugging.
    pub fn set_capture(&mut self, on: bool) {
        self.capture = on.then(Vec::new);
    }

    /// The packets kept since the last call (see [`set_capture`](Self::set_capture)).
    pub fn take_captured(&mut self) -> Vec<Captured> {
        self.capture
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Disconnects every peer now and sends the notices (as dropping it does).
    pub fn close(&mut self) {
        self.hosts.close();
    }
}

impl Transport for EnetTransport {
    fn unique_id(&self) -> Option<i32> {
        Some(self.id)
    }

    /// Receives what arrived, within the call's budget of [`EnetLimits`](crate::EnetLimits)
    /// (the rest waits for the next call). What one peer does (a flood, a packet above the
    /// bounds, not acknowledging, an unreachable address) is that peer's event.
    fn service(&mut self) -> std::io::Result<()> {
        self.hosts.begin();
        while let Some(event) = self.hosts.next()? {
            match event {
                // A server's client passed ENetMultiplayerPeer's id check; a client's server.
                HostEvent::Joined(id) => {
                    self.connecting = false;
                    self.events.push(TransportEvent::Connected(id));
                }
                HostEvent::Disconnect(id) => {
                    if std::mem::take(&mut self.connecting) {
                        self.events.error(
                            id,
                            ProtocolError::State {
                                peer: id,
                                detail: "did not answer the connection (ENet timed out)",
                            },
                        );
                    }
                    self.events.push(TransportEvent::Disconnected(id));
                }
                HostEvent::Receive {
                    from,
                    channel: channel_id,
                    data,
                } => {
                    let (channel, mode) = from_enet_channel(channel_id);
                    if let Some(capture) = self.capture.as_mut() {
                        capture.push(Captured {
                            from,
                            enet_channel: channel_id,
                            data: data.clone(),
                        });
                    }
                    self.events.push(TransportEvent::Packet {
                        from,
                        channel,
                        mode,
                        data,
                    });
                }
            }
        }
        Ok(())
    }

    fn poll_event(&mut self) -> Option<TransportEvent> {
        self.events.pop()
    }

    fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        let kind = packet_kind(mode);
        let error = match self.hosts.send(to, enet_channel(channel, mode), data, kind) {
            Sent::Queued | Sent::NoPeer => return,
            Sent::TooLarge { size, limit } => ProtocolError::SendTooLarge {
                peer: to,
                size,
                limit,
            },
            Sent::Refused => ProtocolError::Channel { channel, mode },
            Sent::Dropped { limit } => {
                self.events
                    .error(to, ProtocolError::OutboundFull { peer: to, limit });
                self.events.push(TransportEvent::Disconnected(to));
                return;
            }
        };
        self.events.error(to, error);
    }

    fn disconnect(&mut self, peer: i32) {
        self.events.forget(peer);
        self.hosts.forget_and_disconnect(peer);
    }

    fn flush(&mut self) {
        self.hosts.host.flush();
    }

    fn congested(&self, peer: i32) -> bool {
        // 16 KiB by default: about 60 announcements (6 bytes and ENET_PACKET_OVERHEAD each)
        // in flight, so that what ENet walks on every pass (each peer's sent and queued
        // commands) stays short, and so does what a client has to take per round trip.
        self.hosts.queued(peer) > self.hosts.outbound_limit() / 64
    }

    fn close(&mut self) {
        self.hosts.close();
    }
}

/// A Godot-compatible ENet multiplayer peer, the server (peer 1) or a client: a [`Session`]
/// over one [`EnetTransport`] (a [`Host`](crate::transport::Host) with one transport, kept
/// typed). Its session, transport, `service` and the rest are [`Peer`]'s.
pub type EnetPeer = Peer<EnetTransport>;

impl EnetPeer {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients.
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(
        addr: SocketAddr,
        max_clients: usize,
        settings: Settings,
    ) -> Result<Self, EnetError> {
        let transport = EnetTransport::server(addr, max_clients, &settings.limits)?;
        Ok(Self::new(transport, Session::server(settings)))
    }

    /// A client that joins the server at `addr` (`create_client`) with a random id; returns
    /// at once, the connection completes (or fails) in [`service`](Peer::service).
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client(addr: SocketAddr, settings: Settings) -> Result<Self, EnetError> {
        Self::client_with_id(addr, crate::generate_unique_id(), settings)
    }

    /// A client with a chosen id (2..=i32::MAX).
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client_with_id(
        addr: SocketAddr,
        id: i32,
        settings: Settings,
    ) -> Result<Self, EnetError> {
        let transport = EnetTransport::client(addr, id, &settings.limits)?;
        Ok(Self::new(transport, Session::client(id, settings)))
    }

    /// Keeps (or stops keeping) a copy of every received packet, for tests and debugging.
    pub fn set_capture(&mut self, on: bool) {
        self.transport().set_capture(on);
    }

    /// The packets kept since the last call (see [`set_capture`](Self::set_capture)).
    pub fn take_captured(&mut self) -> Vec<Captured> {
        self.transport().take_captured()
    }
}

impl crate::transport::SocketTransport for EnetTransport {
    type Error = EnetError;
    fn address(&self) -> std::io::Result<SocketAddr> {
        self.hosts.local_addr()
    }
}
