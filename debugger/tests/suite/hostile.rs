//! A game is a peer: whatever it sends is an event, never a panic, never an allocation sized
//! by its lengths, and the connection ends only when the stream cannot be framed any more.
//! Expected values are hand-built frames (the byte layouts of the crate's `wire` docs).

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use godot_serde::{Config, Variant, frame};
use godot_serde_debugger::{Debugger, Event, Limits, Protocol, Session};

fn frame4(value: &Variant) -> Vec<u8> {
    frame::to_frame_bytes(value, Config::godot4()).unwrap()
}

fn frame3(value: &Variant) -> Vec<u8> {
    frame::to_frame_bytes(value, Config::godot3()).unwrap()
}

fn msg4(name: &str, data: Vec<Variant>) -> Vec<u8> {
    frame4(&Variant::from(vec![
        Variant::from(name),
        Variant::Int(1),
        Variant::from(data),
    ]))
}

fn events(session: &mut Session) -> Vec<Event> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

#[test]
fn frame_over_the_limit_ends_the_session_with_an_event() {
    let limits = Limits {
        max_frame_size: 1024,
        ..Limits::default()
    };
    let mut session = Session::new(Protocol::Godot4, limits);
    session.receive(&msg4("debug_exit", vec![]));
    // A prefix announcing 1025 bytes, and a few of them: nothing of that size is allocated.
    session.receive(&[0x01, 0x04, 0, 0, 1, 2, 3]);
    let got = events(&mut session);
    assert_eq!(got.first(), Some(&Event::DebugExit));
    assert!(
        matches!(&got[1], Event::BadFrame(e) if e.fatal && e.offset == Some(48)),
        "{got:?}"
    );
    assert!(matches!(&got[2], Event::Disconnected { error: Some(_) }));
    assert_eq!(got.len(), 3);
    assert!(session.is_ended());
}

#[test]
fn undecodable_and_misshapen_frames_are_skipped() {
    let mut session = Session::new(Protocol::Godot4, Limits::default());
    // Type id 255 does not exist: skipped, reported with the frame's offset 0.
    session.receive(&[8, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0]);
    // An Array that is not [name, thread, data].
    session.receive(&frame4(&Variant::from(vec![Variant::Int(5)])));
    // A known message with the wrong data: malformed, not fatal.
    session.receive(&msg4("debug_enter", vec![Variant::from("no")]));
    // A scene tree whose root announces two children but has one.
    session.receive(&msg4(
        "scene:scene_tree",
        vec![
            2.into(),
            "root".into(),
            "Window".into(),
            1.into(),
            "".into(),
            0.into(),
            0.into(),
            "A".into(),
            "Node".into(),
            2.into(),
            "".into(),
            0.into(),
        ],
    ));
    // An unknown message: kept whole.
    session.receive(&msg4("mygame:hello", vec![Variant::Int(3)]));
    session.receive(&msg4("debug_exit", vec![]));
    let got = events(&mut session);
    assert_eq!(got.len(), 6, "{got:#?}");
    assert!(matches!(&got[0], Event::BadFrame(e) if !e.fatal && e.offset == Some(0)));
    assert!(matches!(&got[1], Event::BadFrame(e) if !e.fatal && e.offset == Some(12)));
    assert!(matches!(&got[2], Event::Malformed { name, .. } if name == "debug_enter"));
    assert!(
        matches!(&got[3], Event::Malformed { name, reason } if name == "scene:scene_tree"
            && reason.contains("lacks 1")),
        "{:?}",
        got[3]
    );
    assert!(
        matches!(&got[4], Event::Other(raw) if raw.name == "mygame:hello"
        && raw.data == [Variant::Int(3)])
    );
    assert_eq!(got[5], Event::DebugExit);
}

#[test]
fn godot3_item_count_over_the_limit_is_refused_before_any_item() {
    let limits = Limits {
        max_items: 10,
        ..Limits::default()
    };
    let mut session = Session::new(Protocol::Godot3, limits);
    let mut bytes = frame3(&"output".into());
    bytes.extend(frame3(&Variant::Int(i64::from(i32::MAX))));
    // The next message is read normally.
    bytes.extend(frame3(&"debug_exit".into()));
    bytes.extend(frame3(&Variant::Int(0)));
    session.receive(&bytes);
    let got = events(&mut session);
    assert!(
        matches!(&got[0], Event::BadFrame(e) if !e.fatal && e.message.contains("over the limit of 10")),
        "{got:?}"
    );
    assert_eq!(got[1..], [Event::DebugExit]);
}

#[test]
fn godot4_stack_frame_vars_count_over_the_limit_is_malformed() {
    let limits = Limits {
        max_items: 10,
        ..Limits::default()
    };
    let mut session = Session::new(Protocol::Godot4, limits);
    session.receive(&msg4("stack_frame_vars", vec![Variant::Int(1 << 40)]));
    session.receive(&msg4(
        "stack_frame_var",
        vec!["x".into(), 0.into(), 2.into(), 1.into()],
    ));
    let got = events(&mut session);
    assert!(matches!(&got[0], Event::Malformed { name, .. } if name == "stack_frame_vars"));
    assert!(matches!(&got[1], Event::Malformed { name, .. } if name == "stack_frame_var"));
}

