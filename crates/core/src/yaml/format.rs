//! The canonical layout of entry and record files, as `corpus fmt` writes
//! them: fields in the field table's order, scalars quoted so that YAML 1.1
//! readers (PyYAML, yamllint) and YAML 1.2 readers agree on every value, block
//! lists indented under their key, the schema modeline on entries, no blank
//! lines, one final newline. Comments and every value are kept exactly; the
//! result is re-parsed and compared before it is returned.

use crate::yaml::source::Layout;
use serde_yaml::Value;

/// Which kind of data file a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An entry of the paper pool (corpus/papers/).
    Entry,
    /// A record of the exclusion log (exclusions/).
    Record,
}

impl Kind {
    /// Field names in canonical order.
    fn order(self) -> Vec<&'static str> {
        match self {
            Kind::Entry => crate::model::fields::names(&crate::model::fields::ENTRY),
            Kind::Record => crate::model::fields::names(&crate::model::fields::RECORD),
        }
    }
}

/// Why a text could not be formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// Line of the problem, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// Whether YAML 1.1 (PyYAML, yamllint) resolves this plain scalar to
/// something other than a string: a boolean, null, number, date, merge key.
pub fn ambiguous_in_yaml11(s: &str) -> bool {
    // Every form below starts with one of these letters or with no letter
    // at all; most text starts otherwise and needs no regex.
    if s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() && !b"yYnNtTfFoO".contains(&b))
    {
        return false;
    }
    use regex::Regex;
    use std::sync::OnceLock;
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(concat!(
            r"^(?:",
            // booleans (YAML 1.1 type repository, incl. y/n)
            r"y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
            // null
            r"|~|null|Null|NULL",
            // integers: binary, octal, decimal, hex, sexagesimal
            r"|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+",
            r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
            // floats, incl. PyYAML's exponent forms, sexagesimal, inf and nan
            r"|[-+]?(?:[0-9][0-9_]*)?\.[0-9_.]*(?:[eE][-+]?[0-9]+)?",
            r"|[-+]?[0-9][0-9_]*(?:[eE][-+]?[0-9]+)",
            r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*",
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
            // timestamps: a date, alone or starting a date-time
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?",
            // merge and value keys
            r"|<<|=",
            r")$"
        ))
        .expect("valid regex")
    });
    re.is_match(s)
}

/// Whether a string can be written plain (unquoted) and read back as the
/// same string by YAML 1.1 and 1.2 readers alike.
pub fn plain_ok(s: &str) -> bool {
    if s.is_empty() || s.trim() != s || s.chars().any(|c| c.is_control()) || ambiguous_in_yaml11(s)
    {
        return false;
    }
    surely_plain(s) || plain_round_trips(s)
}

/// A character libyaml reads inside a plain scalar as itself: printable,
/// not a tab, not a line break (`\u{85}`, `\u{2028}`, `\u{2029}` are
/// breaks to YAML) and not a byte-order mark.
fn plain_char(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{A0}'..='\u{2027}' | '\u{202A}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && c != '\u{FEFF}'
}

/// A sufficient test, without parsing, that `k: s` and `- s` read back as the
/// string `s` (which `plain_ok` has already found trimmed, free of control
/// characters and unambiguous in YAML 1.1): it starts with an ASCII letter,
/// so it is no indicator, number, null or tag; YAML 1.2's core schema and
/// Rust's float parser read no word that starts so as anything but text
/// beyond the YAML 1.1 words already excluded, and `inf`/`nan` in any case;
/// no `: `, ` #` or final `:` ends it early; every character is one a plain
/// scalar holds as itself. Checked against the parser by the tests below.
/// Parsing two small documents per value was most of what checking the
/// layout of a large corpus cost.
fn surely_plain(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !["inf", "infinity", "nan"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && s.chars().all(plain_char)
}

/// Whether `k: s` and `- s` parse back to the string `s` (the full test).
fn plain_round_trips(s: &str) -> bool {
    let same = |doc: String, get: &dyn Fn(&Value) -> Option<&Value>| {
        serde_yaml::from_str::<Value>(&doc)
            .ok()
            .as_ref()
            .and_then(get)
            .and_then(Value::as_str)
            == Some(s)
    };
    same(format!("k: {s}\n"), &|v| v.get("k"))
        && same(format!("- {s}\n"), &|v| v.as_sequence()?.first())
}

/// A string as a double-quoted YAML scalar.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string written the canonical way: plain where that is unambiguous, else double-quoted.
pub fn scalar(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_))
}

