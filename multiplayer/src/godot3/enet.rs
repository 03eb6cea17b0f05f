//! The ENet transport as Godot 3.2.3's `NetworkedMultiplayerENet` uses ENet
//! (`modules/enet/networked_multiplayer_enet.cpp`): three channels (`SYSCH_CONFIG` 0 for the
//! server's system messages, `SYSCH_RELIABLE` 1, `SYSCH_UNRELIABLE` 2); every data packet
//! starts with the [`EnetHeader`] (source, target); a client sends its peer id as the connect
//! data; the server tells clients who else is connected (`SYSMSG_ADD_PEER`,
//! `SYSMSG_REMOVE_PEER`) and relays packets whose target is another client, everyone (0) or
//! everyone but one (`-n`), checking that the source is the sender.
//!
//! [`Enet3Peer`] drives a [`Session`] over a non-blocking UDP socket: call
//! [`Enet3Peer::service`] often, then drain [`Enet3Peer::poll_event`].
//!
//! Every peer, and the work of one `service` call, is bounded by
//! [`EnetLimits`](crate::EnetLimits) (`Limits::enet`), as for Godot 4's `EnetPeer`; relayed
//! packets count toward their receiver's outbound bound. A peer that breaks a bound is
//! dropped with an [`Event::Error`] naming it, then its [`Event::PeerDisconnected`] (and the
//! other clients are told, `SYSMSG_REMOVE_PEER`).

use std::net::SocketAddr;

use rusty_enet as enet;

use super::relay::{Announce, Link, Relay};
use super::wire::{self, EnetHeader, SysMsg};
use super::{Error, Event, Session};
use crate::enet::EnetError;
use crate::enet_core::{HostEvent, Hosts, Sent};
use crate::{Limits, ProtocolError};

/// A Godot 3.2.3-compatible ENet multiplayer peer: the server (peer 1) or a client.
pub struct Enet3Peer {
    hosts: Hosts,
    session: Session,
    relay: Relay,
}

impl std::fmt::Debug for Enet3Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::debug_peer(f, "Enet3Peer", &self.session, self.hosts.map.len())
    }
}

impl Enet3Peer {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients, relaying
    /// client-to-client packets (`server_relay`, on by default in Godot 3).
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(addr: SocketAddr, max_clients: usize, limits: Limits) -> Result<Self, EnetError> {
        Ok(Self {
            hosts: Hosts::server(addr, max_clients, usize::from(wire::SYSCH_MAX), limits.enet)?,
            session: Session::server(limits),
            relay: Relay::new(Link::Enet),
        })
    }

