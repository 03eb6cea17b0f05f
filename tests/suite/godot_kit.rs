//! The Rust side of the Godot 4 kit (`examples/godot_kit.rs`) on the engine sample
//! `tests/fixtures/godot4/vectors-sample.jsonl` (what `make_vectors.gd` writes), and the whole
//! kit (`examples/godot/`) on a live Godot 4 engine (`$GODOT4`), step by step as its README
//! tells a user: `kit_runs_on_godot4_as_its_readme_says` (skips loudly without the engine).

#[allow(dead_code, clippy::module_inception)]
#[path = "../../examples/godot_kit.rs"]
mod godot_kit;

const SAMPLE: &str = include_str!("../fixtures/godot4/vectors-sample.jsonl");

/// The sample nests 1024 Arrays (Godot's limit): decode on a thread with room for that.
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn check_passes_on_every_engine_vector() {
    big_stack(check_all);
}

fn check_all() {
    let records = godot_kit::read_vectors(SAMPLE).unwrap();
    // 100 records, 2 of them framing (`kind`).
    assert_eq!(records.len(), 98);
    let failed: Vec<String> = records
        .iter()
        .filter_map(|r| {
            godot_kit::check(r)
                .err()
                .map(|e| format!("{}: {e}", r.name))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn check_reports_a_wrong_byte() {
    let mut rec = godot_kit::read_vectors(SAMPLE).unwrap()[1].clone();
    assert_eq!(rec.name, "int_0");
    rec.bytes.push(0);
    let err = godot_kit::check(&rec).unwrap_err();
    assert!(
        err.starts_with("decoding failed: 1 trailing bytes"),
        "{err}"
    );
    let mut rec = godot_kit::read_vectors(SAMPLE).unwrap()[2].clone();
    // int 42 written with the 64-bit flag: decodes, but the crate writes 32 bits as Godot.
    rec.bytes = vec![2, 0, 1, 0, 42, 0, 0, 0, 0, 0, 0, 0];
    let err = godot_kit::check(&rec).unwrap_err();
    assert!(err.starts_with("bytes differ from byte 2"), "{err}");
}

#[test]
fn write_gives_verify_gd_its_input() {
    big_stack(write_all);
}

fn write_all() {
    let records = godot_kit::read_vectors(SAMPLE).unwrap();
    let dir = std::env::temp_dir().join(format!("godot_serde_kit_{}", std::process::id()));
    let (written, failed) = godot_kit::write_cases(&records, &dir).unwrap();
    assert_eq!((written, failed.len()), (98, 0), "{failed:?}");
    // int_42: header 2, payload 42 (the record's own hex), and its expression.
    assert_eq!(
        std::fs::read(dir.join("int_42.bin")).unwrap(),
        [2, 0, 0, 0, 42, 0, 0, 0]
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("int_42.expr")).unwrap(),
        "42"
    );
    // An object sent as an id (`18000100 b3040007 05000080`: header 0x18 with bit 16, then
    // the 64-bit id 0x80000005_070004b3 in little-endian words): expected back as that id, not
    // as the record's `rc`.
    assert_eq!(
        std::fs::read_to_string(dir.join("object_refcounted.expr")).unwrap(),
        "objid(i64('80000005070004b3'))"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_skip_errors_and_framing() {
    let text = concat!(
        r#"{"name":"a","expr":"1","hex":"0200000001000000"}"#,
        "\n",
        r#"{"name":"b","expr":"TYPE_INT","error":"execute error"}"#,
        "\n",
        r#"{"name":"c","kind":"framing","expr":"x","hex":"00"}"#,
        "\n",
        r#"{"name":"d","expr":"NodePath('a')","hex":"ff","hex_canonical":"00"}"#,
        "\n"
    );
    let records = godot_kit::read_vectors(text).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].bytes, [0]);
    let err = godot_kit::read_vectors(r#"{"name":"x"}"#).unwrap_err();
    assert_eq!(err, "line 1: no \"hex\"");
}

// ------------------------------------------------------------------------------------------
// The kit on a live Godot 4 engine, step by step as examples/godot/README.md tells a user.

use crate::common;

use common::engine::{Godot4Project, godot4_or_skip, godot4_version};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The features this test was built with, so that the examples build against the library
/// already built for it.
fn features() -> Vec<&'static str> {
    [
        ("double-precision", cfg!(feature = "double-precision")),
        ("tokio", cfg!(feature = "tokio")),
        ("glam", cfg!(feature = "glam")),
        ("mint", cfg!(feature = "mint")),
        ("base64", cfg!(feature = "base64")),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(name, _)| *name)
    .collect()
}

/// `cargo build --example NAME` (what `cargo run --example NAME` runs first); the binary.
fn example(name: &str) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(ROOT)
        .args(["build", "--quiet", "--example", name]);
    let features = features().join(",");
    if !features.is_empty() {
        cmd.args(["--features", &features]);
    }
    let status = cmd.status().expect("run cargo");
    assert!(status.success(), "cargo build --example {name}: {status}");
    // Examples land beside the test binaries' `deps` directory: target/<profile>/examples.
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let bin = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.is_file(), "no {}", bin.display());
    bin
}

