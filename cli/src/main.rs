//! `godot-serde`: inspect, encode and convert Godot Variant data from the command line.
//!
//! See cli/README.md for the commands and the JSON mapping.

mod bots;
mod commands;
mod containers;
mod debug;
mod escape;
mod input;
mod json;
mod pck;
mod resource;
mod resource_convert;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use godot_serde::{Config, GodotVersion};
use input::{Failure, Kind};
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  godot-serde inspect --hex '02000000 07000000'         # annotated dump of var_to_bytes(7)
  godot-serde inspect save.dat --godot3 --json          # a Godot 3 store_var file as JSON Lines
  godot-serde inspect --base64 AgAAAAcAAAA= --text      # Marshalls.variant_to_base64 output
  nc -l 4242 | godot-serde inspect --stream             # a live StreamPeer.put_var stream
  godot-serde encode -e '{\"hp\": 100, \"pos\": {\"$type\": \"Vector2\", \"value\": [1, 2]}}' --hex
  godot-serde convert old_save.dat -o new_save.dat      # Godot 3 save to Godot 4
  godot-serde inspect save.bin --password secret --json # an open_encrypted_with_pass save
  godot-serde decompress save_c.bin -o save.dat         # an open_compressed file
  godot-serde pck list game.pck                         # a resource pack's files
  godot-serde debug run --fail-on-error -- godot --headless --path game  # a CI gate

Exit codes: 0 ok, 1 bad input (or I/O error), 2 usage error.";

/// Inspect, encode and convert Godot Variant data (var_to_bytes, StreamPeer.put_var,
/// store_var files, Marshalls base64), Godot 3 and 4.
#[derive(Parser, Debug)]
#[command(name = "godot-serde", version, after_help = EXAMPLES, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour messages: auto (only on a terminal, and not with NO_COLOR set),
    /// always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// When `inspect --text` escapes control characters (JSON output always does).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EscapeChoice {
    // (Plain comments: doc comments would turn clap's help into its long layout.)
    // Only when stdout is a terminal.
    Auto,
    Always,
    // The engine's exact text even on a terminal.
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show what encoded bytes hold: an annotated word-by-word dump, Godot's text form or JSON.
    #[command(after_help = "\
Examples:
  godot-serde inspect --hex '1c000000 01000000 02000000 07000000'
  godot-serde inspect packet.bin --text
  godot-serde inspect packet.bin --json-native
  godot-serde inspect save.dat --save --godot3 --json
  godot-serde inspect --base64 \"$(cat b64.txt)\" --godot3
  cat capture.bin | godot-serde inspect --stream

Without --raw/--stream/--save/--packet the framing is guessed, and a note on stderr says
what was assumed. A stream is read frame by frame: memory stays bounded by the largest frame.")]
    Inspect(InspectArgs),
    /// Encode JSON (the mapping of cli/README.md) or Godot's text form into Godot's binary format.
    #[command(after_help = "\
Examples:
  godot-serde encode -e '[1, \"two\", 3.0]' --hex
  godot-serde encode values.jsonl --save --godot3 -o save.dat
  echo '{\"$type\": \"Vector3\", \"value\": [1, 2, 3]}' | godot-serde encode --base64
  godot-serde encode --text -e 'Vector3(1, 2, 3)' --hex
  godot-serde encode --json-native -e '{\"type\": \"Vector2i\", \"args\": [1, 2]}' --hex

Input is JSON (or with --text Godot's text form, with --json-native Godot 4's JSON.from_native form): one value, or for --stream/--save any number
of values (JSON Lines or just one after another), each becoming one frame.")]
    Encode(EncodeArgs),
    /// Convert Godot 3 data (a store_var save file, a stream or one value) to Godot 4,
    /// reporting what cannot carry over.
    #[command(after_help = "\
Examples:
  godot-serde convert old_save.dat -o new_save.dat
  godot-serde convert --raw --hex '13000000 01000000 07000000 0000803f 00000040 00004040' --hex

