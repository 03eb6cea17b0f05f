//! The Godot 4 engine lookup and runner shared by the live Godot 4 tests
//! (`test-support/src/engine.rs`): the lookup rule, and one real run that prints the version.

use crate::common;

use common::engine::{Engine, Godot4Project, find_command, godot4_or_skip, godot4_version};
use std::ffi::OsStr;
use std::time::Duration;

/// `$GODOT4` (a path or a command on `PATH`) wins over `godot4` on `PATH`.
#[test]
fn godot4_lookup_is_variable_then_path() {
    let dir = std::env::temp_dir().join(format!("godot_serde_engine4_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("godot4");
    std::fs::write(&fake, "").unwrap();
    let other = dir.join("godot-editor");
    std::fs::write(&other, "").unwrap();
    let path = dir.as_os_str();
    assert_eq!(find_command(None, "godot4", Some(path)), Some(fake.clone()));
    assert_eq!(
        find_command(Some(OsStr::new("")), "godot4", Some(path)),
        Some(fake)
    );
    assert_eq!(
        find_command(Some(OsStr::new("godot-editor")), "godot4", Some(path)),
        Some(other.clone())
    );
    assert_eq!(
        find_command(Some(other.as_os_str()), "godot4", None),
        Some(other)
    );
    assert_eq!(
        find_command(Some(OsStr::new("missing")), "godot4", Some(path)),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine runs a script in a throw-away project: its version, and `var_to_bytes(1)` as the
/// spec writes it (`02000000 01000000`: type 2 = INT, then the 32-bit value).
#[test]
fn godot4_runs_a_script() {
    let Some(engine) = godot4_or_skip("godot4_runs_a_script") else {
        return;
    };
    let version = godot4_version(&engine);
    println!("Godot 4 engine: {version}");
    assert!(version.starts_with('4'), "not a Godot 4 engine: {version}");
    let project = Godot4Project::new("runs_a_script", &[]);
    std::fs::write(
        project.dir.join("one.gd"),
        "extends SceneTree\nfunc _init():\n\tprint(\"BYTES \", var_to_bytes(1).hex_encode())\n\
         \tquit(7)\n",
    )
    .unwrap();
    let out = project.run(&engine, "one.gd", &[], Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(7), "{stdout}");
    assert!(
        stdout.lines().any(|l| l == "BYTES 0200000001000000"),
        "{stdout}"
    );
    assert_eq!(Engine::Godot4.find(), Some(engine));
}
