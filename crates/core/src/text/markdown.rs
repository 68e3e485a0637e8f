//! Markdown as the generated files write it: data text escaped so it shows
//! literally, inline code spans, safe link targets and GitHub heading anchors.

use crate::text::ids::is_http_url;

/// Escapes text so Markdown shows it literally: no emphasis, links, tables,
/// headings, list markers or raw HTML.
pub fn escape_markdown(s: &str) -> String {
    let bytes = s.as_bytes();
    // Text can start a line (a one-liner does), where `-`, `+`, `=` or `1.`
    // would turn it into a list or heading (a leading `>` is escaped anyway).
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let block_start = match bytes.first() {
        Some(b'-' | b'+' | b'=') => Some(0),
        Some(b) if b.is_ascii_digit() && matches!(bytes.get(digits), Some(b'.' | b')')) => {
            Some(digits)
        }
        _ => None,
    };
    let mut out = String::with_capacity(s.len() + 8);
    let mut run = 0;
    if let Some(at) = block_start {
        // Only digits come before it: nothing there to escape.
        out.push_str(&s[..at]);
        out.push('\\');
        run = at;
    }
    // Most text needs nothing: the runs between special bytes, found by a
    // table lookup, are copied whole rather than char by char.
    let mut i = run;
    while let Some(k) = bytes[i..]
        .iter()
        .position(|&b| MARKDOWN_SPECIAL[b as usize])
    {
        i += k;
        match markdown_special(bytes, i) {
            Some((with, width)) => {
                out.push_str(&s[run..i]);
                out.push_str(with);
                i += width;
                run = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&s[run..]);
    out
}

/// The bytes [`markdown_special`] may change: ASCII punctuation Markdown
/// reads, control bytes, and 0xC2 (which starts the C1 controls).
const MARKDOWN_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    let marks = b"&<>|\\`*_[]#~\x7f\xc2";
    let mut k = 0;
    while k < marks.len() {
        table[marks[k] as usize] = true;
        k += 1;
    }
    table
};

/// What the character starting at byte `i` becomes in escaped Markdown, and
/// its width in bytes; None when it stays as it is. Control characters (C0,
/// DEL and C1, `char::is_control`) go, line breaks and tabs become spaces.
fn markdown_special(bytes: &[u8], i: usize) -> Option<(&'static str, usize)> {
    let with = match bytes[i] {
        b'&' => "&amp;",
        b'<' => "&lt;",
        b'>' => "&gt;",
        b'|' => "&#124;",
        b'\\' => "\\\\",
        b'`' => "\\`",
        b'*' => "\\*",
        b'_' => "\\_",
        b'[' => "\\[",
        b']' => "\\]",
        b'#' => "\\#",
        b'~' => "\\~",
        b'\r' | b'\n' | b'\t' => " ",
        0x00..=0x1f | 0x7f => "",
        // U+0080..U+009F, the C1 controls, are 0xC2 0x80..0x9F in UTF-8.
        0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => return Some(("", 2)),
        _ => return None,
    };
    Some((with, 1))
}

/// Text as an inline code span: backticks and line breaks cannot end it, and
/// `|` is escaped so it cannot split a table cell.
pub fn code_span(s: &str) -> String {
    // The common case has no backtick, bar or control character (a C1
    // control starts with 0xC2) and is copied whole.
    if !s
        .bytes()
        .any(|b| matches!(b, b'`' | b'|' | 0x00..=0x1f | 0x7f | 0xc2))
    {
        return format!("`{s}`");
    }
    let inner: String = s
        .chars()
        .map(|c| {
            if c == '`' {
                '\''
            } else if c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect();
    format!("`{}`", inner.replace('|', "\\|"))
}

/// A URL made safe for a Markdown link target, or None when it is not http(s).
pub fn link_target(url: &str) -> Option<String> {
    if !is_http_url(url) {
        return None;
    }
    let bytes = url.as_bytes();
    let mut out = String::with_capacity(url.len() + 8);
    let mut run = 0;
    let mut i = 0;
    // Runs between the bytes to change are copied whole, as in `escape_markdown`.
    while i < bytes.len() {
        let (with, width) = match bytes[i] {
            b'(' => ("%28", 1),
            b')' => ("%29", 1),
            b'<' => ("%3C", 1),
            b'>' => ("%3E", 1),
            b'"' => ("%22", 1),
            b'`' => ("%60", 1),
            b'|' => ("%7C", 1),
            0x00..=0x1f | 0x7f => ("", 1),
            0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => ("", 2),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&url[run..i]);
        out.push_str(with);
        i += width;
        run = i;
    }
    out.push_str(&url[run..]);
    Some(out)
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to '-'.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escaping_defuses_tables_links_emphasis_and_html() {
        let s = escape_markdown("a|b *c* _d_ [e](f) <script>x</script> `g`");
        assert!(!s.contains('|'));
        assert!(!s.contains("<script"));
        assert_eq!(
            s,
            "a&#124;b \\*c\\* \\_d\\_ \\[e\\](f) &lt;script&gt;x&lt;/script&gt; \\`g\\`"
        );
        assert_eq!(escape_markdown("- a"), "\\- a");
        assert_eq!(escape_markdown("12. a"), "12\\. a");
        assert_eq!(escape_markdown("> a"), "&gt; a");
        assert_eq!(code_span("a`b|c"), "`a'b\\|c`");
    }

    /// The char-at-a-time escaping the byte scan replaced, kept as the reference.
    fn escape_by_char(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        let block_start = match s.chars().next() {
            Some('-' | '+' | '>' | '=') => Some(0),
            Some(c)
                if c.is_ascii_digit() && matches!(s[digits..].chars().next(), Some('.' | ')')) =>
            {
                Some(digits)
            }
            _ => None,
        };
        for (i, c) in s.chars().enumerate() {
            if block_start == Some(i) && c != '>' {
                out.push('\\');
            }
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '|' => out.push_str("&#124;"),
                '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                '\r' | '\n' | '\t' => out.push(' '),
                c if c.is_control() => {}
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn byte_scan_escaping_equals_char_by_char_escaping() {
        let samples = [
            "",
            "plain text",
            "- a",
            "+",
            "=x",
            "> q",
            "12. a",
            "3) b",
            "12",
            "1a. b",
            "é-ü ĉ|x",
            "a\u{85}b\u{9f}c\u{a0}d\u{7f}e\u{1}f",
            "tab\there\r\nnew",
            "\\ ` * _ [ ] # ~ & < > |",
            "1.\u{80}x",
            "日本語 *強調* 🎉_",
            "Ā\u{c2}",
        ];
        for s in samples {
            assert_eq!(escape_markdown(s), escape_by_char(s), "{s:?}");
        }
        for c in (0..0x250u32)
            .chain(0x2000..0x2100)
            .filter_map(char::from_u32)
        {
            for s in [format!("{c}"), format!("-{c}x"), format!("7{c}.")] {
                assert_eq!(escape_markdown(&s), escape_by_char(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn code_span_copies_plain_text_and_defuses_the_rest() {
        assert_eq!(code_span("plain é"), "`plain é`");
        assert_eq!(code_span("a\u{85}b\nc"), "`a b c`");
        assert_eq!(code_span("Ā"), "`Ā`");
    }

    #[test]
    fn link_targets_drop_controls_and_encode_what_ends_a_link() {
        // The char-by-char encoding the run copying replaced, as the reference.
        let by_char = |url: &str| -> String {
            url.chars()
                .filter(|c| !c.is_control())
                .map(|c| match c {
                    '(' => "%28".to_string(),
                    ')' => "%29".to_string(),
                    '<' => "%3C".to_string(),
                    '>' => "%3E".to_string(),
                    '"' => "%22".to_string(),
                    '`' => "%60".to_string(),
                    '|' => "%7C".to_string(),
                    c => c.to_string(),
                })
                .collect()
        };
        for url in [
            "https://a.org/é(x)<\"`|>",
            "https://a.org/x\u{85}y\u{a0}z",
            "http://b.org/a?q=(1)&r=[2]",
            "https://a.org/plain",
        ] {
            match link_target(url) {
                Some(t) => assert_eq!(t, by_char(url), "{url:?}"),
                None => assert!(!is_http_url(url), "{url:?}"),
            }
        }
        assert_eq!(
            link_target("http://b.org/a?q=(1)&r=[2]").as_deref(),
            Some("http://b.org/a?q=%281%29&r=[2]")
        );
    }

    #[test]
    fn only_http_urls_become_link_targets() {
        assert_eq!(link_target("javascript:alert(1)"), None);
        assert_eq!(
            link_target("https://a.org/x_(y)").as_deref(),
            Some("https://a.org/x_%28y%29")
        );
    }

    #[test]
    fn anchors_follow_github_rules() {
        assert_eq!(
            anchor("RL and Post-Training Methods (42)"),
            "rl-and-post-training-methods-42"
        );
        assert_eq!(anchor("Frameworks & Systems"), "frameworks--systems");
    }
}