RIDs, objects stored as instance ids and full objects cannot carry over: each is reported on
stderr and replaced by null. Values that cannot be read at all are reported and skipped (exit
code 1; so does any problem with --strict).")]
    Convert(ConvertArgs),
    /// Decrypt a file written by open_encrypted_with_pass / open_encrypted (or
    /// ConfigFile.save_encrypted_pass), Godot 3 or 4 (told from the header).
    #[command(after_help = "\
Examples:
  godot-serde decrypt save.bin --password secret -o save.dat
  godot-serde decrypt settings.cfg --key 000102...1f

The MD5 stored in the file is checked: a wrong password or key is an error (exit code 1),
never garbage output.")]
    Decrypt(CryptArgs),
    /// Encrypt a file as open_encrypted_with_pass / open_encrypted writes it (Godot 4 layout,
    /// a random IV; --godot3 for Godot 3's).
    #[command(after_help = "\
Examples:
  godot-serde encrypt save.dat --password secret -o save.bin
  godot-serde encrypt settings.cfg --godot3 --password secret -o settings.enc")]
    Encrypt(CryptArgs),
    /// Decompress a file written by FileAccess.open_compressed (any mode, GCPF), or with
    /// --mode a PackedByteArray.compress() stream.
    #[command(after_help = "\
Examples:
  godot-serde decompress save_c.bin -o save.dat
  godot-serde decompress blob.bin --mode zstd --max-size 1048576 -o blob.raw")]
    Decompress(DecompressArgs),
    /// Compress a file as FileAccess.open_compressed writes it (GCPF), or with --stream as
    /// PackedByteArray.compress() does.
    #[command(after_help = "\
Examples:
  godot-serde compress save.dat --mode zstd -o save_c.bin
  godot-serde compress blob.raw --mode deflate --stream -o blob.bin")]
    Compress(CompressArgs),
    /// Resource packs (PCK): list, extract, pack, add and remove files (v1 Godot 3, v2
    /// Godot 4.0-4.4, v3 Godot 4.5+; encrypted with --key).
    #[command(after_help = "\
Examples:
  godot-serde pck list game.pck
  godot-serde pck list game.x86_64                     # the pack at the end of an export
  godot-serde pck extract game.pck -o game/ --key 0011...eeff
  godot-serde pck extract game.pck -o out/ res://icon.svg
  godot-serde pck pack mod/ --format v3 --engine 4.6.0 -o mod.pck
  godot-serde pck add mod.pck -C new/ scenes/boss.tscn
  godot-serde pck remove mod.pck res://old.tres
  godot-serde pck remove patch.pck --mark res://cheat.gd  # a 4.4+ removal entry

Every count, length and offset of the pack is checked before it is used; each extracted file's
MD5 is checked (a wrong one fails the command and leaves no file). add and remove write a new
pack (the same layout unless --format) through a temporary file.")]
    Pck {
        #[command(subcommand)]
        command: pck::PckCommand,
    },
    /// Scenes and resources (.tscn, .tres, .scn, .res of Godot 3 and 4): show them, set a
    /// property, convert between forms and engine versions.
    #[command(after_help = "\
Examples:
  godot-serde resource show main.tscn                   # nodes, groups, instances, properties
  godot-serde resource show item.tres --json
  godot-serde resource set main.tscn Player position 'Vector2(5, 6.25)'
  godot-serde resource set item.tres resource title '\"Axe\"' -o edited.tres
  godot-serde resource set item.tres Gradient_hxh8y offsets 'PackedFloat32Array(0, 0.5)'
  godot-serde resource show level.scn                   # binary files too
  godot-serde resource convert level.scn -o level.tscn  # binary to text, as the engine saves it
  godot-serde resource convert item.tres -o item.res    # text to binary
  godot-serde resource convert level.scn -o level_c.scn --compress
  godot-serde resource convert item.res -o item_42.res --engine 4.2

