//! Hostile peers: malformed packets of every command, forged counts and lengths, endless
//! path-cache ids, unknown nodes and methods, relay to missing peers, peers that never
//! authenticate. Each gets a clear per-peer error or the engine's silent drop, never a panic.

use godot_serde_multiplayer::wire::{self, Packet};
use godot_serde_multiplayer::{
    Event, Limits, Output, ProtocolError, RpcMethod, RpcTable, Session, Settings, TransferMode,
};

fn lobby() -> RpcTable {
    RpcTable::new("Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::authority("welcome"))
}

fn simplify(id: u32, path: &str) -> Vec<u8> {
    let mut p = Vec::new();
    wire::write_simplify_path(&mut p, lobby().md5(), id, path);
    p
}

fn server() -> Session {
    let mut s = Session::server(Settings::default());
    s.declare(lobby());
    s.connected(2, crate::clock::at_ms(0));
    while s.poll_event().is_some() {}
    s
}

/// The session's per-peer errors, and for each call the error its arguments decode to (a
/// call keeps its argument bytes undecoded: `args_of` reports that error as the caller's).
fn errors(s: &mut Session) -> Vec<ProtocolError> {
    std::iter::from_fn(|| s.poll_event())
        .filter_map(|e| match e {
            Event::Error { error, .. } => Some(error),
            Event::Rpc(call) => call.variants().err(),
            _ => None,
        })
        .collect()
}

/// One valid packet of each command the parser knows.
fn valid_packets() -> Vec<Vec<u8>> {
    vec![
        simplify(1, "Lobby"),
        vec![0x02, 1, 1, 0, 0, 0],
        vec![0x00, 1, 0, 2, 0x02, 5, 0x81],
        vec![0x20, 7, 0, 0, 0x80, 0, 0, b'L', b'o', b'b', b'b', b'y', 0],
        vec![0x80, 1, 0, 1, 2, 3],
        vec![3, 1, 2, 3],
        vec![7, 0, b'x'],
        vec![7, 1, 9, 0, 0, 0],
        vec![7, 2, 9, 0, 0, 0],
        vec![7, 3, 9, 0, 0, 0, 3, 1],
        vec![0, 1, 0, 1, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0],
    ]
}

#[test]
fn every_prefix_of_every_command_is_an_error_or_a_value() {
    for packet in valid_packets() {
        for end in 0..packet.len() {
            let prefix = &packet[..end];
            // Never a panic; the empty packet and cut headers are errors with an offset.
            let parsed = wire::parse(prefix);
            if let Ok(Packet::RemoteCall { args, .. }) = &parsed {
                let _ = args.decode();
            }
            let mut s = server();
            s.receive(2, 0, TransferMode::Reliable, prefix);
        }
    }
    assert_eq!(wire::parse(&[]).unwrap_err(), ProtocolError::Empty);
    assert_eq!(
        wire::parse(&[0x20, 1]).unwrap_err().to_string(),
        "truncated REMOTE_CALL packet: 4 bytes needed at byte 1, 2 in the packet"
    );
}

#[test]
fn forged_counts_and_lengths_fail_with_an_offset() {
    let mut s = server();
    s.receive(2, 0, TransferMode::Reliable, &simplify(1, "Lobby"));
    // 255 arguments announced, one byte present.
    s.receive(2, 0, TransferMode::Reliable, &[0, 1, 0, 255, 0x81]);
    // A String argument claiming 2^31 - 1 bytes.
    s.receive(
        2,
        0,
        TransferMode::Reliable,
        &[0, 1, 0, 1, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, b'a'],
    );
    // An int claiming 64 bits with 2 bytes present; a type id above Godot's.
    s.receive(2, 0, TransferMode::Reliable, &[0, 1, 0, 1, 0xc2, 1, 2]);
    s.receive(2, 0, TransferMode::Reliable, &[0, 1, 0, 1, 0x3f]);
    // A path offset outside the packet.
    s.receive(
        2,
        0,
        TransferMode::Reliable,
        &[0x20, 0xff, 0, 0, 0x80, 0, 0],
    );
    // Node-id compression mode 3 (undefined).
    s.receive(2, 0, TransferMode::Reliable, &[0x30, 1, 0, 0]);
    let errs = errors(&mut s);
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        text[0],
        "truncated REMOTE_CALL packet: 1 bytes needed at byte 5, 5 in the packet"
    );
    assert!(text[1].starts_with("argument 0 at byte 4: "), "{}", text[1]);
    assert!(
        text[2].starts_with("argument 0 at byte 4: int needs 8 bytes"),
        "{}",
        text[2]
    );
    assert!(
        text[3].starts_with("argument 0 at byte 4: unknown type id 63"),
        "{}",
        text[3]
    );
    assert!(
        text[4].starts_with("invalid node path offset at byte 1"),
        "{}",
        text[4]
    );
    assert_eq!(
        text[5],
        "invalid node id compression at byte 0: mode 3 is not defined"
    );
    assert_eq!(errs.len(), 6);
}

