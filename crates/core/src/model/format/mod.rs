//! The canonical layout of entry and record files, as `corpus fmt` writes
//! them: fields in the field table's order, scalars quoted so that YAML 1.1
//! readers (PyYAML, yamllint) and YAML 1.2 readers agree on every value, block
//! lists indented under their key, the schema modeline on entries, no blank
//! lines, one final newline. Comments and every value are kept exactly; the
//! result is re-parsed and compared before it is returned.

mod block;
mod quoting;

pub use quoting::{ambiguous_in_yaml11, plain_ok, scalar};

use crate::yaml::source::Layout;
use block::{format_block, top_key, Block};
use serde_yaml::Value;

/// Which kind of data file a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// An entry of the paper pool (corpus/papers/).
    Entry,
    /// A record of the exclusion log (exclusions/).
    Record,
}

impl FileKind {
    /// Where a field goes in canonical order: its place in the field table,
    /// unknown fields after every known one.
    fn rank(self, key: &str) -> usize {
        let table: &[crate::model::fields::Field] = match self {
            FileKind::Entry => &crate::model::fields::ENTRY,
            FileKind::Record => &crate::model::fields::RECORD,
        };
        table
            .iter()
            .position(|f| f.name == key)
            .unwrap_or(table.len())
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

/// Full-line comments of a text, for the check that formatting keeps them all.
fn comment_lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = crate::text::lines::lines(text)
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .collect();
    v.sort_unstable();
    v
}

/// Formats the text of an entry or record file. Line endings stay as they
/// are (CRLF where the file uses CRLF, as a Windows checkout may), and so does
/// a byte-order mark.
pub fn format(text: &str, kind: FileKind) -> Result<String, FormatError> {
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
pub fn format_parsed(text: &str, parsed: &Value, kind: FileKind) -> Result<String, FormatError> {
    debug_assert!(!text.starts_with('\u{feff}'));
    let lf = format_lf(text, kind, Some(parsed))?;
    Ok(if text.contains("\r\n") {
        lf.replace('\n', "\r\n")
    } else {
        lf
    })
}

fn format_lf(text: &str, kind: FileKind, known: Option<&Value>) -> Result<String, FormatError> {
    let owned;
    let parsed: &Value = match known {
        Some(v) => v,
        None => {
            owned = crate::yaml::flat::parse_value(text).map_err(|e| {
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
    // The lines of the blocks and the comments around them, in the order of
    // the text: each block's comments and lines are runs of this one list
    // (not a list each, which cost every field of every file an allocation).
    let mut all: Vec<&str> = Vec::with_capacity(64);
    /// A block as positions in `all`: its comments from `comments` to
    /// `start`, its lines from `start` to `end`.
    struct Run<'t> {
        key: &'t str,
        comments: usize,
        start: usize,
        end: usize,
    }
    let mut runs: Vec<Run> = Vec::with_capacity(32);
    // Where the comments not yet placed start.
    let mut pending = 0;
    for line in crate::text::lines::lines(text) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((key, _)) = top_key(line) {
            all.push(line);
            let (start, end) = (all.len() - 1, all.len());
            runs.push(Run {
                key,
                comments: pending,
                start,
                end,
            });
            pending = end;
        } else if line.starts_with('#') {
            all.push(line);
        } else if let Some(run) = runs.last_mut() {
            // Comments at column 0 inside a block's continuation stay in
            // place: the block's lines take them in with the line.
            all.push(line);
            run.end = all.len();
            pending = run.end;
        } else if !line.trim().is_empty() {
            header.push(line);
        }
    }
    let mut blocks: Vec<Block> = runs
        .iter()
        .map(|r| Block {
            key: r.key,
            rank: kind.rank(r.key),
            value: &Value::Null,
            comments: &all[r.comments..r.start],
            lines: &all[r.start..r.end],
        })
        .collect();
    let pending = &all[pending..];
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
    // Comments above the first field form the header; the modeline leads
    // entries. Lines go straight into one text: a large corpus formats
    // every file on each check, and a string per line was much of its cost.
    let mut formatted = String::with_capacity(text.len() + 64);
    let mut line_out = |l: &str| {
        formatted.push_str(l);
        formatted.push('\n');
    };
    let modeline = crate::model::fields::MODELINE;
    if kind == FileKind::Entry {
        line_out(modeline);
    }
    let first_comments = std::mem::take(&mut blocks[0].comments);
    header.iter().for_each(|l| line_out(l));
    first_comments
        .iter()
        .filter(|l| !(kind == FileKind::Entry && l.trim_end() == modeline))
        .for_each(|l| line_out(l.trim_end()));
    // Each block's value: the mapping holds the fields in the order of the
    // text, so the next one is nearly always it, found without a hash.
    let mut in_order = map.iter();
    for b in &mut blocks {
        b.value = match in_order.next() {
            Some((k, v)) if k.as_str() == Some(b.key) => v,
            _ => map.get(b.key).unwrap_or(&Value::Null),
        };
    }
    blocks.sort_by_key(|b| b.rank); // stable: unknown fields keep their order
    for b in &blocks {
        b.comments
            .iter()
            .for_each(|l| formatted.extend([l.trim_end(), "\n"]));
        // Blank lines only separate fields (format_block leaves out those
        // that end a block); a block scalar's inner ones are kept.
        format_block(b, &mut formatted);
    }
    pending
        .iter()
        .for_each(|l| formatted.extend([l.trim_end(), "\n"]));
    // Already in layout (the common case): the same text holds the same
    // values and comments, so there is nothing to compare.
    if formatted == text {
        return Ok(formatted);
    }
    let reparsed: Value = crate::yaml::flat::parse_value(&formatted).map_err(|e| FormatError {
        line: None,
        message: format!("formatting would break the file ({e}); it was left as it is"),
    })?;
    let mut want_comments = comment_lines(text);
    if kind == FileKind::Entry && !want_comments.contains(&modeline) {
        want_comments.push(modeline);
        want_comments.sort_unstable();
    }
    let mut got_comments = comment_lines(&formatted);
    if kind == FileKind::Entry {
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
pub fn layout_of(text: &str, parsed: &Value, kind: FileKind) -> Layout {
    verdict(text, format_parsed(text, parsed, kind), kind)
}

/// What the canonical layout makes of `text` (parsed here).
pub fn layout_of_text(text: &str, kind: FileKind) -> Layout {
    verdict(text, format(text, kind), kind)
}

fn verdict(text: &str, formatted: Result<String, FormatError>, kind: FileKind) -> Layout {
    let Ok(formatted) = formatted else {
        return Layout::Unformattable;
    };
    // A missing modeline alone is schema-modeline's to report.
    let only_modeline = || {
        kind == FileKind::Entry
            && formatted
                .strip_prefix(crate::model::fields::MODELINE)
                .and_then(|rest| rest.strip_prefix('\n'))
                == Some(text)
    };
    if formatted == text || only_modeline() {
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
pub fn formatted_or_same(text: String, kind: FileKind) -> String {
    format(&text, kind).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let out = format(MESSY, FileKind::Entry).unwrap();
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
        let once = format(MESSY, FileKind::Entry).unwrap();
        assert_eq!(format(&once, FileKind::Entry).unwrap(), once);
    }

    #[test]
    fn block_scalars_are_kept_verbatim() {
        let text = "record_id: E001\nreason: |\n  line one\n\n  line two\n";
        let out = format(text, FileKind::Record).unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn unknown_fields_go_last_in_their_order() {
        let out = format("zeta: 1\nrecord_id: E002\nalpha: 2\n", FileKind::Record).unwrap();
        assert_eq!(out, "record_id: E002\nzeta: 1\nalpha: 2\n");
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_kept() {
        let text = "\u{feff}record_id: E001\r\ntitle: 'x'\r\n";
        assert_eq!(
            format(text, FileKind::Record).unwrap(),
            "\u{feff}record_id: E001\r\ntitle: x\r\n"
        );
    }

    #[test]
    fn broken_yaml_is_refused_with_its_line() {
        let e = format("key: a\ntitle: [unclosed\n", FileKind::Entry).unwrap_err();
        assert!(e.message.contains("not valid YAML"), "{e:?}");
        assert!(e.line.is_some());
    }
}
