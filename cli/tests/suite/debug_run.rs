//! `godot-serde debug run` against live Godot 4.6 and 3.2.3 games: output as it is printed,
//! errors with their script stack, a runtime error continued, the game's exit status, and
//! `--fail-on-error` as a CI gate. Expected lines are hand-written from the scripts below.

use crate::common::run;
use crate::engine::{self, Engine};
use std::path::{Path, PathBuf};

/// Godot 4: prints, warns, push_errors, a runtime error in boom() (line 5), then quits from
/// `_process` with the code given after `--` (output printed after `quit()` in `_init` never
/// reaches the debugger: the engine stops before flushing it).
const GAME4: &str = "extends SceneTree
var frames := 0
func boom(x):
\tvar d = {}
\treturn d.missing_key + x
func _initialize():
\tprint(\"hello \", 42)
\tpush_warning(\"careful\")
\tif \"--clean\" not in OS.get_cmdline_user_args():
\t\tpush_error(\"bad thing\")
func _process(_delta):
\tframes += 1
\tif frames == 2 and \"--clean\" not in OS.get_cmdline_user_args():
\t\tboom(1)
\t\tprint(\"after the error\")
\tif frames == 4:
\t\tprinterr(\"to stderr\")
\t\tquit(int(OS.get_cmdline_user_args()[0]))
\treturn false
";

/// The same for Godot 3.2 (`_idle`, its error text, `OS.get_cmdline_args`).
const GAME3: &str = "extends SceneTree
var frames = 0
func boom(x):
\tvar d = {}
\treturn d.missing_key + x
func _initialize():
\tprint(\"hello \", 42)
\tpush_error(\"bad thing\")
func _idle(_delta):
\tframes += 1
\tif frames == 2:
\t\tboom(1)
\t\tprint(\"after the error\")
\tif frames == 4:
\t\tquit(int(OS.get_cmdline_args()[-1]))
\treturn false
";

fn project(engine: Engine, script: &str) -> PathBuf {
    let settings = match engine {
        Engine::Godot4 => "config_version=5\n\n[application]\n\nconfig/name=\"cli_debug\"\n",
        Engine::Godot3 => {
            "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n"
        }
    };
    let dir = engine::project_dir::<&Path>("cli_debug", settings, &[]);
    std::fs::write(dir.join("main.gd"), script).unwrap();
    dir
}

/// Runs `debug run` with `flags` (plus `--godot3` for Godot 3) on the game in `dir`, the engine
/// headless, passing `user_args` to the script after `--` and `stdin` to the command.
fn debug_run(
    engine: Engine,
    godot: &Path,
    dir: &Path,
    flags: &[&str],
    user_args: &[&str],
    stdin: &[u8],
) -> crate::common::Run {
    let mut args = vec!["debug", "run", "--timeout", "60"];
    if engine == Engine::Godot3 {
        args.push("--godot3");
    }
    args.extend_from_slice(flags);
    let (godot, dir) = (godot.to_str().unwrap(), dir.to_str().unwrap());
    let headless = match engine {
        Engine::Godot4 => "--headless",
        Engine::Godot3 => "--no-window",
    };
    args.extend(["--", godot, headless, "--path", dir, "-s", "res://main.gd"]);
    if !user_args.is_empty() {
        args.push("--");
        args.extend_from_slice(user_args);
    }
    run(&args, stdin)
}

fn godot4(engine: &Path, dir: &Path, user_args: &[&str], flags: &[&str]) -> crate::common::Run {
    debug_run(Engine::Godot4, engine, dir, flags, user_args, b"")
}

/// The index of the line equal to `want` (the whole output in the panic when there is none).
fn line_index(lines: &[&str], want: &str, out: &str) -> usize {
    lines
        .iter()
        .position(|l| *l == want)
        .unwrap_or_else(|| panic!("no {want:?} in {out}"))
}

/// The id (last word) of the tree line of `/root/Player`, a Node2D.
fn player_id<'a>(lines: &[&'a str], out: &str) -> &'a str {
    let player = lines
        .iter()
        .find(|l| l.starts_with("/root/Player Node2D "))
        .unwrap_or_else(|| panic!("{out}"));
    player.rsplit(' ').next().unwrap()
}

/// Each stdout line parsed as one JSON value.
fn json_events(r: &crate::common::Run) -> Vec<serde_json::Value> {
    r.out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The stand-in editor: this crate's own `Debugger` listening on 127.0.0.1, which accepts one
/// game and continues each of its breaks (as the editor's user would) until it is gone. Its
/// address and the thread that returns every event it saw.
fn editor() -> (
    String,
    std::thread::JoinHandle<Vec<godot_serde_debugger::Event>>,
) {
    use std::time::Duration;
    let editor = godot_serde_debugger::Debugger::listen("127.0.0.1:0").unwrap();
    let addr = editor.local_addr().unwrap().to_string();
    let thread = std::thread::spawn(move || {
        let mut game = editor.accept(Duration::from_secs(60)).unwrap();
        game.events_until(Duration::from_secs(60), true, |_| false)
    });
    (addr, thread)
}

const RUNTIME_ERROR4: &str =
    "Invalid access to property or key 'missing_key' on a base object of type 'Dictionary'.";

#[test]
fn godot4_text_output_errors_and_exit_status() {
    let Some(engine) = Engine::Godot4.find_or_skip("cli::debug_run::godot4_text") else {
        return;
    };
    let dir = project(Engine::Godot4, GAME4);
    let r = godot4(&engine, &dir, &["5"], &[]);
    assert_eq!(r.code, Some(5), "{}", r.transcript());
    let out = r.out();
    // print() lines on stdout in order; the runtime error was continued.
    let hello = out.find("hello 42\n").expect("hello");
    let after = out.find("after the error\n").expect("after");
    assert!(hello < after, "{out}");
    assert!(!out.contains("to stderr"));
    let err = &r.stderr;
    assert!(err.contains("to stderr\n"), "{err}");
    assert!(
        err.contains("WARNING: careful\n   at: push_warning (core/variant/variant_utility.cpp:"),
        "{err}"
    );
    assert!(
        err.contains("   [0] _initialize (res://main.gd:8)\n"),
        "{err}"
    );
    assert!(err.contains("ERROR: bad thing\n"), "{err}");
    assert!(
        err.contains("   [0] _initialize (res://main.gd:10)\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "SCRIPT ERROR: {RUNTIME_ERROR4}\n   [0] boom (res://main.gd:5)\n   [1] _process (res://main.gd:14)\n"
        )),
        "{err}"
    );
    // Godot 4 also sends the runtime error as an `error` message: shown once.
    assert_eq!(err.matches(RUNTIME_ERROR4).count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_json_fail_on_error_is_a_ci_gate() {
    let Some(engine) = Engine::Godot4.find_or_skip("cli::debug_run::godot4_json") else {
        return;
    };
    let dir = project(Engine::Godot4, GAME4);
    // The game exits 0, but had script errors: 1.
    let r = godot4(&engine, &dir, &["0"], &["--json", "--fail-on-error"]);
    assert_eq!(r.code, Some(1), "{}", r.transcript());
    let events = json_events(&r);
    assert!(events.contains(&serde_json::json!(
        {"event": "output", "kind": "log", "text": "after the error"}
    )));
    assert!(events.contains(&serde_json::json!({
        "event": "break",
        "reason": RUNTIME_ERROR4,
        "stack": [
            {"file": "res://main.gd", "function": "boom", "line": 5},
            {"file": "res://main.gd", "function": "_process", "line": 14},
        ],
    })));
    let bad = events
        .iter()
        .find(|e| e["event"] == "error" && e["message"] == "bad thing")
        .expect("the push_error");
    assert_eq!(bad["warning"], false);
    assert_eq!(
        bad["callstack"],
        serde_json::json!([{"file": "res://main.gd", "function": "_initialize", "line": 10}])
    );
    assert_eq!(
        events.last().unwrap(),
        &serde_json::json!({"event": "exit", "status": 0, "script_errors": 2, "warnings": 3, "exit_code": 1})
    );

    // Without script errors (a warning is not one) it passes.
    let r = godot4(&engine, &dir, &["0", "--clean"], &["--fail-on-error"]);
    assert_eq!(r.code, Some(0), "{}", r.transcript());
    assert!(r.stderr.contains("WARNING: careful"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot3_text_output_and_exit_status() {
    let Some(engine) = Engine::Godot3.find_or_skip("cli::debug_run::godot3") else {
        return;
    };
    let dir = project(Engine::Godot3, GAME3);
    let r = debug_run(
        Engine::Godot3,
        &engine,
        &dir,
        &["--fail-on-error"],
        &["6"],
        b"",
    );
    // The game's own non-zero status wins over --fail-on-error's 1.
    assert_eq!(r.code, Some(6), "{}", r.transcript());
    assert!(r.out().contains("hello 42\n"), "{}", r.transcript());
    assert!(r.out().contains("after the error\n"), "{}", r.transcript());
    assert!(
        r.stderr.contains(
            "SCRIPT ERROR: Invalid get index 'missing_key' (on base: 'Dictionary').\n   \
             [0] boom (res://main.gd:5)\n   [1] _idle (res://main.gd:12)\n"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("ERROR: bad thing\n"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_command_that_never_connects_is_an_error() {
    // `true` exits at once without connecting (as a release build would).
    let r = run(&["debug", "run", "--", "true"], b"");
    assert_eq!(r.code, Some(1), "{}", r.transcript());
    assert!(
        r.stderr.contains("without connecting to the debugger"),
        "{}",
        r.stderr
    );
}

/// A Player (Node2D at (3, 4)) under the root; the game prints "ready" in its first frame
/// (the debugger may ask for the tree before `_initialize` ran), then the position the
/// debugger sets, and quits with 7 three frames after it is (10, 20) (quitting in the frame of
/// the print lost the printed line now and then, under load). Godot 3.2's first output lines,
/// "ready" among them, arrive in the game's first message, which `wait` must see.
fn repl_game(engine: Engine) -> String {
    let callback = match engine {
        Engine::Godot4 => "_process",
        Engine::Godot3 => "_idle",
    };
    format!(
        "extends SceneTree
var player
var frames = 0
func _initialize():
\tplayer = Node2D.new()
\tplayer.name = \"Player\"
\tplayer.position = Vector2(3, 4)
\troot.add_child(player)
func {callback}(_delta):
\tframes += 1
\tif frames == 1:
\t\tprint(\"ready\")
\tif player.position == Vector2(10, 20) and quit_at == 0:
\t\tprint(\"position set \", player.position)
\t\tquit_at = frames + 3
\tif quit_at > 0 and frames >= quit_at:
\t\tquit(7)
\treturn false
var quit_at = 0
"
    )
}

/// Runs `debug run --repl` with `flags` on [`repl_game`], `stdin` its commands; the run
/// (which must end with the game's 7) and the project, or `None` when `test` is skipped.
fn repl(
    engine: Engine,
    test: &str,
    flags: &[&str],
    stdin: &[u8],
) -> Option<(crate::common::Run, PathBuf)> {
    let godot = engine.find_or_skip(test)?;
    let dir = project(engine, &repl_game(engine));
    let mut all = vec!["--repl"];
    all.extend_from_slice(flags);
    let r = debug_run(engine, &godot, &dir, &all, &[], stdin);
    assert_eq!(r.code, Some(7), "{}", r.transcript());
    Some((r, dir))
}

/// The REPL tests' commands: wait for the game, then the tree, the Player's properties, a
/// monitors sample and the position set the game quits on.
const REPL_COMMANDS: &str = "wait ready
tree
inspect /root/Player
monitors
set /root/Player position Vector2(10, 20)
";

/// The text REPL's tree (the root, of class `root_class`, and the Player, each `path class
/// id`) and the Player's properties in Godot's text form, before the set: the Player's id and
/// the index of its `object` line.
fn tree_and_player<'a>(lines: &[&'a str], root_class: &str, out: &str) -> (&'a str, usize) {
    let id = player_id(lines, out);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("/root {root_class} "))),
        "{out}"
    );
    let object = line_index(lines, &format!("object {id} Node2D"), out);
    assert!(
        lines[object..].contains(&"  position = Vector2(3, 4)"),
        "{out}"
    );
    (id, object)
}

/// `--repl`: the commands piped on stdin run in order against the running game, each after
/// the previous one's answer.
#[test]
fn godot4_repl_tree_inspect_monitors_set() {
    let stdin = REPL_COMMANDS.replace("monitors\n", "monitors\nbogus\n");
    let Some((r, dir)) = repl(
        Engine::Godot4,
        "cli::debug_run::godot4_repl",
        &[],
        stdin.as_bytes(),
    ) else {
        return;
    };
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let (id, object) = tree_and_player(&lines, "Window", &out);
    assert!(
        lines[object..].contains(&"  Node/path = NodePath(\"/root/Player\")"),
        "{out}"
    );
    // A monitors sample: the node count is the root and the Player.
    let nodes = line_index(&lines, "OBJECT_NODE_COUNT 2", &out);
    let set = line_index(
        &lines,
        &format!("set {id} position = Vector2(10, 20)"),
        &out,
    );
    let seen = line_index(&lines, "position set (10.0, 20.0)", &out);
    assert!(object < nodes && nodes < set && set < seen, "{out}");
    assert!(
        r.stderr.contains("debugger: unknown command \"bogus\""),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot3_repl_tree_inspect_monitors_set() {
    let Some((r, dir)) = repl(
        Engine::Godot3,
        "cli::debug_run::godot3_repl",
        &[],
        REPL_COMMANDS.as_bytes(),
    ) else {
        return;
    };
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let (id, object) = tree_and_player(&lines, "Viewport", &out);
    // Godot 3.2's monitors: dynamic memory too; the root and the Player.
    assert!(
        lines.iter().any(|l| l.starts_with("MEMORY_DYNAMIC ")),
        "{out}"
    );
    assert!(lines.contains(&"OBJECT_NODE_COUNT 2"), "{out}");
    let set = line_index(
        &lines,
        &format!("set {id} position = Vector2(10, 20)"),
        &out,
    );
    // Godot 3.2 prints a Vector2 without decimals.
    let seen = line_index(&lines, "position set (10, 20)", &out);
    assert!(object < set && set < seen, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--repl --json`: each answer is one JSON object, among the game's events.
#[test]
fn godot4_repl_json() {
    let Some((r, dir)) = repl(
        Engine::Godot4,
        "cli::debug_run::godot4_repl_json",
        &["--json"],
        REPL_COMMANDS.as_bytes(),
    ) else {
        return;
    };
    let events = json_events(&r);
    let find = |name: &str| {
        events
            .iter()
            .find(|e| e["event"] == name)
            .unwrap_or_else(|| panic!("no {name}: {events:?}"))
    };
    let tree = find("tree");
    let nodes = tree["nodes"].as_array().unwrap();
    let player = nodes
        .iter()
        .find(|n| n["path"] == "/root/Player")
        .unwrap_or_else(|| panic!("{tree}"));
    assert_eq!(player["class"], "Node2D");
    let id = player["id"].as_u64().unwrap();
    let object = find("object");
    assert_eq!(
        (object["id"].as_u64(), &object["class"]),
        (Some(id), &"Node2D".into())
    );
    // The JSON mapping of a Vector2 (cli/README.md's table: `{"$type", "value"}`).
    assert_eq!(
        object["properties"]["position"],
        serde_json::json!({"$type": "Vector2", "value": [3.0, 4.0]})
    );
    assert_eq!(find("monitors")["values"]["OBJECT_NODE_COUNT"], 2.0);
    let set = find("set");
    assert_eq!(
        (set["id"].as_u64(), &set["property"]),
        (Some(id), &"position".into())
    );
    assert_eq!(find("exit")["status"], 7);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--proxy`: the "editor" is this crate's own `Debugger` listening on another port (standing
/// in for the Godot editor, which cannot run here). It sees the game's output and break and
/// continues it; `debug run` leaves the break to it, still reports the break with its stack
/// (its own `get_stack_dump`, answered to it and not to the editor) and exits with the game.
fn behind_the_proxy(engine: Engine, code: i32, error_line: &str) {
    use godot_serde_debugger::Event;
    let Some(godot) = engine.find_or_skip("cli::debug_run::proxy") else {
        return;
    };
    let dir = project(
        engine,
        if engine == Engine::Godot4 {
            GAME4
        } else {
            GAME3
        },
    );
    let (addr, editor) = editor();
    let r = debug_run(engine, &godot, &dir, &["--proxy", &addr], &["3"], b"");
    let seen = editor.join().unwrap();
    assert_eq!(r.code, Some(code), "{}", r.transcript());
    // Our side: the output, and the break with the stack it asked for.
    assert!(r.out().contains("hello 42\n"), "{}", r.transcript());
    assert!(r.out().contains("after the error\n"), "{}", r.transcript());
    assert!(r.stderr.contains(error_line), "{}", r.stderr);
    assert!(!r.stderr.contains("editor"), "{}", r.stderr);
    // The editor's side: the same output and the break (which it continued), none of our
    // answers, then the game's end.
    let printed = |text: &str| {
        seen.iter()
            .any(|e| matches!(e, Event::Output(l) if l.iter().any(|l| l.text.contains(text))))
    };
    assert!(
        printed("hello 42") && printed("after the error"),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|e| matches!(e, Event::DebugEnter(_))),
        "{seen:?}"
    );
    assert!(
        !seen.iter().any(|e| matches!(e, Event::StackDump(_))),
        "the editor got our stack dump: {seen:?}"
    );
    assert!(
        matches!(seen.last(), Some(Event::Disconnected { .. })),
        "{seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_proxy_to_an_editor() {
    behind_the_proxy(
        Engine::Godot4,
        3,
        "SCRIPT ERROR: Invalid access to property or key 'missing_key' on a base object of type 'Dictionary'.\n   [0] boom (res://main.gd:5)\n",
    );
}

#[test]
fn godot3_proxy_to_an_editor() {
    behind_the_proxy(
        Engine::Godot3,
        3,
        "SCRIPT ERROR: Invalid get index 'missing_key' (on base: 'Dictionary').\n   [0] boom (res://main.gd:5)\n",
    );
}

/// `debug proxy`: the game is started by someone else (here the test, after the proxy) and
/// connects to `--listen`; the editor (a `Debugger` again) continues its break.
#[test]
fn godot4_debug_proxy_for_a_game_started_elsewhere() {
    use godot_serde_debugger::Event;
    use std::process::{Command, Stdio};
    let Some(godot) = Engine::Godot4.find_or_skip("cli::debug_run::debug_proxy") else {
        return;
    };
    let dir = project(Engine::Godot4, GAME4);
    let (addr, editor) = editor();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let proxy = Command::new(env!("CARGO_BIN_EXE_godot-serde"))
        .args(["debug", "proxy", "--listen", &port, "--editor", &addr])
        .args(["--timeout", "60"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The engine retries its connection for a few seconds, so it may start at once.
    let game = Command::new(&godot)
        .arg("--remote-debug")
        .arg(format!("tcp://127.0.0.1:{port}"))
        .args(["--headless", "--path", dir.to_str().unwrap()])
        .args(["-s", "res://main.gd", "--", "3"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let out = proxy.wait_with_output().unwrap();
    let seen = editor.join().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(game.code(), Some(3));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("hello 42\n") && stdout.contains("after the error\n"),
        "{stdout}"
    );
    assert!(stderr.contains("SCRIPT ERROR: "), "{stderr}");
    assert!(
        seen.iter().any(|e| matches!(e, Event::DebugEnter(_))),
        "{seen:?}"
    );
    assert!(
        !seen.iter().any(|e| matches!(e, Event::StackDump(_))),
        "{seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