set rewrites only the value's text (or adds one line); every other byte of the file is kept.
VALUE is in the file's engine's text form; null removes the property.")]
    Resource {
        #[command(subcommand)]
        command: resource::ResourceCommand,
    },
    /// Run a Godot debug build under its remote debugger (output, errors, script errors
    /// continued; the game's exit status, or 1 with --fail-on-error after a script error).
    #[command(after_help = "\
Examples:
  godot-serde debug run -- godot --headless --path game
  godot-serde debug run --json --fail-on-error -- godot --headless --path game -s res://test.gd
  godot-serde debug run --godot3 -- godot3-server --no-window --path game
  godot-serde debug run --proxy 127.0.0.1:6007 -- godot --headless --path game  # with the editor
  godot-serde debug proxy --listen 6010 --editor 127.0.0.1:6007  # a game started elsewhere

`--remote-debug tcp://127.0.0.1:PORT` (Godot 3: `127.0.0.1:PORT`) is added in front of the
engine's arguments, PORT a free port. Exit codes: the game's status; 1 with --fail-on-error
after a script error in a game that exited 0; 124 after --timeout; 1 when the game cannot be
started or never connects (30 s).")]
    Debug {
        #[command(subcommand)]
        command: debug::DebugCommand,
    },
    /// Load-test a Godot 4 multiplayer server: N protocol-faithful clients (ENet or WebSocket)
    /// from this process, calling one @rpc method at a rate; prints the statistics.
    #[command(after_help = "\
Examples:
  godot-serde bots 127.0.0.1:7777 --count 1000 --ramp 200 --rpc /root/Game:echo:[1] --duration 30
  godot-serde bots 127.0.0.1:8080 --ws --count 100 --rpc Game:ping --answer pong --methods chat
  godot-serde bots game.example:7777 --count 50 --auth s3cret --json

The bots declare the node of --rpc with the called method, --answer and --methods (the node's
whole @rpc set: its checksum and method ids cover every name). Each call from the server to
--answer on that node ends the oldest call's round trip. ENet bots share UDP sockets
(--per-socket, 64); a Godot server accepts at most 4,095 peers from one IP address. Exit code
1 when no bot joined.")]
    Bots(bots::BotsArgs),
}

/// The key of an encrypted file.
#[derive(Args, Debug, Default)]
#[command(group(ArgGroup::new("key_choice").args(["password", "key"])))]
pub struct KeyArgs {
    /// The password given to open_encrypted_with_pass / save_encrypted_pass.
    #[arg(long, value_name = "PASSWORD")]
    pub password: Option<String>,
    /// The raw 32-byte key given to open_encrypted / save_encrypted, as 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,
}

