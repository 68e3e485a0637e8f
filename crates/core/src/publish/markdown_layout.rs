//! The layout Markdown linters (awesome-lint, markdownlint) expect of the
//! generated Markdown: tables with aligned pipes and padded cells, no runs of
//! blank lines, no trailing spaces, one final newline.
//!
//! Templates cannot pad a table column to the width of its widest cell, so
//! the rendered text is laid out afterwards; code fences are left untouched.

/// Width of text as the JavaScript linters measure columns (UTF-16 units).
fn width(s: &str) -> usize {
    // Most cells are ASCII: one unit a byte, with no need to encode.
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

/// Splits a table row into its cells, honouring `\|` escapes; `None` if the
/// line is not a pipe-delimited row. The cells borrow from the line: the
/// README has thousands of them, and they are only measured and copied once.
fn cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    if !t.starts_with('|') || !t.ends_with('|') || t.len() < 2 {
        return None;
    }
    let inner = &t[1..t.len() - 1];
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    // `|` and `\` are ASCII, so no byte of a longer character is taken for one.
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'|' => {
                out.push(inner[start..i].trim());
                start = i + 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    out.push(inner[start..].trim());
    Some(out)
}

/// Column alignment read from a delimiter cell, or `None` if it is not one.
fn alignment(cell: &str) -> Option<(bool, bool)> {
    let left = cell.starts_with(':');
    let right = cell.ends_with(':');
    let dashes = cell.trim_matches(':');
    (!dashes.is_empty() && dashes.chars().all(|c| c == '-')).then_some((left, right))
}

/// Lays out one table (header, delimiter, body rows) with aligned pipes.
fn layout_table(rows: &[Vec<&str>]) -> Vec<String> {
    let aligns: Vec<(bool, bool)> = rows[1]
        .iter()
        .map(|c| alignment(c).unwrap_or((false, false)))
        .collect();
    let ncols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![3usize; ncols];
    let cell_widths: Vec<Vec<usize>> = rows
        .iter()
        .map(|row| row.iter().map(|c| width(c)).collect())
        .collect();
    for (i, row) in cell_widths.iter().enumerate() {
        if i == 1 {
            continue;
        }
        for (c, w) in row.iter().enumerate() {
            widths[c] = widths[c].max(*w);
        }
    }
    let pad = |line: &mut String, n: usize, ch: char| line.extend(std::iter::repeat_n(ch, n));
    rows.iter()
        .zip(&cell_widths)
        .enumerate()
        .map(|(i, (row, row_widths))| {
            let mut line = String::with_capacity(widths.iter().map(|w| w + 3).sum::<usize>() + 1);
            line.push('|');
            for (c, w) in widths.iter().copied().enumerate() {
                let (left, right) = aligns.get(c).copied().unwrap_or((false, false));
                line.push(' ');
                if i == 1 {
                    if left {
                        line.push(':');
                    }
                    pad(&mut line, w - usize::from(left) - usize::from(right), '-');
                    if right {
                        line.push(':');
                    }
                } else {
                    let text = row.get(c).copied().unwrap_or("");
                    let fill = w - row_widths.get(c).copied().unwrap_or(0);
                    if right && !left {
                        pad(&mut line, fill, ' ');
                        line.push_str(text);
                    } else {
                        line.push_str(text);
                        pad(&mut line, fill, ' ');
                    }
                }
                line.push_str(" |");
            }
            line
        })
        .collect()
}

/// Returns `md` laid out for the linters; idempotent.
pub fn layout(md: &str) -> String {
    use std::borrow::Cow;
    let lines: Vec<&str> = md.lines().collect();
    // Lines outside tables are kept as borrowed slices of `md`.
    let mut out: Vec<Cow<'_, str>> = Vec::with_capacity(lines.len());
    let mut fence: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            out.push(Cow::Borrowed(line));
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            out.push(Cow::Borrowed(line.trim_end()));
            i += 1;
            continue;
        }
        // A table: a row followed by a delimiter row with as many cells.
        if let Some(head) = cells(line) {
            if let Some(delim) = lines.get(i + 1).and_then(|l| cells(l)) {
                if head.len() == delim.len() && delim.iter().all(|c| alignment(c).is_some()) {
                    let mut rows = vec![head, delim];
                    let mut j = i + 2;
                    while let Some(r) = lines.get(j).and_then(|l| cells(l)) {
                        rows.push(r);
                        j += 1;
                    }
                    out.extend(layout_table(&rows).into_iter().map(Cow::Owned));
                    i = j;
                    continue;
                }
            }
        }
        let clean = line.trim_end();
        if clean.is_empty() && out.last().is_some_and(|l| l.is_empty()) {
            i += 1;
            continue;
        }
        out.push(Cow::Borrowed(clean));
        i += 1;
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    let mut text = String::with_capacity(out.iter().map(|l| l.len() + 1).sum());
    for l in &out {
        text.push_str(l);
        text.push('\n');
    }
    if out.is_empty() {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_get_aligned_pipes_and_padded_delimiters() {
        let md = "| a | count |\n|---|---:|\n| long value | 3 |\n| `x\\|y` | 12 |\n";
        let want = "\
| a          | count |
| ---------- | ----: |
| long value |     3 |
| `x\\|y`     |    12 |
";
        assert_eq!(layout(md), want);
    }

    #[test]
    fn cells_split_on_unescaped_pipes_only() {
        assert_eq!(
            cells("  | `x\\|y` | \\é | é→ |  |"),
            Some(vec!["`x\\|y`", "\\é", "é→", ""])
        );
        assert_eq!(cells("| trailing \\|"), Some(vec!["trailing \\"]));
        assert_eq!(cells("no pipes"), None);
    }

    #[test]
    fn blank_runs_trailing_spaces_and_final_newlines_are_tidied() {
        assert_eq!(layout("# T  \n\n\n\ntext\n\n\n"), "# T\n\ntext\n");
    }

    #[test]
    fn fenced_code_is_left_alone() {
        let md = "```text\n| a | b |\n|---|---|\n\n\nx  \n```\n";
        assert_eq!(layout(md), md);
    }

    #[test]
    fn layout_is_idempotent() {
        let md = "x\n\n| h | é→ |\n|:--|:-:|\n| 1 | 2 |\n\n\n- item  \n";
        let once = layout(md);
        assert_eq!(layout(&once), once);
    }
}
