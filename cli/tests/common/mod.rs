//! Running the built `godot-serde` binary.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    /// The exit code (`None` if killed by a signal, e.g. after a panic abort).
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// Stdout as text.
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Asserts the run failed (exit code 1) with `text` in its messages.
    #[track_caller]
    pub fn fails_with(&self, text: &str) {
        assert_eq!(self.code, Some(1), "{}", self.stderr);
        assert!(self.stderr.contains(text), "{}", self.stderr);
    }

    /// Asserts the run failed (exit code 1) with messages that start with `text`.
    #[track_caller]
    pub fn fails_starting_with(&self, text: &str) {
        assert_eq!(self.code, Some(1), "{}", self.stderr);
        assert!(self.stderr.starts_with(text), "{}", self.stderr);
    }

    /// Stdout and stderr together, with the exit code, for a snapshot.
    pub fn transcript(&self) -> String {
        format!(
            "exit code: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code,
            self.out(),
            self.stderr
        )
    }
}

/// The path of the built binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_godot-serde");

/// The workspace root (the library's directory), for its fixtures.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs the binary with `args`, feeding `stdin` through a pipe.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start godot-serde");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written from a thread: a large input would otherwise fill the pipe while the binary
    // fills its stdout.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for godot-serde");
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "godot-serde panicked on {args:?}:\n{stderr}"
    );
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr,
    }
}

/// Lower-case hex without spaces.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from hex.
pub fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// `insta::assert_snapshot!` for a named snapshot, stored where it was when each test file was
/// a binary of its own: `cli/tests/snapshots/<file>__<name>.snap`, `<file>` being the calling
/// module (`cli`, `untrusted`, ...).
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(
                format!("{}__{}", module_path!().rsplit("::").next().unwrap_or_default(), $name),
                $value
            );
        })
    };
}
