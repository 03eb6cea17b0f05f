//! Memory per connected peer: what the session holds for a peer that joined, announced the
//! node's path, and was sent one call (both path caches filled); and what hostile WebSocket
//! peers can make a server hold (a flood, a peer that never reads, connections holding half a
//! message), over real sockets on 127.0.0.1, for both dialects.
//!
//! The heap is counted process-wide, so these tests take turns.

use std::sync::{Mutex, MutexGuard};

use godot_serde_multiplayer::{RpcMethod, RpcTable, Session, Settings, TransferMode, wire};
use peak_alloc::PeakAlloc;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

pub(crate) fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn memory_per_connected_peer_is_small() {
    let _alone = alone();
    let table = RpcTable::new("Bench")
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::authority("pong"));
    let mut simplify = Vec::new();
    wire::write_simplify_path(&mut simplify, table.md5(), 1, "Bench");
    let mut s = Session::server(Settings::default());
    s.declare(table);
    // Warm the queues up, so their capacity is not counted per peer.
    s.connected(2, crate::clock::at_ms(0));
    s.rpc(2, "Bench", "pong", &(1i64,)).unwrap();
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 3..1003 {
        s.connected(peer, crate::clock::at_ms(0));
        s.receive(peer, 0, TransferMode::Reliable, &simplify);
        s.rpc(peer, "Bench", "pong", &(1i64,)).unwrap();
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    let per_peer = HEAP.current_usage().saturating_sub(before) / 1000;
    println!("session memory per connected peer: {per_peer} bytes");
    // Two one-entry hash maps and a tree node: well under a kilobyte.
    assert!(per_peer < 1024, "{per_peer} bytes per peer");
}

#[cfg(feature = "websocket")]
use crate::ws;

#[cfg(feature = "websocket")]
mod websocket {
    use std::io::{ErrorKind, Read, Write};
    use std::thread;
    use std::time::{Duration, Instant};

    use godot_serde_multiplayer::godot3::websocket::Ws3Peer;
    use godot_serde_multiplayer::websocket::WsPeer;
    use godot_serde_multiplayer::{Limits, ProtocolError, Settings, WsLimits};

    use super::ws::{self, Dialect, Raw, Seen, Server};
    use super::{HEAP, alone};

    const MIB: usize = 1 << 20;

    /// A well-behaved client of `dialect` joins the server at `addr` (serviced by another
    /// thread) and returns the id it was given.
    fn join(dialect: Dialect, addr: std::net::SocketAddr) -> Result<i32, String> {
        let url = format!("ws://{addr}/");
        let start = Instant::now();
        match dialect {
            Dialect::Godot4 => {
                let mut c = WsPeer::client(addr, &url, Settings::default())
                    .map_err(|e| format!("handshake: {e}"))?;
                while start.elapsed() < ws::PATIENCE {
                    c.service().map_err(|e| e.to_string())?;
                    while let Some(e) = c.poll_event() {
                        if e == godot_serde_multiplayer::Event::PeerConnected(1) {
                            return Ok(c.session().unique_id());
                        }
                    }
                    thread::sleep(Duration::from_millis(1));
                }
            }
            Dialect::Godot3 => {
                let mut c = Ws3Peer::client(addr, &url, Limits::default())
                    .map_err(|e| format!("handshake: {e}"))?;
                while start.elapsed() < ws::PATIENCE {
                    c.service().map_err(|e| e.to_string())?;
                    while let Some(e) = c.poll_event() {
                        if e == godot_serde_multiplayer::Event::PeerConnected(1) {
                            return Ok(c.session().unique_id());
                        }
                    }
                    thread::sleep(Duration::from_millis(1));
                }
            }
        }
        Err("no id".into())
    }

    /// One raw client floods the server with small RAW packets for one second, as fast as
    /// the socket takes them, while a good client joins. Godot's defaults bound what one
    /// `service()` call takes from the flooder: at most `max_queued_packets` (4,096) messages
    /// and `inbound_buffer_size` (65,535) bytes; the rest waits in TCP. Before, the first
    /// call read the flood until it stopped (2.15 s blocked and 774 MB after 2 s in release),
    /// and the good client's handshake timed out.
    #[test]
    fn a_websocket_flood_is_read_a_budget_per_call() {
        let _alone = alone();
        for dialect in ws::BOTH {
            flood(dialect);
        }
    }

