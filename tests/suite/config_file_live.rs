//! ConfigFile against both live engines (issues 22, 23 and 27): every file here is read by
//! `ConfigFile.parse()` of Godot 4 and Godot 3, and the engine's verdict, sections, keys (in
//! `get_sections()` / `get_section_keys()` order) and `var_to_str` of each value must equal
//! what a fresh `Document::parse` reads. The files are the engines' edge cases (a colour at
//! the end of a line or of the input, `\]` in a header, `key=null` erasing a section, `[]`),
//! files our `Document::set` wrote for hostile section and key names (line breaks, brackets,
//! quotes, `;`, `=`, whitespace), and a Godot 3 `project.godot` edited with and without its
//! engine. The engine's `set_value(s, k, null)` on a section's only key is probed too.
//! Every file our `Document::set` wrote is also read by the engine's `ConfigFile.load()`
//! (which reads the file byte by byte, unlike `parse()`), including `set` of every C0
//! control, NUL, DEL, U+FEFF, every C1 control and some other non-ASCII characters at the
//! start, middle and end of section and key names: for every `set` that returned `Ok`, both
//! readings must equal ours.
//! Skips loudly without an engine; fails then when `GODOT_SERDE_REQUIRE_ENGINE=1`.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::engine::{Godot4Project, godot3_or_skip, godot4_or_skip, godot4_version};
use godot_serde::config_file::Document;
use godot_serde::{Config, PackedStringArray, Variant};

const G4_SCRIPT: &str = r#"extends SceneTree
func _init():
	var dir = OS.get_cmdline_user_args()[0]
	var names = Array(DirAccess.get_files_at(dir))
	names.sort()
	for file in names:
		if not file.ends_with(".cfg"):
			continue
		var name = file.substr(0, file.length() - 4)
		var text = FileAccess.get_file_as_bytes(dir + "/" + file).get_string_from_utf8()
		var cf = ConfigFile.new()
		report("PARSE", "KEY", name, cf, cf.parse(text))
		var lf = ConfigFile.new()
		report("LOAD", "LKEY", name, lf, lf.load(dir + "/" + file))
	var c = ConfigFile.new()
	c.set_value("s", "k", 1)
	c.set_value("s", "k", null)
	print("NULLSEC %d %s" % [int(c.has_section("s")), c.encode_to_text().to_utf8_buffer().hex_encode()])
	print("DONE")
	quit(0)

# What one read gave: its error, then (when it read) every key as hex of section, key and text.
func report(tag, key_tag, name, cf, err):
	print("%s %s %d" % [tag, name, err])
	if err != OK:
		return
	for s in cf.get_sections():
		for k in cf.get_section_keys(s):
			print("%s %s %s %s %s" % [key_tag, name, s.to_utf8_buffer().hex_encode(), k.to_utf8_buffer().hex_encode(), var_to_str(cf.get_value(s, k)).to_utf8_buffer().hex_encode()])
"#;

const G3_SCRIPT: &str = r#"extends SceneTree
func _init():
	var args = OS.get_cmdline_args()
	var dir_path = args[args.size() - 1]
	var dir = Directory.new()
	dir.open(dir_path)
	var names = []
	dir.list_dir_begin(true, true)
	var n = dir.get_next()
	while n != "":
		names.append(n)
		n = dir.get_next()
	names.sort()
	for file in names:
		if not file.ends_with(".cfg"):
			continue
		var name = file.substr(0, file.length() - 4)
		var f = File.new()
		f.open(dir_path + "/" + file, File.READ)
		var text = f.get_buffer(f.get_len()).get_string_from_utf8()
		f.close()
		var cf = ConfigFile.new()
		report("PARSE", "KEY", name, cf, cf.parse(text))
		var lf = ConfigFile.new()
		report("LOAD", "LKEY", name, lf, lf.load(dir_path + "/" + file))
	var c = ConfigFile.new()
	c.set_value("s", "k", 1)
	c.set_value("s", "k", null)
	print("NULLSEC %d" % [int(c.has_section("s"))])
	print("DONE")
	quit(0)

# What one read gave: its error, then (when it read) every key as hex of section, key and text.
func report(tag, key_tag, name, cf, err):
	print("%s %s %d" % [tag, name, err])
	if err != OK:
		return
	for s in cf.get_sections():
		for k in cf.get_section_keys(s):
			print("%s %s %s %s %s" % [key_tag, name, s.to_utf8().hex_encode(), k.to_utf8().hex_encode(), var2str(cf.get_value(s, k)).to_utf8().hex_encode()])
"#;

