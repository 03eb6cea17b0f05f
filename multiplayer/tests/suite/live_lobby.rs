//! The lobby example (`examples/lobby_server.rs`, `examples/lobby/`) against two headless
//! Godot 4 clients: they join, chat and move; each sees the other spawned in its world, the
//! other's synchronized position follow its moves, and the other despawned when it leaves.
//! And against hostile Rust clients (no engine needed): the example keeps serving.

use crate::dialect::pump;
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
use godot_serde_multiplayer::typed::RpcSet;
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings, wire};
use lobby_server::LobbyRpc;

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/lobby")
        .join(name)
}

/// The project's generated scripts (the node from the RPC set, the replication declarations,
/// the player's checked synchronizer) are what the example generates now, so they cannot
/// drift from the server's declarations.
#[test]
fn committed_scripts_are_the_generated_ones() {
    let scripts = lobby_server::scripts().unwrap();
    let names: Vec<&str> = scripts.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["lobby.gd", "replication.gd", "player_sync.gd"]);
    for (name, generated) in scripts {
        let committed = std::fs::read_to_string(example(name)).unwrap();
        assert_eq!(
            committed, generated,
            "{name}: regenerate with cargo run -p godot-serde-multiplayer --example lobby_server -- --gdscript multiplayer/examples/lobby"
        );
    }
}

