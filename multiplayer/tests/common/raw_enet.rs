//! A raw ENet client for the hostile tests of the examples: it connects with any id and sends
//! any bytes on any channel, below both dialects' sessions (garbage, auth out of order).
#![allow(dead_code)]

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use rusty_enet as enet;

/// One raw ENet connection.
pub struct Raw {
    host: enet::Host<UdpSocket>,
    peer: enet::PeerID,
    /// Whether the server accepted the connection.
    pub connected: bool,
    /// Whether the server dropped it.
    pub dropped: bool,
    /// The packets received, with their channel.
    pub received: Vec<(u8, Vec<u8>)>,
}

impl Raw {
    /// Connects to `addr` with `id` as the connect data (the peer id Godot's clients send) and
    /// `channels` channels (255 for Godot 4, 3 for Godot 3), and waits up to 10 s for it.
    pub fn connect(addr: SocketAddr, id: u32, channels: usize) -> Self {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let settings = enet::HostSettings {
            peer_limit: 1,
            channel_limit: channels,
            ..Default::default()
        };
        let mut host = enet::Host::new(socket, settings).unwrap();
        let peer = host.connect(addr, channels, id).unwrap().id();
        let mut raw = Self {
            host,
            peer,
            connected: false,
            dropped: false,
            received: Vec::new(),
        };
        let start = Instant::now();
        while !raw.connected && start.elapsed() < Duration::from_secs(10) {
            raw.service();
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(raw.connected, "raw client {id} never connected");
        raw
    }

    /// Takes what arrived.
    pub fn service(&mut self) {
        while let Ok(Some(event)) = self.host.service() {
            match event {
                enet::Event::Connect { .. } => self.connected = true,
                enet::Event::Disconnect { .. } => self.dropped = true,
                enet::Event::Receive {
                    channel_id, packet, ..
                } => self.received.push((channel_id, packet.data().to_vec())),
            }
        }
    }

    /// Services the connection for `time`.
    pub fn pump(&mut self, time: Duration) {
        let start = Instant::now();
        while start.elapsed() < time {
            self.service();
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Sends `data` reliably on ENet channel `channel` (ENet refuses empty packets: skipped).
    pub fn send(&mut self, channel: u8, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let packet = enet::Packet::new(data.to_vec(), enet::PacketKind::Reliable);
        if let Some(peer) = self.host.get_peer_mut(self.peer) {
            let _ = peer.send(channel, &packet);
        }
        self.host.flush();
    }

    /// Disconnects now.
    pub fn close(&mut self) {
        if let Some(peer) = self.host.get_peer_mut(self.peer) {
            peer.disconnect_now(0);
        }
        self.host.flush();
    }
}

/// `n` deterministic pseudo-random packets of 1 to 64 bytes (a linear congruential generator
/// seeded with `seed`), for garbage.
pub fn garbage(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) as u8
    };
    (0..n)
        .map(|_| {
            let len = usize::from(next() % 64) + 1;
            (0..len).map(|_| next()).collect()
        })
        .collect()
}

impl Raw {
    /// Queues `count` copies of `data`, unreliable and unsequenced (as Godot 4 sends
    /// unreliable packets), on ENet channel `channel`, then sends what the socket takes.
    pub fn flood(&mut self, channel: u8, data: &[u8], count: usize) {
        if let Some(peer) = self.host.get_peer_mut(self.peer) {
            for _ in 0..count {
                let packet = enet::Packet::new(
                    data.to_vec(),
                    enet::PacketKind::AlwaysUnreliable { sequenced: false },
                );
                let _ = peer.send(channel, &packet);
            }
        }
        self.host.flush();
    }
}

impl Raw {
    /// The channels the connection has (the smaller count of the two hosts').
    pub fn channel_count(&self) -> usize {
        self.host
            .get_peer(self.peer)
            .map_or(0, enet::Peer::channel_count)
    }
}

impl Raw {
    /// Sends `count` reliable packets of `len` bytes (zeros) on ENet channel `channel`,
    /// reliable sequence numbers `first`, `first + 1`, ..., written by hand (ENet numbers its
    /// own packets in order) and sent from this connection's socket to `server`: commands of
    /// 6 + `len` bytes (`SEND_RELIABLE` 6 with the acknowledge flag 0x80, the channel, the
    /// sequence number, the data length, the data) after a 4-byte header (the peer id the
    /// server gave, its session in bits 12-13, the sent-time flag 0x8000; a sent time), as
    /// many as fit 4,096 bytes per datagram.
    pub fn forge_reliable(
        &mut self,
        server: SocketAddr,
        channel: u8,
        first: u16,
        count: u16,
        len: u16,
    ) {
        let debug = format!("{:?}", self.host.get_peer(self.peer).unwrap());
        let field = |name: &str| -> u16 {
            let at = debug.find(name).unwrap() + name.len();
            debug[at..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .unwrap()
        };
        let peer_id = field("outgoingPeerID: ");
        let session = field("outgoingSessionID: ");
        let socket = self.host.socket().try_clone().unwrap();
        let header = (peer_id | (session << 12) | 0x8000).to_be_bytes();
        let seqs: Vec<u16> = (0..count).map(|i| first.wrapping_add(i)).collect();
        for chunk in seqs.chunks(4092 / (6 + usize::from(len))) {
            let mut datagram = Vec::with_capacity(4096);
            datagram.extend_from_slice(&header);
            datagram.extend_from_slice(&1u16.to_be_bytes());
            for seq in chunk {
                datagram.extend_from_slice(&[0x80 | 6, channel]);
                datagram.extend_from_slice(&seq.to_be_bytes());
                datagram.extend_from_slice(&len.to_be_bytes());
                datagram.resize(datagram.len() + usize::from(len), 0);
            }
            let _ = socket.send_to(&datagram, server);
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}
