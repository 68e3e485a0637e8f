//! The text around a parser error: its lines, their indentation and keys, and YAML quoting.

/// Line `n` (1-based) of the text, without its line break.
pub(super) fn line_of(text: &str, n: usize) -> &str {
    text.lines()
        .nth(n.saturating_sub(1))
        .unwrap_or("")
        .trim_end_matches('\r')
}

/// The character at a 1-based line and column.
pub(super) fn char_at(text: &str, (l, c): (usize, usize)) -> Option<char> {
    line_of(text, l).chars().nth(c.saturating_sub(1))
}

/// Leading spaces of a line.
pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The nearest line above `n` that holds something other than a comment, with its number.
pub(super) fn line_above(text: &str, n: usize) -> Option<(usize, &str)> {
    (1..n)
        .rev()
        .map(|i| (i, line_of(text, i)))
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
}

/// The field a `key: value` line sets, when it is one.
pub(super) fn key_of(line: &str) -> Option<&str> {
    let t = line.trim_start().trim_start_matches("- ");
    let (k, _) = t.split_once(':')?;
    let k = k.trim();
    (!k.is_empty() && !k.contains(' ')).then_some(k)
}

/// The line of the second `key:` at one indentation from line `from` on
/// (the parser points at the start of the mapping, not at the repeat).
pub(super) fn second_key_line(text: &str, from: usize, key: &str) -> Option<usize> {
    key_lines(text, from, key).nth(1)
}

/// The line of the first `key:` at that indentation: where the field was first defined.
pub(super) fn first_key_line(text: &str, from: usize, key: &str) -> Option<usize> {
    key_lines(text, from, key).next()
}

/// The lines (1-based) of `key:` at the indentation of its first one, from line `from` on.
fn key_lines<'a>(text: &'a str, from: usize, key: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut first_indent = None;
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .filter(move |(_, l)| key_of(l) == Some(key) && !l.trim_start().starts_with('#'))
        .filter(move |(_, l)| *first_indent.get_or_insert(indent(l)) == indent(l))
        .map(|(i, _)| i + 1)
}

/// A value in single quotes, as YAML writes it.
pub(super) fn quoted(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}
