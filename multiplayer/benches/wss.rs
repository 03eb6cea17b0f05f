//! `wss://` against `ws://` in the same run, sans engine: Rust WebSocket clients against the
//! Rust server (on a thread of its own, echoing each RAW packet), plain and TLS (the test
//! certificate of `tests/fixtures/`) one after the other. Prints echo round trips per second
//! for 1 and 16 peers (8 packets of 64 bytes in flight per peer) and joins per second (TCP,
//! TLS handshake, upgrade, id, one after the other), with the TLS/plain ratio of each, and the
//! server thread's CPU time per echo and per join (`/proc/thread-self/schedstat`, Linux),
//! which the machine's load moves far less than the wall-clock rates. Run:
//! `cargo bench -p godot-serde-multiplayer --features tls --bench wss`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::tls::{TlsClientConfig, TlsConfig};
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Event, Limits, Settings, TransferMode, WsLimits};

/// Packets in flight per peer.
const WINDOW: usize = 8;
const WARMUP: Duration = Duration::from_millis(300);
const MEASURE: Duration = Duration::from_secs(2);
/// Joins measured, one after the other.
const JOINS: usize = 40;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn settings() -> Settings {
    let ws = WsLimits::default()
        .with_max_pending_per_address(64)
        .with_idle_timeout_ms(0);
    Settings::default().with_limits(Limits::default().with_websocket(ws))
}

/// The CPU time of the calling thread so far, in nanoseconds (Linux; 0 elsewhere).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The echo server on its own thread until `stop`; the thread returns its CPU time spent
/// once `measure` was set (nanoseconds) and the echoes it sent meanwhile.
fn server(
    tls: bool,
    stop: Arc<AtomicBool>,
    measure: Arc<AtomicBool>,
) -> (SocketAddr, std::thread::JoinHandle<(u64, u64)>) {
    let any = "127.0.0.1:0".parse().unwrap();
    let mut server = if tls {
        let config =
            TlsConfig::from_pem_files(fixture("test-cert.pem"), fixture("test-key.pem")).unwrap();
        WsPeer::server_tls(any, config, settings()).unwrap()
    } else {
        WsPeer::server(any, settings()).unwrap()
    };
    let addr = server.local_addr().unwrap();
    let handle = std::thread::spawn(move || {
        let mut cpu_from = None;
        let mut echoes = 0u64;
        while !stop.load(Ordering::Relaxed) {
            if cpu_from.is_none() && measure.load(Ordering::Relaxed) {
                cpu_from = Some(thread_cpu_ns());
                echoes = 0;
            }
            server.service().unwrap();
            let mut busy = false;
            while let Some(event) = server.poll_event() {
                if let Event::Raw { from, data, .. } = event {
                    busy = true;
                    echoes += 1;
                    let _ = server
                        .session()
                        .send_bytes(from, &data, TransferMode::Reliable, 0);
                }
            }
            server.service().unwrap();
            if !busy {
                std::thread::sleep(Duration::from_micros(50));
            }
        }
        let cpu = cpu_from.map_or(0, |from| thread_cpu_ns().saturating_sub(from));
        server.close();
        (cpu, echoes)
    });
    (addr, handle)
}

fn client(addr: SocketAddr, tls: bool, roots: &TlsClientConfig) -> WsPeer {
    if tls {
        let url = format!("wss://localhost:{}/", addr.port());
        WsPeer::client_tls(addr, &url, roots, settings()).unwrap()
    } else {
        WsPeer::client(addr, &format!("ws://{addr}/"), settings()).unwrap()
    }
}

