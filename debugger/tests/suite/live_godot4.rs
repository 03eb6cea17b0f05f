//! Against a live Godot 4.6 game: output, warnings, errors, a runtime script error that
//! stops the game until the debugger continues it, the stack and variables of that break,
//! the scene tree, an object's properties, and a property set that the game sees.

use std::time::Duration;

use godot_serde::{Variant, Vector2};
use godot_serde_debugger::{Break, Command, Event, OutputKind, Protocol, Scope};
use godot_serde_test_support::engine::Engine;

// Line numbers below are those of `game::player_game`.
use crate::game::{self, frame};

const RUNTIME_ERROR: &str =
    "Invalid access to property or key 'missing_key' on a base object of type 'Dictionary'.";

#[test]
fn godot4_game_under_the_debugger() {
    let which = Engine::Godot4;
    let script = game::player_game(which);
    let Some(game::Launched { mut game, run, dir }) =
        game::launch(which, "debugger::live_godot4", "dbg4", &script, &[])
    else {
        return;
    };
    let timeout = Duration::from_secs(30);

    // Up to the break of the runtime error in boom().
    let before = game.events_until(timeout, false, |e| matches!(e, Event::DebugEnter(_)));
    assert_eq!(game.protocol(), Some(Protocol::Godot4));
    assert!(
        matches!(before.first(), Some(Event::Pid(pid)) if *pid > 0),
        "{before:?}"
    );
    let lines = game::output_lines(&before);
    assert!(
        lines
            .iter()
            .any(|l| l.text == "hello 42" && l.kind == OutputKind::Log),
        "{lines:?}"
    );
    let errors: Vec<_> = before
        .iter()
        .filter_map(|e| match e {
            Event::Error(e)
                if e.callstack
                    .first()
                    .is_some_and(|f| f.file == "res://main.gd") =>
            {
                Some(e)
            }
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2, "{before:#?}");
    assert_eq!(errors[0].message, "careful");
    assert!(errors[0].warning);
    assert_eq!(errors[0].source_function, "push_warning");
    assert_eq!(errors[0].callstack, vec![frame("_initialize", 12)]);
    assert_eq!(errors[1].message, "bad thing");
    assert!(!errors[1].warning);
    assert_eq!(errors[1].source_function, "push_error");
    assert_eq!(errors[1].callstack, vec![frame("_initialize", 13)]);
    assert_eq!(
        before.last(),
        Some(&Event::DebugEnter(Break {
            can_continue: false,
            reason: RUNTIME_ERROR.into(),
            has_stack: true,
            thread: Some(1),
        }))
    );
    assert!(game.session().unwrap().current_break().is_some());

    // The game waits: read its stack, variables and an expression, then continue.
    game.send(Command::GetStackDump).unwrap();
    game.send(Command::GetStackFrameVars(0)).unwrap();
    game.send(Command::Evaluate {
        expression: "x + 1".into(),
        frame: 0,
    })
    .unwrap();
    let during = game.events_until(timeout, false, |e| matches!(e, Event::Evaluation(_)));
    let stack = during.iter().find_map(|e| match e {
        Event::StackDump(s) => Some(s.clone()),
        _ => None,
    });
    assert_eq!(stack, Some(vec![frame("boom", 8), frame("_process", 25)]));
    let vars = during
        .iter()
        .find_map(|e| match e {
            Event::Variables(v) => Some(v.clone()),
            _ => None,
        })
        .expect("the frame's variables");
    let find = |name: &str| game::variable(&vars, name);
    assert_eq!(find("x"), Some((Scope::Local, &Variant::Int(1))));
    assert_eq!(find("frames"), Some((Scope::Member, &Variant::Int(3))));
    match during.last() {
        Some(Event::Evaluation(v)) => {
            assert_eq!((v.name.as_str(), v.scope), ("x + 1", Scope::Evaluation));
            assert_eq!(v.value, Variant::Int(2));
        }
        other => panic!("expected the evaluation, got {other:?}"),
    }
    // The runtime error itself, with its script stack.
    let runtime = during.iter().chain(before.iter()).find_map(|e| match e {
        Event::Error(e) if e.message == RUNTIME_ERROR => Some(e.clone()),
        _ => None,
    });
    let after = game::continue_past_the_error(&mut game, timeout);
    assert!(after.contains(&Event::DebugExit), "{after:?}");
    let runtime = runtime
        .or_else(|| {
            after.iter().find_map(|e| match e {
                Event::Error(e) if e.message == RUNTIME_ERROR => Some(e.clone()),
                _ => None,
            })
        })
        .expect("the runtime error's error message");
    assert_eq!(runtime.source_file, "res://main.gd");
    assert_eq!(
        (runtime.source_function.as_str(), runtime.source_line),
        ("boom", 8)
    );
    assert_eq!(
        runtime.callstack,
        vec![frame("boom", 8), frame("_process", 25)]
    );

    // The tree: /root with Player (Node2D) holding Gun (Node).
    let tree = game::scene_tree(&mut game, timeout);
    assert_eq!(tree.paths(), ["/root", "/root/Player", "/root/Player/Gun"]);
    assert_eq!(tree.root().unwrap().class, "Window");
    let player = tree.get("/root/Player").unwrap();
    assert_eq!(player.class, "Node2D");
    assert_eq!(tree.get("/root/Player/Gun").unwrap().class, "Node");

    // Its properties, then a property set the game sees (it prints it and quits with 7).
    let objects = game::inspect(&mut game, player.id, timeout);
    assert_eq!(objects.len(), 1);
    assert_eq!(
        (objects[0].id, objects[0].class.as_str()),
        (player.id, "Node2D")
    );
    assert_eq!(
        objects[0].get("position"),
        Some(&Variant::Vector2(Vector2::new(3.0, 4.0)))
    );
    let end = game::set_position(&mut game, player.id, timeout);
    assert!(
        game::output_lines(&end)
            .iter()
            .any(|l| l.text == "position set (10.0, 20.0)"),
        "{end:?}"
    );
    assert_eq!(end.last(), Some(&Event::Disconnected { error: None }));
    game::exited(run, 7);
    let _ = std::fs::remove_dir_all(&dir);
}
