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

use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};

use rusty_enet as enet;

use super::wire::{self, EnetHeader, SysMsg, route};
use super::{Error, Event, Session};
use crate::enet::EnetError;
use crate::{Limits, ProtocolError};

/// A Godot 3.2.3-compatible ENet multiplayer peer: the server (peer 1) or a client.
pub struct Enet3Peer {
    host: enet::Host<UdpSocket>,
    session: Session,
    ids: HashMap<enet::PeerID, i32>,
    slots: HashMap<i32, enet::PeerID>,
    server: bool,
    relay: bool,
}

impl std::fmt::Debug for Enet3Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Enet3Peer")
            .field("session", &self.session)
            .field("peers", &self.slots.len())
            .finish()
    }
}

fn host(socket: UdpSocket, peer_limit: usize) -> Result<enet::Host<UdpSocket>, EnetError> {
    let settings = enet::HostSettings {
        peer_limit,
        channel_limit: usize::from(wire::SYSCH_MAX),
        ..Default::default()
    };
    enet::Host::new(socket, settings).map_err(|e| EnetError::Enet(format!("{e:?}")))
}

impl Enet3Peer {
    /// A server on `addr` (`create_server`) for up to `max_clients` clients, relaying
    /// client-to-client packets (`server_relay`, on by default in Godot 3).
    ///
    /// # Errors
    ///
    /// [`EnetError`] when the socket cannot be bound or ENet refuses the settings.
    pub fn server(addr: SocketAddr, max_clients: usize, limits: Limits) -> Result<Self, EnetError> {
        let socket = UdpSocket::bind(addr)?;
        Ok(Self {
            host: host(socket, max_clients.max(1))?,
            session: Session::server(limits),
            ids: HashMap::new(),
            slots: HashMap::new(),
            server: true,
            relay: true,
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
        let bind: SocketAddr = if addr.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        }
        .parse()
        .map_err(|_| EnetError::Enet("bad bind address".into()))?;
        let socket = UdpSocket::bind(bind)?;
        let mut host = host(socket, 1)?;
        let peer = host
            .connect(addr, usize::from(wire::SYSCH_MAX), id as u32)
            .map_err(|e| EnetError::Enet(format!("{e:?}")))?
            .id();
        let mut ids = HashMap::new();
        ids.insert(peer, 1);
        let mut slots = HashMap::new();
        slots.insert(1, peer);
        Ok(Self {
            host,
            session: Session::client(id, limits),
            ids,
            slots,
            server: false,
            relay: true,
        })
    }

    /// Turns the server's relay off (`server_relay = false`): clients then only reach the
    /// server and learn of no other client.
    pub fn set_relay(&mut self, on: bool) {
        self.relay = on;
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
        self.host.socket().local_addr()
    }

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.session.poll_event()
    }

    fn send_raw(&mut self, to: i32, channel: u8, data: Vec<u8>, unreliable: bool) {
        let Some(&slot) = self.slots.get(&to) else {
            return;
        };
        let kind = if unreliable {
            enet::PacketKind::Unreliable { sequenced: false }
        } else {
            enet::PacketKind::Reliable
        };
        let packet = enet::Packet::new(data, kind);
        if let Some(peer) = self.host.get_peer_mut(slot) {
            let _ = peer.send(channel, &packet);
        }
    }

    fn sysmsg(&mut self, to: i32, msg: SysMsg) {
        self.send_raw(to, wire::SYSCH_CONFIG, msg.to_bytes().to_vec(), false);
    }

    /// Sends what the session queued, receives what arrived, and sends the answers.
    ///
    /// # Errors
    ///
    /// [`EnetError::Io`] when the socket fails.
    pub fn service(&mut self) -> Result<(), EnetError> {
        self.flush_outputs();
        loop {
            let Some(event) = self.host.service()? else {
                break;
            };
            match event {
                enet::Event::Connect { peer, data } => {
                    let slot = peer.id();
                    if !self.server {
                        self.session.connected(1);
                        continue;
                    }
                    // Ids below 2 and ids in use are refused (`ERR_CONTINUE`).
                    let id = data as i32;
                    if id < 2 || self.slots.contains_key(&id) {
                        peer.reset();
                        continue;
                    }
                    let others: Vec<i32> = self.slots.keys().copied().collect();
                    self.ids.insert(slot, id);
                    self.slots.insert(id, slot);
                    if self.relay {
                        for other in others {
                            self.sysmsg(id, SysMsg::AddPeer(other));
                            self.sysmsg(other, SysMsg::AddPeer(id));
                        }
                    }
                    self.session.connected(id);
                }
                enet::Event::Disconnect { peer, .. } => {
                    let slot = peer.id();
                    if let Some(id) = self.ids.remove(&slot) {
                        self.slots.remove(&id);
                        if self.server && self.relay {
                            let others: Vec<i32> = self.slots.keys().copied().collect();
                            for other in others {
                                self.sysmsg(other, SysMsg::RemovePeer(id));
                            }
                        }
                        self.session.disconnected(id);
                    }
                }
                enet::Event::Receive {
                    peer,
                    channel_id,
                    packet,
                } => {
                    let Some(&id) = self.ids.get(&peer.id()) else {
                        continue;
                    };
                    let data = packet.data().to_vec();
                    self.receive(id, channel_id, &data);
                }
            }
            self.flush_outputs();
        }
        self.flush_outputs();
        self.host.flush();
        Ok(())
    }

    fn receive(&mut self, id: i32, channel: u8, data: &[u8]) {
        if channel == wire::SYSCH_CONFIG {
            // Only the server sends system messages.
            if self.server {
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
        if !self.server {
            self.session.receive(header.source, unreliable, payload);
            return;
        }
        if header.source != id {
            // "Someone is cheating and trying to fake the source!"
            return self.session.report(
                id,
                ProtocolError::Invalid {
                    what: "ENet header source",
                    offset: 0,
                    detail: format!("{} from peer {id}", header.source),
                }
                .into(),
            );
        }
        if header.target != 1 && !self.relay {
            return;
        }
        let peers: Vec<i32> = self.slots.keys().copied().collect();
        match route(id, header.target, &peers) {
            Ok(route) => {
                for to in route.forward {
                    self.send_raw(to, channel, data.to_vec(), unreliable);
                }
                if route.local {
                    self.session.receive(id, unreliable, payload);
                }
            }
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
            if !self.server {
                self.send_raw(1, channel, data, output.unreliable);
                continue;
            }
            let targets: Vec<i32> = match output.target {
                0 => self.slots.keys().copied().collect(),
                t if t < 0 => self
                    .slots
                    .keys()
                    .copied()
                    .filter(|&p| p != t.saturating_neg())
                    .collect(),
                t => vec![t],
            };
            for to in targets {
                self.send_raw(to, channel, data.clone(), output.unreliable);
            }
        }
    }

    /// Disconnects `peer` (server) or from the server (client).
    pub fn disconnect_peer(&mut self, peer: i32) {
        if let Some(slot) = self.slots.get(&peer).copied() {
            if let Some(p) = self.host.get_peer_mut(slot) {
                p.disconnect(0);
            }
        }
    }

    /// Disconnects every peer now and sends the notices.
    pub fn close(&mut self) {
        let slots: Vec<enet::PeerID> = self.slots.values().copied().collect();
        for slot in slots {
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect_now(0);
            }
        }
        self.host.flush();
    }
}