/// Text in canonical quoting; other scalars as they were written.
fn keep_or_quote(v: &Value, raw: &str) -> String {
    match v {
        Value::String(s) => scalar(s),
        _ => raw.to_string(),
    }
}

/// A scalar value written out: text canonically quoted, others in YAML's plain form.
fn scalar_value(v: &Value) -> String {
    match v {
        Value::String(s) => scalar(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        _ => "null".to_string(),
    }
}

/// Splits `text` (a scalar and maybe a comment) into the scalar's text and the
/// comment (with its leading whitespace), checked by re-parsing `wrap(value)`.
fn split_comment<'a>(
    text: &'a str,
    want: &Value,
    wrap: &dyn Fn(&str) -> String,
    get: &dyn Fn(&Value) -> Option<Value>,
) -> Option<(&'a str, &'a str)> {
    let parses_to = |candidate: &str| {
        serde_yaml::from_str::<Value>(&wrap(candidate))
            .ok()
            .and_then(|v| get(&v))
            .as_ref()
            == Some(want)
    };
    // Most values carry no comment and are written plain or plainly quoted;
    // those read back as themselves without a parse.
    let t = text.trim_end();
    if !text.contains('#') && want.as_str().is_some_and(|w| reads_as_itself(t, w)) {
        return Some((t, ""));
    }
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('#') {
        if i > 0 && (bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            let value = text[..i].trim_end();
            if parses_to(value) {
                let start = value.len();
                return Some((value, &text[start..]));
            }
        }
    }
    parses_to(text.trim_end()).then_some((text.trim_end(), ""))
}

/// Whether `raw`, written after `k: ` or `- `, surely reads as the string
/// `want`: plain and safe (see [`surely_plain`]), or double-quoted with no
/// escape and no quote inside.
fn reads_as_itself(raw: &str, want: &str) -> bool {
    let plain = raw == want
        && !want.is_empty()
        && want.trim() == want
        && !want.chars().any(char::is_control)
        && !ambiguous_in_yaml11(want)
        && surely_plain(want);
    let quoted = raw.len() == want.len() + 2
        && raw.starts_with('"')
        && raw.ends_with('"')
        && &raw[1..raw.len() - 1] == want
        && !want.contains(['"', '\\'])
        && want.chars().all(|c| c == ' ' || plain_char(c));
    plain || quoted
}

/// `key: value` → the key and the byte offset of what follows the colon.
fn top_key(line: &str) -> Option<(String, usize)> {
    if line.starts_with([' ', '\t', '#', '-']) || line.is_empty() {
        return None;
    }
    let (key, after) = if let Some(q) = line.strip_prefix('"').or_else(|| line.strip_prefix('\'')) {
        let end = q.find(line.as_bytes()[0] as char)?;
        (q[..end].to_string(), end + 2)
    } else {
        let end = line.find(':')?;
        (line[..end].trim_end().to_string(), end)
    };
    let rest = line.get(after..)?.strip_prefix(':')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, after + 1))
}

/// One top-level field: the comment lines above it and its own lines.
struct Block<'a> {
    key: String,
    comments: Vec<&'a str>,
    lines: Vec<&'a str>,
}

