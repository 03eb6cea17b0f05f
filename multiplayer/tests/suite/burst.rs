//! A join burst, scaled down for CI: 300 ENet clients (the crate's own, which speak Godot 4's
//! channel layout) created at once in this process join one server listening on two ports
//! (a `Host` with two `EnetTransport`s), relay on. Everything asserted is what the clients
//! received: every client is admitted and none is dropped, and each is told of every other
//! client (`SYS_ADD_PEER` → `Event::PeerConnected`) exactly once, in the order the server
//! admitted them, as Godot's `_admit_peer` orders them (those admitted before it, then each
//! later one as it comes). With `Announce::None` no client is told of another, and a RAW
//! packet one of them sends everyone still arrives through the relay.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::{EnetPeer, EnetTransport};
use godot_serde_multiplayer::transport::Host;
use godot_serde_multiplayer::{Announce, Event, RpcMethod, RpcTable, Settings, TransferMode};

const CLIENTS: usize = 300;

/// What the server saw: the order it admitted its peers in, and the peers it lost.
struct Seen {
    admitted: Vec<i32>,
    lost: Vec<i32>,
}

fn table() -> RpcTable {
    RpcTable::new("Burst").with(RpcMethod::any_peer("hello"))
}

/// A server on two ports of 127.0.0.1, served on its own thread until `stop`; `admitted`
/// counts the peers it admitted.
fn server(
    settings: Settings,
    stop: Arc<AtomicBool>,
    admitted: Arc<AtomicUsize>,
) -> ([SocketAddr; 2], JoinHandle<Seen>) {
    let mut host = Host::server(settings.clone());
    host.session().declare(table());
    let mut addrs = Vec::new();
    for _ in 0..2 {
        let t =
            EnetTransport::server("127.0.0.1:0".parse().unwrap(), 4095, &settings.limits).unwrap();
        addrs.push(t.local_addr().unwrap());
        host.add(t);
    }
    let handle = std::thread::spawn(move || {
        let mut seen = Seen {
            admitted: Vec::new(),
            lost: Vec::new(),
        };
        while !stop.load(Ordering::Relaxed) {
            host.service().unwrap();
            while let Some(event) = host.poll_event() {
                match event {
                    Event::PeerConnected(p) => {
                        seen.admitted.push(p);
                        admitted.fetch_add(1, Ordering::Relaxed);
                    }
                    Event::PeerDisconnected(p) => seen.lost.push(p),
                    _ => {}
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        host.close();
        seen
    });
    ([addrs[0], addrs[1]], handle)
}

/// What one client received.
#[derive(Default)]
struct Client {
    joined: bool,
    /// The other clients it was told of, in order.
    peers: Vec<i32>,
    /// Peers it was told left (the server included).
    lost: Vec<i32>,
    /// Senders of the RAW packets it received.
    raw: Vec<i32>,
}

/// `CLIENTS` clients with ids 2.., half on each port, created at once; serviced until `done`
/// holds for all (or `limit` passes).
fn burst(
    addrs: [SocketAddr; 2],
    settings: &Settings,
    limit: Duration,
    done: &dyn Fn(&Client) -> bool,
) -> (Vec<EnetPeer>, Vec<Client>, Duration) {
    let started = Instant::now();
    let mut peers: Vec<EnetPeer> = (0..CLIENTS)
        .map(|i| {
            let mut c =
                EnetPeer::client_with_id(addrs[i % 2], i as i32 + 2, settings.clone()).unwrap();
            c.session().declare(table());
            c
        })
        .collect();
    let created = started.elapsed();
    assert!(created < Duration::from_secs(1), "created in {created:?}");
    let mut clients: Vec<Client> = (0..CLIENTS).map(|_| Client::default()).collect();
    while started.elapsed() < limit && !clients.iter().all(done) {
        service(&mut peers, &mut clients);
        std::thread::sleep(Duration::from_millis(1));
    }
    (peers, clients, started.elapsed())
}

fn service(peers: &mut [EnetPeer], clients: &mut [Client]) {
    for (peer, client) in peers.iter_mut().zip(clients.iter_mut()) {
        peer.service().unwrap();
        while let Some(event) = peer.poll_event() {
            match event {
                Event::PeerConnected(1) => client.joined = true,
                Event::PeerConnected(p) => client.peers.push(p),
                Event::PeerDisconnected(p) => client.lost.push(p),
                Event::Raw { from, .. } => client.raw.push(from),
                _ => {}
            }
        }
    }
}

#[test]
fn a_burst_of_300_is_admitted_and_everyone_told_of_everyone_in_order() {
    let stop = Arc::new(AtomicBool::new(false));
    let settings = Settings::default();
    let (addrs, handle) = server(settings.clone(), stop.clone(), Arc::default());
    let (mut peers, clients, took) = burst(addrs, &settings, Duration::from_secs(60), &|c| {
        c.joined && c.peers.len() == CLIENTS - 1
    });
    stop.store(true, Ordering::Relaxed);
    let seen = handle.join().unwrap();
    for p in &mut peers {
        p.close();
    }
    println!("{CLIENTS} clients joined and were told of each other in {took:?}");
    assert_eq!(seen.admitted.len(), CLIENTS, "admitted");
    assert_eq!(seen.lost, Vec::<i32>::new(), "the server lost peers");
    let all: HashSet<i32> = seen.admitted.iter().copied().collect();
    assert_eq!(all.len(), CLIENTS);
    for (i, c) in clients.iter().enumerate() {
        let id = i as i32 + 2;
        assert!(c.joined, "client {id} never joined");
        assert_eq!(c.lost, Vec::<i32>::new(), "client {id} lost peers");
        // Godot's order: the peers admitted before it, in order, then each later one.
        let expected: Vec<i32> = seen.admitted.iter().copied().filter(|&p| p != id).collect();
        assert_eq!(c.peers, expected, "what client {id} was told, in order");
    }
}

#[test]
fn with_announce_none_no_client_is_told_of_another_and_the_relay_still_forwards() {
    let stop = Arc::new(AtomicBool::new(false));
    let settings = Settings::default().with_announce(Announce::None);
    let admitted = Arc::new(AtomicUsize::new(0));
    let (addrs, handle) = server(settings.clone(), stop.clone(), admitted.clone());
    let (mut peers, mut clients, _) =
        burst(addrs, &settings, Duration::from_secs(60), &|c| c.joined);
    assert!(clients.iter().all(|c| c.joined), "not every client joined");
    // A client's connection completes before the server admits it (ENet's last
    // acknowledgement): wait for the server too.
    let started = Instant::now();
    while admitted.load(Ordering::Relaxed) < CLIENTS && started.elapsed() < Duration::from_secs(20)
    {
        service(&mut peers, &mut clients);
        std::thread::sleep(Duration::from_millis(1));
    }
    // Client 2 (port 0) sends a RAW packet to everyone: the relay forwards it to every
    // client, which learns the sender from it (Godot's client too: `peer_packet(2, ...)`).
    peers[0]
        .session()
        .send_bytes(0, b"hi", TransferMode::Reliable, 0)
        .unwrap();
    let started = Instant::now();
    while clients.iter().skip(1).any(|c| c.raw.is_empty())
        && started.elapsed() < Duration::from_secs(20)
    {
        service(&mut peers, &mut clients);
        std::thread::sleep(Duration::from_millis(1));
    }
    // A few more rounds, for any late notice.
    for _ in 0..50 {
        service(&mut peers, &mut clients);
        std::thread::sleep(Duration::from_millis(1));
    }
    stop.store(true, Ordering::Relaxed);
    let seen = handle.join().unwrap();
    for p in &mut peers {
        p.close();
    }
    assert_eq!(seen.admitted.len(), CLIENTS);
    for (i, c) in clients.iter().enumerate().skip(1) {
        assert_eq!(c.raw, vec![2], "client {} got the relayed packet", i + 2);
    }
    for (i, c) in clients.iter().enumerate() {
        assert_eq!(
            c.peers,
            Vec::<i32>::new(),
            "client {} was told of peers",
            i + 2
        );
        assert_eq!(c.lost, Vec::<i32>::new());
    }
}

/// A small burst is announced at admission, packet for packet as Godot's `_admit_peer` sends
/// it: for each connected peer in admission order, the peer told of the new one, then the
/// new one told of the peer; `_del_peer` tells the others in admission order. Each packet is
/// SYS (7), the sub-command (ADD_PEER 1, DEL_PEER 2: `SYS_COMMAND_AUTH` is 0) and the peer as
/// a little-endian u32, reliable on channel 0. Ids 9, 5, 7 join in that order (the order of
/// ids would be 5, 7, 9: checked live against Godot 4.6 in `live_announce.rs`).
#[test]
fn a_small_burst_is_announced_at_admission_in_godots_order() {
    use godot_serde_multiplayer::{Output, Session};
    let sys = |to: i32, sub: u8, peer: u8| Output::Packet {
        to,
        channel: 0,
        mode: TransferMode::Reliable,
        data: vec![7, sub, peer, 0, 0, 0],
    };
    let mut s = Session::server(Settings::default());
    for id in [9, 5, 7] {
        s.connected(id, crate::clock::at_ms(0));
    }
    s.disconnected(5);
    let out: Vec<Output> = std::iter::from_fn(|| s.poll_output()).collect();
    assert_eq!(
        out,
        vec![
            // 5 joins: 9 told of 5, 5 told of 9.
            sys(9, 1, 5),
            sys(5, 1, 9),
            // 7 joins: 9 told of 7, 7 of 9, 5 of 7, 7 of 5.
            sys(9, 1, 7),
            sys(7, 1, 9),
            sys(5, 1, 7),
            sys(7, 1, 5),
            // 5 leaves: 9 and 7 told.
            sys(9, 2, 5),
            sys(7, 2, 5),
        ]
    );
    assert_eq!(s.announcing(), 0);
}
