//! Reading a ConfigFile's text as `ConfigFile.parse()` does, into an index that answers every
//! question of a [`Document`](super::Document) in constant time per key.
//!
//! The engine keeps `OrderedHashMap<section, OrderedHashMap<key, value>>`: `key=value` inserts
//! or overwrites in place, `key=null` erases the key and then the section when it becomes
//! empty, and a later `key=value` inserts it again at the end. Erasing from an ordered map
//! is linear, so this index keeps an insertion stamp per section and per key instead, and
//! sorts by it when the order is asked for: reading is linear, listing `n log n`.
//!
//! The index holds only what a later question needs: per section a stamp and its keys, per
//! key a stamp and where its last line is. Values are not kept (they are read again from
//! their text when asked for), nor earlier lines of a key, erased lines or headers: an edit
//! finds those with a second pass ([`track`]), since it rewrites the whole text anyway. So a
//! text held as a [`Document`](super::Document) costs a bounded amount per distinct section
//! and key, whatever the lines repeat, erase or nest (see [`Limits`]).

use std::collections::HashMap;

use super::Limits;
use crate::error::{Error, ErrorKind, Result};
use crate::text::lexer::{Lexer, Token};
use crate::text::parser::{Parser, syntax_error};
use crate::{Config, Variant};

/// A key that holds a value: when it was inserted and where its last `key=value` line is.
#[derive(Clone, Debug)]
pub(super) struct KeyState {
    /// When it was (last) inserted: its place in `get_section_keys()`.
    pub(super) stamp: u64,
    /// Where the last line's key text starts.
    pub(super) key_start: usize,
    /// Where the last line's value text starts (after `=` and whitespace) and ends.
    pub(super) value: core::ops::Range<usize>,
}

/// Sections with at most this many keys keep them in a list searched in order: one small
/// allocation of exactly their size instead of a hash table (at least four slots and its
/// control bytes), which is what makes many small sections cheap.
const FEW_KEYS: usize = 8;

/// The keys of one section. Names are boxed `str`s and the hash table is boxed, so that a
/// section's entry in the table of sections is 48 bytes (88 with `String`s and an inline
/// table): that table, with its free slots and its old copy while it grows, is most of
/// what many small sections cost.
#[derive(Clone, Debug)]
pub(super) enum Keys {
    /// Up to [`FEW_KEYS`] keys, in no particular order.
    Few(Vec<(Box<str>, KeyState)>),
    /// More keys, found by hash (boxed on purpose: see above).
    #[allow(clippy::box_collection)]
    Many(Box<HashMap<Box<str>, KeyState>>),
}

