//! Resource packs against the live engines, both directions (`tests/godot{3,4}/pck_*.gd`):
//!
//! - Godot 4.6's `PCKPacker` packs five source files (one empty, one with a non-ASCII path,
//!   one of 70 000 bytes) with alignments 1, 32 and 4096, a removal entry, encrypted files
//!   and an encrypted directory under a key; we list and extract every file and compare it
//!   with the source file the script wrote; for the plain packs our writer, given the same
//!   files, writes the engine's bytes exactly.
//! - Godot 3.2.3's `PCKPacker` (format 1) likewise, alignments 0 and 32.
//! - Packs we write (v3 and v2 for Godot 4, v1 for Godot 3, encrypted ones with the key the
//!   engine was built with, a patched one, one embedded at the end of an executable) are
//!   loaded by the engine with `ProjectSettings.load_resource_pack`, which reads each file
//!   and compares it with its source file itself.
//!
//! The headless 4.6 engine has the all-zero `script_encryption_key` (no key was given when
//! it was built): it loads encrypted packs of that key only, so the packs it loads use it;
//! the packs it writes use any key (`pck_start`'s `key`), which we read with that key.

use crate::common;
use common::{script_key, temp_dir};

use common::engine::{
    Godot3Project, Godot4Project, godot3_or_skip, godot4_or_skip, godot4_version,
};
use godot_serde::ErrorKind;
use godot_serde::container::Key;
use godot_serde::pck::{
    self, Change, EngineVersion, PackFormat, PackOptions, PackReader, PackWriter, ReadOptions,
};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The paths of the scripts' `NAMES`.
const NAMES: [&str; 5] = [
    "hello.txt",
    "data/level.bin",
    "empty.txt",
    "données/é.txt",
    "big.bin",
];

fn script(engine: u8, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/godot{engine}/{name}"))
}

/// The source files a `pck_write.gd` wrote.
fn sources(dir: &Path) -> Vec<Vec<u8>> {
    (0..NAMES.len())
        .map(|i| std::fs::read(dir.join(format!("src_{i}"))).unwrap())
        .collect()
}

/// Reads an engine's pack and checks every file against the sources; returns the reader.
fn check_engine_pack(
    path: &Path,
    options: &ReadOptions,
    sources: &[Vec<u8>],
    removal: bool,
    encrypted: bool,
) -> PackReader<std::io::BufReader<std::fs::File>> {
    let mut pack = PackReader::open(path, options).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut names: Vec<String> = NAMES.iter().map(|n| n.to_string()).collect();
    if removal {
        names.push("gone.txt".into());
    }
    let got: Vec<String> = pack.entries().iter().map(|e| e.name().to_owned()).collect();
    assert_eq!(got, names, "{path:?}");
    for (name, want) in NAMES.iter().zip(sources) {
        let entry = pack.find(name).unwrap().clone();
        assert_eq!(entry.size, want.len() as u64, "{name}");
        assert_eq!(entry.is_encrypted(), encrypted, "{name}");
        assert!(entry.has_md5() || pack.header().format == PackFormat::V1);
        let data = pack
            .read_file(name)
            .unwrap_or_else(|e| panic!("{path:?} {name}: {e}"));
        assert!(data == *want, "{path:?} {name}: extracted bytes differ");
    }
    if removal {
        assert!(pack.entries().last().unwrap().is_removal());
        assert!(pack.find("gone.txt").is_none());
    }
    pack
}

