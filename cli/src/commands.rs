//! The `inspect`, `encode` and `convert` commands.

use crate::escape::{self, Form, printed};
use crate::input::{self, Failure, Kind, Source};
use crate::json;
use crate::{ConvertArgs, EncodeArgs, InspectArgs, SourceArgs, Ui};
use base64::Engine as _;
use godot_serde::frame::{Framing, PREFIX_LEN};
use godot_serde::{Config, GodotVersion, Variant, dump};
use std::io::{self, Read, Write};

/// A write error: a closed pipe ends the command quietly, anything else is exit code 1.
fn wr(r: io::Result<()>) -> Result<(), Failure> {
    r.map_err(|e| {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure {
                code: 0,
                message: String::new(),
                details: Vec::new(),
            }
        } else {
            Failure::input(format!("cannot write the output: {e}"))
        }
    })
}

/// The input of `inspect` and `convert`: bytes in memory or a reader.
fn source(args: &SourceArgs) -> Result<Source, Failure> {
    if let Some(hex) = &args.hex {
        return Ok(Source::Bytes(input::parse_hex(&text_arg(hex)?)?));
    }
    if let Some(b64) = &args.base64 {
        return Ok(Source::Bytes(input::parse_base64(&text_arg(b64)?)?));
    }
    Ok(Source::Reader(input::open(args.file.as_deref())?))
}

/// The text of `--hex` / `--base64`: the argument, or stdin for `-`.
fn text_arg(arg: &str) -> Result<String, Failure> {
    if arg != "-" {
        return Ok(arg.to_owned());
    }
    let mut text = String::new();
    io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure::input(format!("cannot read the text on stdin: {e}")))?;
    Ok(text)
}

/// Settles the kind of the input: given, or guessed from the bytes (with a note). A reader
/// is read up to the maximum frame size to guess; longer input is taken as a stream.
///
/// Input in memory is first checked against the engine (see [`choose_engine`]); `framing`
/// is then the one that fits.
fn settle(
    source: Source,
    given: Option<Kind>,
    framing: &mut Framing,
    max: usize,
    engine: Engine,
    ui: &Ui,
) -> Result<(Kind, Source), Failure> {
    match (given, source) {
        (Some(kind), Source::Reader(mut r)) if !kind.framed() => {
            let (bytes, ended) = input::read_up_to(&mut r, max)?;
            if !ended {
                return Err(Failure::input(format!(
                    "the input is larger than the maximum of {max} bytes for one value (--max-frame-size)"
                )));
            }
            choose_engine(&bytes, given, framing, engine, ui)?;
            Ok((kind, Source::Bytes(bytes)))
        }
        (Some(kind), Source::Bytes(bytes)) => {
            choose_engine(&bytes, given, framing, engine, ui)?;
            Ok((kind, Source::Bytes(bytes)))
        }
        (Some(kind), source) => Ok((kind, source)),
        (None, Source::Bytes(bytes)) if bytes.is_empty() => {
            Err(Failure::input("the input is empty"))
        }
        (None, Source::Bytes(bytes)) => {
            choose_engine(&bytes, given, framing, engine, ui)?;
            let (kind, why) = input::detect(&bytes, *framing);
            ui.note(&why);
            Ok((kind, Source::Bytes(bytes)))
        }
        (None, Source::Reader(mut r)) => {
            let (bytes, ended) = input::read_up_to(&mut r, max)?;
            if bytes.is_empty() {
                return Err(Failure::input("the input is empty"));
            }
            if ended {
                choose_engine(&bytes, given, framing, engine, ui)?;
                let (kind, why) = input::detect(&bytes, *framing);
                ui.note(&why);
                Ok((kind, Source::Bytes(bytes)))
            } else {
                ui.note(&format!(
                    "assumed --stream: the input is longer than {max} bytes, too long for one value"
                ));
                Ok((
                    Kind::Stream,
                    Source::Reader(Box::new(io::Cursor::new(bytes).chain(r))),
                ))
            }
        }
    }
}