    /// A client that joins the Godot 3 server at `addr` (`create_client`) with a random id.
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
        Ok(Self {
            hosts: Hosts::client(addr, id, usize::from(wire::SYSCH_MAX), limits.enet)?,
            session: Session::client(id, limits),
            relay: Relay::new(Link::Enet),
        })
    }

    /// Turns the server's relay off (`server_relay = false`): clients then only reach the
    /// server and learn of no other client.
    pub fn set_relay(&mut self, on: bool) {
        self.relay.set_enabled(on);
    }

    /// The protocol session, to declare nodes, call and set remotely, send bytes.
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

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.session.poll_event()
    }

    fn send_raw(&mut self, to: i32, channel: u8, data: Vec<u8>, unreliable: bool) {
        let kind = if unreliable {
            enet::PacketKind::Unreliable { sequenced: false }
        } else {
            enet::PacketKind::Reliable
        };
        match self.hosts.send(to, channel, data, kind) {
            Sent::Queued | Sent::NoPeer | Sent::Refused => {}
            Sent::TooLarge { size, limit } => self.session.report(
                to,
                ProtocolError::SendTooLarge {
                    peer: to,
                    size,
                    limit,
                }
                .into(),
            ),
            Sent::Dropped { limit } => {
                self.session
                    .report(to, ProtocolError::OutboundFull { peer: to, limit }.into());
                self.gone(to);
            }
        }
    }

    /// Peer `id` is gone: the server tells the other clients (relay on), the session its
    /// application.
    fn gone(&mut self, id: i32) {
        if self.hosts.server {
            let notices = self.relay.left(id, &self.hosts.map.peer_ids());
            self.notify(notices);
        }
        self.session.disconnected(id);
    }

    /// Sends the relay's notices as system messages.
    fn notify(&mut self, notices: Vec<Announce>) {
        for notice in notices {
            let (to, msg) = match notice {
                Announce::Add { to, peer } => (to, SysMsg::AddPeer(peer)),
                Announce::Remove { to, peer } => (to, SysMsg::RemovePeer(peer)),
            };
            self.send_raw(to, wire::SYSCH_CONFIG, msg.to_bytes().to_vec(), false);
        }
    }

    /// Sends what the session queued, receives what arrived (within the call's budget of
    /// [`EnetLimits`](crate::EnetLimits); the rest waits for the next call), relays, and
    /// sends the answers. What one peer does (a flood, a packet above the bounds, not
    /// acknowledging, an unreachable address) is that peer's [`Event::Error`] or
    /// disconnection, never this call's error.
    ///
    /// # Errors
    ///
    /// [`EnetError::Io`] when the socket itself fails (is gone).
    pub fn service(&mut self) -> Result<(), EnetError> {
        self.hosts.begin();
        self.flush_outputs();
        while let Some(event) = self.hosts.next()? {
            match event {
                HostEvent::Joined(id) if !self.hosts.server => {
                    self.session.connected(id);
                    continue;
                }
                // Past the id check (`ERR_CONTINUE` for ids below 2 and ids in use).
                HostEvent::Joined(id) => {
                    let notices = self.relay.joined(id, &self.hosts.map.peer_ids());
                    self.notify(notices);
                    self.session.connected(id);
                }
                HostEvent::Disconnect(id) => self.gone(id),
                HostEvent::Receive {
                    from,
                    channel,
                    data,
                } => self.receive(from, channel, &data),
            }
            self.flush_outputs();
        }
        self.flush_outputs();
        self.hosts.host.flush();
        Ok(())
    }

    fn receive(&mut self, id: i32, channel: u8, data: &[u8]) {
        if channel == wire::SYSCH_CONFIG {
            // Only the server sends system messages.
            if self.hosts.server {
                self.session.report(
                    id,
                    ProtocolError::State {
                        peer: id,
                        detail: "sent a system message, which only the server sends",
                    }
                    .into(),
                );
                return;
            }
            match SysMsg::parse(data) {
                Ok(SysMsg::AddPeer(p)) => self.session.connected(p),
                Ok(SysMsg::RemovePeer(p)) => self.session.disconnected(p),
                Err(e) => self.session.report(id, e.into()),
            }
            return;
        }
        let unreliable = channel == wire::SYSCH_UNRELIABLE;
        let (header, payload) = match EnetHeader::split(data) {
            Ok(split) => split,
            Err(e) => return self.session.report(id, e.into()),
        };
        if !self.hosts.server {
            self.session.receive(header.source, unreliable, payload);
            return;
        }
        let peers = self.hosts.map.peer_ids();
        match self.relay.route(id, header.source, header.target, &peers) {
            Ok(Some(route)) => {
                for to in route.forward {
                    self.send_raw(to, channel, data.to_vec(), unreliable);
                }
                if route.local {
                    self.session.receive(id, unreliable, payload);
                }
            }
            Ok(None) => {}
            Err(e) => self.session.report(id, Error::from(e)),
        }
    }

    fn flush_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            let channel = if output.unreliable {
                wire::SYSCH_UNRELIABLE
            } else {
                wire::SYSCH_RELIABLE
            };
            let source = self.session.unique_id();
            let data = EnetHeader {
                source,
                target: output.target,
            }
            .frame(&output.data);
            if !self.hosts.server {
                self.send_raw(1, channel, data, output.unreliable);
                continue;
            }
            for to in Relay::targets(output.target, &self.hosts.map.peer_ids()) {
                self.send_raw(to, channel, data.clone(), output.unreliable);
            }
        }
    }

    /// Disconnects `peer` (server) or from the server (client).
    pub fn disconnect_peer(&mut self, peer: i32) {
        if let Some(p) = self.hosts.peer_mut(peer) {
            p.disconnect(0);
        }
    }

    /// Disconnects every peer now and sends the notices.
    pub fn close(&mut self) {
        self.hosts.close();
    }
}
