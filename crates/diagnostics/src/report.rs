//! Renderers that turn diagnostics into text: rustc-like `human`, one JSON
//! object per line, and GitHub workflow annotations.

use crate::diag::{Diagnostic, Severity};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Output format of diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// rustc-like text with source snippets.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

/// Source texts by file label, for snippets in the human format.
pub type Sources<'a> = BTreeMap<&'a str, &'a str>;

/// Renders diagnostics in the given format; `summary` is added to human output only.
pub fn render(
    diags: &[Diagnostic],
    format: Format,
    sources: &Sources,
    summary: Option<&str>,
) -> String {
    match format {
        Format::Human => {
            let mut out = String::new();
            for d in diags {
                out.push_str(&human(d, sources));
            }
            if let Some(s) = summary {
                out.push_str(s);
                out.push('\n');
            }
            out
        }
        Format::Json => diags.iter().map(json).map(|l| l + "\n").collect(),
        Format::Github => diags.iter().map(github).map(|l| l + "\n").collect(),
    }
}

/// ANSI styles of the human format, for a terminal that shows colour.
mod ansi {
    pub const RED: &str = "\x1b[1;31m";
    pub const YELLOW: &str = "\x1b[1;33m";
    pub const BLUE: &str = "\x1b[1;34m";
    pub const CYAN: &str = "\x1b[1;36m";
    pub const BOLD: &str = "\x1b[1m";
    pub const RESET: &str = "\x1b[0m";
}

/// Text in the human format (diagnostics, reports, error lines) with the
/// colours of a terminal: severity labels, locations, gutters, carets and
/// help. Only the tool's own marks are styled, found by the shape of each
/// line; the text from data files is left as it is. Call it on text whose
/// control characters were already made visible, so data cannot forge a style.
pub fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.push_str(&paint_line(body));
        out.push_str(end);
    }
    out
}

fn paint_line(line: &str) -> String {
    use ansi::*;
    for (label, colour) in [("error", RED), ("warning", YELLOW)] {
        let Some(rest) = line.strip_prefix(label) else {
            continue;
        };
        // `error[rule]: message` or `error: message`.
        let head = if rest.starts_with('[') {
            rest.find("]:").map(|i| i + 2)
        } else {
            rest.starts_with(':').then_some(1)
        };
        if let Some(h) = head {
            let (tag, msg) = rest.split_at(h);
            return format!("{colour}{label}{tag}{RESET}{BOLD}{msg}{RESET}");
        }
    }
    let indent = line.len() - line.trim_start().len();
    let (pad, trimmed) = line.split_at(indent);
    if let Some(rest) = trimmed.strip_prefix("--> ") {
        return format!("{pad}{BLUE}-->{RESET} {rest}");
    }
    if let Some(rest) = trimmed.strip_prefix("= help:") {
        return format!("{pad}{BLUE}={RESET} {CYAN}help{RESET}:{rest}");
    }
    // A gutter: `12 | source`, `   |` or `   | ^^^^` (a table's `| a |` is none).
    if let Some((num, rest)) = trimmed.split_once('|') {
        let caret = !rest.trim().is_empty() && rest.trim().chars().all(|c| c == '^' || c == '-');
        let numbered = !num.trim().is_empty() && num.trim().chars().all(|c| c.is_ascii_digit());
        if (numbered && rest.starts_with(' '))
            || (num.trim().is_empty() && (caret || rest.is_empty()))
        {
            let rest = if caret {
                format!("{RED}{rest}{RESET}")
            } else {
                rest.to_string()
            };
            return format!("{pad}{BLUE}{num}|{RESET}{rest}");
        }
    }
    line.to_string()
}

/// One diagnostic as a single-line JSON object.
pub fn json(d: &Diagnostic) -> String {
    serde_json::to_string(d).unwrap_or_default()
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One diagnostic as a GitHub `::error …::message` annotation.
pub fn github(d: &Diagnostic) -> String {
    let mut props = format!("file={}", escape_property(&d.file));
    if let Some(l) = d.line {
        let _ = write!(props, ",line={l}");
    }
    if let Some(c) = d.column {
        let _ = write!(props, ",col={c}");
    }
    let _ = write!(props, ",title={}", escape_property(&d.rule));
    let mut msg = d.message.clone();
    if let Some(h) = &d.help {
        msg.push_str("\nhelp: ");
        msg.push_str(h);
    }
    format!("::{} {props}::{}", d.severity.as_str(), escape_data(&msg))
}

/// One diagnostic in the rustc-like human format.
pub fn human(d: &Diagnostic, sources: &Sources) -> String {
    let mut out = format!("{}[{}]: {}\n", d.severity, d.rule, d.message);
    let loc = match (d.line, d.column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", d.file),
        (Some(l), None) => format!("{}:{l}", d.file),
        _ => d.file.clone(),
    };
    let snippet = d.line.and_then(|l| {
        let text = sources.get(d.file.as_str())?;
        let line = text.lines().nth(l.checked_sub(1)?)?.trim_end_matches('\r');
        Some((l, line))
    });
    let width = snippet.map(|(l, _)| l.to_string().len()).unwrap_or(1);
    let pad = " ".repeat(width);
    let _ = writeln!(out, "{pad}--> {loc}");
    if let Some((l, line)) = snippet {
        // Long lines (minified JSON) are shown as a window around the column.
        let col = d.column.map(|c| c.saturating_sub(1)).unwrap_or(0);
        let skip = if col > 100 { col - 40 } else { 0 };
        let (lead, start) = if skip > 0 {
            ("…", col - skip + 1)
        } else {
            ("", col)
        };
        let shown: String = lead
            .chars()
            .chain(line.chars().skip(skip).take(160))
            .collect();
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{l:>width$} | {shown}");
        if d.column.is_some() {
            let start = start.min(shown.chars().count());
            let rest: String = shown.chars().skip(start).collect();
            let json = d.file.ends_with(".json");
            // At the start of a YAML line the caret is on a field name: under it, not the value.
            let len = (col == 0 && !json)
                .then(|| key_len(&rest))
                .flatten()
                .unwrap_or_else(|| token_len(&rest, json))
                .clamp(1, 60);
            let _ = writeln!(out, "{pad} | {}{}", " ".repeat(start), "^".repeat(len));
        }
    }
    if let Some(h) = &d.help {
        let _ = writeln!(out, "{pad} = help: {h}");
    }
    out.push('\n');
    out
}

/// Length of the token a caret should underline: a YAML value up to a
/// comment, or one JSON string, number or literal.
/// The length of the name of a `name: value` line (None when the line is no such pair).
fn key_len(line: &str) -> Option<usize> {
    let (key, after) = line.split_once(':')?;
    let plain = !key.is_empty() && !key.contains(char::is_whitespace);
    (plain && (after.is_empty() || after.starts_with([' ', '\t']))).then(|| key.chars().count())
}

fn token_len(rest: &str, json: bool) -> usize {
    if !json {
        return rest
            .split(" #")
            .next()
            .unwrap_or("")
            .trim_end()
            .chars()
            .count();
    }
    if let Some(body) = rest.strip_prefix('"') {
        let mut escaped = false;
        for (i, c) in body.chars().enumerate() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => return i + 2,
                _ => escaped = false,
            }
        }
        return rest.chars().count();
    }
    if rest.starts_with(['{', '[']) {
        return 1;
    }
    rest.chars()
        .take_while(|c| !matches!(c, ',' | '}' | ']') && !c.is_whitespace())
        .count()
}

