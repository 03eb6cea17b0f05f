//! The one lookup of the Godot 3 engine for the live tests (`godot3_live`, `godot3_tcp`), and
//! their one loud skip.
//!
//! The engine is `$GODOT3` when set (a path, or a command name looked up on `PATH`), else
//! `godot3-server` on `PATH`: the same rule as `scripts/godot3-env.sh`, which runs it.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The default engine command (`bash scripts/install-godot3.sh` installs it).
pub const DEFAULT_ENGINE: &str = "godot3-server";

/// Resolves the engine from the values of `$GODOT3` and `$PATH` (pure, for tests).
pub fn find_engine(godot3: Option<&OsStr>, path: Option<&OsStr>) -> Option<PathBuf> {
    let name = godot3
        .filter(|v| !v.is_empty())
        .unwrap_or(OsStr::new(DEFAULT_ENGINE));
    let name = Path::new(name);
    if name.components().count() > 1 {
        return name.is_file().then(|| name.to_path_buf());
    }
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The engine of this environment.
pub fn godot3() -> Option<PathBuf> {
    find_engine(
        std::env::var_os("GODOT3").as_deref(),
        std::env::var_os("PATH").as_deref(),
    )
}

/// The engine, or `None` after a banner that the test runner shows (written to the process's
/// real stdout, which the harness does not capture). Panics when
/// `GODOT_SERDE_REQUIRE_ENGINE=1` (CI) and the engine is missing.
pub fn godot3_or_skip(test: &str) -> Option<PathBuf> {
    if let Some(engine) = godot3() {
        return Some(engine);
    }
    let required = std::env::var("GODOT_SERDE_REQUIRE_ENGINE").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{test}: the Godot 3 engine ($GODOT3 or {DEFAULT_ENGINE} on PATH) is missing but \
         GODOT_SERDE_REQUIRE_ENGINE=1 (run `bash scripts/install-godot3.sh`)"
    );
    let bar = "=".repeat(78);
    let _ = writeln!(
        std::io::stdout().lock(),
        "\n{bar}\nSKIPPED {test}: no Godot 3 engine ($GODOT3, or {DEFAULT_ENGINE} on PATH), \
         so it did not run against the engine.\nInstall it with `bash scripts/install-godot3.sh`; \
         set GODOT_SERDE_REQUIRE_ENGINE=1 to make this a failure.\n{bar}\n"
    );
    None
}