#[test]
fn endless_path_cache_ids_stop_at_the_limit() {
    let limits = Limits::default().with_max_cached_paths(64);
    let mut s = Session::server(Settings::default().with_limits(limits));
    s.declare(lobby());
    s.connected(2, crate::clock::at_ms(0));
    for id in 0..10_000u32 {
        s.receive(2, 0, TransferMode::Reliable, &simplify(id, "Lobby"));
    }
    let confirms = std::iter::from_fn(|| s.poll_output()).count();
    assert_eq!(confirms, 64);
    let errs = errors(&mut s);
    assert_eq!(errs.len(), 10_000 - 64);
    assert_eq!(errs[0], ProtocolError::PathCacheFull { peer: 2, limit: 64 });
    // Reusing an id is refused as Godot does.
    let mut s = server();
    s.receive(2, 0, TransferMode::Reliable, &simplify(5, "Lobby"));
    s.receive(2, 0, TransferMode::Reliable, &simplify(5, "Lobby"));
    assert_eq!(
        errors(&mut s),
        [ProtocolError::DuplicateCacheId { peer: 2, id: 5 }]
    );
}

#[test]
fn unknown_nodes_ids_and_methods() {
    let mut s = server();
    s.receive(2, 0, TransferMode::Reliable, &simplify(1, "Nowhere"));
    s.receive(2, 0, TransferMode::Reliable, &[0, 9, 0, 0]);
    s.receive(2, 0, TransferMode::Reliable, &simplify(1, "Lobby"));
    s.receive(2, 0, TransferMode::Reliable, &[0, 1, 7, 0]);
    // A 16-bit method id with bit 15 (Godot's native-node ids): no such method here.
    s.receive(2, 0, TransferMode::Reliable, &[0x40, 1, 0, 0x80, 0]);
    let text: Vec<String> = errors(&mut s).iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "peer 2 names node \"Nowhere\", which has no declared RPC table",
            "peer 2 used path-cache id 9, which it never announced",
            "peer 2 called method id 7 on node \"Lobby\", which has 2 RPC methods [\"chat\", \"welcome\"]",
            "peer 2 called method id 32768 on node \"Lobby\", which has 2 RPC methods [\"chat\", \"welcome\"]",
        ]
    );
}

#[test]
fn relay_to_missing_peers_and_forged_sys() {
    let mut s = server();
    // To a peer that does not exist: dropped, as Godot does.
    s.receive(2, 0, TransferMode::Reliable, &[7, 3, 99, 0, 0, 0, 3, 1]);
    assert_eq!(s.poll_output(), None);
    // A client cannot announce peers to the server, nor send unknown SYS commands.
    s.receive(2, 0, TransferMode::Reliable, &[7, 1, 9, 0, 0, 0]);
    s.receive(2, 0, TransferMode::Reliable, &[7, 9, 9, 0, 0, 0]);
    // A relayed SYS packet is not a command SceneMultiplayer processes.
    s.receive(
        2,
        0,
        TransferMode::Reliable,
        &[7, 3, 0, 0, 0, 0, 7, 1, 5, 0, 0, 0],
    );
    let errs = errors(&mut s);
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert_eq!(errs[1], ProtocolError::UnknownSys(9));
    assert_eq!(errs[2], ProtocolError::UnknownCommand(7));
    // Relay switched off: RELAY is refused.
    let mut s = Session::server(Settings::default().with_relay(false));
    s.connected(2, crate::clock::at_ms(0));
    s.connected(3, crate::clock::at_ms(0));
    while s.poll_output().is_some() {}
    s.receive(2, 0, TransferMode::Reliable, &[7, 3, 3, 0, 0, 0, 3, 1]);
    assert_eq!(s.poll_output(), None);
    assert!(matches!(
        errors(&mut s).as_slice(),
        [ProtocolError::State { .. }]
    ));
}