/// What `inspect` prints; `escape`: control characters as `\uXXXX` ([`escape::escapes`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Dump,
    /// Godot's text form.
    Text {
        escape: bool,
    },
    /// The JSON mapping.
    Json {
        escape: bool,
    },
    /// Godot 4's `JSON.stringify(JSON.from_native(v, full_objects))`.
    JsonNative {
        escape: bool,
    },
}

/// Whether the engine was given on the command line or is the default.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Given (`--godot3`, `--godot4.3`, `--engine`, ...): never changed.
    Given,
    /// Fixed by the command (`convert` reads Godot 3): never changed, no hint.
    Fixed,
    /// The default (Godot 4.5+): input that reads exactly in another engine only is read in
    /// that one, with a note.
    Default,
}

/// The other engine layouts, in the order they are tried, with their flags.
fn other_engines(version: GodotVersion) -> impl Iterator<Item = (GodotVersion, &'static str)> {
    [
        (GodotVersion::V3, "--godot3"),
        (GodotVersion::V4_5, "--godot4"),
        (GodotVersion::V4_3, "--godot4.3"),
        (GodotVersion::V4_0, "--godot4.0"),
    ]
    .into_iter()
    .filter(move |(v, _)| *v != version)
}

/// The first other engine layout that reads `bytes` exactly as one value (Godot 3 against 4,
/// or another Godot 4 version), with its flag.
fn other_engine(bytes: &[u8], config: Config) -> Option<(GodotVersion, &'static str)> {
    other_engines(config.version()).find(|(version, _)| {
        config
            .with_version(*version)
            .variant_from_bytes(bytes)
            .is_ok()
    })
}

/// Prints a hint when another engine layout reads exactly the bytes this one does not,
/// once per command.
fn engine_hint(bytes: &[u8], config: Config, ui: &Ui, hinted: &mut bool) {
    if *hinted {
        return;
    }
    if let Some((version, flag)) = other_engine(bytes, config) {
        ui.hint(&format!(
            "these bytes decode as Godot {version}: try {flag}"
        ));
        *hinted = true;
    }
}

/// Whether all of `bytes` read in `framing` as `given` (or, not given, as one value or as
/// length-prefixed frames), every value decoding. With `prefix`, one value followed by other
/// bytes fits too (`bytes_to_var` ignores them; `inspect` warns).
fn fits(bytes: &[u8], given: Option<Kind>, framing: Framing, prefix: bool) -> bool {
    let config = framing.config();
    let raw = || match prefix {
        true => config.take_variant_from_bytes(bytes).is_ok(),
        false => config.variant_from_bytes(bytes).is_ok(),
    };
    match given {
        Some(Kind::Raw) => raw(),
        Some(Kind::Packet) => framing.from_packet::<Variant>(bytes).is_ok(),
        Some(Kind::Stream | Kind::Save) => input::frame_chain(bytes, framing).1,
        None => raw() || input::frame_chain(bytes, framing).1,
    }
}

/// Checks input held in memory against the engine before anything is printed: when it does
/// not read in `framing`'s engine but reads exactly in another, a default engine is switched
/// to that one (with a note), and a given one is an error with the hint, so that no dump of
/// misread values comes first.
fn choose_engine(
    bytes: &[u8],
    given: Option<Kind>,
    framing: &mut Framing,
    engine: Engine,
    ui: &Ui,
) -> Result<(), Failure> {
    // A given engine stands when it reads a value followed by other bytes; the default
    // gives way to an engine that reads the bytes exactly.
    let prefix = engine != Engine::Default;
    if engine == Engine::Fixed || bytes.is_empty() || fits(bytes, given, *framing, prefix) {
        return Ok(());
    }
    let config = framing.config();
    let Some((version, flag)) = other_engines(config.version()).find(|(v, _)| {
        fits(
            bytes,
            given,
            framing.with_config(config.with_version(*v)),
            false,
        )
    }) else {
        return Ok(());
    };
    let ours = config.version();
    match engine {
        Engine::Default => {
            ui.note(&format!(
                "read as Godot {version} ({flag}): the bytes do not decode as Godot {ours}, \
                 the default, and read exactly as Godot {version} (give --godot4 to insist)"
            ));
            *framing = framing.with_config(config.with_version(version));
            Ok(())
        }
        Engine::Given | Engine::Fixed => {
            ui.error(&Failure::input(format!(
                "the bytes do not decode as Godot {ours}, and read exactly as Godot {version}"
            )));
            ui.hint(&format!(
                "these bytes decode as Godot {version}: try {flag}"
            ));
            Err(silent())
        }
    }
}

