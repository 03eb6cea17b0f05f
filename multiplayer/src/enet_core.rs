//! The host side shared by both ENet dialects (Godot 4's [`crate::enet`] and Godot 3.2.3's
//! [`crate::godot3::enet`]): the ENet host, and the two-way map between ENet's peer slots and
//! Godot peer ids. What the channels and packets mean is the dialect's business.
//!
//! Every peer is bounded as [`EnetLimits`] says, and so is the work of one `service` call:
//!
//! - reads: at most `datagrams_per_call` datagrams and `inbound_bytes_per_call` bytes from the
//!   socket, `packets_per_call` ENet events and `host_passes_per_call` passes of ENet's host
//!   service (each walks every peer; ENet ends one at each connection), all peers together; the datagrams left wait
//!   in the kernel's socket buffer, the events in ENet's dispatch queue (which hands out the
//!   packets of different peers in turn), and ENet reads no datagram before that queue is
//!   empty, so what it holds is at most one call's datagrams.
//! - in: ENet's `maximumPacketSize` and `maximumWaitingData` per peer, `max_packet_size` and
//!   `max_waiting_data`.
//! - out: what is queued for a peer and not yet acknowledged (reliable) or sent (unreliable)
//!   is counted as ENet lets go of each packet; a peer whose total would pass
//!   `outbound_buffer_size` is reset at once, its queues freed, and the dialect reports
//!   [`Sent::Dropped`].
//! - the socket: an error that concerns one destination or one datagram (ICMP unreachable
//!   reports, a refused or filtered destination) loses that datagram, as UDP loses
//!   datagrams; only a socket that is gone is the caller's error.

use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusty_enet as enet;

use crate::enet::EnetError;
use crate::{ENET_PACKET_OVERHEAD, EnetLimits, TransferMode};

/// The UDP socket under the ENet host: it reads within the call's budget, and keeps the
/// errors of one destination or one datagram from being the host's.
pub(crate) struct Udp {
    socket: UdpSocket,
    /// `EnetLimits::socket_buffer` (0: the system's default).
    buffer: usize,
    /// Datagrams this call may still read.
    datagrams: usize,
    /// Bytes this call may still read.
    bytes: usize,
}

impl Udp {
    /// Whether the socket itself is gone (not one datagram or one destination failing).
    fn dead(&self) -> bool {
        self.socket.local_addr().is_err()
    }

    /// Starts a call: the datagrams and bytes it may read (`datagrams_per_call`,
    /// `inbound_bytes_per_call`).
    pub(crate) fn refill(&mut self, limits: &EnetLimits) {
        self.datagrams = limits.datagrams_per_call.max(1);
        self.bytes = limits.inbound_bytes_per_call.max(1);
    }
}

impl enet::Socket for Udp {
    type Address = SocketAddr;
    type Error = io::Error;

    fn init(&mut self, options: enet::SocketOptions) -> io::Result<()> {
        if self.buffer > 0 {
            // As ENet sizes its socket's buffers (a refusal is no error of the host: the
            // system's default stays).
            let socket = socket2::SockRef::from(&self.socket);
            let _ = socket.set_recv_buffer_size(self.buffer.max(options.receive_buffer));
            let _ = socket.set_send_buffer_size(self.buffer.max(options.send_buffer));
        }
        self.socket.set_nonblocking(true)
    }

    fn send(&mut self, address: SocketAddr, buffer: &[u8]) -> io::Result<usize> {
        match self.socket.send_to(buffer, address) {
            Ok(sent) => Ok(sent),
            // The kernel's buffer is full, or the destination fails (unreachable, refused,
            // filtered, ...): the datagram is lost, as UDP loses datagrams. ENet resends
            // reliable data and times an unreachable peer out.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock || !self.dead() => Ok(0),
            Err(e) => Err(e),
        }
    }

