//! Control characters in decoded text, made harmless before they reach a terminal.
//!
//! `inspect` reads untrusted files: a String in them may hold ESC sequences that set the
//! window title, clear the screen or recolour what follows, CR and BS that overwrite what was
//! printed, or bidirectional overrides that reorder it. Each such character is written as
//! `\uXXXX`, an escape that both JSON and Godot's text form (`str_to_var`, inside a string)
//! read back as the same character.
//!
//! One rule for every output mode that prints decoded data ([`escapes`]), applied by one
//! function ([`printed`]):
//! - JSON (`--json`, `--json-native`) is always escaped, on a terminal or not: `\uXXXX` is
//!   the same string to every JSON reader (Godot's `JSON.parse_string` included), and the
//!   output stays valid JSON, which raw C0 controls (as Godot's `JSON.stringify` writes them)
//!   and its `\v` (written `\u000b` here) are not.
//! - Godot's text form (`--text`) is escaped on a terminal, and is the engine's exact text
//!   when piped or redirected; `--escape always|never` overrides the terminal check.
//! - The annotated dump and the messages are always escaped (by `dump` and `Ui`).

use crate::EscapeChoice;
use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` acts on a terminal or reorders the text around it: a C0 control other than tab
/// and newline, DEL, a C1 control (U+0080 to U+009F, U+009B being a one-character CSI), or a
/// bidirectional embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069).
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every [unsafe](is_unsafe) character written as `\uXXXX` (all of them are in
/// the Basic Multilingual Plane, so four hex digits always do).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What decoded data is printed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Godot's text form (`var_to_str` / `var2str`).
    Text,
    /// JSON text: the JSON mapping or Godot 4's `JSON.from_native` form.
    Json,
}

/// Whether output in `form` is escaped, given `--escape` and whether stdout is a terminal:
/// the rule of every command and output mode that prints decoded data (see the module docs).
pub fn escapes(form: Form, choice: EscapeChoice, terminal: bool) -> bool {
    match (form, choice) {
        (Form::Json, _) | (Form::Text, EscapeChoice::Always) => true,
        (Form::Text, EscapeChoice::Auto) => terminal,
        (Form::Text, EscapeChoice::Never) => false,
    }
}

/// One printed unit of decoded data (a value or a frame) in `form`, escaped when `escape`
/// says so ([`escapes`]). In JSON the `\v` escape (Godot's `JSON.stringify` writes it for
/// U+000B; RFC 8259 and Godot's own parser do not read it) becomes `\u000b` as well.
pub fn printed(text: &str, form: Form, escape: bool) -> Cow<'_, str> {
    if !escape {
        return Cow::Borrowed(text);
    }
    let escaped = self::escape(text);
    if form != Form::Json || !escaped.contains("\\v") {
        return escaped;
    }
    // Backslashes come in pairs (`\\`) or start an escape: only an escape's `v` is replaced.
    let mut out = String::with_capacity(escaped.len() + 16);
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('v') => out.push_str("\\u000b"),
            Some(next) => {
                out.push(c);
                out.push(next);
            }
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_keeps_text() {
        assert_eq!(escape("plain é 漢 \t\n"), "plain é 漢 \t\n");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        // ESC, BEL, CR, BS, DEL, CSI (U+009B), RLO (U+202E), NUL.
        assert_eq!(
            escape("\u{1b}[2J\u{7}\r\u{8}\u{7f}\u{9b}31m\u{202e}\0"),
            "\\u001b[2J\\u0007\\u000d\\u0008\\u007f\\u009b31m\\u202e\\u0000"
        );
        // U+00A0 (after the C1 range) and U+2028 are not terminal controls.
        assert_eq!(escape("\u{a0}\u{2028}"), "\u{a0}\u{2028}");
    }

    #[test]
    fn json_v_escapes_become_u000b_and_escaped_backslashes_stay() {
        // JSON text of the strings "\u{b}\u{1b}", "\\v" (a backslash and v) and "\\\u{b}".
        let json = "[\"\\v\u{1b}\", \"\\\\v\", \"\\\\\\v\"]";
        assert_eq!(
            printed(json, Form::Json, true),
            "[\"\\u000b\\u001b\", \"\\\\v\", \"\\\\\\u000b\"]"
        );
        // The text form keeps `\v` (not an escape there: the characters themselves).
        assert_eq!(printed("\"\\v\"", Form::Text, true), "\"\\v\"");
        assert_eq!(printed(json, Form::Json, false), json);
    }

    #[test]
    fn json_is_always_escaped_and_text_only_on_a_terminal() {
        for choice in [
            EscapeChoice::Auto,
            EscapeChoice::Always,
            EscapeChoice::Never,
        ] {
            for terminal in [false, true] {
                assert!(escapes(Form::Json, choice, terminal));
            }
        }
        assert!(escapes(Form::Text, EscapeChoice::Auto, true));
        assert!(!escapes(Form::Text, EscapeChoice::Auto, false));
        assert!(escapes(Form::Text, EscapeChoice::Always, false));
        assert!(!escapes(Form::Text, EscapeChoice::Never, true));
    }
}
