//! The host side shared by both ENet dialects (Godot 4's [`crate::enet`] and Godot 3.2.3's
//! [`crate::godot3::enet`]): the ENet host, and the two-way map between ENet's peer slots and
//! Godot peer ids. What the channels and packets mean is the dialect's business.

use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};

use rusty_enet as enet;

use crate::enet::EnetError;

/// An event of the host, its ENet slot turned into a Godot peer id where it has one.
pub(crate) enum HostEvent {
    /// Peer `0` connected, recorded already: on a server a client whose id (the connect
    /// data) was not refused, on a client the server (1).
    Joined(i32),
    /// Peer `0` disconnected; it is forgotten already.
    Disconnect(i32),
    /// A packet of a known peer.
    Receive {
        /// The sender's peer id.
        from: i32,
        /// The ENet channel.
        channel: u8,
        /// The bytes.
        data: Vec<u8>,
    },
}

/// An ENet host and the Godot ids of its connected peers.
pub(crate) struct Hosts {
    pub(crate) host: enet::Host<UdpSocket>,
    /// Which slot is which peer (a field of its own, to be read while an event of `host`
    /// is held).
    pub(crate) map: PeerMap,
    /// Whether this is the server (peer 1).
    pub(crate) server: bool,
}

/// The two-way map between ENet's peer slots and Godot peer ids.
#[derive(Default)]
pub(crate) struct PeerMap {
    ids: HashMap<enet::PeerID, i32>,
    slots: HashMap<i32, enet::PeerID>,
}

fn host(
    socket: UdpSocket,
    peer_limit: usize,
    channels: usize,
) -> Result<enet::Host<UdpSocket>, EnetError> {
    let settings = enet::HostSettings {
        peer_limit,
        channel_limit: channels,
        ..Default::default()
    };
    enet::Host::new(socket, settings).map_err(|e| EnetError::Enet(format!("{e:?}")))
}

impl PeerMap {
    /// How many peers are connected.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// The ids of the connected peers.
    pub(crate) fn peer_ids(&self) -> Vec<i32> {
        self.slots.keys().copied().collect()
    }

    /// Whether a client's connect data is an id the server refuses (below 2, or in use).
    fn refuses(&self, id: i32) -> bool {
        id < 2 || self.slots.contains_key(&id)
    }

    /// Records that ENet slot `slot` is peer `id`.
    pub(crate) fn insert(&mut self, slot: enet::PeerID, id: i32) {
        self.ids.insert(slot, id);
        self.slots.insert(id, slot);
    }

    /// The peer id of ENet slot `slot`.
    pub(crate) fn id_of(&self, slot: enet::PeerID) -> Option<i32> {
        self.ids.get(&slot).copied()
    }

    /// Forgets ENet slot `slot`; its peer id if it had one.
    pub(crate) fn remove_slot(&mut self, slot: enet::PeerID) -> Option<i32> {
        let id = self.ids.remove(&slot)?;
        self.slots.remove(&id);
        Some(id)
    }
}

impl Hosts {
    /// A server on `addr` for up to `max_clients` clients, with `channels` ENet channels.
    pub(crate) fn server(
        addr: SocketAddr,
        max_clients: usize,
        channels: usize,
    ) -> Result<Self, EnetError> {
        let socket = UdpSocket::bind(addr)?;
        Ok(Self {
            host: host(socket, max_clients.max(1), channels)?,
            map: PeerMap::default(),
            server: true,
        })
    }

    /// A client connecting to the server at `addr` (peer 1) with `id` as the connect data.
    pub(crate) fn client(addr: SocketAddr, id: i32, channels: usize) -> Result<Self, EnetError> {
        let bind: SocketAddr = if addr.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        }
        .parse()
        .map_err(|_| EnetError::Enet("bad bind address".into()))?;
        let socket = UdpSocket::bind(bind)?;
        let mut host = host(socket, 1, channels)?;
        let peer = host
            .connect(addr, channels, id as u32)
            .map_err(|e| EnetError::Enet(format!("{e:?}")))?
            .id();
        let mut hosts = Self {
            host,
            map: PeerMap::default(),
            server: false,
        };
        hosts.map.insert(peer, 1);
        Ok(hosts)
    }

    /// The bound address.
    pub(crate) fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.host.socket().local_addr()
    }

    /// The next event of the host that concerns a peer we know (or admit); refused
    /// connections (ids below 2 and ids in use, as both engines' ENet peers refuse them) are
    /// reset, and the disconnects and packets of unknown slots passed over.
    pub(crate) fn next(&mut self) -> Result<Option<HostEvent>, EnetError> {
        loop {
            let Some(event) = self.host.service()? else {
                return Ok(None);
            };
            match event {
                enet::Event::Connect { peer, data } => {
                    if !self.server {
                        return Ok(Some(HostEvent::Joined(1)));
                    }
                    let id = data as i32;
                    if self.map.refuses(id) {
                        peer.reset();
                        continue;
                    }
                    self.map.insert(peer.id(), id);
                    return Ok(Some(HostEvent::Joined(id)));
                }
                enet::Event::Disconnect { peer, .. } => {
                    let slot = peer.id();
                    if let Some(id) = self.map.remove_slot(slot) {
                        return Ok(Some(HostEvent::Disconnect(id)));
                    }
                }
                enet::Event::Receive {
                    peer,
                    channel_id,
                    packet,
                } => {
                    if let Some(from) = self.map.id_of(peer.id()) {
                        return Ok(Some(HostEvent::Receive {
                            from,
                            channel: channel_id,
                            data: packet.data().to_vec(),
                        }));
                    }
                }
            }
        }
    }

    /// The ENet peer of Godot peer `id`.
    pub(crate) fn peer_mut(&mut self, id: i32) -> Option<&mut enet::Peer<UdpSocket>> {
        let slot = *self.map.slots.get(&id)?;
        self.host.get_peer_mut(slot)
    }

    /// Forgets peer `id` now and asks ENet to disconnect it.
    pub(crate) fn forget_and_disconnect(&mut self, id: i32) {
        if let Some(slot) = self.map.slots.remove(&id) {
            self.map.ids.remove(&slot);
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect(0);
            }
        }
    }

    /// Disconnects every peer now and sends the notices.
    pub(crate) fn close(&mut self) {
        let slots: Vec<enet::PeerID> = self.map.slots.values().copied().collect();
        for slot in slots {
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect_now(0);
            }
        }
        self.host.flush();
    }
}
