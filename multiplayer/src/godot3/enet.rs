//! The ENet transport as Godot 3.2.3's `NetworkedMultiplayerENet` uses ENet
//! (`modules/enet/networked_multiplayer_enet.cpp`): three channels (`SYSCH_CONFIG` 0 for the
//! server's system messages, `SYSCH_RELIABLE` 1, `SYSCH_UNRELIABLE` 2); every data packet
//! starts with the [`EnetHeader`] (source, target); a client sends its peer id as the connect
//! data; the server tells clients who else is connected (`SYSMSG_ADD_PEER`,
//! `SYSMSG_REMOVE_PEER`) and relays packets whose target is another client, everyone (0) or
//! everyone but one (`-n`), checking that the source is the sender.
//!
//! [`Enet3Transport`] is the [`Transport`]: it frames, relays (the policy of
//! [`Relay`]) and reports the peers as `NetworkedMultiplayerENet` does (a client learns of the
//! other clients from the server's system messages); give it to a
//! [`Host`](crate::transport::Host) of a Godot 3 [`Session`]. [`Enet3Peer`] is the
//! one-transport convenience: call [`Enet3Peer::service`] often, then drain
//! [`Enet3Peer::poll_event`]. Dropping a transport disconnects its peers at once.
//!
//! Every peer, and the work of one `service` call, is bounded by
//! [`EnetLimits`](crate::EnetLimits) (`Limits::enet`), as for Godot 4's `EnetPeer`; relayed
//! packets count toward their receiver's outbound bound. A peer that breaks a bound is
//! dropped with an [`Event::Error`] naming it, then its [`Event::PeerDisconnected`] (and the
//! other clients are told, `SYSMSG_REMOVE_PEER`).
//!
//! [`Event::Error`]: crate::Event::Error
//! [`Event::PeerDisconnected`]: crate::Event::PeerDisconnected

use std::net::SocketAddr;

use rusty_enet as enet;

use super::Session;
use super::relay::{Announce, Link, Relay};
use super::wire::{self, EnetHeader, SysMsg};
use crate::enet::EnetError;
use crate::enet_core::{HostEvent, Hosts, Sent};
use crate::transport::{Events, Peer, Transport, TransportEvent};
use crate::{Limits, ProtocolError, TransferMode};

/// Godot 3.2.3's ENet transport (`NetworkedMultiplayerENet`): a server's socket and clients
/// (relaying between them), or a client's connection, bounded by
/// [`EnetLimits`](crate::EnetLimits). Its packets' `to` is the `MultiplayerAPI` target: a
/// peer, 0 for everyone, `-n` for everyone but `n`.
pub struct Enet3Transport {
    hosts: Hosts,
    id: i32,
    relay: Relay,
    events: Events,
}

impl std::fmt::Debug for Enet3Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Enet3Transport")
            .field("id", &self.id)
            .field("peers", &self.hosts.map.len())
            .field("relay", &self.relay)
            .finish()
    }
}

impl Enet3Transport {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients, relaying
    /// client-to-client packets (`server_relay`, on by default in Godot 3).
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(
        addr: SocketAddr,
        max_clients: usize,
        limits: &Limits,
    ) -> Result<Self, EnetError> {
        let hosts = Hosts::server(addr, max_clients, usize::from(wire::SYSCH_MAX), limits.enet)?;
        Ok(Self::with(hosts, 1))
    }

    /// A client that joins the Godot 3 server at `addr` (`create_client`) as peer `id`
    /// (2..=i32::MAX); returns at once, the connection completes (or fails) in `service`.
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client(addr: SocketAddr, id: i32, limits: &Limits) -> Result<Self, EnetError> {
        let hosts = Hosts::client(addr, id, usize::from(wire::SYSCH_MAX), limits.enet)?;
        Ok(Self::with(hosts, id))
    }

    fn with(hosts: Hosts, id: i32) -> Self {
        Self {
            hosts,
            id,
            relay: Relay::new(Link::Enet),
            events: Events::default(),
        }
    }