/// Rewrites a block in canonical form, or keeps it verbatim when its shape is
/// not one this formatter knows (block scalars, nested structures).
fn format_block(b: &Block, value: &Value) -> Vec<String> {
    let first = b.lines[0];
    let (_, colon) = top_key(first).expect("block starts with a key");
    let key_text = &first[..colon - 1];
    let rest = &first[colon..];
    let verbatim = || b.lines.iter().map(|l| l.trim_end().to_string()).collect();
    let continuation: Vec<&str> = b.lines[1..]
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    match value {
        Value::String(s) if continuation.is_empty() => {
            let wrap = |v: &str| format!("k: {v}\n");
            let get = |v: &Value| v.get("k").cloned();
            // An arXiv id is always quoted, however it looks (a design rule).
            let text = if b.key == "arxiv_id" {
                double_quoted(s)
            } else {
                scalar(s)
            };
            match split_comment(rest.trim_start(), value, &wrap, &get) {
                Some((_, comment)) => vec![format!("{key_text}: {text}{comment}")],
                None => verbatim(),
            }
        }
        Value::Sequence(items) if items.iter().all(is_scalar) => {
            let rest_t = rest.trim_start();
            let mut out = Vec::new();
            // The key line: a flow list (kept only if empty), or nothing but a comment.
            let key_comment = if rest_t.starts_with('[') {
                if !continuation.is_empty() {
                    return verbatim();
                }
                let wrap = |v: &str| format!("k: {v}\n");
                let get = |v: &Value| v.get("k").cloned();
                match split_comment(rest_t, value, &wrap, &get) {
                    Some((_, c)) => c.to_string(),
                    None => return verbatim(),
                }
            } else if rest_t.is_empty() || rest_t.starts_with('#') {
                rest.trim_end().to_string()
            } else {
                return verbatim();
            };
            if items.is_empty() {
                return vec![format!("{key_text}: []{key_comment}")];
            }
            out.push(format!("{key_text}:{key_comment}"));
            if rest_t.starts_with('[') {
                for it in items {
                    out.push(format!("  - {}", scalar_value(it)));
                }
                return out;
            }
            let mut n = 0;
            for l in &b.lines[1..] {
                let t = l.trim();
                if t.is_empty() {
                    continue;
                }
                if t.starts_with('#') {
                    out.push(format!("  {t}"));
                    continue;
                }
                let Some(item_text) = t.strip_prefix("- ") else {
                    return verbatim();
                };
                let Some(want) = items.get(n) else {
                    return verbatim();
                };
                let wrap = |v: &str| format!("- {v}\n");
                let get = |v: &Value| v.as_sequence().and_then(|s| s.first()).cloned();
                match split_comment(item_text, want, &wrap, &get) {
                    Some((raw, c)) => out.push(format!("  - {}{c}", keep_or_quote(want, raw))),
                    None => return verbatim(),
                }
                n += 1;
            }
            if n == items.len() {
                out
            } else {
                verbatim()
            }
        }
        Value::Mapping(m)
            if m.values().all(is_scalar)
                && rest.trim().is_empty()
                && m.keys().all(Value::is_string) =>
        {
            let mut out = vec![format!("{key_text}:")];
            let mut n = 0;
            for l in &b.lines[1..] {
                let t = l.trim();
                if t.is_empty() {
                    continue;
                }
                if t.starts_with('#') {
                    out.push(format!("  {t}"));
                    continue;
                }
                let Some((k, c)) = top_key(t) else {
                    return verbatim();
                };
                let Some(want) = m.get(k.as_str()) else {
                    return verbatim();
                };
                let wrap = |v: &str| format!("k: {v}\n");
                let get = |v: &Value| v.get("k").cloned();
                match split_comment(t[c..].trim_start(), want, &wrap, &get) {
                    Some((raw, com)) => out.push(format!(
                        "  {}: {}{com}",
                        &t[..c - 1],
                        keep_or_quote(want, raw)
                    )),
                    None => return verbatim(),
                }
                n += 1;
            }
            if n == m.len() {
                out
            } else {
                verbatim()
            }
        }
        // Numbers, booleans and nulls read the same in YAML 1.1 and 1.2 as
        // written; block scalars and nested structures are kept as they are.
        _ => verbatim(),
    }
}

/// Full-line comments of a text, for the check that formatting keeps them all.
fn comment_lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .collect();
    v.sort_unstable();
    v
}

