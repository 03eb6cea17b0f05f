//! Where the bytes come from (file, stdin, `--hex`, `--base64`), how they are framed, and
//! the errors the commands report.

use base64::Engine as _;
use godot_serde::Variant;
use godot_serde::frame::Framing;
use std::fmt::Write as _;
use std::io::{self, Read};

/// A failure of a command: exit code 1 (bad input, I/O) or 2 (usage).
#[derive(Debug)]
pub struct Failure {
    /// The process exit code.
    pub code: u8,
    /// The error message (one line).
    pub message: String,
    /// Further lines shown under it (a hex dump of the bytes around an offset, a hint).
    pub details: Vec<String>,
}

impl Failure {
    /// Bad input or an I/O error (exit code 1).
    pub fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 1,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A usage error (exit code 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// Adds a line under the message.
    pub fn detail(mut self, line: impl Into<String>) -> Self {
        self.details.push(line.into());
        self
    }
}

/// Bytes in memory, or a reader to stream from.
pub enum Source {
    /// All the input, already in memory (`--hex`, `--base64`, or a short file / pipe).
    Bytes(Vec<u8>),
    /// A file or stdin, read as needed.
    Reader(Box<dyn Read>),
}

/// Parses `--hex` input: hex digits, with any whitespace, `0x` prefixes, `,` or `:` between
/// bytes ignored.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, Failure> {
    let cleaned: String = text
        .replace("0x", "")
        .replace("0X", "")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != ':')
        .collect();
    if let Some((i, c)) = cleaned.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(Failure::input(format!(
            "--hex: {c:?} is not a hex digit (at hex digit {i})"
        )));
    }
    if !cleaned.len().is_multiple_of(2) {
        return Err(Failure::input(format!(
            "--hex: odd number of hex digits ({})",
            cleaned.len()
        )));
    }
    let digits = cleaned.as_bytes();
    let nibble = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
    Ok(digits
        .chunks_exact(2)
        .map(|p| nibble(p[0]) << 4 | nibble(p[1]))
        .collect())
}

/// Decodes `--base64` input (standard alphabet, padded, as `Marshalls.variant_to_base64`
/// writes it; whitespace ignored).
pub fn parse_base64(text: &str) -> Result<Vec<u8>, Failure> {
    let cleaned: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|e| Failure::input(format!("--base64: {e}")))
}

/// Opens FILE, or stdin for `-` or no file. Refuses an interactive terminal as stdin.
pub fn open(file: Option<&str>) -> Result<Box<dyn Read>, Failure> {
    match file {
        Some(path) if path != "-" => match std::fs::File::open(path) {
            Ok(f) => Ok(Box::new(io::BufReader::new(f))),
            Err(e) => Err(Failure::input(format!("cannot open {path}: {e}"))),
        },
        _ => {
            use std::io::IsTerminal as _;
            if file.is_none() && io::stdin().is_terminal() {
                return Err(Failure::usage(
                    "no input: give a FILE, `-` for stdin, --hex or --base64 (see --help)",
                ));
            }
            Ok(Box::new(io::stdin().lock()))
        }
    }
}

/// Reads at most `limit + 1` bytes. Returns them and whether the reader ended within
/// `limit` bytes (when it did not, all `limit + 1` bytes read are returned, so that nothing
/// is lost when reading goes on).
pub fn read_up_to(reader: &mut dyn Read, limit: usize) -> Result<(Vec<u8>, bool), Failure> {
    let mut buf = Vec::new();
    let read = reader
        .take(limit as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Failure::input(format!("cannot read the input: {e}")))?;
    Ok((buf, read <= limit))
}

/// How the input is framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One value (`var_to_bytes`); trailing bytes are reported but ignored, as Godot does.
    Raw,
    /// One packet (`PacketPeer.put_var`): exactly one value, at most the maximum frame size.
    Packet,
    /// Length-prefixed frames (`StreamPeer.put_var`).
    Stream,
    /// A `store_var` file (length-prefixed values).
    Save,
}

impl Kind {
    /// Whether each value has a length prefix.
    pub fn framed(self) -> bool {
        matches!(self, Kind::Stream | Kind::Save)
    }

    /// The name of one unit of this kind in messages.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Save => "value",
            _ => "frame",
        }
    }
}

/// Whether `bytes` are a chain of length-prefixed frames ending exactly at the end, with
/// every payload decoding in `config`, and whether the chain itself (lengths only) fits.
pub fn frame_chain(bytes: &[u8], framing: Framing) -> (bool, bool) {
    let mut rest = bytes;
    let mut all_decode = true;
    let mut frames = 0;
    while !rest.is_empty() {
        let Some(prefix) = rest.get(..4) else {
            return (false, false);
        };
        let Ok(len) = framing.decode_prefix([prefix[0], prefix[1], prefix[2], prefix[3]]) else {
            return (false, false);
        };
        let Some(payload) = rest.get(4..4 + len) else {
            return (false, false);
        };
        if len < 4 {
            return (false, false);
        }
        all_decode &= framing.decode_payload::<Variant>(payload).is_ok();
        rest = &rest[4 + len..];
        frames += 1;
    }
    (frames > 0, frames > 0 && all_decode)
}