/// `inspect`.
pub fn inspect(args: &InspectArgs, out: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    let config = args
        .engine
        .config()
        .with_allow_objects(args.allow_objects)
        .with_max_depth(args.max_depth);
    let mut framing = Framing::new(config)
        .with_max_frame_size(args.max_frame_size)
        .with_big_endian(args.kind.big_endian);
    let escapes = |form| {
        use std::io::IsTerminal as _;
        escape::escapes(form, args.escape, io::stdout().is_terminal())
    };
    let output = if args.text {
        Output::Text {
            escape: escapes(Form::Text),
        }
    } else if args.json {
        Output::Json {
            escape: escapes(Form::Json),
        }
    } else if args.json_native {
        Output::JsonNative {
            escape: escapes(Form::Json),
        }
    } else {
        Output::Dump
    };
    let engine = if args.engine.given() {
        Engine::Given
    } else {
        Engine::Default
    };
    let src = source(&args.source)?;
    let (src, _) = crate::containers::unwrap_input(
        src,
        &args.key,
        &godot_serde::container::Limits::new(),
        ui,
    )?;
    let (kind, src) = settle(
        src,
        args.kind.kind(),
        &mut framing,
        args.max_frame_size,
        engine,
        ui,
    )?;
    let mut config = framing.config();
    let mut hinted = false;
    if !kind.framed() {
        let Source::Bytes(bytes) = src else {
            return Err(Failure::input("internal: unread input"));
        };
        return inspect_one(&bytes, kind, framing, output, out, ui, &mut hinted);
    }
    let mut reader: Box<dyn Read> = match src {
        Source::Bytes(bytes) => Box::new(io::Cursor::new(bytes)),
        Source::Reader(r) => r,
    };
    let mut offset = 0usize;
    let mut index = 0usize;
    let mut failed: Option<Failure> = None;
    let unit = kind.unit();
    loop {
        let payload = match framing.read_payload(&mut reader) {
            Ok(Some(p)) => p,
            Ok(None) => break,
            Err(e) => {
                wr(out.flush())?;
                let at = offset + e.offset().unwrap_or(0);
                let f = Failure::input(format!(
                    "{unit} {index} at byte {offset}: {} at byte {at}",
                    e.kind()
                ));
                if output == Output::Dump {
                    wr(writeln!(out, "!! {} at byte {at}", e.kind()))?;
                }
                ui.error(&f);
                byte_order_hint(&e, framing, ui);
                failed = Some(f);
                break;
            }
        };
        let base = offset + PREFIX_LEN;
        let mut decoded = framing.decode_payload::<Variant>(&payload);
        // A frame that reads exactly in another engine only: before any frame was shown,
        // the default engine switches to it; otherwise its misread dump is left out.
        let mut misread = false;
        let other = match decoded {
            Err(_) => other_engine(&payload, config),
            Ok(_) => None,
        };
        if let Some((version, flag)) = other {
            if engine == Engine::Default && index == 0 {
                ui.note(&format!(
                    "read as Godot {version} ({flag}): {unit} 0 does not decode as Godot {}, \
                     the default, and reads exactly as Godot {version} (give --godot4 to insist)",
                    config.version()
                ));
                config = config.with_version(version);
                framing = framing.with_config(config);
                decoded = framing.decode_payload::<Variant>(&payload);
            } else {
                engine_hint(&payload, config, ui, &mut hinted);
                misread = true;
            }
        }
        match output {
            Output::Dump if misread => {}
            Output::Dump => {
                let prefix = framing.encode_prefix(payload.len()).unwrap_or_default();
                let header = format!(
                    "{:<11}  {unit} {index} at byte {offset}, length {}",
                    spaced(&prefix),
                    payload.len()
                );
                wr(writeln!(out, "{}", ui.dump_line(&header, true)))?;
                for line in dump::annotate(&payload, config).lines() {
                    let line = match line.split_at_checked(13) {
                        Some((cells, what)) if !line.starts_with("!!") => {
                            format!("{cells}  {what}")
                        }
                        // `!!` lines give offsets in the frame: make them offsets in the input.
                        _ => match line
                            .rsplit_once(" at byte ")
                            .and_then(|(msg, n)| Some((msg, n.parse::<usize>().ok()?)))
                        {
                            Some((msg, n)) => format!("{msg} at byte {}", base + n),
                            None => line.to_owned(),
                        },
                    };
                    wr(writeln!(out, "{}", ui.dump_line(&line, false)))?;
                }
            }
            Output::Text { escape } => {
                if let Ok(v) = &decoded {
                    let text = godot_serde::text::variant_to_string_with(v, config);
                    wr(writeln!(out, "{}", printed(&text, Form::Text, escape)))?;
                }
            }
            Output::Json { escape } => {
                if let Ok(v) = &decoded {
                    let line = serde_json::to_string(&json::to_json(v))
                        .map_err(|e| Failure::input(format!("JSON output: {e}")))?;
                    wr(writeln!(out, "{}", printed(&line, Form::Json, escape)))?;
                }
            }
            Output::JsonNative { escape } => {
                if let Ok(v) = &decoded {
                    let line = godot_serde::json::variant_to_string(v, config)
                        .map_err(|e| json_native_failure(&format!("{unit} {index}"), &e))?;
                    wr(writeln!(out, "{}", printed(&line, Form::Json, escape)))?;
                }
            }
        }
        // Each frame is written as soon as it is read (a live stream shows up as it arrives).
        wr(out.flush())?;
        if let Err(e) = decoded {
            let f = input::decode_failure(&format!("{unit} {index}"), &e, &payload, base);
            ui.error(&f);
            engine_hint(&payload, config, ui, &mut hinted);
            failed.get_or_insert(f);
        }
        offset = base + payload.len();
        index += 1;
    }
    if index == 0 && failed.is_none() {
        ui.warn(&format!("the input holds no {unit}s"));
    }
    match failed {
        // Already reported above: exit 1 without printing it again.
        Some(_) => Err(silent()),
        None => Ok(()),
    }
}

