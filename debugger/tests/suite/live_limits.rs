//! The engines' own limits, live: a game that raises more errors and warnings in one frame
//! than the engine sends per second, and prints more text than it sends per second, gets
//! [`Event::Dropped`] notices and an [`OutputKind::Overflow`] line; a property too big to
//! send is [`Property::too_big`](godot_serde_debugger::Property::too_big), the others normal.
//!
//! The numbers are the engines' defaults (`network/limits/debugger/*` in Godot 4.6,
//! `network/limits/debugger_stdout/*` in Godot 3.2), see the crate README's "Engine limits".

use std::time::Duration;

use godot_serde::Variant;
use godot_serde_debugger::{Command, DroppedKind, Event, OutputKind, Protocol};
use godot_serde_test_support::engine::Engine;

use crate::game;

/// The script, per engine: `{process}` is the per-frame callback, `{ticks}` the clock,
/// `{burst}` how many errors and warnings one frame raises.
const SCRIPT: &str = "extends SceneTree

var label
var flooded = false
var started = 0

func _initialize():
\tstarted = {ticks}
\tvar chunk = \"x\"
\tfor i in 20:
\t\tchunk += chunk
\tvar big = \"\"
\tfor i in 9:
\t\tbig += chunk
\tlabel = Label.new()
\tlabel.name = \"Big\"
\tlabel.text = big
\troot.add_child(label)

