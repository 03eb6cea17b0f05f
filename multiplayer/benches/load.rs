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
//! peers only (servers for 4,095 clients, relay off on both).

use godot_serde_test_support::engine;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::{
    Event, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Session, Settings, SpawnScene,
    Spawner, Synchronizer, Variant,
};
use peak_alloc::PeakAlloc;

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
) -> (SocketAddr, std::thread::JoinHandle<()>) {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), max_clients, settings).unwrap();
    server.session().declare(table());
    let addr = server.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
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
    });
    (addr, handle)
}

struct Load {
    per_sec: f64,
    p50_us: u128,
    p99_us: u128,
}

/// `peers` clients, each keeping WINDOW pings in flight; counts pongs in the measured window.
fn load(addr: SocketAddr, peers: usize) -> Load {
    let mut clients: Vec<EnetPeer> = (0..peers)
        .map(|_| {
            let mut c = EnetPeer::client(addr, Settings::default()).unwrap();
            c.session().declare(table());
            c
        })
        .collect();
    let mut sent: Vec<std::collections::VecDeque<(i64, Instant)>> = vec![Default::default(); peers];
    let mut connected = vec![false; peers];
    let mut seq = 0i64;
    let start = Instant::now();
    let mut latencies = Vec::new();
    let mut done = 0usize;
    let mut measuring_since = None;
    loop {
        let now = Instant::now();
        if measuring_since.is_none() && connected.iter().all(|&c| c) && now - start > WARMUP {
            measuring_since = Some(now);
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
            "the load never finished connecting"
        );
        for (i, c) in clients.iter_mut().enumerate() {
            c.service().unwrap();
            while let Some(event) = c.poll_event() {
                match event {
                    Event::PeerConnected(1) => connected[i] = true,
                    Event::Rpc(call) if call.method == "pong" => {
                        if let Some((_, t)) = sent[i].pop_front() {
                            latencies.push(t.elapsed().as_micros());
                            done += 1;
                        }
                    }
                    _ => {}
                }
            }
            if connected[i] {
                while sent[i].len() < WINDOW {
                    seq += 1;
                    c.session().rpc(1, "Bench", "ping", &(seq,)).unwrap();
                    sent[i].push_back((seq, Instant::now()));
                }
                c.service().unwrap();
            }
        }
    }
    let elapsed = measuring_since.map_or(MEASURE, |s| s.elapsed());
    for c in &mut clients {
        c.close();
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
    }
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
        "{:>5} {:>12} {:>9} {:>9} {:>12} {:>9} {:>9} {:>7}",
        "peers", "rust rt/s", "p50 µs", "p99 µs", "godot rt/s", "p50 µs", "p99 µs", "ratio"
    );
    // `-- 1000`: 1,000 peers only, on servers for 4,095 clients with the relay off on both
    // sides (the load is client to server; with the relay on, Godot's join storm of a
    // million ADD_PEER notices would be measured instead, see the burst bench).
    let thousand = std::env::args().any(|a| a == "1000");
    let (counts, max_clients, settings): (&[usize], usize, Settings) = if thousand {
        (&[1_000], 4_095, Settings::authoritative())
    } else {
        (&[1, 16, 128], 256, Settings::default())
    };
    for &peers in counts {
        let stop = Arc::new(AtomicBool::new(false));
        let (addr, server) = rust_server(stop.clone(), max_clients, settings.clone());
        let rust = load(addr, peers);
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
                ],
                Duration::from_secs(60),
            )
        });
        std::thread::sleep(Duration::from_millis(500));
        let gd = load(format!("127.0.0.1:{port}").parse().unwrap(), peers);
        let out = godot_run.join().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        println!(
            "{peers:>5} {:>12.0} {:>9} {:>9} {:>12.0} {:>9} {:>9} {:>7.2}",
            rust.per_sec,
            rust.p50_us,
            rust.p99_us,
            gd.per_sec,
            gd.p50_us,
            gd.p99_us,
            rust.per_sec / gd.per_sec
        );
    }
    if !thousand {
        sync_scenario(Some(&godot));
    }
}
