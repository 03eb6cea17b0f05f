//! The lobby example (`examples/lobby_server.rs`, `examples/lobby/`) against two headless
//! Godot 4 clients: they join, chat and move; each sees the other spawned in its world, the
//! other's synchronized position follow its moves, and the other despawned when it leaves.
//! And against hostile Rust clients (no engine needed): the example keeps serving.

use crate::engine;

#[path = "../../examples/lobby_server.rs"]
#[allow(dead_code)]
mod lobby_server;

use crate::raw_enet;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use godot_serde::Vector2;
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings, wire};

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/lobby")
        .join(name)
}

#[test]
fn committed_replication_script_is_the_generated_one() {
    let committed = std::fs::read_to_string(example("replication.gd")).unwrap();
    assert_eq!(
        committed,
        lobby_server::replication_script(),
        "regenerate: cargo run -p godot-serde-multiplayer --example lobby_server -- --gdscript > multiplayer/examples/lobby/replication.gd"
    );
}

fn client(engine: &Path, port: u16, args: &[&str]) -> String {
    let project = engine::Godot4Project::new(
        &format!("lobby_{}", args[0]),
        &[
            &example("client.gd"),
            &example("lobby.gd"),
            &example("replication.gd"),
        ],
    );
    let port = port.to_string();
    let mut all = vec!["127.0.0.1", port.as_str()];
    all.extend_from_slice(args);
    let out = project.run(engine, "client.gd", &all, Duration::from_secs(40));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed:\n{text}\n{}",
        args[0],
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn lobby_world_with_two_godot4_clients() {
    let Some(engine) = engine::godot4_or_skip("lobby_world_with_two_godot4_clients") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let server = EnetPeer::server(
        "127.0.0.1:0".parse().unwrap(),
        32,
        Settings::default().with_auth(true),
    )
    .unwrap();
    let port = server.local_addr().unwrap().port();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let server = std::thread::spawn(move || {
        let start = std::time::Instant::now();
        let running = || !flag.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(60);
        lobby_server::serve(server, running, |l| sink.lock().unwrap().push(l)).unwrap();
    });
    // Alice stays until she has seen Bob leave; Bob joins a little later.
    let e = engine.clone();
    let alice = std::thread::spawn(move || client(&e, port, &["alice", "lobby", "bob"]));
    std::thread::sleep(Duration::from_millis(1500));
    let bob = client(&engine, port, &["bob"]);
    let alice = alice.join().unwrap();
    println!("--- alice\n{alice}\n--- bob\n{bob}");
    let lines = |t: &str| t.lines().map(str::to_owned).collect::<Vec<_>>();
    let (a, b) = (lines(&alice), lines(&bob));
    // Each sees both players spawned (Bob sees Alice, who was there before him, on joining).
    for (who, seen) in [("alice", &a), ("bob", &b)] {
        for name in ["alice", "bob"] {
            assert!(
                seen.iter()
                    .any(|l| l.starts_with(&format!("spawned {name} at "))),
                "{who} never saw {name} spawned"
            );
        }
    }
    // Alice sees Bob's synchronized position follow his last move, then Bob despawned.
    let moved = a.iter().position(|l| l == "position bob (2.0, 4.0)");
    let gone = a.iter().position(|l| l == "despawned bob");
    assert!(
        moved.is_some() && gone.is_some() && moved < gone,
        "alice: {a:?}"
    );
    assert!(
        b.iter().any(|l| l == "position alice (2.0, 4.0)"),
        "bob: {b:?}"
    );
    assert!(a.last().is_some_and(|l| l == "bye") && b.last().is_some_and(|l| l == "bye"));
    // Let the server see Alice leave.
    std::thread::sleep(Duration::from_millis(500));
    stop.store(true, Ordering::Relaxed);
    server.join().unwrap();
    let log = log.lock().unwrap();
    println!("--- server\n{}", log.join("\n"));
    assert!(
        log.iter().all(|l| !l.starts_with("peer ")),
        "server errors: {log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("bob (") && l.ends_with(") left"))
    );
    println!(
        "counts: alice printed {} position updates, bob {}",
        a.iter().filter(|l| l.starts_with("position ")).count(),
        b.iter().filter(|l| l.starts_with("position ")).count()
    );
}

// ---- hostile clients ------------------------------------------------------------------------

/// The example's `serve` on its own thread, stopped by the returned flag (or after 60 s);
/// the thread gives `serve`'s error as text.
struct Lobby {
    addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<String>>>,
    thread: std::thread::JoinHandle<Result<(), String>>,
}

impl Lobby {
    fn start() -> Self {
        let server = EnetPeer::server(
            "127.0.0.1:0".parse().unwrap(),
            32,
            Settings::default().with_auth(true),
        )
        .unwrap();
        let addr = server.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::<String>::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (sink, flag) = (log.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let running =
                || !flag.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(60);
            lobby_server::serve(server, running, |l| sink.lock().unwrap().push(l))
                .map_err(|e| e.to_string())
        });
        Self {
            addr,
            stop,
            log,
            thread,
        }
    }

    /// Fails with the server's log when `serve` has returned.
    fn assert_serving(&self, after: &str) {
        assert!(
            !self.thread.is_finished(),
            "the lobby stopped after {after}; its log:\n{}",
            self.log.lock().unwrap().join("\n")
        );
    }

    fn lines(&self, pattern: &str) -> usize {
        let log = self.log.lock().unwrap();
        log.iter().filter(|l| l.contains(pattern)).count()
    }
}

