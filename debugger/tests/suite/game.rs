//! Starting a headless Godot with `--remote-debug` pointed at a [`Debugger`] of the test.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

use godot_serde::{Variant, Vector2};
use godot_serde_debugger::{
    Break, Command, Connection, Debugger, Event, InspectedObject, OutputLine, SceneTree, Scope,
    StackFrame, Variable,
};
use godot_serde_test_support::engine::{self, Engine};

/// A throw-away project holding `main.gd` = `script`, for `engine`.
pub fn project(engine: Engine, test: &str, script: &str) -> std::path::PathBuf {
    let settings = match engine {
        Engine::Godot4 => {
            "config_version=5\n\n[application]\n\nconfig/name=\"debugger_test\"\n\n\
             [debug]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n"
        }
        Engine::Godot3 => {
            "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n"
        }
    };
    let dir = engine::project_dir::<&Path>(test, settings, &[]);
    std::fs::write(dir.join("main.gd"), script).unwrap();
    dir
}

/// Runs `res://main.gd` of `dir` under `engine` with its debugger at `debugger`, killed after
/// `timeout`; the thread returns the output and whether it was killed.
pub fn spawn(
    which: Engine,
    engine: &Path,
    dir: &Path,
    debugger: &Debugger,
    timeout: Duration,
) -> JoinHandle<(Output, bool)> {
    spawn_port(
        which,
        engine,
        dir,
        debugger.local_addr().unwrap().port(),
        timeout,
    )
}

/// [`spawn`] with the debugger's port.
pub fn spawn_port(
    which: Engine,
    engine: &Path,
    dir: &Path,
    port: u16,
    timeout: Duration,
) -> JoinHandle<(Output, bool)> {
    let (display, target) = match which {
        Engine::Godot4 => ("--headless", format!("tcp://127.0.0.1:{port}")),
        Engine::Godot3 => ("--no-window", format!("127.0.0.1:{port}")),
    };
    let child = std::process::Command::new(engine)
        .arg(display)
        .arg("--path")
        .arg(dir)
        .arg("--remote-debug")
        .arg(target)
        .arg("-s")
        .arg("res://main.gd")
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join(".data"))
        .env("XDG_CONFIG_HOME", dir.join(".config"))
        .env("XDG_CACHE_HOME", dir.join(".cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::spawn(move || engine::wait_with_timeout(child, timeout))
}

/// Listens, starts the game and accepts it.
pub fn start(
    which: Engine,
    engine: &Path,
    dir: &Path,
    timeout: Duration,
) -> (Connection, JoinHandle<(Output, bool)>) {
    let debugger = Debugger::listen("127.0.0.1:0").unwrap();
    let game = spawn(which, engine, dir, &debugger, timeout);
    let connection = debugger.accept(timeout).unwrap();
    (connection, game)
}

/// The script callback run every frame: `_process` on Godot 4, `_idle` on Godot 3.2.
pub fn callback(which: Engine) -> &'static str {
    match which {
        Engine::Godot4 => "_process",
        Engine::Godot3 => "_idle",
    }
}

/// A stack frame of `res://main.gd`.
pub fn frame(function: &str, line: i64) -> StackFrame {
    StackFrame {
        file: "res://main.gd".into(),
        function: function.into(),
        line,
    }
}

