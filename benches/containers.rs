//! Throughput of reading encrypted and compressed files, ours against the engine's on the same
//! file in the same run (`cargo bench --bench containers --features crypto,compression`, with
//! `$GODOT4` and/or `godot3-server` for the engine columns).
//!
//! The file holds a `store_var` save of about 4 MiB (mixed values and text, so it compresses
//! about as a real save). Each side reads the whole file into memory (ours: `container::open`
//! on the file's bytes, after `std::fs::read`; the engine: `open_compressed` /
//! `open_encrypted_with_pass` then `get_buffer(get_length())`), best of several rounds; the
//! ratio engine time / our time is what is reported.

mod engine_bench;

use engine_bench::{best, run_engine};
use godot_serde::container::{self, CompressionMode, Key, Layout, Limits, Wrapping};
use godot_serde::save::SaveWriter;
use godot_serde::{Config, Variant};
use std::path::{Path, PathBuf};

/// Rounds per side and file, the best one kept: enough that a best-of survives a shared,
/// loaded machine (each round takes 2 to 12 ms here).
const ROUNDS: usize = 25;

fn plain() -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = SaveWriter::new(&mut out, Config::godot4());
    // About 4 MiB: each value is 60 to 70 bytes.
    for i in 0..64_000i64 {
        let v = Variant::from(vec![
            Variant::Int(i),
            Variant::from(format!(
                "player_{i} at level {} with {} gold",
                i % 50,
                i * 37 % 9973
            )),
            Variant::Float(i as f64 * 0.25),
        ]);
        w.write(&v).unwrap();
    }
    out
}

struct Case {
    name: String,
    path: PathBuf,
    /// GDScript expression opening the file (`P` is the path).
    open4: String,
    open3: String,
    ours: f64,
}

fn engine_times(stdout: &str) -> std::collections::HashMap<String, f64> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("TIME "))
        .filter_map(|l| {
            let (name, us) = l.split_once(' ')?;
            Some((name.to_owned(), us.trim().parse::<f64>().ok()? / 1e6))
        })
        .collect()
}

fn script(cases: &[Case], godot3: bool) -> String {
    let mut s = String::from("extends SceneTree\nfunc _init():\n");
    for c in cases {
        let open = if godot3 { &c.open3 } else { &c.open4 };
        let open = open.replace('P', &format!("\"{}\"", c.path.display()));
        let len = if godot3 { "get_len" } else { "get_length" };
        let ticks = if godot3 {
            "OS.get_ticks_usec()"
        } else {
            "Time.get_ticks_usec()"
        };
        s += &format!(
            "\tvar best_{n} = 1e18\n\tfor r in {ROUNDS}:\n\t\tvar t = {ticks}\n\
             {open}\n\t\tvar b = f.get_buffer(f.{len}())\n\t\tf.close()\n\
             \t\tbest_{n} = min(best_{n}, {ticks} - t)\n\
             \tprint(\"TIME {name} \", best_{n})\n",
            n = c.name.replace('-', "_"),
            name = c.name,
        );
    }
    s + "\tquit(0)\n"
}

fn engine(cmd: &Path, dir: &Path, cases: &[Case], godot3: bool) -> Option<String> {
    let out = run_engine(cmd, dir, godot3, &[], &script(cases, godot3))?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
    let dir = std::env::temp_dir().join(format!("godot_serde_bench_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = plain();
    let key = Key::from_password("secret");
    let mut variants: Vec<(String, Wrapping, String, String)> = Vec::new();
    for layout in [Layout::Godot4, Layout::Godot3] {
        let n = if layout == Layout::Godot4 {
            "encrypted-g4"
        } else {
            "encrypted-g3"
        };
        variants.push((
            n.to_owned(),
            Wrapping::Encrypted(layout),
            "\t\tvar f = FileAccess.open_encrypted_with_pass(P, FileAccess.READ, \"secret\")"
                .into(),
            "\t\tvar f = File.new()\n\t\tf.open_encrypted_with_pass(P, File.READ, \"secret\")"
                .into(),
        ));
    }
    for mode in CompressionMode::WRITABLE {
        variants.push((
            format!("compressed-{mode}"),
            Wrapping::Compressed {
                mode,
                block_size: container::DEFAULT_BLOCK_SIZE,
            },
            format!(
                "\t\tvar f = FileAccess.open_compressed(P, FileAccess.READ, {})",
                mode.id()
            ),
            format!(
                "\t\tvar f = File.new()\n\t\tf.open_compressed(P, File.READ, {})",
                mode.id()
            ),
        ));
    }
    let mut cases = Vec::new();
    for (name, wrapping, open4, open3) in variants {
        let file = container::seal(&data, &wrapping, Some(&key)).unwrap();
        let path = dir.join(format!("{name}.bin"));
        std::fs::write(&path, &file).unwrap();
        let ours = best(ROUNDS, || {
            let bytes = std::fs::read(&path).unwrap();
            let opened = container::open(&bytes, Some(&key), &Limits::new()).unwrap();
            assert_eq!(opened.data.len(), data.len());
        });
        cases.push(Case {
            name,
            path,
            open4,
            open3,
            ours,
        });
    }
    // Each engine reads only its own encrypted layout.
    let only = |skip: &str| -> Vec<Case> {
        cases
            .iter()
            .filter(|c| c.name != skip)
            .map(|c| Case {
                name: c.name.clone(),
                path: c.path.clone(),
                open4: c.open4.clone(),
                open3: c.open3.clone(),
                ours: c.ours,
            })
            .collect()
    };
    let g4 = std::env::var_os("GODOT4")
        .map(PathBuf::from)
        .and_then(|e| engine(&e, &dir, &only("encrypted-g3"), false))
        .map(|s| engine_times(&s))
        .unwrap_or_default();
    let g3 = engine(
        Path::new("godot3-server"),
        &dir,
        &only("encrypted-g4"),
        true,
    )
    .map(|s| engine_times(&s))
    .unwrap_or_default();
    println!(
        "{} bytes of store_var data; best of {ROUNDS}; MB/s of plain output; ratio = engine time / our time",
        data.len()
    );
    println!(
        "{:<22} {:>10} {:>14} {:>8} {:>14} {:>8}",
        "file", "ours MB/s", "Godot 4 MB/s", "ratio", "Godot 3 MB/s", "ratio"
    );
    let mbs = |t: f64| data.len() as f64 / t / 1e6;
    for c in &cases {
        let cell = |m: &std::collections::HashMap<String, f64>| match m.get(&c.name) {
            Some(&t) => (format!("{:.0}", mbs(t)), format!("{:.2}", t / c.ours)),
            None => ("-".to_owned(), "-".to_owned()),
        };
        let (a, b) = cell(&g4);
        let (d, e) = cell(&g3);
        println!(
            "{:<22} {:>10.0} {:>14} {:>8} {:>14} {:>8}",
            c.name,
            mbs(c.ours),
            a,
            b,
            d,
            e
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
