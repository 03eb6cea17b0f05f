//! Against a live Godot 3.2.3 game: the same as `live_godot4` in Godot 3's dialect (name,
//! count and items as separate frames; `message:` scene replies; no thread ids).

use std::time::Duration;

use godot_serde::{Variant, Vector2};
use godot_serde_debugger::{Break, Command, Event, OutputKind, Protocol, Scope};
use godot_serde_test_support::engine::Engine;

// Line numbers below are those of `game::player_game`.
use crate::game::{self, frame};

fn printed(events: &[Event]) -> Vec<(String, OutputKind)> {
    game::output_lines(events)
        .into_iter()
        .map(|l| (l.text, l.kind))
        .collect()
}

#[test]
fn godot3_game_under_the_debugger() {
    let which = Engine::Godot3;
    let script = game::player_game(which);
    let Some(game::Launched { mut game, run, dir }) =
        game::launch(which, "debugger::live_godot3", "dbg3", &script, &[])
    else {
        return;
    };
    let timeout = Duration::from_secs(30);

    let before = game.events_until(timeout, false, |e| matches!(e, Event::DebugEnter(_)));
    assert_eq!(game.protocol(), Some(Protocol::Godot3));
    let lines = printed(&before);
    assert!(
        lines.contains(&("hello 42".into(), OutputKind::Log)),
        "{lines:?}"
    );
    assert!(
        lines.contains(&("to stderr".into(), OutputKind::Error)),
        "{lines:?}"
    );
    let errors: Vec<_> = before
        .iter()
        .filter_map(|e| match e {
            Event::Error(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2, "{before:#?}");
    assert_eq!(
        (errors[0].message.as_str(), errors[0].warning),
        ("careful", true)
    );
    assert_eq!(errors[0].source_function, "call");
    assert_eq!(errors[0].callstack, vec![frame("_initialize", 12)]);
    assert_eq!(
        (errors[1].message.as_str(), errors[1].warning),
        ("bad thing", false)
    );
    assert_eq!(errors[1].callstack, vec![frame("_initialize", 13)]);
    assert_eq!(
        before.last(),
        Some(&Event::DebugEnter(Break {
            can_continue: false,
            reason: "Invalid get index 'missing_key' (on base: 'Dictionary').".into(),
            has_stack: true,
            thread: None,
        }))
    );

    game.send(Command::GetStackDump).unwrap();
    game.send(Command::GetStackFrameVars(0)).unwrap();
    let during = game.events_until(timeout, false, |e| matches!(e, Event::Variables(_)));
    let stack = during.iter().find_map(|e| match e {
        Event::StackDump(s) => Some(s.clone()),
        _ => None,
    });
    assert_eq!(stack, Some(vec![frame("boom", 8), frame("_idle", 26)]));
    assert_eq!(
        game.session().unwrap().stack(),
        [frame("boom", 8), frame("_idle", 26)]
    );
    let Some(Event::Variables(vars)) = during.last() else {
        panic!("no variables: {during:?}")
    };
    let find = |name: &str| game::variable(vars, name);
    assert_eq!(find("x"), Some((Scope::Local, &Variant::Int(1))));
    assert_eq!(find("frames"), Some((Scope::Member, &Variant::Int(3))));
    assert!(
        game.send(Command::Evaluate {
            expression: "1".into(),
            frame: 0
        })
        .is_err()
    );
    let after = game::continue_past_the_error(&mut game, timeout);
    assert!(after.contains(&Event::DebugExit), "{after:?}");
    assert!(game.session().unwrap().current_break().is_none());

    let tree = game::scene_tree(&mut game, timeout);
    assert_eq!(tree.paths(), ["/root", "/root/Player", "/root/Player/Gun"]);
    assert_eq!(tree.root().unwrap().class, "Viewport");
    let player = tree.get("/root/Player").unwrap();
    assert_eq!(player.class, "Node2D");

    let objects = game::inspect(&mut game, player.id, timeout);
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
        printed(&end).contains(&("position set (10, 20)".into(), OutputKind::Log)),
        "{end:?}"
    );
    assert_eq!(end.last(), Some(&Event::Disconnected { error: None }));
    game::exited(run, 7);
    let _ = std::fs::remove_dir_all(&dir);
}
