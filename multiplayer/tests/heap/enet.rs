//! What hostile ENet peers can make a server of either dialect hold or do, over real UDP
//! sockets on 127.0.0.1, with the default [`EnetLimits`](godot_serde_multiplayer::EnetLimits).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::wire::EnetHeader;
use godot_serde_multiplayer::{Event, Limits, ProtocolError, Settings, TransferMode};

use crate::dialect::{BOTH, Dialect, Seen, serve_client};
use crate::raw_enet::Raw;
use crate::{HEAP, MIB, alone};

/// How long a test waits for what it expects before it fails.
const PATIENCE: Duration = Duration::from_secs(20);

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

/// A server of either dialect on 127.0.0.1.
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

    /// The events since the last call.
    fn events(&mut self) -> Vec<Seen> {
        let mut seen = Vec::new();
        loop {
            let event = match self {
                Server::Godot4(s) => s.poll_event(),
                Server::Godot3(s) => s.poll_event(),
            };
            let Some(e) = event else { break };
            seen.push(Seen::from(e));
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
        self.send_to(0, data);
    }

    /// A raw client with `id` and the dialect's `channels`, connected while this server is
    /// serviced.
    fn connect(&mut self, id: u32, channels: usize) -> Raw {
        let addr = self.addr();
        connect_raw(addr, id, channels, &mut || self.service())
    }

    /// Services this server `calls` times, a millisecond apart.
    fn settle(&mut self, calls: usize) {
        for _ in 0..calls {
            self.service();
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Services this server, adding its events to `seen`, until `until(seen)`; fails after
    /// [`PATIENCE`] with `what`.
    fn wait(&mut self, seen: &mut Vec<Seen>, what: &str, until: impl Fn(&[Seen]) -> bool) {
        let start = Instant::now();
        while !until(seen) {
            assert!(start.elapsed() < PATIENCE, "{what}: {seen:?}");
            self.service();
            seen.extend(self.events());
            thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A raw client with `id` and `channels` connects to `addr` on another thread while
/// `service` runs the server.
fn connect_raw(addr: SocketAddr, id: u32, channels: usize, service: &mut dyn FnMut()) -> Raw {
    let raw = thread::spawn(move || Raw::connect(addr, id, channels));
    while !raw.is_finished() {
        service();
        thread::sleep(Duration::from_millis(1));
    }
    raw.join().unwrap()
}

/// A well-behaved client of `dialect` joins the server at `addr` (serviced by another
/// thread), sends it a 5-byte RAW packet, and keeps servicing (retransmitting,
/// acknowledging) until the server has seen it (`seen`): a fixed wait after sending lost the
/// packet to the flood on a loaded machine. Returns the client's id.
fn join_and_send(dialect: Dialect, addr: SocketAddr, seen: &AtomicBool) -> Result<i32, String> {
    let done = || seen.load(Ordering::Acquire);
    match dialect {
        Dialect::Godot4 => {
            let mut c = EnetPeer::client(addr, Settings::default()).map_err(|e| e.to_string())?;
            let hello = |s: &mut godot_serde_multiplayer::Session| {
                s.send_bytes(1, b"hello", TransferMode::Reliable, 0)
                    .map_err(|e| e.to_string())
            };
            serve_client(&mut c, PATIENCE, hello, done)
        }
        Dialect::Godot3 => {
            let mut c = Enet3Peer::client(addr, Limits::default()).map_err(|e| e.to_string())?;
            let hello = |s: &mut godot_serde_multiplayer::godot3::Session| {
                s.send_bytes(1, b"hello", false).map_err(|e| e.to_string())
            };
            serve_client(&mut c, PATIENCE, hello, done)
        }
    }
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
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let silent = server.connect(50, dialect.channels());
    let mut talker = server.connect(60, dialect.channels());
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
    server.wait(
        &mut seen,
        &format!("{dialect:?}: the sender never joined"),
        |seen| seen.contains(&Seen::Connected(40)),
    );
    go.send(()).unwrap();
    wait_queued.recv().unwrap();
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let good_seen = Arc::new(AtomicBool::new(false));
    let seen_by_server = Arc::clone(&good_seen);
    let good = thread::spawn(move || join_and_send(dialect, addr, &seen_by_server));
    let start = Instant::now();
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
    let mut raw = server.connect(30, dialect.channels());
    // The client saw the handshake end; the server's session may not have been told yet.
    let mut seen = server.events();
    server.wait(&mut seen, &format!("{dialect:?}: never joined"), |seen| {
        seen.contains(&Seen::Connected(30))
    });
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
    let mut raw = connect_raw(addr, 20, 255, &mut || server.service().unwrap());
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
    assert_eq!(server.connect(21, 255).channel_count(), 255);
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
    let mut raw = server.connect(22, 255);
    server.settle(50);
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
    server.settle(500);
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
    let mut raw = server.connect(23, 255);
    server.settle(50);
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
    server.settle(500);
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
        let done = Arc::new(AtomicBool::new(false));
        let stop = done.clone();
        let sender = thread::spawn(move || {
            let mut raw = Raw::connect(addr, 24, dialect.channels());
            let payload = vec![6u8; 1_000_000 - dialect.raw(24, 1, &[]).len()];
            raw.send(dialect.reliable(), &dialect.raw(24, 1, &payload));
            while !stop.load(Ordering::Relaxed) {
                raw.pump(Duration::from_millis(10));
            }
        });
        let mut seen = Vec::new();
        server.wait(&mut seen, &format!("{dialect:?}"), |seen| {
            seen.iter().any(|e| matches!(e, Seen::Raw { from: 24, .. }))
        });
        done.store(true, Ordering::Relaxed);
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
