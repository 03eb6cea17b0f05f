//! The lobby example (`examples/lobby_server.rs`, `examples/lobby/`) against two headless
//! Godot 4 clients: they join, chat and move; each sees the other spawned in its world, the
//! other's synchronized position follow its moves, and the other despawned when it leaves.

#![cfg(feature = "enet")]

#[path = "../../tests/common/engine.rs"]
#[allow(dead_code)]
mod engine;

#[path = "../examples/lobby_server.rs"]
#[allow(dead_code)]
mod lobby_server;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use godot_serde_multiplayer::Settings;
use godot_serde_multiplayer::enet::EnetPeer;

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
