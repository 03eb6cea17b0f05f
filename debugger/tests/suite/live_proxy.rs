//! The proxy against live Godot 4.6 and Godot 3.2.3 games. The "editor" is a test listener
//! speaking through this crate's own `Session` (standing in for the Godot editor, which
//! cannot run here): it receives the game's frames byte for byte, continues the game after a
//! script error, and never sees the answer to our own scene-tree request; our side sees every
//! message typed and sets a property the game reacts to.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use godot_serde::{Variant, Vector2};
use godot_serde_debugger::wire::Limits;
use godot_serde_debugger::{
    Command, Event, Protocol, ProxyConnection, ProxyEvent, ProxyListener, Session,
};
use godot_serde_test_support::engine::Engine;

use crate::game;

fn script(engine: Engine) -> String {
    let (process, ticks) = match engine {
        Engine::Godot4 => ("_process", "Time.get_ticks_msec()"),
        Engine::Godot3 => ("_idle", "OS.get_ticks_msec()"),
    };
    format!(
        "extends SceneTree

var frames = 0
var player
var quit_at = 0

func boom(x):
\tvar d = {{}}
\treturn d.missing_key + x

func _initialize():
\tprint(\"hello \", 42)
\tplayer = Node2D.new()
\tplayer.name = \"Player\"
\troot.add_child(player)

func {process}(_delta):
\tframes += 1
\tif frames == 3:
\t\tboom(1)
\t\tprint(\"after the error\")
\tif player.position == Vector2(10, 20) and quit_at == 0:
\t\tprint(\"position set\")
\t\tquit_at = frames + 3
\tif quit_at > 0 and frames >= quit_at:
\t\tquit(7)
\tif {ticks} > 40000:
\t\tquit(2)
\treturn false
"
    )
}

/// The test's editor: the raw bytes it received, and the events they decode to.
struct Editor {
    stream: TcpStream,
    session: Session,
    bytes: Vec<u8>,
    events: Vec<Event>,
    closed: bool,
}

impl Editor {
    fn read(&mut self) {
        if self.closed {
            return;
        }
        let mut buf = [0; 65536];
        match self.stream.read(&mut buf) {
            Ok(0) => self.closed = true,
            Ok(n) => {
                self.bytes.extend_from_slice(&buf[..n]);
                self.session.receive(&buf[..n]);
                self.events
                    .extend(std::iter::from_fn(|| self.session.poll_event()));
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => panic!("editor read: {e}"),
        }
    }

    fn send(&mut self, command: Command) {
        self.session.send(command).unwrap();
        self.stream
            .write_all(&self.session.take_outgoing())
            .unwrap();
    }
}

fn printed(events: &[Event], text: &str) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Output(l) if l.iter().any(|l| l.text.contains(text))))
}

/// Forwards both ways until `done` holds for (our events, the editor) or 30 s pass.
fn pump(
    proxy: &mut ProxyConnection,
    editor: &mut Editor,
    ours: &mut Vec<ProxyEvent>,
    mut done: impl FnMut(&[ProxyEvent], &Editor) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(ours, editor) {
        assert!(Instant::now() < deadline, "timed out: {ours:#?}");
        if let Some(event) = proxy.next_event(Duration::from_millis(5)) {
            ours.push(event);
        }
        editor.read();
    }
}

fn game_events(ours: &[ProxyEvent]) -> Vec<Event> {
    ours.iter()
        .filter_map(|e| match e {
            ProxyEvent::Game(e) => Some(clone_event(e)),
            _ => None,
        })
        .collect()
}

fn clone_event(e: &Event) -> Event {
    // Only the kinds the assertions look at.
    match e {
        Event::Output(l) => Event::Output(l.clone()),
        Event::DebugEnter(b) => Event::DebugEnter(b.clone()),
        Event::SceneTree(t) => Event::SceneTree(t.clone()),
        Event::Disconnected { error } => Event::Disconnected {
            error: error.clone(),
        },
        _ => Event::DebugExit,
    }
}

fn proxied(engine: Engine, test: &str, protocol: Protocol) {
    let Some(godot) = engine.find_or_skip(test) else {
        return;
    };
    let dir = game::project(engine, test, &script(engine));
    let editor_listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy =
        ProxyListener::listen("127.0.0.1:0", editor_listener.local_addr().unwrap()).unwrap();
    let port = proxy.local_addr().unwrap().port();
    let run = game::spawn_port(engine, &godot, &dir, port, Duration::from_secs(60));
    let mut conn = proxy.accept(Duration::from_secs(30)).unwrap();
    conn.tap(16 << 20);
    let (stream, _) = editor_listener.accept().unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(2)))
        .unwrap();
    let mut editor = Editor {
        stream,
        session: Session::new(protocol, Limits::default()),
        bytes: Vec::new(),
        events: Vec::new(),
        closed: false,
    };
    let mut ours = Vec::new();

    // The script error stops the game; the editor continues it, we do not.
    pump(&mut conn, &mut editor, &mut ours, |_, ed| {
        ed.events.iter().any(|e| matches!(e, Event::DebugEnter(_)))
    });
    assert_eq!(conn.core().protocol(), Some(protocol));
    editor.send(Command::Continue);
    pump(&mut conn, &mut editor, &mut ours, |ours, ed| {
        printed(&game_events(ours), "after the error") && printed(&ed.events, "after the error")
    });

    // Our request: its answer comes to us only.
    conn.send(Command::RequestSceneTree).unwrap();
    pump(&mut conn, &mut editor, &mut ours, |ours, _| {
        ours.iter()
            .any(|e| matches!(e, ProxyEvent::Game(Event::SceneTree(_))))
    });
    let tree = ours
        .iter()
        .find_map(|e| match e {
            ProxyEvent::Game(Event::SceneTree(t)) => Some(t.clone()),
            _ => None,
        })
        .unwrap();
    let player = tree.get("/root/Player").unwrap().id;
    conn.send(Command::SetObjectProperty {
        id: player,
        property: "position".into(),
        value: Variant::Vector2(Vector2::new(10.0, 20.0)),
    })
    .unwrap();
    pump(&mut conn, &mut editor, &mut ours, |ours, ed| {
        ed.closed
            && ours
                .iter()
                .any(|e| matches!(e, ProxyEvent::Game(Event::Disconnected { .. })))
    });
    let (output, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(output.status.code(), Some(7), "{output:?}");

    // Both sides saw the game's output and its break; only we saw the scene tree.
    let mine = game_events(&ours);
    for events in [&mine, &editor.events] {
        assert!(printed(events, "hello 42"), "{events:?}");
        assert!(printed(events, "position set"), "{events:?}");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::DebugEnter(b) if !b.can_continue))
        );
    }
    assert!(
        !editor
            .events
            .iter()
            .any(|e| matches!(e, Event::SceneTree(_))),
        "the editor got our answer"
    );

    // Byte for byte: the editor received what the proxy read from the game, less the frames
    // of the answer to our request.
    let withheld: Vec<_> = ours
        .iter()
        .filter_map(|e| match e {
            ProxyEvent::Withheld { name, offset, len } => Some((name.clone(), *offset, *len)),
            _ => None,
        })
        .collect();
    let tree_name = match protocol {
        Protocol::Godot4 => "scene:scene_tree",
        Protocol::Godot3 => "message:scene_tree",
    };
    assert_eq!(withheld.len(), 1, "{withheld:?}");
    assert_eq!(withheld[0].0, tree_name);
    let read = conn.tapped();
    let (at, len) = (withheld[0].1, withheld[0].2);
    let expected = [&read[..at], &read[at + len..]].concat();
    assert!(len > 8 && read.len() > len);
    assert_eq!(editor.bytes.len(), expected.len());
    assert!(editor.bytes == expected, "the editor's bytes differ");
}

#[test]
fn godot4_game_behind_the_proxy() {
    proxied(Engine::Godot4, "debugger::live_proxy4", Protocol::Godot4);
}

#[test]
fn godot3_game_behind_the_proxy() {
    proxied(Engine::Godot3, "debugger::live_proxy3", Protocol::Godot3);
}
