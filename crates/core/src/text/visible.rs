//! Characters that must not reach a terminal raw: control characters (an
//! escape sequence can clear the screen or rewrite what was printed) and
//! bidirectional overrides (they reorder text, hiding what a line says).
//! Human output shows them escaped, and `check` flags them in data.

use std::borrow::Cow;

/// Whether a character is a control or bidirectional-formatting character
/// that changes how text around it is shown. Newline and tab are layout,
/// not hidden, and stay.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The text with every hidden character written as `\u{…}`.
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
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
    fn escapes_controls_and_bidi_overrides_only() {
        assert_eq!(visible("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(visible("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(visible("line\n\tnext é"), "line\n\tnext é");
    }
}