    /// Turns the server's relay off (`server_relay = false`): clients then only reach the
    /// server and learn of no other client.
    pub fn set_relay(&mut self, on: bool) {
        self.relay.set_enabled(on);
    }

    /// The bound address.
    ///
    /// # Errors
    ///
    /// The socket's error.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.hosts.local_addr()
    }

    /// Disconnects every peer now and sends the notices (as dropping it does).
    pub fn close(&mut self) {
        self.hosts.close();
    }

    fn send_raw(&mut self, to: i32, channel: u8, data: Vec<u8>, unreliable: bool) {
        let kind = if unreliable {
            enet::PacketKind::Unreliable { sequenced: false }
        } else {
            enet::PacketKind::Reliable
        };
        match self.hosts.send(to, channel, data, kind) {
            Sent::Queued | Sent::NoPeer | Sent::Refused => {}
            Sent::TooLarge { size, limit } => self.events.error(
                to,
                ProtocolError::SendTooLarge {
                    peer: to,
                    size,
                    limit,
                },
            ),
            Sent::Dropped { limit } => {
                self.events
                    .error(to, ProtocolError::OutboundFull { peer: to, limit });
                self.gone(to);
            }
        }
    }

    /// Peer `id` is gone: the server tells the other clients (relay on).
    fn gone(&mut self, id: i32) {
        if self.hosts.server {
            let announcements = self.relay.left(id, &self.hosts.map.peer_ids());
            self.announce(announcements);
        }
        self.events.push(TransportEvent::Disconnected(id));
    }

    /// Sends the relay's announcements as system messages.
    fn announce(&mut self, announcements: Vec<Announce>) {
        for announcement in announcements {
            let (to, msg) = match announcement {
                Announce::Add { to, peer } => (to, SysMsg::AddPeer(peer)),
                Announce::Remove { to, peer } => (to, SysMsg::RemovePeer(peer)),
            };
            self.send_raw(to, wire::SYSCH_CONFIG, msg.to_bytes().to_vec(), false);
        }
    }

    fn receive(&mut self, id: i32, channel: u8, data: &[u8]) {
        if channel == wire::SYSCH_CONFIG {
            // Only the server sends system messages.
            if self.hosts.server {
                return self.events.error(
                    id,
                    ProtocolError::State {
                        peer: id,
                        detail: "sent a system message, which only the server sends",
                    },
                );
            }
            match SysMsg::parse(data) {
                Ok(SysMsg::AddPeer(p)) => self.events.push(TransportEvent::Connected(p)),
                Ok(SysMsg::RemovePeer(p)) => {
                    self.events.push(TransportEvent::Disconnected(p));
                }
                Err(e) => self.events.error(id, e),
            }
            return;
        }
        let unreliable = channel == wire::SYSCH_UNRELIABLE;
        let mode = if unreliable {
            TransferMode::Unreliable
        } else {
            TransferMode::Reliable
        };
        let (header, payload) = match EnetHeader::split(data) {
            Ok(split) => split,
            Err(e) => return self.events.error(id, e),
        };
        let packet = |from: i32| TransportEvent::Packet {
            from,
            channel: 0,
            mode,
            data: payload.to_vec(),
        };
        if !self.hosts.server {
            self.events.push(packet(header.source));
            return;
        }
        let peers = self.hosts.map.peer_ids();
        match self.relay.route(id, header.source, header.target, &peers) {
            Ok(Some(route)) => {
                for to in route.forward {
                    self.send_raw(to, channel, data.to_vec(), unreliable);
                }
                if route.local {
                    self.events.push(packet(id));
                }
            }
            Ok(None) => {}
            Err(e) => self.events.error(id, e),
        }
    }
}

impl Transport for Enet3Transport {
    fn unique_id(&self) -> Option<i32> {
        Some(self.id)
    }

