//! The proxy's core without an engine: frames pass unchanged both ways, answers go to the side
//! that asked, our commands sit between whole frames of the editor's, and the editor closing
//! leaves the game with our side.

use godot_serde::Variant;
use godot_serde::frame::Framing;
use godot_serde_debugger::wire::{self, Limits, Protocol, RawMessage};
use godot_serde_debugger::{Command, Event, ProxyEvent, ProxySession};

fn message4(name: &str, data: Vec<Variant>) -> Vec<u8> {
    wire::encode(
        Protocol::Godot4,
        RawMessage {
            name: name.into(),
            thread: Some(1),
            data,
            size: 0,
        },
    )
    .unwrap()
}

fn events(proxy: &mut ProxySession) -> Vec<ProxyEvent> {
    std::iter::from_fn(|| proxy.poll_event()).collect()
}

#[test]
fn godot4_answers_go_to_the_side_that_asked() {
    let mut proxy = ProxySession::new(Limits::default());
    let pid = message4("set_pid", vec![Variant::Int(42)]);
    // A stack of no frames: [3n = 0].
    let stack = message4("stack_dump", vec![Variant::Int(0)]);
    // The game's first message, cut into two reads.
    let (a, b) = pid.split_at(5);
    proxy.receive_game(a);
    assert!(
        proxy.take_to_editor().is_empty(),
        "half a frame is not forwarded"
    );
    proxy.receive_game(b);
    assert_eq!(proxy.take_to_editor(), pid);
    assert_eq!(events(&mut proxy), vec![ProxyEvent::Game(Event::Pid(42))]);

    // The editor asks for the stack; its frame arrives in two parts, and our own request is
    // sent while the editor's frame is still incomplete: ours goes first, the editor's whole.
    let editor_ask = message4("get_stack_dump", vec![]);
    let (a, b) = editor_ask.split_at(7);
    proxy.receive_editor(a);
    proxy.send(Command::GetStackDump).unwrap();
    proxy.receive_editor(b);
    let ours = message4("get_stack_dump", vec![]);
    assert_eq!(proxy.take_to_game(), [ours.clone(), editor_ask].concat());

    // Two answers: the first to whoever asked first (us), the second to the editor.
    proxy.receive_game(&[stack.clone(), stack.clone()].concat());
    assert_eq!(
        proxy.take_to_editor(),
        stack,
        "only the editor's answer is forwarded"
    );
    assert_eq!(
        events(&mut proxy),
        vec![
            ProxyEvent::Withheld {
                name: "stack_dump".into(),
                offset: pid.len(),
                len: stack.len()
            },
            ProxyEvent::Game(Event::StackDump(vec![])),
            ProxyEvent::Game(Event::StackDump(vec![])),
        ]
    );

    // An unasked answer goes to the editor.
    proxy.receive_game(&stack);
    assert_eq!(proxy.take_to_editor(), stack);

    // The editor leaves: the game's messages still reach us, and our commands the game.
    proxy.editor_closed(None);
    proxy.receive_game(&pid);
    assert!(proxy.take_to_editor().is_empty());
    proxy.send(Command::Continue).unwrap();
    assert_eq!(proxy.take_to_game(), message4("continue", vec![]));
    let seen = events(&mut proxy);
    assert_eq!(
        seen[1..],
        [
            ProxyEvent::EditorClosed { error: None },
            ProxyEvent::Game(Event::Pid(42))
        ]
    );
}

