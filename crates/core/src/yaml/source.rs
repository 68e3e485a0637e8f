//! One data file as read: its root-relative path, its text, and the lines
//! and columns of its fields (scanned from the text, because the YAML
//! parser does not keep positions on values).

use std::collections::BTreeMap;

/// Positions of fields in one file: `field`, `field[i]`, `field.sub` → (line, column).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spans {
    map: BTreeMap<String, (usize, usize)>,
}

impl Spans {
    /// Line of a field path, when found.
    pub fn line(&self, path: &str) -> Option<usize> {
        self.map.get(path).map(|p| p.0)
    }

    /// Line and column of a field path's value.
    pub fn pos(&self, path: &str) -> Option<(usize, usize)> {
        self.map.get(path).copied()
    }

    /// Raw text of a top-level field's value on its line (for lossless hints).
    pub fn raw_value<'a>(&self, text: &'a str, field: &str) -> Option<&'a str> {
        let (line, col) = self.pos(field)?;
        let l = text.lines().nth(line - 1)?;
        let v = l.get(col - 1..)?;
        let v = v.split(" #").next().unwrap_or(v);
        Some(v.trim())
    }

    /// Scans YAML text for top-level keys, their list items and nested keys.
    pub fn scan(text: &str) -> Spans {
        let mut map = BTreeMap::new();
        let mut current: Option<String> = None;
        let mut item = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let lineno = i + 1;
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || line == "---" {
                continue;
            }
            let indent = line.len() - trimmed.len();
            if indent == 0 && !trimmed.starts_with('-') {
                if let Some((key, col)) = split_key(line) {
                    let rest = line.get(col - 1..).unwrap_or("").trim_start();
                    // With the value on the following lines, point at the key itself.
                    let at = if rest.is_empty() || rest.starts_with('#') {
                        1
                    } else {
                        col
                    };
                    map.entry(key.clone()).or_insert((lineno, at));
                    item = 0;
                    if let Some(inner) = rest.strip_prefix('[') {
                        for _ in inner
                            .split(',')
                            .filter(|s| !s.trim().trim_end_matches(']').is_empty())
                        {
                            map.entry(format!("{key}[{item}]")).or_insert((lineno, col));
                            item += 1;
                        }
                    }
                    current = Some(key);
                } else {
                    current = None;
                }
                continue;
            }
            let Some(cur) = &current else { continue };
            if let Some(rest) =
                trimmed
                    .strip_prefix("- ")
                    .or(if trimmed == "-" { Some("") } else { None })
            {
                let _ = rest;
                map.entry(format!("{cur}[{item}]"))
                    .or_insert((lineno, indent + 3));
                item += 1;
            } else if let Some((key, col)) = split_key(trimmed) {
                map.entry(format!("{cur}.{key}"))
                    .or_insert((lineno, indent + col));
            }
        }
        Spans { map }
    }

    /// Line of the second occurrence of a top-level key (for duplicate-field reports).
    pub fn second_occurrence(text: &str, key: &str) -> Option<usize> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with([' ', '\t', '#', '-']))
            .filter(|(_, l)| {
                split_key(l.trim_end_matches('\r')).map(|(k, _)| k) == Some(key.to_string())
            })
            .nth(1)
            .map(|(i, _)| i + 1)
    }
}

/// Splits `key: value` into the unquoted key and the 1-based column of the value.
fn split_key(line: &str) -> Option<(String, usize)> {
    let (key, after) = if let Some(q) = line.strip_prefix('"').or_else(|| line.strip_prefix('\'')) {
        let quote = line.as_bytes()[0] as char;
        let end = q.find(quote)?;
        (q[..end].to_string(), end + 2)
    } else {
        let end = line.find(':')?;
        (line[..end].trim_end().to_string(), end)
    };
    let rest = line.get(after..)?;
    let rest_after_colon = rest.strip_prefix(':')?;
    if !(rest_after_colon.is_empty() || rest_after_colon.starts_with([' ', '\t'])) {
        return None;
    }
    let ws = rest_after_colon.len() - rest_after_colon.trim_start().len();
    Some((key, after + 1 + ws + 1))
}

/// The line of the second `key:` at or after line `from` (1-based), list
/// items included.
pub fn second_key_line(text: &str, from: usize, key: &str) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .filter(|(_, l)| {
            let t = l.trim_start();
            let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
            line_key(t).as_deref() == Some(key)
        })
        .nth(1)
        .map(|(i, _)| i + 1)
}

