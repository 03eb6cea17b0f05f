//! What ran against which engine: [`engine::Engine::find_or_skip`](crate::engine::Engine::find_or_skip)
//! records each test under the engine it ran against or as skipped, and the process prints one
//! line when it exits, after the test harness's own summary:
//!
//! ```text
//! engines: 57 tests ran against Godot 4.6.stable.official, 31 against Godot 3.2.3.stable.official, 0 skipped (set GODOT4 / GODOT3 to run them)
//! ```
//!
//! libtest has no end-of-run hook, so the line is printed by a C `atexit` handler, registered
//! with the first record: it runs when the test binary's `main` returns or calls
//! `process::exit` (failed tests), after everything libtest printed. A binary in which no
//! engine test ran (filtered out, or none compiled in) prints nothing.
//!
//! # The total of one `cargo test`
//!
//! `cargo test` runs the test binaries one after another, package by package in the order of
//! their names (each package's unit tests, then its integration tests by name), and then the
//! doc tests of every library, again by package name; the last process of the whole run is
//! `rustdoc --test` of the last library (`litebyte` in this workspace), which prints
//! `all doctests ran in …` after its tests, so no test process of ours can print last.
//! Hence two steps:
//!
//! 1. Each test binary that recorded something also writes its counts to a file of the run,
//!    `<target>/<profile>/engine-summary/<pid>-<start>/<own pid>`, where `<pid>-<start>` is the
//!    process id and start time (clock ticks since boot, `/proc/<pid>/stat` field 22) of the
//!    `cargo` process that runs it, its nearest ancestor named `cargo` in `/proc`. From the
//!    second such binary on, it prints the run's running total after its own line
//!    ([`TOTAL_PREFIX`]), and it keeps that line in the file `total` beside the counts.
//! 2. `.cargo/config.toml` makes `test-support/rustdoc-then-engines` the workspace's rustdoc:
//!    it runs rustdoc, and after each `rustdoc --test` (the doc tests of one library) prints
//!    the file `total` of the cargo process that started it, if there is one. After the last
//!    library's doc tests, that is the last line of the run.
//!
//! Directories of cargo processes that are gone are removed by the next run's first write, and
//! one run never reads another's: a process id is reused only with a different start time. A
//! run of one binary alone (`cargo test --test suite -- godot4_live::`) ends with that binary's
//! own line, which is then the total. Without `/proc` (macOS, Windows) or outside cargo, each
//! binary prints only its own line.

use crate::engine::Engine;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, PoisonError};

/// The start of the line that totals the engine tests of every test binary of one cargo run.
pub const TOTAL_PREFIX: &str = "engines, all test binaries of this cargo run:";

/// The directory, beside `deps/` in the profile's target directory, that holds one directory
/// of counts per cargo run.
pub const RUNS_DIR: &str = "engine-summary";

#[derive(Default)]
struct Record {
    godot3: BTreeSet<String>,
    godot4: BTreeSet<String>,
    skipped: BTreeSet<String>,
    godot3_version: Option<String>,
    godot4_version: Option<String>,
}

static RECORD: Mutex<Option<Record>> = Mutex::new(None);
static HOOK: Once = Once::new();

fn with<R>(f: impl FnOnce(&mut Record) -> R) -> R {
    HOOK.call_once(register);
    let mut guard = RECORD.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(Record::default))
}

/// Records that `test` ran against `engine` (`true`) or skipped for want of it (`false`). A test
/// counts once per engine however often it looks the engine up; a test that skipped for one
/// engine counts as skipped.
pub fn record(engine: Engine, test: &str, ran: bool) {
    with(|r| {
        let set = match (ran, engine) {
            (false, _) => &mut r.skipped,
            (true, Engine::Godot3) => &mut r.godot3,
            (true, Engine::Godot4) => &mut r.godot4,
        };
        set.insert(test.to_owned());
    });
}

/// Records the engine's version string, shown in the summary line.
pub fn record_version(engine: Engine, version: &str) {
    with(|r| {
        let slot = match engine {
            Engine::Godot3 => &mut r.godot3_version,
            Engine::Godot4 => &mut r.godot4_version,
        };
        slot.get_or_insert_with(|| version.to_owned());
    });
}

