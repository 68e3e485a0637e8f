//! Markdown as the generated files write it: data text escaped so it shows
//! literally, inline code spans, safe link targets and GitHub heading anchors.

use crate::text::ids::is_http_url;

/// Escapes text so Markdown shows it literally: no emphasis, links, tables,
/// headings, list markers or raw HTML.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Text can start a line (a one-liner does), where `-`, `+`, `>`, `=` or
    // `1.` would turn it into a list, quote or heading.
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    let block_start = match s.chars().next() {
        Some('-' | '+' | '>' | '=') => Some(0),
        Some(c) if c.is_ascii_digit() && matches!(s[digits..].chars().next(), Some('.' | ')')) => {
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

/// Text as an inline code span: backticks and line breaks cannot end it, and
/// `|` is escaped so it cannot split a table cell.
pub fn code_span(s: &str) -> String {
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
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '"' => out.push_str("%22"),
            '`' => out.push_str("%60"),
            '|' => out.push_str("%7C"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
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
