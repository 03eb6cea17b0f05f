//! Live against Godot 3.2.3 (`godot3-server`): stock Godot 3 clients (`NetworkedMultiplayerENet`
//! and `MultiplayerAPI`, `tests/godot3/`) join the Rust server, and a Rust client joins a Godot 3
//! server. Both exchange remote calls with every Variant type, `rset`, RAW and unreliable
//! packets; the modes are enforced on both sides; peers leave.

use crate::dialect::free_udp_port;
use crate::engine;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::Godot3Project;
use godot_serde::{Color, Variant};
use godot_serde_multiplayer::Limits;
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::websocket::Ws3Peer;
use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode};
use godot_serde_multiplayer::{Event, ProtocolError, TransferMode};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot3")
        .join(name)
}

fn project(test: &str) -> Godot3Project {
    Godot3Project::new(
        test,
        &[
            script("client3.gd"),
            script("server3.gd"),
            script("lobby3.gd"),
            script("values3.gd"),
        ],
    )
}

/// The members of `tests/godot3/lobby3.gd`, as the Rust side declares them.
fn lobby() -> NodeTable {
    NodeTable::new("/root/Lobby")
        .method("take", RemoteMode::Remote)
        .method("offer", RemoteMode::Remote)
        .method("echo", RemoteMode::Puppet)
        .method("master_only", RemoteMode::Master)
        .method("puppet_only", RemoteMode::Puppet)
        .method("unrel", RemoteMode::Remote)
        .method("both", RemoteMode::RemoteSync)
        .method("hello", RemoteMode::Remote)
        .method("done", RemoteMode::Remote)
        .method("finish", RemoteMode::Puppet)
        .property("score", RemoteMode::Remote)
        .property("hp", RemoteMode::Puppet)
        .property("color", RemoteMode::Puppet)
}

fn engine_args(port: u16, role: &str, transport: &str) -> Vec<String> {
    vec![
        port.to_string(),
        role.to_owned(),
        "res://values3.gd".into(),
        "res://lobby3.gd".into(),
        transport.into(),
    ]
}

/// A Rust peer under test (server or client), over either transport.
enum Peer3 {
    Enet(Enet3Peer),
    Ws(Ws3Peer),
}

/// The Rust server under test.
type Server = Peer3;

impl Peer3 {
    fn session(&mut self) -> &mut godot_serde_multiplayer::godot3::Session {
        match self {
            Self::Enet(p) => p.session(),
            Self::Ws(p) => p.session(),
        }
    }

    fn service(&mut self) {
        match self {
            Self::Enet(p) => p.service().unwrap(),
            Self::Ws(p) => p.service().unwrap(),
        }
    }

    fn poll_event(&mut self) -> Option<Event> {
        match self {
            Self::Enet(p) => p.poll_event(),
            Self::Ws(p) => p.poll_event(),
        }
    }

    fn close(&mut self) {
        match self {
            Self::Enet(p) => p.close(),
            Self::Ws(p) => p.close(),
        }
    }
}