    fn receive(
        &mut self,
        buffer: &mut [u8; enet::MTU_MAX],
    ) -> io::Result<Option<(SocketAddr, enet::PacketReceived)>> {
        while self.datagrams > 0 && self.bytes > 0 {
            match self.socket.recv_from(buffer) {
                Ok((len, from)) => {
                    self.datagrams -= 1;
                    self.bytes = self.bytes.saturating_sub(len);
                    return Ok(Some((from, enet::PacketReceived::Complete(len))));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                // The report of an earlier datagram's failure (an ICMP port unreachable, which
                // Windows returns as WSAECONNRESET), an interrupted call: counted as a
                // datagram, so that errors cannot keep the call going either.
                Err(_) if !self.dead() => self.datagrams -= 1,
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }
}

/// A packet's bytes, counted in its peer's outbound total until ENet lets go of the packet
/// (acknowledged, sent unreliably, refused, or the peer reset): ENet drops the box then.
struct Tracked {
    data: Vec<u8>,
    queued: Arc<AtomicUsize>,
    charge: usize,
}

impl Tracked {
    /// `data`, charged `charge` bytes in `queued` (the caller added them) until dropped.
    fn new(data: Vec<u8>, queued: &Arc<AtomicUsize>, charge: usize) -> Self {
        Self {
            data,
            queued: Arc::clone(queued),
            charge,
        }
    }
}

impl AsRef<[u8]> for Tracked {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.queued.fetch_sub(self.charge, Ordering::Relaxed);
    }
}

/// The ENet packet kind of a Godot 4 transfer mode, for the transport and the bots alike:
/// unreliable modes stay unreliable whatever their size, the ordered one sequenced.
pub(crate) fn packet_kind(mode: TransferMode) -> enet::PacketKind {
    match mode {
        TransferMode::Unreliable => enet::PacketKind::AlwaysUnreliable { sequenced: false },
        TransferMode::UnreliableOrdered => enet::PacketKind::AlwaysUnreliable { sequenced: true },
        _ => enet::PacketKind::Reliable,
    }
}

/// Why [`charge`] did not make a packet.
pub(crate) enum Over {
    /// Above `max_packet_size`, or above `outbound_buffer_size` on its own: not sent, the
    /// peer stays.
    TooLarge {
        /// The packet's size.
        size: usize,
        /// The bound it is above.
        limit: usize,
    },
    /// The peer's outbound total would pass `outbound_buffer_size` (`limit`): the caller
    /// resets the peer.
    Full {
        /// The bound.
        limit: usize,
    },
}

/// `data` as an ENet packet of `kind` for a peer whose outbound total is `queued`: its
/// bytes plus [`ENET_PACKET_OVERHEAD`] are counted there until ENet lets go of it; or why
/// not, by `limits` (`max_packet_size`, `outbound_buffer_size`).
pub(crate) fn charge(
    limits: &EnetLimits,
    queued: &Arc<AtomicUsize>,
    data: Vec<u8>,
    kind: enet::PacketKind,
) -> Result<enet::Packet, Over> {
    let size = data.len();
    let largest = limits.max_packet_size.max(1);
    if size > largest {
        return Err(Over::TooLarge {
            size,
            limit: largest,
        });
    }
    let limit = limits.outbound_buffer_size.max(1);
    let charge = size.saturating_add(ENET_PACKET_OVERHEAD);
    if charge > limit {
        return Err(Over::TooLarge { size, limit });
    }
    if queued.load(Ordering::Relaxed).saturating_add(charge) > limit {
        return Err(Over::Full { limit });
    }
    queued.fetch_add(charge, Ordering::Relaxed);
    Ok(enet::Packet::new(
        Box::new(Tracked::new(data, queued, charge)),
        kind,
    ))
}

/// What became of a packet given to [`Hosts::send`].
pub(crate) enum Sent {
    /// Queued in ENet.
    Queued,
    /// No such peer (any more): nothing to do.
    NoPeer,
    /// Above `max_packet_size` or `outbound_buffer_size` on its own: not sent, the peer stays.
    TooLarge {
        /// The packet's size.
        size: usize,
        /// The bound it is above.
        limit: usize,
    },
    /// ENet refused it (a channel the peer does not have).
    Refused,
    /// The peer's outbound total would pass `outbound_buffer_size`: it was reset and
    /// forgotten (no ENet event follows); the dialect reports it and its disconnection.
    Dropped {
        /// The bound.
        limit: usize,
    },
}

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
    pub(crate) host: enet::Host<Udp>,
    /// Which slot is which peer (a field of its own, to be read while an event of `host`
    /// is held).
    pub(crate) map: PeerMap,
    /// Whether this is the server (peer 1).
    pub(crate) server: bool,
    limits: EnetLimits,
    /// ENet events this call may still take.
    events_left: usize,
    /// Host passes (send, read, send) this call may still make.
    passes_left: usize,
}

/// The two-way map between ENet's peer slots and Godot peer ids.
#[derive(Default)]
pub(crate) struct PeerMap {
    ids: HashMap<enet::PeerID, i32>,
    slots: HashMap<i32, enet::PeerID>,
    /// The bytes queued for each peer and not yet let go by ENet.
    queued: HashMap<i32, Arc<AtomicUsize>>,
}

pub(crate) fn host(
    socket: UdpSocket,
    peer_limit: usize,
    channels: usize,
    limits: &EnetLimits,
) -> Result<enet::Host<Udp>, EnetError> {
    let settings = enet::HostSettings {
        peer_limit,
        channel_limit: channels,
        ..Default::default()
    };
    let socket = Udp {
        socket,
        buffer: limits.socket_buffer,
        datagrams: 0,
        bytes: 0,
    };
    let mut host =
        enet::Host::new(socket, settings).map_err(|e| EnetError::Enet(format!("{e:?}")))?;
    host.set_maximum_packet_size(limits.max_packet_size.max(1))
        .and_then(|()| host.set_maximum_waiting_data(limits.max_waiting_data.max(1)))
        .map_err(|e| EnetError::Enet(e.to_string()))?;
    Ok(host)
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
        self.queued.insert(id, Arc::default());
    }

