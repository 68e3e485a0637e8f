//! The layout Markdown linters (awesome-lint, markdownlint) expect of the
//! generated Markdown: tables with aligned pipes and padded cells, no runs of
//! blank lines, no trailing spaces, one final newline.
//!
//! Templates cannot pad a table column to the width of its widest cell, so
//! the rendered text is laid out afterwards; code fences are left untouched.

/// Width of text as the JavaScript linters measure columns (UTF-16 units).
fn width(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Splits a table row into its cells, honouring `\|` escapes; `None` if the
/// line is not a pipe-delimited row.
fn cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    if !t.starts_with('|') || !t.ends_with('|') || t.len() < 2 {
        return None;
    }
    let inner = &t[1..t.len() - 1];
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            '|' => out.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
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
fn layout_table(rows: &[Vec<String>]) -> Vec<String> {
    let aligns: Vec<(bool, bool)> = rows[1]
        .iter()
        .map(|c| alignment(c).unwrap_or((false, false)))
        .collect();
    let ncols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![3usize; ncols];
    for (i, row) in rows.iter().enumerate() {
        if i == 1 {
            continue;
        }
        for (c, cell) in row.iter().enumerate() {
            widths[c] = widths[c].max(width(cell));
        }
    }
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            let mut line = String::from("|");
            for (c, w) in widths.iter().copied().enumerate() {
                let (left, right) = aligns.get(c).copied().unwrap_or((false, false));
                let cell = if i == 1 {
                    let dashes = w - usize::from(left) - usize::from(right);
                    format!(
                        "{}{}{}",
                        if left { ":" } else { "" },
                        "-".repeat(dashes),
                        if right { ":" } else { "" }
                    )
                } else {
                    let text = row.get(c).map(String::as_str).unwrap_or("");
                    let pad = " ".repeat(w - width(text));
                    if right && !left {
                        format!("{pad}{text}")
                    } else {
                        format!("{text}{pad}")
                    }
                };
                line.push(' ');
                line.push_str(&cell);
                line.push_str(" |");
            }
            line
        })
        .collect()
}

/// Returns `md` laid out for the linters; idempotent.
pub fn layout(md: &str) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut fence: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            out.push(line.to_string());
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            out.push(line.trim_end().to_string());
            i += 1;
            continue;
        }
        // A table: a row followed by a delimiter row with as many cells.
        if let (Some(head), Some(delim)) = (cells(line), lines.get(i + 1).and_then(|l| cells(l))) {
            if head.len() == delim.len() && delim.iter().all(|c| alignment(c).is_some()) {
                let mut rows = vec![head, delim];
                let mut j = i + 2;
                while let Some(r) = lines.get(j).and_then(|l| cells(l)) {
                    rows.push(r);
                    j += 1;
                }
                out.extend(layout_table(&rows));
                i = j;
                continue;
            }
        }
        let clean = line.trim_end();
        if clean.is_empty() && out.last().is_some_and(|l| l.is_empty()) {
            i += 1;
            continue;
        }
        out.push(clean.to_string());
        i += 1;
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    let mut text = out.join("\n");
    text.push('\n');
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