    fn flood(dialect: Dialect) {
        let mut server = Server::new(dialect, Limits::default());
        let addr = server.addr();
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let mut flooder = Raw::connect(addr, &mut || server.service()).unwrap();
        let id = ws::read_id(dialect, &mut flooder, &mut || server.service());
        // 7 bytes of RAW packet (Godot 3: 13 with its header), 1,000 frames a burst.
        let message = ws::raw_packet(dialect, id, 1, &[1, 2, 3, 4, 5, 6]);
        let burst: Vec<u8> = (0..1000)
            .flat_map(|_| ws::frame(ws::BINARY, &message))
            .collect();
        let mut tcp = flooder.tcp.try_clone().unwrap();
        let flood = thread::spawn(move || {
            let start = Instant::now();
            let mut sent = 0usize;
            let mut rest = &burst[..];
            while start.elapsed() < Duration::from_secs(1) {
                if rest.is_empty() {
                    rest = &burst[..];
                }
                match tcp.write(rest) {
                    Ok(n) => {
                        rest = &rest[n..];
                        sent += n;
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        thread::sleep(Duration::from_micros(100));
                    }
                    Err(_) => break,
                }
            }
            sent
        });
        let good = thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            join(dialect, addr)
        });
        let (mut calls, mut max_messages, mut max_bytes, mut total) = (0, 0, 0, 0);
        let mut max_call = Duration::ZERO;
        let mut joined = Vec::new();
        let start = Instant::now();
        while !(flood.is_finished() && good.is_finished()) {
            let t = Instant::now();
            server.service();
            max_call = max_call.max(t.elapsed());
            calls += 1;
            let (mut messages, mut bytes) = (0, 0);
            for seen in server.events() {
                match seen {
                    Seen::Raw { from, len } if from == id => {
                        messages += 1;
                        bytes += len;
                    }
                    Seen::Connected(peer) if peer != id => joined.push(peer),
                    Seen::Error { peer, error } => panic!("{dialect:?}: peer {peer}: {error}"),
                    _ => {}
                }
            }
            max_messages = max_messages.max(messages);
            max_bytes = max_bytes.max(bytes);
            total += messages;
            assert!(
                start.elapsed() < ws::PATIENCE,
                "{dialect:?}: the flood never ends"
            );
        }
        let sent = flood.join().unwrap();
        let good_id = good.join().unwrap().unwrap_or_else(|e| {
            panic!("{dialect:?}: the good client did not join during the flood: {e}")
        });
        let peak = HEAP.peak_usage().saturating_sub(before);
        println!(
            "{dialect:?} flood: {sent} bytes sent in 1 s, {total} messages read in {calls} \
             service() calls, at most {max_messages} messages ({max_bytes} bytes) in one; \
             longest call {max_call:?}; heap peak {:.2} MiB",
            peak as f64 / MIB as f64
        );
        assert!(total > 0, "{dialect:?}: the flooder was never read");
        assert!(
            max_messages <= 4096,
            "{dialect:?}: {max_messages} messages in one call"
        );
        assert!(
            max_bytes <= 65_535,
            "{dialect:?}: {max_bytes} bytes in one call"
        );
        assert!(
            joined.contains(&good_id),
            "{dialect:?}: {joined:?}, {good_id}"
        );
        // 4,096 events of one call and two clients' buffers: a few MiB at most.
        assert!(peak < 8 * MIB, "{dialect:?}: the server held {peak} bytes");
        drop(flooder);
    }

    /// Two clients; one never reads. Godot 4: the server broadcasts RAW packets; Godot 3: the
    /// other client sends them to everyone, and the server relays them (relayed bytes count
    /// toward the receiver's outbound bound). Once the kernel's buffers are full, the silent
    /// peer's queue reaches `outbound_buffer_size` (65,535 bytes) and it is dropped with
    /// `OutboundFull`; the reading client stays. Before, the queue grew without limit (1 GiB
    /// relayed: 1.05 GB held).
    #[test]
    fn a_websocket_peer_that_never_reads_is_dropped() {
        let _alone = alone();
        for dialect in ws::BOTH {
            never_reads(dialect);
        }
    }

    fn never_reads(dialect: Dialect) {
        let mut server = Server::new(dialect, Limits::default());
        let addr = server.addr();
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let mut silent = Raw::connect(addr, &mut || server.service()).unwrap();
        let silent_id = ws::read_id(dialect, &mut silent, &mut || server.service());
        let mut talker = Raw::connect(addr, &mut || server.service()).unwrap();
        let talker_id = ws::read_id(dialect, &mut talker, &mut || server.service());
        // The talker reads everything sent to it.
        let mut reader = talker.tcp.try_clone().unwrap();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = done.clone();
        let drain = thread::spawn(move || {
            let mut chunk = vec![0u8; 1 << 16];
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                match reader.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        thread::sleep(Duration::from_micros(200));
                    }
                    Err(_) => break,
                }
            }
        });
        let payload = vec![7u8; 1024];
        let frame = ws::frame(ws::BINARY, &ws::raw_packet(dialect, talker_id, 0, &payload));
        let mut sent = 0usize;
        let mut seen = Vec::new();
        while !seen.contains(&Seen::Disconnected(silent_id)) {
            assert!(
                sent < 256 * MIB,
                "{dialect:?}: the silent peer was never dropped: {seen:?}"
            );
            for _ in 0..16 {
                match dialect {
                    Dialect::Godot4 => server.broadcast(&payload),
                    Dialect::Godot3 => talker.send(&frame, &mut || server.service()),
                }
                sent += payload.len();
            }
            server.service();
            seen.extend(
                server
                    .events()
                    .into_iter()
                    .filter(|e| !matches!(e, Seen::Raw { .. } | Seen::Connected(_) | Seen::Other)),
            );
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        drain.join().unwrap();
        let peak = HEAP.peak_usage().saturating_sub(before);
        println!(
            "{dialect:?} never reads: dropped after {:.1} MiB sent to it, heap peak {:.2} MiB",
            sent as f64 / MIB as f64,
            peak as f64 / MIB as f64
        );
        assert_eq!(
            seen,
            [
                Seen::Error {
                    peer: silent_id,
                    error: ProtocolError::OutboundFull {
                        peer: silent_id,
                        limit: 65_535
                    }
                },
                Seen::Disconnected(silent_id)
            ],
            "{dialect:?}"
        );
        assert!(peak < 4 * MIB, "{dialect:?}: the server held {peak} bytes");
        // The silent peer's connection is closed, after what the kernel had taken.
        let start = Instant::now();
        while !silent.closed() {
            assert!(
                start.elapsed() < ws::PATIENCE,
                "{dialect:?}: the silent peer's socket stays open"
            );
        }
        drop(talker);
    }

    /// Connections each holding half of a maximal message (a frame header announcing
    /// 65,535 bytes, then 32,768 of them): N = 8 against 4N = 32 connections. What each
    /// holds stays under the inbound part of the documented bound (twice
    /// `inbound_buffer_size`, plus 8 KiB: the frame being read and the message it continues,
    /// and the read buffer), and
    /// with `max_peers` at 4N the next connections are refused, while `service()` goes on.
    /// Before: 1 MiB messages, 128 KiB read buffers, no cap (400 connections held 262 MB).
    #[test]
    fn websocket_connections_are_capped_and_small() {
        let _alone = alone();
        for dialect in ws::BOTH {
            connections(dialect);
        }
    }

    const N: usize = 8;

    fn connections(dialect: Dialect) {
        let limits = Limits::default().with_websocket(WsLimits::default().with_max_peers(4 * N));
        let mut server = Server::new(dialect, limits);
        let addr = server.addr();
        let mut clients = Vec::new();
        let base = HEAP.current_usage();
        let held_n = hold(dialect, &mut server, &mut clients, N) - base as isize;
        let held_4n = hold(dialect, &mut server, &mut clients, 4 * N) - base as isize;
        let per_connection = (held_4n - held_n) / (3 * N) as isize;
        println!(
            "{dialect:?}: {N} connections hold {held_n} bytes, {} hold {held_4n}: \
             {per_connection} bytes per connection",
            4 * N
        );
        assert!(
            (0..2 * 65_535 + 8 * 1024).contains(&per_connection),
            "{dialect:?}: {per_connection} bytes per connection"
        );
        // The cap: the next connections are closed during their handshake.
        for _ in 0..4 {
            let refused = Raw::connect(addr, &mut || server.service());
            assert!(
                refused.is_err(),
                "{dialect:?}: a connection above max_peers"
            );
        }
        let connected = server
            .events()
            .iter()
            .filter(|e| matches!(e, Seen::Connected(_)))
            .count();
        assert_eq!(connected, 0, "{dialect:?}");
        drop(clients);
    }

    /// Opens connections until there are `count`, each holding half a message; the heap in
    /// use once the server has read them.
    fn hold(dialect: Dialect, server: &mut Server, clients: &mut Vec<Raw>, count: usize) -> isize {
        let addr = server.addr();
        let mut half = vec![0x80 | ws::BINARY];
        ws::header_len(&mut half, 65_535);
        half.extend_from_slice(&[0, 0, 0, 0]);
        half.resize(half.len() + 32_768, 0);
        while clients.len() < count {
            let mut c = Raw::connect(addr, &mut || server.service()).unwrap();
            ws::read_id(dialect, &mut c, &mut || server.service());
            c.send(&half, &mut || server.service());
            clients.push(c);
        }
        for _ in 0..50 {
            server.service();
            thread::sleep(Duration::from_millis(2));
        }
        let events = server.events();
        assert!(
            !events.iter().any(|e| matches!(e, Seen::Disconnected(_))),
            "{dialect:?}: {events:?}"
        );
        HEAP.current_usage() as isize
    }
}