/// `decrypt` and `encrypt` options.
#[derive(Args, Debug)]
pub struct CryptArgs {
    /// Input file; `-` or nothing for stdin.
    #[arg(value_name = "FILE|-")]
    pub file: Option<String>,
    #[command(flatten)]
    pub key: KeyArgs,
    /// Write Godot 3's layout (AES-256-ECB, no IV) when encrypting.
    #[arg(long)]
    pub godot3: bool,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

/// `decompress` options.
#[derive(Args, Debug)]
pub struct DecompressArgs {
    /// Input file; `-` or nothing for stdin.
    #[arg(value_name = "FILE|-")]
    pub file: Option<String>,
    /// The input is a PackedByteArray.compress(mode) stream in this mode (fastlz, deflate,
    /// zstd, gzip, brotli), not an open_compressed file.
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// The most bytes the output may have (a larger one is refused).
    #[arg(long, value_name = "BYTES", default_value_t = godot_serde::container::Limits::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

/// `compress` options.
#[derive(Args, Debug)]
pub struct CompressArgs {
    /// Input file; `-` or nothing for stdin.
    #[arg(value_name = "FILE|-")]
    pub file: Option<String>,
    /// The compression: fastlz (Godot's default), deflate, zstd or gzip.
    #[arg(long, value_name = "MODE", default_value = "fastlz")]
    pub mode: String,
    /// Write a bare PackedByteArray.compress() stream instead of an open_compressed file.
    #[arg(long)]
    pub stream: bool,
    /// Uncompressed bytes per block of the file (Godot writes 4096).
    #[arg(long, value_name = "BYTES", default_value_t = godot_serde::container::DEFAULT_BLOCK_SIZE,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub block_size: u32,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

/// Where the input bytes come from.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("source_choice").args(["file", "hex", "base64"])))]
pub struct SourceArgs {
    /// Input file; `-` or nothing for stdin.
    #[arg(value_name = "FILE|-")]
    pub file: Option<String>,
    /// The input as hex digits (spaces, `0x` and `,` ignored), e.g. '02000000 07000000';
    /// `-` reads the hex text from stdin.
    #[arg(long, value_name = "STRING")]
    pub hex: Option<String>,
    /// The input as base64, e.g. the output of Marshalls.variant_to_base64; `-` reads the
    /// base64 text from stdin.
    #[arg(long, value_name = "STRING")]
    pub base64: Option<String>,
}

/// The engine whose layout is read or written (default 4.5+).
#[derive(Args, Debug, Default)]
#[command(group(ArgGroup::new("engine_choice").multiple(false)))]
pub struct EngineArgs {
    /// Godot 3.x (var2bytes / bytes2var).
    #[arg(long, group = "engine_choice")]
    pub godot3: bool,
    /// Godot 4, latest engine (4.5 and later); the default.
    #[arg(long, group = "engine_choice")]
    pub godot4: bool,
    /// Godot 4.0 (4.0 to 4.2 share one layout).
    #[arg(long = "godot4.0", group = "engine_choice")]
    pub godot4_0: bool,
    /// Godot 4.1.
    #[arg(long = "godot4.1", group = "engine_choice")]
    pub godot4_1: bool,
    /// Godot 4.2.
    #[arg(long = "godot4.2", group = "engine_choice")]
    pub godot4_2: bool,
    /// Godot 4.3 (typed Arrays, PackedVector4Array).
    #[arg(long = "godot4.3", group = "engine_choice")]
    pub godot4_3: bool,
    /// Godot 4.4 (typed Dictionaries).
    #[arg(long = "godot4.4", group = "engine_choice")]
    pub godot4_4: bool,
    /// The engine as a version number: 3, 3.x, 4, 4.0 ... 4.6.
    #[arg(long, group = "engine_choice", value_name = "VERSION", value_parser = parse_engine)]
    pub engine: Option<GodotVersion>,
}

fn parse_engine(s: &str) -> Result<GodotVersion, String> {
    let (major, minor) = s.split_once('.').unwrap_or((s, ""));
    match (major, minor) {
        ("3", _) => Ok(GodotVersion::V3),
        ("4", "" | "5" | "6" | "7" | "8" | "9") => Ok(GodotVersion::V4_5),
        ("4", "4") => Ok(GodotVersion::V4_4),
        ("4", "0" | "1" | "2") => Ok(GodotVersion::V4_0),
        ("4", "3") => Ok(GodotVersion::V4_3),
        _ => Err(format!(
            "unknown engine version {s:?} (3, 3.x, 4, 4.0 ... 4.6)"
        )),
    }
}

impl EngineArgs {
    /// The chosen engine.
    pub fn version(&self) -> GodotVersion {
        if self.godot3 {
            GodotVersion::V3
        } else if self.godot4_0 || self.godot4_1 || self.godot4_2 {
            GodotVersion::V4_0
        } else if self.godot4_3 {
            GodotVersion::V4_3
        } else if self.godot4_4 {
            GodotVersion::V4_4
        } else {
            self.engine.unwrap_or(GodotVersion::V4_5)
        }
    }

