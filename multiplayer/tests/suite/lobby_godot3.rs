//! The Godot 3 lobby example (`examples/godot3_lobby_server.rs`, `examples/lobby_godot3/`): its
//! committed `lobby.gd` is the generator's current output, and two headless Godot 3.2.3 players
//! register, see each other, chat, move and leave on the example's server. And hostile Rust
//! clients (no engine needed): the example keeps serving.

use crate::dialect::{free_udp_port, pump};
use crate::engine;
#[path = "../../examples/godot3_lobby_server.rs"]
#[allow(dead_code)]
mod example;
use crate::raw_enet;

use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use example::LobbyRpc;
use godot_serde::Vector2;
use godot_serde_multiplayer::Event;
use godot_serde_multiplayer::Limits;
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::wire::{self, EnetHeader};
use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode};
use godot_serde_multiplayer::typed::RpcSet;

fn example_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lobby_godot3")
}

#[test]
fn committed_lobby_script_is_current() {
    let committed = std::fs::read_to_string(example_dir().join("lobby.gd")).unwrap();
    assert_eq!(
        committed,
        example::lobby_script().unwrap(),
        "regenerate it: cargo run -p godot-serde-multiplayer --example godot3_lobby_server -- \
         --print-script > multiplayer/examples/lobby_godot3/lobby.gd"
    );
}

#[test]
fn two_godot3_players_meet_in_the_lobby() {
    let Some(engine) = engine::godot3_or_skip("two_godot3_players_meet_in_the_lobby") else {
        return;
    };
    let port = free_udp_port();
    let (tx, rx) = mpsc::channel();
    let server = std::thread::spawn(move || {
        let addr = format!("127.0.0.1:{port}").parse().unwrap();
        example::run(addr, Some(Duration::from_secs(25)), &mut |line| {
            let _ = tx.send(line);
        })
        .unwrap();
    });
    // The example's scripts in a throw-away project (file logging off).
    let project = engine::Godot3Project::new(
        "lobby",
        &[
            example_dir().join("client.gd"),
            example_dir().join("lobby.gd"),
        ],
    );
    let args = |name: &str, stay: bool| {
        let mut v = vec!["127.0.0.1".to_owned(), port.to_string(), name.to_owned()];
        if stay {
            v.push("stay".into());
        }
        v
    };
    let timeout = Duration::from_secs(40);
    std::thread::sleep(Duration::from_millis(300));
    let alice = project.spawn(&engine, "client.gd", &args("alice", true), timeout);
    std::thread::sleep(Duration::from_millis(700));
    let bob = project.spawn(&engine, "client.gd", &args("bob", false), timeout);
    let bob = bob.join().unwrap();
    let alice = alice.join().unwrap();
    let (alice_out, bob_out) = (
        String::from_utf8_lossy(&alice.stdout).into_owned(),
        String::from_utf8_lossy(&bob.stdout).into_owned(),
    );
    // The server stops on its own after 25 s; the players are done long before.
    let mut log = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(1)) {
        log.push(line);
        if log
            .iter()
            .any(|l| l.starts_with("bob (") && l.ends_with(") left"))
        {
            break;
        }
    }
    drop(server);
    println!(
        "lobby: server log {} lines, alice {} lines, bob {} lines",
        log.len(),
        alice_out.lines().count(),
        bob_out.lines().count()
    );
    let context = format!(
        "server:\n{}\nalice:\n{alice_out}\n{}\nbob:\n{bob_out}\n{}",
        log.join("\n"),
        String::from_utf8_lossy(&alice.stderr),
        String::from_utf8_lossy(&bob.stderr)
    );
    assert!(alice.status.success() && bob.status.success(), "{context}");
    let id = |out: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix("connected as "))
            .unwrap_or_else(|| panic!("{context}"))
            .to_owned()
    };
    let (a, b) = (id(&alice_out), id(&bob_out));
    for (out, want) in [
        (&alice_out, format!("joined {a} alice")),
        (&alice_out, format!("joined {b} bob")),
        (&alice_out, format!("said {b} hello from bob")),
        (&alice_out, format!("left {b}")),
        (&alice_out, "welcome welcome, alice".to_owned()),
        (&bob_out, format!("joined {a} alice")),
        (&bob_out, format!("said {b} hello from bob")),
        (&alice_out, format!("moved {b} (2, 4)")),
        (&bob_out, "welcome welcome, bob".to_owned()),
    ] {
        assert!(
            out.lines().any(|l| l == want),
            "no line {want:?}\n{context}"
        );
    }
    assert!(
        log.iter().any(|l| l == "alice: hello from alice"),
        "{context}"
    );
    assert!(
        !log.iter().any(|l| l.starts_with("peer ")),
        "errors: {context}"
    );
}

// ---- hostile clients ------------------------------------------------------------------------

/// A Rust Godot 3 client with `table` as its `/root/Lobby`, connected.
fn connect(addr: std::net::SocketAddr, id: i32, table: NodeTable) -> Enet3Peer {
    let mut c = Enet3Peer::client_with_id(addr, id, Limits::default()).unwrap();
    c.session().declare(table);
    assert!(
        pump(&mut c, Duration::from_secs(10), |e| *e
            == Event::PeerConnected(1)),
        "client {id} never connected"
    );
    c
}

