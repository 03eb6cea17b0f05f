//! What a `wss://` connection costs a server, against a `ws://` one in the same run. The
//! clients run in a child process (this binary again), so that the heap counted is the
//! server's alone: rustls's client state would otherwise count too.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::tls::{TlsClientConfig, TlsConfig};
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Event, Limits, Settings, TransferMode, WsLimits};

use crate::{HEAP, alone};

const CHILD: &str = "GODOT_SERDE_WSS_HEAP_CHILD";
const PATIENCE: Duration = Duration::from_secs(60);
/// Connections of the first measure; the second holds 4N.
const N: usize = 8;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The heap a server holds per open connection, `ws://` and `wss://`: N = 8 against 4N = 32
/// connections, each of which has sent one 1,000-byte packet and been sent one (so that
/// rustls's buffers are in use, not only allocated). A TLS connection holds at most 64 KiB
/// more than a plain one (rustls's handshake buffer bound; measured: see BENCHMARKS.md).
#[test]
fn a_wss_connection_costs_the_server_a_bounded_heap() {
    if let Ok(spec) = std::env::var(CHILD) {
        return child(&spec);
    }
    let _alone = alone();
    let plain = per_connection(false);
    let tls = per_connection(true);
    println!(
        "per connection: ws:// {plain} bytes, wss:// {tls} bytes ({:+} for TLS)",
        tls - plain
    );
    assert!((0..2 * 65_535 + 8 * 1024).contains(&plain), "ws:// {plain}");
    assert!(
        (plain..plain + 64 * 1024).contains(&tls),
        "wss:// {tls} against ws:// {plain}"
    );
}

/// Bytes the server holds per connection, from N and 4N connections.
fn per_connection(tls: bool) -> isize {
    let limits = Limits::default().with_websocket(
        WsLimits::default()
            .with_max_peers(8 * N)
            .with_max_pending_per_address(8 * N),
    );
    let settings = Settings::default().with_limits(limits);
    let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let mut server = if tls {
        let config =
            TlsConfig::from_pem_files(fixture("test-cert.pem"), fixture("test-key.pem")).unwrap();
        WsPeer::server_tls(any, config, settings).unwrap()
    } else {
        WsPeer::server(any, settings).unwrap()
    };
    let addr = server.local_addr().unwrap();
    // One connection first, so that what the first costs once (maps, the session's queues)
    // is not counted.
    let mut children = vec![clients(addr, tls, 1, &mut server)];
    let base = HEAP.current_usage() as isize;
    children.push(clients(addr, tls, N, &mut server));
    let held_n = HEAP.current_usage() as isize - base;
    children.push(clients(addr, tls, 3 * N, &mut server));
    let held_4n = HEAP.current_usage() as isize - base;
    for mut child in children {
        let _ = child.kill();
        let _ = child.wait();
    }
    (held_4n - held_n) / (3 * N) as isize
}

/// Starts a child process with `count` clients and services the server until each has
/// joined, sent its packet and been sent one.
fn clients(addr: SocketAddr, tls: bool, count: usize, server: &mut WsPeer) -> Child {
    let exe = std::env::current_exe().unwrap();
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::a_wss_connection_costs_the_server_a_bounded_heap");
    let child = Command::new(exe)
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, format!("{addr} {tls} {count}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut got = 0;
    let start = Instant::now();
    while got < count {
        server.service().unwrap();
        while let Some(event) = server.poll_event() {
            match event {
                Event::PeerConnected(id) => server
                    .session()
                    .send_bytes(id, &[2; 1_000], TransferMode::Reliable, 0)
                    .unwrap(),
                Event::Raw { data, .. } if data.len() == 1_000 => got += 1,
                Event::Error { peer, error } => panic!("peer {peer}: {error}"),
                _ => {}
            }
        }
        assert!(start.elapsed() < PATIENCE, "{got} of {count} joined");
        thread::sleep(Duration::from_millis(1));
    }
    for _ in 0..20 {
        server.service().unwrap();
        thread::sleep(Duration::from_millis(2));
    }
    child
}

/// The child: `count` clients join, each sends a 1,000-byte packet; then they are serviced
/// (answering pings) until the parent ends this process, or `PATIENCE` passes.
fn child(spec: &str) {
    let mut parts = spec.split(' ');
    let addr: SocketAddr = parts.next().unwrap().parse().unwrap();
    let tls = parts.next() == Some("true");
    let count: usize = parts.next().unwrap().parse().unwrap();
    let roots = TlsClientConfig::from_root_pem_file(fixture("test-cert.pem")).unwrap();
    let mut peers: Vec<WsPeer> = (0..count)
        .map(|_| {
            if tls {
                let url = format!("wss://localhost:{}/", addr.port());
                WsPeer::client_tls(addr, &url, &roots, Settings::default()).unwrap()
            } else {
                WsPeer::client(addr, &format!("ws://{addr}/"), Settings::default()).unwrap()
            }
        })
        .collect();
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        for peer in &mut peers {
            peer.service().unwrap();
            while let Some(event) = peer.poll_event() {
                if let Event::PeerConnected(1) = event {
                    peer.session()
                        .send_bytes(1, &[1; 1_000], TransferMode::Reliable, 0)
                        .unwrap();
                }
            }
        }
        thread::sleep(Duration::from_millis(2));
    }
}