#[test]
fn short_replication_commands_are_reported_not_crashed() {
    let mut s = server();
    for packet in [[4u8, 0], [5, 0], [6, 0]] {
        s.receive(2, 0, TransferMode::Reliable, &packet);
    }
    let errs = errors(&mut s);
    // The engine's minimum sizes: SPAWN 18, DESPAWN 5, SYNC 11 bytes.
    assert_eq!(
        errs,
        [
            ProtocolError::Truncated {
                command: "SPAWN",
                offset: 2,
                needed: 16,
                len: 2
            },
            ProtocolError::Truncated {
                command: "DESPAWN",
                offset: 1,
                needed: 4,
                len: 2
            },
            ProtocolError::Truncated {
                command: "SYNC",
                offset: 2,
                needed: 9,
                len: 2
            },
        ]
    );
}

#[test]
fn a_thousand_peers_that_never_authenticate_are_dropped() {
    let mut s = Session::server(
        Settings::default()
            .with_auth(true)
            .with_auth_timeout_ms(3000),
    );
    s.declare(lobby());
    for peer in 2..1002 {
        s.connected(peer, crate::clock::at_ms(u64::from(peer as u32)));
        // Anything before authenticating is refused.
        s.receive(peer, 0, TransferMode::Reliable, &[0, 1, 0, 0]);
    }
    assert_eq!(s.authenticating().count(), 1000);
    s.handle_timeout(crate::clock::at_ms(5000));
    let outs: Vec<Output> = std::iter::from_fn(|| s.poll_output()).collect();
    assert_eq!(outs.len(), 1000);
    assert!(outs.iter().all(|o| matches!(o, Output::Disconnect(_))));
    assert_eq!(s.authenticating().count(), 0);
    let failed = std::iter::from_fn(|| s.poll_event())
        .filter(|e| matches!(e, Event::AuthenticationFailed(_)))
        .count();
    assert_eq!(failed, 1000);
}

#[test]
fn random_packets_never_panic() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut s = server();
    s.receive(2, 0, TransferMode::Reliable, &simplify(1, "Lobby"));
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let mut p: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Some(first) = p.first_mut() {
            *first &= 0xf7; // every command, every flag
        }
        s.receive(2, 0, TransferMode::Reliable, &p);
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
}

#[cfg(feature = "websocket")]
use crate::ws;

/// Hostile WebSocket connections over real sockets on 127.0.0.1, both dialects.
#[cfg(feature = "websocket")]
mod websocket {
    use std::net::TcpStream;
    use std::process::Command;
    use std::time::{Duration, Instant};

    use godot_serde_multiplayer::godot3::websocket::Ws3Peer;
    use godot_serde_multiplayer::websocket::WsPeer;
    use godot_serde_multiplayer::{Limits, ProtocolError, Settings, WsLimits};

    use super::ws::{self, Dialect, Raw, Seen, Server};

    /// A client of either dialect that only services its connection (its WebSocket layer
    /// answers pings). One per test: its size does not matter.
    #[allow(clippy::large_enum_variant)]
    enum Client {
        Godot4(WsPeer),
        Godot3(Ws3Peer),
    }

    impl Client {
        fn join(dialect: Dialect, server: &mut Server, limits: Limits) -> Client {
            let addr = server.addr();
            let url = format!("ws://{addr}/");
            // The handshake blocks: the server runs on another thread meanwhile.
            std::thread::scope(|s| {
                let c = s.spawn(|| match dialect {
                    Dialect::Godot4 => Client::Godot4(
                        WsPeer::client(addr, &url, Settings::default().with_limits(limits))
                            .unwrap(),
                    ),
                    Dialect::Godot3 => Client::Godot3(Ws3Peer::client(addr, &url, limits).unwrap()),
                });
                while !c.is_finished() {
                    server.service();
                }
                c.join().unwrap()
            })
        }