/// A one-line count of what was found, e.g. "2 errors, 1 warning (3 waived)".
pub fn summary(diags: &[Diagnostic], waived: usize, checked: &str) -> String {
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("{n} {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    let mut s = format!(
        "{checked}: {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    if waived > 0 {
        let _ = write!(s, " ({waived} waived)");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn d() -> Diagnostic {
        Diagnostic::new(
            Rule::UnknownValue,
            Severity::Error,
            "corpus/papers/a.yaml",
            "`reward_type` has value `shard`",
        )
        .at(2, 14)
        .field("reward_type")
        .help("did you mean `shared`?")
    }

    #[test]
    fn paint_styles_the_tools_marks_and_leaves_data_alone() {
        let text = "error[unknown-field]: unknown field `x`\n  --> a.yaml:3:1\n   |\n 3 | x: 1 | error: no\n   | ^\n   = help: did you mean `y`?\nchecked 1 entry\n";
        let painted = paint(text);
        assert!(
            painted.starts_with("\x1b[1;31merror[unknown-field]:\x1b[0m"),
            "{painted}"
        );
        assert!(painted.contains("\x1b[1;31m ^\x1b[0m"), "{painted}");
        assert!(
            painted.contains("x: 1 | error: no\n"),
            "data untouched: {painted}"
        );
        assert!(painted.contains("\x1b[1;36mhelp\x1b[0m"), "{painted}");
        assert!(painted.ends_with("checked 1 entry\n"));
        let plain = regex_free_strip(&painted);
        assert_eq!(plain, text, "styles only add escapes");
        let table = "| key | year |\n";
        assert_eq!(paint(table), table, "a table is no gutter");
    }

    /// The text without its ANSI escapes.
    fn regex_free_strip(s: &str) -> String {
        let mut out = String::new();
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c == '\x1b' {
                for d in it.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn human_shows_location_snippet_caret_and_help() {
        let mut src = Sources::new();
        src.insert("corpus/papers/a.yaml", "key: a\nreward_type: shard\n");
        let out = human(&d(), &src);
        assert_eq!(
            out,
            "error[unknown-value]: `reward_type` has value `shard`\n --> corpus/papers/a.yaml:2:14\n  |\n2 | reward_type: shard\n  |              ^^^^^\n  = help: did you mean `shared`?\n\n"
        );
    }

    #[test]
    fn long_lines_show_a_window_around_the_column() {
        let line = format!("{}BAD{}", "x".repeat(500), "y".repeat(500));
        let mut src = Sources::new();
        src.insert("t.json", line.as_str());
        let d = Diagnostic::new(Rule::TraceSchema, Severity::Error, "t.json", "bad").at(1, 501);
        let out = human(&d, &src);
        let lines: Vec<&str> = out.lines().collect();
        let text = lines[3].split(" | ").nth(1).unwrap();
        let caret = lines[4].split(" | ").nth(1).unwrap();
        assert!(text.starts_with('…'));
        let at = caret.find('^').unwrap();
        assert_eq!(&text.chars().skip(at).take(3).collect::<String>(), "BAD");
        assert!(text.chars().count() <= 161);
    }

    #[test]
    fn github_escapes_properties_and_newlines() {
        let mut x = d();
        x.file = "a,b:c.yaml".into();
        x.message = "50% done\nnext".into();
        assert_eq!(
            github(&x),
            "::error file=a%2Cb%3Ac.yaml,line=2,col=14,title=unknown-value::50%25 done%0Anext%0Ahelp: did you mean `shared`?"
        );
    }

    #[test]
    fn json_is_one_line_with_all_fields() {
        let line = json(&d());
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["rule"], "unknown-value");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["line"], 2);
        assert_eq!(v["field"], "reward_type");
    }

    #[test]
    fn summary_counts_and_pluralises() {
        assert_eq!(
            summary(&[d()], 3, "checked 1 file"),
            "checked 1 file: 1 error, 0 warnings (3 waived)"
        );
    }
}
