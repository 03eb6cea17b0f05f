//! The Godot 3 lobby example (`examples/godot3_lobby_server.rs`, `examples/lobby_godot3/`): its
//! committed `lobby.gd` is the generator's current output, and two headless Godot 3.2.3 players
//! register, see each other, chat, move and leave on the example's server.

#![cfg(feature = "enet")]

#[path = "../../tests/common/engine.rs"]
#[allow(dead_code)]
mod engine;
#[path = "../examples/godot3_lobby_server.rs"]
#[allow(dead_code)]
mod example;

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

fn example_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lobby_godot3")
}

#[test]
fn committed_lobby_script_is_current() {
    let committed = std::fs::read_to_string(example_dir().join("lobby.gd")).unwrap();
    assert_eq!(
        committed,
        example::lobby_script(),
        "regenerate it: cargo run -p godot-serde-multiplayer --example godot3_lobby_server -- \
         --print-script > multiplayer/examples/lobby_godot3/lobby.gd"
    );
}

#[test]
fn two_godot3_players_meet_in_the_lobby() {
    let Some(engine) = engine::godot3_or_skip("two_godot3_players_meet_in_the_lobby") else {
        return;
    };
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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
        (&alice_out, "motd welcome, alice".to_owned()),
        (&bob_out, format!("joined {a} alice")),
        (&bob_out, format!("said {b} hello from bob")),
        (&alice_out, format!("moved {b} (2, 4)")),
        (&bob_out, "motd welcome, bob".to_owned()),
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