/// The engines' edge cases, read as they are.
const FIXED: &[(&str, &str)] = &[
    ("colour_line", "c=#ff8000\n"),
    ("colour_comment", "c=#ff8000;x\n"),
    ("colour_crlf", "[s]\nc=#ff8000\r\nd=1\n"),
    ("colour_eof", "c=#ff8000"),
    ("header_escape", "[a\\]b]\nk=1\n"),
    ("header_escape_next", "[a\\]b]\n[c]\nk=1\n"),
    ("null_erases_section", "[e]\n[s]\nk=null\n[t]\nj=1\n"),
    (
        "null_reorders",
        "[a]\nk=1\n[b]\nj=1\n[a]\nk=null\n[a]\nm=2\nk=3\n",
    ),
    ("empty_header", "[a]\nx=1\n[]\nk=42\n"),
    (
        "quoted_keys",
        "[a]\n\"x y\"=1\n\"q;c\"=2\n\"k=1\ny\"=3\nx y=4\n",
    ),
];

/// Section and key names a player could type.
const NAMES: &[&str] = &[
    "a",
    "x=1\ny",
    "a]\n[b",
    "a b",
    "q;c",
    "a]x",
    " a ",
    "",
    "[b]",
    "say \"hi\"",
    "back\\slash",
    "end\\",
    "tab\there",
    "é/日",
    "#c",
    "=",
    "\r\n",
];

/// The characters that names are made of in the `load()` differential: every C0 control
/// (NUL too), DEL, every C1 control, U+FEFF, and other non-ASCII characters (Latin-1,
/// whitespace that Rust's `trim` drops and the engines keep, CJK, an emoji).
fn tricky_chars() -> Vec<char> {
    let mut out: Vec<char> = (0u8..0x20).map(char::from).collect();
    out.push('\u{7f}');
    out.extend((0x80u32..0xa0).filter_map(char::from_u32));
    out.extend([
        '\u{feff}', '\u{a0}', 'é', '\u{2028}', '\u{3000}', '日', '😀',
    ]);
    out
}

/// `Document::set` for every tricky character at the start, middle and end of a section
/// name (`{c}s`, `s{c}s`, `s{c}`: key `k`) and of a key name (`{c}k`, ...: section `s`), in
/// a file that already holds `[s]` with `k=1`, so that a name read as `s` or `k` overwrites
/// that key. Returns the files of the calls that returned `Ok`, and the number of calls.
fn tricky_files(config: Config) -> (Vec<(String, String)>, usize) {
    let base = "[s]\n\nk=1\n";
    let mut out = Vec::new();
    let mut calls = 0;
    for (i, c) in tricky_chars().into_iter().enumerate() {
        for (j, (section, key)) in [
            (format!("{c}s"), "k".to_owned()),
            (format!("s{c}s"), "k".to_owned()),
            (format!("s{c}"), "k".to_owned()),
            ("s".to_owned(), format!("{c}k")),
            ("s".to_owned(), format!("k{c}k")),
            ("s".to_owned(), format!("k{c}")),
        ]
        .into_iter()
        .enumerate()
        {
            calls += 1;
            let mut doc = Document::parse(base, config).unwrap();
            if doc.set(&section, &key, &Variant::Int(42)).is_ok() {
                // What `set` promised: the new key reads back, and `s`/`k` keeps its 1.
                assert_eq!(doc.get(&section, &key).unwrap(), Some(Variant::Int(42)));
                assert_eq!(doc.get("s", "k").unwrap(), Some(Variant::Int(1)));
                out.push((format!("tricky_{i:02}_{j}"), doc.to_string()));
            }
        }
        // The same characters in String and StringName values (`set` checks them against
        // the value's text read back, as the engine reads it).
        for (j, text) in [format!("{c}v"), format!("v{c}v"), format!("v{c}")]
            .into_iter()
            .enumerate()
        {
            for (m, value) in [
                Variant::from(text.as_str()),
                Variant::StringName(godot_serde::StringName(text.clone())),
            ]
            .into_iter()
            .enumerate()
            {
                calls += 1;
                let mut doc = Document::parse(base, config).unwrap();
                if doc.set("s", "v", &value).is_ok() {
                    out.push((format!("tricky_{i:02}_v{j}{m}"), doc.to_string()));
                }
            }
        }
    }
    (out, calls)
}

/// What the engine printed: per file, its verdict and its keys.
type Listing = Vec<(String, String, String)>;