/// The key of a `key: value` line (quotes removed), if the line is one.
pub fn line_key(s: &str) -> Option<String> {
    let s = s.trim_end_matches('\r');
    let (key, rest) = if let Some(q) = s.strip_prefix(['"', '\'']) {
        let end = q.find(s.as_bytes()[0] as char)?;
        (&q[..end], &q[end + 1..])
    } else {
        let end = s.find(':')?;
        (s[..end].trim_end(), &s[end..])
    };
    let after = rest.trim_start().strip_prefix(':')?;
    (after.is_empty() || after.starts_with([' ', '\t'])).then(|| key.to_string())
}

/// Lines of the items of a top-level block sequence (a list of mappings),
/// and of their keys: (line of the item, key -> line).
pub struct ItemSpans {
    /// Each item's line and the lines of its keys.
    pub items: Vec<(usize, BTreeMap<String, usize>)>,
}

impl ItemSpans {
    /// Scans YAML text holding a list of mappings.
    pub fn scan(text: &str) -> ItemSpans {
        let mut items: Vec<(usize, BTreeMap<String, usize>)> = Vec::new();
        let mut dash_col: Option<usize> = None;
        let mut key_col = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
                continue;
            }
            let ind = line.len() - trimmed.len();
            let is_item = trimmed == "-" || trimmed.starts_with("- ");
            if is_item && dash_col.is_none_or(|x| x == ind) {
                dash_col = Some(ind);
                let rest = trimmed[1..].trim_start();
                // The item's mapping keys line up with its first key, after
                // the dash and however many spaces follow it (two by default).
                key_col = if rest.is_empty() {
                    ind + 2
                } else {
                    line.len() - rest.len()
                };
                let mut keys = BTreeMap::new();
                if let Some(k) = line_key(rest) {
                    keys.insert(k, i + 1);
                }
                items.push((i + 1, keys));
                continue;
            }
            if let Some((_, keys)) = items.last_mut() {
                if ind == key_col {
                    if let Some(k) = line_key(trimmed) {
                        keys.entry(k).or_insert(i + 1);
                    }
                }
            }
        }
        ItemSpans { items }
    }
}

/// One data file as read from disk.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the root, with `/` separators.
    pub rel: String,
    /// File text (BOM removed), shared with the inputs it was read into.
    pub text: std::sync::Arc<str>,
    /// Field positions, scanned on first use: clean files never need them.
    spans: std::sync::OnceLock<Spans>,
    /// What the canonical layout makes of the file, when the loader found
    /// out while it had the file parsed (so the check need not parse it again).
    pub layout: Option<Layout>,
}

/// What the canonical layout (`corpus fmt`) makes of a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The file is in layout, or lacks only the schema modeline.
    Kept,
    /// The layout changes the file, first at this 1-based line.
    ChangedAt(usize),
    /// The formatter leaves the file alone (a shape it does not rewrite).
    Unformattable,
}

impl SourceFile {
    /// A file read from disk.
    pub fn new(rel: String, text: impl Into<std::sync::Arc<str>>) -> SourceFile {
        SourceFile {
            rel,
            text: text.into(),
            spans: std::sync::OnceLock::new(),
            layout: None,
        }
    }

    /// Field positions of the file.
    pub fn spans(&self) -> &Spans {
        self.spans.get_or_init(|| Spans::scan(&self.text))
    }

    /// Replaces the text with `empty`, and the positions scanned from it.
    pub(crate) fn release_text(&mut self, empty: std::sync::Arc<str>) {
        self.text = empty;
        self.spans = std::sync::OnceLock::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_finds_fields_items_and_nested_keys() {
        let s = Spans::scan("key: a\nurls:\n  - https://x\n  - https://y\nsubdecisions: [o1_spawn, o2_delegate]\nwaivers:\n  arxiv-year: because\n");
        assert_eq!(s.pos("key"), Some((1, 6)));
        assert_eq!(s.line("urls[1]"), Some(4));
        assert_eq!(s.line("subdecisions[1]"), Some(5));
        assert_eq!(s.line("waivers.arxiv-year"), Some(7));
    }

    #[test]
    fn raw_value_keeps_trailing_zeros() {
        let text = "arxiv_id: 2510.20510 # comment\n";
        let s = Spans::scan(text);
        assert_eq!(s.raw_value(text, "arxiv_id"), Some("2510.20510"));
    }

    #[test]
    fn second_occurrence_locates_duplicates() {
        assert_eq!(Spans::second_occurrence("a: 1\nb: 2\na: 3\n", "a"), Some(3));
    }
}
