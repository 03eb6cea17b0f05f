//! A throw-away Godot 3.2.3 project (file logging off, as `scripts/godot3-env.sh` makes it)
//! holding copies of the test's scripts, and a runner that starts `godot3-server` on one of
//! them in a thread, killed after a timeout.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The project directory (`res://`), removed on drop.
pub struct Godot3Project {
    /// The directory.
    pub dir: PathBuf,
}

impl Drop for Godot3Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Godot3Project {
    /// A project for `test` holding copies of `scripts` under their file names.
    pub fn new(test: &str, scripts: &[PathBuf]) -> Self {
        let dir =
            std::env::temp_dir().join(format!("godot_serde_g3_{test}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("project.godot"),
            "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\n\
             file_logging/enable_file_logging.pc=false\n",
        )
        .unwrap();
        for script in scripts {
            std::fs::copy(script, dir.join(script.file_name().unwrap())).unwrap();
        }
        Self { dir }
    }

    /// Starts `res://{script}` with `args` after `--`; the thread returns its output.
    pub fn spawn(
        &self,
        engine: &Path,
        script: &str,
        args: &[String],
        timeout: Duration,
    ) -> JoinHandle<Output> {
        let mut child = Command::new(engine)
            .arg("--no-window")
            .arg("--path")
            .arg(&self.dir)
            .arg("-s")
            .arg(format!("res://{script}"))
            .arg("--")
            .args(args)
            .env("LANG", "en_US.UTF-8")
            .env("LC_ALL", "en_US.UTF-8")
            .env("HOME", &self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", engine.display()));
        std::thread::spawn(move || {
            let mut out_pipe = child.stdout.take().unwrap();
            let mut err_pipe = child.stderr.take().unwrap();
            let out = std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = std::io::Read::read_to_end(&mut out_pipe, &mut buf);
                buf
            });
            let err = std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = std::io::Read::read_to_end(&mut err_pipe, &mut buf);
                buf
            });
            let start = Instant::now();
            let status = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                if start.elapsed() > timeout {
                    let _ = child.kill();
                    break child.wait().unwrap();
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            Output {
                status,
                stdout: out.join().unwrap(),
                stderr: err.join().unwrap(),
            }
        })
    }
}

/// The `CASE name ok|FAIL detail` lines of an engine's output.
pub fn cases(out: &Output) -> Vec<(String, bool, String)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .map(|l| {
            let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
            (name.to_owned(), rest == "ok", rest.to_owned())
        })
        .collect()
}