#[cfg(feature = "enet")]
use crate::raw_enet;

/// What hostile ENet peers can make a server of either dialect hold or do, over real UDP
/// sockets on 127.0.0.1, with the default [`EnetLimits`](godot_serde_multiplayer::EnetLimits).
#[cfg(feature = "enet")]
mod enet {
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    use godot_serde_multiplayer::enet::EnetPeer;
    use godot_serde_multiplayer::godot3::enet::Enet3Peer;
    use godot_serde_multiplayer::godot3::wire::EnetHeader;
    use godot_serde_multiplayer::{Event, Limits, ProtocolError, Settings, TransferMode};

    use super::raw_enet::Raw;
    use super::{HEAP, alone};

    const MIB: usize = 1 << 20;
    /// How long a test waits for what it expects before it fails.
    const PATIENCE: Duration = Duration::from_secs(20);

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Dialect {
        Godot4,
        Godot3,
    }

    const BOTH: [Dialect; 2] = [Dialect::Godot4, Dialect::Godot3];

    impl Dialect {
        /// The ENet channels a client opens: Godot 4 every one, Godot 3 its three.
        fn channels(self) -> usize {
            match self {
                Dialect::Godot4 => 255,
                Dialect::Godot3 => 3,
            }
        }

        /// The ENet channel of reliable data packets (`SYSCH_RELIABLE`).
        fn reliable(self) -> u8 {
            match self {
                Dialect::Godot4 => 0,
                Dialect::Godot3 => 1,
            }
        }

        /// The ENet channel of unreliable data packets (`SYSCH_UNRELIABLE`).
        fn unreliable(self) -> u8 {
            match self {
                Dialect::Godot4 => 1,
                Dialect::Godot3 => 2,
            }
        }

        /// A RAW packet of `data` from `id` to `target` (Godot 3: the ENet header first):
        /// Godot 4's `NETWORK_COMMAND_RAW` is 3, Godot 3's is 4.
        fn raw(self, id: u32, target: i32, data: &[u8]) -> Vec<u8> {
            match self {
                Dialect::Godot4 => [&[3u8][..], data].concat(),
                Dialect::Godot3 => EnetHeader {
                    source: id as i32,
                    target,
                }
                .frame(&[&[4u8][..], data].concat()),
            }
        }
    }

