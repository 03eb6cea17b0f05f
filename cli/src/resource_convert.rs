//! `resource convert`: a scene or resource file to another form, by the files' extensions
//! (`.res` / `.scn` binary; `.tres` / `.tscn` text once the text form is in), through the model
//! of `godot_serde::resource`.

use crate::Ui;
use crate::input::Failure;
use clap::Args;
use godot_serde::resource::{
    BinaryOptions, ResourceFile, ResourceFormat, read_binary_with_info, write_binary,
};
use std::path::{Path, PathBuf};

/// The largest input file read: 256 MiB.
const MAX_INPUT: u64 = 256 << 20;

/// `resource convert IN -o OUT`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The input file (.res, .scn).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The output file (.res, .scn); written through a temporary file.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// The engine of the output (3 or 4): its layout (binary format version 3 for Godot 3,
    /// 6 for Godot 4.6). Must be the input's: class and property names differ between the
    /// engines, which a conversion does not rename. Default: the input's engine and header.
    #[arg(long, value_name = "3|4", value_parser = clap::value_parser!(u8).range(3..=4))]
    pub godot: Option<u8>,
    /// The engine version written in a binary header, e.g. 4.2 (format version 4 for 4.0 and
    /// 4.1, 5 for 4.2, 6 for 4.3 and later; 3 for 3.x).
    #[arg(long, value_name = "MAJOR.MINOR")]
    pub engine: Option<String>,
    /// Compress the binary output (RSCC, as ResourceSaver.FLAG_COMPRESS).
    #[arg(long)]
    pub compress: bool,
}

enum Form {
    Binary,
    Text,
}

fn form(path: &Path) -> Result<Form, Failure> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "res" | "scn" => Ok(Form::Binary),
        "tres" | "tscn" => Ok(Form::Text),
        _ => Err(Failure::usage(format!(
            "{}: unknown extension (.res and .scn are binary, .tres and .tscn text)",
            path.display()
        ))),
    }
}

fn text_unavailable(path: &Path) -> Failure {
    Failure::input(format!(
        "{}: text resources (.tres, .tscn) are not supported by this build's `resource convert` yet; binary ones (.res, .scn) are",
        path.display()
    ))
}

fn failure(path: &Path, e: &godot_serde::Error) -> Failure {
    Failure::input(format!("{}: {e}", path.display()))
}

/// `engine` as (major, minor) and the format version the engine writes.
fn engine_version(text: &str) -> Result<((u32, u32), u32), Failure> {
    let bad = || {
        Failure::usage(format!(
            "--engine {text}: expected MAJOR.MINOR, e.g. 4.6 or 3.2"
        ))
    };
    let (major, minor) = text.split_once('.').ok_or_else(bad)?;
    let minor = minor.split('.').next().unwrap_or(minor);
    let major: u32 = major.parse().map_err(|_| bad())?;
    let minor: u32 = minor.parse().map_err(|_| bad())?;
    let format = match (major, minor) {
        (3, _) => 3,
        (4, 0 | 1) => 4,
        (4, 2) => 5,
        (4, _) => 6,
        _ => return Err(bad()),
    };
    Ok(((major, minor), format))
}

/// `resource convert`.
pub fn convert(args: &ConvertArgs, ui: &Ui) -> Result<(), Failure> {
    let input_form = form(&args.input)?;
    let output_form = form(&args.output)?;
    let size = std::fs::metadata(&args.input)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.input.display())))?
        .len();
    if size > MAX_INPUT {
        return Err(Failure::input(format!(
            "{}: {size} bytes, over the limit of {MAX_INPUT} bytes",
            args.input.display()
        )));
    }
    let bytes = std::fs::read(&args.input)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.input.display())))?;
    let (file, mut options): (ResourceFile, BinaryOptions) = match input_form {
        Form::Binary => {
            let (file, info) =
                read_binary_with_info(&bytes).map_err(|e| failure(&args.input, &e))?;
            (file, info.options())
        }
        Form::Text => return Err(text_unavailable(&args.input)),
    };
    if let Some(godot) = args.godot {
        let wanted = if godot == 3 {
            ResourceFormat::Godot3
        } else {
            ResourceFormat::Godot4
        };
        if wanted != file.format {
            return Err(Failure::input(format!(
                "{} is a Godot {} file; --godot {godot} would need its classes and properties renamed, which convert does not do",
                args.input.display(),
                if file.format == ResourceFormat::Godot3 {
                    3
                } else {
                    4
                }
            )));
        }
    }
    if let Some(engine) = &args.engine {
        let (version, format) = engine_version(engine)?;
        options = options
            .with_engine(version.0, version.1)
            .with_format_version(format);
    }
    options = options.with_compression(args.compress);
    let out = match output_form {
        Form::Binary => write_binary(&file, &options).map_err(|e| failure(&args.output, &e))?,
        Form::Text => return Err(text_unavailable(&args.output)),
    };
    let mut tmp = args.output.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, &out)
        .and_then(|()| std::fs::rename(&tmp, &args.output))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Failure::input(format!("cannot write {}: {e}", args.output.display()))
        })?;
    ui.note(&format!(
        "{} ({}) written: {} bytes, engine {}.{}, format version {}{}",
        args.output.display(),
        file.class,
        out.len(),
        options.engine.0,
        options.engine.1,
        options.format_version,
        if args.compress { ", compressed" } else { "" }
    ));
    Ok(())
}
