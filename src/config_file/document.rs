//! [`Document`]: a ConfigFile kept as its text, with edits that are checked by reading the
//! result back.

use core::fmt;

use serde::{Serialize, de::DeserializeOwned};

use super::scan::{self, KeyState, Scan, scan, track};
use super::{Limits, check_name, encode_key, encode_section};
use crate::error::{Error, ErrorKind, Result};
use crate::text::variant_to_string_with;
use crate::value::Dictionary;
use crate::{Config, Variant};

/// A ConfigFile kept as its text: edits change only the bytes of the value they touch.
///
/// Reading is linear in the size of the text, within [`Limits`]; [`get`](Document::get) is a
/// hash lookup and a read of the value's text; [`sections`](Document::sections) and
/// [`keys`](Document::keys) sort what they list. Each edit rewrites the text and reads it
/// back (linear in its size). Edits are not held to the limits the text was read with.
#[derive(Clone, Debug)]
pub struct Document {
    text: String,
    config: Config,
    scan: Scan,
}

/// The engine a `project.godot` names with its `config_version` key (3 and 4: Godot 3, 5:
/// Godot 4), if it names one.
fn engine_of(scan: &Scan, text: &str, config: Config) -> Option<bool> {
    let state = scan.key("", "config_version")?;
    match scan::value(text, config, state) {
        Ok(Variant::Int(3 | 4)) => Some(false),
        Ok(Variant::Int(5)) => Some(true),
        _ => None,
    }
}

fn engine_name(g4: bool) -> &'static str {
    if g4 { "Godot 4" } else { "Godot 3" }
}

fn unsupported(message: String) -> Error {
    Error::new(ErrorKind::Unsupported(message.into_boxed_str()))
}

impl Document {
    /// An empty document for `config`'s engine.
    #[must_use]
    pub fn new(config: Config) -> Self {
        Self {
            text: String::new(),
            config,
            scan: Scan::default(),
        }
    }

    /// Parses a ConfigFile's text for `config`'s engine, within the default [`Limits`]
    /// (16 MiB of text, 65 536 sections, 1 048 576 keys).
    ///
    /// A `project.godot` names its engine (`config_version=4` is Godot 3, `5` is Godot 4):
    /// a file for the other engine is refused, since an edit would write values that engine
    /// cannot read (Godot 3 fails on `PackedStringArray(...)` and drops every later section).
    /// [`Document::parse_auto`] picks the engine from the file;
    /// [`Document::parse_ignoring_version`] takes `config` whatever the file says.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TextSyntax`] (1-based line and column) where `ConfigFile.parse()` fails;
    /// [`ErrorKind::Unsupported`] when `config_version` names the other engine;
    /// [`ErrorKind::LimitExceeded`] beyond the limits.
    pub fn parse(text: &str, config: Config) -> Result<Self> {
        Self::parse_with_limits(text, config, &Limits::new())
    }