        fn service(&mut self) {
            match self {
                Client::Godot4(c) => c.service().unwrap(),
                Client::Godot3(c) => c.service().unwrap(),
            }
        }

        fn connected(&mut self) -> bool {
            match self {
                Client::Godot4(c) => c.session().peers().any(|p| p == 1),
                Client::Godot3(c) => c.session().peers().any(|p| p == 1),
            }
        }
    }

    /// With a 500 ms idle timeout: a connection that sends half a message and then nothing is
    /// pinged after half of it, then dropped with `TimedOut`; one that sends the first
    /// fragment of a message and then only pings is dropped with `Unfinished`; a client that
    /// sends nothing but answers pings stays. Before, there was no idle timeout: 400
    /// connections holding half a message were all open after 12 s.
    #[test]
    fn silent_websocket_connections_time_out() {
        // Short for the test, long enough for a loaded machine to answer a ping in half of it.
        const IDLE_MS: u64 = 500;
        for dialect in ws::BOTH {
            let limits =
                Limits::default().with_websocket(WsLimits::default().with_idle_timeout_ms(IDLE_MS));
            let mut server = Server::new(dialect, limits);
            let addr = server.addr();
            let mut good = Client::join(dialect, &mut server, limits);
            let mut half = Raw::connect(addr, &mut || server.service()).unwrap();
            let id = ws::read_id(dialect, &mut half, &mut || server.service());
            // A frame header announcing 1,000 bytes, and 500 of them.
            let mut frame = vec![0x80 | ws::BINARY];
            ws::header_len(&mut frame, 1000);
            frame.extend_from_slice(&[0; 4 + 500]);
            half.send(&frame, &mut || server.service());
            // A peer that sends the first fragment of a message (FIN clear, 10 bytes), then
            // only pings, every 50 ms: never silent, its message never finished.
            let mut fragments = Raw::connect(addr, &mut || server.service()).unwrap();
            let fragments_id = ws::read_id(dialect, &mut fragments, &mut || server.service());
            let mut first = vec![ws::BINARY, 0x80 | 10];
            first.extend_from_slice(&[0; 4 + 10]);
            fragments.send(&first, &mut || server.service());
            let ping = ws::frame(ws::PING, &[]);
            let mut pinged = Instant::now();
            let start = Instant::now();
            let mut seen = Vec::new();
            // Until both are dropped, and three timeouts more for the good client.
            while start.elapsed() < Duration::from_millis(3 * IDLE_MS)
                || !seen.contains(&Seen::Disconnected(id))
                || !seen.contains(&Seen::Disconnected(fragments_id))
            {
                assert!(start.elapsed() < ws::PATIENCE, "{dialect:?}: {seen:?}");
                if pinged.elapsed() > Duration::from_millis(50) {
                    let _ = std::io::Write::write_all(&mut fragments.tcp, &ping);
                    pinged = Instant::now();
                }
                server.service();
                good.service();
                seen.extend(
                    server
                        .events()
                        .into_iter()
                        .filter(|e| !matches!(e, Seen::Connected(_) | Seen::Other)),
                );
                std::thread::sleep(Duration::from_millis(2));
            }
            // Each peer's error, then its disconnection (the two peers in either order).
            let of = |peer: i32| -> Vec<&Seen> {
                seen.iter()
                    .filter(|e| matches!(e, Seen::Error { peer: p, .. } | Seen::Disconnected(p) if *p == peer))
                    .collect()
            };
            assert_eq!(seen.len(), 4, "{dialect:?}: {seen:?}");
            assert_eq!(
                of(id),
                [
                    &Seen::Error {
                        peer: id,
                        error: ProtocolError::TimedOut {
                            peer: id,
                            ms: IDLE_MS
                        }
                    },
                    &Seen::Disconnected(id),
                ],
                "{dialect:?}"
            );
            assert_eq!(
                of(fragments_id),
                [
                    &Seen::Error {
                        peer: fragments_id,
                        error: ProtocolError::Unfinished {
                            peer: fragments_id,
                            ms: IDLE_MS
                        }
                    },
                    &Seen::Disconnected(fragments_id),
                ],
                "{dialect:?}"
            );
            assert!(
                good.connected(),
                "{dialect:?}: the client answering pings was dropped"
            );
            // What the silent one was sent after its id: a ping with no payload (0x89 0x00),
            // then the end of the connection.
            let mut frames = Vec::new();
            while let Some(frame) = half.next_frame(&mut || server.service()) {
                frames.push(frame);
            }
            let pings: Vec<_> = frames.iter().filter(|(op, _)| *op == ws::PING).collect();
            assert_eq!(pings, [&(ws::PING, Vec::new())], "{dialect:?}: {frames:?}");
        }
    }

