//! `wss://` and the upgrade check, sans engine: Rust clients join a TLS server (the
//! self-signed certificate of `tests/fixtures/`), an upgrade check refuses or accepts them
//! before they become peers (`ws://` and `wss://`), and hostile TLS connections (a handshake
//! never finished, garbage instead of a ClientHello, an oversized ClientHello, many at once, a
//! message over the bound) are each that connection's business while `service` goes on.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::tls::{TlsClientConfig, TlsConfig};
use godot_serde_multiplayer::websocket::{HandshakeStats, Upgrade, WsPeer};
use godot_serde_multiplayer::{Event, Limits, ProtocolError, Settings, TransferMode, WsLimits};

/// How long any wait here may last before the test fails (a loaded machine).
const PATIENCE: Duration = Duration::from_secs(20);

pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The test certificate and key.
pub fn server_tls() -> TlsConfig {
    TlsConfig::from_pem_files(fixture("test-cert.pem"), fixture("test-key.pem")).unwrap()
}

/// A client trusting the test certificate alone.
pub fn client_tls() -> TlsClientConfig {
    TlsClientConfig::from_root_pem_file(fixture("test-cert.pem")).unwrap()
}

fn any_addr() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

/// The upgrade check of these tests: `?token=good` or `Authorization: Bearer good` upgrades,
/// no token is 401, another token 403.
fn token_check(server: WsPeer) -> WsPeer {
    server.with_upgrade_auth(|request| {
        let bearer = request
            .header("authorization")
            .and_then(|h| h.strip_prefix("Bearer "));
        match request.query_value("token").or(bearer) {
            Some("good") => Upgrade::Accept,
            Some(_) => Upgrade::Forbidden,
            None => Upgrade::Unauthorized,
        }
    })
}

/// What a peer's events said, drained.
#[derive(Default, Debug)]
struct Seen {
    connected: Vec<i32>,
    raw: Vec<(i32, Vec<u8>)>,
    errors: Vec<(i32, ProtocolError)>,
    disconnected: Vec<i32>,
}

fn drain(peer: &mut WsPeer, seen: &mut Seen) {
    peer.service().unwrap();
    while let Some(event) = peer.poll_event() {
        match event {
            Event::PeerConnected(id) => seen.connected.push(id),
            Event::Raw { from, data, .. } => seen.raw.push((from, data)),
            Event::Error { peer, error } => seen.errors.push((peer, error)),
            Event::PeerDisconnected(id) => seen.disconnected.push(id),
            _ => {}
        }
    }
}