    /// What the tests look at of a server's events.
    #[derive(Debug, Clone, PartialEq)]
    enum Seen {
        Connected(i32),
        Disconnected(i32),
        Raw { from: i32, len: usize },
        Error { peer: i32, error: ProtocolError },
        Other,
    }

    enum Server {
        Godot4(Box<EnetPeer>),
        Godot3(Box<Enet3Peer>),
    }

    impl Server {
        fn new(dialect: Dialect) -> Self {
            let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
            match dialect {
                Dialect::Godot4 => Server::Godot4(Box::new(
                    EnetPeer::server(addr, 8, Settings::default()).unwrap(),
                )),
                Dialect::Godot3 => Server::Godot3(Box::new(
                    Enet3Peer::server(addr, 8, Limits::default()).unwrap(),
                )),
            }
        }

        fn addr(&self) -> SocketAddr {
            match self {
                Server::Godot4(s) => s.local_addr().unwrap(),
                Server::Godot3(s) => s.local_addr().unwrap(),
            }
        }

        /// One `service()` call: never an error for what a peer did.
        fn service(&mut self) {
            match self {
                Server::Godot4(s) => s.service().unwrap(),
                Server::Godot3(s) => s.service().unwrap(),
            }
        }

        fn events(&mut self) -> Vec<Seen> {
            let mut seen = Vec::new();
            match self {
                Server::Godot4(s) => {
                    while let Some(e) = s.poll_event() {
                        seen.push(match e {
                            Event::PeerConnected(p) => Seen::Connected(p),
                            Event::PeerDisconnected(p) => Seen::Disconnected(p),
                            Event::Raw { from, data, .. } => Seen::Raw {
                                from,
                                len: data.len(),
                            },
                            Event::Error { peer, error } => Seen::Error { peer, error },
                            _ => Seen::Other,
                        });
                    }
                }
                Server::Godot3(s) => {
                    while let Some(e) = s.poll_event() {
                        seen.push(match e {
                            godot_serde_multiplayer::Event::PeerConnected(p) => Seen::Connected(p),
                            godot_serde_multiplayer::Event::PeerDisconnected(p) => {
                                Seen::Disconnected(p)
                            }
                            godot_serde_multiplayer::Event::Raw { from, data, .. } => Seen::Raw {
                                from,
                                len: data.len(),
                            },
                            godot_serde_multiplayer::Event::Error { peer, error } => {
                                Seen::Error { peer, error }
                            }
                            _ => Seen::Other,
                        });
                    }
                }
            }
            seen
        }

        /// Sends `data` as a reliable RAW packet to `peer`.
        fn send_to(&mut self, peer: i32, data: &[u8]) {
            match self {
                Server::Godot4(s) => s
                    .session()
                    .send_bytes(peer, data, TransferMode::Reliable, 0)
                    .unwrap(),
                Server::Godot3(s) => s.session().send_bytes(peer, data, false).unwrap(),
            }
        }

        /// Sends `data` as a reliable RAW packet to every client.
        fn broadcast(&mut self, data: &[u8]) {
            match self {
                Server::Godot4(s) => s
                    .session()
                    .send_bytes(0, data, TransferMode::Reliable, 0)
                    .unwrap(),
                Server::Godot3(s) => s.session().send_bytes(0, data, false).unwrap(),
            }
        }
    }

    /// A well-behaved client of `dialect` joins the server at `addr` (serviced by another
    /// thread), sends it a 5-byte RAW packet, and returns its id.
    /// Joins, sends one RAW packet, and keeps servicing (retransmitting, acknowledging) until
    /// the server has seen it (`seen`): a fixed wait after sending lost the packet to the
    /// flood on a loaded machine.
    fn join_and_send(dialect: Dialect, addr: SocketAddr, seen: &AtomicBool) -> Result<i32, String> {
        let start = Instant::now();
        let mut sent_at = None;
        match dialect {
            Dialect::Godot4 => {
                let mut c =
                    EnetPeer::client(addr, Settings::default()).map_err(|e| e.to_string())?;
                while start.elapsed() < PATIENCE {
                    c.service().map_err(|e| e.to_string())?;
                    while let Some(e) = c.poll_event() {
                        if e == Event::PeerConnected(1) {
                            c.session()
                                .send_bytes(1, b"hello", TransferMode::Reliable, 0)
                                .map_err(|e| e.to_string())?;
                            sent_at = Some(Instant::now());
                        }
                    }
                    // Serviced until the server has it.
                    if sent_at.is_some() && seen.load(Ordering::Acquire) {
                        return Ok(c.session().unique_id());
                    }
                    thread::sleep(Duration::from_millis(1));
                }
            }
            Dialect::Godot3 => {
                let mut c =
                    Enet3Peer::client(addr, Limits::default()).map_err(|e| e.to_string())?;
                while start.elapsed() < PATIENCE {
                    c.service().map_err(|e| e.to_string())?;
                    while let Some(e) = c.poll_event() {
                        if e == godot_serde_multiplayer::Event::PeerConnected(1) {
                            c.session()
                                .send_bytes(1, b"hello", false)
                                .map_err(|e| e.to_string())?;
                            sent_at = Some(Instant::now());
                        }
                    }
                    if sent_at.is_some() && seen.load(Ordering::Acquire) {
                        return Ok(c.session().unique_id());
                    }
                    thread::sleep(Duration::from_millis(1));
                }
            }
        }
        Err("never connected".into())
    }