    /// Eight peers have 2,000 RAW packets each waiting in their sockets. With 100 messages
    /// per peer and 300 per call, every call reads exactly 300, three peers' worth, and
    /// round-robin: each peer is read at least every third call until it has none left.
    /// Before, one call read all 16,000.
    #[test]
    fn websocket_peers_are_read_round_robin_within_the_call_budget() {
        const PEERS: usize = 8;
        const EACH: usize = 2000;
        for dialect in ws::BOTH {
            let limits = Limits::default().with_websocket(
                WsLimits::default()
                    .with_max_queued_packets(100)
                    .with_packets_per_call(300),
            );
            let mut server = Server::new(dialect, limits);
            let addr = server.addr();
            let mut peers = Vec::new();
            for _ in 0..PEERS {
                let mut raw = Raw::connect(addr, &mut || server.service()).unwrap();
                let id = ws::read_id(dialect, &mut raw, &mut || server.service());
                peers.push((id, raw));
            }
            server.events();
            // Everything is in the sockets before the server reads any of it (26 KB each).
            for (id, raw) in &mut peers {
                let message = ws::raw_packet(dialect, *id, 1, &[1, 2, 3, 4, 5, 6]);
                let burst: Vec<u8> = (0..EACH)
                    .flat_map(|_| ws::frame(ws::BINARY, &message))
                    .collect();
                raw.send(&burst, &mut || {});
            }
            std::thread::sleep(Duration::from_millis(100));
            let mut left: std::collections::HashMap<i32, usize> =
                peers.iter().map(|(id, _)| (*id, EACH)).collect();
            let mut last_read: std::collections::HashMap<i32, usize> =
                peers.iter().map(|(id, _)| (*id, 0)).collect();
            let mut call = 0;
            while left.values().any(|&n| n > 0) {
                call += 1;
                assert!(call < 1000, "{dialect:?}: {left:?}");
                // What the peers can deliver in this call: 100 each, 300 in all.
                let expected = left.values().map(|&n| n.min(100)).sum::<usize>().min(300);
                server.service();
                let mut read = 0;
                for seen in server.events() {
                    match seen {
                        Seen::Raw { from, .. } => {
                            read += 1;
                            *left.get_mut(&from).unwrap() -= 1;
                            last_read.insert(from, call);
                        }
                        Seen::Error { peer, error } => panic!("{dialect:?}: {peer}: {error}"),
                        _ => {}
                    }
                }
                assert_eq!(read, expected, "{dialect:?}: call {call}");
                for (id, n) in &left {
                    if *n > 0 {
                        assert!(
                            call - last_read[id] < 3,
                            "{dialect:?}: peer {id} not read since call {}, now {call}",
                            last_read[id]
                        );
                    }
                }
            }
            // 16,000 messages at 300 a call.
            assert_eq!(call, (PEERS * EACH).div_ceil(300), "{dialect:?}");
        }
    }

