//! Load benchmark: Rust ENet clients as the load generator against the Rust server and against
//! a headless Godot 4 server running the same handler (`benches/bench_node.gd`: `ping(seq)`
//! answered with `pong(seq)`), in the same run; prints round trips per second, latency
//! percentiles and the Rust/Godot ratio for N = 1, 16, 128 peers, and the session's memory
//! per connected peer. Run: `GODOT4=... cargo bench -p godot-serde-multiplayer --bench load`.

#[path = "../../tests/common/engine.rs"]
#[allow(dead_code)]
mod engine;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Session, Settings};
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
fn rust_server(stop: Arc<AtomicBool>) -> (SocketAddr, std::thread::JoinHandle<()>) {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 256, Settings::default()).unwrap();
    server.session().declare(table());
    let addr = server.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            server.service().unwrap();
            let mut busy = false;
            while let Some(event) = server.poll_event() {
                if let Event::Rpc(call) = event {
                    busy = true;
                    let _ = server
                        .session()
                        .rpc_variants(call.from, "Bench", "pong", &call.args);
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
    s.connected(2, 0);
    s.rpc(2, "Bench", "pong", &(1i64,)).unwrap();
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 3..1003 {
        s.connected(peer, 0);
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

fn main() {
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
    for peers in [1usize, 16, 128] {
        let stop = Arc::new(AtomicBool::new(false));
        let (addr, server) = rust_server(stop.clone());
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
                &[&port.to_string(), "6"],
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
}
