//! Throughput of extracting every file of a resource pack, ours against the engine's on the
//! same pack in the same run (`cargo bench --bench pck --features pck,crypto`, with `$GODOT4`
//! and/or `godot3-server` for the engine columns).
//!
//! The pack holds 400 files of 1 to 40 KB and one of 8 MiB (about 16 MiB). Ours, each
//! round: `PackReader::open` (header and directory) and every file streamed into one reused
//! buffer, MD5 checked (and, in the "no MD5" rows, not: the engine checks none). The engine, loaded once with `load_resource_pack`, each round:
//! `FileAccess.get_file_as_bytes` (Godot 4.6) / `File.open` + `get_buffer` (Godot 3.2.3) of
//! every file. Best of several rounds; the ratio engine time / our time is what is reported
//! (above 1: we are faster). Godot 4.6 reads v3 (plain, and encrypted with the zero key its
//! build has), Godot 3.2.3 reads v1.

mod engine_bench;

use engine_bench::{best, run_engine, time_line};
use godot_serde::container::Key;
use godot_serde::pck::{
    EngineVersion, PackFormat, PackOptions, PackReader, PackWriter, ReadOptions,
};
use std::io::Read;
use std::path::{Path, PathBuf};

const ROUNDS: usize = 7;

fn files() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = (0..400u32)
        .map(|i| {
            let len = 1000 + (i as usize * 7919) % 39_000;
            let data = (0..len)
                .map(|j| ((j as u32 * 31 + i) % 251) as u8)
                .collect();
            (format!("assets/dir{}/file{i}.bin", i % 20), data)
        })
        .collect();
    out.push((
        "big/blob.bin".into(),
        (0..8u32 << 20).map(|j| (j % 253) as u8).collect(),
    ));
    out
}

fn ours(path: &Path, key: Option<&Key>, md5: bool, total: usize) -> f64 {
    let mut options = ReadOptions::new();
    if !md5 {
        options = options.without_md5_check();
    }
    if let Some(k) = key {
        options = options.with_key(k.clone());
    }
    let mut buf = Vec::new();
    best(ROUNDS, || {
        let mut pack = PackReader::open(path, &options).unwrap();
        let mut n = 0;
        for entry in pack.entries().to_vec() {
            buf.clear();
            pack.open_entry(&entry)
                .unwrap()
                .read_to_end(&mut buf)
                .unwrap();
            n += buf.len();
        }
        assert_eq!(n, total);
    })
}

fn engine(cmd: &Path, dir: &Path, pack: &Path, names: &[String], godot3: bool) -> Option<f64> {
    let list = names
        .iter()
        .map(|n| format!("\"res://{n}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let (ticks, read) = if godot3 {
        (
            "OS.get_ticks_usec()",
            "\t\t\tvar f = File.new()\n\t\t\tf.open(n, File.READ)\n\t\t\ttotal += f.get_buffer(f.get_len()).size()\n\t\t\tf.close()\n",
        )
    } else {
        (
            "Time.get_ticks_usec()",
            "\t\t\ttotal += FileAccess.get_file_as_bytes(n).size()\n",
        )
    };
    let gd = format!(
        "extends SceneTree\nfunc _init():\n\tprint(\"LOADED \", ProjectSettings.load_resource_pack(\"{}\"))\n\
         \tvar names = [{list}]\n\tvar best = 1e18\n\tfor r in {ROUNDS}:\n\t\tvar t = {ticks}\n\t\tvar total = 0\n\
         \t\tfor n in names:\n{read}\t\tbest = min(best, {ticks} - t)\n\t\tprint(\"TOTAL \", total)\n\
         \tprint(\"TIME \", best)\n\tquit(0)\n",
        pack.display()
    );
    let out = run_engine(cmd, dir, godot3, &[], &gd)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    time_line(&stdout)
}

fn write(path: &Path, options: PackOptions, files: &[(String, Vec<u8>)], encrypt: bool) {
    let mut w = PackWriter::new(Vec::new(), options);
    for (name, data) in files {
        if encrypt {
            w.add_file_encrypted(name, data.clone()).unwrap();
        } else {
            w.add_file(name, data.clone()).unwrap();
        }
    }
    std::fs::write(path, w.finish().unwrap()).unwrap();
}

fn main() {
    let dir = std::env::temp_dir().join(format!("godot_serde_bench_pck_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = files();
    let total: usize = files.iter().map(|(_, d)| d.len()).sum();
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let zero = Key::from_bytes([0; 32]);
    let v3 = PackOptions::new(PackFormat::V3, EngineVersion::new(4, 6, 0));
    let v1 = PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3));
    // (name, pack, key, our MD5 check, Godot 3)
    let cases: [(&str, PathBuf, Option<&Key>, bool, bool); 5] = [
        ("v3", dir.join("v3.pck"), None, true, false),
        ("v3 no MD5", dir.join("v3.pck"), None, false, false),
        (
            "v3 encrypted",
            dir.join("v3e.pck"),
            Some(&zero),
            true,
            false,
        ),
        ("v1", dir.join("v1.pck"), None, true, true),
        ("v1 no MD5", dir.join("v1.pck"), None, false, true),
    ];
    write(&dir.join("v3.pck"), v3.clone(), &files, false);
    let encrypted = v3.with_key(zero.clone()).with_encrypted_directory(true);
    write(&dir.join("v3e.pck"), encrypted, &files, true);
    write(&dir.join("v1.pck"), v1, &files, false);
    println!(
        "{} files, {total} bytes; best of {ROUNDS}; MB/s of extracted data; ratio = engine time / our time",
        files.len()
    );
    println!(
        "{:<14} {:>10} {:>14} {:>8}",
        "pack", "ours MB/s", "engine MB/s", "ratio"
    );
    let mbs = |t: f64| total as f64 / t / 1e6;
    for (name, path, key, md5, godot3) in &cases {
        let t_ours = ours(path, *key, *md5, total);
        let t_engine = if *godot3 {
            engine(Path::new("godot3-server"), &dir, path, &names, true)
        } else {
            std::env::var_os("GODOT4")
                .and_then(|e| engine(Path::new(&e), &dir, path, &names, false))
        };
        let (e, r) = match t_engine {
            Some(t) => (format!("{:.0}", mbs(t)), format!("{:.2}", t / t_ours)),
            None => ("-".into(), "-".into()),
        };
        println!("{name:<14} {:>10.0} {e:>14} {r:>8}", mbs(t_ours));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