    /// A frame announcing 65,536 bytes, one more than Godot's `inbound_buffer_size`: the peer
    /// is dropped with `MessageTooLarge` and sent a close frame with code 1009 ("Message too
    /// big", RFC 6455 section 7.4.1), as Godot closes it. A message of ours above the
    /// outbound bound is not sent (`SendTooLarge`) and its peer stays. Before, messages up to
    /// 1 MiB were taken.
    #[test]
    fn websocket_messages_above_the_bounds() {
        for dialect in ws::BOTH {
            let mut server = Server::new(dialect, Limits::default());
            let addr = server.addr();
            let mut big = Raw::connect(addr, &mut || server.service()).unwrap();
            let id = ws::read_id(dialect, &mut big, &mut || server.service());
            let mut other = Raw::connect(addr, &mut || server.service()).unwrap();
            let other_id = ws::read_id(dialect, &mut other, &mut || server.service());
            server.events();
            let mut header = vec![0x80 | ws::BINARY];
            ws::header_len(&mut header, 65_536);
            header.extend_from_slice(&[0; 4]);
            big.send(&header, &mut || server.service());
            // Ours: 65,536 bytes of RAW payload, 65,537 with the command byte (Godot 3: 65,546
            // with the header too).
            server.broadcast(&[1; 65_536]);
            let start = Instant::now();
            let mut seen = Vec::new();
            while seen.len() < 3 {
                assert!(start.elapsed() < ws::PATIENCE, "{dialect:?}: {seen:?}");
                server.service();
                seen.extend(
                    server
                        .events()
                        .into_iter()
                        .filter(|e| !matches!(e, Seen::Other)),
                );
            }
            let size = match dialect {
                Dialect::Godot4 => 65_537,
                Dialect::Godot3 => 65_546,
            };
            // The call reads first (the big one is dropped), then sends to who is left.
            let expected = [
                Seen::Error {
                    peer: id,
                    error: ProtocolError::MessageTooLarge {
                        peer: id,
                        size: 65_536,
                        limit: 65_535,
                    },
                },
                Seen::Disconnected(id),
                Seen::Error {
                    peer: other_id,
                    error: ProtocolError::SendTooLarge {
                        peer: other_id,
                        size,
                        limit: 65_535,
                    },
                },
            ];
            assert_eq!(seen, expected, "{dialect:?}");
            // After what was sent to it before (Godot 4: the relay's notice that the other
            // peer joined), a close frame: code 1009 (0x03F1), then the reason.
            let (opcode, payload) = std::iter::from_fn(|| big.next_frame(&mut || server.service()))
                .find(|(opcode, _)| *opcode != ws::BINARY)
                .unwrap();
            assert_eq!(
                (opcode, &payload[..2]),
                (0x8, &[0x03, 0xF1][..]),
                "{dialect:?}"
            );
            assert_eq!(&payload[2..], b"Message too big", "{dialect:?}");
            // The other peer is still served: a small broadcast reaches it.
            server.broadcast(&[2; 16]);
            server.service();
            // (After the relay's notices, Godot 4, or SYS_DEL, Godot 3, of the dropped peer.)
            let got = std::iter::from_fn(|| other.next_frame(&mut || server.service()))
                .find(|(opcode, payload)| *opcode == ws::BINARY && payload.ends_with(&[2; 16]));
            assert!(got.is_some(), "{dialect:?}");
        }
    }

