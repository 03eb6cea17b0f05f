//! `resource convert`: a scene or resource file to another form, by the files' extensions
//! (`.res` / `.scn` binary, `.tres` / `.tscn` text, either way), through the model of
//! `godot_serde::resource` and its conversion (`ResourceFile::to_text`, `write_binary`).

use crate::Ui;
use crate::input::Failure;
use clap::Args;
use godot_serde::GodotVersion;
use godot_serde::resource::{
    BinaryInfo, BinaryOptions, ResourceFile, ResourceFormat, read_binary_with_info, write_binary,
    write_text,
};
use std::path::{Path, PathBuf};

/// The largest input file read: 256 MiB.
const MAX_INPUT: u64 = 256 << 20;

/// `resource convert IN -o OUT`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The input file (.res, .scn binary; .tres, .tscn text).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The output file (.res, .scn binary; .tres, .tscn text); written through a temporary
    /// file.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// The engine of the output (3 or 4): its layout (binary format version 3 for Godot 3,
    /// 6 for Godot 4.6; text format=2 for Godot 3, 3 or 4 for Godot 4). Must be the input's:
    /// class and property names differ between the engines, which a conversion does not
    /// rename. Default: the input's engine (and a binary input's header).
    #[arg(long, value_name = "3|4", value_parser = clap::value_parser!(u8).range(3..=4))]
    pub godot: Option<u8>,
    /// The engine version the output is for, e.g. 4.2: in a binary header (format version 4
    /// for 4.0 and 4.1, 5 for 4.2, 6 for 4.3 and later; 3 for 3.x); for text, the saver's
    /// layout (4.3 and later write format=4 when a value needs it, 4.5 and later spell
    /// floats shortest). Default: a binary input's header, else 4.6 (or 3.2).
    #[arg(long, value_name = "MAJOR.MINOR")]
    pub engine: Option<String>,
    /// Compress the binary output (RSCC, as ResourceSaver.FLAG_COMPRESS); not for text.
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

/// The text layout of engine `major.minor` (Godot 3 for 3.x).
fn text_version(engine: (u32, u32)) -> GodotVersion {
    match engine {
        (3, _) => GodotVersion::V3,
        (4, 0..=2) => GodotVersion::V4_0,
        (4, 3) => GodotVersion::V4_3,
        (4, 4) => GodotVersion::V4_4,
        _ => GodotVersion::V4_5,
    }
}

/// `resource convert`.
pub fn convert(args: &ConvertArgs, ui: &Ui) -> Result<(), Failure> {
    let input_form = form(&args.input)?;
    let output_form = form(&args.output)?;
    if args.compress && matches!(output_form, Form::Text) {
        return Err(Failure::usage(format!(
            "--compress: {} is a text file; only a binary one (.res, .scn) is compressed",
            args.output.display()
        )));
    }
    // Refused before it is read: binary files up to 256 MiB, text up to the text limit.
    let (file, info): (ResourceFile, Option<BinaryInfo>) = match input_form {
        Form::Binary => {
            let size = std::fs::metadata(&args.input)
                .map_err(|e| Failure::input(format!("cannot read {}: {e}", args.input.display())))?
                .len();
            if size > MAX_INPUT {
                return Err(Failure::input(format!(
                    "{}: {size} bytes, over the limit of {MAX_INPUT} bytes",
                    args.input.display()
                )));
            }
            let bytes = std::fs::read(&args.input).map_err(|e| {
                Failure::input(format!("cannot read {}: {e}", args.input.display()))
            })?;
            let (file, info) =
                read_binary_with_info(&bytes).map_err(|e| failure(&args.input, &e))?;
            (file, Some(info))
        }
        Form::Text => (crate::resource::load(&args.input)?, None),
    };
    let godot3 = file.format == ResourceFormat::Godot3;
    if let Some(godot) = args.godot {
        if (godot == 3) != godot3 {
            return Err(Failure::input(format!(
                "{} is a Godot {} file; --godot {godot} would need its classes and properties renamed, which convert does not do",
                args.input.display(),
                if godot3 { 3 } else { 4 }
            )));
        }
    }
    let mut options = match &info {
        Some(info) => info.options(),
        None if godot3 => BinaryOptions::godot3(),
        None => BinaryOptions::godot4(),
    };
    if let Some(engine) = &args.engine {
        let (version, format) = engine_version(engine)?;
        if (version.0 == 3) != godot3 {
            return Err(Failure::input(format!(
                "--engine {engine}: {} is a Godot {} file",
                args.input.display(),
                if godot3 { 3 } else { 4 }
            )));
        }
        options = options
            .with_engine(version.0, version.1)
            .with_format_version(format);
    }
    options = options.with_compression(args.compress);
    let (out, what) = match output_form {
        Form::Binary => (
            // From text, as the engine's binary saver writes a resource loaded from text; a
            // binary file keeps its own properties.
            match input_form {
                Form::Text => file.to_binary(&options),
                Form::Binary => write_binary(&file, &options),
            }
            .map_err(|e| failure(&args.output, &e))?,
            format!(
                "engine {}.{}, format version {}{}",
                options.engine.0,
                options.engine.1,
                options.format_version,
                if args.compress { ", compressed" } else { "" }
            ),
        ),
        Form::Text => {
            let version = text_version(options.engine);
            // From binary, the ids the engine's text saver gives; a text file keeps its own.
            let text = match input_form {
                Form::Binary => file.to_text(version),
                Form::Text => write_text(&file, version),
            };
            (
                text.into_bytes(),
                format!("text for Godot {}.{}", options.engine.0, options.engine.1),
            )
        }
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
        "{} ({}) written: {} bytes, {what}",
        args.output.display(),
        file.class,
        out.len(),
    ));
    Ok(())
}