/// How many tests ran against each engine and how many skipped, with the engines' versions:
/// one binary's, or the sum over the binaries of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tests that ran against Godot 4.
    pub godot4: usize,
    /// Tests that ran against Godot 3.
    pub godot3: usize,
    /// Tests that skipped for want of an engine.
    pub skipped: usize,
    /// Godot 4's version string, if one was recorded.
    pub godot4_version: Option<String>,
    /// Godot 3's version string, if one was recorded.
    pub godot3_version: Option<String>,
}

impl Counts {
    /// The counts as a record file: one `key value` line each, versions only when known.
    pub fn to_file(&self) -> String {
        let mut text = format!(
            "godot4 {}\ngodot3 {}\nskipped {}\n",
            self.godot4, self.godot3, self.skipped
        );
        for (key, version) in [
            ("godot4_version", &self.godot4_version),
            ("godot3_version", &self.godot3_version),
        ] {
            if let Some(v) = version {
                text.push_str(&format!("{key} {v}\n"));
            }
        }
        text
    }

    /// Reads a record file written by [`Counts::to_file`]; `None` if any line is not one of its.
    pub fn from_file(text: &str) -> Option<Counts> {
        let mut counts = Counts::default();
        for line in text.lines() {
            let (key, value) = line.split_once(' ')?;
            match key {
                "godot4" => counts.godot4 = value.parse().ok()?,
                "godot3" => counts.godot3 = value.parse().ok()?,
                "skipped" => counts.skipped = value.parse().ok()?,
                "godot4_version" => counts.godot4_version = Some(value.to_owned()),
                "godot3_version" => counts.godot3_version = Some(value.to_owned()),
                _ => return None,
            }
        }
        Some(counts)
    }

    /// Adds `other`'s counts; a version already known stays.
    pub fn add(&mut self, other: &Counts) {
        self.godot4 += other.godot4;
        self.godot3 += other.godot3;
        self.skipped += other.skipped;
        for (mine, theirs) in [
            (&mut self.godot4_version, &other.godot4_version),
            (&mut self.godot3_version, &other.godot3_version),
        ] {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        }
    }

    /// The summary line, starting with `prefix` (`engines:` or [`TOTAL_PREFIX`]).
    pub fn line(&self, prefix: &str) -> String {
        let name = |version: &Option<String>, major: &str| match version {
            Some(v) => format!("Godot {v}"),
            None => format!("Godot {major}"),
        };
        let tests = if self.godot4 == 1 { "test" } else { "tests" };
        format!(
            "{prefix} {} {tests} ran against {}, {} against {}, {} skipped (set GODOT4 / GODOT3 \
             to run them)",
            self.godot4,
            name(&self.godot4_version, "4"),
            self.godot3,
            name(&self.godot3_version, "3"),
            self.skipped,
        )
    }
}

/// This binary's counts so far; `None` when nothing was recorded.
pub fn counts() -> Option<Counts> {
    let guard = RECORD.lock().unwrap_or_else(PoisonError::into_inner);
    let r = guard.as_ref()?;
    Some(Counts {
        godot4: r.godot4.len(),
        godot3: r.godot3.len(),
        skipped: r.skipped.len(),
        godot4_version: r.godot4_version.clone(),
        godot3_version: r.godot3_version.clone(),
    })
}

/// This binary's summary line so far; `None` when nothing was recorded.
pub fn line() -> Option<String> {
    counts().map(|c| c.line("engines:"))
}

/// The name (`comm`), parent process id and start time (clock ticks after boot) in the text of
/// a `/proc/<pid>/stat` file. The name is in parentheses and may hold spaces and parentheses,
/// so the fields after it are counted from the last `)`.
pub fn parse_stat(stat: &str) -> Option<(&str, u32, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?;
    let mut rest = stat.get(close + 1..)?.split_whitespace();
    // Fields 3 (state) and 4 (ppid), then 22 (starttime): the 20th after the name.
    let ppid = rest.nth(1)?.parse().ok()?;
    let start = rest.nth(17)?.parse().ok()?;
    Some((name, ppid, start))
}

