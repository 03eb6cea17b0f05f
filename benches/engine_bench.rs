//! What the benches that time a headless engine against our code share (`resource`, `pck`,
//! `containers`: `mod engine_bench;`): the best of N timed rounds, and the run of a GDScript
//! benchmark in a throw-away project of Godot 3 or Godot 4.
#![allow(dead_code)] // each bench uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// The fastest of `rounds` runs of `f`, in seconds.
pub fn best(rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The project `dir/p3` (Godot 3, file logging off) or `dir/p4` (Godot 4), with its
/// `project.godot` and `script` as `res://bench.gd`.
fn project(dir: &Path, godot3: bool, script: &str) -> Option<PathBuf> {
    let project = dir.join(if godot3 { "p3" } else { "p4" });
    std::fs::create_dir_all(&project).ok()?;
    let proj = if godot3 {
        "config_version=4\n[logging]\nfile_logging/enable_file_logging=false\nfile_logging/enable_file_logging.pc=false\n"
    } else {
        "config_version=5\n[application]\nconfig/name=\"bench\"\n"
    };
    std::fs::write(project.join("project.godot"), proj).ok()?;
    std::fs::write(project.join("bench.gd"), script).ok()?;
    Some(project)
}

/// Runs `script` (a `SceneTree` script) as `res://bench.gd` in a project of `cmd` (Godot 3
/// when `godot3`) headless, with `files` (name, bytes) beside it, in an English locale and
/// with `HOME` the project, killed after 600 s; `None` when the engine could not be started.
pub fn run_engine(
    cmd: &Path,
    dir: &Path,
    godot3: bool,
    files: &[(&str, &[u8])],
    script: &str,
) -> Option<Output> {
    let project = project(dir, godot3, script)?;
    for (name, bytes) in files {
        std::fs::write(project.join(name), bytes).ok()?;
    }
    Command::new("timeout")
        .arg("600")
        .arg(cmd)
        .arg(if godot3 { "--no-window" } else { "--headless" })
        .arg("--path")
        .arg(&project)
        .arg("-s")
        .arg("res://bench.gd")
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .env("HOME", &project)
        .output()
        .ok()
}

/// The seconds of the engine's `TIME <µs>` line.
pub fn time_line(stdout: &str) -> Option<f64> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("TIME "))
        .and_then(|t| t.trim().parse::<f64>().ok())
        .map(|us| us / 1e6)
}