/// A hint when a frame length over the maximum fits in the other byte order
/// (`StreamPeer.big_endian` set on one side only).
fn byte_order_hint(e: &godot_serde::Error, framing: Framing, ui: &Ui) {
    let godot_serde::ErrorKind::FrameTooLarge { len, .. } = e.kind() else {
        return;
    };
    let Ok(len) = u32::try_from(*len) else {
        return;
    };
    let swapped = len.swap_bytes() as usize;
    if (4..=framing.max_frame_size()).contains(&swapped) {
        let flag = match framing.endian() {
            godot_serde::frame::Endian::Little => "try --big-endian",
            _ => "try without --big-endian",
        };
        ui.hint(&format!(
            "in the other byte order the length prefix is {swapped}: {flag}"
        ));
    }
}

/// `inspect` of one value (`--raw`, `--packet`).
fn inspect_one(
    bytes: &[u8],
    kind: Kind,
    framing: Framing,
    output: Output,
    out: &mut dyn Write,
    ui: &Ui,
    hinted: &mut bool,
) -> Result<(), Failure> {
    let config = framing.config();
    let decoded: Result<(Variant, usize), godot_serde::Error> = if kind == Kind::Packet {
        framing.from_packet::<Variant>(bytes).map(|v| (v, 0))
    } else {
        config
            .take_variant_from_bytes(bytes)
            .map(|(v, rest)| (v, rest.len()))
    };
    match (&decoded, output) {
        (_, Output::Dump) => {
            for line in dump::annotate(bytes, config).lines() {
                wr(writeln!(out, "{}", ui.dump_line(line, false)))?;
            }
        }
        (Ok((v, _)), Output::Text { escape }) => {
            let text = godot_serde::text::variant_to_string_with(v, config);
            wr(writeln!(out, "{}", printed(&text, Form::Text, escape)))?;
        }
        (Ok((v, _)), Output::Json { escape }) => {
            let text = serde_json::to_string_pretty(&json::to_json(v))
                .map_err(|e| Failure::input(format!("JSON output: {e}")))?;
            wr(writeln!(out, "{}", printed(&text, Form::Json, escape)))?;
        }
        (Ok((v, _)), Output::JsonNative { escape }) => {
            let text = godot_serde::json::variant_to_string_pretty(v, config)
                .map_err(|e| json_native_failure("value", &e))?;
            wr(writeln!(out, "{}", printed(&text, Form::Json, escape)))?;
        }
        (Err(_), _) => {}
    }
    match decoded {
        Ok((_, 0)) => Ok(()),
        Ok((_, trailing)) => {
            ui.warn(&format!(
                "{trailing} trailing bytes after the value, from byte {} (bytes_to_var ignores them)",
                bytes.len() - trailing
            ));
            engine_hint(bytes, config, ui, hinted);
            Ok(())
        }
        Err(e) => {
            wr(out.flush())?;
            let what = if kind == Kind::Packet {
                "packet"
            } else {
                "value"
            };
            let f = input::decode_failure(what, &e, bytes, 0);
            ui.error(&f);
            engine_hint(bytes, config, ui, hinted);
            Err(silent())
        }
    }
}