func {process}(_delta):
\tif not flooded and {ticks} - started > 1500:
\t\tflooded = true
\t\tvar long = \"\"
\t\tfor i in 40000:
\t\t\tlong += \"y\"
\t\tprint(long)
\t\tfor i in {burst}:
\t\t\tpush_error(\"flood %d\" % i)
\t\tfor i in {burst}:
\t\t\tpush_warning(\"warn %d\" % i)
\tif not label.visible:
\t\tquit(7)
\tif {ticks} - started > 40000:
\t\tquit(2)
\treturn false
";

/// Godot 4.6's defaults: `max_errors_per_second` = `max_warnings_per_second` = 400,
/// `max_chars_per_second` = 32,768.
const GODOT4_LIMITS: (usize, usize) = (400, 32_768);
/// Godot 3.2.3's defaults: `max_errors_per_second` = `max_warnings_per_second` = 100,
/// `max_chars_per_second` = 2,048.
const GODOT3_LIMITS: (usize, usize) = (100, 2_048);

fn run(which: Engine) {
    let Some(engine) = which.find_or_skip("debugger::live_limits") else {
        return;
    };
    let (limits, process, ticks, burst) = match which {
        Engine::Godot4 => (GODOT4_LIMITS, "_process", "Time.get_ticks_msec()", 1000),
        // Godot 3.2 sends its notice only when exactly one was dropped when it flushes
        // (`n_errors_dropped == 1` in `ScriptDebuggerRemote::_get_output`): a burst of
        // more is dropped without one. So one over the limit.
        Engine::Godot3 => (GODOT3_LIMITS, "_idle", "OS.get_ticks_msec()", 101),
    };
    let (max_errors, max_chars) = limits;
    let script = SCRIPT
        .replace("{process}", process)
        .replace("{ticks}", ticks)
        .replace("{burst}", &burst.to_string());
    let dir = game::project(which, &format!("limits{which:?}"), &script);
    let (mut game, run) = game::start(which, &engine, &dir, Duration::from_secs(60));
    let timeout = Duration::from_secs(30);

    let mut seen = Vec::new();
    let both = |seen: &[Event]| {
        [DroppedKind::Errors, DroppedKind::Warnings]
            .iter()
            .all(|k| {
                seen.iter()
                    .any(|e| matches!(e, Event::Dropped(d) if d.what == *k))
            })
    };
    while !both(&seen) {
        let more = game.events_until(timeout, true, |e| matches!(e, Event::Dropped(_)));
        assert!(
            !more.is_empty() && !matches!(more.last(), Some(Event::Disconnected { .. })),
            "{more:?}"
        );
        seen.extend(more);
    }
    assert_eq!(
        game.protocol(),
        Some(match which {
            Engine::Godot4 => Protocol::Godot4,
            Engine::Godot3 => Protocol::Godot3,
        })
    );

    // Errors: the first `max_errors` of the burst arrive, in order, then the notice; the
    // rest (burst - max_errors) are dropped.
    let flood: Vec<&str> = seen
        .iter()
        .filter_map(|e| match e {
            Event::Error(e) if !e.warning && e.message.starts_with("flood ") => {
                Some(e.message.as_str())
            }
            _ => None,
        })
        .collect();
    let expected: Vec<String> = (0..max_errors).map(|i| format!("flood {i}")).collect();
    assert_eq!(flood, expected);
    let warnings = seen
        .iter()
        .filter(|e| matches!(e, Event::Error(e) if e.warning && e.message.starts_with("warn ")))
        .count();
    assert_eq!(warnings, max_errors);
    let dropped_errors: Vec<_> = seen
        .iter()
        .filter_map(|e| match e {
            Event::Dropped(d) if d.what == DroppedKind::Errors => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(
        dropped_errors[0].description,
        "Too many errors! Ignoring errors for up to 1 second."
    );
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, Event::Error(e) if e.message.starts_with("TOO_MANY"))),
        "{seen:?}"
    );
    assert_eq!(burst - flood.len(), burst - max_errors);

    // Output: the 40,000-character line cut to the per-second budget, marked "[...]",
    // then the engine's overflow notice.
    let lines: Vec<_> = seen
        .iter()
        .filter_map(|e| match e {
            Event::Output(lines) => Some(lines.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let overflow = lines
        .iter()
        .position(|l| l.kind == OutputKind::Overflow)
        .unwrap_or_else(|| panic!("no overflow line: {lines:?}"));
    let cut = &lines[overflow - 1].text;
    let ys = cut.trim_end_matches("[...]");
    assert!(
        cut.ends_with("[...]") && ys.bytes().all(|b| b == b'y'),
        "{cut:.80}"
    );
    // The budget is per second; the game printed nothing else in that second.
    assert_eq!(ys.len(), max_chars);

    // The label's text (9 MiB, above both engines' size limit) is withheld; its visibility is not.
    game.send(Command::RequestSceneTree).unwrap();
    let tree = game.events_until(timeout, true, |e| matches!(e, Event::SceneTree(_)));
    let Some(Event::SceneTree(tree)) = tree.last() else {
        panic!("no scene tree: {tree:?}")
    };
    let label = tree.get("/root/Big").expect("the label").id;
    game.send(Command::InspectObjects(vec![label])).unwrap();
    let objects = game.events_until(timeout, true, |e| matches!(e, Event::Objects(_)));
    let Some(Event::Objects(objects)) = objects.last() else {
        panic!("no objects: {objects:?}")
    };
    let text = objects[0].property("text").expect("a text property");
    assert!(text.too_big, "{text:?}");
    assert_eq!(
        (text.value.clone(), text.hint_string.as_str()),
        (Variant::Nil, "")
    );
    assert_eq!(objects[0].get("text"), None);
    let visible = objects[0].property("visible").expect("a visible property");
    assert!(!visible.too_big);
    assert_eq!(objects[0].get("visible"), Some(&Variant::Bool(true)));
    assert_eq!(
        objects[0].properties.iter().filter(|p| p.too_big).count(),
        1,
        "{:?}",
        objects[0]
            .properties
            .iter()
            .filter(|p| p.too_big)
            .collect::<Vec<_>>()
    );

    game.send(Command::SetObjectProperty {
        id: label,
        property: "visible".into(),
        value: Variant::Bool(false),
    })
    .unwrap();
    let end = game.events_until(timeout, true, |_| false);
    assert!(
        matches!(end.last(), Some(Event::Disconnected { .. })),
        "{end:?}"
    );
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(out.status.code(), Some(7));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_drops_and_withholds() {
    run(Engine::Godot4);
}

#[test]
fn godot3_drops_and_withholds() {
    run(Engine::Godot3);
}