/// Formats the text of an entry or record file. Line endings stay as they
/// are (CRLF where the file uses CRLF, as a Windows checkout may), and so does
/// a byte-order mark.
pub fn format(text: &str, kind: Kind) -> Result<String, FormatError> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(b) => ("\u{feff}", b),
        None => ("", text),
    };
    let lf = format_lf(body, kind, None)?;
    let out = if body.contains("\r\n") {
        lf.replace('\n', "\r\n")
    } else {
        lf
    };
    Ok(format!("{bom}{out}"))
}

/// The formatted text of a file that `check` has already parsed into
/// `parsed` (a text without byte-order mark): the same as [`format`],
/// without parsing it again.
pub fn format_parsed(text: &str, parsed: &Value, kind: Kind) -> Result<String, FormatError> {
    debug_assert!(!text.starts_with('\u{feff}'));
    let lf = format_lf(text, kind, Some(parsed))?;
    Ok(if text.contains("\r\n") {
        lf.replace('\n', "\r\n")
    } else {
        lf
    })
}

fn format_lf(text: &str, kind: Kind, known: Option<&Value>) -> Result<String, FormatError> {
    let owned;
    let parsed: &Value = match known {
        Some(v) => v,
        None => {
            owned = serde_yaml::from_str(text).map_err(|e| {
                let x = crate::yaml::error::explain(&e, text);
                FormatError {
                    line: x.line,
                    message: format!("not valid YAML: {}\n  = help: {}", x.message, x.help),
                }
            })?;
            &owned
        }
    };
    let Value::Mapping(map) = parsed else {
        return Err(FormatError {
            line: None,
            message: "the file does not hold a mapping of fields".into(),
        });
    };
    let mut header: Vec<&str> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((key, _)) = top_key(line) {
            blocks.push(Block {
                key,
                comments: std::mem::take(&mut pending),
                lines: vec![line],
            });
        } else if line.starts_with('#') {
            pending.push(line);
        } else if let Some(b) = blocks.last_mut() {
            if !pending.is_empty() {
                // Comments at column 0 inside a block's continuation stay in place.
                b.lines.append(&mut pending);
            }
            b.lines.push(line);
        } else if !line.trim().is_empty() {
            header.push(line);
        }
    }
    if blocks.is_empty() {
        return Err(FormatError {
            line: None,
            message: "the file has no fields".into(),
        });
    }
    if header.iter().any(|l| l.trim() != "---") {
        // Anything else before the first field (flow mappings, tags) is not a layout we rewrite.
        return Err(FormatError {
            line: None,
            message: "the file does not start with `key: value` fields".into(),
        });
    }
    // Comments above the first field form the header; the modeline leads entries.
    let mut out: Vec<String> = Vec::new();
    let modeline = crate::model::fields::MODELINE;
    if kind == Kind::Entry {
        out.push(modeline.to_string());
    }
    let first_comments = std::mem::take(&mut blocks[0].comments);
    out.extend(header.iter().map(|l| l.to_string()));
    out.extend(
        first_comments
            .iter()
            .filter(|l| !(kind == Kind::Entry && l.trim_end() == modeline))
            .map(|l| l.trim_end().to_string()),
    );
    let order = kind.order();
    let rank = |k: &str| order.iter().position(|f| *f == k).unwrap_or(order.len());
    blocks.sort_by_key(|b| rank(&b.key)); // stable: unknown fields keep their order
    for b in &blocks {
        out.extend(b.comments.iter().map(|l| l.trim_end().to_string()));
        let value = map.get(b.key.as_str()).unwrap_or(&Value::Null);
        let mut lines = format_block(b, value);
        // Blank lines only separate fields; a block scalar's inner ones are kept.
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        out.extend(lines);
    }
    out.extend(pending.iter().map(|l| l.trim_end().to_string()));
    let mut formatted = out.join("\n");
    formatted.push('\n');
    // Already in layout (the common case): the same text holds the same
    // values and comments, so there is nothing to compare.
    if formatted == text {
        return Ok(formatted);
    }
    let reparsed: Value = serde_yaml::from_str(&formatted).map_err(|e| FormatError {
        line: None,
        message: format!("formatting would break the file ({e}); it was left as it is"),
    })?;
    let mut want_comments = comment_lines(text);
    if kind == Kind::Entry && !want_comments.contains(&modeline) {
        want_comments.push(modeline);
        want_comments.sort_unstable();
    }
    let mut got_comments = comment_lines(&formatted);
    if kind == Kind::Entry {
        // A repeated modeline is dropped on purpose.
        got_comments.dedup_by(|a, b| *a == modeline && *b == modeline);
        want_comments.dedup_by(|a, b| *a == modeline && *b == modeline);
    }
    if &reparsed != parsed || got_comments != want_comments {
        return Err(FormatError {
            line: None,
            message:
                "formatting would change a value or drop a comment; the file was left as it is"
                    .into(),
        });
    }
    Ok(formatted)
}

