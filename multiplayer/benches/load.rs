//! Load benchmark: Rust ENet clients as the load generator against the Rust server and against
//! a headless Godot 4 server running the same handler (`benches/bench_node.gd`: `ping(seq)`
//! answered with `pong(seq)`), in the same run; prints round trips per second, latency
//! percentiles and the Rust/Godot ratio for N = 1, 16, 128 peers, and the session's memory
//! per connected peer. Run: `GODOT4=... cargo bench -p godot-serde-multiplayer --bench load`.
//!
//! The sync scenario (`sync_scenario`): N Rust clients join a server holding M spawned objects
//! with a synchronizer each (position every frame, rotation on change), at 30 network frames a
//! second; bytes received per peer per frame and the server's CPU time per frame (the network
//! step: receive, SYNC, delta SYNC, send), the Rust server against `benches/bench_sync_server.gd`
//! in the same run. `-- sync` runs only this scenario; `-- 1000` runs the ping load at 1,000
//! peers only (servers for 4,095 clients, relay off on both) and a bare UDP echo beside it
//! (the kernel's cost per datagram, which both servers pay); `-- nosleep` runs Godot without
//! the frame sleep of a headless engine (`low_processor_usage_mode_sleep_usec`, 6,900 µs).
//!
//! The generator shares sockets as the bot swarm does (64 clients a socket: 16 sockets at
//! 1,000 clients), reads each socket once a pass, tops up only the clients that were
//! answered and sends each socket's queue once; the joins go a socket at a time and the pings
//! start when every client is in. Columns: round trips/s, latency p50/p99, and CPU time per
//! round trip of the Rust server's thread (`/proc/thread-self/schedstat`), of the whole Godot
//! process (`/proc/<pid>/stat`, 10 ms ticks) and of the generator's thread.

use godot_serde_test_support::engine;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::transport::{enet_channel, from_enet_channel};
use godot_serde_multiplayer::{
    Event, Output, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Session, Settings,
    SpawnScene, Spawner, Synchronizer, TransferMode, Variant,
};
use peak_alloc::PeakAlloc;
use rusty_enet as enet;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// Calls in flight per peer.
const WINDOW: usize = 8;
const WARMUP: Duration = Duration::from_millis(500);
const MEASURE: Duration = Duration::from_secs(2);

fn table() -> RpcTable {
    RpcTable::new("Bench")
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::authority("pong"))
}

/// The Rust server: the same handler as bench_node.gd.
fn rust_server(
    stop: Arc<AtomicBool>,
    max_clients: usize,
    settings: Settings,
) -> (SocketAddr, std::thread::JoinHandle<()>, Option<Cpu>) {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), max_clients, settings).unwrap();
    server.session().declare(table());
    let addr = server.local_addr().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::Builder::new()
        .name("rust-server".into())
        .spawn(move || {
            let _ = tx.send(Cpu::this_thread());
            while !stop.load(Ordering::Relaxed) {
                server.service().unwrap();
                let mut busy = false;
                while let Some(event) = server.poll_event() {
                    if let Event::Rpc(call) = event {
                        busy = true;
                        let _ = server.session().rpc_variants(
                            call.from,
                            "Bench",
                            "pong",
                            &call.variants().unwrap_or_default(),
                        );
                    }
                }
                if !busy {
                    std::thread::yield_now();
                }
            }
            server.close();
        })
        .unwrap();
    (addr, handle, rx.recv().ok().flatten())
}

struct Load {
    per_sec: f64,
    p50_us: u128,
    p99_us: u128,
    /// Round trips in the measured window.
    done: usize,
    /// Wall time of the measured window.
    elapsed: Duration,
    /// The server's CPU time in the measured window (ns), when it could be read.
    server_cpu_ns: Option<u64>,
    /// The generator's own CPU time in the measured window (ns).
    generator_cpu_ns: Option<u64>,
    /// Clients whose connection ENet timed out (a server that fell behind).
    dropped: usize,
    /// Datagrams the kernel dropped at the server's socket in the window (its receive
    /// buffer full: `drops` of `/proc/net/udp`).
    socket_drops: Option<u64>,
}

