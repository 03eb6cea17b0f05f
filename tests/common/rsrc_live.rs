//! What the live binary-resource tests share (`resource_binary_live`, `resource_convert_live`):
//! the engine scripts `tests/godot{3,4}/rsrc_save.gd` (both extend
//! `tests/godot3_4/rsrc_common.gd`), the names of the files they save and the checks of the
//! lines they print.

use crate::common::engine::{Godot3Project, Godot4Project};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The files `rsrc_save.gd -- save` writes in both engines (Godot 4 also `scene_ids`).
pub const NAMES: [&str; 7] = [
    "custom",
    "gradient",
    "curve",
    "stylebox",
    "animation",
    "types",
    "scene",
];

/// The extension of the binary file `name`: a scene or a resource.
pub fn ext(name: &str) -> &'static str {
    if name.starts_with("scene") {
        "scn"
    } else {
        "res"
    }
}

/// The engine's scripts: `rsrc_save.gd`, its `rsrc_item.gd` and their shared base.
fn scripts(engine: u8) -> [PathBuf; 3] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join(format!("tests/godot{engine}/rsrc_save.gd")),
        root.join(format!("tests/godot{engine}/rsrc_item.gd")),
        root.join("tests/godot3_4/rsrc_common.gd"),
    ]
}

/// A Godot 4 project holding the scripts.
pub fn project4(test: &str) -> Godot4Project {
    let scripts = scripts(4);
    let refs: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    Godot4Project::new(test, &refs)
}

/// A Godot 3 project holding the scripts.
pub fn project3(test: &str) -> Godot3Project {
    Godot3Project::new(test, &scripts(3))
}

/// The stdout of `rsrc_save.gd -- args` in the Godot 4 `project` (2 minutes at most).
pub fn run4(project: &Godot4Project, engine: &Path, args: &[&str]) -> String {
    let out = project.run(engine, "rsrc_save.gd", args, Duration::from_secs(120));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The stdout of `rsrc_save.gd -- args` in the Godot 3 `project` (2 minutes at most).
pub fn run3(project: &Godot3Project, engine: &Path, args: &[&str]) -> String {
    let out = project
        .spawn(engine, "rsrc_save.gd", args, Duration::from_secs(120))
        .join()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts that `stdout` holds `{what} {name} 0 0` for every name: `SAVED` (both saves, plain
/// and compressed, returned OK) or `TEXT` (both conversions did).
pub fn all_ok<S: AsRef<str>>(stdout: &str, what: &str, names: &[S]) {
    for name in names {
        let name = name.as_ref();
        assert!(
            stdout.contains(&format!("{what} {name} 0 0")),
            "{name}:\n{stdout}"
        );
    }
}

/// Prints `stdout` and asserts that it holds `CASE {case} PASS` for every case.
pub fn engine_checks(stdout: &str, cases: &[String]) {
    println!("{stdout}");
    for case in cases {
        assert!(
            stdout.contains(&format!("CASE {case} PASS")),
            "{case}:\n{stdout}"
        );
    }
}
