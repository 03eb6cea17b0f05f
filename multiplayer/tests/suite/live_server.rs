//! Live: headless Godot 4 clients (ENetMultiplayerPeer or WebSocketMultiplayerPeer +
//! SceneMultiplayer, `tests/godot/`) join the Rust server on 127.0.0.1 and exercise every part
//! of the protocol; an ENet client and a WebSocket client meet on one server (a `Host` with
//! both transports).

use crate::engine;
use crate::lobby;
use crate::peer;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use godot_serde::{Config, Variant};
use godot_serde_multiplayer::enet::{Captured, EnetPeer, EnetTransport};
use godot_serde_multiplayer::transport::Host;
use godot_serde_multiplayer::websocket::{WsPeer, WsTransport};
use godot_serde_multiplayer::{Event, Settings, TransferMode};
use lobby::lobby;
use peer::{Peer as Server, script};

const SECRET: &str = "s3cret";

/// What the server saw, for the assertions.
#[derive(Default, Debug)]
struct Seen {
    log: Vec<String>,
    errors: Vec<String>,
    captured: Vec<Captured>,
}

/// The server's event handling: authenticate by secret, welcome, echo, answer the modes.
fn handle(server: &mut Server, event: Event, seen: &mut Seen) {
    let session = server.session();
    match event {
        Event::PeerAuthenticating(_) => {}
        Event::AuthData { peer, data } => {
            if data == SECRET.as_bytes() {
                session.send_auth(peer, b"welcome?").unwrap();
                assert!(session.complete_auth(peer));
                seen.log.push("auth ok".into());
            } else {
                seen.log
                    .push(format!("auth refused {}", String::from_utf8_lossy(&data)));
                session.disconnect_peer(peer);
            }
        }
        Event::PeerConnected(peer) => {
            session
                .rpc(peer, "Lobby", "welcome", &("Rusty", i64::from(peer)))
                .unwrap();
        }
        Event::PeerDisconnected(peer) => seen.log.push(format!("left {peer}")),
        Event::Rpc(call) => match call.method.as_str() {
            "take" => {
                let (index, value, bytes) = match call.variants().unwrap().as_slice() {
                    [Variant::Int(i), v, Variant::PackedByteArray(b)] => {
                        (*i, v.clone(), b.0.clone())
                    }
                    other => panic!("take with {other:?}"),
                };
                // The engine's own var_to_bytes of the value, decoded independently.
                let want = Config::godot4().variant_from_bytes(&bytes).unwrap();
                let ok = want == value;
                seen.log
                    .push(format!("take {index} {}", if ok { "ok" } else { "FAIL" }));
                if !ok {
                    seen.errors.push(format!(
                        "take {index}: got {value:?}, var_to_bytes says {want:?}"
                    ));
                }
                session
                    .rpc_variants(call.from, "Lobby", "echo", &[Variant::Int(index), value])
                    .unwrap();
            }
            "unrel" | "ordered" | "chan" => {
                let (x,): (i64,) = call.args_as().unwrap();
                seen.log.push(format!(
                    "{} {x} {:?} ch{}",
                    call.method, call.mode, call.channel
                ));
                session
                    .rpc(call.from, "Lobby", &call.method, &(x + 1,))
                    .unwrap();
            }
            "ping" => {
                let (a, b): (i64, bool) = call.args_as().unwrap();
                seen.log.push(format!("ping {a} {b}"));
            }
            "done" => seen
                .log
                .push(format!("done {:?}", call.variants().unwrap())),
            other => seen.log.push(format!("rpc {other} from {}", call.from)),
        },
        Event::Raw { from, data, .. } => {
            seen.log.push(format!("raw {data:?}"));
            let back: Vec<u8> = data.iter().rev().copied().collect();
            session
                .send_bytes(from, &back, TransferMode::Reliable, 0)
                .unwrap();
        }
        Event::Error { peer, error } => seen.errors.push(format!("peer {peer}: {error}")),
        other => seen.log.push(format!("{other:?}")),
    }
}

/// Runs the server until `stop`, returning what it saw.
fn serve(mut server: Server, stop: Arc<AtomicBool>) -> Seen {
    let mut seen = Seen::default();
    if let Server::Enet(p) = &mut server {
        p.set_capture(true);
    }
    while !stop.load(Ordering::Relaxed) {
        server.service().unwrap();
        while let Some(event) = server.poll_event() {
            handle(&mut server, event, &mut seen);
        }
        server.service().unwrap();
        seen.captured.extend(server.take_captured());
        std::thread::sleep(Duration::from_millis(1));
    }
    server.close();
    seen
}