/// The `drops` count of the UDP socket bound to `port` (`/proc/net/udp` or `udp6`, Linux:
/// Godot binds a dual-stack IPv6 socket).
fn udp_drops(port: u16) -> Option<u64> {
    let local = format!(":{port:04X}");
    ["/proc/net/udp", "/proc/net/udp6"].iter().find_map(|file| {
        std::fs::read_to_string(file)
            .ok()?
            .lines()
            .skip(1)
            .find(|l| {
                l.split_whitespace()
                    .nth(1)
                    .is_some_and(|a| a.ends_with(&local))
            })
            .and_then(|l| l.split_whitespace().last()?.parse().ok())
    })
}

/// Clients per UDP socket in the load generator (as the bot swarm shares sockets): one
/// socket read per 64 clients per pass instead of one per client.
const PER_SOCKET: usize = 64;

/// A load client: its own session (the handshake, the path cache, the RPC encoding as any
/// client of the crate) on a shared socket's ENet peer slot.
struct Client {
    session: Session,
    sent: std::collections::VecDeque<Instant>,
    connected: bool,
    id: i32,
    peer: enet::PeerID,
}

/// A thread's (or process's) CPU time in ns: `/proc/.../schedstat` (a thread's) or the user
/// and system ticks of `/proc/<pid>/stat` (a whole process, every thread).
#[derive(Clone)]
enum Cpu {
    Thread(std::path::PathBuf),
    Process(u32),
}

impl Cpu {
    fn this_thread() -> Option<Self> {
        let link = std::fs::read_link("/proc/thread-self").ok()?;
        Some(Cpu::Thread(
            std::path::Path::new("/proc").join(link).join("schedstat"),
        ))
    }

    fn ns(&self) -> Option<u64> {
        match self {
            Cpu::Thread(path) => std::fs::read_to_string(path)
                .ok()?
                .split(' ')
                .next()?
                .parse()
                .ok(),
            Cpu::Process(pid) => {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // Fields after the command's closing parenthesis; utime and stime are the
                // 14th and 15th fields of the line (11th and 12th after it), in clock ticks
                // of 10 ms (USER_HZ 100 on Linux).
                let rest = &stat[stat.rfind(')')? + 2..];
                let f: Vec<&str> = rest.split(' ').collect();
                let ticks: u64 =
                    f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
                Some(ticks * 10_000_000)
            }
        }
    }
}