    /// The peer id of ENet slot `slot`.
    pub(crate) fn id_of(&self, slot: enet::PeerID) -> Option<i32> {
        self.ids.get(&slot).copied()
    }

    /// Forgets ENet slot `slot`; its peer id if it had one.
    pub(crate) fn remove_slot(&mut self, slot: enet::PeerID) -> Option<i32> {
        let id = self.ids.remove(&slot)?;
        self.slots.remove(&id);
        self.queued.remove(&id);
        Some(id)
    }

    /// Forgets peer `id`; its ENet slot if it had one.
    fn remove_id(&mut self, id: i32) -> Option<enet::PeerID> {
        let slot = self.slots.remove(&id)?;
        self.ids.remove(&slot);
        self.queued.remove(&id);
        Some(slot)
    }
}

impl Hosts {
    /// A server on `addr` for up to `max_clients` clients, with `channels` ENet channels.
    pub(crate) fn server(
        addr: SocketAddr,
        max_clients: usize,
        channels: usize,
        limits: EnetLimits,
    ) -> Result<Self, EnetError> {
        let socket = UdpSocket::bind(addr)?;
        Ok(Self {
            host: host(socket, max_clients.max(1), channels, &limits)?,
            map: PeerMap::default(),
            server: true,
            limits,
            events_left: 0,
            passes_left: 0,
        })
    }