/// The engine's reading of every file by `parse()` (`load`: false) or by `load()`.
fn engine_view(stdout: &str, load: bool) -> std::collections::BTreeMap<String, (bool, Listing)> {
    let (verdict, key) = if load {
        ("LOAD", "LKEY")
    } else {
        ("PARSE", "KEY")
    };
    let mut out = std::collections::BTreeMap::new();
    for line in stdout.lines() {
        let p: Vec<&str> = line.split(' ').collect();
        match p.as_slice() {
            [v, name, err] if *v == verdict => {
                out.insert((*name).to_owned(), (*err == "0", Vec::new()));
            }
            [tag, name, s, k, v] if *tag == key => {
                let text = |h: &str| String::from_utf8(common::hex(h)).unwrap();
                out.get_mut(*name)
                    .expect("a verdict before its keys")
                    .1
                    .push((text(s), text(k), text(v)));
            }
            _ => {}
        }
    }
    out
}

fn our_view(text: &str, config: Config) -> (bool, Listing) {
    match Document::parse_ignoring_version(text, config) {
        Err(_) => (false, Vec::new()),
        Ok(doc) => {
            let mut keys = Vec::new();
            for s in doc.sections() {
                for k in doc.keys(s) {
                    let v = doc.get(s, k).unwrap().unwrap();
                    keys.push((
                        s.to_owned(),
                        k.to_owned(),
                        godot_serde::text::variant_to_string_with(&v, config),
                    ));
                }
            }
            (true, keys)
        }
    }
}

/// The files of the run: the fixed ones, then our `Document::set` output for every pair of
/// names that it accepted (a refused pair writes nothing to check).
fn files(config: Config) -> (Vec<(String, String)>, usize) {
    let mut out: Vec<(String, String)> = FIXED
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    let mut refused = 0;
    let base = "; comment\n\n[a]\n\nx=1\n[]\n\n[z]\n\nw=\"v\"\n";
    for (i, section) in NAMES.iter().enumerate() {
        for (j, key) in NAMES.iter().enumerate() {
            let mut doc = Document::parse(base, config).unwrap();
            match doc.set(section, key, &Variant::Int(42)) {
                Ok(()) => out.push((format!("set_{i:02}_{j:02}"), doc.to_string())),
                Err(_) => refused += 1,
            }
        }
    }
    // A section's only key set to null takes its header away.
    let mut doc = Document::parse("[a]\n\nx=1\n\n[s]\n\nk=1\n\n[b]\n\ny=2\n", config).unwrap();
    doc.set("s", "k", &Variant::Nil).unwrap();
    out.push(("null_only_key".into(), doc.to_string()));
    (out, refused)
}

/// A Godot 3 `project.godot` edited for its engine (`parse_auto`) and, to show what the
/// check prevents, with the Godot 4 config forced (`parse_ignoring_version`).
fn project_files() -> [(String, String); 2] {
    let g3 = "; Engine configuration file.\nconfig_version=4\n\n[application]\n\n\
              config/name=\"Game\"\n\n[rendering]\n\nquality/driver/driver_name=\"GLES2\"\n";
    let features = PackedStringArray(vec!["mobile".into()]);
    let mut auto = Document::parse_auto(g3, Config::godot4()).unwrap();
    auto.set_as("application", "config/features", &features)
        .unwrap();
    let mut forced = Document::parse_ignoring_version(g3, Config::godot4()).unwrap();
    forced
        .set_as("application", "config/features", &features)
        .unwrap();
    [
        ("project_auto".into(), auto.to_string()),
        ("project_forced_g4".into(), forced.to_string()),
    ]
}

fn write_files(dir: &Path, files: &[(String, String)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(format!("{name}.cfg")), text).unwrap();
    }
}

/// The files whose reading by the engine's `parse()` (and, for those `Document::set` wrote,
/// by its `load()` too) differs from ours, described.
fn differences(stdout: &str, files: &[(String, String)], config: Config) -> Vec<String> {
    let mut bad = differing(&engine_view(stdout, false), files.iter(), config, "parse()");
    let written = files
        .iter()
        .filter(|(n, _)| n.starts_with("set_") || n.starts_with("tricky_"));
    bad.extend(differing(
        &engine_view(stdout, true),
        written,
        config,
        "load()",
    ));
    bad
}

/// Compares the engine's reading of every file with ours; returns the number of files.
fn compare(stdout: &str, files: &[(String, String)], config: Config) -> usize {
    assert!(
        stdout.lines().any(|l| l == "DONE"),
        "engine output: {stdout}"
    );
    let bad = differences(stdout, files, config);
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
    files.len()
}

fn differing<'a>(
    engine: &std::collections::BTreeMap<String, (bool, Listing)>,
    files: impl Iterator<Item = &'a (String, String)>,
    config: Config,
    how: &str,
) -> Vec<String> {
    let mut bad = Vec::new();
    for (name, text) in files {
        let Some(theirs) = engine.get(name) else {
            bad.push(format!("{name}: no engine verdict"));
            continue;
        };
        let ours = our_view(text, config);
        if &ours != theirs {
            bad.push(format!(
                "{name} {text:?}, {how}:\n  engine {theirs:?}\n  ours   {ours:?}"
            ));
        }
    }
    bad
}