    /// Whether an engine was given (else the default, Godot 4.5+, is used).
    pub fn given(&self) -> bool {
        self.godot3
            || self.godot4
            || self.godot4_0
            || self.godot4_1
            || self.godot4_2
            || self.godot4_3
            || self.godot4_4
            || self.engine.is_some()
    }

    /// The config for the chosen engine.
    pub fn config(&self) -> Config {
        Config::new(self.version())
    }
}

/// How the bytes are framed.
#[derive(Args, Debug, Default)]
#[command(group(ArgGroup::new("kind_choice").multiple(false)))]
pub struct KindArgs {
    /// One value, as var_to_bytes / var2bytes (trailing bytes are reported, as Godot ignores them).
    #[arg(long, group = "kind_choice")]
    pub raw: bool,
    /// Length-prefixed frames, as StreamPeer.put_var.
    #[arg(long, group = "kind_choice")]
    pub stream: bool,
    /// A store_var save file (length-prefixed values).
    #[arg(long, group = "kind_choice")]
    pub save: bool,
    /// One packet, as PacketPeer.put_var: exactly one value, no prefix.
    #[arg(long, group = "kind_choice")]
    pub packet: bool,
    /// Length prefixes are big-endian (StreamPeer.big_endian = true, File.endian_swap); the
    /// values themselves stay little-endian.
    #[arg(long)]
    pub big_endian: bool,
}

impl KindArgs {
    /// The chosen kind, if any.
    pub fn kind(&self) -> Option<Kind> {
        if self.raw {
            Some(Kind::Raw)
        } else if self.stream {
            Some(Kind::Stream)
        } else if self.save {
            Some(Kind::Save)
        } else if self.packet {
            Some(Kind::Packet)
        } else {
            None
        }
    }
}

/// `inspect` options.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("output_choice").args(["text", "json", "json_native"])))]
pub struct InspectArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Password or key for an encrypted input (GDEC magic); compressed input (GCPF) is
    /// decompressed without one. A note says which container was found.
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub kind: KindArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print Godot's text form (var_to_str) instead of the annotated dump. Piped or
    /// redirected, it is the engine's exact text, control characters in Strings included; on
    /// a terminal (see --escape) they are shown as \uXXXX escapes, which str_to_var reads back.
    #[arg(long)]
    pub text: bool,
    /// Print the JSON mapping (one JSON document; JSON Lines for --stream/--save). Control
    /// characters are always \uXXXX escapes (C1 controls too), piped or not: the same
    /// values for any JSON reader, and valid JSON.
    #[arg(long)]
    pub json: bool,
    /// When to show control characters of decoded text (ESC, BEL, CR, BS, DEL, C1 controls,
    /// bidirectional overrides) as \uXXXX escapes in --text output: auto (only on a
    /// terminal), always or never. The annotated dump, --json, --json-native and the
    /// messages always escape them.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = EscapeChoice::Auto)]
    pub escape: EscapeChoice,
    /// Print Godot 4's full-fidelity JSON, JSON.stringify(JSON.from_native(v)): indented with
    /// a tab for one value, compact JSON Lines for --stream/--save; objects with --allow-objects.
    /// Control characters are always \uXXXX escapes, piped or not (valid JSON, which the
    /// engine's raw controls and \v are not; JSON.parse_string reads the same text back).
    #[arg(long)]
    pub json_native: bool,
    /// Accept full objects (class name and properties are shown as data, nothing is instantiated).
    #[arg(long)]
    pub allow_objects: bool,
    /// Largest frame, packet or single value accepted, in bytes (Godot's encode_buffer_max_size).
    #[arg(long, value_name = "BYTES", default_value_t = godot_serde::frame::DEFAULT_MAX_FRAME_SIZE)]
    pub max_frame_size: usize,
    /// Nesting limit of the values read, up to Godot's own 1024.
    #[arg(long, value_name = "LEVELS", default_value_t = godot_serde::DEFAULT_MAX_DEPTH,
          value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=1024), usize::from))]
    pub max_depth: usize,
}

