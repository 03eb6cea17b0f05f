//! Godot's `ConfigFile` format (`.cfg`, `project.godot`, `override.cfg`, `export_presets.cfg`):
//! `[section]` headers and `key=value` lines whose values are in the [text form](crate::text).
//!
//! Two ways in:
//!
//! - **serde**: [`to_string`] / [`from_str`] map a struct (or a map of maps) to the file: a
//!   top-level field holding a map is a `[section]`, any other top-level field a key before the
//!   first section. Keys with `/` (`config/name`, `window/size/viewport_width`) are plain
//!   field names (`#[serde(rename = "config/name")]`). The text is what `ConfigFile.save()`
//!   writes.
//! - **[`Document`]**: a lossless view of a file, as `toml_edit` is for TOML. Read a
//!   `project.godot`, get, set or remove values, and write it back with every other byte
//!   (comments, order, blank lines, formatting) unchanged.
//!
//! ```
//! use godot_serde::{config_file::Document, Config, Variant};
//!
//! let text = "; Engine configuration file.\nconfig_version=5\n\n[application]\n\nconfig/name=\"Old\"\n";
//! let mut doc = Document::parse(text, Config::godot4())?;
//! doc.set("application", "config/name", &Variant::from("New"))?;
//! assert_eq!(doc.to_string(), text.replace("Old", "New"));
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! Reading follows `ConfigFile.parse()` of both engines: `;` comments (`#` is not one),
//! whitespace inside a key is dropped, text without `=` is glued to the next key, keys may be
//! quoted, a repeated key keeps its last value, repeated sections merge, `key=null` leaves no
//! key, a section name loses every character up to U+0020 at its ends (C0 controls too:
//! `[\u{1}s]` is section `s`). `ConfigFile.load()` differs from `parse()` for some text (it
//! reads a file byte by byte: bare keys, and in Godot 3 section names, as Latin-1; it drops a
//! U+FEFF at the start of a section name or quoted key); this module reads text as `parse()`
//! does, and writes only names that both read alike (below).
//!
//! Values may be `Object(...)` whatever [`Config::with_allow_objects`] says: `project.godot`
//! holds its input events that way (`[input]` section). They are read as data, never
//! instantiated (see [`crate::text`]).
//!
//! Writing follows `ConfigFile.save()`: Godot 4 writes the keys outside any section first,
//! without a header, then `[section]`, a blank line and `key=value` lines, sections separated
//! by a blank line, keys quoted when they contain `= " ; [ ]` or characters outside `!`..`~`;
//! Godot 3 writes every section with a header (`[]` for the keys outside any section).
//!
//! Where the engines' `save()` writes a file that reads back otherwise, this module writes one
//! that reads back, or refuses: a key or section name from untrusted input (a player's name)
//! can never add lines, keys or sections. Godot 3 keys that need it are quoted (its reader
//! takes `"a b"=1`; its `save()` writes `a b=1`, read back as `ab`); Godot 3 section names
//! cannot hold `]` and no section name can start or end with whitespace (refused); a `]` in a
//! Godot 4 section name is written `\]`, which its reader takes (its `save()` writes it bare);
//! Godot 3's keys outside any section are written first (its `save()` writes them under `[]`
//! where the first was set, which reads back in the section before). Names that
//! `ConfigFile.load()` would read otherwise are refused or written so that it reads them
//! alike: a NUL or a leading U+FEFF in any name is refused, and so is a non-ASCII Godot 3
//! section name; a non-ASCII Godot 3 key is quoted. Every write is read back before it is
//! returned or kept. Checked against both engines' `load()` and `parse()` for every C0
//! control, NUL, DEL, U+FEFF, every C1 control and some other non-ASCII characters at the
//! start, middle and end of section and key names (`tests/suite/config_file_live.rs`).
//!
//! Every reading entry point is linear in the size of the text (repeated keys, `key=null`
//! lines, many sections): see the README's "Security and limits".

use serde::{Serialize, de::DeserializeOwned};

use crate::error::{Error, ErrorKind, Result};
use crate::text::variant_to_string_with;
use crate::{Config, Variant};

mod document;
mod scan;

pub use document::Document;

/// Limits on what reading a ConfigFile may hold: the text's size, its sections and its keys.
/// Values are held to [`Config::max_depth`] as everywhere else.
///
/// Every reading entry point applies them ([`Limits::new`] unless given others:
/// [`Document::parse_with_limits`], `container::load_config_file_with_limits`), and each is
/// checked where it is crossed, before more is held: [`ErrorKind::LimitExceeded`] at the
/// byte offset of the text's end, or of the line that would add the section or key.
///
/// A [`Document`] holds its text and, per section and key, a fixed amount (no values, no
/// repeated or erased lines, no headers): at most 64 KiB + 32 × the text's size, 24 ×
/// measured for the densest shape (one-key sections `[s]k=1`; many tiny keys 18.7 ×;
/// empty headers, repeated, erased and deep-valued keys 1.0 to 1.4 ×). Reading one value
/// needs what the [text form](crate::text) needs for it, at most 64 KiB + 2 ×
/// `size_of::<Variant>()` per byte of the value's text (38 × measured for one value of
/// empty Arrays, 44 × with `double-precision`). So a text read within the defaults (16 MiB)
/// makes reading hold at most about 1 GiB (1.25 GiB with `double-precision`), about 610 MiB
/// for the worst shape measured. Measured by `tests/heap/alloc.rs` (a counting allocator, 256 KiB
/// of text per shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    pub(crate) max_text_size: usize,
    pub(crate) max_sections: usize,
    pub(crate) max_keys: usize,
}

