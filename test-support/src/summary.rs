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

use crate::engine::Engine;
use std::collections::BTreeSet;
use std::sync::{Mutex, Once, PoisonError};

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

/// The summary line of what was recorded so far; `None` when nothing was.
pub fn line() -> Option<String> {
    let guard = RECORD.lock().unwrap_or_else(PoisonError::into_inner);
    let r = guard.as_ref()?;
    let name = |version: &Option<String>, major: &str| match version {
        Some(v) => format!("Godot {v}"),
        None => format!("Godot {major}"),
    };
    let tests = |n: usize| if n == 1 { "test" } else { "tests" };
    Some(format!(
        "engines: {} {} ran against {}, {} against {}, {} skipped (set GODOT4 / GODOT3 to run them)",
        r.godot4.len(),
        tests(r.godot4.len()),
        name(&r.godot4_version, "4"),
        r.godot3.len(),
        name(&r.godot3_version, "3"),
        r.skipped.len(),
    ))
}

extern "C" fn print_at_exit() {
    // Nothing may unwind out of an `extern "C"` function; a failed write is not worth one.
    let _ = std::panic::catch_unwind(|| {
        if let Some(line) = line() {
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        }
    });
}

fn register() {
    // SAFETY: `atexit` stores a plain function pointer; `print_at_exit` takes no arguments,
    // touches only this module's statics and the process's stdout, and never unwinds.
    #[allow(unsafe_code)]
    let _ = unsafe { libc::atexit(print_at_exit) };
}

#[cfg(test)]
mod tests {
    use super::*;

    // The only test of this binary that records, so the counts are its own.
    #[test]
    fn one_line_counts_each_test_once_per_engine() {
        assert_eq!(line(), None, "nothing recorded, no line");
        record(Engine::Godot4, "a", true);
        record(Engine::Godot4, "a", true);
        record(Engine::Godot4, "b", true);
        record(Engine::Godot3, "a", true);
        record(Engine::Godot3, "c", false);
        record_version(Engine::Godot4, "4.6.stable.official");
        record_version(Engine::Godot4, "ignored: the first version stays");
        assert_eq!(
            line().as_deref(),
            Some(
                "engines: 2 tests ran against Godot 4.6.stable.official, 1 against Godot 3, \
                 1 skipped (set GODOT4 / GODOT3 to run them)"
            )
        );
        // Made-up records: not for this binary's own line at exit.
        *RECORD.lock().unwrap_or_else(PoisonError::into_inner) = None;
        assert_eq!(line(), None);
    }
}