fn cases(stdout: &str) -> (Vec<String>, Vec<String>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("CASE ") {
            if let Some(name) = rest.strip_suffix(" ok") {
                ok.push(name.to_owned());
            } else {
                bad.push(rest.to_owned());
            }
        }
    }
    (ok, bad)
}

/// The server's settings: authentication by secret.
fn server_settings() -> Settings {
    Settings::default()
        .with_auth(true)
        .with_auth_timeout_ms(10_000)
}

/// Runs `server` (the Lobby declared) on a thread of its own until the flag is set.
fn spawn_server(mut server: Server) -> (Arc<AtomicBool>, std::thread::JoinHandle<Seen>) {
    server.session().declare(lobby());
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    (stop, std::thread::spawn(move || serve(server, flag)))
}

fn start_server(ws: bool) -> (u16, Arc<AtomicBool>, std::thread::JoinHandle<Seen>) {
    let settings = server_settings();
    let addr = "127.0.0.1:0".parse().unwrap();
    let (server, port) = if ws {
        let p = WsPeer::server(addr, settings).unwrap();
        let port = p.local_addr().unwrap().port();
        (Server::Ws(p), port)
    } else {
        let p = EnetPeer::server(addr, 32, settings).unwrap();
        let port = p.local_addr().unwrap().port();
        (Server::Enet(p), port)
    };
    let (stop, handle) = spawn_server(server);
    (port, stop, handle)
}