    /// A client connecting to the server at `addr` (peer 1) with `id` as the connect data.
    pub(crate) fn client(
        addr: SocketAddr,
        id: i32,
        channels: usize,
        limits: EnetLimits,
    ) -> Result<Self, EnetError> {
        let bind: SocketAddr = if addr.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        }
        .parse()
        .map_err(|_| EnetError::Enet("bad bind address".into()))?;
        let socket = UdpSocket::bind(bind)?;
        let mut host = host(socket, 1, channels, &limits)?;
        let peer = host
            .connect(addr, channels, id as u32)
            .map_err(|e| EnetError::Enet(format!("{e:?}")))?
            .id();
        let mut hosts = Self {
            host,
            map: PeerMap::default(),
            server: false,
            limits,
            events_left: 0,
            passes_left: 0,
        };
        hosts.map.insert(peer, 1);
        Ok(hosts)
    }

    /// The bound address.
    pub(crate) fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.host.socket().socket.local_addr()
    }

    /// Starts a `service` call: its budget of datagrams, bytes and events.
    pub(crate) fn begin(&mut self) {
        self.host.socket_mut().refill(&self.limits);
        self.events_left = self.limits.packets_per_call.max(1);
        self.passes_left = self.limits.host_passes_per_call.max(1);
    }

    /// The next event of the host that concerns a peer we know (or admit), within the call's
    /// budget (see [`begin`](Self::begin)); refused connections (ids below 2 and ids in use,
    /// as both engines' ENet peers refuse them) are reset, and the disconnects and packets of
    /// unknown slots passed over (each counts toward the budget). `Err` only when the socket
    /// is gone.
    pub(crate) fn next(&mut self) -> io::Result<Option<HostEvent>> {
        while self.events_left > 0 {
            self.events_left -= 1;
            // What ENet has read already first (no walk of the peers); a pass only when that
            // is empty, and at most `host_passes_per_call` of them.
            let event = match self.host.check_events() {
                Some(event) => Some(event),
                None if self.passes_left > 0 => {
                    self.passes_left -= 1;
                    self.host.service()?
                }
                None => None,
            };
            let Some(event) = event else {
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
        Ok(None)
    }

    /// The ENet peer of Godot peer `id`.
    pub(crate) fn peer_mut(&mut self, id: i32) -> Option<&mut enet::Peer<Udp>> {
        let slot = *self.map.slots.get(&id)?;
        self.host.get_peer_mut(slot)
    }

    /// Queues `data` for peer `id` on ENet channel `channel`, within the peer's outbound
    /// bound: each packet counts its bytes plus [`ENET_PACKET_OVERHEAD`] until ENet lets go
    /// of it.
    pub(crate) fn send(
        &mut self,
        id: i32,
        channel: u8,
        data: Vec<u8>,
        kind: enet::PacketKind,
    ) -> Sent {
        let (Some(&slot), Some(queued)) = (self.map.slots.get(&id), self.map.queued.get(&id))
        else {
            return Sent::NoPeer;
        };
        let packet = match charge(&self.limits, queued, data, kind) {
            Ok(packet) => packet,
            Err(Over::TooLarge { size, limit }) => return Sent::TooLarge { size, limit },
            Err(Over::Full { limit }) => {
                self.drop_now(id);
                return Sent::Dropped { limit };
            }
        };
        match self
            .host
            .get_peer_mut(slot)
            .map(|peer| peer.send(channel, &packet))
        {
            Some(Ok(())) => Sent::Queued,
            Some(Err(_)) => Sent::Refused,
            None => Sent::NoPeer,
        }
    }

    /// The bytes queued for peer `id` and not yet let go by ENet (with their overhead).
    pub(crate) fn queued(&self, id: i32) -> usize {
        self.map
            .queued
            .get(&id)
            .map_or(0, |q| q.load(Ordering::Relaxed))
    }

    /// `outbound_buffer_size`, at least 1.
    pub(crate) fn outbound_limit(&self) -> usize {
        self.limits.outbound_buffer_size.max(1)
    }

    /// Forgets peer `id` now and asks ENet to disconnect it.
    pub(crate) fn forget_and_disconnect(&mut self, id: i32) {
        if let Some(slot) = self.map.remove_id(id) {
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect(0);
            }
        }
    }

    /// Forgets peer `id` and resets it at once (a notice is sent, not waited for): whatever
    /// was queued for it is freed now, and ENet reports no disconnection.
    fn drop_now(&mut self, id: i32) {
        if let Some(slot) = self.map.remove_id(id) {
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect_now(0);
            }
        }
    }

    /// Disconnects every peer now, sends the notices (one flush: a peer that misses the
    /// datagram times out as before) and forgets them.
    pub(crate) fn close(&mut self) {
        let slots: Vec<enet::PeerID> = self.map.slots.values().copied().collect();
        for slot in slots {
            if let Some(peer) = self.host.get_peer_mut(slot) {
                peer.disconnect_now(0);
            }
        }
        self.host.flush();
        self.map = PeerMap::default();
    }
}

