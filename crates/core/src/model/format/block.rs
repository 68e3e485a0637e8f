//! One top-level field of a file rewritten in the canonical layout, its comments kept in place.

use super::quoting::{
    is_scalar, push_double_quoted, push_keep_or_quote, push_scalar, push_scalar_value,
    reads_as_itself,
};
use crate::model::fields;
use serde_yaml::Value;

/// Splits `text` (a scalar and maybe a comment) into the scalar's text and the
/// comment (with its leading whitespace), checked by re-parsing `wrap(value)`.
fn split_comment<'a>(
    text: &'a str,
    want: &Value,
    wrap: &dyn Fn(&str) -> String,
    get: &dyn Fn(&Value) -> Option<Value>,
) -> Option<(&'a str, &'a str)> {
    let parses_to = |candidate: &str| {
        crate::yaml::flat::parse_value(&wrap(candidate))
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

/// `key: value` → the key and the byte offset of what follows the colon.
pub(super) fn top_key(line: &str) -> Option<(&str, usize)> {
    if line.starts_with([' ', '\t', '#', '-']) || line.is_empty() {
        return None;
    }
    let (key, after) = if let Some(q) = line.strip_prefix('"').or_else(|| line.strip_prefix('\'')) {
        let end = q.find(line.as_bytes()[0] as char)?;
        (&q[..end], end + 2)
    } else {
        let end = crate::text::lines::find_byte(line, b':')?;
        (line[..end].trim_end(), end)
    };
    let rest = line.get(after..)?.strip_prefix(':')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, after + 1))
}

/// One top-level field: the comment lines above it and its own lines.
pub(super) struct Block<'a> {
    pub(super) key: &'a str,
    /// Where the field goes in the canonical order (unknown fields last).
    pub(super) rank: usize,
    /// The field's parsed value.
    pub(super) value: &'a Value,
    /// The comment lines above the field.
    pub(super) comments: &'a [&'a str],
    /// The field's lines: its key's, then its continuation.
    pub(super) lines: &'a [&'a str],
}

/// Writes `prefix` and a scalar as `push` renders it: when that is the
/// line as written, keeps it (the line is already canonical, the common
/// case) and ends the line; otherwise takes it back.
fn kept_as_written(
    out: &mut String,
    prefix: &[&str],
    push: impl FnOnce(&mut String),
    written: &str,
) -> bool {
    let start = out.len();
    out.extend(prefix.iter().copied());
    push(out);
    if out[start..] == *written {
        out.push('\n');
        true
    } else {
        out.truncate(start);
        false
    }
}

/// Appends a line and its line break.
fn line(out: &mut String, parts: &[&str]) {
    parts.iter().for_each(|p| out.push_str(p));
    out.push('\n');
}

/// Writes a block in canonical form onto `out`, one line each with its
/// break, or keeps it verbatim when its shape is not one this formatter
/// knows (block scalars, nested structures); blank lines that end the block
/// are left out. The lines go straight into the one text: formatting every
/// file of a large corpus on each check made a string per line most of its cost.
pub(super) fn format_block(b: &Block, out: &mut String) {
    let start = out.len();
    if !canonical(b, b.value, out) {
        out.truncate(start);
        let kept = b.lines.iter().rposition(|l| !l.trim().is_empty());
        for l in &b.lines[..kept.map_or(0, |i| i + 1)] {
            line(out, &[l.trim_end()]);
        }
    }
}