/// Guesses how `bytes` are framed, with a sentence saying what was assumed and why.
pub fn detect(bytes: &[u8], framing: Framing) -> (Kind, String) {
    let config = framing.config();
    let raw_exact = config.variant_from_bytes(bytes).is_ok();
    let raw_prefix = config.take_variant_from_bytes(bytes).is_ok();
    let (chain, chain_decodes) = frame_chain(bytes, framing);
    if raw_exact {
        let also = if chain_decodes {
            " (they also read as length-prefixed frames: use --stream for that)"
        } else {
            ""
        };
        (
            Kind::Raw,
            format!("assumed --raw: the bytes are exactly one value{also}"),
        )
    } else if chain_decodes {
        (
            Kind::Stream,
            "assumed --stream: the bytes are length-prefixed frames (StreamPeer.put_var / store_var)"
                .to_owned(),
        )
    } else if raw_prefix {
        (
            Kind::Raw,
            "assumed --raw: the bytes start with one value, followed by other bytes".to_owned(),
        )
    } else if chain {
        (
            Kind::Stream,
            "assumed --stream: the length prefixes fit, but not every frame decodes".to_owned(),
        )
    } else {
        (
            Kind::Raw,
            "assumed --raw: neither one value nor length-prefixed frames decode".to_owned(),
        )
    }
}

/// A hex dump of the bytes around `offset` (16 bytes a row, offsets of `base + index`), with
/// a caret under the byte at `offset`.
pub fn context(bytes: &[u8], offset: usize, base: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if bytes.is_empty() {
        lines.push("(no bytes)".to_owned());
        return lines;
    }
    let at = offset.min(bytes.len());
    let start = at.saturating_sub(16) / 16 * 16;
    let end = (at + 17).min(bytes.len());
    let mut row = start;
    while row < end {
        let stop = (row + 16).min(end);
        let mut line = format!("{:08x}  ", base + row);
        for (i, b) in bytes[row..stop].iter().enumerate() {
            if i == 8 {
                line.push(' ');
            }
            let _ = write!(line, "{b:02x} ");
        }
        lines.push(line.trim_end().to_owned());
        if (row..row + 16).contains(&at) {
            let col = 10 + (at - row) * 3 + usize::from(at - row >= 8);
            let mark = if at == bytes.len() {
                "^ end of input"
            } else {
                "^^"
            };
            lines.push(format!("{}{mark}", " ".repeat(col)));
        }
        row = stop;
    }
    if at == bytes.len() && at.is_multiple_of(16) {
        lines.push(format!("{:08x}  ^ end of input", base + at));
    }
    lines
}

/// The error of decoding `bytes` at `base` in the input, with the bytes around it.
/// The message names where in the value it happened (`["players"][3]`) when the library
/// knows, and the offset in the whole input.
pub fn decode_failure(what: &str, e: &godot_serde::Error, bytes: &[u8], base: usize) -> Failure {
    let path = e.path().map(|p| format!("{p}: ")).unwrap_or_default();
    let mut f = Failure::input(match e.offset() {
        Some(off) => format!("{what}: {path}{} at byte {}", e.kind(), base + off),
        None => format!("{what}: {path}{}", e.kind()),
    });
    if let Some(off) = e.offset() {
        f.details = context(bytes, off, base);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use godot_serde::Config;

    #[test]
    fn context_marks_every_offset_without_panicking() {
        for len in [0usize, 1, 5, 15, 16, 17, 31, 32, 33, 100] {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            for offset in 0..=len + 2 {
                let lines = context(&bytes, offset, 1000);
                assert!(
                    lines.iter().any(|l| l.contains('^') || l == "(no bytes)"),
                    "len {len} offset {offset}: {lines:?}"
                );
                // At most three rows of 16 bytes and the caret line.
                assert!(lines.len() <= 5, "{lines:?}");
            }
        }
        // The caret sits under the byte at the offset (16 + 9 = byte 25, after the gap).
        let bytes: Vec<u8> = (0..40).collect();
        let lines = context(&bytes, 25, 0);
        let row = lines
            .iter()
            .position(|l| l.starts_with("00000010"))
            .unwrap();
        let caret = lines[row + 1].find('^').unwrap();
        assert_eq!(&lines[row][caret..caret + 2], "19");
    }

    #[test]
    fn hex_input_forms() {
        assert_eq!(
            parse_hex("02000000 07000000").unwrap(),
            [2, 0, 0, 0, 7, 0, 0, 0]
        );
        assert_eq!(parse_hex("0x02, 0x00:0A\nff").unwrap(), [2, 0, 10, 255]);
        assert_eq!(parse_hex("").unwrap(), Vec::<u8>::new());
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex("é0").is_err());
    }

    #[test]
    fn detection_of_random_bytes_never_panics() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 64) as usize;
            let bytes: Vec<u8> = (0..len).map(|i| (x >> ((i % 8) * 8)) as u8 % 40).collect();
            for config in [Config::godot3(), Config::godot4()] {
                let _ = detect(&bytes, Framing::new(config));
            }
        }
    }
}