/// A value `JSON.from_native` cannot write (the engine would log an error and write null).
fn json_native_failure(what: &str, e: &godot_serde::Error) -> Failure {
    let mut f = Failure::input(format!("{what} has no JSON.from_native form: {e}"));
    if matches!(e.kind(), godot_serde::ErrorKind::ObjectsNotAllowed { .. }) {
        f.details.push(
            "with --allow-objects objects are written with their properties (full_objects)"
                .to_owned(),
        );
    }
    f
}

/// Exit code 1 for an error already reported.
fn silent() -> Failure {
    Failure {
        code: 1,
        message: String::new(),
        details: Vec::new(),
    }
}

/// `02 00 00 00`.
fn spaced(word: &[u8]) -> String {
    word.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where encoded output goes: stdout or a file, raw bytes or hex / base64 lines.
struct Sink<'a> {
    out: Box<dyn Write + 'a>,
    hex: bool,
    base64: bool,
    written: usize,
}

impl<'a> Sink<'a> {
    fn new(
        file: Option<&str>,
        stdout: &'a mut dyn Write,
        hex: bool,
        base64: bool,
    ) -> Result<Self, Failure> {
        let out: Box<dyn Write + 'a> = match file {
            Some(path) if path != "-" => match std::fs::File::create(path) {
                Ok(f) => Box::new(io::BufWriter::new(f)),
                Err(e) => return Err(Failure::input(format!("cannot create {path}: {e}"))),
            },
            _ => {
                use std::io::IsTerminal as _;
                if !hex && !base64 && io::stdout().is_terminal() {
                    return Err(Failure::usage(
                        "refusing to write binary data to a terminal: use --hex, --base64, -o FILE or a pipe",
                    ));
                }
                Box::new(stdout)
            }
        };
        Ok(Sink {
            out,
            hex,
            base64,
            written: 0,
        })
    }

    /// Writes one unit (a value or a frame); `b64` is its base64 text if already made.
    fn unit(&mut self, bytes: &[u8], b64: Option<String>) -> Result<(), Failure> {
        self.written += bytes.len();
        if self.hex {
            wr(writeln!(self.out, "{}", dump::hex(bytes)))
        } else if self.base64 {
            let text =
                b64.unwrap_or_else(|| base64::engine::general_purpose::STANDARD.encode(bytes));
            wr(writeln!(self.out, "{text}"))
        } else {
            wr(self.out.write_all(bytes))
        }
    }

    fn finish(mut self) -> Result<usize, Failure> {
        wr(self.out.flush())?;
        Ok(self.written)
    }
}

