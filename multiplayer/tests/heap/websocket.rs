//! What hostile WebSocket peers can make a server of either dialect hold (a flood, a peer
//! that never reads, connections holding half a message), over real sockets on 127.0.0.1.

use std::io::{ErrorKind, Read, Write};
use std::thread;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::godot3::websocket::Ws3Peer;
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Limits, ProtocolError, Settings, WsLimits};

use crate::dialect::serve_client;
use crate::ws::{self, Dialect, Raw, Seen, Server};
use crate::{HEAP, MIB, alone};

/// A well-behaved client of `dialect` joins the server at `addr` (serviced by another
/// thread) and returns the id it was given.
fn join(dialect: Dialect, addr: std::net::SocketAddr) -> Result<i32, String> {
    let url = format!("ws://{addr}/");
    let handshake = |e: godot_serde_multiplayer::websocket::WsError| format!("handshake: {e}");
    match dialect {
        Dialect::Godot4 => {
            let mut c = WsPeer::client(addr, &url, Settings::default()).map_err(handshake)?;
            serve_client(&mut c, ws::PATIENCE, |_| Ok(()), || true)
        }
        Dialect::Godot3 => {
            let mut c = Ws3Peer::client(addr, &url, Limits::default()).map_err(handshake)?;
            serve_client(&mut c, ws::PATIENCE, |_| Ok(()), || true)
        }
    }
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