    /// Parses a ConfigFile's text for `config`'s engine, as [`Document::parse`], within
    /// `limits` (checked before the text is copied).
    ///
    /// ```
    /// use godot_serde::{config_file::{Document, Limits}, Config, ErrorKind};
    ///
    /// let limits = Limits::new().with_max_sections(2);
    /// let err = Document::parse_with_limits("[a]\nk=1\n[b]\nk=1\n[c]\nk=1\n", Config::godot4(), &limits)
    ///     .unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::LimitExceeded { max: 2, .. }));
    /// assert_eq!(err.offset(), Some(20)); // the line that would open the third section
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Document::parse`].
    pub fn parse_with_limits(text: &str, config: Config, limits: &Limits) -> Result<Self> {
        let scanned = Self::scan_checked(text, config, limits)?;
        Ok(Self {
            text: text.to_owned(),
            config,
            scan: scanned,
        })
    }

    /// [`Document::parse_with_limits`] of a text the caller gives up (not copied).
    #[cfg(any(feature = "crypto", feature = "compression"))]
    pub(crate) fn parse_owned(text: String, config: Config, limits: &Limits) -> Result<Self> {
        let scanned = Self::scan_checked(&text, config, limits)?;
        Ok(Self {
            text,
            config,
            scan: scanned,
        })
    }

    /// Reads `text` for `config`'s engine and checks that its `config_version` does not name
    /// the other one.
    fn scan_checked(text: &str, config: Config, limits: &Limits) -> Result<Scan> {
        let scanned = match scan(text, config, limits) {
            Ok(s) => s,
            Err(e) => {
                // A syntax error may come from the other engine's syntax: say so when the
                // file names that engine.
                let other = Self::engine_config(config, !config.version.is_godot4());
                if matches!(e.kind(), ErrorKind::TextSyntax { .. })
                    && let Ok(o) = scan(text, other, limits)
                {
                    Self::check_version(&o, text, other, config)?;
                }
                return Err(e);
            }
        };
        Self::check_version(&scanned, text, config, config)?;
        Ok(scanned)
    }

    /// Parses a ConfigFile's text for the engine its `config_version` key names (3 or 4:
    /// Godot 3, 5: Godot 4); a file without one (a save `.cfg`) is read with `config`. The
    /// other settings of `config` (depth limit, precision) are kept; [`Document::config`]
    /// tells which engine was picked.
    ///
    /// ```
    /// use godot_serde::{config_file::Document, Config, PackedStringArray};
    ///
    /// let g3 = "config_version=4\n\n[application]\n\nconfig/name=\"Old\"\n";
    /// let mut doc = Document::parse_auto(g3, Config::godot4())?;
    /// assert!(!doc.config().version().is_godot4());
    /// doc.set_as("application", "config/features", &PackedStringArray(vec!["mobile".into()]))?;
    /// assert!(doc.to_string().ends_with("config/features=PoolStringArray( \"mobile\" )\n"));
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Document::parse`].
    pub fn parse_auto(text: &str, config: Config) -> Result<Self> {
        // `config_version` is read with either engine's syntax: both read an int the same.
        let limits = Limits::new();
        let named = scan(text, config, &limits)
            .ok()
            .and_then(|s| engine_of(&s, text, config))
            .or_else(|| {
                let other = Self::engine_config(config, !config.version.is_godot4());
                scan(text, other, &limits)
                    .ok()
                    .and_then(|s| engine_of(&s, text, other))
            });
        let config = match named {
            Some(g4) => Self::engine_config(config, g4),
            None => config,
        };
        Self::parse(text, config)
    }

    /// Parses a ConfigFile's text with `config` whatever its `config_version` says (for a
    /// file being converted from one engine to the other), within the default [`Limits`].
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TextSyntax`] where `ConfigFile.parse()` fails;
    /// [`ErrorKind::LimitExceeded`] beyond the limits.
    pub fn parse_ignoring_version(text: &str, config: Config) -> Result<Self> {
        let scanned = scan(text, config, &Limits::new())?;
        Ok(Self {
            text: text.to_owned(),
            config,
            scan: scanned,
        })
    }

    /// `config` for Godot 4 (`g4`) or Godot 3, its other settings kept.
    fn engine_config(config: Config, g4: bool) -> Config {
        match (g4, config.version.is_godot4()) {
            (true, true) | (false, false) => config,
            (true, false) => config.with_version(Config::godot4().version),
            (false, true) => config.with_version(Config::godot3().version),
        }
    }

    /// Refuses a text whose `config_version` (read with `read`) names another engine than
    /// `config`'s.
    fn check_version(scanned: &Scan, text: &str, read: Config, config: Config) -> Result<()> {
        let ours = config.version.is_godot4();
        match engine_of(scanned, text, read) {
            Some(file) if file != ours => Err(unsupported(format!(
                "this file is for {} (config_version={}) but the Config is for {}: use \
                 Document::parse_auto to read it for its engine, or \
                 Document::parse_ignoring_version to convert it",
                engine_name(file),
                if file { 5 } else { 4 },
                engine_name(ours)
            ))),
            _ => Ok(()),
        }
    }

    /// The config the document reads and writes values with.
    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    /// The sections that hold keys, in `ConfigFile.get_sections()` order (`""` for keys
    /// before the first header). A header with no keys under it is no section, as in the
    /// engine.
    #[must_use]
    pub fn sections(&self) -> Vec<&str> {
        self.scan.section_names()
    }

    /// The keys of `section` in `ConfigFile.get_section_keys()` order.
    #[must_use]
    pub fn keys(&self, section: &str) -> Vec<&str> {
        self.scan.key_names(section)
    }

    /// The value of `key` in `section` (`""`: before the first header), as `get_value` gives it.
    ///
    /// # Errors
    ///
    /// None in practice: the text was read when the document was made.
    pub fn get(&self, section: &str, key: &str) -> Result<Option<Variant>> {
        self.scan
            .key(section, key)
            .map(|state| self.value_of(state))
            .transpose()
    }

    /// The value a key's last line holds.
    fn value_of(&self, state: &KeyState) -> Result<Variant> {
        scan::value(&self.text, self.config, state)
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
    /// a new key goes after the last key of its section, or into a new section at the end
    /// (a key outside any section: before the first header). A `null` value removes the key
    /// (see [`Document::remove`]).
    ///
    /// Keys are quoted where the engine needs it (Godot 4 as `ConfigFile.save()` quotes;
    /// Godot 3 where a bare key would not read back: whitespace and controls, `= " ;`, a
    /// leading `[`, non-ASCII characters), and
    /// a `]` in a Godot 4 section name is written `\]`. The result is read back before it is
    /// kept: the key must read back in `section` with the value, and every other key
    /// unchanged; otherwise the document is left as it was.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] when the engine cannot hold the key or section name, or
    /// its `ConfigFile.load()` and `parse()` would read it differently (an empty key; a NUL
    /// or a leading U+FEFF in either name; a section name with a space or C0 control
    /// character at its ends; in Godot 3 a section name with `]` or a non-ASCII character),
    /// or cannot read the value's text back (Godot 3's empty text for an RID).
    pub fn set(&mut self, section: &str, key: &str, value: &Variant) -> Result<()> {
        if *value == Variant::Nil {
            self.remove(section, key)?;
            return Ok(());
        }
        if key.is_empty() {
            return Err(unsupported(
                "a ConfigFile key cannot be empty (`=value` is dropped on reading)".to_owned(),
            ));
        }
        check_name(section, true, self.config)?;
        check_name(key, false, self.config)?;
        // The fallible writer: a value the text form cannot hold (a String with NUL, which
        // Godot 4 reads back as U+FFFD) is refused, not changed.
        let vtext = crate::text::to_string_with(value, self.config)?;
        let expected = match crate::text::take_from_str(&vtext, self.parse_config()) {
            Ok((v, _)) if v != Variant::Nil => v,
            _ => {
                return Err(unsupported(format!(
                    "the text of this value ({vtext:?}) does not read back in {}",
                    engine_name(self.config.version.is_godot4())
                )));
            }
        };
        let text = self.with_line(section, key, &vtext)?;
        let scanned = self.read_back(&text, section, key)?;
        let read = scanned
            .key(section, key)
            .and_then(|state| scan::value(&text, self.config, state).ok());
        let same = read.is_some_and(|r| {
            variant_to_string_with(&r, self.config)
                == variant_to_string_with(&expected, self.config)
        });
        let was = usize::from(self.scan.key(section, key).is_none());
        if !same || scanned.key_count != self.scan.key_count + was {
            return Err(self.misplaced(&scanned, section, key));
        }
        self.check_others(&scanned, &text, section, key)?;
        self.text = text;
        self.scan = scanned;
        Ok(())
    }

    /// The text with `key=vtext` set in `section` (not yet checked).
    fn with_line(&self, section: &str, key: &str, vtext: &str) -> Result<String> {
        let mut text = self.text.clone();
        if let Some(e) = self
            .scan
            .key(section, key)
            .filter(|e| text.is_char_boundary(e.value.start) && text.is_char_boundary(e.value.end))
        {
            text.replace_range(e.value.clone(), vtext);
            return Ok(text);
        }
        let line = format!("{}={vtext}", encode_key(key, self.config));
        // After the last key of the section. An object's text ends with its own line
        // break (`Object(...)` and a newline), which belongs to the value.
        let after_last = self.scan.sections.get(section).and_then(|s| {
            s.keys
                .iter()
                .map(|(_, k)| k)
                .max_by_key(|k| k.value.end)
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
        });
        // The headers, which the index does not keep: read again.
        let (_, found) = track(&self.text, self.config, section, None)?;
        // A `[]` header does not open the section of keys outside any section: the keys
        // after it stay in the section before it.
        let header = (!section.is_empty())
            .then(|| found.headers.last().map(|&(_, end)| end))
            .flatten();
        let first_header = found
            .first_header
            .filter(|&start| text.is_char_boundary(start));
        if let Some(at) = after_last.filter(|&at| text.is_char_boundary(at)) {
            text.insert_str(at, &format!("\n{line}"));
        } else if let Some(end) = header.filter(|&end| text.is_char_boundary(end)) {
            text.insert_str(end, &format!("\n\n{line}"));
        } else if section.is_empty() && (self.config.version.is_godot4() || first_header.is_some())
        {
            // Before every section: before the first header (after any leading comments),
            // or at the end of a file without one. (Godot 3's `save()` writes these keys
            // under a `[]` header where the first of them was set, which reads back in the
            // section before it.)
            match first_header {
                Some(start) => text.insert_str(start, &format!("{line}\n\n")),
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
        Ok(text)
    }

    /// Reads `text` back, or says why the edit of `key` in `section` cannot be written.
    fn read_back(&self, text: &str, section: &str, key: &str) -> Result<Scan> {
        scan(text, self.config, &Limits::NONE).map_err(|e| {
            unsupported(format!(
                "section {section:?} key {key:?} cannot be written for {}: the file would not \
                 read back ({e})",
                engine_name(self.config.version.is_godot4())
            ))
        })
    }

    /// The error for an edit that reads back somewhere else, naming where.
    fn misplaced(&self, scanned: &Scan, section: &str, key: &str) -> Error {
        let mut found = None;
        'all: for (s, st) in &scanned.sections {
            for (k, _) in st.keys.iter() {
                if self.scan.key(s, k).is_none() && !(&**s == section && k == key) {
                    found = Some((s.to_string(), k.to_owned()));
                    break 'all;
                }
            }
        }
        let instead = match found {
            Some((s, k)) => format!("it would read back as section {s:?} key {k:?}"),
            None => "it would not read back there".to_owned(),
        };
        unsupported(format!(
            "section {section:?} key {key:?} cannot be written for {}: {instead}",
            engine_name(self.config.version.is_godot4())
        ))
    }

    /// Checks that every key but `key` in `section` reads back from `text` with its old value
    /// text.
    fn check_others(&self, scanned: &Scan, text: &str, section: &str, key: &str) -> Result<()> {
        for (s, st) in &self.scan.sections {
            for (k, old) in st.keys.iter() {
                if &**s == section && k == key {
                    continue;
                }
                let old = self.text.get(old.value.clone());
                let new = scanned.key(s, k).and_then(|e| text.get(e.value.clone()));
                if old.is_none() || old != new {
                    return Err(unsupported(format!(
                        "section {section:?} key {key:?} cannot be written for {}: section \
                         {s:?} key {k:?} would not read back the same",
                        engine_name(self.config.version.is_godot4())
                    )));
                }
            }
        }
        Ok(())
    }

    /// Removes every `key` line of `section` that counts (and its line break), and the
    /// section's headers when it has no other key (as `set_value(section, key, null)` erases
    /// an empty section); returns whether there was one.
    ///
    /// # Errors
    ///
    /// None in practice (the rest of the text is unchanged).
    pub fn remove(&mut self, section: &str, key: &str) -> Result<bool> {
        if self.scan.key(section, key).is_none() {
            return Ok(false);
        }
        // Every line of the key since it was inserted (the index keeps only the last).
        let (_, found) = track(&self.text, self.config, section, Some(key))?;
        let bytes = self.text.as_bytes();
        let spans = found.key_lines.iter().map(|&(start, mut end)| {
            if bytes.get(end) == Some(&b'\n') {
                end += 1;
            }
            (start, end)
        });
        let text = cut(&self.text, spans);
        let scanned = self.read_back(&text, section, key)?;
        if scanned.key(section, key).is_some() || scanned.key_count + 1 != self.scan.key_count {
            return Err(self.misplaced(&scanned, section, key));
        }
        self.check_others(&scanned, &text, section, key)?;
        // The section is gone: so are its headers, when that changes nothing else.
        if !scanned.sections.contains_key(section)
            && let Ok((_, found)) = track(&text, self.config, section, None)
        {
            let headers = found
                .headers
                .iter()
                .map(|&(start, end)| header_span(&text, start, end));
            let bare = cut(&text, headers);
            if let Ok(s) = scan(&bare, self.config, &Limits::NONE)
                && s.key_count == scanned.key_count
                && self.check_others(&s, &bare, section, key).is_ok()
            {
                self.text = bare;
                self.scan = s;
                return Ok(true);
            }
        }
        self.text = text;
        self.scan = scanned;
        Ok(true)
    }

    /// All values, as a Dictionary of sections (each a Dictionary of keys), keys before the
    /// first header at the top level.
    ///
    /// # Errors
    ///
    /// None in practice: the text was read when the document was made.
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

/// `text` without the byte ranges `spans` (in any order, not overlapping).
fn cut(text: &str, spans: impl Iterator<Item = (usize, usize)>) -> String {
    let mut spans: Vec<(usize, usize)> = spans
        .filter(|&(s, e)| s <= e && text.is_char_boundary(s) && text.is_char_boundary(e))
        .collect();
    spans.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in spans {
        if s < at {
            continue;
        }
        out.push_str(text.get(at..s).unwrap_or(""));
        at = e;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// A header's bytes with the blank lines after it; at the end of the text, the blank lines
/// before it too (so the file ends with one line break, as `save()` writes it).
fn header_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let mut stop = end;
    let mut p = end;
    while let Some(&c) = b.get(p) {
        if c == b'\n' {
            stop = p + 1;
        } else if !matches!(c, b' ' | b'\t' | b'\r') {
            break;
        }
        p += 1;
    }
    if p < text.len() {
        return (start, stop);
    }
    // The header ends the text: take the whitespace before it down to one line break.
    let before = text.get(..start).unwrap_or("");
    let kept = before.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    let from = if kept == 0 { 0 } else { (kept + 1).min(start) };
    (from, text.len())
}

/// The document's text, exactly.
impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
