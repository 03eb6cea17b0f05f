//! The tokio adapter against a live Godot 4.6 game: its output and the break of a runtime
//! error arrive, the break is continued with an `async` send, the game runs to its exit code.

use std::time::Duration;

use godot_serde_debugger::tokio::AsyncConnection;
use godot_serde_debugger::{Command, Event, Limits, Protocol};
use godot_serde_test_support::engine::Engine;

use crate::game;

/// The runtime error ends `boom`; its caller goes on.
const SCRIPT: &str = "extends SceneTree
var frames = 0
func boom():
\tvar d = {}
\treturn d.missing_key
func _process(_delta):
\tframes += 1
\tif frames == 2:
\t\tprint(\"hello async\")
\t\tboom()
\t\tprint(\"after the error\")
\tif frames == 4:
\t\tquit(3)
\treturn false
";

#[test]
fn godot4_game_over_tokio() {
    let Some(engine) = Engine::Godot4.find_or_skip("debugger::tokio_adapter") else {
        return;
    };
    let dir = game::project(Engine::Godot4, "dbg_tokio", SCRIPT);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let events = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let run = game::spawn_port(Engine::Godot4, &engine, &dir, port, Duration::from_secs(60));
        let accept = AsyncConnection::accept(&listener, Limits::default());
        let mut game = tokio::time::timeout(Duration::from_secs(30), accept)
            .await
            .unwrap()
            .unwrap();
        let mut events = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, game.next_event()).await {
            if matches!(event, Event::DebugEnter(_)) {
                game.send(Command::Continue).await.unwrap();
            }
            events.push(event);
        }
        assert_eq!(game.protocol(), Some(Protocol::Godot4));
        (events, run)
    });
    let (events, run) = events;
    let texts: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Output(lines) => Some(lines.iter().map(|l| l.text.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    let hello = texts.iter().position(|t| t.contains("hello async"));
    let after = texts.iter().position(|t| t.contains("after the error"));
    assert!(hello.is_some() && hello < after, "{texts:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::DebugEnter(b) if !b.can_continue)),
        "{events:?}"
    );
    assert!(events.contains(&Event::DebugExit));
    assert_eq!(events.last(), Some(&Event::Disconnected { error: None }));
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(out.status.code(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}
