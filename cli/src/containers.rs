//! Encrypted (`GDEC`) and compressed (`GCPF`) files: the `decrypt`, `encrypt`, `decompress`
//! and `compress` commands, and the unwrapping `inspect` and `convert` do before reading.

use crate::input::{self, Failure, Source};
use crate::{CompressArgs, CryptArgs, DecompressArgs, KeyArgs, Ui};
use godot_serde::container::{self, CompressionMode, Key, Layout, Limits, Magic, Wrapping};
use std::io::{self, Read, Write};

impl KeyArgs {
    /// The key given, if any.
    pub fn key(&self) -> Result<Option<Key>, Failure> {
        if let Some(pw) = &self.password {
            return Ok(Some(Key::from_password(pw)));
        }
        let Some(hex) = &self.key else {
            return Ok(None);
        };
        let bytes = input::parse_hex(hex)?;
        Key::from_slice(&bytes)
            .map(Some)
            .map_err(|e| Failure::usage(format!("--key: {}", e.kind())))
    }
}

/// A container failure, with a hint for a wrong key.
fn failure(e: &godot_serde::Error) -> Failure {
    let f = Failure::input(e.to_string());
    match e.kind() {
        godot_serde::ErrorKind::WrongKey => {
            f.detail("check --password or --key (the file may also be corrupt)")
        }
        _ => f,
    }
}

/// Reads all of `reader` (a container is read whole, as Godot does).
fn read_all(mut reader: Box<dyn Read>) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("cannot read the input: {e}")))?;
    Ok(bytes)
}

/// Takes the plain bytes out of an encrypted or compressed input (told by its magic, with a
/// note saying so); other input is given back as it is. Returns how it was wrapped.
pub fn unwrap_input(
    src: Source,
    key: &KeyArgs,
    limits: &Limits,
    ui: &Ui,
) -> Result<(Source, Wrapping), Failure> {
    let (head, src) = match src {
        Source::Bytes(bytes) => (
            bytes.get(..4).unwrap_or_default().to_vec(),
            Source::Bytes(bytes),
        ),
        Source::Reader(mut r) => {
            let mut head = Vec::new();
            (&mut r)
                .take(4)
                .read_to_end(&mut head)
                .map_err(|e| Failure::input(format!("cannot read the input: {e}")))?;
            let chained: Box<dyn Read> = Box::new(io::Cursor::new(head.clone()).chain(r));
            (head, Source::Reader(chained))
        }
    };
    if container::detect(&head) == Magic::None {
        if key.password.is_some() || key.key.is_some() {
            ui.warn(
                "--password/--key given, but the input is not an encrypted file (no GDEC magic)",
            );
        }
        return Ok((src, Wrapping::Plain));
    }
    let bytes = match src {
        Source::Bytes(bytes) => bytes,
        Source::Reader(r) => read_all(r)?,
    };
    let key = key.key()?;
    if container::detect(&bytes) == Magic::Encrypted && key.is_none() {
        return Err(Failure::usage(
            "the input is an encrypted file (GDEC magic): give --password or --key",
        ));
    }
    let opened = container::open(&bytes, key.as_ref(), limits).map_err(|e| failure(&e))?;
    ui.note(&format!(
        "{}: {} bytes inside",
        opened.wrapping,
        opened.data.len()
    ));
    Ok((Source::Bytes(opened.data), opened.wrapping))
}

/// Writes `bytes` to `-o FILE` or stdout.
fn write_out(output: Option<&str>, bytes: &[u8], stdout: &mut dyn Write) -> Result<(), Failure> {
    match output {
        Some(path) if path != "-" => std::fs::write(path, bytes)
            .map_err(|e| Failure::input(format!("cannot write {path}: {e}"))),
        _ => stdout
            .write_all(bytes)
            .map_err(|e| Failure::input(format!("cannot write the output: {e}"))),
    }
}

fn read_input(file: Option<&str>) -> Result<Vec<u8>, Failure> {
    read_all(input::open(file)?)
}

