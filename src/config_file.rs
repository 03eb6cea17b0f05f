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
//! key. `ConfigFile.load()` differs from `parse()` for non-ASCII text (it reads bytes as
//! Latin-1 in keys); this module reads text as `parse()` does.
//!
//! Values may be `Object(...)` whatever [`Config::with_allow_objects`] says: `project.godot`
//! holds its input events that way (`[input]` section). They are read as data, never
//! instantiated (see [`crate::text`]).
//!
//! Writing follows `ConfigFile.save()`: Godot 4 writes the keys outside any section first,
//! without a header, then `[section]`, a blank line and `key=value` lines, sections separated
//! by a blank line, keys quoted when they contain `= " ; [ ]` or characters outside `!`..`~`;
//! Godot 3 writes every section with a header (`[]` for the keys outside any section), in
//! insertion order, and never quotes keys.

use core::fmt;

use serde::{Serialize, de::DeserializeOwned};

use crate::error::{Error, ErrorKind, Result};
use crate::text::lexer::{Lexer, Token};
use crate::text::parser::{Parser, syntax_error};
use crate::text::variant_to_string_with;
use crate::value::Dictionary;
use crate::{Config, Variant};

/// One `key=value` of a document, with where its parts are in the text.
#[derive(Clone, Debug)]
struct Entry {
    section: String,
    key: String,
    /// Where the key's text starts.
    key_start: usize,
    /// Where the value's text starts (after `=` and whitespace) and ends.
    value: core::ops::Range<usize>,
}

/// A `[section]` header of a document.
#[derive(Clone, Debug)]
struct Header {
    name: String,
    /// Where the `[` is.
    start: usize,
    /// Just after the `]`.
    end: usize,
}

/// A ConfigFile kept as its text: edits change only the bytes of the value they touch.
#[derive(Clone, Debug)]
pub struct Document {
    text: String,
    config: Config,
    entries: Vec<Entry>,
    headers: Vec<Header>,
}

impl Document {
    /// An empty document for `config`'s engine.
    #[must_use]
    pub fn new(config: Config) -> Self {
        Self {
            text: String::new(),
            config,
            entries: Vec::new(),
            headers: Vec::new(),
        }
    }

    /// Parses a ConfigFile's text.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TextSyntax`] (1-based line and column) where `ConfigFile.parse()` fails.
    pub fn parse(text: &str, config: Config) -> Result<Self> {
        let (entries, headers) = scan(text, config)?;
        Ok(Self {
            text: text.to_owned(),
            config,
            entries,
            headers,
        })
    }