impl Limits {
    /// The default limit on the text's size: 16 MiB (a `project.godot` is a few KiB).
    pub const DEFAULT_MAX_TEXT_SIZE: usize = 16 << 20;
    /// The default limit on sections holding keys at once: 65 536.
    pub const DEFAULT_MAX_SECTIONS: usize = 1 << 16;
    /// The default limit on keys holding values at once, all sections together: 1 048 576.
    pub const DEFAULT_MAX_KEYS: usize = 1 << 20;

    /// No limit at all (the text an edit made is read back with it).
    pub(crate) const NONE: Self = Self {
        max_text_size: usize::MAX,
        max_sections: usize::MAX,
        max_keys: usize::MAX,
    };

    /// The default limits: 16 MiB of text, 65 536 sections, 1 048 576 keys.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            max_text_size: Self::DEFAULT_MAX_TEXT_SIZE,
            max_sections: Self::DEFAULT_MAX_SECTIONS,
            max_keys: Self::DEFAULT_MAX_KEYS,
        }
    }

    /// The most bytes of text (after decryption or decompression, for a container). A
    /// compressed file is refused before it decompresses past this.
    #[must_use]
    pub const fn with_max_text_size(mut self, bytes: usize) -> Self {
        self.max_text_size = bytes;
        self
    }

    /// The most sections holding keys at once (a header with no key under it is no section).
    #[must_use]
    pub const fn with_max_sections(mut self, sections: usize) -> Self {
        self.max_sections = sections;
        self
    }

    /// The most keys holding values at once, all sections together (a repeated key counts
    /// once, an erased one not at all).
    #[must_use]
    pub const fn with_max_keys(mut self, keys: usize) -> Self {
        self.max_keys = keys;
        self
    }

    /// The most bytes of text.
    #[must_use]
    pub const fn max_text_size(&self) -> usize {
        self.max_text_size
    }

    /// The most sections holding keys at once.
    #[must_use]
    pub const fn max_sections(&self) -> usize {
        self.max_sections
    }

    /// The most keys holding values at once.
    #[must_use]
    pub const fn max_keys(&self) -> usize {
        self.max_keys
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}

/// A key as the engine reads it back. Godot 4: `String::property_name_encode`, quoted with
/// `\"` / `\\` escapes when the key holds `= " ; [ ]` or a character outside `!`..`~`.
/// Godot 3's `save()` never quotes, but its reader takes quoted keys: quoted here only where a
/// bare key would not read back (whitespace and control characters, which the reader drops,
/// `= " ;`, a leading `[`, and any non-ASCII character, which 3.2's `ConfigFile.load()` reads
/// byte by byte in a bare key but decodes as UTF-8 in a quoted one), so every other key is
/// written as the engine writes it.
pub(crate) fn encode_key(key: &str, config: Config) -> String {
    let needs = if config.version.is_godot4() {
        key.chars()
            .any(|c| matches!(c, '=' | '"' | ';' | '[' | ']') || !('!'..='~').contains(&c))
    } else {
        key.starts_with('[')
            || key
                .chars()
                .any(|c| matches!(c, '=' | '"' | ';') || c <= ' ' || !c.is_ascii())
    };
    if !needs {
        return key.to_owned();
    }
    let mut out = String::from("\"");
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Refuses a section or key name that the engine's `ConfigFile.load()` reads otherwise than
/// its `ConfigFile.parse()` (which this module's reader follows), whatever the file around
/// it: a NUL (the engines cut or refuse the text there), a leading U+FEFF (`load()` decodes
/// names and quoted keys as UTF-8 and drops a byte order mark at their start), and in Godot 3
/// a non-ASCII section name (3.2's `load()` reads a header byte by byte, as Latin-1; a key
/// is quoted instead, see [`encode_key`]). Names that read back elsewhere for both (a C0
/// control or space at either end of a section name, which `strip_edges` drops) are left to
/// the read-back check of every write.
fn check_name(name: &str, section: bool, config: Config) -> Result<()> {
    let what = if section { "section" } else { "key" };
    let engine = if config.version.is_godot4() {
        "Godot 4"
    } else {
        "Godot 3"
    };
    let why = if name.contains('\0') {
        "it holds a NUL, where the engine's text ends"
    } else if name.starts_with('\u{feff}') {
        "it starts with U+FEFF, which ConfigFile.load() drops as a byte order mark"
    } else if section && !config.version.is_godot4() && !name.is_ascii() {
        "Godot 3.2's ConfigFile.load() reads a section name byte by byte (as Latin-1), so a \
         non-ASCII one reads back as another"
    } else {
        return Ok(());
    };
    Err(Error::new(ErrorKind::Unsupported(
        format!("{what} name {name:?} cannot be written for {engine}: {why}").into(),
    )))
}

/// A section name in a header. Godot 4's reader takes `\]` for a `]` in the name (its
/// `save()` writes the `]` bare, which ends the header there): escaped here. Godot 3 knows no
/// escape: a name with `]` cannot be written (the caller's read-back check refuses it).
fn encode_section(name: &str, config: Config) -> String {
    if config.version.is_godot4() {
        name.replace(']', "\\]")
    } else {
        name.to_owned()
    }
}

/// Writes `value` as `ConfigFile.save()` (Godot 4) would: top-level map fields are sections,
/// other top-level fields keys before the first section.
///
/// # Errors
///
/// When `value` is not a map or struct, or as [`Config::to_variant`].
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, Config::default())
}

