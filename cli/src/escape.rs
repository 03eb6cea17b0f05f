//! Control characters in decoded text, made harmless before they reach a terminal.
//!
//! `inspect` reads untrusted files: a String in them may hold ESC sequences that set the
//! window title, clear the screen or recolour what follows, CR and BS that overwrite what was
//! printed, or bidirectional overrides that reorder it. Each such character is written as
//! `\uXXXX`, an escape that both JSON and Godot's text form (`str_to_var`, inside a string)
//! read back as the same character.

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
}