#[test]
fn a_chain_of_100000_nodes_costs_no_stack() {
    // Each node has one child: a tree 100,000 deep, read and dropped without recursion.
    let n = 100_000;
    let mut data = Vec::new();
    for i in 0..n {
        let children = i64::from(i + 1 < n);
        data.extend([
            Variant::Int(children),
            Variant::from(format!("n{i}")),
            "Node".into(),
            Variant::Int(i64::from(i)),
            "".into(),
            0.into(),
        ]);
    }
    let mut session = Session::new(Protocol::Godot4, Limits::default());
    session.receive(&msg4("scene:scene_tree", data));
    let Some(Event::SceneTree(tree)) = session.poll_event() else {
        panic!("no tree")
    };
    assert_eq!(tree.nodes.len(), n as usize);
    assert_eq!(tree.nodes[99_999].parent, Some(99_998));
    assert!(tree.path(99_999).unwrap().ends_with("/n99998/n99999"));
}

#[test]
fn a_peer_sending_garbage_over_tcp_is_an_event() {
    let debugger = Debugger::listen("127.0.0.1:0").unwrap();
    let addr = debugger.local_addr().unwrap();
    let peer = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(&msg4("set_pid", vec![Variant::Int(42)]))
            .unwrap();
        stream
            .write_all(&[8, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0])
            .unwrap();
        stream.write_all(&msg4("debug_exit", vec![])).unwrap();
        // Then a frame cut short by the disconnect.
        stream.write_all(&[100, 0, 0, 0, 1]).unwrap();
    });
    let mut game = debugger.accept(Duration::from_secs(10)).unwrap();
    let got = game.events_until(Duration::from_secs(10), false, |_| false);
    peer.join().unwrap();
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(got[0], Event::Pid(42));
    assert!(matches!(&got[1], Event::BadFrame(e) if !e.fatal));
    assert_eq!(got[2], Event::DebugExit);
    // 100 announced, 1 arrived.
    assert!(
        matches!(&got[3], Event::BadFrame(e) if e.fatal && e.message.contains("99 bytes short")),
        "{:?}",
        got[3]
    );
    assert_eq!(got[4], Event::Disconnected { error: None });
    assert_eq!(game.next_event(Duration::from_millis(10)), None);
}

#[test]
fn a_first_frame_of_neither_dialect_ends_the_connection() {
    let debugger = Debugger::listen("127.0.0.1:0").unwrap();
    let addr = debugger.local_addr().unwrap();
    let peer = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(&frame4(&Variant::Int(7))).unwrap();
        std::thread::sleep(Duration::from_millis(200));
    });
    let mut game = debugger.accept(Duration::from_secs(10)).unwrap();
    let got = game.events_until(Duration::from_secs(10), false, |_| false);
    peer.join().unwrap();
    assert!(
        matches!(&got[..], [Event::Disconnected { error: Some(e) }] if e.contains("type 2")),
        "{got:?}"
    );
}

/// A Godot 3 message of `n` items, each a 1,000-byte String (1,012 bytes framed: the 4-byte
/// prefix, the 4-byte type, the 4-byte length and the 1,000 bytes).
fn big3(name: &str, n: i64) -> Vec<u8> {
    let mut bytes = frame3(&name.into());
    bytes.extend(frame3(&Variant::Int(n)));
    for _ in 0..n {
        bytes.extend(frame3(&Variant::from("x".repeat(1000))));
    }
    bytes
}

#[test]
fn godot3_message_over_the_size_limit_is_skipped_whole() {
    // 10 items of 1,012 bytes (prefix 4 + header 4 + length 4 + 1,000) and the 12-byte
    // count frame: 10,132 bytes, over a limit of 5,000; the next message reads normally.
    assert_eq!(frame3(&Variant::from("x".repeat(1000))).len(), 1012);
    let limits = Limits {
        max_message_size: 5_000,
        ..Limits::default()
    };
    let mut session = Session::new(Protocol::Godot3, limits);
    let mut bytes = big3("output", 10);
    bytes.extend(frame3(&"debug_exit".into()));
    bytes.extend(frame3(&Variant::Int(0)));
    session.receive(&bytes);
    let got = events(&mut session);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        matches!(&got[0], Event::BadFrame(e) if !e.fatal
            && e.message.contains("over the limit of 5000 bytes; its 5 remaining items")),
        "{:?}",
        got[0]
    );
    assert_eq!(got[1], Event::DebugExit);
    // Under the limit, the same message is read.
    let mut session = Session::new(Protocol::Godot3, Limits::default());
    session.receive(&big3("mygame:blob", 10));
    assert!(matches!(session.poll_event(), Some(Event::Other(m)) if m.data.len() == 10));
}

