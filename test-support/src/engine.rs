//! The one lookup of the live engines for the engine tests, their one loud skip, and the one
//! way to run a GDScript in a headless Godot 4.
//!
//! - Godot 3: `$GODOT3` when set (a path, or a command name looked up on `PATH`), else
//!   `godot3-server` on `PATH`: the same rule as `scripts/godot3-env.sh`, which runs it.
//! - Godot 4: `$GODOT4` when set (a path, or a command name looked up on `PATH`), else `godot4`
//!   on `PATH`. `.ci/run` points it at `../shared/godot4/godot`; an editor build works the same.
//!
//! Without the engine a test prints a banner and passes, unless `GODOT_SERDE_REQUIRE_ENGINE=1`
//! (set by `.ci/run`), which makes it fail.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The default Godot 3 command (`bash scripts/install-godot3.sh` installs it).
pub const DEFAULT_ENGINE: &str = "godot3-server";

/// The default Godot 4 command looked up on `PATH` when `$GODOT4` is not set.
pub const DEFAULT_GODOT4: &str = "godot4";

/// Which engine a test needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Godot 3.2.3 (`$GODOT3`, else `godot3-server`).
    Godot3,
    /// Godot 4 (`$GODOT4`, else `godot4`).
    Godot4,
}

impl Engine {
    fn variable(self) -> &'static str {
        match self {
            Engine::Godot3 => "GODOT3",
            Engine::Godot4 => "GODOT4",
        }
    }

    fn default_command(self) -> &'static str {
        match self {
            Engine::Godot3 => DEFAULT_ENGINE,
            Engine::Godot4 => DEFAULT_GODOT4,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Engine::Godot3 => "Godot 3",
            Engine::Godot4 => "Godot 4",
        }
    }

    fn install_hint(self) -> &'static str {
        match self {
            Engine::Godot3 => "Install it with `bash scripts/install-godot3.sh`",
            Engine::Godot4 => {
                "Point GODOT4 at a Godot 4 binary (CI uses ../shared/godot4/godot; an editor \
                 build works)"
            }
        }
    }

    /// The engine of this environment, if any.
    pub fn find(self) -> Option<PathBuf> {
        find_command(
            std::env::var_os(self.variable()).as_deref(),
            self.default_command(),
            std::env::var_os("PATH").as_deref(),
        )
    }

    /// The engine, or `None` after a banner that the test runner shows (written to the
    /// process's real stdout, which the harness does not capture). Panics when
    /// `GODOT_SERDE_REQUIRE_ENGINE=1` (CI) and the engine is missing.
    /// Either way the test is recorded for the end-of-run line ([`crate::summary`]).
    pub fn find_or_skip(self, test: &str) -> Option<PathBuf> {
        if let Some(engine) = self.find() {
            crate::summary::record(self, test, true);
            if self == Engine::Godot3 {
                static VERSION: std::sync::Once = std::sync::Once::new();
                VERSION.call_once(|| {
                    if let Some(version) = godot3_version(&engine) {
                        crate::summary::record_version(self, &version);
                    }
                });
            }
            return Some(engine);
        }
        crate::summary::record(self, test, false);
        let (var, default, name) = (self.variable(), self.default_command(), self.name());
        let required = std::env::var("GODOT_SERDE_REQUIRE_ENGINE").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "{test}: the {name} engine (${var} or {default} on PATH) is missing but \
             GODOT_SERDE_REQUIRE_ENGINE=1. {}.",
            self.install_hint()
        );
        let bar = "=".repeat(78);
        let _ = writeln!(
            std::io::stdout().lock(),
            "\n{bar}\nSKIPPED {test}: no {name} engine (${var}, or {default} on PATH), so it \
             did not run against the engine.\n{}; set GODOT_SERDE_REQUIRE_ENGINE=1 to make this \
             a failure.\n{bar}\n",
            self.install_hint()
        );
        None
    }
}