/// `peers` clients on `peers / PER_SOCKET` UDP sockets, each keeping WINDOW pings in flight;
/// counts pongs in the measured window. A pass reads each socket once (ENet's service reads
/// until the socket is empty), hands each packet to its client's session, tops up the window
/// of the clients that were answered (no walk over every client), then sends each socket's
/// queue once (one datagram per ENet peer, its pings bundled).
fn load(addr: SocketAddr, peers: usize, server_cpu: Option<Cpu>) -> Load {
    let sockets = peers.div_ceil(PER_SOCKET);
    let mut hosts: Vec<enet::Host<std::net::UdpSocket>> = (0..sockets)
        .map(|_| {
            let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
            // Room in the kernel for a whole window of every client of the socket.
            let sock = socket2::SockRef::from(&socket);
            let _ = sock.set_recv_buffer_size(4 << 20);
            let _ = sock.set_send_buffer_size(4 << 20);
            enet::Host::new(
                socket,
                enet::HostSettings {
                    peer_limit: PER_SOCKET,
                    channel_limit: 255,
                    ..Default::default()
                },
            )
            .unwrap()
        })
        .collect();
    // Client index of each (socket, ENet peer slot).
    let mut slots: Vec<Vec<usize>> = vec![vec![usize::MAX; PER_SOCKET]; sockets];
    let mut ids = std::collections::HashSet::new();
    let mut clients: Vec<Client> = (0..peers)
        .map(|_| {
            let id = loop {
                let id = godot_serde_multiplayer::generate_unique_id();
                if ids.insert(id) {
                    break id;
                }
            };
            let mut session = Session::client(id, Settings::default());
            session.declare(table());
            Client {
                session,
                sent: Default::default(),
                connected: false,
                id,
                peer: enet::PeerID(usize::MAX),
            }
        })
        .collect();
    // Joins go a socket (64 clients) at a time, the next when these are in; the pings start
    // when every client has joined (the servers' join bursts are the burst bench's).
    let mut issued = 0usize;
    let mut started = false;
    let mut dropped = 0usize;
    let mut connected = 0usize;
    let mut touched: Vec<usize> = Vec::with_capacity(PER_SOCKET);
    let mut start = Instant::now();
    let mut latencies = Vec::new();
    let mut done = 0usize;
    let mut measuring_since = None;
    let (mut cpu0, mut gen0, mut drops0) = (None, None, None);
    let me = Cpu::this_thread();
    loop {
        let now = Instant::now();
        if measuring_since.is_none() && started && now - start > WARMUP {
            measuring_since = Some(now);
            cpu0 = server_cpu.as_ref().and_then(Cpu::ns);
            gen0 = me.as_ref().and_then(Cpu::ns);
            drops0 = udp_drops(addr.port());
            done = 0;
            latencies.clear();
        }
        if let Some(since) = measuring_since {
            if now - since >= MEASURE {
                break;
            }
        }
        assert!(
            now - start < Duration::from_secs(30),
            "the load never finished connecting: {connected} of {peers} clients joined"
        );
        if issued == connected && issued < peers {
            let h = issued / PER_SOCKET;
            let end = (issued + PER_SOCKET).min(peers);
            for (i, c) in clients.iter_mut().enumerate().take(end).skip(issued) {
                let peer = hosts[h].connect(addr, 255, c.id as u32).unwrap().id();
                slots[h][peer.0] = i;
                c.peer = peer;
            }
            issued = end;
        }
        let start_all = !started && connected == peers;
        if start_all {
            start = now;
        }
        started |= start_all;
        for (h, host) in hosts.iter_mut().enumerate() {
            touched.clear();
            if start_all {
                touched.extend(slots[h].iter().copied().filter(|&i| i != usize::MAX));
            }
            while let Some(event) = host.service().unwrap() {
                let (peer, packet) = match event.no_ref() {
                    enet::EventNoRef::Connect { peer, .. } => (peer, None),
                    enet::EventNoRef::Receive {
                        peer,
                        channel_id,
                        packet,
                    } => (peer, Some((channel_id, packet))),
                    enet::EventNoRef::Disconnect { peer, .. } => {
                        // ENet timed the connection out (a server that fell behind): the
                        // client is counted and stops.
                        if let Some(c) = slots[h].get(peer.0).and_then(|&i| clients.get_mut(i)) {
                            c.connected = false;
                            c.sent.clear();
                            dropped += 1;
                        }
                        continue;
                    }
                };
                let i = slots[h][peer.0];
                let c = &mut clients[i];
                match packet {
                    None => {
                        c.session.connected(1, now);
                        c.connected = true;
                        connected += 1;
                    }
                    Some((channel_id, packet)) => {
                        let (channel, mode) = from_enet_channel(channel_id);
                        c.session.receive(1, channel, mode, packet.data());
                    }
                }
                touched.push(i);
            }
            let answered = Instant::now();
            for &i in &touched {
                let c = &mut clients[i];
                while let Some(event) = c.session.poll_event() {
                    if let Event::Rpc(call) = event {
                        if call.method == "pong" {
                            if let Some(t) = c.sent.pop_front() {
                                latencies.push((answered - t).as_micros());
                                done += 1;
                            }
                        }
                    }
                }
                if started && c.connected {
                    while c.sent.len() < WINDOW {
                        c.session.rpc(1, "Bench", "ping", &(done as i64,)).unwrap();
                        c.sent.push_back(answered);
                    }
                }
                let peer = host.peer_mut(c.peer);
                while let Some(out) = c.session.poll_output() {
                    if let Output::Packet {
                        channel,
                        mode,
                        data,
                        ..
                    } = out
                    {
                        let kind = match mode {
                            TransferMode::Reliable => enet::PacketKind::Reliable,
                            _ => enet::PacketKind::AlwaysUnreliable { sequenced: false },
                        };
                        peer.send(enet_channel(channel, mode), &enet::Packet::new(data, kind))
                            .unwrap();
                    }
                }
            }
            host.flush();
        }
    }
    let elapsed = measuring_since.map_or(MEASURE, |s| s.elapsed());
    let server_cpu_ns = match (cpu0, server_cpu.as_ref().and_then(Cpu::ns)) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let socket_drops = match (drops0, udp_drops(addr.port())) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let generator_cpu_ns = match (gen0, me.as_ref().and_then(Cpu::ns)) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    for host in &mut hosts {
        for peer in host.peers_mut() {
            peer.disconnect_now(0);
        }
        host.flush();
    }
    latencies.sort_unstable();
    let pct = |p: usize| {
        latencies
            .get(latencies.len() * p / 100)
            .copied()
            .unwrap_or(0)
    };
    Load {
        per_sec: done as f64 / elapsed.as_secs_f64(),
        p50_us: pct(50),
        p99_us: pct(99),
        done,
        elapsed,
        server_cpu_ns,
        generator_cpu_ns,
        dropped,
        socket_drops,
    }
}