#[test]
fn godot3_undecodable_item_drops_its_message_only() {
    let mut session = Session::new(Protocol::Godot3, Limits::default());
    let mut bytes = frame3(&"mygame:three".into());
    bytes.extend(frame3(&Variant::Int(3)));
    bytes.extend(frame3(&"a".into()));
    bytes.extend([8, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0]); // type 255: does not decode
    bytes.extend(frame3(&"c".into())); // the third item: skipped, not read as a name
    bytes.extend(frame3(&"debug_exit".into()));
    bytes.extend(frame3(&Variant::Int(0)));
    session.receive(&bytes);
    let got = events(&mut session);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(matches!(&got[0], Event::BadFrame(e) if !e.fatal));
    assert_eq!(got[1], Event::DebugExit);
}

#[test]
fn godot4_stack_variables_over_the_size_limit_are_dropped() {
    let limits = Limits {
        max_message_size: 5_000,
        ..Limits::default()
    };
    let mut session = Session::new(Protocol::Godot4, limits);
    session.receive(&msg4("stack_frame_vars", vec![Variant::Int(10)]));
    for i in 0..10 {
        session.receive(&msg4(
            "stack_frame_var",
            vec![
                format!("v{i}").into(),
                0.into(),
                4.into(),
                "x".repeat(1000).into(),
            ],
        ));
    }
    let got = events(&mut session);
    // Each stack_frame_var frame is over 1,000 bytes: the fifth passes 5,000.
    assert!(
        matches!(&got[0], Event::Malformed { name, reason } if name == "stack_frame_var"
            && reason.contains("over the limit of 5000 bytes")),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|e| matches!(e, Event::Variables(_))),
        "{got:?}"
    );
}

/// A Godot 4 `error` message: `[hr, min, sec, msec, file, function, line, error, description,
/// warning, 0]` (no call stack).
fn error4(file: &str, function: &str, error: &str, warning: bool) -> Vec<u8> {
    msg4(
        "error",
        vec![
            Variant::Int(0),
            Variant::Int(0),
            Variant::Int(2),
            Variant::Int(5),
            Variant::from(file),
            Variant::from(function),
            Variant::Int(if file.is_empty() { 0 } else { 7 }),
            Variant::from(error),
            Variant::from("d"),
            Variant::Bool(warning),
            Variant::Int(0),
        ],
    )
}

#[test]
fn only_the_engines_own_notices_are_dropped_events() {
    let mut session = Session::new(Protocol::Godot4, Limits::default());
    // The engine's notice: a TOO_MANY_* code with no source and no stack.
    session.receive(&error4("", "", "TOO_MANY_WARNINGS", false));
    // The same code raised by the game's script (push_error has a source): an error.
    session.receive(&error4(
        "core/variant/variant_utility.cpp",
        "push_error",
        "TOO_MANY_ERRORS",
        false,
    ));
    // An unknown code with no source stays an error too.
    session.receive(&error4("", "", "TOO_MANY_THINGS", false));
    let got = events(&mut session);
    assert!(
        matches!(&got[0], Event::Dropped(d) if d.what == godot_serde_debugger::DroppedKind::Warnings
            && d.description == "d" && d.time == [0, 0, 2, 5]),
        "{got:?}"
    );
    assert!(matches!(&got[1], Event::Error(e) if e.message == "TOO_MANY_ERRORS"));
    assert!(matches!(&got[2], Event::Error(e) if e.message == "TOO_MANY_THINGS"));
    assert_eq!(got.len(), 3);
    // Notices are not script errors.
    assert_eq!((session.error_count(), session.warning_count()), (2, 0));
}

#[test]
fn too_big_needs_the_hint_an_empty_hint_string_and_null() {
    // [name, type, hint, hint_string, usage, value]; Godot 4's OBJECT_TOO_BIG is 25.
    let prop = |name: &str, hint: i64, hint_string: &str, value: Variant| {
        Variant::from(vec![
            Variant::from(name),
            Variant::Int(4),
            Variant::Int(hint),
            Variant::from(hint_string),
            Variant::Int(6),
            value,
        ])
    };
    let mut session = Session::new(Protocol::Godot4, Limits::default());
    let object = |props: Vec<Variant>| {
        Variant::from(vec![
            Variant::Int(99),
            Variant::from("Label"),
            Variant::from(props),
        ])
    };
    session.receive(&msg4(
        "scene:inspect_objects",
        vec![object(vec![
            prop("text", 25, "", Variant::Nil),
            prop("a", 25, "", Variant::from("kept")),
            prop("b", 25, "x", Variant::Nil),
            prop("c", 34, "", Variant::Nil),
        ])],
    ));
    let got = events(&mut session);
    let Some(Event::Objects(objects)) = got.first() else {
        panic!("{got:?}")
    };
    let too_big: Vec<bool> = objects[0].properties.iter().map(|p| p.too_big).collect();
    // Godot 3.2's code (34) means nothing on Godot 4.
    assert_eq!(too_big, [true, false, false, false]);
    assert_eq!(objects[0].get("text"), None);
    assert_eq!(objects[0].get("c"), Some(&Variant::Nil));
}
