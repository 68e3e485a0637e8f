//! One top-level field of a file rewritten in the canonical layout, its comments kept in place.

use super::quoting::{
    double_quoted, is_scalar, keep_or_quote, reads_as_itself, scalar, scalar_value,
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
pub(super) fn top_key(line: &str) -> Option<(String, usize)> {
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
pub(super) struct Block<'a> {
    pub(super) key: String,
    pub(super) comments: Vec<&'a str>,
    pub(super) lines: Vec<&'a str>,
}

/// Rewrites a block in canonical form, or keeps it verbatim when its shape is
/// not one this formatter knows (block scalars, nested structures).
pub(super) fn format_block(b: &Block, value: &Value) -> Vec<String> {
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
            let text = if b.key == fields::ARXIV_ID {
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