/// Services `client` until `until` holds for an event (true) or `limit` passes (false).
fn pump(client: &mut EnetPeer, limit: Duration, mut until: impl FnMut(&Event) -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        client.service().unwrap();
        while let Some(event) = client.poll_event() {
            if until(&event) {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// A Rust client with `table` as its `/root/Lobby` that authenticates with `auth` and waits
/// until the server admits it.
fn join(addr: std::net::SocketAddr, id: i32, auth: &[u8], table: RpcTable) -> EnetPeer {
    let mut c = EnetPeer::client_with_id(addr, id, Settings::default().with_auth(true)).unwrap();
    c.session().declare(table);
    assert!(pump(&mut c, Duration::from_secs(10), |e| matches!(
        e,
        Event::PeerAuthenticating(1)
    )));
    c.session().send_auth(1, auth).unwrap();
    assert!(c.session().complete_auth(1));
    assert!(
        pump(&mut c, Duration::from_secs(10), |e| *e
            == Event::PeerConnected(1)),
        "client {id} was not admitted"
    );
    c
}

/// The hostile inputs that ended the example before its loop took a peer's errors as events
/// (each of them alone stopped it: `chat(42)` and `move("x")` by `args_as()?`, auth data
/// twice by `complete_auth(peer)?`, a good then a refused auth by `rpc(peer, ..)?` to the peer
/// it had just dropped), and the ones that never did, in one run: after all of them the good
/// client's chat is still relayed.
#[test]
fn lobby_keeps_serving_through_hostile_clients() {
    let lobby = Lobby::start();
    let addr = lobby.addr;
    let mut alice = join(addr, 100, b"alice:lobby", lobby_server::lobby());

    // Wrong argument types, methods only the server may call, an unknown node path.
    let mut mallory = join(addr, 101, b"mallory:lobby", lobby_server::lobby());
    let s = mallory.session();
    s.declare(RpcTable::new("/root/Nowhere").with(RpcMethod::any_peer("x")));
    s.rpc(1, "Lobby", "chat", &(42,)).unwrap();
    s.rpc(1, "Lobby", "chat", &()).unwrap();
    s.rpc(1, "Lobby", "chat", &(true, "two")).unwrap();
    s.rpc(1, "Lobby", "move", &("x",)).unwrap();
    s.rpc(1, "Lobby", "move", &(Vector2::new(1.0, 2.0), 3))
        .unwrap();
    s.rpc(1, "Lobby", "said", &(100, "forged")).unwrap();
    s.rpc(1, "Nowhere", "x", &()).unwrap();
    s.rpc(1, "Lobby", "chat", &("x".repeat(100_000),)).unwrap();
    pump(&mut mallory, Duration::from_millis(500), |_| false);
    lobby.assert_serving("wrong argument types and unknown methods");
    assert!(lobby.lines("peer 101: arguments of \"chat\" do not fit") >= 2);
    assert!(lobby.lines("peer 101: arguments of \"move\" do not fit") >= 1);
    assert_eq!(lobby.lines("peer 101: chat of 100000 bytes dropped"), 1);
    assert_eq!(lobby.lines("peer 101 may not call \"said\""), 1);
    assert!(lobby.lines("peer 101 names node \"Nowhere\"") >= 1);

    // A table with one more method: a checksum mismatch. Its method ids name other methods
    // here ("zzz" is id 6, "chat" id 0 of 7), so every call on the node is refused (Godot
    // prints the mismatch and dispatches them by id).
    let extra = lobby_server::lobby().with(RpcMethod::any_peer("zzz"));
    let mut eve = join(addr, 106, b"eve:lobby", extra);
    eve.session().rpc(1, "Lobby", "zzz", &()).unwrap();
    eve.session().rpc(1, "Lobby", "chat", &("hi",)).unwrap();
    pump(&mut eve, Duration::from_millis(500), |_| false);
    lobby.assert_serving("calls under another checksum");
    assert_eq!(
        lobby.lines("peer 106 called on node \"Lobby\", whose RPC checksum differs"),
        2,
        "{:?}",
        lobby.log
    );
    assert_eq!(lobby.lines("peer 106 called method id"), 0);

    // Auth data twice, in one packet train (the server sees both before it answers): the same
    // twice, a good one then a refused one (the peer is admitted by then: the lobby used to
    // drop it and greet it gone), a refused one then a good one (the peer is gone by then).
    let trains: [(i32, &[&[u8]]); 3] = [
        (102, &[b"twice:lobby", b"twice:lobby"]),
        (104, &[b"first:lobby", b"then:wrong"]),
        (105, &[b"first:wrong", b"then:lobby"]),
    ];
    for (id, train) in trains {
        let mut c =
            EnetPeer::client_with_id(addr, id, Settings::default().with_auth(true)).unwrap();
        c.session().declare(lobby_server::lobby());
        pump(&mut c, Duration::from_secs(10), |e| {
            matches!(e, Event::PeerAuthenticating(1))
        });
        for data in train {
            c.session().send_auth(1, data).unwrap();
        }
        assert!(c.session().complete_auth(1));
        pump(&mut c, Duration::from_millis(300), |_| false);
        let texts: Vec<_> = train.iter().map(|d| String::from_utf8_lossy(d)).collect();
        lobby.assert_serving(&format!("auth data {texts:?}"));
        c.close();
    }
    assert_eq!(lobby.lines("twice (102) joined"), 1);
    assert_eq!(lobby.lines("first (104) joined"), 1);
    assert_eq!(lobby.lines("refused peer 105"), 1);
    assert_eq!(lobby.lines("(105) joined"), 0);

    // Packets before authenticating, auth data after it, garbage before and after.
    let mut raw = raw_enet::Raw::connect(addr, 103, 255);
    let mut call = Vec::new();
    wire::write_raw(&mut call, b"early");
    raw.send(0, &call);
    for g in raw_enet::garbage(1, 20) {
        raw.send(0, &g);
    }
    let mut auth = Vec::new();
    wire::write_auth(&mut auth, b"raw:lobby");
    raw.send(0, &auth);
    raw.send(0, &[wire::COMMAND_SYS, wire::SYS_AUTH]);
    raw.pump(Duration::from_millis(300));
    raw.send(0, &auth);
    for g in raw_enet::garbage(2, 100) {
        raw.send(0, &g);
        raw.send(1, &g);
    }
    raw.pump(Duration::from_millis(300));
    raw.close();
    lobby.assert_serving("garbage and auth out of order");
    assert!(lobby.lines("peer 103: peer 103: sent a packet before authenticating") >= 1);
    assert_eq!(
        lobby.lines("peer 103: peer 103: sent authentication data after authenticating"),
        1
    );

    // Join-and-leave churn: leaving right after sending auth data, right after being
    // admitted, and without authenticating.
    for round in 0..9 {
        let id = 200 + round;
        let mut c =
            EnetPeer::client_with_id(addr, id, Settings::default().with_auth(true)).unwrap();
        c.session().declare(lobby_server::lobby());
        pump(&mut c, Duration::from_secs(10), |e| {
            matches!(e, Event::PeerAuthenticating(1))
        });
        if round % 3 != 2 {
            c.session().send_auth(1, b"churn:lobby").unwrap();
            assert!(c.session().complete_auth(1));
        }
        if round % 3 == 1 {
            assert!(pump(&mut c, Duration::from_secs(10), |e| *e
                == Event::PeerConnected(1)));
        }
        c.service().unwrap();
        c.close();
    }
    std::thread::sleep(Duration::from_millis(300));
    lobby.assert_serving("join-and-leave churn");
    assert!(
        lobby.lines("churn (") >= 6,
        "each admitted churner joined and left"
    );

    // The good client was never disturbed: its chat is relayed to it.
    alice
        .session()
        .rpc(1, "Lobby", "chat", &("still here",))
        .unwrap();
    let said = pump(&mut alice, Duration::from_secs(10), |e| {
        matches!(e, Event::Rpc(call) if call.method == "said"
            && call.args_as::<(i32, String)>().ok() == Some((100, "still here".into())))
    });
    lobby.assert_serving("all of it");
    assert!(said, "alice's chat was not relayed");
    lobby.stop.store(true, Ordering::Relaxed);
    let result = lobby.thread.join().unwrap();
    let log = lobby.log.lock().unwrap();
    println!("--- server\n{}", log.join("\n"));
    assert_eq!(result, Ok(()));
    assert!(log.iter().any(|l| l == "alice: still here"));
}