fn run_client(
    engine: &Path,
    port: u16,
    secret: &str,
    role: &str,
    transport: &str,
) -> (i32, String) {
    let project = engine::Godot4Project::new(
        &format!("mp_{transport}_{role}"),
        &[&script("client.gd"), &script("lobby.gd")],
    );
    let args = [&port.to_string(), secret, role, transport];
    let out = project.run(engine, "client.gd", &args, Duration::from_secs(40));
    let text = format!(
        "{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

type Passed = Vec<(&'static str, Vec<String>)>;

/// Runs the four clients against a fresh server; returns the server's view, each role's passed
/// cases, and the number of client-side checks.
fn exercise(engine: &Path, transport: &'static str) -> (Seen, Passed, usize) {
    let (port, stop, server) = start_server(transport == "ws");
    // The full exercise beside a wrong secret, then two clients that meet through the relay.
    let mut runs = Vec::new();
    for wave in [
        [("main", SECRET), ("bad", "wrong")],
        [("a", SECRET), ("b", SECRET)],
    ] {
        let started: Vec<_> = wave
            .into_iter()
            .map(|(role, secret)| {
                let engine = engine.to_path_buf();
                std::thread::spawn(move || {
                    (role, run_client(&engine, port, secret, role, transport))
                })
            })
            .collect();
        runs.extend(started.into_iter().map(|t| t.join().unwrap()));
    }
    let mut total_ok = 0;
    let mut failures = Vec::new();
    let mut outputs = Vec::new();
    for (role, (code, stdout)) in runs {
        let (ok, bad) = cases(&stdout);
        total_ok += ok.len();
        if code != 0 || !bad.is_empty() {
            failures.push(format!("{role}: exit {code}, failed {bad:?}\n{stdout}"));
        }
        outputs.push((role, ok));
    }
    stop.store(true, Ordering::Relaxed);
    let seen = server.join().unwrap();
    assert!(
        failures.is_empty(),
        "client failures:\n{}\nserver: {seen:#?}",
        failures.join("\n")
    );
    assert!(seen.errors.is_empty(), "server errors: {:#?}", seen.errors);
    (seen, outputs, total_ok)
}

/// The checks both transports share.
fn check_common(seen: &Seen, outputs: &Passed) {
    let ok_of = |role: &str| -> BTreeSet<String> {
        outputs
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, ok)| ok.iter().cloned().collect())
            .unwrap()
    };
    let main = ok_of("main");
    // 52 values, each echoed back and compared by the engine.
    assert_eq!(
        main.iter().filter(|c| c.starts_with("echo_")).count(),
        52,
        "{main:?}"
    );
    for case in [
        "connected_to_server",
        "auth_data_from_server",
        "welcome",
        "server_unrel",
        "server_ordered",
        "server_chan",
        "raw_echo",
    ] {
        assert!(main.contains(case), "main lacks {case}: {main:?}");
    }
    assert!(ok_of("a").contains("relay_hello_a"));
    let b = ok_of("b");
    assert!(
        b.contains("relay_hello_b") && b.contains("relay_peer_left"),
        "{b:?}"
    );
    assert!(
        ok_of("bad").iter().any(|c| c.starts_with("auth_failed_")),
        "{:?}",
        ok_of("bad")
    );
    // The server's view: every value matched the engine's var_to_bytes.
    let takes = seen
        .log
        .iter()
        .filter(|l| l.starts_with("take ") && l.ends_with(" ok"))
        .count();
    assert_eq!(takes, 52);
    assert!(
        seen.log.contains(&"auth refused wrong".to_owned()),
        "{:?}",
        seen.log
    );
    assert!(
        seen.log.contains(&"raw [9, 8, 7]".to_owned()),
        "{:?}",
        seen.log
    );
    assert_eq!(
        seen.log.iter().filter(|l| *l == "ping 5 true").count(),
        2,
        "{:?}",
        seen.log
    );
}

/// Asserts that each of `lines` is in the server's log.
fn assert_logged(log: &[String], lines: &[&str]) {
    for line in lines {
        assert!(log.iter().any(|l| l == line), "{line}: {log:?}");
    }
}

#[test]
fn godot4_clients_join_the_rust_enet_server() {
    let Some(engine) = engine::godot4_or_skip("godot4_clients_join_the_rust_enet_server") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let (seen, outputs, total_ok) = exercise(&engine, "enet");
    check_common(&seen, &outputs);
    // Both unreliable modes arrive on SYSCH_UNRELIABLE; the transport reports them as
    // Unreliable (see the enet module on telling the two apart).
    assert_logged(
        &seen.log,
        &[
            "unrel 11 Unreliable ch0",
            "ordered 22 Unreliable ch0",
            "chan 33 Reliable ch2",
        ],
    );

    // Byte layouts, derived by hand from scene_cache_interface.cpp / scene_rpc_interface.cpp.
    let main_packets: Vec<&Captured> = seen
        .captured
        .iter()
        .filter(|c| {
            c.data.first() == Some(&1)
                || c.data.starts_with(&[0x20])
                || c.data.starts_with(&[0x00, 0x01, 0x05])
        })
        .collect();
    // SIMPLIFY_PATH: command 1, MD5 of "chandoneechohelloorderedpingtakeunrelwelcome" + NUL,
    // cache id 1, "Lobby" + NUL; on SYSCH_RELIABLE (ENet channel 0).
    let mut simplify = vec![0x01];
    simplify.extend_from_slice(b"576fb79fa0de0e6f50dd7d79cd2b5865\0");
    simplify.extend_from_slice(&[1, 0, 0, 0]);
    simplify.extend_from_slice(b"Lobby\0");
    assert!(
        main_packets
            .iter()
            .any(|c| c.data == simplify && c.enet_channel == 0),
        "no SIMPLIFY_PATH {simplify:02x?} in {main_packets:02x?}"
    );
    // The first ping(5, true), before the confirmation: meta 0x20 (32-bit node id), node id
    // 0x80000000 | 10 (the path's offset), method 5, count 2, int 5 (meta 0x02, 1 byte),
    // true (meta 0x81), then "Lobby" + NUL.
    let first_ping = [
        0x20, 0x0A, 0, 0, 0x80, 5, 2, 0x02, 5, 0x81, b'L', b'o', b'b', b'b', b'y', 0,
    ];
    assert!(
        main_packets.iter().any(|c| c.data == first_ping),
        "no path-form ping in {main_packets:02x?}"
    );
    // The second, after it: meta 0 (8-bit node id, 8-bit method id), node 1, method 5, ...
    let second_ping = [0x00, 0x01, 5, 2, 0x02, 5, 0x81];
    assert!(
        main_packets.iter().any(|c| c.data == second_ping),
        "no compact ping in {main_packets:02x?}"
    );
    // RAW on SYSCH_RELIABLE: command 3 then the bytes.
    assert!(
        seen.captured
            .iter()
            .any(|c| c.data == [3, 9, 8, 7] && c.enet_channel == 0)
    );
    // unreliable and ordered on SYSCH_UNRELIABLE (1), the user channel 2 on ENet channel 3.
    assert!(
        seen.captured
            .iter()
            .any(|c| c.enet_channel == 1 && c.data.ends_with(&[0x02, 11]))
    );
    assert!(
        seen.captured
            .iter()
            .any(|c| c.enet_channel == 1 && c.data.ends_with(&[0x02, 22]))
    );
    assert!(
        seen.captured
            .iter()
            .any(|c| c.enet_channel == 3 && c.data.ends_with(&[0x02, 33]))
    );
    // Authentication: SYS AUTH with the secret, then the empty completion.
    let mut auth = vec![7, 0];
    auth.extend_from_slice(SECRET.as_bytes());
    assert!(
        seen.captured
            .iter()
            .any(|c| c.data == auth && c.enet_channel == 0)
    );
    assert!(seen.captured.iter().any(|c| c.data == [7, 0]));
    // Relay: a client's hello to the other goes as SYS RELAY (7, 3) with the target id.
    assert!(
        seen.captured.iter().any(|c| c.data.starts_with(&[7, 3])),
        "no relay packet"
    );

    println!("live ENet server cases: {total_ok} client-side checks passed");
}

#[test]
fn godot4_websocket_clients_join_the_rust_server() {
    let Some(engine) = engine::godot4_or_skip("godot4_websocket_clients_join_the_rust_server")
    else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let (seen, outputs, total_ok) = exercise(&engine, "ws");
    check_common(&seen, &outputs);
    // WebSocket is reliable and has no channels: every mode arrives as reliable on channel 0,
    // as WebSocketMultiplayerPeer delivers it.
    assert_logged(
        &seen.log,
        &[
            "unrel 11 Reliable ch0",
            "ordered 22 Reliable ch0",
            "chan 33 Reliable ch0",
        ],
    );
    println!("live WebSocket server cases: {total_ok} client-side checks passed");
}

/// One Rust server, two transports: a Godot 4 client over ENet ("a") and one over WebSocket
/// ("b") authenticate, greet each other through the server's relay (each checks the other's
/// `hello` and that `get_remote_sender_id` is the other's id), then "a" leaves and "b" sees
/// it.
#[test]
fn godot4_enet_and_websocket_clients_share_one_rust_server() {
    let Some(engine) =
        engine::godot4_or_skip("godot4_enet_and_websocket_clients_share_one_rust_server")
    else {
        return;
    };
    let settings = server_settings();
    let addr = "127.0.0.1:0".parse().unwrap();
    let enet = EnetTransport::server(addr, 32, &settings.limits).unwrap();
    let ws = WsTransport::server(addr, &settings.limits).unwrap();
    let ports = [
        ("enet", enet.local_addr().unwrap().port()),
        ("ws", ws.local_addr().unwrap().port()),
    ];
    let mut host = Host::server(settings);
    host.add(enet);
    host.add(ws);
    let (stop, server) = spawn_server(Server::Host(host));
    let clients: Vec<_> = [("a", ports[0]), ("b", ports[1])]
        .into_iter()
        .map(|(role, (transport, port))| {
            let engine = engine.clone();
            std::thread::spawn(move || (role, run_client(&engine, port, SECRET, role, transport)))
        })
        .collect();
    let runs: Vec<_> = clients.into_iter().map(|t| t.join().unwrap()).collect();
    stop.store(true, Ordering::Relaxed);
    let seen = server.join().unwrap();
    for (role, (code, stdout)) in &runs {
        let (ok, bad) = cases(stdout);
        assert!(
            *code == 0 && bad.is_empty(),
            "{role}: exit {code}, failed {bad:?}\n{stdout}\nserver: {seen:#?}"
        );
        let want: &[&str] = match *role {
            "a" => &["connected_to_server", "relay_hello_a"],
            _ => &["connected_to_server", "relay_hello_b", "relay_peer_left"],
        };
        for case in want {
            assert!(ok.iter().any(|c| c == case), "{role} lacks {case}: {ok:?}");
        }
    }
    assert!(seen.errors.is_empty(), "server errors: {:#?}", seen.errors);
    assert_eq!(
        seen.log.iter().filter(|l| *l == "auth ok").count(),
        2,
        "{:?}",
        seen.log
    );
    // "a" left before "b" could see it (b may quit before its own leaving is read).
    assert!(
        seen.log.iter().any(|l| l.starts_with("left ")),
        "{:?}",
        seen.log
    );
}