/// A copy of `examples/godot` (scripts and its own `project.godot`): the engine writes a
/// `.godot/` folder into the project it runs, which must not land in the source tree.
fn kit_project() -> Godot4Project {
    let project = Godot4Project::new("kit", &[]);
    for entry in std::fs::read_dir(Path::new(ROOT).join("examples/godot")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, project.dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    project
}

/// Runs a kit script; (exit code, stdout).
fn godot(project: &Godot4Project, engine: &Path, script: &str, args: &[&str]) -> (i32, String) {
    let out = project.run(engine, script, args, Duration::from_secs(120));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        eprintln!("{script} stderr:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    (code, stdout)
}

/// Runs an example binary to completion; (exit code, stdout).
fn run_example(bin: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(bin)
        .args(args)
        .output()
        .expect("run the example");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `SUMMARY <passed> passed, <failed> failed` of a kit run.
fn summary(stdout: &str) -> (usize, usize) {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SUMMARY "))
        .unwrap_or_else(|| panic!("no SUMMARY:\n{stdout}"));
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    (n[0], n[1])
}

/// A server example started with `--port 0`; killed on drop.
struct Server(Child, u16);

impl Server {
    fn start(bin: &Path) -> Self {
        let mut child = Command::new(bin)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server");
        // "listening on 127.0.0.1:PORT for Godot ... clients"
        let mut line = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        let port = line
            .split_whitespace()
            .find_map(|w| w.rsplit_once(':').and_then(|(_, p)| p.parse().ok()))
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        // Keep draining its stdout so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Server(child, port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The four parts of `examples/godot/README.md` against a live Godot 4: the engine's vectors
/// checked by `godot_kit check`, the crate's bytes decoded by `verify.gd` (with and without
/// `--allow-objects`), `client.gd` against `tcp_server` (and `async_server` with the `tokio`
/// feature), and `text_check.gd` on texts the crate wrote, compared with the crate's parser
/// and writer. Skips loudly without the engine.
#[test]
fn kit_runs_on_godot4_as_its_readme_says() {
    let Some(engine) = godot4_or_skip("kit_runs_on_godot4_as_its_readme_says") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let project = kit_project();
    let work = project.dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let kit = example("godot_kit");

    // 1. Vectors from the engine, checked by the crate.
    let vectors = work.join("vectors.jsonl");
    let (code, out) = godot(
        &project,
        &engine,
        "make_vectors.gd",
        &[vectors.to_str().unwrap()],
    );
    assert_eq!(code, 0, "make_vectors.gd:\n{out}");
    let records = godot_kit::read_vectors(&std::fs::read_to_string(&vectors).unwrap()).unwrap();
    let (code, out) = run_example(&kit, &["check", vectors.to_str().unwrap()]);
    assert_eq!(code, 0, "godot_kit check:\n{out}");
    let (checked, failed) = summary(&out);
    assert_eq!((checked, failed), (records.len(), 0), "{out}");
    assert!(checked >= 60, "{checked}");

    // 2. The crate's bytes, decoded by the engine.
    let cases = work.join("cases");
    let (code, out) = run_example(
        &kit,
        &["write", vectors.to_str().unwrap(), cases.to_str().unwrap()],
    );
    assert_eq!(code, 0, "godot_kit write:\n{out}");
    let mut verified = 0;
    for extra in [None, Some("--allow-objects")] {
        let mut args = vec![cases.to_str().unwrap()];
        args.extend(extra);
        let (code, out) = godot(&project, &engine, "verify.gd", &args);
        let failures: Vec<&str> = out.lines().filter(|l| l.contains(" FAIL ")).collect();
        assert_eq!(code, 0, "verify.gd {extra:?}: {failures:#?}");
        let (passed, failed) = summary(&out);
        assert_eq!((passed, failed), (records.len(), 0), "{out}");
        verified += passed;
    }

    // 3. client.gd against the TCP servers.
    let mut servers = vec![example("tcp_server")];
    if cfg!(feature = "tokio") {
        servers.push(example("async_server"));
    }
    for bin in &servers {
        let server = Server::start(bin);
        let port = server.1.to_string();
        let (code, out) = godot(&project, &engine, "client.gd", &["127.0.0.1", &port]);
        assert_eq!(code, 0, "client.gd against {}:\n{out}", bin.display());
        assert!(out.lines().any(|l| l == "CLIENT OK"), "{out}");
    }

    // 4. Texts the crate wrote, through the engine's parser and writer.
    let texts = text_cases();
    let hex: String = texts
        .iter()
        .map(|t| t.bytes().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let texts_file = work.join("texts.hex");
    std::fs::write(&texts_file, hex).unwrap();
    let (code, out) = godot(
        &project,
        &engine,
        "text_check.gd",
        &[texts_file.to_str().unwrap()],
    );
    assert_eq!(code, 0, "text_check.gd:\n{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("CASE ")).collect();
    assert_eq!(lines.len(), texts.len(), "{out}");
    for (text, line) in texts.iter().zip(&lines) {
        let p: Vec<&str> = line.split(' ').collect();
        assert_eq!(p[2], "OK", "{text:?}: {line}");
        let v = godot_serde::text::parse_variant(text).unwrap();
        let engine_text = String::from_utf8(unhex(p[3])).unwrap();
        assert_eq!(
            godot_serde::text::variant_to_string(&v),
            engine_text,
            "{text:?}"
        );
        assert_eq!(
            godot_serde::to_bytes(&v).unwrap(),
            unhex(p[4]),
            "{text:?}: var_to_bytes"
        );
    }
    println!(
        "kit on Godot 4: {checked} engine vectors checked by godot_kit, {verified} crate \
         encodings verified by the engine (with and without --allow-objects), client.gd OK \
         against {} server(s), {} crate texts read and rewritten identically",
        servers.len(),
        texts.len()
    );
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// What a user would write with `godot_serde::text::to_string` (the README's example input).
fn text_cases() -> Vec<String> {
    use godot_serde::{Color, PackedInt32Array, Vector2, Vector3};
    #[derive(serde::Serialize)]
    struct Player {
        name: String,
        level: i32,
        position: Vector2,
        color: Color,
        slots: Vec<Vector3>,
        scores: PackedInt32Array,
        guild: Option<String>,
    }
    let player = Player {
        name: "Ada \"the\" \\ first\n".into(),
        level: 7,
        position: Vector2::new(1.5, -2.0),
        color: Color::new(1.0, 0.5, 0.0, 1.0),
        slots: vec![Vector3::new(1.0, 2.0, 3.0)],
        scores: PackedInt32Array(vec![10, -20]),
        guild: None,
    };
    vec![
        godot_serde::text::to_string(&player).unwrap(),
        godot_serde::text::to_string(&(1u8, 2.5f64, "x")).unwrap(),
        godot_serde::text::to_string(&vec![0.1f32, 1e10, 3e38]).unwrap(),
        godot_serde::text::to_string(&std::collections::BTreeMap::from([(3, "c"), (1, "a")]))
            .unwrap(),
    ]
}