/// A host that goes away disconnects its peers as [`Hosts::close`] does, so that they learn
/// it at once instead of after ENet's timeout (about 9.5 s in Godot's client).
impl Drop for Hosts {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use std::net::{SocketAddr, UdpSocket};

    use rusty_enet as enet;

    use super::Udp;

    /// A datagram the kernel refuses for its destination (here the broadcast address, with
    /// `SO_BROADCAST` off: EACCES) is lost, as UDP loses datagrams, and the host goes on.
    /// rusty_enet's own `Socket` for `UdpSocket` (which the host used before) passes every
    /// such error up as the host's, which ended `service()` for every peer.
    #[test]
    fn a_destination_error_loses_the_datagram_not_the_host() {
        let to: SocketAddr = "255.255.255.255:9".parse().unwrap();
        let plain = UdpSocket::bind("127.0.0.1:0").unwrap();
        assert!(enet::Socket::send(&mut plain.try_clone().unwrap(), to, b"x").is_err());
        let mut udp = Udp {
            socket: plain,
            buffer: 0,
            datagrams: 1,
            bytes: 1,
        };
        assert_eq!(enet::Socket::send(&mut udp, to, b"x").unwrap(), 0);
        // The socket still works.
        let other = UdpSocket::bind("127.0.0.1:0").unwrap();
        let sent = enet::Socket::send(&mut udp, other.local_addr().unwrap(), b"y").unwrap();
        assert_eq!(sent, 1);
    }

    /// The host's socket gets `socket_buffer` bytes of receive buffer (as far as the system
    /// allows: Linux caps the request at `net.core.rmem_max` and reports twice what it
    /// granted), not the system's default (Linux: 208 KiB, which a join burst overflowed).
    #[test]
    #[cfg(target_os = "linux")]
    fn the_socket_gets_its_buffers() {
        let Some(max) = std::fs::read_to_string("/proc/sys/net/core/rmem_max")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
        else {
            return;
        };
        let limits = crate::EnetLimits::default();
        let hosts = super::Hosts::server("127.0.0.1:0".parse().unwrap(), 8, 2, limits).unwrap();
        let socket = socket2::SockRef::from(&hosts.host.socket().socket);
        let got = socket.recv_buffer_size().unwrap();
        let asked = limits.socket_buffer.min(max);
        assert!(got >= asked, "receive buffer {got}, asked {asked}");
    }

    /// Reads stop at the call's datagram budget, whatever is waiting, and the next call
    /// reads the rest.
    #[test]
    fn reads_stop_at_the_call_budget() {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
        for _ in 0..5 {
            peer.send_to(&[1, 2, 3], socket.local_addr().unwrap())
                .unwrap();
        }
        let mut udp = Udp {
            socket,
            buffer: 0,
            datagrams: 3,
            bytes: 1 << 20,
        };
        enet::Socket::init(
            &mut udp,
            enet::SocketOptions {
                receive_buffer: 0,
                send_buffer: 0,
            },
        )
        .unwrap();
        let mut buffer = [0u8; enet::MTU_MAX];
        let mut read = 0;
        let start = std::time::Instant::now();
        // Loopback delivers at once, but give it a moment.
        while read < 3 && start.elapsed() < std::time::Duration::from_secs(5) {
            if enet::Socket::receive(&mut udp, &mut buffer)
                .unwrap()
                .is_some()
            {
                read += 1;
            }
        }
        assert_eq!(read, 3);
        assert!(
            enet::Socket::receive(&mut udp, &mut buffer)
                .unwrap()
                .is_none()
        );
        udp.datagrams = 3;
        let mut more = 0;
        while enet::Socket::receive(&mut udp, &mut buffer)
            .unwrap()
            .is_some()
        {
            more += 1;
        }
        assert_eq!(more, 2);
    }
}