fn client(engine: &Path, port: u16, args: &[&str]) -> String {
    let project = engine::Godot4Project::new(
        &format!("lobby_{}", args[0]),
        &[
            &example("client.gd"),
            &example("lobby.gd"),
            &example("replication.gd"),
            &example("player_sync.gd"),
        ],
    );
    let port = port.to_string();
    let mut all = vec!["127.0.0.1", port.as_str()];
    all.extend_from_slice(args);
    let out = project.run(engine, "client.gd", &all, Duration::from_secs(40));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} failed:\n{text}\n{stderr}",
        args[0]
    );
    // Each player's synchronizer checked its config at _ready (player_sync.gd): no difference.
    assert!(
        !stderr.contains("Rust declaration"),
        "{}: replication config differs:\n{stderr}",
        args[0]
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

/// Eve's client: joins with a Lobby node that has one `@rpc` more than the server's
/// (`hello`, so its checksum and its method ids differ: her `hello` is id 1, the server's
/// `joined`), calls `hello("eve")`, and leaves.
const EVE: &str = r#"extends SceneTree

var mp := SceneMultiplayer.new()
var lobby: Node

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	lobby = preload("res://lobby.gd").new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	mp.auth_callback = func(_id, _data): pass
	mp.peer_authenticating.connect(func(id):
		mp.send_auth(id, "eve:lobby".to_utf8_buffer())
		mp.complete_auth(id))
	mp.connected_to_server.connect(_on_connected)
	set_multiplayer(mp)
	var peer := ENetMultiplayerPeer.new()
	peer.create_client("127.0.0.1", port)
	mp.multiplayer_peer = peer
	create_timer(20).timeout.connect(func(): print("timeout"); quit(1))

func _on_connected() -> void:
	print("connected as ", mp.get_unique_id())
	lobby.hello.rpc_id(1, "eve")
	await create_timer(1.5).timeout
	mp.multiplayer_peer.close()
	print("bye")
	quit(0)
"#;

/// A headless Godot 4.6 client whose Lobby node has one `@rpc` more than the server's calls
/// `hello("eve")`: the server refuses it as `ProtocolError::MismatchedCall` for that peer,
/// never dispatches it by id under another name (her `hello` is the server's `joined`, id 1),
/// and serves a good client in the same run as usual.
#[test]
fn godot4_client_under_another_checksum_is_refused() {
    let Some(engine) = engine::godot4_or_skip("godot4_client_under_another_checksum_is_refused")
    else {
        return;
    };
    let lobby = Lobby::start();
    let port = lobby.addr.port();
    // Eve's node: the generated script with one more any_peer method. Ids follow the sorted
    // names: chat 0, hello 1, joined 2, ... against the server's chat 0, joined 1, ...
    let eve_node = format!(
        "{}\n@rpc(\"any_peer\")\nfunc hello(who: String) -> void:\n\tprint(\"hello \", who)\n",
        lobby_server::lobby_script().unwrap()
    );
    let project = engine::Godot4Project::new("lobby_eve", &[]);
    std::fs::write(project.dir.join("lobby.gd"), eve_node).unwrap();
    std::fs::write(project.dir.join("eve.gd"), EVE).unwrap();
    let e = engine.clone();
    let alice = std::thread::spawn(move || client(&e, port, &["alice"]));
    let port_arg = port.to_string();
    let eve = project.run(&engine, "eve.gd", &[&port_arg], Duration::from_secs(40));
    let eve_out = String::from_utf8_lossy(&eve.stdout).into_owned();
    let alice = alice.join().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    lobby.assert_serving("a client under another checksum");
    lobby.stop.store(true, Ordering::Relaxed);
    let result = lobby.thread.join().unwrap();
    let log = lobby.log.lock().unwrap().clone();
    let context = format!(
        "server:\n{}\neve:\n{eve_out}\n{}\nalice:\n{alice}",
        log.join("\n"),
        String::from_utf8_lossy(&eve.stderr)
    );
    println!("{context}");
    assert_eq!(result, Ok(()));
    assert!(eve.status.success() && eve_out.contains("bye"), "{context}");
    let eve_id = eve_out
        .lines()
        .find_map(|l| l.strip_prefix("connected as "))
        .unwrap_or_else(|| panic!("{context}"));
    // Her call refused as a checksum mismatch, once; her other lines only report the
    // mismatch (at her SIMPLIFY_PATH and her CONFIRM_PATH). Nothing dispatched by id: not
    // `joined` refused by mode, not arguments that do not fit, no chat line.
    let eve_lines: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with(&format!("peer {eve_id}")))
        .collect();
    let refused = format!(
        "peer {eve_id}: peer {eve_id} called on node \"Lobby\", whose RPC checksum differs"
    );
    let mismatch = format!("peer {eve_id}: RPC checksum mismatch on node \"Lobby\"");
    assert_eq!(
        eve_lines.iter().filter(|l| l.starts_with(&refused)).count(),
        1,
        "{context}"
    );
    assert!(
        eve_lines
            .iter()
            .all(|l| l.starts_with(&refused) || l.starts_with(&mismatch)),
        "{context}"
    );
    assert!(!log.iter().any(|l| l.starts_with("eve: ")), "{context}");
    // Alice, in the same run, was served as usual: her chat came back, she moved and left.
    assert!(
        alice
            .lines()
            .any(|l| l.starts_with("said ") && l.ends_with(" hello from alice")),
        "{context}"
    );
    assert!(
        log.iter().any(|l| l == "alice: hello from alice"),
        "{context}"
    );
    assert!(alice.lines().last() == Some("bye"), "{context}");
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
    let mut alice = join(addr, 100, b"alice:lobby", LobbyRpc::table());

    // Wrong argument types, methods only the server may call, an unknown node path.
    let mut mallory = join(addr, 101, b"mallory:lobby", LobbyRpc::table());
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
    let extra = LobbyRpc::table().with(RpcMethod::any_peer("zzz"));
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
        c.session().declare(LobbyRpc::table());
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
        c.session().declare(LobbyRpc::table());
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
    lobby.assert_serving("all of it");
    assert!(said, "alice's chat was not relayed");
    lobby.stop.store(true, Ordering::Relaxed);
    let result = lobby.thread.join().unwrap();
    let log = lobby.log.lock().unwrap();
    println!("--- server\n{}", log.join("\n"));
    assert_eq!(result, Ok(()));
    assert!(log.iter().any(|l| l == "alice: still here"));
}