    /// The sections in file order (`""` for keys before the first header), each once.
    #[must_use]
    pub fn sections(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let names = self
            .entries
            .iter()
            .map(|e| e.section.as_str())
            .chain(self.headers.iter().map(|h| h.name.as_str()));
        for n in names {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// The keys of `section` in file order, each once.
    #[must_use]
    pub fn keys(&self, section: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for e in self.entries.iter().filter(|e| e.section == section) {
            if !out.contains(&e.key.as_str()) {
                out.push(&e.key);
            }
        }
        out
    }

    fn last(&self, section: &str, key: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.section == section && e.key == key)
    }

    /// The value of `key` in `section` (`""`: before the first header), as `get_value` gives it.
    ///
    /// # Errors
    ///
    /// None in practice: the text was parsed when the document was made.
    pub fn get(&self, section: &str, key: &str) -> Result<Option<Variant>> {
        let Some(e) = self.last(section, key) else {
            return Ok(None);
        };
        let text = self.text.get(e.value.clone()).unwrap_or("");
        crate::text::take_from_str(text, self.parse_config()).map(|(v, _)| Some(v))
    }

    /// The value of `key` in `section` as a `T` (`None` when the key is absent).
    ///
    /// # Errors
    ///
    /// When the value does not fit `T`; the error's path starts with the section and the key
    /// (`application["config/name"]: invalid type: ...`), as `from_str` would name them.
    pub fn get_as<T: DeserializeOwned>(&self, section: &str, key: &str) -> Result<Option<T>> {
        match self.get(section, key)? {
            Some(v) => self.parse_config().from_variant(&v).map(Some).map_err(|e| {
                let e = e.in_segment(crate::error::Segment::Key(key.into()));
                if section.is_empty() {
                    e
                } else {
                    e.in_segment(crate::error::Segment::Key(section.into()))
                }
            }),
            None => Ok(None),
        }
    }

    /// Sets `key` in `section` to `value` converted to a [`Variant`] (see [`Document::set`]).
    ///
    /// # Errors
    ///
    /// As [`Config::to_variant`] and [`Document::set`].
    pub fn set_as<T: ?Sized + Serialize>(
        &mut self,
        section: &str,
        key: &str,
        value: &T,
    ) -> Result<()> {
        let v = self.config.to_variant(value)?;
        self.set(section, key, &v)
    }

    fn parse_config(&self) -> Config {
        self.config.with_allow_objects(true)
    }

    /// Sets `key` in `section` to `value`: an existing key gets the new value text in place;
    /// a new key goes after the last key of its section, or into a new section at the end.
    /// A `null` value removes the key, as `set_value` does.
    ///
    /// # Errors
    ///
    /// When the result cannot be read back (a key the format cannot hold).
    pub fn set(&mut self, section: &str, key: &str, value: &Variant) -> Result<()> {
        if *value == Variant::Nil {
            self.remove(section, key)?;
            return Ok(());
        }
        let vtext = variant_to_string_with(value, self.config);
        let mut text = self.text.clone();
        if let Some(e) = self
            .last(section, key)
            .filter(|e| text.is_char_boundary(e.value.start) && text.is_char_boundary(e.value.end))
        {
            text.replace_range(e.value.clone(), &vtext);
        } else {
            let line = format!("{}={vtext}", encode_key(key, self.config));
            // After the last key of the section. An object's text ends with its own line
            // break (`Object(...)` and a newline), which belongs to the value.
            let after_last = self
                .entries
                .iter()
                .filter(|e| e.section == section)
                .map(|e| {
                    let object = text
                        .get(e.value.clone())
                        .is_some_and(|v| v.starts_with("Object("));
                    if object && text.as_bytes().get(e.value.end) == Some(&b'\n') {
                        e.value.end + 1
                    } else {
                        e.value.end
                    }
                })
                .max();
            let header = self.headers.iter().rev().find(|h| h.name == section);
            if let Some(at) = after_last.filter(|&at| text.is_char_boundary(at)) {
                text.insert_str(at, &format!("\n{line}"));
            } else if let Some(h) = header.filter(|h| text.is_char_boundary(h.end)) {
                text.insert_str(h.end, &format!("\n\n{line}"));
            } else if section.is_empty() && self.config.version.is_godot4() {
                // Godot 4 keeps these keys before every section: before the first header
                // (after any leading comments), or at the end of a file without one.
                match self
                    .headers
                    .first()
                    .filter(|h| text.is_char_boundary(h.start))
                {
                    Some(h) => text.insert_str(h.start, &format!("{line}\n\n")),
                    None => {
                        if !text.is_empty() && !text.ends_with('\n') {
                            text.push('\n');
                        }
                        text.push_str(&line);
                        text.push('\n');
                    }
                }
            } else {
                if !text.is_empty() {
                    if !text.ends_with('\n') {
                        text.push('\n');
                    }
                    text.push('\n');
                }
                text.push_str(&format!(
                    "[{}]\n\n{line}\n",
                    encode_section(section, self.config)
                ));
            }
        }
        self.reparse(text)
    }

    /// Removes every `key` line of `section` (and its line break); returns whether there was
    /// one.
    ///
    /// # Errors
    ///
    /// None in practice (the rest of the text is unchanged).
    pub fn remove(&mut self, section: &str, key: &str) -> Result<bool> {
        let mut spans: Vec<(usize, usize)> = self
            .entries
            .iter()
            .filter(|e| e.section == section && e.key == key)
            .map(|e| {
                let mut end = e.value.end;
                if self.text.as_bytes().get(end) == Some(&b'\n') {
                    end += 1;
                }
                (e.key_start, end)
            })
            .collect();
        if spans.is_empty() {
            return Ok(false);
        }
        spans.sort_unstable();
        let mut text = self.text.clone();
        for (start, end) in spans.into_iter().rev() {
            if text.is_char_boundary(start) && text.is_char_boundary(end) {
                text.replace_range(start..end, "");
            }
        }
        self.reparse(text)?;
        Ok(true)
    }

    /// Takes `text` as the new content if it reads back; otherwise keeps the old one.
    fn reparse(&mut self, text: String) -> Result<()> {
        let (entries, headers) = scan(&text, self.config)?;
        self.text = text;
        self.entries = entries;
        self.headers = headers;
        Ok(())
    }

    /// All values, as a Dictionary of sections (each a Dictionary of keys), keys before the
    /// first header at the top level.
    ///
    /// # Errors
    ///
    /// None in practice: the text was parsed when the document was made.
    pub fn to_variant(&self) -> Result<Variant> {
        let mut top = Dictionary::new();
        for section in self.sections() {
            let mut keys = Dictionary::new();
            for key in self.keys(section) {
                if let Some(v) = self.get(section, key)? {
                    keys.insert(Variant::from(key), v);
                }
            }
            if section.is_empty() {
                for (k, v) in keys {
                    top.insert(k, v);
                }
            } else if !keys.is_empty() {
                top.insert(Variant::from(section), Variant::from(keys));
            }
        }
        Ok(Variant::from(top))
    }
}

/// The document's text, exactly.
impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `String::property_name_encode` (Godot 4): quoted with `\"` / `\\` escapes when the key
/// holds `= " ; [ ]` or a character outside `!`..`~`. Godot 3 never quotes.
fn encode_key(key: &str, config: Config) -> String {
    let needs = key
        .chars()
        .any(|c| matches!(c, '=' | '"' | ';' | '[' | ']') || !('!'..='~').contains(&c));
    if !config.version.is_godot4() || !needs {
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

/// A section name in a header: `]` escaped as Godot 4's `save()` does (Godot 3 writes it
/// as it is, which breaks the header).
fn encode_section(name: &str, config: Config) -> String {
    if config.version.is_godot4() {
        name.replace(']', "\\]")
    } else {
        name.to_owned()
    }
}

/// Reads the entries and headers of a ConfigFile text as `ConfigFile.parse()` does.
#[allow(clippy::type_complexity)]
fn scan(text: &str, config: Config) -> Result<(Vec<Entry>, Vec<Header>)> {
    let config = config.with_allow_objects(true);
    let b = text.as_bytes();
    let mut entries = Vec::new();
    let mut headers = Vec::new();
    let mut section = String::new();
    let mut what = String::new();
    let mut key_start: Option<usize> = None;
    let mut pos = 0;
    while let Some(&c) = b.get(pos) {
        if c == 0 {
            break;
        }
        if c == b';' {
            match b
                .get(pos..)
                .and_then(|r| r.iter().position(|&x| x == b'\n'))
            {
                Some(n) => pos += n + 1,
                None => break,
            }
            continue;
        }
        if c == b'[' && what.is_empty() {
            // A section header: up to the first `]` not escaped by `\`.
            let start = pos;
            pos += 1;
            let mut escaping = false;
            let mut name = String::new();
            loop {
                let Some(ch) = text.get(pos..).and_then(|r| r.chars().next()) else {
                    return Err(syntax_error(
                        text,
                        start,
                        "Unexpected EOF while parsing simple tag".to_owned(),
                    ));
                };
                pos += ch.len_utf8();
                if ch == ']' {
                    if escaping {
                        escaping = false;
                    } else {
                        break;
                    }
                } else {
                    escaping = ch == '\\';
                }
                name.push(ch);
            }
            let name = name.trim().replace("\\]", "]");
            if !name.is_empty() {
                section.clone_from(&name);
            }
            headers.push(Header {
                name,
                start,
                end: pos,
            });
            continue;
        }
        if c > 32 {
            if c == b'"' {
                let mut lex = Lexer::new(text, !config.version.is_godot4());
                lex.pos = pos;
                key_start.get_or_insert(pos);
                match lex.next_token() {
                    Ok(Token::Str(s)) => what = s,
                    Ok(_) => {
                        return Err(syntax_error(
                            text,
                            pos,
                            "Error reading quoted string".to_owned(),
                        ));
                    }
                    Err(e) => return Err(syntax_error(text, e.offset, e.message)),
                }
                pos = lex.pos;
                continue;
            }
            if c != b'=' {
                let ch = text
                    .get(pos..)
                    .and_then(|r| r.chars().next())
                    .unwrap_or('\0');
                key_start.get_or_insert(pos);
                what.push(ch);
                pos += ch.len_utf8().max(1);
                continue;
            }
            // `=`: the value follows.
            pos += 1;
            let rest = text.get(pos..).unwrap_or("");
            let lead = rest.len()
                - rest
                    .trim_start_matches(|ch: char| ch != '\0' && ch <= ' ')
                    .len();
            let value_start = pos + lead;
            let mut p = Parser::new(text, config);
            p.seek(pos);
            let v = p.parse().map_err(|e| p.error(e))?;
            let value_end = p.pos();
            let key = core::mem::take(&mut what);
            let start = key_start.take().unwrap_or(pos - 1);
            if !key.is_empty() {
                if v == Variant::Nil {
                    entries.retain(|e: &Entry| !(e.section == section && e.key == key));
                } else {
                    entries.push(Entry {
                        section: section.clone(),
                        key,
                        key_start: start,
                        value: value_start..value_end,
                    });
                }
            }
            pos = value_end;
            continue;
        }
        pos += 1;
    }
    Ok((entries, headers))
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
    // Godot 3 keeps the section-less keys where the first of them was set.
    let mut globals_at = None;
    for (k, v) in top.iter() {
        let k = key_text(k)?;
        match v {
            Variant::Dictionary(d) => {
                let mut keys = Vec::new();
                for (kk, vv) in d.iter() {
                    keys.push((key_text(kk)?, vv));
                }
                sections.push((k, keys));
            }
            other => {
                globals_at.get_or_insert(sections.len());
                globals.push((k, other));
            }
        }
    }
    let mut out = String::new();
    let mut first = true;
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
        }
    };
    let g4 = config.version.is_godot4();
    if !globals.is_empty() && g4 {
        write_section(&mut out, None, &globals);
    }
    for (i, (name, keys)) in sections.iter().enumerate() {
        if !g4 && globals_at == Some(i) {
            write_section(&mut out, Some(""), &globals);
        }
        write_section(&mut out, Some(name), keys);
    }
    if !g4 && globals_at == Some(sections.len()) {
        write_section(&mut out, Some(""), &globals);
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
    let v = Document::parse(text, config)?.to_variant()?;
    config.with_allow_objects(true).from_variant(&v)
}
