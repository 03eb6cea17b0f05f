//! Live: headless Godot 4 clients (`WebSocketMultiplayerPeer` with
//! `TLSOptions.client_unsafe()`, `tests/godot/wss_client4.gd`) against the Rust `wss://`
//! server with the test certificate of `tests/fixtures/` and an upgrade check on a token in
//! the URL, SceneMultiplayer's own authentication after it.

use crate::engine;
use crate::lobby::lobby;
use crate::wss::{client_tls, fixture, server_tls};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use std::time::Instant;

use godot_serde_multiplayer::transport::Transport;
use godot_serde_multiplayer::websocket::{HandshakeStats, Upgrade, WsPeer};
use godot_serde_multiplayer::{Event, Settings};

const SECRET: &str = "s3cret";

/// What the server saw.
#[derive(Default, Debug)]
struct Seen {
    connected: Vec<i32>,
    authenticating: Vec<i32>,
    log: Vec<String>,
    errors: Vec<String>,
}

fn serve(mut server: WsPeer, stop: Arc<AtomicBool>) -> (Seen, HandshakeStats) {
    let mut seen = Seen::default();
    server.session().declare(lobby());
    while !stop.load(Ordering::Relaxed) {
        server.service().unwrap();
        while let Some(event) = server.poll_event() {
            let session = server.session();
            match event {
                Event::PeerAuthenticating(peer) => seen.authenticating.push(peer),
                Event::AuthData { peer, data } => {
                    if data == SECRET.as_bytes() {
                        session.send_auth(peer, b"welcome?").unwrap();
                        assert!(session.complete_auth(peer));
                    } else {
                        session.disconnect_peer(peer);
                    }
                }
                Event::PeerConnected(peer) => {
                    seen.connected.push(peer);
                    session
                        .rpc(peer, "Lobby", "welcome", &("Rusty", i64::from(peer)))
                        .unwrap();
                }
                Event::Rpc(call) if call.method == "ping" => {
                    let (a, b): (i64, bool) = call.args_as().unwrap();
                    seen.log.push(format!("ping {a} {b}"));
                    session
                        .rpc(call.from, "Lobby", "echo", &(a + 1, "pong over wss"))
                        .unwrap();
                }
                Event::Error { peer, error } => seen.errors.push(format!("peer {peer}: {error}")),
                other => seen.log.push(format!("{other:?}")),
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let stats = server.transport().handshake_stats();
    server.close();
    (seen, stats)
}

fn script(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot")
        .join(name)
}

fn run_client(engine: &std::path::Path, url: &str, expect: &str, name: &str) -> (i32, String) {
    let project = engine::Godot4Project::new(
        &format!("mp_wss_{name}"),
        &[&script("wss_client4.gd"), &script("lobby.gd")],
    );
    let out = project.run(
        engine,
        "wss_client4.gd",
        &[url, SECRET, expect],
        Duration::from_secs(40),
    );
    let text = format!(
        "{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

/// A Godot 4 client with the good token joins over `wss://`, authenticates with
/// SceneMultiplayer's own auth, gets its welcome and the echo of its ping; two Godot clients
/// without a token (401) or with a wrong one (403) see `connection_failed`, and the server
/// saw no peer for them: one `PeerAuthenticating`, one `PeerConnected`, two refusals.
#[test]
fn godot4_joins_over_wss_and_a_bad_token_is_refused_at_the_upgrade() {
    let Some(engine) =
        engine::godot4_or_skip("godot4_joins_over_wss_and_a_bad_token_is_refused_at_the_upgrade")
    else {
        return;
    };
    assert!(fixture("test-cert.pem").exists());
    let settings = Settings::default()
        .with_auth(true)
        .with_auth_timeout_ms(10_000);
    let server = WsPeer::server_tls("127.0.0.1:0".parse().unwrap(), server_tls(), settings)
        .unwrap()
        .with_upgrade_auth(|request| match request.query_value("token") {
            Some("good") if request.is_tls() && request.path() == "/play" => Upgrade::Accept,
            Some(_) => Upgrade::Forbidden,
            None => Upgrade::Unauthorized,
        });
    let port = server.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handle = std::thread::spawn(move || serve(server, flag));

    let runs: Vec<_> = [
        ("good", "?token=good", "join"),
        ("none", "", "refused"),
        ("bad", "?token=bad", "refused"),
    ]
    .into_iter()
    .map(|(name, query, expect)| {
        let engine = engine.clone();
        let url = format!("wss://127.0.0.1:{port}/play{query}");
        std::thread::spawn(move || (name, expect, run_client(&engine, &url, expect, name)))
    })
    .collect();
    let runs: Vec<_> = runs.into_iter().map(|t| t.join().unwrap()).collect();
    stop.store(true, Ordering::Relaxed);
    let (seen, stats) = handle.join().unwrap();

    for (name, expect, (code, out)) in &runs {
        assert_eq!(*code, 0, "{name}: {out}\nserver: {seen:#?}");
        assert!(!out.contains(" FAIL"), "{name}: {out}");
        let wanted: &[&str] = if *expect == "join" {
            &[
                "CASE auth_data_from_server ok",
                "CASE connected ok",
                "CASE welcome ok",
                "CASE echo ok",
            ]
        } else {
            &["CASE refused_at_upgrade ok"]
        };
        for line in wanted {
            assert!(out.contains(line), "{name}: no {line:?} in\n{out}");
        }
    }
    assert_eq!(seen.authenticating.len(), 1, "{seen:#?}");
    assert_eq!(seen.connected.len(), 1, "{seen:#?}");
    assert_eq!(seen.log.first().map(String::as_str), Some("ping 41 true"));
    assert!(seen.errors.is_empty(), "{seen:#?}");
    assert_eq!((stats.refused, stats.failed), (2, 0), "{stats:?}");
    println!("live wss: Godot 4 joined over TLS, two refused at the upgrade: {stats:?}");
}

/// The Rust TLS client against Godot's own `wss://` server (`TLSOptions.server` with the test
/// certificate and key): it joins `wss://localhost`, checking the certificate against the
/// fixture as its only root, gets its welcome, and its ping is echoed.
#[test]
fn the_rust_wss_client_joins_a_godot4_wss_server() {
    let Some(engine) = engine::godot4_or_skip("the_rust_wss_client_joins_a_godot4_wss_server")
    else {
        return;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let godot = std::thread::spawn(move || {
        let project = engine::Godot4Project::new(
            "mp_wss_server",
            &[&script("wss_server4.gd"), &script("lobby.gd")],
        );
        let cert = fixture("test-cert.pem").display().to_string();
        let key = fixture("test-key.pem").display().to_string();
        let args = [port.to_string(), cert, key];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = project.run(&engine, "wss_server4.gd", &args, Duration::from_secs(60));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    });
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let url = format!("wss://localhost:{port}/");
    // The Godot server may still be starting: retry while the connection is refused.
    let start = Instant::now();
    let mut client = loop {
        let mut c = WsPeer::client_tls(addr, &url, &client_tls(), Settings::default()).unwrap();
        c.session().declare(lobby());
        let failed = loop {
            c.service().unwrap();
            if c.transport().unique_id().is_some() {
                break None;
            }
            if let Some(event) = c.poll_event() {
                break Some(event);
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        match failed {
            None => break c,
            Some(event) => assert!(
                start.elapsed() < Duration::from_secs(20),
                "no connection: {event:?}"
            ),
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let id = client.session().unique_id();
    let (mut welcomed, mut echoed) = (false, false);
    let start = Instant::now();
    while !(welcomed && echoed) {
        client.service().unwrap();
        while let Some(event) = client.poll_event() {
            match event {
                Event::PeerConnected(1) => client
                    .session()
                    .rpc(1, "Lobby", "ping", &(41, true))
                    .unwrap(),
                Event::Rpc(call) if call.method == "welcome" => {
                    let got: (String, i64) = call.args_as().unwrap();
                    assert_eq!(got, ("Godot".to_owned(), i64::from(id)));
                    welcomed = true;
                }
                Event::Rpc(call) if call.method == "echo" => {
                    let got: (i64, String) = call.args_as().unwrap();
                    assert_eq!(got, (42, "pong from godot".to_owned()));
                    echoed = true;
                }
                Event::Error { peer, error } => panic!("peer {peer}: {error}"),
                _ => {}
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{welcomed} {echoed}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    client.close();
    drop(client);
    let (code, out) = godot.join().unwrap();
    assert_eq!(code, Some(0), "{out}");
    for line in ["CASE ping ok", "CASE peer_left ok"] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
    println!("live wss: the Rust TLS client joined Godot 4's wss:// server as {id}");
}