/// Writes `value` as `config`'s engine's `ConfigFile.save()` would.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_string_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<String> {
    let Variant::Dictionary(top) = config.to_variant(value)? else {
        return Err(Error::new(ErrorKind::Unsupported(
            "a ConfigFile is written from a struct or a map".into(),
        )));
    };
    let key_text = |k: &Variant| match k {
        Variant::String(s) => Ok(s.to_string()),
        Variant::StringName(s) => Ok(s.0.clone()),
        other => Err(Error::new(ErrorKind::Unsupported(
            format!("ConfigFile keys are strings, not {other}").into(),
        ))),
    };
    let mut globals = Vec::new();
    let mut sections = Vec::new();
    for (k, v) in top.iter() {
        let k = key_text(k)?;
        check_name(&k, matches!(v, Variant::Dictionary(_)), config)?;
        match v {
            Variant::Dictionary(d) => {
                if k.is_empty() {
                    // Its keys would read back as top-level fields, not as this map.
                    return Err(Error::new(ErrorKind::Unsupported(
                        "a ConfigFile section cannot be named \"\": the keys outside any \
                         section are the top-level fields"
                            .into(),
                    )));
                }
                let mut keys = Vec::new();
                for (kk, vv) in d.iter() {
                    let kk = key_text(kk)?;
                    check_name(&kk, false, config)?;
                    keys.push((kk, vv));
                }
                sections.push((k, keys));
            }
            other => {
                globals.push((k, other));
            }
        }
    }
    let mut out = String::new();
    let mut first = true;
    let mut written = 0usize;
    let mut write_section = |out: &mut String, name: Option<&str>, keys: &[(String, &Variant)]| {
        if !first {
            out.push('\n');
        }
        first = false;
        if let Some(name) = name {
            out.push_str(&format!("[{}]\n\n", encode_section(name, config)));
        }
        for (k, v) in keys {
            if **v == Variant::Nil {
                continue;
            }
            out.push_str(&encode_key(k, config));
            out.push('=');
            out.push_str(&variant_to_string_with(v, config));
            out.push('\n');
            written += 1;
        }
    };
    // Godot 4 writes the section-less keys first, without a header; Godot 3 under `[]`
    // where the first of them was set, which reads back in the section before it unless it
    // comes first: written first here.
    let g4 = config.version.is_godot4();
    if !globals.is_empty() {
        write_section(&mut out, (!g4).then_some(""), &globals);
    }
    for (name, keys) in &sections {
        write_section(&mut out, Some(name), keys);
    }
    // Every key must read back in its section: a name the engine cannot hold is refused
    // rather than written as other keys or sections.
    let back = scan::scan(&out, config, &Limits::NONE)?;
    let lost = globals
        .iter()
        .map(|(k, v)| ("", k.as_str(), *v))
        .chain(
            sections
                .iter()
                .flat_map(|(s, keys)| keys.iter().map(move |(k, v)| (s.as_str(), k.as_str(), *v))),
        )
        .find(|&(s, k, v)| *v != Variant::Nil && back.key(s, k).is_none());
    if let Some((s, k, _)) = lost {
        return Err(Error::new(ErrorKind::Unsupported(
            format!(
                "section {s:?} key {k:?} cannot be written for {}: it would not read back there",
                if g4 { "Godot 4" } else { "Godot 3" }
            )
            .into(),
        )));
    }
    if back.key_count != written {
        return Err(Error::new(ErrorKind::Unsupported(
            "a section or key name would read back as another key".into(),
        )));
    }
    Ok(out)
}

/// Reads a `T` from a ConfigFile text (Godot 4 value syntax): sections become maps, keys
/// before the first section top-level fields.
///
/// # Errors
///
/// [`ErrorKind::TextSyntax`] where `ConfigFile.parse()` fails; when the values do not fit `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    from_str_with(text, Config::default())
}

/// Reads a `T` from a ConfigFile text in `config`'s engine syntax.
///
/// # Errors
///
/// As [`from_str`].
pub fn from_str_with<T: DeserializeOwned>(text: &str, config: Config) -> Result<T> {
    let v = Document::parse_ignoring_version(text, config)?.to_variant()?;
    config.with_allow_objects(true).from_variant(&v)
}