/// Every output line of `events`, in order.
pub fn output_lines(events: &[Event]) -> Vec<OutputLine> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Output(lines) => Some(lines.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Waits for the next break, then asks for its stack: the break and the stack.
pub fn wait_break(game: &mut Connection) -> (Break, Vec<StackFrame>) {
    let events = game.events_until(Duration::from_secs(30), false, |e| {
        matches!(e, Event::DebugEnter(_))
    });
    let Some(Event::DebugEnter(b)) = events.last() else {
        panic!("no break: {events:?}")
    };
    let b = b.clone();
    game.send(Command::GetStackDump).unwrap();
    let events = game.events_until(Duration::from_secs(30), false, |e| {
        matches!(e, Event::StackDump(_))
    });
    let Some(Event::StackDump(stack)) = events.last() else {
        panic!("no stack: {events:?}")
    };
    (b, stack.clone())
}

/// Waits for the game's line `ready <id>`: the id.
pub fn ready_id(game: &mut Connection) -> u64 {
    let ready = game.events_until(
        Duration::from_secs(30),
        true,
        |e| matches!(e, Event::Output(l) if l.iter().any(|l| l.text.starts_with("ready "))),
    );
    ready
        .iter()
        .find_map(|e| match e {
            Event::Output(l) => l.iter().find_map(|l| l.text.strip_prefix("ready ")),
            _ => None,
        })
        .expect("the ready line")
        .parse()
        .unwrap()
}

/// Sets or clears the breakpoint at `line` of `res://main.gd`.
pub fn breakpoint(game: &mut Connection, line: u32, enabled: bool) {
    game.send(Command::Breakpoint {
        file: "res://main.gd".into(),
        line,
        enabled,
    })
    .unwrap();
}

/// Sets `done` of the object `id` (the script's), on which the test games quit.
pub fn set_done(game: &mut Connection, id: u64) {
    game.send(Command::SetObjectProperty {
        id,
        property: "done".into(),
        value: true.into(),
    })
    .unwrap();
}

/// Waits for the game's process: it ended by itself (not killed) with `code`.
pub fn exited(run: JoinHandle<(Output, bool)>, code: i32) {
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Asks for the scene tree and waits for it.
pub fn scene_tree(game: &mut Connection, timeout: Duration) -> SceneTree {
    game.send(Command::RequestSceneTree).unwrap();
    let tree = game.events_until(timeout, true, |e| matches!(e, Event::SceneTree(_)));
    let Some(Event::SceneTree(tree)) = tree.last() else {
        panic!("no scene tree: {tree:?}")
    };
    tree.clone()
}

/// Asks for the properties of the object `id` and waits for them.
pub fn inspect(game: &mut Connection, id: u64, timeout: Duration) -> Vec<InspectedObject> {
    game.send(Command::InspectObjects(vec![id])).unwrap();
    let objects = game.events_until(timeout, true, |e| matches!(e, Event::Objects(_)));
    let Some(Event::Objects(objects)) = objects.last() else {
        panic!("no objects: {objects:?}")
    };
    objects.clone()
}

/// Sets `position` of the node `id` to (10, 20), on which the live games print it and quit:
/// every event up to the game's end.
pub fn set_position(game: &mut Connection, id: u64, timeout: Duration) -> Vec<Event> {
    game.send(Command::SetObjectProperty {
        id,
        property: "position".into(),
        value: Variant::Vector2(Vector2::new(10.0, 20.0)),
    })
    .unwrap();
    game.events_until(timeout, true, |_| false)
}

/// Continues the break of the runtime error: the events up to the game's line "after the
/// error".
pub fn continue_past_the_error(game: &mut Connection, timeout: Duration) -> Vec<Event> {
    game.send(Command::Continue).unwrap();
    game.events_until(
        timeout,
        false,
        |e| matches!(e, Event::Output(l) if l.iter().any(|l| l.text == "after the error")),
    )
}

/// The scope and value of the variable `name`.
pub fn variable<'a>(vars: &'a [Variable], name: &str) -> Option<(Scope, &'a Variant)> {
    vars.iter()
        .find(|v| v.name == name)
        .map(|v| (v.scope, &v.value))
}

/// A game started by [`launch`]: its connection, its process and its project.
pub struct Launched {
    /// The debugger's connection to the game.
    pub game: Connection,
    /// The game's process, killed after 60 s.
    pub run: JoinHandle<(Output, bool)>,
    /// The throw-away project.
    pub dir: PathBuf,
}

/// Finds `which` (`None` when the test `test::godot4` or `test::godot3` is skipped), writes the
/// project `name` with `main.gd` = `script` and the `extra` files, and starts it under a
/// debugger of the test.
pub fn launch(
    which: Engine,
    test: &str,
    name: &str,
    script: &str,
    extra: &[(&str, &str)],
) -> Option<Launched> {
    let tag = match which {
        Engine::Godot4 => "godot4",
        Engine::Godot3 => "godot3",
    };
    let engine = which.find_or_skip(&format!("{test}::{tag}"))?;
    let dir = project(which, name, script);
    for (file, text) in extra {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let (game, run) = start(which, &engine, &dir, Duration::from_secs(60));
    Some(Launched { game, run, dir })
}

/// Sets `done` on the object `id`, then takes the events up to the game's end (continuing
/// breaks with `continue_errors`), which must be a clean disconnection: those events.
pub fn end_on_done(game: &mut Connection, id: u64, continue_errors: bool) -> Vec<Event> {
    set_done(game, id);
    let end = game.events_until(Duration::from_secs(30), continue_errors, |_| false);
    assert_eq!(end.last(), Some(&Event::Disconnected { error: None }));
    end
}

/// A game that prints `ready <id>` (its own object) in its second frame, runs
/// `var x = <value>` then `x += 1` every frame and quits with 3 once the debugger sets `done`
/// (with 2 after 30 s). `functions` stand before the frame callback, so with `n` lines of them
/// `var x` is line `8 + n` and `x += 1` line `9 + n`.
pub fn ready_loop_script(which: Engine, functions: &str, value: &str) -> String {
    let ticks = match which {
        Engine::Godot4 => "Time.get_ticks_msec()",
        Engine::Godot3 => "OS.get_ticks_msec()",
    };
    let callback = callback(which);
    format!(
        "extends SceneTree
var frames = 0
var done = false
{functions}func {callback}(_delta):
\tframes += 1
\tif frames == 2:
\t\tprint(\"ready \", get_instance_id())
\tvar x = {value}
\tx += 1
\tif done:
\t\tquit(3)
\tif {ticks} > 30000:
\t\tquit(2)
\treturn false
"
    )
}

/// The game of `live_godot4` and `live_godot3` (lines 1-based): `boom()` fails at line 8;
/// `_initialize` prints, warns (line 12) and errs (line 13) (Godot 3.2 also prints to stderr,
/// one line more), adds Player (a Node2D at (3, 4)) holding Gun; the frame callback calls
/// `boom(1)` in frame 3 (Godot 4 line 25, Godot 3.2 line 26), prints "after the error", and
/// quits with 7 three frames after Player is at (10, 20) (quitting in the frame of the print
/// lost the printed line now and then, under load; with 2 after 30 s). Godot 4 types its variables.
pub fn player_game(which: Engine) -> String {
    let (frames, player, printerr, ticks) = match which {
        Engine::Godot4 => ("frames := 0", "player: Node2D", "", "Time.get_ticks_msec()"),
        Engine::Godot3 => (
            "frames = 0",
            "player",
            "\tprinterr(\"to stderr\")\n",
            "OS.get_ticks_msec()",
        ),
    };
    let callback = callback(which);
    format!(
        "extends SceneTree

var {frames}
var {player}

func boom(x):
\tvar d = {{}}
\treturn d.missing_key + x

func _initialize():
\tprint(\"hello \", 42)
\tpush_warning(\"careful\")
\tpush_error(\"bad thing\")
{printerr}\tplayer = Node2D.new()
\tplayer.name = \"Player\"
\tplayer.position = Vector2(3, 4)
\tvar gun = Node.new()
\tgun.name = \"Gun\"
\tplayer.add_child(gun)
\troot.add_child(player)

func {callback}(_delta):
\tframes += 1
\tif frames == 3:
\t\tboom(1)
\t\tprint(\"after the error\")
\tif player.position == Vector2(10, 20) and quit_at == 0:
\t\tprint(\"position set \", player.position)
\t\tquit_at = frames + 3
\tif quit_at > 0 and frames >= quit_at:
\t\tquit(7)
\tif {ticks} > 30000:
\t\tquit(2)
\treturn false

var quit_at = 0
"
    )
}