/// The kernel's share: a bare UDP echo server (one thread, `recv_from` then `send_to` of each
/// datagram, no protocol) against `sockets` client sockets keeping 64 48-byte datagrams each
/// in flight, as the load's sockets do; returns (datagram round trips per second, the echo
/// thread's CPU ns per datagram echoed).
fn udp_echo(sockets: usize) -> (f64, Option<u64>) {
    let server = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap();
    server
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let _ = socket2::SockRef::from(&server).set_recv_buffer_size(4 << 20);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let echo = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let _ = tx.send(Cpu::this_thread());
            let mut buf = [0u8; 1500];
            while !stop.load(Ordering::Relaxed) {
                if let Ok((len, from)) = server.recv_from(&mut buf) {
                    let _ = server.send_to(&buf[..len], from);
                }
            }
        })
    };
    let cpu = rx.recv().ok().flatten();
    let clients: Vec<std::net::UdpSocket> = (0..sockets)
        .map(|_| {
            let c = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
            let _ = socket2::SockRef::from(&c).set_recv_buffer_size(4 << 20);
            c.set_nonblocking(true).unwrap();
            for _ in 0..PER_SOCKET {
                c.send_to(&[0u8; 48], addr).unwrap();
            }
            c
        })
        .collect();
    let mut buf = [0u8; 1500];
    let (mut done, mut t0, mut cpu0) = (0usize, None, None);
    let start = Instant::now();
    loop {
        if t0.is_none() && start.elapsed() > WARMUP {
            t0 = Some(Instant::now());
            cpu0 = cpu.as_ref().and_then(Cpu::ns);
            done = 0;
        }
        if t0.is_some_and(|t| t.elapsed() >= MEASURE) {
            break;
        }
        for c in &clients {
            while let Ok((len, _)) = c.recv_from(&mut buf) {
                done += 1;
                let _ = c.send_to(&buf[..len], addr);
            }
        }
    }
    let elapsed = t0.map_or(MEASURE, |t| t.elapsed());
    let ns = match (cpu0, cpu.as_ref().and_then(Cpu::ns)) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) / done.max(1) as u64),
        _ => None,
    };
    stop.store(true, Ordering::Relaxed);
    drop(clients);
    let _ = echo.join();
    (done as f64 / elapsed.as_secs_f64(), ns)
}

/// CPU ns per round trip, or "-".
fn per_rt(ns: Option<u64>, done: usize) -> String {
    ns.map_or("-".into(), |ns| format!("{}", ns / done.max(1) as u64))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The engine's process: this process's child (the bench starts one engine at a time).
fn child_pid() -> Option<u32> {
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.parse().ok();
        }
    }
    None
}

fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn memory_per_peer() -> usize {
    let table = table();
    let mut simplify = Vec::new();
    godot_serde_multiplayer::wire::write_simplify_path(&mut simplify, table.md5(), 1, "Bench");
    let mut s = Session::server(Settings::default());
    s.declare(table);
    // Warm the queues up; drain them after each peer, as a server loop does (each join also
    // queues ADD_PEER notices for every other peer).
    s.connected(2, Instant::now());
    s.rpc(2, "Bench", "pong", &(1i64,)).unwrap();
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 3..1003 {
        s.connected(peer, Instant::now());
        s.receive(
            peer,
            0,
            godot_serde_multiplayer::TransferMode::Reliable,
            &simplify,
        );
        s.rpc(peer, "Bench", "pong", &(1i64,)).unwrap();
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    HEAP.current_usage().saturating_sub(before) / 1000
}

const TICK: Duration = Duration::from_micros(33_333);
const SYNC_SECONDS: u64 = 4;

fn object_sync() -> Synchronizer {
    Synchronizer::new(
        "Sync",
        ReplicationConfig::new().property(".:position").with(
            ".:rotation",
            true,
            ReplicationMode::OnChange,
        ),
    )
}

fn object_spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players").scene("res://object.tscn")
}

fn object_state(frame: u64, i: usize) -> Vec<Variant> {
    // The values Godot's Node2D holds: f32 position, rotation as a 32-bit float widened.
    let rot = f64::from((frame / 10 * 10) as f32 * 0.01f32);
    vec![
        Variant::Vector2(godot_serde::Vector2::new(
            (frame as usize + i) as godot_serde::Real,
            i as godot_serde::Real,
        )),
        Variant::Float(rot),
    ]
}

/// The Rust sync server: M objects, 30 frames a second; returns (frames with peers, µs spent
/// in the network step).
fn rust_sync_server(
    m: usize,
    stop: Arc<AtomicBool>,
) -> (SocketAddr, std::thread::JoinHandle<(u64, u128)>) {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 256, Settings::default()).unwrap();
    let addr = server.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        let session = server.session();
        session.declare_spawner(object_spawner());
        let nodes: Vec<_> = (0..m)
            .map(|i| {
                session
                    .spawn(
                        "World/Spawner",
                        SpawnScene::Index(0),
                        &format!("O{i}"),
                        vec![(object_sync(), object_state(0, i))],
                    )
                    .unwrap()
            })
            .collect();
        let syncs: Vec<_> = nodes
            .iter()
            .map(|&n| server.session().node_synchronizers(n)[0])
            .collect();
        let (mut frame, mut ticks, mut busy) = (0u64, 0u64, 0u128);
        while !stop.load(Ordering::Relaxed) {
            frame += 1;
            for (i, &s) in syncs.iter().enumerate() {
                server
                    .session()
                    .set_state(s, object_state(frame, i))
                    .unwrap();
            }
            let t0 = Instant::now();
            server.session().handle_timeout(Instant::now());
            server.service().unwrap();
            while server.poll_event().is_some() {}
            busy += t0.elapsed().as_micros();
            if server.session().peers().next().is_some() {
                ticks += 1;
            }
            std::thread::sleep(TICK.saturating_sub(t0.elapsed()));
        }
        server.close();
        (ticks, busy)
    });
    (addr, handle)
}