/// `encode` options.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input_choice").args(["file", "expr"])))]
#[command(group(ArgGroup::new("input_format").multiple(false)))]
#[command(group(ArgGroup::new("format_choice").args(["hex", "base64"])))]
pub struct EncodeArgs {
    /// Input file (JSON, or text with --text); `-` or nothing for stdin.
    #[arg(value_name = "FILE|-")]
    pub file: Option<String>,
    /// The input given inline (JSON, or text with --text).
    #[arg(
        short = 'e',
        long = "expr",
        value_name = "VALUE",
        allow_hyphen_values = true
    )]
    pub expr: Option<String>,
    /// The input is JSON, in the mapping of cli/README.md (the default).
    #[arg(long, group = "input_format")]
    pub json: bool,
    /// The input is Godot's text form (var_to_str; var2str with --godot3), values one after
    /// another.
    #[arg(long, group = "input_format")]
    pub text: bool,
    /// The input is Godot 4's full-fidelity JSON (JSON.from_native output, what
    /// JSON.to_native reads), values one after another.
    #[arg(long, group = "input_format")]
    pub json_native: bool,
    /// Accept full objects (`Object(Class, ...)` in text, `{"type": Class, "props": ...}` in
    /// --json-native input), and write as var_to_bytes_with_objects: a container typed with a
    /// class keeps its class (without, it is EncodedObjectAsID, as var_to_bytes writes it).
    #[arg(long)]
    pub allow_objects: bool,
    #[command(flatten)]
    pub kind: KindArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Write float math types with 64-bit components (header bit 16), as a Godot 4 engine
    /// built with `precision=double` does.
    #[arg(long)]
    pub double_precision: bool,
    /// Write hex (one line per frame) instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
    /// Write base64 (Marshalls.variant_to_base64 for one value; one line per frame).
    #[arg(long)]
    pub base64: bool,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

/// `convert` options.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("format_choice").args(["hex_out", "base64_out"])))]
pub struct ConvertArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Password or key for an encrypted input; the output is encrypted the same way (Godot 4
    /// layout). A compressed input gives a compressed output in the same mode.
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub kind: KindArgs,
    /// The Godot 4 version to write for (default 4.5+).
    #[arg(long, value_name = "VERSION", value_parser = parse_engine, default_value = "4")]
    pub to: GodotVersion,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    /// Write hex (one line per frame) instead of raw bytes.
    #[arg(long = "hex-out")]
    pub hex_out: bool,
    /// Write base64 (one line per frame) instead of raw bytes.
    #[arg(long = "base64-out")]
    pub base64_out: bool,
    /// Exit with code 1 when anything could not carry over, not only when a value is skipped.
    #[arg(long)]
    pub strict: bool,
}

/// Messages on stderr, coloured on a terminal.
pub struct Ui {
    /// Colour on stderr.
    color: bool,
    /// Colour in the annotated dump on stdout.
    color_out: bool,
}

impl Ui {
    /// A line of the annotated dump: `!!` lines (what does not decode) in red, frame headers
    /// in bold, when stdout is a terminal.
    pub fn dump_line(&self, line: &str, header: bool) -> String {
        match (self.color_out, line.starts_with("!!"), header) {
            (true, true, _) => format!("\x1b[31m{line}\x1b[0m"),
            (true, false, true) => format!("\x1b[1m{line}\x1b[0m"),
            _ => line.to_owned(),
        }
    }

    fn paint(&self, code: &str, label: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{label}\x1b[0m")
        } else {
            label.to_owned()
        }
    }

    // Messages may quote decoded text (keys, names, a line of text input): control
    // characters in them are escaped, whatever stderr is.

    /// `note: ...`
    pub fn note(&self, msg: &str) {
        eprintln!("{} {}", self.paint("1;36", "note:"), escape::escape(msg));
    }