/// Prints how many of the tricky `set` calls returned `Ok` and how many of those files the
/// engine reads otherwise than we do (by `load()`, by `parse()`).
fn tricky_counts(
    engine: &str,
    stdout: &str,
    tricky: &[(String, String)],
    calls: usize,
    config: Config,
) {
    let by_load = differing(&engine_view(stdout, true), tricky.iter(), config, "load()").len();
    let by_parse = differing(
        &engine_view(stdout, false),
        tricky.iter(),
        config,
        "parse()",
    )
    .len();
    println!(
        "{engine}: {calls} tricky Document::set calls, {} Ok; the engine reads {by_load} of \
         those files differently with load(), {by_parse} with parse()",
        tricky.len()
    );
}

#[test]
fn godot4_reads_configfiles_as_we_do() {
    let Some(engine) = godot4_or_skip("godot4_reads_configfiles_as_we_do") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let config = Config::godot4();
    let (mut files, refused) = files(config);
    let (tricky, calls) = tricky_files(config);
    files.extend(tricky.iter().cloned());
    let project = Godot4Project::new("config_file_live", &[]);
    std::fs::write(project.dir.join("read.gd"), G4_SCRIPT).unwrap();
    let data = project.dir.join("cases");
    write_files(&data, &files);
    let out = project.run(
        &engine,
        "read.gd",
        &[data.to_str().unwrap()],
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    tricky_counts("Godot 4", &stdout, &tricky, calls, config);
    let n = compare(&stdout, &files, config);
    // `set_value("s", "k", null)` on the only key: no section left, nothing saved.
    assert!(stdout.lines().any(|l| l == "NULLSEC 0 "), "{stdout}");
    // The colour at the very end of the input is refused by the engine too.
    assert!(
        stdout.lines().any(|l| l == "PARSE colour_eof 43"),
        "{stdout}"
    );
    println!("Godot 4: {n} files read identically, {refused} Document::set calls refused");
}

#[test]
fn godot3_reads_configfiles_as_we_do() {
    let Some(engine) = godot3_or_skip("godot3_reads_configfiles_as_we_do") else {
        return;
    };
    let config = Config::godot3();
    let (mut files, refused) = files(config);
    let (tricky, calls) = tricky_files(config);
    files.extend(tricky.iter().cloned());
    files.extend(project_files());
    let dir = std::env::temp_dir().join(format!("godot_serde_cfg_live3_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("cases");
    write_files(&data, &files);
    std::fs::write(
        dir.join("project.godot"),
        "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\n\
         file_logging/enable_file_logging.pc=false\n",
    )
    .unwrap();
    std::fs::write(dir.join("read.gd"), G3_SCRIPT).unwrap();
    let out = run_godot3(&engine, &dir, &data);
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!(
        "Godot 3 engine: {}",
        stdout.lines().next().unwrap_or("(no banner)")
    );
    // The project edited with the Godot 4 config does not load in Godot 3 (the reason for
    // the config_version check); edited for its engine, it does.
    assert!(
        stdout.lines().any(|l| l == "PARSE project_forced_g4 43"),
        "{stdout}"
    );
    let files: Vec<(String, String)> = files
        .into_iter()
        .filter(|(n, _)| n != "project_forced_g4")
        .collect();
    tricky_counts("Godot 3", &stdout, &tricky, calls, config);
    let n = compare(&stdout, &files, config);
    let auto = engine_view(&stdout, false).remove("project_auto").unwrap();
    assert!(
        auto.1.contains(&(
            "application".to_owned(),
            "config/features".to_owned(),
            "PoolStringArray( \"mobile\" )".to_owned()
        )),
        "{auto:?}"
    );
    assert!(stdout.lines().any(|l| l == "NULLSEC 0"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l == "PARSE colour_eof 43"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    println!("Godot 3: {n} files read identically, {refused} Document::set calls refused");
}

fn run_godot3(engine: &Path, project: &Path, data: &Path) -> std::process::Output {
    let mut child = Command::new("timeout")
        .arg("120")
        .arg(engine)
        .arg("--no-window")
        .arg("--path")
        .arg(project)
        .arg("-s")
        .arg(project.join("read.gd"))
        .arg("--")
        .arg(data)
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the Godot 3 engine");
    let _ = child.stdin.take();
    let out = child
        .wait_with_output()
        .expect("wait for the Godot 3 engine");
    assert_eq!(
        out.status.code(),
        Some(0),
        "engine: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