/// Writes the canonical form of a block onto `out`; `false` (with `out`
/// partly written) when the block must be kept verbatim.
fn canonical(b: &Block, value: &Value, out: &mut String) -> bool {
    let first = b.lines[0];
    let Some((_, colon)) = top_key(first) else {
        return false;
    };
    let key_text = &first[..colon - 1];
    let rest = &first[colon..];
    let continued = b.lines[1..].iter().any(|l| !l.trim().is_empty());
    match value {
        Value::String(s) if !continued => {
            // Already canonical (the common case): the line is its own
            // canonical form, which reads back as the value.
            let push = |out: &mut String| {
                if b.key == fields::ARXIV_ID {
                    push_double_quoted(out, s);
                } else {
                    push_scalar(out, s);
                }
            };
            if kept_as_written(out, &[key_text, ": "], push, first) {
                return true;
            }
            let wrap = |v: &str| format!("k: {v}\n");
            let get = |v: &Value| v.get("k").cloned();
            let Some((_, comment)) = split_comment(rest.trim_start(), value, &wrap, &get) else {
                return false;
            };
            out.push_str(key_text);
            out.push_str(": ");
            // An arXiv id is always quoted, however it looks (a design rule).
            if b.key == fields::ARXIV_ID {
                push_double_quoted(out, s);
            } else {
                push_scalar(out, s);
            }
            line(out, &[comment]);
            true
        }
        Value::Sequence(items) if items.iter().all(is_scalar) => {
            let rest_t = rest.trim_start();
            // The key line: a flow list (kept only if empty), or nothing but a comment.
            let key_comment = if rest_t.starts_with('[') {
                if continued {
                    return false;
                }
                let wrap = |v: &str| format!("k: {v}\n");
                let get = |v: &Value| v.get("k").cloned();
                match split_comment(rest_t, value, &wrap, &get) {
                    Some((_, c)) => c,
                    None => return false,
                }
            } else if rest_t.is_empty() || rest_t.starts_with('#') {
                rest.trim_end()
            } else {
                return false;
            };
            if items.is_empty() {
                line(out, &[key_text, ": []", key_comment]);
                return true;
            }
            line(out, &[key_text, ":", key_comment]);
            if rest_t.starts_with('[') {
                for it in items {
                    out.push_str("  - ");
                    push_scalar_value(out, it);
                    out.push('\n');
                }
                return true;
            }
            let mut n = 0;
            for l in &b.lines[1..] {
                let t = l.trim();
                if t.is_empty() {
                    continue;
                }
                if t.starts_with('#') {
                    line(out, &["  ", t]);
                    continue;
                }
                let Some(item_text) = t.strip_prefix("- ") else {
                    return false;
                };
                let Some(want) = items.get(n) else {
                    return false;
                };
                n += 1;
                if let Value::String(w) = want {
                    if kept_as_written(out, &["  - "], |o| push_scalar(o, w), l) {
                        continue;
                    }
                }
                let wrap = |v: &str| format!("- {v}\n");
                let get = |v: &Value| v.as_sequence().and_then(|s| s.first()).cloned();
                let Some((raw, c)) = split_comment(item_text, want, &wrap, &get) else {
                    return false;
                };
                out.push_str("  - ");
                push_keep_or_quote(out, want, raw);
                line(out, &[c]);
            }
            n == items.len()
        }
        Value::Mapping(m)
            if m.values().all(is_scalar)
                && rest.trim().is_empty()
                && m.keys().all(Value::is_string) =>
        {
            line(out, &[key_text, ":"]);
            let mut n = 0;
            for l in &b.lines[1..] {
                let t = l.trim();
                if t.is_empty() {
                    continue;
                }
                if t.starts_with('#') {
                    line(out, &["  ", t]);
                    continue;
                }
                let Some((k, c)) = top_key(t) else {
                    return false;
                };
                let Some(want) = m.get(k) else {
                    return false;
                };
                n += 1;
                if let Value::String(w) = want {
                    if kept_as_written(out, &["  ", &t[..c - 1], ": "], |o| push_scalar(o, w), l) {
                        continue;
                    }
                }
                let wrap = |v: &str| format!("k: {v}\n");
                let get = |v: &Value| v.get("k").cloned();
                let Some((raw, com)) = split_comment(t[c..].trim_start(), want, &wrap, &get) else {
                    return false;
                };
                out.push_str("  ");
                out.push_str(&t[..c - 1]);
                out.push_str(": ");
                push_keep_or_quote(out, want, raw);
                line(out, &[com]);
            }
            n == m.len()
        }
        // Numbers, booleans and nulls read the same in YAML 1.1 and 1.2 as
        // written; block scalars and nested structures are kept as they are.
        _ => false,
    }
}