    /// `hint: ...`
    pub fn hint(&self, msg: &str) {
        eprintln!("{} {}", self.paint("1;32", "hint:"), escape::escape(msg));
    }

    /// `warning: ...`
    pub fn warn(&self, msg: &str) {
        eprintln!("{} {}", self.paint("1;33", "warning:"), escape::escape(msg));
    }

    /// `error: ...` and its detail lines.
    pub fn error(&self, f: &Failure) {
        eprintln!(
            "{} {}",
            self.paint("1;31", "error:"),
            escape::escape(&f.message)
        );
        for line in &f.details {
            eprintln!("  {}", escape::escape(line));
        }
    }
}

/// Stack of the thread running a command: decoding, printing and converting values recurse
/// once per nesting level, and `--max-depth` allows Godot's 1024 levels.
const STACK_SIZE: usize = 256 * 1024 * 1024;

fn main() -> ExitCode {
    // The stack is reserved, not committed: only the pages a deep value touches are used.
    match std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(run)
        .map(std::thread::JoinHandle::join)
    {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(_) => run(),
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Help and version are not errors; everything else clap reports is usage (2).
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (color, color_out) = match cli.color {
        ColorChoice::Always => (true, true),
        ColorChoice::Never => (false, false),
        ColorChoice::Auto => (
            !no_color && std::io::stderr().is_terminal(),
            !no_color && std::io::stdout().is_terminal(),
        ),
    };
    let ui = Ui { color, color_out };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Inspect(args) => commands::inspect(args, &mut out, &ui),
        Command::Encode(args) => commands::encode(args, &mut out, &ui),
        Command::Convert(args) => commands::convert(args, &mut out, &ui),
        Command::Decrypt(args) => containers::decrypt(args, &mut out, &ui),
        Command::Encrypt(args) => containers::encrypt(args, &mut out, &ui),
        Command::Decompress(args) => containers::decompress(args, &mut out, &ui),
        Command::Compress(args) => containers::compress(args, &mut out, &ui),
        Command::Pck { command } => match command {
            pck::PckCommand::List(args) => pck::list(args, &mut out, &ui),
            pck::PckCommand::Extract(args) => pck::extract(args, &ui),
            pck::PckCommand::Pack(args) => pck::pack(args, &ui),
            pck::PckCommand::Add(args) => pck::add(args, &ui),
            pck::PckCommand::Remove(args) => pck::remove(args, &ui),
        },
        Command::Resource { command } => match command {
            resource::ResourceCommand::Show(args) => resource::show(args, &mut out, &ui),
            resource::ResourceCommand::Set(args) => resource::set(args, &ui),
            resource::ResourceCommand::Convert(args) => resource_convert::convert(args, &ui),
        },
        Command::Bots(args) => bots::bots(args, &mut out),
        Command::Debug { command } => match command {
            debug::DebugCommand::Run(args) => match debug::run(args, &mut out) {
                Ok(0) => Ok(()),
                Ok(code) => Err(input::Failure {
                    code,
                    message: String::new(),
                    details: Vec::new(),
                }),
                Err(f) => Err(f),
            },
            debug::DebugCommand::Proxy(args) => match debug::proxy(args, &mut out) {
                Ok(0) => Ok(()),
                Ok(code) => Err(input::Failure {
                    code,
                    message: String::new(),
                    details: Vec::new(),
                }),
                Err(f) => Err(f),
            },
        },
    };
    let flushed = out.flush();
    match result {
        Ok(()) => match flushed {
            Ok(()) => ExitCode::SUCCESS,
            // A closed pipe (`| head`) is not an error of ours.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                ui.error(&Failure::input(format!("cannot write the output: {e}")));
                ExitCode::from(1)
            }
        },
        Err(f) if f.code == 0 => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                ui.error(&f);
            }
            ExitCode::from(f.code)
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory as _;
        super::Cli::command().debug_assert();
    }
}
