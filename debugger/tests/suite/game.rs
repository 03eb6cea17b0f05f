//! Starting a headless Godot with `--remote-debug` pointed at a [`Debugger`] of the test.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

use godot_serde_debugger::{Connection, Debugger};
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
    let child = Command::new(engine)
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
