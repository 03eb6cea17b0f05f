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

#[test]
fn stat_fields_are_counted_from_the_last_parenthesis() {
    // proc(5)'s layout: pid, (comm), state, ppid, then fields 5..=21, starttime (22), more.
    // A name may hold spaces and parentheses; 5..=21 are written 5, 6, ... to show the count.
    let middle: Vec<String> = (5..=21).map(|n| n.to_string()).collect();
    let stat = format!("4321 (a (b) c) S 77 {} 987654 5 6\n", middle.join(" "));
    assert_eq!(parse_stat(&stat), Some(("a (b) c", 77, 987654)));
    assert_eq!(parse_stat("4321 (cargo) S 77 1 2"), None, "too few fields");
    assert_eq!(parse_stat("no parentheses"), None);
}

/// A directory of its own under the system's temporary directory, removed first.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("godot_serde_summary_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// This process's own run key (`<pid>-<start>`): a run that is alive.
fn own_key() -> String {
    let pid = std::process::id();
    let (_, _, start) = stat_of(pid).expect("/proc/self/stat");
    format!("{pid}-{start}")
}

fn counts(godot4: usize, godot3: usize, skipped: usize, v4: Option<&str>) -> Counts {
    Counts {
        godot4,
        godot3,
        skipped,
        godot4_version: v4.map(str::to_owned),
        godot3_version: None,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_run_totals_its_binaries_and_never_a_finished_runs() {
    let runs = scratch("runs");
    let key = own_key();
    // An earlier run whose cargo is gone: this pid with another start time, and a record of
    // 1000 Godot 4 tests that must not reach the total.
    let pid = std::process::id();
    let stale = format!("{pid}-{}", u64::MAX);
    std::fs::create_dir_all(runs.join(&stale)).unwrap();
    std::fs::write(
        runs.join(&stale).join("11"),
        counts(1000, 0, 0, None).to_file(),
    )
    .unwrap();
    std::fs::write(runs.join(&stale).join("total"), "stale\n").unwrap();

    // Three binaries of this run: 13 + 0 + 5 on Godot 4, 7 + 0 + 2 on Godot 3, 0 + 4 + 0
    // skipped; the version comes from the first binary that knew it.
    let (total, binaries) = add_to_run(&runs, &key, 101, &counts(13, 7, 0, None), true).unwrap();
    assert_eq!((total.clone(), binaries), (counts(13, 7, 0, None), 1));
    assert!(
        !runs.join(&stale).exists(),
        "a finished run's directory is removed"
    );
    add_to_run(&runs, &key, 102, &counts(0, 0, 4, None), true).unwrap();
    let (total, binaries) =
        add_to_run(&runs, &key, 103, &counts(5, 2, 0, Some("4.6.x")), true).unwrap();
    assert_eq!(binaries, 3);
    let expected = "engines, all test binaries of this cargo run: 18 tests ran against Godot \
                    4.6.x, 9 against Godot 3, 4 skipped (set GODOT4 / GODOT3 to run them)";
    assert_eq!(total.line(TOTAL_PREFIX), expected);
    assert_eq!(
        std::fs::read_to_string(runs.join(&key).join("total")).unwrap(),
        format!("{expected}\n"),
        "the file rustdoc-then-engines prints"
    );
    let _ = std::fs::remove_dir_all(&runs);
}

#[test]
fn counts_survive_their_file() {
    let c = Counts {
        godot4: 3,
        godot3: 1,
        skipped: 2,
        godot4_version: Some("4.6.stable.official (a b)".into()),
        godot3_version: Some("3.2.3.stable.custom_build".into()),
    };
    assert_eq!(Counts::from_file(&c.to_file()), Some(c));
    assert_eq!(Counts::from_file("godot4 x\n"), None);
    assert_eq!(Counts::from_file("other 1\n"), None);
}

/// Under `cargo test`, the run key names this test's cargo process.
#[cfg(target_os = "linux")]
#[test]
fn the_run_is_the_nearest_cargo() {
    if std::env::var_os("CARGO").is_none() {
        return; // run without cargo: no run to find
    }
    let key = cargo_run_key().expect("a cargo ancestor");
    let (pid, start) = key.split_once('-').unwrap();
    let (name, _, s) = stat_of(pid.parse().unwrap()).unwrap();
    assert_eq!((name.as_str(), s.to_string().as_str()), ("cargo", start));
}

/// The wrapper prints rustdoc's output, then the run's `total` for its parent process (here
/// this test, standing in for cargo), found from `-L dependency=<deps>`; without `--test` it
/// is rustdoc alone; its status is rustdoc's.
#[cfg(target_os = "linux")]
#[test]
fn rustdoc_then_engines_prints_the_total_after_the_doc_tests() {
    use std::process::Command;
    let dir = scratch("wrapper");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("rustdoc");
    std::fs::write(&fake, "#!/bin/sh\necho \"rustdoc $*\"\nexit 3\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let deps = dir.join("debug").join("deps");
    std::fs::create_dir_all(&deps).unwrap();
    let run = dir.join("debug").join(RUNS_DIR).join(own_key());
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("total"), "engines, all: 1\n").unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/rustdoc-then-engines");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let dependency = format!("dependency={}", deps.display());
    let wrapper = |args: &[&str]| {
        let out = Command::new("sh")
            .arg(script)
            .args(args)
            .env("PATH", &path)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let doc_tests = ["--test", "lib.rs", "-L", &dependency];
    assert_eq!(
        wrapper(&doc_tests),
        (
            Some(3),
            format!("rustdoc --test lib.rs -L {dependency}\nengines, all: 1\n")
        )
    );
    let docs = ["lib.rs", "-L", &dependency];
    assert_eq!(
        wrapper(&docs),
        (Some(3), format!("rustdoc lib.rs -L {dependency}\n"))
    );
    std::fs::remove_dir_all(run).unwrap();
    assert_eq!(
        wrapper(&doc_tests),
        (Some(3), format!("rustdoc --test lib.rs -L {dependency}\n")),
        "no run directory, no line"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