/// The hostile inputs that ended the example before its loop took a peer's errors as events
/// (`register(42)` and every other call whose arguments do not fit, by `args_as()?`), and the
/// ones that never did, in one run: after all of them the good client's chat is still relayed.
#[test]
fn godot3_lobby_keeps_serving_through_hostile_clients() {
    let port = free_udp_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    // Stops by itself after 30 s; the test is done long before.
    let server = std::thread::spawn(move || {
        example::run(addr, Some(Duration::from_secs(30)), &mut |line| {
            sink.lock().unwrap().push(line);
        })
        .map_err(|e| e.to_string())
    });
    let serving = |after: &str| {
        assert!(
            !server.is_finished(),
            "the lobby stopped after {after}; its log:\n{}",
            log.lock().unwrap().join("\n")
        );
    };
    let lines = |pattern: &str| {
        let log = log.lock().unwrap();
        log.iter().filter(|l| l.contains(pattern)).count()
    };
    std::thread::sleep(Duration::from_millis(300));
    let mut alice = connect(addr, 100, LobbyRpc::node_table());
    let register = LobbyRpc::Register {
        player: "alice".into(),
    };
    alice.session().rpc_to(1, &register).unwrap();
    assert!(pump(&mut alice, Duration::from_secs(10), |e| matches!(
        e,
        Event::Rpc(call) if call.decode::<LobbyRpc>().is_ok_and(|c| matches!(c, LobbyRpc::Welcome { .. }))
    )));

    // Wrong argument types, a method and a node the server does not declare, calls and sets
    // only the server may make, oversized names and chat lines.
    let extra = LobbyRpc::node_table().method("nope", RemoteMode::Remote);
    let mut mallory = connect(addr, 101, extra);
    let s = mallory.session();
    s.declare(NodeTable::new("/root/Nowhere").method("x", RemoteMode::Remote));
    s.rpc(1, "Lobby", "register", &(42,)).unwrap();
    s.rpc(1, "Lobby", "register", &()).unwrap();
    s.rpc(1, "Lobby", "chat", &(Vector2::new(1.0, 2.0),))
        .unwrap();
    s.rpc(1, "Lobby", "chat", &("a", "b")).unwrap();
    s.rpc(1, "Lobby", "move", &("x",)).unwrap();
    s.rpc(1, "Lobby", "nope", &()).unwrap();
    s.rpc(1, "Lobby", "said", &(100, "forged")).unwrap();
    s.rpc(1, "Lobby", "welcome", &("forged",)).unwrap();
    s.rpc(1, "Nowhere", "x", &()).unwrap();
    s.rpc(1, "Lobby", "register", &("x".repeat(1000),)).unwrap();
    s.rpc(1, "Lobby", "chat", &("x".repeat(100_000),)).unwrap();
    pump(&mut mallory, Duration::from_millis(500), |_| false);
    serving("wrong argument types and undeclared members");
    assert!(lines("peer 101: arguments of \"register\" do not fit") >= 2);
    assert!(lines("peer 101: arguments of \"chat\" do not fit") >= 1);
    assert!(lines("peer 101: arguments of \"move\" do not fit") >= 1);
    assert_eq!(lines("peer 101: name of 1000 bytes refused"), 1);
    assert_eq!(lines("peer 101: chat of 100000 bytes dropped"), 1);
    assert_eq!(lines("peer 101 may not call \"nope\""), 1);
    assert_eq!(lines("peer 101 may not call \"said\""), 1);
    assert_eq!(lines("peer 101 may not call \"welcome\""), 1);
    assert_eq!(lines("peer 101 names node \"Nowhere\""), 1);
    mallory.close();

    // Garbage: short and forged ENet headers, system messages from a client, garbage
    // payloads behind a valid header, on every channel.
    let mut raw = raw_enet::Raw::connect(addr, 103, 3);
    raw.pump(Duration::from_millis(100));
    let header = EnetHeader {
        source: 103,
        target: 1,
    };
    for (i, g) in raw_enet::garbage(3, 100).into_iter().enumerate() {
        raw.send((i % 3) as u8, &g);
        raw.send(wire::SYSCH_RELIABLE, &header.frame(&g));
        raw.send(wire::SYSCH_UNRELIABLE, &header.frame(&g));
    }
    raw.pump(Duration::from_millis(300));
    raw.close();
    serving("garbage");
    assert!(lines("peer 103: ") >= 100);

    // Join-and-leave churn: leaving right after joining the lobby, right after registering,
    // right after connecting.
    for round in 0..9 {
        let mut c = connect(addr, 200 + round, LobbyRpc::node_table());
        if round % 3 != 2 {
            let name = LobbyRpc::Register {
                player: "churn".into(),
            };
            c.session().rpc_to(1, &name).unwrap();
            c.service().unwrap();
        }
        if round % 3 == 0 {
            assert!(pump(&mut c, Duration::from_secs(10), |e| matches!(
                e,
                Event::Rpc(call) if call.method == "welcome"
            )));
        }
        c.close();
    }
    std::thread::sleep(Duration::from_millis(300));
    serving("join-and-leave churn");
    assert!(
        lines("churn (") >= 6,
        "each registered churner joined and left"
    );

    // The good client was never disturbed: its chat is relayed to it.
    let chat = LobbyRpc::Chat {
        text: "still here".into(),
    };
    alice.session().rpc_to(1, &chat).unwrap();
    let said = pump(&mut alice, Duration::from_secs(10), |e| {
        let want = LobbyRpc::Said {
            id: 100,
            text: "still here".into(),
        };
        matches!(e, Event::Rpc(call) if call.decode::<LobbyRpc>().as_ref() == Ok(&want))
    });
    serving("all of it");
    assert!(said, "alice's chat was not relayed");
    alice.close();
    println!("--- server\n{}", log.lock().unwrap().join("\n"));
    assert_eq!(lines("alice: still here"), 1);
}