/// Our writer's pack of the same files as an engine's pack.
fn our_copy(
    format: PackFormat,
    version: EngineVersion,
    alignment: u32,
    sources: &[Vec<u8>],
    removal: bool,
) -> Vec<u8> {
    let options = PackOptions::new(format, version).with_alignment(alignment);
    let mut writer = PackWriter::new(Vec::new(), options);
    for (name, data) in NAMES.iter().zip(sources) {
        writer
            .add_file(&format!("res://{name}"), data.clone())
            .unwrap();
    }
    if removal {
        writer.add_removal("res://gone.txt").unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn godot4_packer_packs_read_and_rewritten_exactly() {
    let Some(engine) = godot4_or_skip("godot4_packer_packs_read_and_rewritten_exactly") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let dir = temp_dir("pck_g4_theirs");
    let project = Godot4Project::new("pck_write", &[&script(4, "pck_write.gd")]);
    let out = project.run(
        &engine,
        "pck_write.gd",
        &[dir.to_str().unwrap()],
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    for name in ["a32", "a4096", "a1", "enc_dir", "enc_files", "zero_key"] {
        assert!(
            stdout.contains(&format!("PACK {name} 0")),
            "{name}:\n{stdout}"
        );
    }
    // ERR_CANT_CREATE: Godot 4 refuses alignment 0.
    assert!(stdout.contains("ALIGN0 20"), "{stdout}");
    let sources = sources(&dir);
    let plain = ReadOptions::new();
    for (name, alignment, removal) in [("a32", 32, true), ("a4096", 4096, false), ("a1", 1, false)]
    {
        let path = dir.join(format!("{name}.pck"));
        let pack = check_engine_pack(&path, &plain, &sources, removal, false);
        let header = *pack.header();
        assert_eq!(header.format, PackFormat::V3);
        assert_eq!((header.version.major, header.version.minor), (4, 6));
        for entry in pack.entries() {
            assert_eq!(entry.offset % alignment, 0, "{name} {}", entry.path);
        }
        let theirs = std::fs::read(&path).unwrap();
        let ours = our_copy(
            PackFormat::V3,
            header.version,
            alignment as u32,
            &sources,
            removal,
        );
        assert!(
            ours == theirs,
            "{name}: our bytes differ from the engine's ({} vs {})",
            ours.len(),
            theirs.len()
        );
    }
    let keyed = ReadOptions::new().with_key(script_key());
    let pack = check_engine_pack(&dir.join("enc_dir.pck"), &keyed, &sources, true, true);
    assert!(pack.header().directory_encrypted());
    check_engine_pack(&dir.join("enc_files.pck"), &keyed, &sources, false, true);
    let zero = ReadOptions::new().with_key(Key::from_bytes([0; 32]));
    check_engine_pack(&dir.join("zero_key.pck"), &zero, &sources, false, true);
    // Without the key, and with a wrong one.
    let e = PackReader::open(dir.join("enc_dir.pck"), &plain).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    let e = PackReader::open(dir.join("enc_dir.pck"), &zero).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    let mut pack = PackReader::open(dir.join("enc_files.pck"), &zero).unwrap();
    let e = pack.read_file("hello.txt").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Source files of our packs: the same shapes as the scripts' (an empty one, a non-ASCII
/// path, 70 000 bytes).
fn our_sources() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("hello.txt", b"hello from godot_serde".to_vec()),
        (
            "data/level.bin",
            (0..5000u32).map(|j| (j * 13 + 5) as u8).collect(),
        ),
        ("empty.txt", Vec::new()),
        ("données/é.txt", "ünïcödé".as_bytes().to_vec()),
        (
            "big.bin",
            (0..70000u64).map(|j| (j * j % 253) as u8).collect(),
        ),
    ]
}

/// A manifest for `pck_read.gd` and the packs it names.
struct Manifest {
    dir: PathBuf,
    lines: Vec<String>,
    sources: usize,
}

impl Manifest {
    fn source(&mut self, data: &[u8]) -> PathBuf {
        let path = self.dir.join(format!("src_{}", self.sources));
        self.sources += 1;
        std::fs::write(&path, data).unwrap();
        path
    }

    fn pack(&mut self, name: &str, bytes: &[u8], prefix: &str, files: &[(&str, Vec<u8>)]) {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        self.lines.push(format!("LOAD\t{}", path.display()));
        for (file, data) in files {
            let src = self.source(data);
            self.lines
                .push(format!("PRESENT\tres://{prefix}{file}\t{}", src.display()));
        }
    }

    fn present(&mut self, res: &str, data: &[u8]) {
        let src = self.source(data);
        self.lines
            .push(format!("PRESENT\tres://{res}\t{}", src.display()));
    }

    fn absent(&mut self, res: &str) {
        self.lines.push(format!("ABSENT\tres://{res}"));
    }

    fn write(&self) -> PathBuf {
        let path = self.dir.join("manifest.txt");
        std::fs::write(&path, self.lines.join("\n") + "\n").unwrap();
        path
    }
}

fn pack_of(
    options: PackOptions,
    prefix: &str,
    files: &[(&str, Vec<u8>)],
    encrypt: bool,
) -> Vec<u8> {
    let mut writer = PackWriter::new(Vec::new(), options);
    for (name, data) in files {
        let path = format!("res://{prefix}{name}");
        if encrypt {
            writer.add_file_encrypted(&path, data.clone()).unwrap();
        } else {
            writer.add_file(&path, data.clone()).unwrap();
        }
    }
    writer.finish().unwrap()
}

/// Checks `pck_read.gd`'s output: every load succeeded, every check passed.
fn check_engine_verdicts(stdout: &str, manifest: &Manifest) {
    assert!(stdout.contains("DONE"), "{stdout}");
    let loads = manifest
        .lines
        .iter()
        .filter(|l| l.starts_with("LOAD"))
        .count();
    let loaded = stdout
        .lines()
        .filter(|l| l.starts_with("LOAD ") && (l.ends_with(" true") || l.ends_with(" True")))
        .count();
    assert_eq!(loaded, loads, "{stdout}");
    let checks = manifest.lines.len() - loads;
    let ok = stdout.lines().filter(|l| l.starts_with("OK ")).count();
    assert!(!stdout.contains("BAD "), "{stdout}");
    assert_eq!(ok, checks, "{stdout}");
}

#[test]
fn godot4_loads_our_packs() {
    let Some(engine) = godot4_or_skip("godot4_loads_our_packs") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let dir = temp_dir("pck_g4_ours");
    let files = our_sources();
    let zero = Key::from_bytes([0; 32]);
    let v46 = EngineVersion::new(4, 6, 0);
    let mut m = Manifest {
        dir: dir.clone(),
        lines: Vec::new(),
        sources: 0,
    };
    let v3 = PackOptions::new(PackFormat::V3, v46);
    m.pack(
        "v3a.pck",
        &pack_of(v3.clone(), "v3a/", &files, false),
        "v3a/",
        &files,
    );
    m.pack(
        "v3b.pck",
        &pack_of(v3.clone().with_alignment(4096), "v3b/", &files, false),
        "v3b/",
        &files,
    );
    m.pack(
        "v3c.pck",
        &pack_of(v3.clone().with_alignment(0), "v3c/", &files, false),
        "v3c/",
        &files,
    );
    let v2 = PackOptions::new(PackFormat::V2, EngineVersion::new(4, 4, 1));
    m.pack("v2.pck", &pack_of(v2, "v2/", &files, false), "v2/", &files);
    // 4.0-4.3 store `res://` in the paths; 4.6 reads both.
    let v2_old = PackOptions::new(PackFormat::V2, EngineVersion::new(4, 2, 0));
    m.pack(
        "v2old.pck",
        &pack_of(v2_old, "v2old/", &files, false),
        "v2old/",
        &files,
    );
    let v3_enc = v3
        .clone()
        .with_key(zero.clone())
        .with_encrypted_directory(true);
    m.pack(
        "v3enc.pck",
        &pack_of(v3_enc, "v3enc/", &files, true),
        "v3enc/",
        &files,
    );
    let v2_enc = PackOptions::new(PackFormat::V2, EngineVersion::new(4, 4, 0))
        .with_key(zero)
        .with_encrypted_directory(true);
    m.pack(
        "v2enc.pck",
        &pack_of(v2_enc, "v2enc/", &files, false),
        "v2enc/",
        &files,
    );
    // At the end of an "executable": 10 001 bytes that are not a pack.
    let exe: Vec<u8> = (0..10_001u32).map(|i| (i % 241) as u8).collect();
    let inner = pack_of(v3.clone(), "emb/", &files, false);
    let embedded = pck::embed(&mut exe.as_slice(), &mut inner.as_slice(), Vec::new()).unwrap();
    let header = *PackReader::new(Cursor::new(&embedded)).unwrap().header();
    assert!(header.embedded && header.start == 10_008, "{header:?}");
    m.pack("game.x86_64", &embedded, "emb/", &files);
    // A removal entry takes a file of an earlier pack away.
    let rm = [("x.txt", b"x".to_vec()), ("y.txt", b"y".to_vec())];
    m.pack(
        "r1.pck",
        &pack_of(v3.clone(), "rm/", &rm, false),
        "rm/",
        &rm,
    );
    let mut writer = PackWriter::new(Vec::new(), v3.clone());
    writer.add_removal("res://rm/x.txt").unwrap();
    m.pack("r2.pck", &writer.finish().unwrap(), "", &[]);
    m.absent("rm/x.txt");
    m.present("rm/y.txt", b"y");
    // A patched pack, converted from v3 to v2: one file replaced, one left out, one added,
    // and a removal entry for a file of v3b.pck.
    let base = pack_of(v3.clone(), "pat/", &files, false);
    let mut reader = PackReader::new(Cursor::new(base)).unwrap();
    let changes = vec![
        Change::Put {
            path: "pat/hello.txt".into(),
            data: b"patched".to_vec(),
            encrypt: false,
        },
        Change::Remove {
            path: "res://pat/empty.txt".into(),
        },
        Change::Put {
            path: "pat/new.txt".into(),
            data: b"new".to_vec(),
            encrypt: false,
        },
        Change::MarkRemoved {
            path: "v3b/hello.txt".into(),
        },
    ];
    let options = PackOptions::new(PackFormat::V2, EngineVersion::new(4, 4, 0));
    let patched = pck::patch(&mut reader, Vec::new(), options, changes).unwrap();
    m.pack("patched.pck", &patched, "", &[]);
    m.present("pat/hello.txt", b"patched");
    m.absent("pat/empty.txt");
    m.present("pat/new.txt", b"new");
    m.present("pat/big.bin", &files[4].1);
    m.absent("v3b/hello.txt");
    let manifest = m.write();
    let project = Godot4Project::new("pck_read", &[&script(4, "pck_read.gd")]);
    let out = project.run(
        &engine,
        "pck_read.gd",
        &[manifest.to_str().unwrap()],
        Duration::from_secs(120),
    );
    check_engine_verdicts(&String::from_utf8_lossy(&out.stdout), &m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot3_packs_both_directions() {
    let Some(engine) = godot3_or_skip("godot3_packs_both_directions") else {
        return;
    };
    let dir = temp_dir("pck_g3");
    let project = Godot3Project::new(
        "pck_g3",
        &[script(3, "pck_write.gd"), script(3, "pck_read.gd")],
    );
    let out = project
        .spawn(
            &engine,
            "pck_write.gd",
            &[dir.to_str().unwrap()],
            Duration::from_secs(120),
        )
        .join()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("PACK a0 0") && stdout.contains("PACK a32 0"),
        "{stdout}"
    );
    let sources = sources(&dir);
    for (name, alignment) in [("a0", 1u64), ("a32", 32)] {
        let pack = check_engine_pack(
            &dir.join(format!("{name}.pck")),
            &ReadOptions::new(),
            &sources,
            false,
            false,
        );
        let header = *pack.header();
        assert_eq!(header.format, PackFormat::V1);
        assert_eq!(header.version, EngineVersion::new(3, 2, 3));
        for entry in pack.entries() {
            assert_eq!(entry.offset % alignment, 0, "{name} {}", entry.path);
            // Godot 3's PCKPacker records no MD5.
            assert!(!entry.has_md5());
        }
        // Ours differ only in the MD5s, which Godot 3's PCKPacker leaves zero.
        let theirs = std::fs::read(dir.join(format!("{name}.pck"))).unwrap();
        let mut ours = our_copy(
            PackFormat::V1,
            header.version,
            alignment as u32,
            &sources,
            false,
        );
        assert_eq!(ours.len(), theirs.len(), "{name}");
        let mut at = 84 + 4;
        for name in NAMES {
            let len = format!("res://{name}").len();
            at += 4 + len + 16;
            ours[at..at + 16].fill(0);
            at += 16;
        }
        assert!(ours == theirs, "{name}: our bytes differ from the engine's");
    }
    let files = our_sources();
    let v1 = PackOptions::new(PackFormat::V1, EngineVersion::new(3, 2, 3));
    let mut m = Manifest {
        dir: dir.clone(),
        lines: Vec::new(),
        sources: 0,
    };
    m.pack(
        "g3a.pck",
        &pack_of(v1.clone(), "g3a/", &files, false),
        "g3a/",
        &files,
    );
    m.pack(
        "g3b.pck",
        &pack_of(v1.with_alignment(32), "g3b/", &files, false),
        "g3b/",
        &files,
    );
    m.absent("g3a/missing.txt");
    let manifest = m.write();
    let out = project
        .spawn(
            &engine,
            "pck_read.gd",
            &[manifest.to_str().unwrap()],
            Duration::from_secs(120),
        )
        .join()
        .unwrap();
    check_engine_verdicts(&String::from_utf8_lossy(&out.stdout), &m);
    let _ = std::fs::remove_dir_all(&dir);
}