/// `decrypt`.
pub fn decrypt(args: &CryptArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let key = args
        .key
        .key()?
        .ok_or_else(|| Failure::usage("give --password or --key"))?;
    let bytes = read_input(args.file.as_deref())?;
    let header = container::EncryptedHeader::parse(&bytes).map_err(|e| failure(&e))?;
    let plain = container::decrypt_with_header(&bytes, &header, &key).map_err(|e| failure(&e))?;
    ui.note(&format!(
        "{}: {} bytes decrypted, MD5 checked",
        Wrapping::Encrypted(header.layout),
        plain.len()
    ));
    write_out(args.output.as_deref(), &plain, stdout)
}

/// `encrypt`.
pub fn encrypt(args: &CryptArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let key = args
        .key
        .key()?
        .ok_or_else(|| Failure::usage("give --password or --key"))?;
    let bytes = read_input(args.file.as_deref())?;
    let layout = if args.godot3 {
        Layout::Godot3
    } else {
        Layout::Godot4
    };
    let file = container::encrypt(&bytes, &key, layout).map_err(|e| failure(&e))?;
    ui.note(&format!(
        "{}: {} bytes encrypted",
        Wrapping::Encrypted(layout),
        bytes.len()
    ));
    write_out(args.output.as_deref(), &file, stdout)
}

fn mode(name: &str) -> Result<CompressionMode, Failure> {
    CompressionMode::from_name(name).ok_or_else(|| {
        Failure::usage(format!(
            "unknown compression mode {name:?} (fastlz, deflate, zstd, gzip, brotli)"
        ))
    })
}

/// `decompress`.
pub fn decompress(args: &DecompressArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let bytes = read_input(args.file.as_deref())?;
    let limits = Limits::new().with_max_size(args.max_size);
    let plain = match &args.mode {
        // A PackedByteArray.compress() stream.
        Some(name) => {
            let mode = mode(name)?;
            let plain =
                container::decompress(&bytes, mode, args.max_size).map_err(|e| failure(&e))?;
            ui.note(&format!(
                "{mode} stream: {} bytes decompressed",
                plain.len()
            ));
            plain
        }
        None => {
            let header = container::CompressedHeader::parse(&bytes).map_err(|e| failure(&e))?;
            let plain = container::read_compressed(&bytes, &limits).map_err(|e| failure(&e))?;
            ui.note(&format!(
                "{}: {} blocks, {} bytes decompressed",
                Wrapping::Compressed {
                    mode: header.mode,
                    block_size: header.block_size
                },
                header.block_count(),
                plain.len()
            ));
            plain
        }
    };
    write_out(args.output.as_deref(), &plain, stdout)
}

/// `compress`.
pub fn compress(args: &CompressArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let bytes = read_input(args.file.as_deref())?;
    let mode = mode(&args.mode)?;
    let out = if args.stream {
        container::compress(&bytes, mode)
    } else {
        container::write_compressed(&bytes, mode, args.block_size)
    }
    .map_err(|e| failure(&e))?;
    ui.note(&format!(
        "{} bytes compressed to {} ({})",
        bytes.len(),
        out.len(),
        if args.stream {
            format!("{mode} stream")
        } else {
            Wrapping::Compressed {
                mode,
                block_size: args.block_size,
            }
            .to_string()
        }
    ));
    write_out(args.output.as_deref(), &out, stdout)
}

/// Wraps `convert`'s output as its input was wrapped (an encrypted file in the Godot 4
/// layout, a compressed one in the same mode).
pub fn rewrap(bytes: &[u8], wrapping: &Wrapping, key: &KeyArgs) -> Result<Vec<u8>, Failure> {
    let wrapping = match *wrapping {
        Wrapping::Encrypted(_) => Wrapping::Encrypted(Layout::Godot4),
        other => other,
    };
    container::seal(bytes, &wrapping, key.key()?.as_ref()).map_err(|e| failure(&e))
}