/// Services `peer` until it has joined.
fn join(peer: &mut WsPeer) {
    let start = Instant::now();
    while !peer.session().peers().any(|p| p == 1) {
        peer.service().unwrap();
        while let Some(event) = peer.poll_event() {
            if let Event::Error { error, .. } = event {
                panic!("join: {error}");
            }
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no join");
    }
}

/// Echo round trips per second with `peers` clients, and the server's CPU nanoseconds per
/// echo.
fn round_trips(tls: bool, peers: usize, roots: &TlsClientConfig) -> (f64, f64) {
    let stop = Arc::new(AtomicBool::new(false));
    let measure = Arc::new(AtomicBool::new(false));
    let (addr, handle) = server(tls, stop.clone(), measure.clone());
    let mut clients: Vec<WsPeer> = (0..peers).map(|_| client(addr, tls, roots)).collect();
    for c in &mut clients {
        join(c);
    }
    let payload = [7u8; 64];
    for c in &mut clients {
        for _ in 0..WINDOW {
            c.session()
                .send_bytes(1, &payload, TransferMode::Reliable, 0)
                .unwrap();
        }
    }
    let start = Instant::now();
    let mut counted = 0u64;
    let mut measuring = None;
    while start.elapsed() < WARMUP + MEASURE {
        if measuring.is_none() && start.elapsed() >= WARMUP {
            measuring = Some(Instant::now());
            measure.store(true, Ordering::Relaxed);
            counted = 0;
        }
        for c in &mut clients {
            c.service().unwrap();
            let mut back = 0;
            while let Some(event) = c.poll_event() {
                if let Event::Raw { .. } = event {
                    back += 1;
                }
            }
            counted += back;
            for _ in 0..back {
                c.session()
                    .send_bytes(1, &payload, TransferMode::Reliable, 0)
                    .unwrap();
            }
        }
    }
    let secs = measuring.map_or(1.0, |t| t.elapsed().as_secs_f64());
    stop.store(true, Ordering::Relaxed);
    let (cpu, echoes) = handle.join().unwrap();
    (counted as f64 / secs, cpu as f64 / echoes.max(1) as f64)
}

/// Joins per second, one client after the other, and the server's CPU microseconds per
/// join.
fn joins(tls: bool, roots: &TlsClientConfig) -> (f64, f64) {
    let stop = Arc::new(AtomicBool::new(false));
    let measure = Arc::new(AtomicBool::new(true));
    let (addr, handle) = server(tls, stop.clone(), measure);
    let start = Instant::now();
    let mut held = Vec::new();
    for _ in 0..JOINS {
        let mut c = client(addr, tls, roots);
        join(&mut c);
        held.push(c);
    }
    let rate = JOINS as f64 / start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let (cpu, _) = handle.join().unwrap();
    (rate, cpu as f64 / 1_000.0 / JOINS as f64)
}

/// The server's side of one TLS handshake alone, in memory (rustls with this crate's
/// configuration, no socket, no polling): CPU microseconds per handshake over `n`, the
/// client's work not counted.
fn handshake_cpu(n: usize, roots: &TlsClientConfig) -> f64 {
    use godot_serde_multiplayer::tls::rustls;
    let server_config =
        TlsConfig::from_pem_files(fixture("test-cert.pem"), fixture("test-key.pem")).unwrap();
    let mut server_ns = 0u64;
    for _ in 0..n {
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        let mut client = rustls::ClientConnection::new(roots.client_config(), name).unwrap();
        let t = thread_cpu_ns();
        let mut server = rustls::ServerConnection::new(server_config.server_config()).unwrap();
        server_ns += thread_cpu_ns() - t;
        let mut wire = Vec::new();
        while client.is_handshaking() || server.is_handshaking() {
            wire.clear();
            while client.wants_write() {
                client.write_tls(&mut wire).unwrap();
            }
            let t = thread_cpu_ns();
            let mut rd = &wire[..];
            while !rd.is_empty() {
                server.read_tls(&mut rd).unwrap();
                server.process_new_packets().unwrap();
            }
            wire.clear();
            while server.wants_write() {
                server.write_tls(&mut wire).unwrap();
            }
            server_ns += thread_cpu_ns() - t;
            let mut rd = &wire[..];
            while !rd.is_empty() {
                client.read_tls(&mut rd).unwrap();
                client.process_new_packets().unwrap();
            }
        }
    }
    server_ns as f64 / 1_000.0 / n as f64
}

fn main() {
    let roots = TlsClientConfig::from_root_pem_file(fixture("test-cert.pem")).unwrap();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at start: {}", load.trim());
    // Each measure twice, the order swapped the second time: the machine's load moves.
    for peers in [1, 16] {
        for tls_first in [false, true] {
            let (plain, tls) = if tls_first {
                let tls = round_trips(true, peers, &roots);
                (round_trips(false, peers, &roots), tls)
            } else {
                let plain = round_trips(false, peers, &roots);
                (plain, round_trips(true, peers, &roots))
            };
            println!(
                "echo, {peers:>2} peers: ws:// {:>7.0} rt/s {:>6.0} ns CPU/echo, wss:// {:>7.0} \
                 rt/s {:>6.0} ns CPU/echo; wss/ws rate {:.2}, CPU {:.2}",
                plain.0,
                plain.1,
                tls.0,
                tls.1,
                tls.0 / plain.0,
                tls.1 / plain.1
            );
        }
    }
    for tls_first in [false, true] {
        let (plain, tls) = if tls_first {
            let tls = joins(true, &roots);
            (joins(false, &roots), tls)
        } else {
            let plain = joins(false, &roots);
            (plain, joins(true, &roots))
        };
        println!(
            "joins one after the other: ws:// {:.0}/s {:.0} µs CPU/join, wss:// {:.0}/s {:.0} µs \
             CPU/join; wss/ws rate {:.2}, CPU {:.2}",
            plain.0,
            plain.1,
            tls.0,
            tls.1,
            tls.0 / plain.0,
            tls.1 / plain.1
        );
    }
    println!(
        "server side of one TLS handshake, in memory: {:.0} µs CPU (200 handshakes)",
        handshake_cpu(200, &roots)
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at end: {}", load.trim());
}