#[test]
fn godot3_messages_of_several_frames_are_routed_whole() {
    let framing = Framing::new(Protocol::Godot3.config(64));
    let frame = |v: Variant| framing.to_bytes(&v).unwrap();
    // "message:scene_tree", 4 items: child count 0, name, class, id.
    let tree = [
        frame(Variant::from("message:scene_tree")),
        frame(Variant::Int(4)),
        frame(Variant::Int(0)),
        frame(Variant::from("root")),
        frame(Variant::from("Viewport")),
        frame(Variant::Int(1234)),
    ];
    let output = [
        frame(Variant::from("output")),
        frame(Variant::Int(1)),
        frame(Variant::from(vec![Variant::from("hi"), Variant::Int(0)])),
    ]
    .concat();
    let mut proxy = ProxySession::new(Limits::default());
    proxy.receive_game(&output);
    assert_eq!(proxy.take_to_editor(), output);
    proxy.send(Command::RequestSceneTree).unwrap();
    // Godot 3's command: one frame [name].
    assert_eq!(
        proxy.take_to_game(),
        frame(Variant::from(vec![Variant::from("request_scene_tree")]))
    );
    // The answer's frames arrive one by one, interleaved with nothing: none is forwarded.
    for part in &tree {
        proxy.receive_game(part);
    }
    assert!(proxy.take_to_editor().is_empty());
    // The editor asks next: its answer is forwarded whole, byte for byte.
    proxy.receive_editor(&frame(Variant::from(vec![Variant::from(
        "request_scene_tree",
    )])));
    let tree = tree.concat();
    proxy.receive_game(&tree);
    assert_eq!(proxy.take_to_editor(), tree);
    let seen = events(&mut proxy);
    assert!(
        matches!(&seen[1], ProxyEvent::Withheld { name, offset, len }
        if name == "message:scene_tree" && *offset == output.len() && *len == tree.len())
    );
    assert!(matches!(&seen[2], ProxyEvent::Game(Event::SceneTree(t)) if t.nodes[0].id == 1234));
    assert!(matches!(&seen[3], ProxyEvent::Game(Event::SceneTree(_))));
}

#[test]
fn an_oversized_editor_frame_closes_only_the_editor() {
    let limits = Limits {
        max_frame_size: 64,
        ..Limits::default()
    };
    let mut proxy = ProxySession::new(limits);
    let pid = message4("set_pid", vec![Variant::Int(42)]);
    proxy.receive_game(&pid);
    proxy.receive_editor(&1000u32.to_le_bytes());
    assert!(!proxy.editor_open());
    assert!(proxy.take_to_game().is_empty());
    let seen = events(&mut proxy);
    assert!(
        matches!(&seen[1], ProxyEvent::EditorClosed { error: Some(e) } if e.contains("editor")),
        "{seen:?}"
    );
    proxy.send(Command::Continue).unwrap();
    assert_eq!(proxy.take_to_game(), message4("continue", vec![]));
}

#[test]
fn a_godot3_message_over_the_limit_is_forwarded_in_parts_not_held() {
    let limits = Limits {
        max_message_size: 256,
        ..Limits::default()
    };
    let framing = Framing::new(Protocol::Godot3.config(64));
    let frame = |v: Variant| framing.to_bytes(&v).unwrap();
    let mut proxy = ProxySession::new(limits);
    // "output" announcing 1,000 items, each a 12-byte frame (prefix 4, int header 4, value 4).
    proxy.receive_game(&frame(Variant::from("output")));
    proxy.receive_game(&frame(Variant::Int(1000)));
    let item = frame(Variant::Int(7));
    assert_eq!(item.len(), 12);
    let mut forwarded = proxy.take_to_editor().len();
    for _ in 0..1000 {
        proxy.receive_game(&item);
        forwarded += proxy.take_to_editor().len();
    }
    // 20 (name) + 12 (count) + 12,000 (items): everything reached the editor, and before the
    // message ended at most 256 bytes plus one frame were held at any time.
    assert_eq!(forwarded, 20 + 12 + 12_000);
    let mut proxy = ProxySession::new(limits);
    proxy.receive_game(&frame(Variant::from("output")));
    proxy.receive_game(&frame(Variant::Int(1000)));
    let mut held_most = 0;
    let mut total = 0;
    for i in 1..=1000 {
        proxy.receive_game(&item);
        total += proxy.take_to_editor().len();
        held_most = held_most.max(20 + 12 + 12 * i - total);
    }
    assert!(held_most <= 256 + 12, "{held_most}");
}
