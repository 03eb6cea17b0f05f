//! The ENet transport, as Godot 4.6's `ENetMultiplayerPeer` uses ENet
//! (`modules/enet/enet_multiplayer_peer.cpp`): a client sends its peer id as the connect data
//! (the server refuses ids below 2 and ids in use); packets carry SceneMultiplayer's bytes as
//! they are; ENet channel 0 is `SYSCH_RELIABLE`, 1 `SYSCH_UNRELIABLE` (unreliable and
//! unreliable-ordered), and user channel `n` is ENet channel `1 + n` (`enet_multiplayer_peer.h`
//! in 4.x; Godot 3's `SYSCH_CONFIG` channel is gone, checked against the live engine). Unreliable packets have `UNRELIABLE_FRAGMENT`, unordered ones `UNSEQUENCED`.
//!
//! [`EnetPeer`] drives a [`Session`] over a non-blocking UDP socket: call
//! [`EnetPeer::service`] often (each frame, or every few milliseconds), then drain
//! [`EnetPeer::poll_event`].
//!
//! Every peer, and the work of one `service` call, is bounded by
//! [`EnetLimits`](crate::EnetLimits) (`Settings::limits.enet`): packets up to 1 MiB, 64 KiB
//! of received data waiting and 1 MiB queued out per peer; 512 datagrams, 128 KiB and
//! 8,192 events per call, by default. A peer that breaks a bound is dropped with an
//! [`Event::Error`] naming it, then its [`Event::PeerDisconnected`].

use std::net::SocketAddr;
use std::time::Instant;

use rusty_enet as enet;

use crate::enet_core::{HostEvent, Hosts, Sent};
use crate::{Event, Output, ProtocolError, Session, Settings, TransferMode};

/// `SYSCH_RELIABLE`.
const SYSCH_RELIABLE: u8 = 0;
/// `SYSCH_UNRELIABLE`.
const SYSCH_UNRELIABLE: u8 = 1;
/// `SYSCH_MAX`: user channel `n` is ENet channel `SYSCH_MAX + n - 1`.
const SYSCH_MAX: u8 = 2;
/// Godot connects with every channel ENet allows when no channel count is given.
const CHANNELS: usize = 255;

/// The ENet channels of a host: `SYSCH_MAX` plus `user_channels`, or every channel ENet allows
/// for 0 (`create_server`'s and `create_client`'s `channel_count`).
fn channels(limits: &crate::EnetLimits) -> usize {
    match limits.user_channels {
        0 => CHANNELS,
        n => n.saturating_add(usize::from(SYSCH_MAX)).min(CHANNELS),
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

/// A Godot-compatible ENet multiplayer peer: the server (peer 1) or a client.
pub struct EnetPeer {
    hosts: Hosts,
    session: Session,
    capture: Option<Vec<Captured>>,
}

/// A packet as it arrived, kept by [`EnetPeer::set_capture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// The sender's peer id.
    pub from: i32,
    /// The ENet channel.
    pub enet_channel: u8,
    /// The bytes.
    pub data: Vec<u8>,
}

impl std::fmt::Debug for EnetPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::debug_peer(f, "EnetPeer", &self.session, self.hosts.map.len())
    }
}

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
        Ok(Self {
            hosts: Hosts::server(
                addr,
                max_clients,
                channels(&settings.limits.enet),
                settings.limits.enet,
            )?,
            session: Session::server(settings),
            capture: None,
        })
    }

    /// A client that joins the server at `addr` (`create_client`) with a random id.
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
        Ok(Self {
            hosts: Hosts::client(
                addr,
                id,
                channels(&settings.limits.enet),
                settings.limits.enet,
            )?,
            session: Session::client(id, settings),
            capture: None,
        })
    }

    /// The protocol session, to declare RPC tables, call RPCs, authenticate, send bytes.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
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

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.session.poll_event()
    }

    /// Sends what the session queued, receives what arrived (within the call's budget of
    /// [`EnetLimits`](crate::EnetLimits); the rest waits for the next call), and sends the
    /// answers. What one peer does (a flood, a packet above the bounds, not acknowledging,
    /// an unreachable address) is that peer's [`Event::Error`] or disconnection, never this
    /// call's error.
    ///
    /// # Errors
    ///
    /// [`EnetError::Io`] when the socket itself fails (is gone).
    pub fn service(&mut self) -> Result<(), EnetError> {
        self.hosts.begin();
        self.flush_outputs();
        loop {
            let now = Instant::now();
            let Some(event) = self.hosts.next()? else {
                break;
            };
            match event {
                // A server's client passed ENetMultiplayerPeer's id check; a client's server.
                HostEvent::Joined(id) => self.session.connected(id, now),
                HostEvent::Disconnect(id) => self.session.disconnected(id),
                HostEvent::Receive {
                    from,
                    channel: channel_id,
                    data,
                } => {
                    let (channel, mode) = match channel_id {
                        c if c >= SYSCH_MAX => (c - SYSCH_MAX + 1, TransferMode::Reliable),
                        SYSCH_UNRELIABLE => (0, TransferMode::Unreliable),
                        _ => (0, TransferMode::Reliable),
                    };
                    self.session.receive(from, channel, mode, &data);
                    if let Some(capture) = self.capture.as_mut() {
                        capture.push(Captured {
                            from,
                            enet_channel: channel_id,
                            data,
                        });
                    }
                }
            }
            self.flush_outputs();
        }
        let now = Instant::now();
        if self.session.poll_timeout().is_some_and(|due| due <= now) {
            self.session.handle_timeout(now);
        }
        self.flush_outputs();
        self.hosts.host.flush();
        Ok(())
    }

    fn flush_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            match output {
                Output::Packet {
                    to,
                    channel,
                    mode,
                    data,
                } => {
                    let enet_channel = if channel > 0 {
                        SYSCH_MAX.saturating_add(channel - 1)
                    } else if mode == TransferMode::Reliable {
                        SYSCH_RELIABLE
                    } else {
                        SYSCH_UNRELIABLE
                    };
                    let kind = match mode {
                        TransferMode::Unreliable => {
                            enet::PacketKind::AlwaysUnreliable { sequenced: false }
                        }
                        TransferMode::UnreliableOrdered => {
                            enet::PacketKind::AlwaysUnreliable { sequenced: true }
                        }
                        _ => enet::PacketKind::Reliable,
                    };
                    match self.hosts.send(to, enet_channel, data, kind) {
                        Sent::Queued | Sent::NoPeer => {}
                        Sent::TooLarge { size, limit } => self.session.report(
                            to,
                            ProtocolError::SendTooLarge {
                                peer: to,
                                size,
                                limit,
                            },
                        ),
                        Sent::Refused => self
                            .session
                            .report(to, ProtocolError::Channel { channel, mode }),
                        Sent::Dropped { limit } => {
                            self.session
                                .report(to, ProtocolError::OutboundFull { peer: to, limit });
                            self.session.disconnected(to);
                        }
                    }
                }
                Output::Disconnect(id) => {
                    // Forget it now: whatever it still sends is not for the session.
                    self.hosts.forget_and_disconnect(id);
                }
            }
        }
    }

    /// Disconnects every peer now and sends the notices.
    pub fn close(&mut self) {
        self.hosts.close();
    }
}