fn stat_of(pid: u32) -> Option<(String, u32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (name, ppid, start) = parse_stat(&text)?;
    Some((name.to_owned(), ppid, start))
}

/// The nearest ancestor of this process named `cargo`, as `<pid>-<start time>`: the key of the
/// run's directory. `None` without `/proc` or when no ancestor within 32 levels is cargo.
pub fn cargo_run_key() -> Option<String> {
    let (_, mut pid, _) = stat_of(std::process::id())?;
    for _ in 0..32 {
        if pid <= 1 {
            return None;
        }
        let (name, ppid, start) = stat_of(pid)?;
        if name == "cargo" {
            return Some(format!("{pid}-{start}"));
        }
        pid = ppid;
    }
    None
}

/// Whether the cargo process of a run key (`<pid>-<start>`) is still running.
fn run_alive(key: &str) -> bool {
    let Some((pid, start)) = key.split_once('-') else {
        return false;
    };
    let (Ok(pid), Ok(start)) = (pid.parse::<u32>(), start.parse::<u64>()) else {
        return false;
    };
    stat_of(pid).is_some_and(|(_, _, s)| s == start)
}

/// Writes `mine` as the counts of process `pid` into the run directory `runs/key`, removes the
/// directories of runs whose cargo process is gone (when `prune`), and returns the run's total
/// and how many binaries it sums. The total is also kept in the run directory's `total` file,
/// which `rustdoc-then-engines` prints after the doc tests.
pub fn add_to_run(
    runs: &Path,
    key: &str,
    pid: u32,
    mine: &Counts,
    prune: bool,
) -> std::io::Result<(Counts, usize)> {
    let stale = if prune {
        std::fs::read_dir(runs).ok()
    } else {
        None
    };
    if let Some(entries) = stale {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name != key && !run_alive(&name) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = runs.join(key);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(pid.to_string()), mine.to_file())?;
    let mut total = Counts::default();
    let mut binaries = 0;
    for entry in std::fs::read_dir(&dir)?.flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().parse::<u32>().is_err() {
            continue; // `total` and its temporary file
        }
        if let Some(counts) = std::fs::read_to_string(entry.path())
            .ok()
            .and_then(|text| Counts::from_file(&text))
        {
            total.add(&counts);
            binaries += 1;
        }
    }
    let partial = dir.join(format!("total.{pid}"));
    std::fs::write(&partial, format!("{}\n", total.line(TOTAL_PREFIX)))?;
    std::fs::rename(&partial, dir.join("total"))?;
    Ok((total, binaries))
}

/// `<target>/<profile>/engine-summary` for a test binary in `<target>/<profile>/deps/`.
fn runs_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join(RUNS_DIR))
}

/// The lines this binary prints at exit: its own, then the run's total when other binaries of
/// the same cargo run recorded before it.
fn exit_lines() -> Vec<String> {
    let Some(mine) = counts() else {
        return Vec::new();
    };
    let mut lines = vec![mine.line("engines:")];
    let total = cargo_run_key()
        .zip(runs_dir())
        .and_then(|(key, runs)| add_to_run(&runs, &key, std::process::id(), &mine, true).ok());
    if let Some((total, _)) = total.filter(|(_, binaries)| *binaries > 1) {
        lines.push(total.line(TOTAL_PREFIX));
    }
    lines
}

extern "C" fn print_at_exit() {
    // Nothing may unwind out of an `extern "C"` function; a failed write is not worth one.
    let _ = std::panic::catch_unwind(|| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        for line in exit_lines() {
            let _ = writeln!(out, "{line}");
        }
    });
}

fn register() {
    // SAFETY: `atexit` stores a plain function pointer; `print_at_exit` takes no arguments,
    // touches only this module's statics, files of the target directory and the process's
    // stdout, and never unwinds.
    #[allow(unsafe_code)]
    let _ = unsafe { libc::atexit(print_at_exit) };
}

#[cfg(test)]
mod tests;