/// `encode`.
pub fn encode(args: &EncodeArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    if args.double_precision && !args.engine.version().is_godot4() {
        return Err(Failure::usage(
            "--double-precision is a Godot 4 layout (Godot 3 has no 64-bit math types)",
        ));
    }
    // With --allow-objects the output is `var_to_bytes_with_objects`: a container typed with a
    // class or script keeps its class (without, the engine writes `EncodedObjectAsID`).
    let config = args
        .engine
        .config()
        .with_double_precision(args.double_precision)
        .with_allow_objects(args.allow_objects);
    let framing = Framing::new(config).with_big_endian(args.kind.big_endian);
    let kind = args.kind.kind().unwrap_or(Kind::Raw);
    let reader: Box<dyn Read> = match &args.expr {
        Some(text) => Box::new(io::Cursor::new(text.clone().into_bytes())),
        None => input::open(args.file.as_deref())?,
    };
    let mut sink = Sink::new(args.output.as_deref(), stdout, args.hex, args.base64)?;
    let mut count = 0usize;
    let mut emit = |variant: Variant, count: usize| -> Result<(), Failure> {
        if count > 0 && !kind.framed() {
            return Err(Failure::input(
                "the input holds more than one value; --raw and --packet write one value: use --stream or --save for several",
            ));
        }
        let enc = |r: godot_serde::Result<Vec<u8>>| {
            r.map_err(|e| {
                Failure::input(format!(
                    "value {count} cannot be encoded for Godot {}: {}",
                    config.version(),
                    e.kind()
                ))
            })
        };
        match kind {
            Kind::Raw => {
                let bytes = enc(config.to_bytes(&variant))?;
                let b64 = match args.base64 {
                    // Exactly Marshalls.variant_to_base64.
                    true => Some(
                        godot_serde::marshalls::to_base64(&variant, config)
                            .map_err(|e| Failure::input(format!("value {count}: {}", e.kind())))?,
                    ),
                    false => None,
                };
                sink.unit(&bytes, b64)
            }
            Kind::Packet => sink.unit(&enc(framing.to_packet(&variant))?, None),
            Kind::Stream | Kind::Save => sink.unit(&enc(framing.to_bytes(&variant))?, None),
        }
    };
    if args.json_native {
        // JSON.from_native values one after another (the parser works on a whole string).
        let mut text = String::new();
        let mut reader = reader;
        reader
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("cannot read the JSON input: {e}")))?;
        let parse = config.with_allow_objects(args.allow_objects);
        let mut rest: &str = &text;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let at = text.len() - rest.len();
            let (variant, after) = godot_serde::json::take_from_str(rest, parse)
                .map_err(|e| input_failure("JSON input", &text, at, count, &e))?;
            emit(variant, count)?;
            count += 1;
            rest = after;
        }
    } else if args.text {
        // Text values one after another (the parser works on a whole string).
        let mut text = String::new();
        let mut reader = reader;
        reader
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("cannot read the text input: {e}")))?;
        let parse = config.with_allow_objects(args.allow_objects);
        let mut rest: &str = &text;
        loop {
            rest = skip_blank(rest);
            if rest.is_empty() {
                break;
            }
            let at = text.len() - rest.len();
            let (variant, after) = godot_serde::text::take_from_str(rest, parse)
                .map_err(|e| text_failure(&text, at, count, &e))?;
            emit(variant, count)?;
            count += 1;
            rest = after;
        }
    } else {
        // JSON values one after another, read incrementally (a large JSON Lines file is
        // never held in memory at once).
        let stream = serde_json::Deserializer::from_reader(reader).into_iter::<serde_json::Value>();
        for item in stream {
            let value =
                item.map_err(|e| Failure::input(format!("JSON input, value {count}: {e}")))?;
            let variant = json::from_json(&value)
                .map_err(|e| Failure::input(format!("JSON input, value {count}: {e}")))?;
            emit(variant, count)?;
            count += 1;
        }
    }
    if count == 0 {
        return Err(Failure::input("the input holds no value"));
    }
    let written = sink.finish()?;
    if args.output.is_some() {
        ui.note(&format!(
            "{count} value{} encoded for Godot {}, {written} bytes",
            if count == 1 { "" } else { "s" },
            config.version()
        ));
    }
    Ok(())
}