/// What the canonical layout makes of `text`, already parsed into `parsed`
/// (a text without byte-order mark): the verdict of the `not-formatted` rule.
pub fn layout_of(text: &str, parsed: &Value, kind: Kind) -> Layout {
    verdict(text, format_parsed(text, parsed, kind), kind)
}

/// What the canonical layout makes of `text` (parsed here).
pub fn layout_of_text(text: &str, kind: Kind) -> Layout {
    verdict(text, format(text, kind), kind)
}

fn verdict(text: &str, formatted: Result<String, FormatError>, kind: Kind) -> Layout {
    let Ok(formatted) = formatted else {
        return Layout::Unformattable;
    };
    // A missing modeline alone is schema-modeline's to report.
    let only_modeline =
        kind == Kind::Entry && formatted == format!("{}\n{}", crate::model::fields::MODELINE, text);
    if formatted == text || only_modeline {
        return Layout::Kept;
    }
    let line = text
        .lines()
        .zip(formatted.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| text.lines().count().min(formatted.lines().count()))
        + 1;
    Layout::ChangedAt(line)
}

/// The canonical text of a new entry or record file, for `new` and `import`;
/// text the formatter cannot handle is returned unchanged.
pub fn formatted_or_same(text: String, kind: Kind) -> String {
    format(&text, kind).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The shortcuts agree with the parser: what they accept reads back as itself.
    fn shortcut_agrees(s: &str) {
        if surely_plain(s) && !s.is_empty() && s.trim() == s && !ambiguous_in_yaml11(s) {
            assert!(plain_round_trips(s), "{s:?} is not plain after all");
        }
        let want = Value::String(s.to_string());
        for raw in [s.to_string(), format!("\"{s}\"")] {
            if reads_as_itself(&raw, s) {
                let k: Value = serde_yaml::from_str(&format!("k: {raw}\n")).expect("parses");
                assert_eq!(k.get("k"), Some(&want), "k: {raw}");
                let l: Value = serde_yaml::from_str(&format!("- {raw}\n")).expect("parses");
                assert_eq!(
                    l.as_sequence().and_then(|v| v.first()),
                    Some(&want),
                    "- {raw}"
                );
            }
        }
    }

    #[test]
    fn shortcuts_agree_with_the_parser_on_tricky_values() {
        for s in [
            "inf",
            "Inf",
            "NaN",
            "nan",
            "Infinity",
            "infinity",
            "a: b",
            "a:b",
            "a:",
            "a #b",
            "a#b",
            "a\u{feff}b",
            "a\u{2028}b",
            "a\u{85}b",
            "a\tb",
            "a \u{a0}",
            "null",
            "Null",
            "true",
            "yes",
            "No",
            "on",
            "y",
            "a'b",
            "a\"b",
            "a\\b",
            "a,b",
            "a[b]",
            "a{b}",
            "a - b",
            "a ? b",
            "a|b",
            "a>b",
            "a%b",
            "a@b",
            "a`b",
            "a&b",
            "a*b",
            "a!b",
            "e1",
            "E5",
            "x0",
            "0x1",
            "o1_spawn",
            "Luo, Xufang",
            "Yes: a title",
            "a  b",
            "é",
            "",
        ] {
            shortcut_agrees(s);
        }
    }

    proptest! {
        #[test]
        fn shortcuts_agree_with_the_parser(s in "[a-zA-Z0-9 :#,'\"\\\\\\[\\]{}!&*|>%@`.~+-]{0,12}|[\\PC]{0,6}") {
            shortcut_agrees(&s);
        }
    }

    const MESSY: &str = "\
key: demo   # the file stem
title: 'Yes: a title'
# about the year
year: 2025
is_rl: yes
urls:
- 'https://example.org/a'   # canonical
- https://example.org/b
arxiv_id: '2508.04652'
subdecisions: [o1_spawn, o5_stop]
verified: 'no'
notes: on
waivers:
    arxiv-url-mismatch: 'the page'


";

    #[test]
    fn fields_are_ordered_quoted_and_listed_canonically() {
        let out = format(MESSY, Kind::Entry).unwrap();
        let want = "\
# yaml-language-server: $schema=../entry.schema.json
key: demo   # the file stem
title: \"Yes: a title\"
# about the year
year: 2025
arxiv_id: \"2508.04652\"
urls:
  - https://example.org/a   # canonical
  - https://example.org/b
is_rl: \"yes\"
verified: \"no\"
subdecisions:
  - o1_spawn
  - o5_stop
notes: \"on\"
waivers:
  arxiv-url-mismatch: the page
";
        assert_eq!(out, want);
    }

    #[test]
    fn formatting_is_idempotent() {
        let once = format(MESSY, Kind::Entry).unwrap();
        assert_eq!(format(&once, Kind::Entry).unwrap(), once);
    }

    #[test]
    fn yaml11_specials_are_recognised() {
        for s in [
            "yes",
            "No",
            "on",
            "OFF",
            "y",
            "~",
            "null",
            "12",
            "0o7",
            "1_000",
            "3.5",
            ".inf",
            "2026-04-26",
            "1:20",
        ] {
            assert!(ambiguous_in_yaml11(s) || !plain_ok(s), "{s}");
        }
        for s in ["yes", "no", "2026-04-26", "012", "1e3", "Null"] {
            assert!(ambiguous_in_yaml11(s), "{s}");
        }
        for s in [
            "NA",
            "core",
            "arXiv",
            "Liu, Shuo",
            "R1",
            "o1_spawn",
            "2026 report",
        ] {
            assert!(!ambiguous_in_yaml11(s), "{s}");
            assert!(plain_ok(s), "{s}");
        }
    }

    #[test]
    fn strings_that_need_quotes_get_them() {
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("x #y"), "\"x #y\"");
        assert_eq!(scalar("'q'"), "\"'q'\"");
        assert_eq!(scalar("back\\slash \"q\""), "back\\slash \"q\"");
        assert_eq!(scalar("*star"), "\"*star\"");
        assert_eq!(scalar("[x]"), "\"[x]\"");
        assert_eq!(scalar(""), "\"\"");
    }

    #[test]
    fn block_scalars_are_kept_verbatim() {
        let text = "record_id: E001\nreason: |\n  line one\n\n  line two\n";
        let out = format(text, Kind::Record).unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn unknown_fields_go_last_in_their_order() {
        let out = format("zeta: 1\nrecord_id: E002\nalpha: 2\n", Kind::Record).unwrap();
        assert_eq!(out, "record_id: E002\nzeta: 1\nalpha: 2\n");
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_kept() {
        let text = "\u{feff}record_id: E001\r\ntitle: 'x'\r\n";
        assert_eq!(
            format(text, Kind::Record).unwrap(),
            "\u{feff}record_id: E001\r\ntitle: x\r\n"
        );
    }

    #[test]
    fn broken_yaml_is_refused_with_its_line() {
        let e = format("key: a\ntitle: [unclosed\n", Kind::Entry).unwrap_err();
        assert!(e.message.contains("not valid YAML"), "{e:?}");
        assert!(e.line.is_some());
    }
}