/// N clients for SYNC_SECONDS; returns replication bytes received per client per network frame
/// (the frames counted by the distinct network times of the full SYNCs each client received,
/// so a server slowed below 30 frames a second by the machine's load is not misread).
fn sync_clients(addr: SocketAddr, peers: usize) -> f64 {
    let mut clients: Vec<EnetPeer> = (0..peers)
        .map(|_| {
            let mut c = EnetPeer::client(addr, Settings::default()).unwrap();
            c.set_capture(true);
            c
        })
        .collect();
    let start = Instant::now();
    let mut bytes = 0usize;
    let mut frames: Vec<std::collections::HashSet<u16>> = vec![Default::default(); peers];
    let mut since = None;
    while start.elapsed() < Duration::from_secs(SYNC_SECONDS) {
        for (c, seen) in clients.iter_mut().zip(&mut frames) {
            c.service().unwrap();
            while c.poll_event().is_some() {}
            for p in c.take_captured() {
                // SPAWN, DESPAWN and SYNC (full and delta) after a 1 s warm-up.
                if since.is_some() && matches!(p.data.first().map(|b| b & 7), Some(4..=6)) {
                    bytes += p.data.len();
                    if let [6, a, b, ..] = p.data[..] {
                        seen.insert(u16::from_le_bytes([a, b]));
                    }
                }
            }
        }
        if since.is_none() && start.elapsed() > Duration::from_secs(1) {
            since = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    for c in &mut clients {
        c.close();
    }
    let frames: usize = frames.iter().map(|f| f.len()).sum();
    bytes as f64 / frames.max(1) as f64
}

fn sync_scenario(godot: Option<&std::path::Path>) {
    println!("\nsync scenario: M objects (position every frame, rotation on change), 30 frames/s");
    println!(
        "{:>5} {:>5} {:>14} {:>14} {:>7} {:>14} {:>14} {:>7}",
        "peers",
        "M",
        "rust B/peer/f",
        "godot B/peer/f",
        "ratio",
        "rust µs/frame",
        "godot µs/f",
        "ratio"
    );
    for (peers, m) in [(4usize, 64usize), (16, 64), (16, 256)] {
        let stop = Arc::new(AtomicBool::new(false));
        let (addr, server) = rust_sync_server(m, stop.clone());
        let rust_bytes = sync_clients(addr, peers);
        stop.store(true, Ordering::Relaxed);
        let (ticks, busy) = server.join().unwrap();
        let rust_us = busy as f64 / ticks.max(1) as f64;
        let Some(godot) = godot else {
            println!(
                "{peers:>5} {m:>5} {rust_bytes:>14.0} {:>14} {:>7} {rust_us:>14.1}",
                "-", "-"
            );
            continue;
        };
        let port = free_udp_port();
        let engine_path = godot.to_path_buf();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches");
        let script = gdscript::script(
            &[("objects", &object_spawner())],
            &[("object", &object_sync())],
        );
        let godot_run = std::thread::spawn(move || {
            let project =
                engine::Godot4Project::new("mp_bench_sync", &[&dir.join("bench_sync_server.gd")]);
            std::fs::write(project.dir.join("replication.gd"), script).unwrap();
            project.run(
                &engine_path,
                "bench_sync_server.gd",
                &[
                    &port.to_string(),
                    &(SYNC_SECONDS + 2).to_string(),
                    &m.to_string(),
                ],
                Duration::from_secs(60),
            )
        });
        std::thread::sleep(Duration::from_millis(1000));
        let gd_bytes = sync_clients(format!("127.0.0.1:{port}").parse().unwrap(), peers);
        let out = godot_run.join().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = stdout
            .lines()
            .find(|l| l.starts_with("TICKS"))
            .unwrap_or_else(|| panic!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
        let nums: Vec<f64> = line
            .split(' ')
            .skip(1)
            .filter_map(|w| w.parse().ok())
            .collect();
        let gd_us = nums[1] / nums[0].max(1.0);
        println!(
            "{peers:>5} {m:>5} {rust_bytes:>14.0} {gd_bytes:>14.0} {:>7.2} {rust_us:>14.1} {gd_us:>14.1} {:>7.2}",
            rust_bytes / gd_bytes,
            gd_us / rust_us
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "sync") {
        sync_scenario(engine::godot4().as_deref());
        return;
    }
    println!(
        "session memory per connected peer (path cached both ways): {} bytes",
        memory_per_peer()
    );
    let Some(godot) = engine::godot4() else {
        println!("no Godot 4 engine ($GODOT4): the Godot baseline is skipped");
        return;
    };
    println!("engine: {}", engine::godot4_version(&godot));
    println!(
        "{:>5} {:>12} {:>9} {:>9} {:>12} {:>9} {:>9} {:>7} {:>9} {:>9} {:>9}",
        "peers",
        "rust rt/s",
        "p50 µs",
        "p99 µs",
        "godot rt/s",
        "p50 µs",
        "p99 µs",
        "ratio",
        "rust ns/rt",
        "godot ns/rt",
        "gen ns/rt"
    );
    // `-- 1000`: 1,000 peers only, on servers for 4,095 clients with the relay off on both
    // sides (the load is client to server; with the relay on, Godot's join storm of a
    // million ADD_PEER notices would be measured instead, see the burst bench).
    let thousand = std::env::args().any(|a| a == "1000");
    let nosleep = std::env::args().any(|a| a == "nosleep");
    let (counts, max_clients, settings): (&[usize], usize, Settings) = if thousand {
        (&[1_000], 4_095, Settings::authoritative())
    } else {
        (&[1, 16, 128], 256, Settings::default())
    };
    for &peers in counts {
        let stop = Arc::new(AtomicBool::new(false));
        let (addr, server, cpu) = rust_server(stop.clone(), max_clients, settings.clone());
        let rust = load(addr, peers, cpu);
        stop.store(true, Ordering::Relaxed);
        server.join().unwrap();

        let port = free_udp_port();
        let engine_path = godot.clone();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches");
        let godot_run = std::thread::spawn(move || {
            let project = engine::Godot4Project::new(
                "mp_bench",
                &[&dir.join("bench_server.gd"), &dir.join("bench_node.gd")],
            );
            project.run(
                &engine_path,
                "bench_server.gd",
                &[
                    &port.to_string(),
                    if thousand { "40" } else { "6" },
                    &max_clients.to_string(),
                    if thousand { "0" } else { "1" },
                    // `-- nosleep`: Godot's frames without the headless frame sleep.
                    if nosleep { "0" } else { "6900" },
                ],
                Duration::from_secs(60),
            )
        });
        std::thread::sleep(Duration::from_millis(500));
        let gd = load(
            format!("127.0.0.1:{port}").parse().unwrap(),
            peers,
            child_pid().map(Cpu::Process),
        );
        let out = godot_run.join().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        println!(
            "{peers:>5} {:>12.0} {:>9} {:>9} {:>12.0} {:>9} {:>9} {:>7.2} {:>9} {:>9} {:>9}",
            rust.per_sec,
            rust.p50_us,
            rust.p99_us,
            gd.per_sec,
            gd.p50_us,
            gd.p99_us,
            rust.per_sec / gd.per_sec,
            per_rt(rust.server_cpu_ns, rust.done),
            per_rt(gd.server_cpu_ns, gd.done),
            per_rt(rust.generator_cpu_ns, rust.done),
        );
        println!(
            "      windows {:.2} s / {:.2} s; clients timed out {} / {}; datagrams dropped at the \
             server's socket (buffer full) {} / {}; generator CPU against Godot {} ns/rt; load \
             average {}",
            rust.elapsed.as_secs_f64(),
            gd.elapsed.as_secs_f64(),
            rust.dropped,
            gd.dropped,
            rust.socket_drops.map_or("-".into(), |d| d.to_string()),
            gd.socket_drops.map_or("-".into(), |d| d.to_string()),
            per_rt(gd.generator_cpu_ns, gd.done),
            load_average()
        );
    }
    if thousand {
        let (rate, ns) = udp_echo(1_000usize.div_ceil(PER_SOCKET));
        println!(
            "bare UDP echo, same sockets and window: {rate:.0} datagram round trips/s, echo \
             thread {} ns per datagram (recv_from + send_to); load average {}",
            ns.map_or("-".into(), |n| n.to_string()),
            load_average()
        );
    }
    if !thousand {
        sync_scenario(Some(&godot));
    }
}