/// Resolves an engine command from its variable's value, its default name and `$PATH` (pure,
/// for tests): a value with a directory part must be a file; a bare name is looked up on `PATH`.
pub fn find_command(var: Option<&OsStr>, default: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    let name = var.filter(|v| !v.is_empty()).unwrap_or(OsStr::new(default));
    let name = Path::new(name);
    if name.components().count() > 1 {
        return name.is_file().then(|| name.to_path_buf());
    }
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Resolves the Godot 3 engine from the values of `$GODOT3` and `$PATH` (pure, for tests).
pub fn find_engine(godot3: Option<&OsStr>, path: Option<&OsStr>) -> Option<PathBuf> {
    find_command(godot3, DEFAULT_ENGINE, path)
}

/// The Godot 3 engine of this environment.
pub fn godot3() -> Option<PathBuf> {
    Engine::Godot3.find()
}

/// The Godot 3 engine, or `None` after the loud skip (see [`Engine::find_or_skip`]).
pub fn godot3_or_skip(test: &str) -> Option<PathBuf> {
    Engine::Godot3.find_or_skip(test)
}

/// The Godot 4 engine of this environment.
pub fn godot4() -> Option<PathBuf> {
    Engine::Godot4.find()
}

/// The Godot 4 engine, or `None` after the loud skip (see [`Engine::find_or_skip`]).
pub fn godot4_or_skip(test: &str) -> Option<PathBuf> {
    Engine::Godot4.find_or_skip(test)
}

/// The shared GDScript of an engine's test scripts in this crate,
/// `test-support/gdscript/godot{3,4}/harness.gd`: every [`Godot4Project`] and [`Godot3Project`]
/// holds a copy as `res://harness.gd` (a script takes it with
/// `const H = preload("res://harness.gd")`); a Godot 3 script run from its place in the
/// repository preloads it by a path relative to itself (see the crate's README). Read when a
/// project is made, as the test scripts are, so an edit needs no rebuild.
pub fn harness_path(engine: Engine) -> PathBuf {
    let dir = match engine {
        Engine::Godot3 => "godot3",
        Engine::Godot4 => "godot4",
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("gdscript/{dir}/harness.gd"))
}

/// Copies the engine's harness into the project directory `dir` as `harness.gd`.
fn copy_harness(engine: Engine, dir: &Path) {
    let harness = harness_path(engine);
    std::fs::copy(&harness, dir.join("harness.gd"))
        .unwrap_or_else(|e| panic!("copy {}: {e}", harness.display()));
}

/// A throw-away Godot 4 project directory: a minimal `project.godot` (the engine needs one;
/// `res://` is this directory) and the shared `res://harness.gd`. Removed on drop.
pub struct Godot4Project {
    /// The project directory (`res://`).
    pub dir: PathBuf,
}

impl Godot4Project {
    /// A fresh project for `test`, holding copies of `scripts` (absolute paths), each under
    /// its file name, so a script `preload`s its siblings as `res://name.gd`, and the harness
    /// as `res://harness.gd`.
    pub fn new(test: &str, scripts: &[&Path]) -> Self {
        let dir = project_dir(
            &format!("g4_{test}"),
            "config_version=5\n\n[application]\n\nconfig/name=\"godot_serde_test\"\n\n\
             [debug]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n",
            scripts,
        );
        copy_harness(Engine::Godot4, &dir);
        Godot4Project { dir }
    }

    /// Runs `res://{script}` (a `SceneTree` script ending in `quit(code)`) headless with `args`
    /// after `--`, killed after `timeout`. The engine's output is returned whole.
    pub fn run(&self, engine: &Path, script: &str, args: &[&str], timeout: Duration) -> Output {
        let child = engine_command(engine, "--headless", &self.dir, script, args)
            .env("XDG_DATA_HOME", self.dir.join(".data"))
            .env("XDG_CONFIG_HOME", self.dir.join(".config"))
            .env("XDG_CACHE_HOME", self.dir.join(".cache"))
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", engine.display()));
        let (out, killed) = wait_with_timeout(child, timeout);
        assert!(
            !killed,
            "{script}: the engine ran past {timeout:?} and was killed ({})\nstdout:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        );
        out
    }
}

/// A throw-away Godot 3.2.3 project (file logging off, as `scripts/godot3-env.sh` makes it)
/// holding copies of a test's scripts and the shared `res://harness.gd`. Removed on drop.
pub struct Godot3Project {
    /// The project directory (`res://`).
    pub dir: PathBuf,
}

impl Godot3Project {
    /// A project for `test` holding copies of `scripts` under their file names.
    pub fn new<S: AsRef<Path>>(test: &str, scripts: &[S]) -> Self {
        let dir = project_dir(
            &format!("g3_{test}"),
            "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n",
            scripts,
        );
        copy_harness(Engine::Godot3, &dir);
        Godot3Project { dir }
    }

    /// Starts `res://{script}` with `args` after `--` in a thread that returns its output
    /// (the engine killed after `timeout`), so that a test can run peers beside it.
    pub fn spawn(
        &self,
        engine: &Path,
        script: &str,
        args: &[impl AsRef<OsStr>],
        timeout: Duration,
    ) -> std::thread::JoinHandle<Output> {
        let child = engine_command(engine, "--no-window", &self.dir, script, args)
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", engine.display()));
        std::thread::spawn(move || wait_with_timeout(child, timeout).0)
    }
}

impl Drop for Godot3Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh project directory `godot_serde_{name}_{pid}_{n}` in the temporary directory with
/// `project_godot` as its `project.godot` and copies of `scripts` under their file names.
pub fn project_dir<S: AsRef<Path>>(name: &str, project_godot: &str, scripts: &[S]) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("godot_serde_{name}_{}_{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the project directory");
    std::fs::write(dir.join("project.godot"), project_godot).expect("write project.godot");
    for script in scripts {
        let script = script.as_ref();
        let name = script.file_name().expect("a script file name");
        std::fs::copy(script, dir.join(name))
            .unwrap_or_else(|e| panic!("copy {}: {e}", script.display()));
    }
    dir
}

/// The command that runs `res://{script}` of the project in `dir` with `args` after `--`
/// (`display` is `--headless` for Godot 4, `--no-window` for Godot 3), in an English locale
/// with `HOME` in the project, its output piped.
pub fn engine_command(
    engine: &Path,
    display: &str,
    dir: &Path,
    script: &str,
    args: &[impl AsRef<OsStr>],
) -> Command {
    let mut command = Command::new(engine);
    command
        .arg(display)
        .arg("--path")
        .arg(dir)
        .arg("-s")
        .arg(format!("res://{script}"))
        .arg("--")
        .args(args)
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits for `child` (stdout and stderr piped), killing it after `timeout`: its whole output,
/// and whether it was killed. Both pipes drain from threads so a chatty engine never blocks on
/// a full pipe.
pub fn wait_with_timeout(mut child: Child, timeout: Duration) -> (Output, bool) {
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the engine") {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            killed = true;
            break child.wait().expect("wait for the killed engine");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, killed)
}

impl Drop for Godot4Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The engine's version line (`Engine.get_version_info().string`), printed by each live test.
pub fn godot4_version(engine: &Path) -> String {
    let project = Godot4Project::new("version", &[]);
    std::fs::write(
        project.dir.join("version.gd"),
        "extends SceneTree\nfunc _init():\n\tprint(\"VERSION \", \
         Engine.get_version_info().string)\n\tquit(0)\n",
    )
    .unwrap();
    let out = project.run(engine, "version.gd", &[], Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let version = stdout
        .lines()
        .find_map(|l| l.strip_prefix("VERSION "))
        .unwrap_or_else(|| panic!("no VERSION line from {}:\n{stdout}", engine.display()))
        .to_owned();
    crate::summary::record_version(Engine::Godot4, &version);
    version
}

/// Godot 3's `--version` line (`3.2.3.stable.official`), or `None` if it prints none in 30 s.
fn godot3_version(engine: &Path) -> Option<String> {
    let child = Command::new(engine)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let (out, killed) = wait_with_timeout(child, Duration::from_secs(30));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().next()?.trim();
    (!killed && !line.is_empty()).then(|| line.to_owned())
}
