//! Resource packs (PCK): the `pck list`, `extract`, `pack`, `add` and `remove` commands.

use crate::Ui;
use crate::input::{self, Failure};
use clap::{Args, Subcommand, ValueEnum};
use godot_serde::container::Key;
use godot_serde::pck::{
    self, Change, EngineVersion, PackFormat, PackOptions, PackReader, PackWriter, ReadOptions,
};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

/// `pck` subcommands.
#[derive(Subcommand, Debug)]
pub enum PckCommand {
    /// List a pack's files: size, flags (e = encrypted, r = removal, d = delta), MD5, path.
    List(ListArgs),
    /// Extract a pack's files (all, or the paths given) into a directory, each file's MD5
    /// checked.
    Extract(ExtractArgs),
    /// Pack a directory's files into a new pack, as PCKPacker writes it.
    Pack(PackArgs),
    /// Add (or replace) files in a pack, writing a new one.
    Add(AddArgs),
    /// Remove files from a pack, writing a new one.
    Remove(RemoveArgs),
}

/// The layouts `--format` names.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Godot 3.
    V1,
    /// Godot 4.0 to 4.4.
    V2,
    /// Godot 4.5 and later.
    V3,
}

impl From<FormatArg> for PackFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::V1 => PackFormat::V1,
            FormatArg::V2 => PackFormat::V2,
            FormatArg::V3 => PackFormat::V3,
        }
    }
}

/// The pack and its key.
#[derive(Args, Debug)]
pub struct PackIn {
    /// The pack (or an executable with a pack at its end).
    #[arg(value_name = "PACK")]
    pub pack: PathBuf,
    /// The 32-byte key of encrypted files and directories, as 64 hex digits (what
    /// PCKPacker.pck_start takes, the engine's script_encryption_key).
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,
}

/// `pck list` options.
#[derive(Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub pack: PackIn,
}

/// `pck extract` options.
#[derive(Args, Debug)]
pub struct ExtractArgs {
    #[command(flatten)]
    pub pack: PackIn,
    /// The directory to write into (created if needed).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Only these paths (`res://` optional).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Skip the MD5 check of plain files, as the engine does (encrypted files are still
    /// checked: it is how a wrong key shows).
    #[arg(long)]
    pub no_md5_check: bool,
}

/// How the new pack is written.
#[derive(Args, Debug)]
pub struct WriteArgs {
    /// The layout: v1 (Godot 3), v2 (4.0-4.4), v3 (4.5+). `add` and `remove` keep the
    /// pack's own unless given.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    #[command(flatten)]
    pub options: WriteOptions,
}

/// `pck pack` options.
#[derive(Args, Debug)]
pub struct PackArgs {
    /// The directory whose files (recursively, in name order) go into the pack, each under
    /// its path relative to the directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The pack to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The layout (required): v1 (Godot 3), v2 (4.0-4.4), v3 (4.5+).
    #[arg(long, value_enum, required = true)]
    pub format: Option<FormatArg>,
    /// The 32-byte key, as 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,
    #[command(flatten)]
    pub write: WriteOptions,
}

/// How the files of a new pack are written, whatever its format (`pack`, `add`, `remove`).
#[derive(Args, Debug)]
pub struct WriteOptions {
    /// The engine version recorded, MAJOR.MINOR.PATCH (an engine refuses packs of a newer
    /// minor version). Default: the oldest engine of the format (3.0.0, 4.0.0, 4.5.0), which
    /// every engine reading the format accepts; `add` and `remove` keep the pack's own unless
    /// --format changes it.
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    pub engine: Option<EngineVersion>,
    /// Align files to this many bytes (default: v1 none, v2 and v3 32, as PCKPacker).
    #[arg(long, value_name = "BYTES")]
    pub alignment: Option<u32>,
    /// Encrypt the files written (needs --key; v2 and v3).
    #[arg(long)]
    pub encrypt: bool,
    /// Encrypt the directory (needs --key; v2 and v3).
    #[arg(long)]
    pub encrypt_directory: bool,
}