    /// Whether `tcp` (non-blocking) has been closed by the server: end of stream or an error,
    /// not `WouldBlock`.
    fn closed(tcp: &mut TcpStream) -> bool {
        let mut byte = [0u8; 1];
        !matches!(std::io::Read::read(tcp, &mut byte),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
    }

    /// Connects `n` clients that never send their request, servicing after each.
    fn silent_clients(server: &mut Server, n: usize) -> Vec<TcpStream> {
        let addr = server.addr();
        (0..n)
            .map(|_| {
                let tcp = TcpStream::connect(addr).unwrap();
                tcp.set_nonblocking(true).unwrap();
                for _ in 0..20 {
                    server.service();
                }
                tcp
            })
            .collect()
    }

    /// Services until every connection in `tcps` is closed, within `ws::PATIENCE`.
    fn until_closed(server: &mut Server, tcps: &mut [TcpStream], what: &str) {
        let start = Instant::now();
        for tcp in tcps {
            while !closed(tcp) {
                server.service();
                assert!(start.elapsed() < ws::PATIENCE, "{what}: never closed");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// Handshakes in progress are bounded three ways. With `max_pending` 2, a third connection
    /// that never sends its request closes the oldest one and takes its place (so such
    /// connections cannot keep new clients out). With `max_pending_per_address` 2, a third one
    /// from the same address is closed at once and the two stay. After the 800 ms handshake
    /// timeout the others are closed too, and a client completes its handshake. Before, there
    /// was no cap; then a full cap refused every new connection.
    #[test]
    fn websocket_handshakes_are_capped_and_time_out() {
        for dialect in ws::BOTH {
            let what = format!("{dialect:?}");
            // The global cap: the oldest handshake makes room.
            let limits = Limits::default().with_websocket(
                WsLimits::default()
                    .with_max_pending(2)
                    .with_handshake_timeout_ms(800),
            );
            let mut server = Server::new(dialect, limits);
            let mut silent = silent_clients(&mut server, 3);
            until_closed(
                &mut server,
                &mut silent[..1],
                &format!("{what}: the oldest"),
            );
            assert!(!closed(&mut silent[1]) && !closed(&mut silent[2]), "{what}");
            until_closed(&mut server, &mut silent[1..], &format!("{what}: timeout"));
            let addr = server.addr();
            let mut raw = Raw::connect(addr, &mut || server.service()).unwrap();
            assert!(ws::read_id(dialect, &mut raw, &mut || server.service()) > 1);

            // The cap per address: the newest from a full address is refused.
            let limits = Limits::default().with_websocket(
                WsLimits::default()
                    .with_max_pending_per_address(2)
                    .with_handshake_timeout_ms(800),
            );
            let mut server = Server::new(dialect, limits);
            let mut silent = silent_clients(&mut server, 3);
            until_closed(
                &mut server,
                &mut silent[2..],
                &format!("{what}: per address"),
            );
            assert!(!closed(&mut silent[0]) && !closed(&mut silent[1]), "{what}");
            until_closed(&mut server, &mut silent[..2], &format!("{what}: timeout"));
            let addr = server.addr();
            let mut raw = Raw::connect(addr, &mut || server.service()).unwrap();
            assert!(ws::read_id(dialect, &mut raw, &mut || server.service()) > 1);
        }
    }

    const CHILD: &str = "GODOT_SERDE_WS_DESCRIPTORS";

    /// With 64 file descriptors, connections that the server has not accepted yet take every
    /// one left, so that `accept` fails (EMFILE). `service()` keeps returning `Ok`; once the
    /// descriptors are free, a client connects and gets its id. The scenario runs in a child
    /// process (this test binary again, under `ulimit -n 64`). Before, `service()` returned
    /// `Err(Io("Too many open files"))`, and the README's `server.service()?` ended the server.
    #[cfg(unix)]
    #[test]
    fn running_out_of_descriptors_is_not_the_servers_error() {
        if let Ok(dialect) = std::env::var(CHILD) {
            return descriptors(match dialect.as_str() {
                "3" => Dialect::Godot3,
                _ => Dialect::Godot4,
            });
        }
        let exe = std::env::current_exe().unwrap();
        // This test's name in the harness: its module path without the test binary's name.
        let module = module_path!().split_once("::").map_or("", |(_, m)| m);
        let name = format!("{module}::running_out_of_descriptors_is_not_the_servers_error");
        for dialect in ["4", "3"] {
            let out = Command::new("sh")
                .arg("-c")
                .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
                .arg(&exe)
                .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
                .env(CHILD, dialect)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "Godot {dialect}: {text}");
            assert!(text.contains("1 passed"), "Godot {dialect}: {text}");
        }
    }

    fn descriptors(dialect: Dialect) {
        let mut server = Server::new(dialect, Limits::default());
        let addr = server.addr();
        let mut held = Vec::new();
        let error = loop {
            match TcpStream::connect_timeout(&addr, ws::PATIENCE) {
                Ok(s) => held.push(s),
                Err(e) => break e,
            }
            assert!(held.len() < 64, "the descriptor limit is not in force");
        };
        // EMFILE: this process has no descriptor left, so `accept` fails the same way.
        assert_eq!(error.raw_os_error(), Some(24), "{error}");
        assert!(held.len() > 40, "{} connections", held.len());
        for _ in 0..100 {
            server.service();
        }
        assert!(
            server.events().is_empty(),
            "{dialect:?}: nothing was accepted"
        );
        drop(held);
        let mut raw = Raw::connect(addr, &mut || server.service()).unwrap();
        let id = ws::read_id(dialect, &mut raw, &mut || server.service());
        assert!(id > 1, "{dialect:?}: {id}");
        println!("{dialect:?}: connected as {id} after EMFILE");
    }
}
