//! Reading a ConfigFile's text as `ConfigFile.parse()` does, into an index that answers every
//! question of a [`Document`](super::Document) in constant time per key.
//!
//! The engine keeps `OrderedHashMap<section, OrderedHashMap<key, value>>`: `key=value` inserts
//! or overwrites in place, `key=null` erases the key and then the section when it becomes
//! empty, and a later `key=value` inserts it again at the end. Erasing from an ordered map
//! is linear, so this index keeps an insertion stamp per section and per key instead, and
//! sorts by it when the order is asked for: reading is linear, listing `n log n`.

use std::collections::HashMap;

use crate::error::Result;
use crate::text::lexer::{Lexer, Token};
use crate::text::parser::{Parser, syntax_error};
use crate::{Config, Variant};

/// One `key=value` line of a text, with where its parts are.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// Where the key's text starts.
    pub(super) key_start: usize,
    /// Where the value's text starts (after `=` and whitespace) and ends.
    pub(super) value: core::ops::Range<usize>,
    /// The value read from that text.
    pub(super) variant: Variant,
}

/// A `[section]` header of a text.
#[derive(Clone, Debug)]
pub(super) struct Header {
    /// The section name as the engine reads it (trimmed; `\]` unescaped in Godot 4).
    pub(super) name: String,
    /// Where the `[` is.
    pub(super) start: usize,
    /// Just after the `]`.
    pub(super) end: usize,
}

/// A key that holds a value.
#[derive(Clone, Debug)]
pub(super) struct KeyState {
    /// When it was (last) inserted: its place in `get_section_keys()`.
    pub(super) stamp: u64,
    /// Its `key=value` lines since it was inserted, in file order (the last one counts).
    pub(super) lines: Vec<usize>,
}

/// A section that holds at least one key.
#[derive(Clone, Debug)]
pub(super) struct SectionState {
    /// When it was (last) created: its place in `get_sections()`.
    pub(super) stamp: u64,
    /// Its keys.
    pub(super) keys: HashMap<String, KeyState>,
}

/// What a text holds, as the engine reads it.
#[derive(Clone, Debug, Default)]
pub(super) struct Scan {
    /// Every `key=value` line with a non-null value, in file order (also those a later
    /// `key=null` erased: no [`KeyState`] points at those).
    pub(super) entries: Vec<Entry>,
    /// Every `[...]` header, in file order.
    pub(super) headers: Vec<Header>,
    /// The sections that hold keys.
    pub(super) sections: HashMap<String, SectionState>,
    /// How many keys the sections hold in all.
    pub(super) key_count: usize,
    next_stamp: u64,
}

impl Scan {
    /// The state of `key` in `section`, if it holds a value.
    pub(super) fn key(&self, section: &str, key: &str) -> Option<&KeyState> {
        self.sections.get(section)?.keys.get(key)
    }

    /// The line that gives `key` in `section` its value.
    pub(super) fn last(&self, section: &str, key: &str) -> Option<&Entry> {
        let line = *self.key(section, key)?.lines.last()?;
        self.entries.get(line)
    }

    /// The sections in `get_sections()` order.
    pub(super) fn section_names(&self) -> Vec<&str> {
        let mut out: Vec<(&str, u64)> = self
            .sections
            .iter()
            .map(|(name, s)| (name.as_str(), s.stamp))
            .collect();
        out.sort_unstable_by_key(|&(_, stamp)| stamp);
        out.into_iter().map(|(name, _)| name).collect()
    }

    /// The keys of `section` in `get_section_keys()` order.
    pub(super) fn key_names(&self, section: &str) -> Vec<&str> {
        let Some(s) = self.sections.get(section) else {
            return Vec::new();
        };
        let mut out: Vec<(&str, u64)> = s
            .keys
            .iter()
            .map(|(name, k)| (name.as_str(), k.stamp))
            .collect();
        out.sort_unstable_by_key(|&(_, stamp)| stamp);
        out.into_iter().map(|(name, _)| name).collect()
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// `ConfigFile::set_value(section, key, value)` for one line of the text.
    fn set_value(&mut self, section: &str, key: String, entry: Entry) {
        if entry.variant == Variant::Nil {
            let Some(s) = self.sections.get_mut(section) else {
                return;
            };
            if s.keys.remove(&key).is_some() {
                self.key_count -= 1;
            }
            if s.keys.is_empty() {
                self.sections.remove(section);
            }
            return;
        }
        let line = self.entries.len();
        self.entries.push(entry);
        if !self.sections.contains_key(section) {
            let stamp = self.stamp();
            self.sections.insert(
                section.to_owned(),
                SectionState {
                    stamp,
                    keys: HashMap::new(),
                },
            );
        }
        let stamp = self.stamp();
        let Some(s) = self.sections.get_mut(section) else {
            return;
        };
        let state = s.keys.entry(key).or_insert_with(|| KeyState {
            stamp,
            lines: Vec::new(),
        });
        if state.lines.is_empty() {
            self.key_count += 1;
        }
        state.lines.push(line);
    }
}

/// Reads a ConfigFile text as `ConfigFile.parse()` does, in linear time.
pub(super) fn scan(text: &str, config: Config) -> Result<Scan> {
    let config = config.with_allow_objects(true);
    let g4 = config.version.is_godot4();
    let b = text.as_bytes();
    let mut out = Scan::default();
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
            let raw = text.get(name_start..pos - 1).unwrap_or("").trim();
            let name = if g4 {
                raw.replace("\\]", "]")
            } else {
                raw.to_owned()
            };
            if !name.is_empty() {
                section.clone_from(&name);
            }
            out.headers.push(Header {
                name,
                start,
                end: pos,
            });
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
                out.set_value(
                    &section,
                    key,
                    Entry {
                        key_start: start,
                        value: value_start..value_end,
                        variant,
                    },
                );
            }
            pos = value_end;
            continue;
        }
        pos += 1;
    }
    Ok(out)
}