/// Services `server` and `client` until `done` says so, within `PATIENCE`.
fn pump(
    server: &mut WsPeer,
    s: &mut Seen,
    client: &mut WsPeer,
    c: &mut Seen,
    what: &str,
    done: impl Fn(&Seen, &Seen) -> bool,
) {
    let start = Instant::now();
    while !done(s, c) {
        drain(server, s);
        drain(client, c);
        assert!(
            start.elapsed() < PATIENCE,
            "{what}: server {s:?}, client {c:?}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A Rust client joins the TLS server over `wss://localhost`, checking the certificate
/// against the fixture as its only root, gets its id and trades a packet each way.
#[test]
fn a_wss_client_joins_and_trades_packets() {
    let mut server = WsPeer::server_tls(any_addr(), server_tls(), Settings::default()).unwrap();
    let addr = server.local_addr().unwrap();
    let url = format!("wss://localhost:{}/game", addr.port());
    let mut client = WsPeer::client_tls(addr, &url, &client_tls(), Settings::default()).unwrap();
    let (mut s, mut c) = (Seen::default(), Seen::default());
    pump(&mut server, &mut s, &mut client, &mut c, "join", |s, c| {
        !s.connected.is_empty() && c.connected.contains(&1)
    });
    let id = s.connected[0];
    assert!(id > 1);
    client
        .session()
        .send_bytes(1, b"over tls", TransferMode::Reliable, 0)
        .unwrap();
    server
        .session()
        .send_bytes(id, &[7; 3000], TransferMode::Reliable, 0)
        .unwrap();
    pump(&mut server, &mut s, &mut client, &mut c, "trade", |s, c| {
        !s.raw.is_empty() && !c.raw.is_empty()
    });
    assert_eq!(s.raw, [(id, b"over tls".to_vec())]);
    assert_eq!(c.raw, [(1, vec![7; 3000])]);
    assert!(s.errors.is_empty() && c.errors.is_empty(), "{s:?} {c:?}");
    assert_eq!(
        server.transport().handshake_stats(),
        HandshakeStats::default()
    );
}

/// A client that trusts other roots refuses the server's certificate: its connection fails
/// (an error for peer 1), the server counts a failed handshake and no peer.
#[test]
fn a_client_refuses_an_untrusted_certificate() {
    let mut server = WsPeer::server_tls(any_addr(), server_tls(), Settings::default()).unwrap();
    let addr = server.local_addr().unwrap();
    // Trusts a certificate for another name: the fixture's, but asked for `example.com`.
    let url = format!("wss://example.com:{}/", addr.port());
    let mut client = WsPeer::client_tls(addr, &url, &client_tls(), Settings::default()).unwrap();
    let (mut s, mut c) = (Seen::default(), Seen::default());
    pump(
        &mut server,
        &mut s,
        &mut client,
        &mut c,
        "refusal",
        |s, c| !c.errors.is_empty() && s.connected.is_empty(),
    );
    assert!(
        c.errors[0].1.to_string().contains("certificate"),
        "{:?}",
        c.errors
    );
    let start = Instant::now();
    while server.transport().handshake_stats().failed == 0 {
        drain(&mut server, &mut s);
        assert!(start.elapsed() < PATIENCE);
    }
    assert!(s.connected.is_empty());
}

/// The upgrade check over `ws://` and `wss://`: no token gets 401, a wrong one 403, each
/// before a peer exists (no id, no `PeerConnected`, the client's connection fails); a good
/// token, in the query or an `Authorization` header, joins. Without the check
/// (`with_upgrade_auth`), every one of them joined.
#[test]
fn the_upgrade_check_refuses_before_a_peer_exists() {
    for tls in [false, true] {
        let settings = Settings::default().with_auth(false);
        let server = if tls {
            WsPeer::server_tls(any_addr(), server_tls(), settings.clone()).unwrap()
        } else {
            WsPeer::server(any_addr(), settings.clone()).unwrap()
        };
        let mut server = token_check(server);
        let addr = server.local_addr().unwrap();
        let scheme = if tls { "wss" } else { "ws" };
        let client = |query: &str| {
            let url = format!("{scheme}://localhost:{}/play{query}", addr.port());
            if tls {
                WsPeer::client_tls(addr, &url, &client_tls(), settings.clone()).unwrap()
            } else {
                WsPeer::client(addr, &url, settings.clone()).unwrap()
            }
        };
        let mut s = Seen::default();
        for (query, status) in [("", "401"), ("?token=bad", "403")] {
            let mut c = Seen::default();
            let mut refused = client(query);
            pump(&mut server, &mut s, &mut refused, &mut c, status, |_, c| {
                !c.errors.is_empty()
            });
            assert!(
                c.errors[0].1.to_string().contains(status),
                "{scheme} {query}: {:?}",
                c.errors
            );
        }
        let start = Instant::now();
        while server.transport().handshake_stats().refused < 2 {
            drain(&mut server, &mut s);
            assert!(start.elapsed() < PATIENCE, "{scheme}");
        }
        assert!(s.connected.is_empty(), "{scheme}: {s:?}");
        assert_eq!(server.session().peers().count(), 0);
        let mut c = Seen::default();
        let mut good = client("?token=good");
        pump(&mut server, &mut s, &mut good, &mut c, "good", |s, c| {
            !s.connected.is_empty() && c.connected.contains(&1)
        });
        assert_eq!(s.connected.len(), 1, "{scheme}");
        let stats = server.transport().handshake_stats();
        assert_eq!((stats.refused, stats.failed), (2, 0), "{scheme}");
        // A raw request with the token in a header, the answer read by hand.
        if !tls {
            let mut tcp = TcpStream::connect(addr).unwrap();
            tcp.write_all(
                b"GET /play HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                  Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
                  Authorization: Bearer good\r\n\r\n",
            )
            .unwrap();
            let head = read_head(&mut tcp, &mut server, &mut s);
            assert!(head.starts_with("HTTP/1.1 101"), "{head}");
            let start = Instant::now();
            while s.connected.len() < 2 {
                drain(&mut server, &mut s);
                assert!(start.elapsed() < PATIENCE);
            }
        }
    }
}

/// The HTTP answer's head on `tcp`, servicing the server meanwhile.
fn read_head(tcp: &mut TcpStream, server: &mut WsPeer, s: &mut Seen) -> String {
    tcp.set_nonblocking(true).unwrap();
    let mut buf = Vec::new();
    let start = Instant::now();
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        drain(server, s);
        let mut chunk = [0; 1024];
        match tcp.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("{e}"),
        }
        assert!(start.elapsed() < PATIENCE);
        std::thread::sleep(Duration::from_millis(1));
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// Whether `tcp` (non-blocking) was closed by the server: end of stream or an error.
fn closed(tcp: &mut TcpStream) -> bool {
    let mut buf = [0u8; 4096];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => return true,
            // The server's answer (a TLS alert): read on.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(_) => return true,
        }
    }
}

/// Services until every connection in `tcps` is closed, within `PATIENCE`.
fn until_closed(server: &mut WsPeer, s: &mut Seen, tcps: &mut [TcpStream], what: &str) {
    let start = Instant::now();
    for tcp in tcps {
        while !closed(tcp) {
            drain(server, s);
            assert!(start.elapsed() < PATIENCE, "{what}: never closed");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The first bytes of a TLS 1.2 ClientHello record announcing 200 bytes: a handshake begun
/// and never finished.
const HALF_HELLO: [u8; 9] = [0x16, 0x03, 0x01, 0x00, 0xC8, 0x01, 0x00, 0x00, 0xC4];

/// A `wss://` server with the WebSocket limits `ws` (the rest default), and its address.
fn tls_server(ws: WsLimits) -> (WsPeer, SocketAddr) {
    let limits = Limits::default().with_websocket(ws);
    let server = WsPeer::server_tls(
        any_addr(),
        server_tls(),
        Settings::default().with_limits(limits),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    (server, addr)
}

/// A `wss://localhost` client of the server at `addr`, trusting the test CA.
fn tls_client(addr: SocketAddr) -> WsPeer {
    let url = format!("wss://localhost:{}/", addr.port());
    WsPeer::client_tls(addr, &url, &client_tls(), Settings::default()).unwrap()
}

/// A [`tls_client`] of `server`, pumped until both sides see it joined; it and what it saw.
fn joined_client(server: &mut WsPeer, s: &mut Seen, what: &str) -> (WsPeer, Seen) {
    let mut client = tls_client(server.local_addr().unwrap());
    let before = s.connected.len();
    let mut c = Seen::default();
    pump(server, s, &mut client, &mut c, what, |s, c| {
        s.connected.len() > before && c.connected.contains(&1)
    });
    (client, c)
}

/// Then a good client joins, whatever the hostile connections before it did.
fn a_good_client_joins(server: &mut WsPeer, s: &mut Seen, what: &str) {
    joined_client(server, s, what);
}

/// Hostile TLS connections, each closed on its own while the server goes on: garbage
/// instead of a ClientHello (a plain-text WebSocket request, random bytes) and a ClientHello
/// announcing 1 MiB (rustls refuses handshake messages over 64 KiB) are closed at once and
/// counted as failed; a ClientHello begun and never finished is closed after the 800 ms
/// handshake timeout. No peer exists for any of them; a good client joins after them.
#[test]
fn garbage_oversized_and_unfinished_client_hellos_are_closed() {
    let (mut server, addr) = tls_server(WsLimits::default().with_handshake_timeout_ms(800));
    let mut s = Seen::default();
    let connect = |bytes: &[u8]| {
        let mut tcp = TcpStream::connect(addr).unwrap();
        tcp.write_all(bytes).unwrap();
        tcp.set_nonblocking(true).unwrap();
        tcp
    };
    // A plain `ws://` request and bytes that are no TLS record.
    let plain = b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n";
    let garbage: Vec<u8> = (0..200u32).map(|i| (i * 37 + 11) as u8).collect();
    // A ClientHello record whose handshake header announces 1 MiB, then a full record.
    let mut oversized = vec![0x16, 0x03, 0x01, 0x40, 0x00, 0x01, 0x10, 0x00, 0x00];
    oversized.resize(5 + 0x4000, 0);
    let mut bad = vec![connect(plain), connect(&garbage), connect(&oversized)];
    until_closed(&mut server, &mut s, &mut bad, "garbage");
    let stats = server.transport().handshake_stats();
    assert_eq!((stats.failed, stats.timed_out), (3, 0), "{stats:?}");

    let mut unfinished = vec![connect(&HALF_HELLO), connect(&[])];
    let start = Instant::now();
    until_closed(&mut server, &mut s, &mut unfinished, "unfinished");
    assert!(start.elapsed() >= Duration::from_millis(700));
    let stats = server.transport().handshake_stats();
    assert_eq!((stats.failed, stats.timed_out), (3, 2), "{stats:?}");
    assert!(s.connected.is_empty() && s.errors.is_empty(), "{s:?}");
    a_good_client_joins(&mut server, &mut s, "after the hostile ones");
}

/// Many TLS connections at once: 120 that start a ClientHello and stop, against
/// `max_pending` 16. The pending handshakes never exceed 16 (each new one closes the oldest,
/// counted as timed out), the rest time out, and a good client joins while they are there.
#[test]
fn many_unfinished_tls_handshakes_are_bounded() {
    const N: usize = 120;
    let (mut server, addr) = tls_server(
        WsLimits::default()
            .with_max_pending(16)
            .with_max_pending_per_address(1_000)
            .with_handshake_timeout_ms(1_500),
    );
    let mut s = Seen::default();
    let mut tcps: Vec<TcpStream> = (0..N)
        .map(|_| {
            let mut tcp = TcpStream::connect(addr).unwrap();
            tcp.write_all(&HALF_HELLO).unwrap();
            tcp.set_nonblocking(true).unwrap();
            drain(&mut server, &mut s);
            tcp
        })
        .collect();
    let start = Instant::now();
    while server.transport().handshake_stats().timed_out < (N - 16) as u64 {
        drain(&mut server, &mut s);
        assert!(start.elapsed() < PATIENCE);
    }
    // The oldest were closed, at most 16 are open.
    let open = tcps.iter_mut().map(closed).filter(|c| !c).count();
    assert!(open <= 16, "{open} open");
    a_good_client_joins(&mut server, &mut s, "among the unfinished");
    until_closed(&mut server, &mut s, &mut tcps, "the rest");
    // Each of the N ended evicted or timed out, both counted so; the good client opened.
    let stats = server.transport().handshake_stats();
    assert_eq!(stats.timed_out, N as u64, "{stats:?}");
    assert_eq!(s.connected.len(), 1);
}

/// The per-peer bounds hold over TLS: a `wss://` client sending a message over the server's
/// `inbound_buffer_size` (4,096) is that peer's `MessageTooLarge` and its disconnection; a
/// client that opens and then stays silent is dropped after the 600 ms idle timeout. The
/// server goes on: a good client joins after them.
#[test]
fn per_peer_bounds_hold_over_tls() {
    let (mut server, addr) = tls_server(
        WsLimits::default()
            .with_inbound_buffer_size(4_096)
            .with_idle_timeout_ms(600),
    );
    let mut s = Seen::default();
    let (mut big, mut c) = joined_client(&mut server, &mut s, "join");
    let id = s.connected[0];
    big.session()
        .send_bytes(1, &[1; 5_000], TransferMode::Reliable, 0)
        .unwrap();
    pump(
        &mut server,
        &mut s,
        &mut big,
        &mut c,
        "too large",
        |s, _| s.disconnected.contains(&id),
    );
    assert!(
        matches!(
            s.errors.as_slice(),
            [(p, ProtocolError::MessageTooLarge { limit: 4_096, .. })] if *p == id
        ),
        "{:?}",
        s.errors
    );
    assert!(s.raw.is_empty());

    // A silent TLS peer: a raw TLS client that completes the upgrade and then never reads
    // nor writes (so it answers no ping).
    let mut silent = Some(tls_client(addr));
    let mut sc = Seen::default();
    let start = Instant::now();
    while s.connected.len() < 2 {
        drain(&mut server, &mut s);
        if let Some(c) = silent.as_mut() {
            drain(c, &mut sc);
        }
        assert!(start.elapsed() < PATIENCE);
    }
    let silent_id = s.connected[1];
    let start = Instant::now();
    while !s.disconnected.contains(&silent_id) {
        drain(&mut server, &mut s);
        assert!(start.elapsed() < PATIENCE);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(start.elapsed() >= Duration::from_millis(500));
    assert!(
        s.errors
            .iter()
            .any(|(p, e)| *p == silent_id && matches!(e, ProtocolError::TimedOut { .. })),
        "{:?}",
        s.errors
    );
    drop(silent.take());
    a_good_client_joins(&mut server, &mut s, "after the bounds");
}

/// The per-call read budget bounds the decrypted bytes too, not only the encrypted ones: a
/// raw rustls client sends 16 RAW packets of 1,000 bytes in one TLS record (16 frames of
/// 1,008 bytes: 2 + 2 length + 4 mask + 1,000; 16,128 bytes of plaintext, under the 16 KiB
/// record), 20 times, against `inbound_buffer_size` 4,096. One call may then complete at most
/// 5 packets: the 4,096 bytes it reads plus at most 1,007 left over from the call before
/// make (4,096 + 1,007) / 1,008 = 5.06. Before, the call that completed a record delivered
/// all 16 of its packets.
#[test]
fn the_read_budget_bounds_decrypted_bytes_too() {
    use godot_serde_multiplayer::tls::rustls;
    let (mut server, addr) = tls_server(WsLimits::default().with_inbound_buffer_size(4_096));
    let sender = std::thread::spawn(move || {
        let config = client_tls().client_config();
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        let conn = rustls::ClientConnection::new(config, name).unwrap();
        let tcp = TcpStream::connect(addr).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        tls.write_all(
            b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .unwrap();
        tls.flush().unwrap();
        // The 101 answer, then the id message (2-byte header and 4 bytes).
        let mut got = Vec::new();
        let answered = |got: &[u8]| {
            got.windows(4)
                .position(|w| w == b"\r\n\r\n")
                .is_some_and(|end| got.len() >= end + 4 + 6)
        };
        while !answered(&got) {
            let mut chunk = [0; 512];
            let n = tls.read(&mut chunk).unwrap();
            assert!(n > 0, "closed: {}", String::from_utf8_lossy(&got));
            got.extend_from_slice(&chunk[..n]);
        }
        let mut packet = vec![3u8]; // Godot 4's RAW command
        packet.resize(1_000, 5);
        let record: Vec<u8> = (0..16)
            .flat_map(|_| {
                let mut frame = vec![0x82, 0x80 | 126];
                frame.extend_from_slice(&1_000u16.to_be_bytes());
                frame.extend_from_slice(&[0, 0, 0, 0]);
                frame.extend_from_slice(&packet);
                frame
            })
            .collect();
        assert_eq!(record.len(), 16_128);
        for _ in 0..20 {
            // One `write` is one record: rustls splits only above 16 KiB.
            tls.write_all(&record).unwrap();
            tls.flush().unwrap();
        }
        tls
    });
    let (mut received, mut most) = (0, 0);
    let start = Instant::now();
    while received < 320 {
        server.service().unwrap();
        let mut this_call = 0;
        while let Some(event) = server.poll_event() {
            match event {
                Event::Raw { data, .. } => {
                    assert_eq!(data.len(), 999);
                    this_call += 1;
                }
                Event::Error { peer, error } => panic!("peer {peer}: {error}"),
                _ => {}
            }
        }
        received += this_call;
        most = most.max(this_call);
        assert!(start.elapsed() < PATIENCE, "{received} of 320");
    }
    let _tls = sender.join().unwrap();
    assert!(most <= 5, "{most} packets in one call");
}

/// A `wss://` peer that never reads is dropped with `OutboundFull` as a `ws://` one is: the
/// server sends it 1,000-byte packets until what the socket, rustls (at most
/// `TLS_OUT_BUFFER`, 16 KiB) and the WebSocket queue (`outbound_buffer_size`, 8,192 here)
/// hold is full. The server goes on: a good client joins after it.
#[test]
fn a_wss_peer_that_never_reads_is_dropped() {
    let (mut server, _) = tls_server(WsLimits::default().with_outbound_buffer_size(8_192));
    let mut s = Seen::default();
    let (deaf, _) = joined_client(&mut server, &mut s, "join");
    let id = s.connected[0];
    // From now on the client is never serviced: nothing reads its socket.
    let start = Instant::now();
    let mut sent = 0usize;
    while !s.disconnected.contains(&id) {
        if server
            .session()
            .send_bytes(id, &[9; 1_000], TransferMode::Reliable, 0)
            .is_ok()
        {
            sent += 1_000;
        }
        drain(&mut server, &mut s);
        assert!(
            start.elapsed() < PATIENCE,
            "{sent} bytes sent, still connected"
        );
    }
    assert!(
        s.errors.iter().any(|(p, e)| *p == id
            && matches!(e, ProtocolError::OutboundFull { limit: 8_192, .. })),
        "{:?}",
        s.errors
    );
    drop(deaf);
    a_good_client_joins(&mut server, &mut s, "after the deaf one");
    println!("dropped after {sent} bytes sent to it");
}

/// `Upgrade::AcceptProtocol`: a token sent as a subprotocol (browsers cannot set headers on
/// a WebSocket) is checked, and the answer names the subprotocol chosen, as RFC 6455
/// section 4.2.2 asks; another token is refused with 403 before a peer exists.
#[test]
fn a_token_as_subprotocol_is_answered_with_the_chosen_one() {
    let mut server = WsPeer::server(any_addr(), Settings::default())
        .unwrap()
        .with_upgrade_auth(|request| {
            let offered = request.header("sec-websocket-protocol").unwrap_or("");
            let mut protocols = offered.split(',').map(str::trim);
            if protocols.any(|p| p == "token.good") {
                Upgrade::AcceptProtocol("game".into())
            } else {
                Upgrade::Forbidden
            }
        });
    let addr = server.local_addr().unwrap();
    let mut s = Seen::default();
    let request = |protocols: &str| {
        format!(
            "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Protocol: {protocols}\r\n\r\n"
        )
    };
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(request("token.good, game").as_bytes())
        .unwrap();
    let head = read_head(&mut tcp, &mut server, &mut s);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("\r\nsec-websocket-protocol: game\r\n"),
        "{head}"
    );
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(request("token.bad, game").as_bytes())
        .unwrap();
    let head = read_head(&mut tcp, &mut server, &mut s);
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    let start = Instant::now();
    while s.connected.is_empty() {
        drain(&mut server, &mut s);
        assert!(start.elapsed() < PATIENCE);
    }
    assert_eq!(s.connected.len(), 1);
    assert_eq!(server.transport().handshake_stats().refused, 1);
}

/// The cryptography of one `service` call is bounded: 10 connections each send a real
/// ClientHello at once against `tls_handshakes_per_call` 3. The first call answers (a
/// ServerHello, so a key exchange and a signature made) at most 3 of them, each later call
/// at most 3 more, and all are answered in the end. Before, the first call answered all 10
/// (and would have answered every pending one: 160 × 98 µs, about 16 ms, for 128 pending and
/// 32 accepted).
#[test]
fn tls_handshakes_per_call_are_bounded() {
    use godot_serde_multiplayer::tls::rustls;
    const N: usize = 10;
    let (mut server, addr) = tls_server(
        WsLimits::default()
            .with_tls_handshakes_per_call(3)
            .with_max_pending_per_address(N),
    );
    let config = client_tls().client_config();
    let mut tcps: Vec<TcpStream> = (0..N)
        .map(|_| {
            let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
            let mut conn = rustls::ClientConnection::new(config.clone(), name).unwrap();
            let mut hello = Vec::new();
            conn.write_tls(&mut hello).unwrap();
            let mut tcp = TcpStream::connect(addr).unwrap();
            tcp.write_all(&hello).unwrap();
            tcp.set_nonblocking(true).unwrap();
            tcp
        })
        .collect();
    // Every ClientHello is in the server's socket buffers before its first call.
    std::thread::sleep(Duration::from_millis(100));
    let mut answered = vec![false; N];
    let mut calls = 0;
    while answered.iter().any(|a| !a) {
        let before = answered.iter().filter(|a| **a).count();
        server.service().unwrap();
        calls += 1;
        std::thread::sleep(Duration::from_millis(20));
        for (tcp, answered) in tcps.iter_mut().zip(&mut answered) {
            let mut byte = [0u8; 1];
            if tcp.peek(&mut byte).is_ok_and(|n| n > 0) {
                *answered = true;
            }
        }
        let now = answered.iter().filter(|a| **a).count();
        assert!(now - before <= 3, "call {calls}: {} answered", now - before);
        assert!(calls < 50, "{now} of {N} answered after {calls} calls");
    }
    // 10 hellos at 3 per call: at least 4 calls.
    assert!(calls >= 4, "{calls}");
}

/// A `Host` runs a `wss://` transport like any other: a TLS client joins it, with the
/// upgrade check of the transport in force, and its packet reaches the host's session.
#[test]
fn a_host_runs_a_wss_transport() {
    use godot_serde_multiplayer::transport::Host;
    use godot_serde_multiplayer::websocket::WsTransport;
    let settings = Settings::default();
    let transport = WsTransport::server_tls(any_addr(), server_tls(), &settings.limits)
        .unwrap()
        .with_upgrade_auth(|request| {
            if request.query_value("token") == Some("good") {
                Upgrade::Accept
            } else {
                Upgrade::Unauthorized
            }
        });
    let addr = transport.local_addr().unwrap();
    let mut host = Host::server(settings.clone());
    host.add(transport);
    let url = format!("wss://localhost:{}/?token=good", addr.port());
    let mut client = WsPeer::client_tls(addr, &url, &client_tls(), settings).unwrap();
    let mut c = Seen::default();
    let (mut joined, mut got, mut sent) = (None, None, false);
    let start = Instant::now();
    while got.is_none() {
        host.service().unwrap();
        while let Some(event) = host.poll_event() {
            match event {
                Event::PeerConnected(id) => joined = Some(id),
                Event::Raw { from, data, .. } => got = Some((from, data)),
                Event::Error { peer, error } => panic!("peer {peer}: {error}"),
                _ => {}
            }
        }
        drain(&mut client, &mut c);
        if c.connected.contains(&1) && joined.is_some() && !sent {
            client
                .session()
                .send_bytes(1, b"via host", TransferMode::Reliable, 0)
                .unwrap();
            sent = true;
        }
        assert!(start.elapsed() < PATIENCE, "{joined:?} {c:?}");
    }
    assert_eq!(got, Some((joined.unwrap(), b"via host".to_vec())));
}