fn report(name: &str, out: &std::process::Output) -> Vec<(String, bool, String)> {
    let cases = cases(out);
    let failed: Vec<_> = cases.iter().filter(|c| !c.1).collect();
    assert!(
        failed.is_empty() && out.status.success(),
        "{name}: {} ({failed:?})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    cases
}

#[test]
fn godot3_clients_join_the_rust_server() {
    let Some(engine) = engine::godot3_or_skip("godot3_clients_join_the_rust_server") else {
        return;
    };
    let port = free_udp_port();
    let server = Enet3Peer::server(
        format!("127.0.0.1:{port}").parse().unwrap(),
        8,
        Limits::default(),
    )
    .unwrap();
    serve(&engine, Server::Enet(server), port, "enet");
}

#[test]
fn godot3_websocket_clients_join_the_rust_server() {
    let Some(engine) = engine::godot3_or_skip("godot3_websocket_clients_join_the_rust_server")
    else {
        return;
    };
    let server = Ws3Peer::server("127.0.0.1:0".parse().unwrap(), Limits::default()).unwrap();
    let port = server.local_addr().unwrap().port();
    serve(&engine, Server::Ws(server), port, "ws");
}

fn serve(engine: &Path, mut server: Server, port: u16, transport: &str) {
    server.session().declare(lobby());
    let project = project(&format!("server_{transport}"));
    let timeout = Duration::from_secs(60);
    let main = project.spawn(
        engine,
        "client3.gd",
        &engine_args(port, "main", transport),
        timeout,
    );

    let mut offers = 0;
    let mut rsets = Vec::new();
    let mut refused = Vec::new();
    let mut other_errors = Vec::new();
    let mut raw = Vec::new();
    let mut unreliable = Vec::new();
    let mut master_only = 0;
    let mut hellos = Vec::new();
    let mut joined = Vec::new();
    let mut left = Vec::new();
    let mut relay = None;
    let start = Instant::now();
    let mut main_done = false;
    let mut relay_out = None;
    while start.elapsed() < timeout + Duration::from_secs(5) {
        server.service();
        while let Some(event) = server.poll_event() {
            match event {
                Event::PeerConnected(p) => joined.push(p),
                Event::PeerDisconnected(p) => left.push(p),
                Event::Rpc(call) => match call.method.as_str() {
                    "offer" => {
                        offers += 1;
                        let (i, v): (i64, Variant) = call.args_as().unwrap();
                        server
                            .session()
                            .rpc(call.from, "Lobby", "echo", &(i, v))
                            .unwrap();
                    }
                    "master_only" => {
                        master_only += 1;
                        assert_eq!(call.variants().unwrap(), [Variant::Int(7)]);
                    }
                    "unrel" => unreliable.push((
                        call.variants().unwrap(),
                        (call.mode == TransferMode::Unreliable),
                    )),
                    "hello" => hellos.push((call.from, call.variants().unwrap())),
                    "done" => {
                        let (n,): (i64,) = call.args_as().unwrap();
                        let s = server.session();
                        s.rset(
                            call.from,
                            "Lobby",
                            "color",
                            &Color {
                                r: 0.5,
                                g: 0.25,
                                b: 1.0,
                                a: 1.0,
                            },
                        )
                        .unwrap();
                        s.send_bytes(call.from, &[9, 8], false).unwrap();
                        s.rpc(call.from, "Lobby", "finish", &(n,)).unwrap();
                    }
                    other => panic!("unexpected call {other}"),
                },
                Event::Rset(set) => rsets.push((
                    set.method.clone(),
                    set.variants().unwrap(),
                    (set.mode == TransferMode::Unreliable),
                )),
                Event::Raw { from, data, .. } => raw.push((from, data)),
                Event::Error { peer, error } => match error {
                    ProtocolError::RemoteNotAllowed { member, mode, .. } => {
                        refused.push((peer, member, mode))
                    }
                    other => other_errors.push(other.to_string()),
                },
                _ => {}
            }
        }
        if !main_done && main.is_finished() {
            main_done = true;
            // Two more clients: relay through the server, a leaves, b sees it.
            let a = project.spawn(
                engine,
                "client3.gd",
                &engine_args(port, "a", transport),
                timeout,
            );
            std::thread::sleep(Duration::from_millis(300));
            let b = project.spawn(
                engine,
                "client3.gd",
                &engine_args(port, "b", transport),
                timeout,
            );
            relay = Some((a, b));
        }
        if let Some((a, b)) = &relay {
            if a.is_finished() && b.is_finished() {
                relay_out = relay.take();
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let main = report("main", &main.join().unwrap());
    let (a, b) = relay_out.expect("the relay clients finished");
    let a = report("a", &a.join().unwrap());
    let b = report("b", &b.join().unwrap());
    let echoes = main.iter().filter(|c| c.0.starts_with("echo_")).count();
    println!(
        "Godot 3.2.3 clients over {transport}: {echoes} Variant echoes, {offers} offers, {} rsets, {} refused \
         calls/sets, {} RAW, {} unreliable, relay: a {:?} b {:?}, joined {joined:?}, left {left:?}",
        rsets.len(),
        refused.len(),
        raw.len(),
        unreliable.len(),
        a.iter().map(|c| &c.0).collect::<Vec<_>>(),
        b.iter().map(|c| &c.0).collect::<Vec<_>>(),
    );
    assert!(other_errors.is_empty(), "{other_errors:?}");
    assert_eq!(echoes, 35, "{main:?}");
    assert_eq!(offers, 35);
    assert!(main.iter().any(|c| c.0 == "finish"));
    assert!(main.iter().any(|c| c.0 == "rset_color"));
    assert!(main.iter().any(|c| c.0 == "raw_from_server"));
    assert_eq!(master_only, 1);
    // WebSocket has no unreliable transfer: everything arrives reliable.
    let ws = transport == "ws";
    assert_eq!(unreliable, [(vec![Variant::Int(3)], !ws)]);
    // rset_id(1, "score", 42) reliable; rset_unreliable_id(1, "score", 43).
    rsets.sort_by_key(|r| r.2);
    assert_eq!(
        rsets,
        [
            ("score".to_owned(), vec![Variant::Int(42)], false),
            ("score".to_owned(), vec![Variant::Int(43)], !ws)
        ]
    );
    let mut refused_members: Vec<_> = refused.iter().map(|r| (r.1.as_str(), r.2)).collect();
    refused_members.sort();
    assert_eq!(
        refused_members,
        [
            ("hp", RemoteMode::Puppet),
            ("puppet_only", RemoteMode::Puppet),
            ("undeclared_fn", RemoteMode::Disabled)
        ]
    );
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].1, [1, 2, 3]);
    // a's broadcast reached the server (target 0) and b; b's answer to a did not reach us.
    assert_eq!(hellos.len(), 1, "{hellos:?}");
    assert_eq!(hellos[0].1, [Variant::from("broadcast from a")]);
    assert!(a.iter().any(|c| c.0 == "hello_a"));
    assert!(b.iter().any(|c| c.0 == "hello_b"));
    assert!(b.iter().any(|c| c.0 == "peer_left"));
    assert_eq!(joined.len(), 3);
    assert_eq!(left.len(), 3, "{left:?}");
}

/// The Rust client under test, over either transport.
type Client = Peer3;

#[test]
fn rust_client_joins_a_godot3_server() {
    let Some(engine) = engine::godot3_or_skip("rust_client_joins_a_godot3_server") else {
        return;
    };
    join(&engine, "enet");
}

#[test]
fn rust_websocket_client_joins_a_godot3_server() {
    let Some(engine) = engine::godot3_or_skip("rust_websocket_client_joins_a_godot3_server") else {
        return;
    };
    join(&engine, "ws");
}

fn join(engine: &Path, transport: &str) {
    let port = free_udp_port();
    let project = project(&format!("client_{transport}"));
    let timeout = Duration::from_secs(60);
    let godot = project.spawn(
        engine,
        "server3.gd",
        &engine_args(port, "server", transport),
        timeout,
    );
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut client = if transport == "ws" {
        // The server needs a moment to listen: `client` returns at once, and a refused
        // connection is the first events' `Event::Error` for peer 1; then try again.
        let start = Instant::now();
        let url = format!("ws://127.0.0.1:{port}/");
        'connect: loop {
            let mut c = Ws3Peer::client(addr, &url, Limits::default()).unwrap();
            // Declared before the first `service`: the server's first calls come with it.
            c.session().declare(lobby());
            loop {
                c.service().unwrap();
                if c.session().unique_id() != 0 {
                    break 'connect Client::Ws(c);
                }
                if let Some(failed) = c.poll_event() {
                    assert!(
                        start.elapsed() < Duration::from_secs(20),
                        "no connection: {failed:?}"
                    );
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    } else {
        std::thread::sleep(Duration::from_millis(500));
        Client::Enet(Enet3Peer::client(addr, Limits::default()).unwrap())
    };
    client.session().declare(lobby());
    let mut offers = 0;
    let mut color = None;
    let mut refused = Vec::new();
    let mut other_errors = Vec::new();
    let mut raw = Vec::new();
    let mut unreliable = Vec::new();
    let mut finished = None;
    let mut local_both = None;
    let start = Instant::now();
    while finished.is_none() && start.elapsed() < timeout {
        client.service();
        while let Some(event) = client.poll_event() {
            let s = client.session();
            match event {
                Event::PeerConnected(1) => {
                    s.rset(1, "Lobby", "score", &42).unwrap();
                    s.rset(1, "Lobby", "hp", &5).unwrap();
                    s.rpc(1, "Lobby", "puppet_only", &(1,)).unwrap();
                    // remotesync: sent, and the engine would also run it locally.
                    local_both = Some(s.rpc(0, "Lobby", "both", &(11,)).unwrap());
                    s.rpc_unreliable(1, "Lobby", "unrel", &(6,)).unwrap();
                    s.send_bytes(1, &[1, 2, 3], false).unwrap();
                }
                Event::Rpc(call) => match call.method.as_str() {
                    "offer" => {
                        let (i, v): (i64, Variant) = call.args_as().unwrap();
                        offers += 1;
                        s.rpc(1, "Lobby", "take", &(i, v)).unwrap();
                        if offers == 35 {
                            s.rpc(1, "Lobby", "done", &(offers,)).unwrap();
                        }
                    }
                    "unrel" => unreliable.push((
                        call.variants().unwrap(),
                        (call.mode == TransferMode::Unreliable),
                    )),
                    "finish" => finished = Some(call.variants().unwrap()),
                    other => panic!("unexpected call {other}"),
                },
                Event::Rset(set) => {
                    assert_eq!((set.from, set.method.as_str()), (1, "color"));
                    color = Some(set.value_as::<Color>().unwrap());
                }
                Event::Raw { from, data, .. } => raw.push((from, data)),
                Event::Error { peer, error } => match error {
                    ProtocolError::RemoteNotAllowed {
                        member,
                        mode,
                        master,
                        ..
                    } => refused.push((peer, member, mode, master)),
                    other => other_errors.push(other.to_string()),
                },
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // Let the last packets go, then leave.
    for _ in 0..50 {
        client.service();
        std::thread::sleep(Duration::from_millis(2));
    }
    client.close();
    let out = godot.join().unwrap();
    let cases = report("server3", &out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let takes = cases.iter().filter(|c| c.0.starts_with("take_")).count();
    println!(
        "Godot 3.2.3 server over {transport}, Rust client {}: {offers} offers, {takes} Variants taken back, \
         {} engine cases, {} refused here, {} RAW, {} unreliable",
        client.session().unique_id(),
        cases.len(),
        refused.len(),
        raw.len(),
        unreliable.len()
    );
    assert!(other_errors.is_empty(), "{other_errors:?}");
    assert_eq!(offers, 35);
    assert_eq!(takes, 35);
    assert_eq!(finished, Some(vec![Variant::Int(35)]));
    assert_eq!(local_both, Some(true));
    assert_eq!(
        color,
        Some(Color {
            r: 0.5,
            g: 0.25,
            b: 1.0,
            a: 1.0
        })
    );
    assert_eq!(
        refused,
        [(1, "master_only".to_owned(), RemoteMode::Master, 1)]
    );
    assert_eq!(raw, [(1, vec![9, 8])]);
    assert_eq!(unreliable, [(vec![Variant::Int(5)], transport != "ws")]);
    for name in [
        "both",
        "unrel",
        "done",
        "rset_score",
        "hp_untouched",
        "raw_from_client",
        "client_left",
    ] {
        assert!(
            cases.iter().any(|c| c.0 == name),
            "no case {name}: {cases:?}"
        );
    }
    // The engine refused what the modes forbid, with its own words.
    assert!(
        stderr.contains("RPC 'puppet_only' is not allowed on node /root/Lobby from: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("RSET 'hp' is not allowed on node /root/Lobby from: "),
        "{stderr}"
    );
}

/// The `CASE name ok|FAIL detail` lines of an engine's output.
fn cases(out: &std::process::Output) -> Vec<(String, bool, String)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .map(|l| {
            let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
            (name.to_owned(), rest == "ok", rest.to_owned())
        })
        .collect()
}

/// The typed Godot 3.2 script of an RPC set (`Stubs::typed3`) in a live Godot 3.2.3 client
/// (`tests/godot3/typed_client3.gd`, its node `typed_room3.gd` extending the generated script
/// and overriding `_on_reply`): it parses, its typed senders arrive as the set's values
/// (every argument typed, `ping` unreliable, `shout` remotesync), and the server's typed
/// reply reaches the override first, then the signal. Expected values are written out here
/// and in the client.
#[cfg(feature = "derive")]
mod typed3 {
    use super::*;
    use crate::dialect::serve_engine;
    use godot_serde::{PackedByteArray, Quaternion, Vector2};
    use godot_serde_multiplayer::Rpcs;
    use godot_serde_multiplayer::gdscript::Stubs;
    use godot_serde_multiplayer::typed::RpcSet;

    #[derive(serde::Serialize, serde::Deserialize, Rpcs, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    #[rpcs(node = "/root/Room")]
    enum RoomRpc {
        #[rpc(any_peer)]
        Report {
            name: String,
            count: i64,
            ratio: f64,
            ok: bool,
            at: Vector2,
            tags: Vec<String>,
            tint: Color,
            turn: Quaternion,
            blob: PackedByteArray,
        },
        #[rpc(any_peer, unreliable)]
        Ping { n: i32 },
        #[rpc(any_peer, call_local)]
        Shout { text: String },
        Reply {
            id: i32,
            tags: Vec<String>,
            turn: Quaternion,
            blob: PackedByteArray,
        },
    }

    #[test]
    fn typed_godot3_script_talks_to_the_rust_server() {
        let Some(engine) = engine::godot3_or_skip("typed_godot3_script_talks_to_the_rust_server")
        else {
            return;
        };
        let project = Godot3Project::new(
            "typed3",
            &[
                script("typed_client3.gd"),
                script("lobby_client3.gd"),
                script("typed_room3.gd"),
            ],
        );
        std::fs::write(
            project.dir.join("generated_typed3.gd"),
            Stubs::new().typed3::<RoomRpc>().unwrap(),
        )
        .unwrap();
        let port = free_udp_port();
        let mut server = Enet3Peer::server(
            format!("127.0.0.1:{port}").parse().unwrap(),
            4,
            Limits::default(),
        )
        .unwrap();
        server.session().declare(RoomRpc::node_table());
        let client = project.spawn(
            &engine,
            "typed_client3.gd",
            &[port.to_string()],
            Duration::from_secs(60),
        );
        let mut calls = Vec::new();
        let on_event = |server: &mut Enet3Peer, event| {
            let Event::Rpc(call) = event else { return };
            let s = server.session();
            if let Some(value) = s.call_of::<RoomRpc>(&call) {
                if matches!(value, RoomRpc::Shout { .. }) {
                    let reply = RoomRpc::Reply {
                        id: call.from,
                        tags: vec!["x".into(), "y".into()],
                        turn: Quaternion {
                            x: 0.0,
                            y: 1.0,
                            z: 0.0,
                            w: 0.0,
                        },
                        blob: PackedByteArray(vec![9, 8]),
                    };
                    s.rpc_to(call.from, &reply).unwrap();
                }
                calls.push(value);
            }
        };
        let (out, errors) = serve_engine(&mut server, client, on_event);
        let cases = report("typed_client3", &out);
        let names: Vec<&str> = cases.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "connected",
                "shout_local",
                "override_reply",
                "signal_reply",
                "override_before_signal",
                "shouted_before_reply"
            ],
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(errors.is_empty(), "{errors:?}");
        let want = [
            RoomRpc::Report {
                name: "ann".into(),
                count: 5,
                ratio: 2.5,
                ok: true,
                at: Vector2 { x: 1.0, y: 2.0 },
                tags: vec!["a".into(), "b".into()],
                tint: Color {
                    r: 1.0,
                    g: 0.5,
                    b: 0.25,
                    a: 1.0,
                },
                turn: Quaternion {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                    w: 1.0,
                },
                blob: PackedByteArray(vec![1, 2, 3]),
            },
            RoomRpc::Ping { n: 7 },
            RoomRpc::Shout { text: "hey".into() },
        ];
        assert_eq!(calls, want);
        println!(
            "Godot 3 typed script: {} engine cases ok, {} typed calls",
            cases.len(),
            calls.len()
        );
    }
}