    /// One raw ENet client floods the server with 2-byte unreliable RAW packets (Godot 3:
    /// 10 with its header) for one second, 256 queued at a time, as fast as its socket takes
    /// them, while a good client joins and sends a RAW packet. Each `service()` call takes
    /// at most `packets_per_call` (8,192) events and 128 KiB of datagrams; the heap (the
    /// server's, and the clients' few packets at a time) stays under 8 MiB; the good
    /// client's packet arrives. Before: up to 153,024 packets in one call, 35 to 70 MiB.
    #[test]
    fn an_enet_flood_is_read_a_budget_per_call() {
        let _alone = alone();
        for dialect in BOTH {
            flood(dialect);
        }
    }

    fn flood(dialect: Dialect) {
        let mut server = Server::new(dialect);
        let addr = server.addr();
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let flooder_id = 77u32;
        let flooder = thread::spawn(move || {
            let mut raw = Raw::connect(addr, flooder_id, dialect.channels());
            let packet = dialect.raw(flooder_id, 1, &[9]);
            let start = Instant::now();
            let mut queued = 0usize;
            while start.elapsed() < Duration::from_secs(1) {
                raw.flood(dialect.unreliable(), &packet, 256);
                raw.service();
                raw.received.clear();
                queued += 256;
            }
            queued
        });
        let good_seen = Arc::new(AtomicBool::new(false));
        let seen_by_server = Arc::clone(&good_seen);
        let good = thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            join_and_send(dialect, addr, &seen_by_server)
        });
        let (mut calls, mut total, mut most) = (0usize, 0usize, 0usize);
        let mut longest = Duration::ZERO;
        let mut seen = Vec::new();
        let start = Instant::now();
        while !(flooder.is_finished() && good.is_finished()) {
            let t = Instant::now();
            server.service();
            longest = longest.max(t.elapsed());
            calls += 1;
            let events = server.events();
            let from_flooder = events
                .iter()
                .filter(|e| matches!(e, Seen::Raw { from: 77, .. }))
                .count();
            most = most.max(from_flooder);
            total += from_flooder;
            seen.extend(
                events
                    .into_iter()
                    .filter(|e| !matches!(e, Seen::Raw { from: 77, .. })),
            );
            if seen.iter().any(|e| matches!(e, Seen::Raw { len: 5, .. })) {
                good_seen.store(true, Ordering::Release);
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{dialect:?}: the flood never ends"
            );
        }
        let queued = flooder.join().unwrap();
        let good_id = good
            .join()
            .unwrap()
            .unwrap_or_else(|e| panic!("{dialect:?}: the good client: {e}"));
        // What was still on its way.
        for _ in 0..200 {
            server.service();
            seen.extend(
                server
                    .events()
                    .into_iter()
                    .filter(|e| !matches!(e, Seen::Raw { from: 77, .. })),
            );
            thread::sleep(Duration::from_millis(1));
        }
        let peak = HEAP.peak_usage().saturating_sub(before);
        println!(
            "ENet {dialect:?} flood: {queued} packets queued by the flooder in 1 s, {total} \
             received in {calls} service() calls, at most {most} in one; longest call \
             {longest:?}; heap peak {:.2} MiB",
            peak as f64 / MIB as f64
        );
        assert!(total > 0, "{dialect:?}: the flooder was never read");
        assert!(most <= 8_192, "{dialect:?}: {most} packets in one call");
        assert!(
            seen.contains(&Seen::Connected(good_id))
                && seen.contains(&Seen::Raw {
                    from: good_id,
                    len: 5
                }),
            "{dialect:?}: the good client {good_id}: {seen:?}"
        );
        assert!(peak < 8 * MIB, "{dialect:?}: the server held {peak} bytes");
    }

    /// A client that stops acknowledging (it connects, then is never serviced again) while
    /// 1 KiB reliable packets are sent to it: Godot 4's server broadcasts them, Godot 3's
    /// relays those another client sends to everyone. Each counts 1,024 + 256 bytes until
    /// acknowledged, so past `outbound_buffer_size` (1 MiB), about 820 packets, the silent
    /// peer is dropped with `OutboundFull`, then disconnected; the other client stays.
    /// Before, ENet kept them all until it timed the peer out (5 to 30 s).
    #[test]
    fn an_enet_peer_that_stops_acknowledging_is_dropped() {
        let _alone = alone();
        for dialect in BOTH {
            silent(dialect);
        }
    }

    fn silent(dialect: Dialect) {
        let mut server = Server::new(dialect);
        let addr = server.addr();
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let connect = |server: &mut Server, id: u32| {
            let raw = thread::spawn(move || Raw::connect(addr, id, dialect.channels()));
            while !raw.is_finished() {
                server.service();
                thread::sleep(Duration::from_millis(1));
            }
            raw.join().unwrap()
        };
        let silent = connect(&mut server, 50);
        let mut talker = connect(&mut server, 60);
        let payload = vec![7u8; 1023];
        let packet = dialect.raw(60, 0, &payload);
        let mut sent = 0usize;
        let mut seen = Vec::new();
        let start = Instant::now();
        while !seen.contains(&Seen::Disconnected(50)) {
            assert!(
                sent < 64 * MIB && start.elapsed() < PATIENCE,
                "{dialect:?}: the silent peer was never dropped: {seen:?}"
            );
            for _ in 0..16 {
                match dialect {
                    Dialect::Godot4 => server.broadcast(&payload),
                    Dialect::Godot3 => talker.send(dialect.reliable(), &packet),
                }
                sent += payload.len() + 1;
            }
            server.service();
            talker.service();
            talker.received.clear();
            seen.extend(
                server
                    .events()
                    .into_iter()
                    .filter(|e| !matches!(e, Seen::Raw { .. } | Seen::Connected(_) | Seen::Other)),
            );
        }
        let peak = HEAP.peak_usage().saturating_sub(before);
        println!(
            "ENet {dialect:?} stops acknowledging: dropped after {:.2} MiB sent to it, heap \
             peak {:.2} MiB",
            sent as f64 / MIB as f64,
            peak as f64 / MIB as f64
        );
        assert_eq!(
            seen,
            [
                Seen::Error {
                    peer: 50,
                    error: ProtocolError::OutboundFull {
                        peer: 50,
                        limit: MIB
                    }
                },
                Seen::Disconnected(50)
            ],
            "{dialect:?}"
        );
        // 1 MiB for the silent peer, as much again for the talker at most, and ENet's own.
        assert!(peak < 4 * MIB, "{dialect:?}: the server held {peak} bytes");
        drop(silent);
    }

    /// A client sends one 8 MiB reliable packet (2,000-odd fragments), above
    /// `max_packet_size` (1 MiB): ENet refuses its first fragment, which announces the
    /// total, so nothing of it is held or delivered, while another client's packet arrives.
    /// Before, ENet allocated the 8 MiB at the first fragment (its limit was 32 MiB) and
    /// delivered the packet. The sender (in this process) queues its packet while the server
    /// is not serviced, so that the heap counted from then on is the server's (and the good
    /// client's).
    #[test]
    fn an_enet_packet_above_the_limit_is_refused() {
        let _alone = alone();
        for dialect in BOTH {
            huge(dialect);
        }
    }

    fn huge(dialect: Dialect) {
        let mut server = Server::new(dialect);
        let addr = server.addr();
        let (go, wait_go) = std::sync::mpsc::channel::<()>();
        let (queued, wait_queued) = std::sync::mpsc::channel::<()>();
        let sender = thread::spawn(move || {
            let mut raw = Raw::connect(addr, 40, dialect.channels());
            wait_go.recv().unwrap();
            raw.send(dialect.reliable(), &dialect.raw(40, 1, &vec![5u8; 8 * MIB]));
            queued.send(()).unwrap();
            raw.pump(Duration::from_secs(1));
        });
        let mut seen = Vec::new();
        let start = Instant::now();
        while !seen.contains(&Seen::Connected(40)) {
            assert!(
                start.elapsed() < PATIENCE,
                "{dialect:?}: the sender never joined"
            );
            server.service();
            seen.extend(server.events());
            thread::sleep(Duration::from_millis(1));
        }
        go.send(()).unwrap();
        wait_queued.recv().unwrap();
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let good_seen = Arc::new(AtomicBool::new(false));
        let seen_by_server = Arc::clone(&good_seen);
        let good = thread::spawn(move || join_and_send(dialect, addr, &seen_by_server));
        while !(sender.is_finished() && good.is_finished()) {
            assert!(start.elapsed() < PATIENCE, "{dialect:?}: never done");
            server.service();
            seen.extend(server.events());
            if seen.iter().any(|e| matches!(e, Seen::Raw { len: 5, .. })) {
                good_seen.store(true, Ordering::Release);
            }
            thread::sleep(Duration::from_millis(1));
        }
        sender.join().unwrap();
        let good_id = good
            .join()
            .unwrap()
            .unwrap_or_else(|e| panic!("{dialect:?}: the good client: {e}"));
        let peak = HEAP.peak_usage().saturating_sub(before);
        println!(
            "ENet {dialect:?} 8 MiB packet: heap peak {:.2} MiB",
            peak as f64 / MIB as f64
        );
        assert!(
            !seen.iter().any(|e| matches!(e, Seen::Raw { from: 40, .. })),
            "{dialect:?}: the packet above the limit was delivered"
        );
        assert!(
            seen.contains(&Seen::Raw {
                from: good_id,
                len: 5
            }),
            "{dialect:?}: {seen:?}"
        );
        assert!(peak < 2 * MIB, "{dialect:?}: the server held {peak} bytes");
    }

    /// A packet of ours above `max_packet_size` (1 MiB): not sent, `SendTooLarge` for that
    /// peer, which stays and receives the next packet. The packet's size is the RAW payload
    /// plus its command byte (Godot 3: plus the 8-byte ENet header). Before, it was sent
    /// (ENet allowed 32 MiB).
    #[test]
    fn an_enet_packet_of_ours_above_the_limit_is_not_sent() {
        let _alone = alone();
        for dialect in BOTH {
            ours_too_large(dialect);
        }
    }

    fn ours_too_large(dialect: Dialect) {
        let mut server = Server::new(dialect);
        let addr = server.addr();
        let raw = thread::spawn(move || Raw::connect(addr, 30, dialect.channels()));
        while !raw.is_finished() {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let mut raw = raw.join().unwrap();
        // The client saw the handshake end; the server's session may not have been told yet.
        let mut seen = server.events();
        let start = Instant::now();
        while !seen.contains(&Seen::Connected(30)) {
            assert!(
                start.elapsed() < PATIENCE,
                "{dialect:?}: never joined: {seen:?}"
            );
            server.service();
            seen.extend(server.events());
            thread::sleep(Duration::from_millis(1));
        }
        server.send_to(30, &vec![1u8; 2 * MIB]);
        server.send_to(30, b"after");
        let header = match dialect {
            Dialect::Godot4 => 1,
            Dialect::Godot3 => 9,
        };
        let start = Instant::now();
        while !raw
            .received
            .iter()
            .any(|(_, data)| data.ends_with(b"after"))
        {
            assert!(
                start.elapsed() < PATIENCE,
                "{dialect:?}: nothing arrived: {seen:?}"
            );
            server.service();
            seen.extend(server.events());
            raw.service();
            thread::sleep(Duration::from_millis(1));
        }
        seen.extend(server.events());
        let errors: Vec<_> = seen
            .iter()
            .filter(|e| matches!(e, Seen::Error { .. } | Seen::Disconnected(_)))
            .collect();
        assert_eq!(
            errors,
            [&Seen::Error {
                peer: 30,
                error: ProtocolError::SendTooLarge {
                    peer: 30,
                    size: 2 * MIB + header,
                    limit: MIB
                }
            }],
            "{dialect:?}"
        );
        assert!(
            raw.received.iter().all(|(_, data)| data.len() < MIB),
            "{dialect:?}: the packet above the limit was sent"
        );
    }

    /// A Godot 4 server with `user_channels` 2 opens 4 ENet channels (`SYSCH_MAX` 2 + 2, as
    /// Godot's `create_server(port, max_clients, 2)`): a client asking for 255 gets 4, and its
    /// packets on user channel 2 (ENet channel 3) arrive. Each channel a peer has can hold
    /// what `max_waiting_data` does not count; by default (0) there are 255, as in Godot.
    #[test]
    fn a_godot4_enet_server_opens_the_channels_it_is_told() {
        let _alone = alone();
        let mut settings = Settings::default();
        settings.limits = Limits::default()
            .with_enet(godot_serde_multiplayer::EnetLimits::default().with_user_channels(2));
        let mut server =
            Box::new(EnetPeer::server("127.0.0.1:0".parse().unwrap(), 8, settings).unwrap());
        let addr = server.local_addr().unwrap();
        let raw = thread::spawn(move || Raw::connect(addr, 20, 255));
        while !raw.is_finished() {
            server.service().unwrap();
            thread::sleep(Duration::from_millis(1));
        }
        let mut raw = raw.join().unwrap();
        assert_eq!(raw.channel_count(), 4);
        raw.send(3, &[3, 42]);
        let start = Instant::now();
        let mut events = Vec::new();
        while !events.iter().any(|e| matches!(e, Event::Raw { .. })) {
            assert!(start.elapsed() < PATIENCE, "{events:?}");
            server.service().unwrap();
            raw.service();
            while let Some(e) = server.poll_event() {
                events.push(e);
            }
            thread::sleep(Duration::from_millis(1));
        }
        assert!(
            events.contains(&Event::Raw {
                from: 20,
                data: vec![42],
                channel: 2,
                mode: TransferMode::Reliable
            }),
            "{events:?}"
        );
    }

    /// By default a Godot 4 server opens every channel, as Godot's.
    #[test]
    fn a_godot4_enet_server_opens_every_channel_by_default() {
        let _alone = alone();
        let mut server = Server::new(Dialect::Godot4);
        let addr = server.addr();
        let raw = thread::spawn(move || Raw::connect(addr, 21, 255));
        while !raw.is_finished() {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(raw.join().unwrap().channel_count(), 255);
    }

    /// What no bound covers: empty reliable packets held out of order. A client sends, by
    /// hand, empty reliable packets with sequence numbers 2 to 28,671 on 4 ENet channels,
    /// the first one (1) never: ENet keeps them all (7 reliable windows of 4,096 a channel)
    /// and counts 0 bytes of waiting data. The server's heap grows by ENet's records only;
    /// this measures them per channel, and holds it under 8 MiB.
    #[test]
    fn empty_out_of_order_packets_cost_enet_records_per_channel() {
        let _alone = alone();
        let mut server = Server::new(Dialect::Godot4);
        let addr = server.addr();
        let raw = thread::spawn(move || Raw::connect(addr, 22, 255));
        while !raw.is_finished() {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let mut raw = raw.join().unwrap();
        for _ in 0..50 {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let before = HEAP.current_usage();
        let forger = thread::spawn(move || {
            for channel in 2..6 {
                raw.forge_reliable(addr, channel, 2, 28_670, 0);
            }
            raw
        });
        while !forger.is_finished() {
            server.service();
        }
        for _ in 0..500 {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let held = HEAP.current_usage().saturating_sub(before);
        let events = server.events();
        let per_channel = held / 4;
        println!(
            "4 channels of 28,670 empty out-of-order packets: {:.2} MiB held, {:.2} MiB a \
             channel, {} bytes a packet; events: {}",
            held as f64 / MIB as f64,
            per_channel as f64 / MIB as f64,
            per_channel / 28_670,
            events.len()
        );
        assert!(
            held > MIB,
            "nothing held: the packets were refused ({held} bytes)"
        );
        assert!(per_channel < 8 * MIB, "{per_channel} bytes a channel");
        drop(forger.join().unwrap());
    }

    /// One-byte reliable packets held out of order (sequence numbers 2 to 28,671 on 8 ENet
    /// channels, 229,360 packets, 1 never sent) count 1 byte each toward `max_waiting_data`,
    /// so ENet's records (117 bytes each, measured above) cost over 100 times what they
    /// count: with the default of 64 KiB ENet keeps at most 65,536 of them, about 9 MiB.
    /// Before (ENet's 32 MiB, as Godot), it kept them all.
    #[test]
    fn tiny_out_of_order_packets_stop_at_the_waiting_bound() {
        let _alone = alone();
        let mut server = Server::new(Dialect::Godot4);
        let addr = server.addr();
        let raw = thread::spawn(move || Raw::connect(addr, 23, 255));
        while !raw.is_finished() {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let mut raw = raw.join().unwrap();
        for _ in 0..50 {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let forger = thread::spawn(move || {
            for channel in 2..10 {
                raw.forge_reliable(addr, channel, 2, 28_670, 1);
            }
            raw
        });
        while !forger.is_finished() {
            server.service();
        }
        for _ in 0..500 {
            server.service();
            thread::sleep(Duration::from_millis(1));
        }
        let held = HEAP.current_usage().saturating_sub(before);
        let peak = HEAP.peak_usage().saturating_sub(before);
        let delivered = server
            .events()
            .iter()
            .filter(|e| matches!(e, Seen::Raw { .. }))
            .count();
        println!(
            "8 channels of 28,670 one-byte out-of-order packets: {:.2} MiB held, peak {:.2} MiB",
            held as f64 / MIB as f64,
            peak as f64 / MIB as f64
        );
        assert_eq!(delivered, 0);
        assert!(
            held > MIB,
            "nothing held: the packets were refused ({held} bytes)"
        );
        assert!(peak < 12 * MIB, "the server held {peak} bytes");
        drop(forger.join().unwrap());
    }

    /// A packet of 1,000,000 bytes, below `max_packet_size` (1 MiB) but far above
    /// `max_waiting_data` (64 KiB), arrives whole: ENet checks the waiting bound before it
    /// adds a packet, at its first fragment, so one packet of any allowed size passes.
    #[test]
    fn an_enet_packet_above_the_waiting_bound_but_within_the_size_arrives() {
        let _alone = alone();
        for dialect in BOTH {
            let mut server = Server::new(dialect);
            let addr = server.addr();
            let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let stop = done.clone();
            let sender = thread::spawn(move || {
                let mut raw = Raw::connect(addr, 24, dialect.channels());
                let payload = vec![6u8; 1_000_000 - dialect.raw(24, 1, &[]).len()];
                raw.send(dialect.reliable(), &dialect.raw(24, 1, &payload));
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    raw.pump(Duration::from_millis(10));
                }
            });
            let mut seen = Vec::new();
            let start = Instant::now();
            while !seen.iter().any(|e| matches!(e, Seen::Raw { from: 24, .. })) {
                assert!(start.elapsed() < PATIENCE, "{dialect:?}: {seen:?}");
                server.service();
                seen.extend(server.events());
                thread::sleep(Duration::from_millis(1));
            }
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            // The RAW payload: the packet less its command byte (Godot 3: and ENet header).
            let header = dialect.raw(24, 1, &[]).len();
            assert!(
                seen.contains(&Seen::Raw {
                    from: 24,
                    len: 1_000_000 - header
                }),
                "{dialect:?}: {seen:?}"
            );
            sender.join().unwrap();
        }
    }
}

/// A typed call read straight from the packet holds nothing but the value itself: no
/// `Variant`s, no buffer of the arguments. Budget derived by hand: the name's 10 bytes and
/// the 8 keys' 64 bytes (`Vec<i64>` sized by the Array's count), 74 in all.
#[test]
fn typed_arguments_hold_only_the_value() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Input {
        name: String,
        dir: godot_serde::Vector2,
        seq: i64,
        jump: bool,
        keys: Vec<i64>,
    }
    let _alone = alone();
    let input = Input {
        name: "player_one".into(),
        dir: godot_serde::Vector2::new(0.5, -0.5),
        seq: 123_456,
        jump: true,
        keys: vec![87, 65, 83, 68, 32, 16, 17, 69],
    };
    let mut packet = Vec::new();
    godot_serde_multiplayer::args::write_call(&mut packet, 1, None, 0, &input).unwrap();
    let wire::Packet::RemoteCall { args, .. } = wire::parse(&packet).unwrap() else {
        panic!("not a call")
    };
    // The counter is process-wide: a thread another test left (a client finishing its
    // disconnect) can add to one measurement, never take from it, so the least of three is
    // the decode's own.
    let held = (0..3)
        .map(|_| {
            let base = HEAP.current_usage();
            HEAP.reset_peak_usage();
            let typed: Input = godot_serde_multiplayer::args::decode(&args).unwrap();
            let held = HEAP.peak_usage().saturating_sub(base);
            drop(typed);
            held
        })
        .min()
        .unwrap_or(usize::MAX);
    let base = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let list = args.decode().unwrap();
    let via_variants: Input = godot_serde_multiplayer::args::from_arguments("m", &list).unwrap();
    let held_variants = HEAP.peak_usage().saturating_sub(base);
    drop((via_variants, list));
    println!("typed decode peak: {held} bytes; through Variants: {held_variants} bytes");
    assert!(held <= 74, "{held} bytes");
}