/// `pck add` options.
#[derive(Args, Debug)]
pub struct AddArgs {
    #[command(flatten)]
    pub pack: PackIn,
    /// The files to add, paths relative to -C DIR (the current directory by default); each
    /// goes into the pack under that path.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// The directory the FILE paths are relative to.
    #[arg(short = 'C', long = "directory", value_name = "DIR")]
    pub directory: Option<PathBuf>,
    /// Write the new pack here instead of replacing PACK.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// `pck remove` options.
#[derive(Args, Debug)]
pub struct RemoveArgs {
    #[command(flatten)]
    pub pack: PackIn,
    /// The paths to remove (`res://` optional).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Write removal entries instead (v2 and v3, Godot 4.4+): loading the pack removes the
    /// paths from the packs loaded before it.
    #[arg(long)]
    pub mark: bool,
    /// Write the new pack here instead of replacing PACK.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub write: WriteArgs,
}

fn parse_version(s: &str) -> Result<EngineVersion, String> {
    let parts: Vec<&str> = s.split('.').collect();
    let num = |i: usize| -> Result<u32, String> {
        parts
            .get(i)
            .map_or(Ok(0), |p| p.parse::<u32>())
            .map_err(|_| format!("not a version: {s:?} (MAJOR.MINOR.PATCH)"))
    };
    if parts.len() > 3 || parts.first().is_none_or(|p| p.is_empty()) {
        return Err(format!("not a version: {s:?} (MAJOR.MINOR.PATCH)"));
    }
    Ok(EngineVersion::new(num(0)?, num(1)?, num(2)?))
}

fn failure(e: &godot_serde::Error) -> Failure {
    let f = Failure::input(e.to_string());
    match e.kind() {
        godot_serde::ErrorKind::WrongKey => f.detail("check --key (the pack may also be corrupt)"),
        godot_serde::ErrorKind::Unsupported(_) if e.to_string().contains("key") => {
            f.detail("give the key with --key HEX (64 hex digits)")
        }
        _ => f,
    }
}

fn key(hex: Option<&str>) -> Result<Option<Key>, Failure> {
    let Some(hex) = hex else {
        return Ok(None);
    };
    let bytes = input::parse_hex(hex)?;
    Key::from_slice(&bytes)
        .map(Some)
        .map_err(|e| Failure::usage(format!("--key: {}", e.kind())))
}

fn open(pack: &PackIn) -> Result<(PackReader<BufReader<std::fs::File>>, Option<Key>), Failure> {
    open_with(pack, ReadOptions::new())
}

fn open_with(
    pack: &PackIn,
    mut options: ReadOptions,
) -> Result<(PackReader<BufReader<std::fs::File>>, Option<Key>), Failure> {
    let key = key(pack.key.as_deref())?;
    if let Some(k) = &key {
        options = options.with_key(k.clone());
    }
    let reader = PackReader::open(&pack.pack, &options)
        .map_err(|e| failure(&e).detail(format!("in {}", pack.pack.display())))?;
    Ok((reader, key))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn describe(reader: &PackReader<BufReader<std::fs::File>>) -> String {
    let h = reader.header();
    format!(
        "pack {}, engine {}, {} entries{}{}",
        h.format,
        h.version,
        h.file_count,
        if h.directory_encrypted() {
            ", directory encrypted"
        } else {
            ""
        },
        if h.embedded {
            format!(", embedded at byte {}", h.start)
        } else {
            String::new()
        }
    )
}

/// `pck list`.
pub fn list(args: &ListArgs, out: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let (reader, _) = open(&args.pack)?;
    ui.note(&describe(&reader));
    for e in reader.entries() {
        let flags: String = [
            (e.is_encrypted(), 'e'),
            (e.is_removal(), 'r'),
            (e.is_delta(), 'd'),
        ]
        .iter()
        .map(|&(on, c)| if on { c } else { '-' })
        .collect();
        let md5 = if e.has_md5() {
            hex(&e.md5)
        } else {
            "-".repeat(32)
        };
        writeln!(
            out,
            "{:>12} {flags} {md5} {}",
            e.size,
            crate::escape::escape(&e.path)
        )
        .map_err(|e| Failure::input(format!("cannot write the output: {e}")))?;
    }
    Ok(())
}

/// `pck extract`.
pub fn extract(args: &ExtractArgs, ui: &Ui) -> Result<(), Failure> {
    let options = if args.no_md5_check {
        ReadOptions::new().without_md5_check()
    } else {
        ReadOptions::new()
    };
    let (mut reader, _) = open_with(&args.pack, options)?;
    ui.note(&describe(&reader));
    let entries: Vec<pck::Entry> = if args.paths.is_empty() {
        // The entry the engine would use for each path: the last one, unless it removes it.
        let mut seen = std::collections::HashSet::new();
        let mut chosen: Vec<pck::Entry> = reader
            .entries()
            .iter()
            .rev()
            .filter(|e| seen.insert(e.name().to_owned()))
            .filter(|e| !e.is_removal())
            .cloned()
            .collect();
        chosen.reverse();
        chosen
    } else {
        args.paths
            .iter()
            .map(|p| {
                reader.find(p).cloned().ok_or_else(|| {
                    Failure::input(format!(
                        "the pack has no file {:?}",
                        crate::escape::escape(p)
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let mut count = 0usize;
    for entry in &entries {
        let name = pck::normalize_path(&entry.path).map_err(|e| failure(&e))?;
        let target = args.output.join(&name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::input(format!("cannot create {}: {e}", parent.display())))?;
        }
        let mut file = std::fs::File::create(&target)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", target.display())))?;
        let copied = reader
            .open_entry(entry)
            .and_then(|mut r| std::io::copy(&mut r, &mut file).map_err(pck_io));
        if let Err(e) = copied {
            drop(file);
            let _ = std::fs::remove_file(&target);
            return Err(failure(&e).detail(format!("while extracting {:?}", entry.path)));
        }
        count += 1;
    }
    ui.note(&format!(
        "{count} files extracted into {}{}",
        args.output.display(),
        if args.no_md5_check {
            " (MD5 of plain files not checked)"
        } else {
            ", each MD5 checked"
        }
    ));
    Ok(())
}

/// An I/O error of a pack entry's reader, back to the library's error.
fn pck_io(e: std::io::Error) -> godot_serde::Error {
    match e
        .into_inner()
        .map(|inner| inner.downcast::<godot_serde::Error>())
    {
        Some(Ok(err)) => *err,
        Some(Err(other)) => godot_serde::Error::from(std::io::Error::other(other.to_string())),
        None => godot_serde::Error::from(std::io::Error::other("I/O error")),
    }
}

fn default_version(format: PackFormat) -> EngineVersion {
    match format {
        PackFormat::V1 => EngineVersion::new(3, 0, 0),
        PackFormat::V2 => EngineVersion::new(4, 0, 0),
        _ => EngineVersion::new(4, 5, 0),
    }
}

struct Settings {
    format: PackFormat,
    version: EngineVersion,
    alignment: Option<u32>,
    encrypt_directory: bool,
}

fn options(s: &Settings, key: Option<&Key>) -> Result<PackOptions, Failure> {
    let mut options = PackOptions::new(s.format, s.version);
    if let Some(a) = s.alignment {
        options = options.with_alignment(a);
    }
    if let Some(k) = key {
        options = options.with_key(k.clone());
    }
    if s.encrypt_directory {
        if key.is_none() {
            return Err(Failure::usage("--encrypt-directory needs --key"));
        }
        options = options.with_encrypted_directory(true);
    }
    Ok(options)
}

/// Files under `dir`, recursively, as (path relative to it with `/`, file), in name order.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) -> Result<(), Failure> {
    let mut items: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .collect();
    items.sort_by_key(std::fs::DirEntry::file_name);
    for item in items {
        let name = item.file_name().to_string_lossy().into_owned();
        let path = item.path();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = item
            .file_type()
            .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
        if kind.is_dir() {
            walk(&path, &rel, out)?;
        } else if kind.is_file() {
            out.push((rel, path));
        }
    }
    Ok(())
}

/// Writes through a temporary file beside `target`, renamed into place when complete.
fn write_atomically(
    target: &Path,
    write: impl FnOnce(
        std::io::BufWriter<std::fs::File>,
    ) -> godot_serde::Result<std::io::BufWriter<std::fs::File>>,
) -> Result<(), Failure> {
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp)
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", tmp.display())))?;
    let result = write(std::io::BufWriter::new(file)).and_then(|w| {
        w.into_inner()
            .map_err(|e| godot_serde::Error::from(e.into_error()))
            .and_then(|f| f.sync_all().map_err(godot_serde::Error::from))
    });
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(failure(&e));
    }
    std::fs::rename(&tmp, target)
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", target.display())))
}

/// `pck pack`.
pub fn pack(args: &PackArgs, ui: &Ui) -> Result<(), Failure> {
    let format: PackFormat = args
        .format
        .ok_or_else(|| Failure::usage("give --format v1|v2|v3"))?
        .into();
    let key = key(args.key.as_deref())?;
    let settings = Settings {
        format,
        version: args.write.engine.unwrap_or(default_version(format)),
        alignment: args.write.alignment,
        encrypt_directory: args.write.encrypt_directory,
    };
    let options = options(&settings, key.as_ref())?;
    let mut files = Vec::new();
    walk(&args.dir, "", &mut files)?;
    let count = files.len();
    write_atomically(&args.output, |out| {
        let mut writer = PackWriter::new(out, options);
        for (rel, path) in files {
            writer.add_file_from_path(&rel, path, args.write.encrypt)?;
        }
        writer.finish()
    })?;
    ui.note(&format!(
        "{count} files packed into {} (pack {format}, engine {})",
        args.output.display(),
        settings.version
    ));
    Ok(())
}

fn settings_of(reader: &PackReader<BufReader<std::fs::File>>, write: &WriteArgs) -> Settings {
    let h = reader.header();
    let format = write.format.map_or(h.format, PackFormat::from);
    Settings {
        format,
        version: write.options.engine.unwrap_or(if format == h.format {
            h.version
        } else {
            default_version(format)
        }),
        alignment: write.options.alignment,
        encrypt_directory: write.options.encrypt_directory
            || (h.directory_encrypted() && format != PackFormat::V1),
    }
}

fn rewrite(
    pack: &PackIn,
    output: Option<&PathBuf>,
    write: &WriteArgs,
    changes: impl FnOnce(&PackReader<BufReader<std::fs::File>>) -> Result<Vec<Change>, Failure>,
    ui: &Ui,
) -> Result<(), Failure> {
    let (mut reader, key) = open(pack)?;
    let settings = settings_of(&reader, write);
    let options = options(&settings, key.as_ref())?;
    let changes = changes(&reader)?;
    let target = output.unwrap_or(&pack.pack).clone();
    write_atomically(&target, |out| {
        pck::patch(&mut reader, out, options, changes)
    })?;
    ui.note(&format!(
        "wrote {} (pack {}, engine {})",
        target.display(),
        settings.format,
        settings.version
    ));
    Ok(())
}

/// `pck add`.
pub fn add(args: &AddArgs, ui: &Ui) -> Result<(), Failure> {
    let base = args.directory.clone().unwrap_or_default();
    rewrite(
        &args.pack,
        args.output.as_ref(),
        &args.write,
        |_| {
            Ok(args
                .files
                .iter()
                .map(|f| Change::PutFile {
                    path: f.clone(),
                    from: base.join(f),
                    encrypt: args.write.options.encrypt,
                })
                .collect())
        },
        ui,
    )
}

/// `pck remove`.
pub fn remove(args: &RemoveArgs, ui: &Ui) -> Result<(), Failure> {
    rewrite(
        &args.pack,
        args.output.as_ref(),
        &args.write,
        |_| {
            Ok(args
                .paths
                .iter()
                .map(|p| {
                    if args.mark {
                        Change::MarkRemoved { path: p.clone() }
                    } else {
                        Change::Remove { path: p.clone() }
                    }
                })
                .collect())
        },
        ui,
    )
}
