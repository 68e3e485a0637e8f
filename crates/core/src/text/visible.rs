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

/// Whether a text may hold a hidden character in a value read from it: it
/// holds one itself, or a backslash that could write one as an escape. Most
/// texts have neither; bytes first, as the hidden ASCII characters are the
/// controls but newline and tab, and only a text with other characters
/// needs decoding.
fn may_hide(text: &str) -> bool {
    // One pass that never stops early (so it runs many bytes at a time):
    // nearly every text has none of these, so nearly every pass goes to
    // the end anyway.
    let (mut ascii, mut wide) = (false, false);
    for &b in text.as_bytes() {
        ascii |= b == b'\\' || (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f;
        wide |= !b.is_ascii();
    }
    ascii || (wide && text.chars().any(|c| !c.is_ascii() && is_hidden(c)))
}

/// Every text value of an item read from `text` holding a hidden character,
/// by path (`authors[1]`, `waivers.rule`), with the first such character;
/// a text that cannot hide one needs no walk over the item's values.
pub fn hidden_values<T: serde::Serialize>(text: &str, item: &T) -> Vec<(String, char)> {
    fn walk(v: &serde_json::Value, path: &str, out: &mut Vec<(String, char)>) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(c) = s.chars().find(|c| is_hidden(*c)) {
                    out.push((path.to_string(), c));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, &format!("{path}[{i}]"), out);
                }
            }
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if may_hide(text) {
        if let Ok(v) = serde_json::to_value(item) {
            walk(&v, "", &mut out);
        }
    }
    out
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

    #[test]
    fn a_text_may_hide_exactly_when_it_holds_a_hidden_character_or_a_backslash() {
        let chars = (0..0x3000).chain(0xFEFF..0xFF00).filter_map(char::from_u32);
        for c in chars.chain(['\u{1F600}', '\u{E0001}']) {
            for text in [format!("{c}"), format!("plain ascii {c} é — text")] {
                let hides = c == '\\' || is_hidden(c);
                assert_eq!(may_hide(&text), hides, "{:?}", c);
            }
        }
        assert!(!may_hide("title: Plain — “quoted” naïve\n\tindented\n"));
    }
}