impl Keys {
    pub(super) fn get(&self, key: &str) -> Option<&KeyState> {
        match self {
            Keys::Few(v) => v.iter().find(|(k, _)| &**k == key).map(|(_, s)| s),
            Keys::Many(m) => m.get(key),
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut KeyState> {
        match self {
            Keys::Few(v) => v.iter_mut().find(|(k, _)| &**k == key).map(|(_, s)| s),
            Keys::Many(m) => m.get_mut(key),
        }
    }

    fn insert(&mut self, key: Box<str>, state: KeyState) {
        match self {
            Keys::Few(v) if v.len() < FEW_KEYS => {
                v.reserve_exact(1);
                v.push((key, state));
            }
            Keys::Few(v) => {
                let mut m: HashMap<Box<str>, KeyState> = core::mem::take(v).into_iter().collect();
                m.insert(key, state);
                *self = Keys::Many(Box::new(m));
            }
            Keys::Many(m) => {
                m.insert(key, state);
            }
        }
    }

    fn remove(&mut self, key: &str) -> bool {
        match self {
            Keys::Few(v) => match v.iter().position(|(k, _)| &**k == key) {
                Some(i) => {
                    v.swap_remove(i);
                    true
                }
                None => false,
            },
            Keys::Many(m) => m.remove(key).is_some(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        match self {
            Keys::Few(v) => v.is_empty(),
            Keys::Many(m) => m.is_empty(),
        }
    }

    /// Every key and its state, in no particular order.
    pub(super) fn iter(&self) -> Box<dyn Iterator<Item = (&str, &KeyState)> + '_> {
        match self {
            Keys::Few(v) => Box::new(v.iter().map(|(k, s)| (&**k, s))),
            Keys::Many(m) => Box::new(m.iter().map(|(k, s)| (&**k, s))),
        }
    }
}

/// A section that holds at least one key.
#[derive(Clone, Debug)]
pub(super) struct SectionState {
    /// When it was (last) created: its place in `get_sections()`.
    pub(super) stamp: u64,
    /// Its keys.
    pub(super) keys: Keys,
}

/// What a text holds, as the engine reads it.
#[derive(Clone, Debug, Default)]
pub(super) struct Scan {
    /// The sections that hold keys.
    pub(super) sections: HashMap<Box<str>, SectionState>,
    /// How many keys the sections hold in all.
    pub(super) key_count: usize,
    next_stamp: u64,
}

/// What an edit needs to know of one section (and one key) that the index does not keep:
/// found by [`track`].
#[derive(Clone, Debug, Default)]
pub(super) struct Tracked {
    /// Every `key=value` line of the key since it was (last) inserted, as its key's start
    /// and its value's end, in file order (empty when the key holds no value).
    pub(super) key_lines: Vec<(usize, usize)>,
    /// The section's `[...]` headers (from `[` to just after `]`), in file order.
    pub(super) headers: Vec<(usize, usize)>,
    /// Where the first header of the text starts.
    pub(super) first_header: Option<usize>,
}

/// What [`scan_with`] follows besides the index.
struct Follow<'a> {
    section: &'a str,
    key: Option<&'a str>,
    out: Tracked,
}

impl Scan {
    /// The state of `key` in `section`, if it holds a value.
    pub(super) fn key(&self, section: &str, key: &str) -> Option<&KeyState> {
        self.sections.get(section)?.keys.get(key)
    }

    /// The sections in `get_sections()` order.
    pub(super) fn section_names(&self) -> Vec<&str> {
        let mut out: Vec<(&str, u64)> = self
            .sections
            .iter()
            .map(|(name, s)| (&**name, s.stamp))
            .collect();
        out.sort_unstable_by_key(|&(_, stamp)| stamp);
        out.into_iter().map(|(name, _)| name).collect()
    }

    /// The keys of `section` in `get_section_keys()` order.
    pub(super) fn key_names(&self, section: &str) -> Vec<&str> {
        let Some(s) = self.sections.get(section) else {
            return Vec::new();
        };
        let mut out: Vec<(&str, u64)> = s.keys.iter().map(|(name, k)| (name, k.stamp)).collect();
        out.sort_unstable_by_key(|&(_, stamp)| stamp);
        out.into_iter().map(|(name, _)| name).collect()
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// `ConfigFile::set_value(section, key, value)` for one line of the text (`null`:
    /// `value` is `None`), within `limits`.
    fn set_value(
        &mut self,
        section: &str,
        key: String,
        line: Option<KeyState>,
        limits: &Limits,
    ) -> Result<()> {
        let Some(line) = line else {
            let Some(s) = self.sections.get_mut(section) else {
                return Ok(());
            };
            if s.keys.remove(&key) {
                self.key_count -= 1;
            }
            if s.keys.is_empty() {
                self.sections.remove(section);
            }
            return Ok(());
        };
        let at = line.key_start;
        if !self.sections.contains_key(section) {
            if self.sections.len() >= limits.max_sections {
                return Err(limit(
                    "the number of ConfigFile sections (config_file::Limits::with_max_sections)",
                    limits.max_sections,
                    at,
                ));
            }
            let stamp = self.stamp();
            self.sections.insert(
                section.into(),
                SectionState {
                    stamp,
                    keys: Keys::Few(Vec::new()),
                },
            );
        }
        let Some(s) = self.sections.get_mut(section) else {
            return Ok(());
        };
        if let Some(state) = s.keys.get_mut(&key) {
            state.key_start = line.key_start;
            state.value = line.value;
            return Ok(());
        }
        if self.key_count >= limits.max_keys {
            return Err(limit(
                "the number of ConfigFile keys (config_file::Limits::with_max_keys)",
                limits.max_keys,
                at,
            ));
        }
        self.next_stamp += 1;
        s.keys.insert(
            key.into_boxed_str(),
            KeyState {
                stamp: self.next_stamp,
                ..line
            },
        );
        self.key_count += 1;
        Ok(())
    }
}

fn limit(what: &'static str, max: usize, at: usize) -> Error {
    Error::at(ErrorKind::LimitExceeded { what, max }, at)
}

/// The value a key's last line holds, read again from `text` (the text the index was made
/// from, or one of its edits that kept that line).
pub(super) fn value(text: &str, config: Config, state: &KeyState) -> Result<Variant> {
    let mut p = Parser::new(text, config.with_allow_objects(true));
    p.seek(state.value.start);
    p.parse().map_err(|e| p.error(e))
}

/// Reads a ConfigFile text as `ConfigFile.parse()` does, in linear time, within `limits`.
pub(super) fn scan(text: &str, config: Config, limits: &Limits) -> Result<Scan> {
    scan_with(text, config, limits, None)
}

/// Reads a text as [`scan`] does (without limits: it is one the document made) and finds
/// the lines of `key` in `section` that count and the headers of `section`.
pub(super) fn track(
    text: &str,
    config: Config,
    section: &str,
    key: Option<&str>,
) -> Result<(Scan, Tracked)> {
    let mut follow = Follow {
        section,
        key,
        out: Tracked::default(),
    };
    let scanned = scan_with(text, config, &Limits::NONE, Some(&mut follow))?;
    Ok((scanned, follow.out))
}

fn scan_with(
    text: &str,
    config: Config,
    limits: &Limits,
    mut follow: Option<&mut Follow<'_>>,
) -> Result<Scan> {
    if text.len() > limits.max_text_size {
        return Err(limit(
            "the ConfigFile text's size in bytes (config_file::Limits::with_max_text_size)",
            limits.max_text_size,
            limits.max_text_size,
        ));
    }
    let config = config.with_allow_objects(true);
    let g4 = config.version.is_godot4();
    let b = text.as_bytes();
    let mut out = Scan::default();
    let mut section = String::new();
    let mut name = String::new();
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
            // A section header: up to the first `]`; Godot 4 skips a `]` escaped by `\`,
            // Godot 3 knows no escapes (`[a\]b]` is section `a\`, then `b]` starts a key).
            let start = pos;
            pos += 1;
            let mut escaping = false;
            let name_start = pos;
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
                    escaping = g4 && ch == '\\';
                }
            }
            // `String::strip_edges`: every character up to U+0020 at either end (C0
            // controls too), and nothing else (not U+0085, U+00A0, U+3000).
            let raw = text
                .get(name_start..pos - 1)
                .unwrap_or("")
                .trim_matches(|ch: char| ch <= ' ');
            name.clear();
            if g4 {
                name.push_str(&raw.replace("\\]", "]"));
            } else {
                name.push_str(raw);
            }
            if !name.is_empty() {
                section.clone_from(&name);
            }
            if let Some(f) = follow.as_deref_mut() {
                f.out.first_header.get_or_insert(start);
                if name == f.section {
                    f.out.headers.push((start, pos));
                }
            }
            continue;
        }
        if c > 32 {
            if c == b'"' {
                let mut lex = Lexer::new(text, !g4);
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
            let variant = p.parse().map_err(|e| p.error(e))?;
            let value_end = p.pos();
            let key = core::mem::take(&mut what);
            let start = key_start.take().unwrap_or(pos - 1);
            if !key.is_empty() {
                let line = (variant != Variant::Nil).then_some(KeyState {
                    stamp: 0,
                    key_start: start,
                    value: value_start..value_end,
                });
                if let Some(f) = follow.as_deref_mut()
                    && f.key == Some(key.as_str())
                    && f.section == section
                {
                    let held = out.key(&section, &key).is_some();
                    if line.is_none() || !held {
                        f.out.key_lines.clear();
                    }
                    if line.is_some() {
                        f.out.key_lines.push((start, value_end));
                    }
                }
                out.set_value(&section, key, line, limits)?;
            }
            pos = value_end;
            continue;
        }
        pos += 1;
    }
    Ok(out)
}
