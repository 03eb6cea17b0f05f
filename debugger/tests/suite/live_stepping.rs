//! Stepping and the main loop against live games: `break` stops a running game, `step` enters a
//! call and comes back out of it, a script changed on disk is re-read on `reload_scripts`
//! (Godot 4 by path and all at once, Godot 3.2 all at once); on Godot 4.6 the
//! game is suspended, advanced frame by frame (exactly one `_process` per `next_frame`) and its
//! time scale changed (`scene:speed_changed`), seen in `_process`'s `delta` against real time.

use std::time::Duration;

use godot_serde::Variant;
use godot_serde_debugger::{Command, Connection, Event};
use godot_serde_test_support::engine::Engine;

use crate::game;

/// Lines (1-based): `inner` is 4-6, `_process` calls it at line 11, then line 12.
fn script(engine: Engine) -> String {
    game::ready_loop_script(
        engine,
        "func inner(v):\n\tvar y = v * 2\n\treturn y\n",
        "inner(frames)",
    )
}

fn step_out_break(which: Engine) {
    let Some(game::Launched { mut game, run, dir }) = game::launch(
        which,
        "debugger::live_stepping",
        "dbg_step",
        &script(which),
        &[],
    ) else {
        return;
    };
    let id = game::ready_id(&mut game);
    let callback = game::callback(which);
    let at = game::frame;
    // `break` stops the running game between frames, outside any script: no reason, no
    // stack (Godot 4 says `has_stack: false`; Godot 3 has no such field and sends an empty
    // stack).
    game.send(Command::Break).unwrap();
    let (b, stack) = game::wait_break(&mut game);
    assert!(b.can_continue, "{b:?}");
    assert_eq!(b.reason, "");
    assert_eq!(b.has_stack, which == Engine::Godot3);
    assert_eq!(stack, []);
    game::breakpoint(&mut game, 11, true);
    game.send(Command::Continue).unwrap();
    let (b, stack) = game::wait_break(&mut game);
    assert_eq!(b.reason, "Breakpoint");
    assert_eq!(stack, [at(callback, 11)]);
    game::breakpoint(&mut game, 11, false);
    // `step` enters inner() at its first line.
    game.send(Command::Step).unwrap();
    let (_, stack) = game::wait_break(&mut game);
    assert_eq!(stack, [at("inner", 5), at(callback, 11)]);
    game.send(Command::Step).unwrap();
    let (_, stack) = game::wait_break(&mut game);
    assert_eq!(stack, [at("inner", 6), at(callback, 11)]);
    // Stepping on out of inner() returns to the caller's next line. (Neither engine has a
    // step-out command: Godot 4.6 answers `out` with "Unknown message received from
    // debugger: out.")
    game.send(Command::Step).unwrap();
    let (_, stack) = game::wait_break(&mut game);
    assert_eq!(stack, [at(callback, 12)]);
    game.send(Command::Continue).unwrap();
    // Reloading the scripts while running is taken and the game goes on.
    game.send(Command::ReloadScripts(vec!["res://main.gd".into()]))
        .unwrap();
    let end = game::end_on_done(&mut game, id, true);
    assert!(
        !end.iter().any(|e| matches!(e, Event::DebugEnter(_))),
        "{end:?}"
    );
    game::exited(run, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_break_step() {
    step_out_break(Engine::Godot4);
}

#[test]
fn godot3_break_step() {
    step_out_break(Engine::Godot3);
}

/// A node that counts its `_process` calls and prints each with its `delta` (game time) and
/// the real time since the previous call, both in seconds. A headless game draws nothing, so
/// the rendering server never emits `frame_post_draw`, the signal on which `next_frame`
/// suspends the game again; the ticker draws each frame as a game with a window does.
const TICKER: &str = "extends Node
var n = 0
var last = 0
func _process(delta):
\tn += 1
\tvar now = Time.get_ticks_usec()
\tprint(\"frame \", n, \" \", delta, \" \", (now - last) / 1000000.0)
\tlast = now
\tRenderingServer.force_draw()
";

const MAIN: &str = "extends SceneTree
var ticker
var done = false
func _initialize():
\tEngine.max_fps = 30
\tticker = load(\"res://ticker.gd\").new()
\troot.add_child(ticker)
func _process(_delta):
\tif ticker.n == 3:
\t\tprint(\"ids \", ticker.get_instance_id(), \" \", get_instance_id())
\tif done:
\t\tquit(4)
\tif Time.get_ticks_msec() > 40000:
\t\tquit(2)
\treturn false
";

/// The `frame N delta real` lines in the output.
fn frames(events: &[Event]) -> Vec<(i64, f64, f64)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Output(lines) => Some(lines),
            _ => None,
        })
        .flatten()
        .flat_map(|l| l.text.lines())
        .filter_map(|t| {
            let mut words = t.strip_prefix("frame ")?.split(' ');
            let n = words.next()?.parse().ok()?;
            let delta = words.next()?.parse().ok()?;
            let real = words.next()?.parse().ok()?;
            Some((n, delta, real))
        })
        .collect()
}

fn numbers(events: &[Event]) -> Vec<i64> {
    frames(events).into_iter().map(|f| f.0).collect()
}

/// Game time over real time across these frames.
fn speed(frames: &[(i64, f64, f64)]) -> f64 {
    let game: f64 = frames.iter().map(|f| f.1).sum();
    let real: f64 = frames.iter().map(|f| f.2).sum();
    game / real
}

fn inspect(game: &mut Connection, id: u64, property: &str) -> Variant {
    game.send(Command::InspectObjects(vec![id])).unwrap();
    let events = game.events_until(Duration::from_secs(30), true, |e| {
        matches!(e, Event::Objects(_))
    });
    let Some(Event::Objects(objects)) = events.last() else {
        panic!("no objects: {events:?}")
    };
    objects[0]
        .get(property)
        .cloned()
        .unwrap_or_else(|| panic!("{property}: {:?}", objects[0].properties))
}

#[test]
fn godot4_suspend_next_frame_time_scale() {
    let Some(engine) = Engine::Godot4.find_or_skip("debugger::live_stepping::suspend") else {
        return;
    };
    let dir = game::project(Engine::Godot4, "dbg_suspend", MAIN);
    std::fs::write(dir.join("ticker.gd"), TICKER).unwrap();
    let (mut game, run) = game::start(Engine::Godot4, &engine, &dir, Duration::from_secs(60));
    let timeout = Duration::from_secs(30);
    let seen = game.events_until(
        timeout,
        true,
        |e| matches!(e, Event::Output(l) if l.iter().any(|l| l.text.contains("ids "))),
    );
    let ids: Vec<u64> = seen
        .iter()
        .find_map(|e| match e {
            Event::Output(l) => l
                .iter()
                .find_map(|l| l.text.lines().find_map(|t| t.strip_prefix("ids "))),
            _ => None,
        })
        .expect("the ids line")
        .split(' ')
        .map(|id| id.parse().unwrap())
        .collect();
    let (ticker, main) = (ids[0], ids[1]);

    // Suspended: the count stops. The messages of one poll are handled in order, so the
    // inspection after the suspension reads the count it stopped at, and a second one, after
    // more polls of the debugger (the round trip of the first), the same.
    game.send(Command::Suspend(true)).unwrap();
    let Variant::Int(stopped) = inspect(&mut game, ticker, "Members/n") else {
        panic!("n is not an int")
    };
    assert_eq!(
        inspect(&mut game, ticker, "Members/n"),
        Variant::Int(stopped)
    );

    // Each next_frame runs exactly one frame, then the game is suspended again: after the
    // k-th the count is stopped + k.
    let mut printed = Vec::new();
    for k in 1..=3 {
        game.send(Command::NextFrame).unwrap();
        let events = game.events_until(timeout, true, |e| {
            numbers(std::slice::from_ref(e)).contains(&(stopped + k))
        });
        printed.extend(numbers(&events));
        assert_eq!(
            inspect(&mut game, ticker, "Members/n"),
            Variant::Int(stopped + k)
        );
    }
    // Lines of frames before the suspension took effect arrive late; none after stopped + 3.
    printed.retain(|&n| n > stopped);
    assert_eq!(printed, [stopped + 1, stopped + 2, stopped + 3]);
    assert_eq!(
        inspect(&mut game, ticker, "Members/n"),
        Variant::Int(stopped + 3)
    );

    // Resumed, then at a quarter of the speed. Game time over real time, summed over ten
    // frames (those at the changes left out: they span the suspension or the change), is 1,
    // then 1/4; within 20 % either way, a same-run ratio.
    game.send(Command::Suspend(false)).unwrap();
    let run_until = |game: &mut Connection, last: i64| {
        let events = game.events_until(timeout, true, |e| {
            numbers(std::slice::from_ref(e)).contains(&last)
        });
        frames(&events)
            .into_iter()
            .filter(|f| f.0 > last - 10)
            .collect::<Vec<_>>()
    };
    let normal = run_until(&mut game, stopped + 14);
    assert_eq!(normal.len(), 10, "{normal:?}");
    game.send(Command::TimeScale(0.25)).unwrap();
    let changed = run_until(&mut game, stopped + 16);
    let quarter = run_until(&mut game, changed.last().map_or(0, |f| f.0) + 12);
    assert_eq!(quarter.len(), 10, "{quarter:?}");
    assert!((0.8..1.2).contains(&speed(&normal)), "{normal:?}");
    assert!((0.2..0.3).contains(&speed(&quarter)), "{quarter:?}");

    game.send(Command::SetObjectProperty {
        id: main,
        property: "done".into(),
        value: true.into(),
    })
    .unwrap();
    let end = game.events_until(timeout, true, |_| false);
    assert_eq!(end.last(), Some(&Event::Disconnected { error: None }));
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(out.status.code(), Some(4));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The main script prints what `res://greeter.gd` says whenever it changes.
fn reload_main(engine: Engine) -> String {
    let (callback, ticks) = match engine {
        Engine::Godot4 => ("_process", "Time.get_ticks_msec()"),
        Engine::Godot3 => ("_idle", "OS.get_ticks_msec()"),
    };
    format!(
        "extends SceneTree
var greeter
var last = \"\"
var done = false
func _initialize():
\tgreeter = load(\"res://greeter.gd\").new()
\troot.add_child(greeter)
func {callback}(_delta):
\tvar g = greeter.greet()
\tif g != last:
\t\tlast = g
\t\tprint(\"greeting \", g, \" \", get_instance_id())
\tif done:
\t\tquit(6)
\tif {ticks} > 40000:
\t\tquit(2)
\treturn false
"
    )
}

fn greeter(version: &str) -> String {
    format!("extends Node\nfunc greet():\n\treturn \"{version}\"\n")
}

fn wait_greeting(game: &mut Connection, version: &str) -> u64 {
    let prefix = format!("greeting {version} ");
    let events = game.events_until(Duration::from_secs(30), true, |e| {
        matches!(e, Event::Output(l) if l.iter().any(|l| l.text.lines().any(|t| t.starts_with(&prefix))))
    });
    events
        .iter()
        .find_map(|e| match e {
            Event::Output(l) => l
                .iter()
                .find_map(|l| l.text.lines().find_map(|t| t.strip_prefix(prefix.as_str()))),
            _ => None,
        })
        .unwrap_or_else(|| {
            let printed: Vec<_> = events
                .iter()
                .filter(|e| matches!(e, Event::Output(_)))
                .collect();
            panic!("no {prefix:?}: {printed:?}")
        })
        .parse()
        .unwrap()
}

/// A script changed on disk is re-read by `reload_scripts`: Godot 4 by path, and every
/// script with an empty list (`reload_all_scripts`); Godot 3.2 every script.
fn reload(which: Engine) {
    let Some(game::Launched { mut game, run, dir }) = game::launch(
        which,
        "debugger::live_stepping::reload",
        "dbg_reload",
        &reload_main(which),
        &[("greeter.gd", &greeter("v1"))],
    ) else {
        return;
    };
    let main = wait_greeting(&mut game, "v1");
    std::fs::write(dir.join("greeter.gd"), greeter("v2")).unwrap();
    let paths = match which {
        Engine::Godot4 => vec!["res://greeter.gd".to_owned()],
        Engine::Godot3 => vec![],
    };
    game.send(Command::ReloadScripts(paths)).unwrap();
    wait_greeting(&mut game, "v2");
    if which == Engine::Godot4 {
        std::fs::write(dir.join("greeter.gd"), greeter("v3")).unwrap();
        game.send(Command::ReloadScripts(vec![])).unwrap();
        wait_greeting(&mut game, "v3");
    }
    game::end_on_done(&mut game, main, true);
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(out.status.code(), Some(6));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_reload_scripts() {
    reload(Engine::Godot4);
}

#[test]
fn godot3_reload_scripts() {
    reload(Engine::Godot3);
}