/// Skips whitespace and `;` comments.
fn skip_blank(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_start();
        match trimmed.strip_prefix(';') {
            Some(comment) => text = comment.find('\n').map_or("", |i| &comment[i..]),
            None => return trimmed,
        }
    }
}

/// A text-input error, its line and column counted in the whole input (the parser counts
/// them from the start of the value), with the line shown.
fn text_failure(text: &str, at: usize, count: usize, e: &godot_serde::Error) -> Failure {
    input_failure("text input", text, at, count, e)
}

/// [`text_failure`] for input named `label` (`text input`, `JSON input`).
fn input_failure(
    label: &str,
    text: &str,
    at: usize,
    count: usize,
    e: &godot_serde::Error,
) -> Failure {
    let godot_serde::ErrorKind::TextSyntax {
        line,
        column,
        message,
    } = e.kind()
    else {
        return Failure::input(format!("{label}, value {count}: {}", e.kind()));
    };
    let before = text.get(..at).unwrap_or_default();
    let base_line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let base_column = before.get(line_start..).unwrap_or_default().chars().count() + 1;
    let abs_line = base_line + line - 1;
    let abs_column = if *line == 1 {
        base_column + column - 1
    } else {
        *column
    };
    let mut f = Failure::input(format!(
        "{label}, value {count}: {message} at line {abs_line}, column {abs_column}"
    ));
    if let Some(shown) = text.lines().nth(abs_line - 1) {
        f.details.push(shown.to_owned());
        f.details
            .push(format!("{}^", " ".repeat(abs_column.saturating_sub(1))));
    }
    f
}

/// Problems `convert` prints as warnings; past them, one warning counts the rest, so that
/// hostile input cannot make the messages grow without bound.
const MAX_PROBLEMS_SHOWN: usize = 100;