    /// Receives what arrived (within the call's budget of [`EnetLimits`](crate::EnetLimits);
    /// the rest waits for the next call) and relays. What one peer does (a flood, a packet
    /// above the bounds, not acknowledging, an unreachable address) is that peer's event.
    fn service(&mut self) -> std::io::Result<()> {
        self.hosts.begin();
        while let Some(event) = self.hosts.next()? {
            match event {
                HostEvent::Joined(id) if !self.hosts.server => {
                    self.events.push(TransportEvent::Connected(id));
                }
                // Past the id check (`ERR_CONTINUE` for ids below 2 and ids in use).
                HostEvent::Joined(id) => {
                    let announcements = self.relay.joined(id, &self.hosts.map.peer_ids());
                    self.announce(announcements);
                    self.events.push(TransportEvent::Connected(id));
                }
                HostEvent::Disconnect(id) => self.gone(id),
                HostEvent::Receive {
                    from,
                    channel,
                    data,
                } => self.receive(from, channel, &data),
            }
        }
        Ok(())
    }

    fn poll_event(&mut self) -> Option<TransportEvent> {
        self.events.pop()
    }

    /// Frames `data` (source: our id, target: `to`) and sends it: a client to the server, a
    /// server to the clients `to` names (`Relay::targets`).
    fn send(&mut self, to: i32, _channel: u8, mode: TransferMode, data: Vec<u8>) {
        let unreliable = mode != TransferMode::Reliable;
        let channel = if unreliable {
            wire::SYSCH_UNRELIABLE
        } else {
            wire::SYSCH_RELIABLE
        };
        let data = EnetHeader {
            source: self.id,
            target: to,
        }
        .frame(&data);
        if !self.hosts.server {
            return self.send_raw(1, channel, data, unreliable);
        }
        for to in Relay::targets(to, &self.hosts.map.peer_ids()) {
            self.send_raw(to, channel, data.clone(), unreliable);
        }
    }

    fn disconnect(&mut self, peer: i32) {
        self.events.forget(peer);
        if let Some(p) = self.hosts.peer_mut(peer) {
            p.disconnect(0);
        }
    }

    fn flush(&mut self) {
        self.hosts.host.flush();
    }

    fn close(&mut self) {
        self.hosts.close();
    }
}

/// A Godot 3.2.3-compatible ENet multiplayer peer, the server (peer 1) or a client: a
/// [`Session`] over one [`Enet3Transport`]. Its session, transport, `service` and the rest
/// are [`Peer`]'s.
pub type Enet3Peer = Peer<Enet3Transport, Session>;

impl Enet3Peer {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients, relaying
    /// client-to-client packets (`server_relay`, on by default in Godot 3).
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(addr: SocketAddr, max_clients: usize, limits: Limits) -> Result<Self, EnetError> {
        let transport = Enet3Transport::server(addr, max_clients, &limits)?;
        Ok(Self::new(transport, Session::server(limits)))
    }

    /// A client that joins the Godot 3 server at `addr` (`create_client`) with a random id;
    /// returns at once, the connection completes (or fails) in [`service`](Peer::service).
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client(addr: SocketAddr, limits: Limits) -> Result<Self, EnetError> {
        Self::client_with_id(addr, crate::generate_unique_id(), limits)
    }

    /// A client with a chosen id (2..=i32::MAX).
    ///
    /// # Errors
    ///
    /// As [`server`](Self::server).
    pub fn client_with_id(addr: SocketAddr, id: i32, limits: Limits) -> Result<Self, EnetError> {
        let transport = Enet3Transport::client(addr, id, &limits)?;
        Ok(Self::new(transport, Session::client(id, limits)))
    }

    /// Turns the server's relay off (`server_relay = false`): clients then only reach the
    /// server and learn of no other client.
    pub fn set_relay(&mut self, on: bool) {
        self.transport().set_relay(on);
    }

    /// Disconnects `peer` (server) or from the server (client).
    pub fn disconnect_peer(&mut self, peer: i32) {
        Transport::disconnect(self.transport(), peer);
    }
}

impl crate::transport::SocketTransport for Enet3Transport {
    type Error = EnetError;
    fn address(&self) -> std::io::Result<SocketAddr> {
        self.hosts.local_addr()
    }
}
