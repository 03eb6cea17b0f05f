//! `godot-serde bots` against a server of `godot-serde-multiplayer` started by the test (ENet
//! and WebSocket on 127.0.0.1): the bots join, call `Game.echo` at the rate, the server
//! answers each call with `echo` back, and the printed statistics say so.

use crate::common::run;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use godot_serde_multiplayer::enet::EnetTransport;
use godot_serde_multiplayer::transport::Host;
use godot_serde_multiplayer::websocket::WsTransport;
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings};

/// What the server saw.
struct Seen {
    max_peers: usize,
    calls: u64,
}

/// A server with the node `Game` (`@rpc("any_peer") func echo(...)`, answered with the same
/// arguments), on an ENet and a WebSocket port; authenticating with `secret` if given.
fn server(
    secret: Option<&'static str>,
) -> (
    SocketAddr,
    SocketAddr,
    Arc<AtomicBool>,
    std::thread::JoinHandle<Seen>,
) {
    let settings = Settings::default().with_auth(secret.is_some());
    let mut host = Host::server(settings.clone());
    let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let enet = EnetTransport::server(any, 256, &settings.limits).unwrap();
    let ws = WsTransport::server(any, &settings.limits).unwrap();
    let (enet_addr, ws_addr) = (enet.local_addr().unwrap(), ws.local_addr().unwrap());
    host.add(enet);
    host.add(ws);
    host.session()
        .declare(RpcTable::new("Game").with(RpcMethod::any_peer("echo")));
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        let mut seen = Seen {
            max_peers: 0,
            calls: 0,
        };
        while !stopped.load(Ordering::Relaxed) {
            host.service().unwrap();
            while let Some(event) = host.poll_event() {
                let session = host.session();
                match event {
                    Event::PeerConnected(_) => {
                        seen.max_peers = seen.max_peers.max(session.peers().count());
                    }
                    Event::AuthData { peer, data } => {
                        if secret.map(str::as_bytes) == Some(data.as_slice()) {
                            session.complete_auth(peer);
                        } else {
                            session.disconnect_peer(peer);
                        }
                    }
                    Event::Rpc(call) if call.method == "echo" => {
                        seen.calls += 1;
                        let args = call.variants().unwrap();
                        session
                            .rpc_variants(call.from, "Game", "echo", &args)
                            .unwrap();
                    }
                    _ => {}
                }
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        host.close();
        seen
    });
    (enet_addr, ws_addr, stop, handle)
}

fn field(json: &serde_json::Value, name: &str) -> u64 {
    json[name]
        .as_u64()
        .unwrap_or_else(|| panic!("{name} in {json}"))
}

/// 20 ENet bots, 8 to a socket, at 10 calls a second for 2 s, with authentication: all join,
/// the calls are answered; the JSON says so and agrees with what the server counted.
#[test]
fn enet_bots_call_and_time_the_answers() {
    let (enet, _, stop, server) = server(Some("s3cret"));
    let addr = enet.to_string();
    let r = run(
        &[
            "bots",
            &addr,
            "--count",
            "20",
            "--rate",
            "10",
            "--rpc",
            "/root/Game:echo:[7, \"hi\"]",
            "--duration",
            "2",
            "--per-socket",
            "8",
            "--auth",
            "s3cret",
            "--json",
        ],
        b"",
    );
    stop.store(true, Ordering::Relaxed);
    let seen = server.join().unwrap();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(json["transport"], "enet");
    // 20 bots, 8 to a socket: 3 sockets.
    assert_eq!(field(&json, "sockets"), 3);
    assert_eq!(
        (field(&json, "joined"), field(&json, "failed")),
        (20, 0),
        "{json}"
    );
    assert_eq!(seen.max_peers, 20);
    // At most 21 calls a bot (less the time to join, and ticks a loaded machine skips);
    // every answer the server sent for a call it got, and only those, ended a round trip; at
    // most the calls of the last moment (3 a bot) are unanswered.
    let (sent, trips) = (field(&json, "rpcs_sent"), field(&json, "round_trips"));
    assert!((100..=420).contains(&sent), "{json}");
    assert!(
        trips <= seen.calls && seen.calls <= sent,
        "{json}, server {}",
        seen.calls
    );
    assert!(trips + 60 >= sent, "{json}");
    assert_eq!(field(&json, "rpcs_received"), trips, "{json}");
    assert!(json["latency_p50_us"].is_u64() && json["latency_p99_us"].is_u64());
}

/// WebSocket bots print the text form.
#[test]
fn websocket_bots_print_text() {
    let (_, ws, stop, server) = server(None);
    let addr = ws.to_string();
    let r = run(
        &[
            "bots",
            &addr,
            "--ws",
            "--count",
            "5",
            "--rpc",
            "Game:echo:1",
            "--duration",
            "1",
            "--ramp",
            "50",
        ],
        b"",
    );
    stop.store(true, Ordering::Relaxed);
    let seen = server.join().unwrap();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let out = r.out();
    assert!(
        out.starts_with("bots: 5 (WebSocket): 5 started, 5 joined, 0 failed"),
        "{out}"
    );
    assert!(out.contains("round trips: "), "{out}");
    assert_eq!(seen.max_peers, 5);
    assert!(seen.calls > 0);
}

/// Nothing listening: every bot fails, exit code 1; bad arguments are usage errors.
#[test]
fn no_server_and_bad_arguments() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let r = run(
        &["bots", &addr, "--ws", "--count", "3", "--duration", "1"],
        b"",
    );
    r.fails_with("no bot joined");
    assert!(r.out().contains("3 failed"), "{}", r.out());
    run(&["bots", &addr, "--rpc", "Game"], b"").fails_with("NODE_PATH:METHOD");
    run(&["bots", &addr, "--rpc", "Game:echo:[1,"], b"").fails_with("Godot's text form");
    run(&["bots", &addr, "--count", "0"], b"").fails_with("--count");
    run(&["bots", &addr, "--rate=-1"], b"").fails_with("--rate");
    run(&["bots", &addr, "--per-socket", "5000"], b"").fails_with("--per-socket");
    run(&["bots", "nowhere", "--count", "1"], b"").fails_with("ADDR");
}