/// `convert`.
pub fn convert(args: &ConvertArgs, stdout: &mut dyn Write, ui: &Ui) -> Result<(), Failure> {
    if !args.to.is_godot4() {
        return Err(Failure::usage(
            "--to must be a Godot 4 version (4.0 ... 4.6)",
        ));
    }
    // Full objects are read as plain data (class and properties): nothing is instantiated.
    let from = Framing::new(Config::godot3().with_allow_objects(true))
        .with_big_endian(args.kind.big_endian);
    let to = Framing::new(Config::new(args.to)).with_big_endian(args.kind.big_endian);
    let kind = args.kind.kind().unwrap_or(Kind::Save);
    let src = source(&args.source)?;
    let mut settled = from;
    let (src, wrapping) = crate::containers::unwrap_input(
        src,
        &args.key,
        &godot_serde::container::Limits::new(),
        ui,
    )?;
    let wrapped = wrapping != godot_serde::container::Wrapping::Plain;
    if wrapped && (args.hex_out || args.base64_out) {
        return Err(Failure::usage(
            "--hex-out/--base64-out cannot keep the input's container: write raw bytes",
        ));
    }
    let (kind, src) = settle(
        src,
        Some(kind),
        &mut settled,
        godot_serde::frame::DEFAULT_MAX_FRAME_SIZE,
        Engine::Fixed,
        ui,
    )?;
    // A wrapped input's output is built in memory, then wrapped the same way.
    let mut inner = Vec::new();
    let mut sink = if wrapped {
        Sink::new(None, &mut inner, false, false)?
    } else {
        Sink::new(
            args.output.as_deref(),
            stdout,
            args.hex_out,
            args.base64_out,
        )?
    };
    // One list for the whole input: at most MAX_PROBLEMS_SHOWN warnings, then a count.
    let mut problems = godot_serde::migrate::Problems::with_max_listed(MAX_PROBLEMS_SHOWN);
    let mut skipped = 0usize;
    let mut converted = 0usize;
    let mut read = 0usize;
    let mut convert_one =
        |index: usize, payload: &[u8], base: usize, sink: &mut Sink| -> Result<(), Failure> {
            let mut value = match from.decode_payload::<Variant>(payload) {
                Ok(v) => v,
                Err(e) => {
                    let f = input::decode_failure(
                        &format!("value {index} cannot be read, skipped"),
                        &e,
                        payload,
                        base,
                    );
                    ui.error(&f);
                    skipped += 1;
                    return Ok(());
                }
            };
            let shown = problems.listed().len();
            godot_serde::migrate::migrate_variant_into(&mut value, index, &mut problems);
            for p in problems.listed().get(shown..).unwrap_or_default() {
                ui.warn(&p.to_string());
            }
            let bytes = if kind.framed() {
                to.to_bytes(&value)
            } else {
                to.config().to_bytes(&value)
            };
            match bytes {
                Ok(bytes) => {
                    sink.unit(&bytes, None)?;
                    converted += 1;
                }
                Err(e) => {
                    ui.error(&Failure::input(format!(
                        "value {index} cannot be written for Godot {}, skipped: {}",
                        args.to,
                        e.kind()
                    )));
                    skipped += 1;
                }
            }
            Ok(())
        };
    match (kind.framed(), src) {
        (false, Source::Bytes(bytes)) => {
            read = bytes.len();
            convert_one(0, &bytes, 0, &mut sink)?;
        }
        (_, src) => {
            let mut reader: Box<dyn Read> = match src {
                Source::Bytes(bytes) => Box::new(io::Cursor::new(bytes)),
                Source::Reader(r) => r,
            };
            let mut index = 0;
            loop {
                match from.read_payload(&mut reader) {
                    Ok(Some(payload)) => {
                        convert_one(index, &payload, read + PREFIX_LEN, &mut sink)?;
                        read += PREFIX_LEN + payload.len();
                        index += 1;
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let at = read + e.offset().unwrap_or(0);
                        ui.error(&Failure::input(format!(
                            "value {index} at byte {read}: {} at byte {at}; the rest of the input is skipped",
                            e.kind()
                        )));
                        skipped += 1;
                        break;
                    }
                }
            }
        }
    }
    let mut written = sink.finish()?;
    if wrapped {
        let sealed = crate::containers::rewrap(&inner, &wrapping, &args.key)?;
        written = sealed.len();
        let mut out = Sink::new(args.output.as_deref(), stdout, false, false)?;
        out.unit(&sealed, None)?;
        out.finish()?;
    }
    if problems.unlisted() > 0 {
        ui.warn(&format!(
            "{} more problems not shown (the first {MAX_PROBLEMS_SHOWN} are)",
            problems.unlisted()
        ));
    }
    let summary = format!(
        "{converted} value{} converted from Godot 3 ({read} bytes) to Godot {} ({written} bytes); {} replaced by null, {skipped} skipped",
        if converted == 1 { "" } else { "s" },
        args.to,
        problems.total()
    );
    ui.note(&summary);
    if skipped > 0 || (args.strict && !problems.is_empty()) {
        return Err(silent());
    }
    Ok(())
}
