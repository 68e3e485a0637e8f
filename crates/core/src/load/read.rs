//! One data file read as text; too large, unreadable, not UTF-8, empty or too deep is refused.

use super::diag;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_io::reader::{self, ReadError};
use std::path::Path;

/// Deepest `[`/`{` nesting accepted; serde_yaml refuses deeper documents
/// anyway, but its scanner takes quadratic time getting there.
pub const MAX_FLOW_DEPTH: usize = 128;

/// The line where flow nesting first exceeds [`MAX_FLOW_DEPTH`], if it does.
///
/// Quotes and comments are skipped roughly; the aim is to bound the parser's
/// work, not to judge the YAML.
fn too_deep(text: &str) -> Option<usize> {
    // Nesting never runs deeper than the brackets opened, and most texts
    // open a few: a count of them settles it without the scan below.
    // Counted in bytes a chunk at a time, which runs many bytes per step.
    let brackets = |c: &[u8]| {
        c.iter()
            .fold(0u8, |n, b| n + u8::from(matches!(b, b'[' | b'{')))
    };
    let opened: usize = text
        .as_bytes()
        .chunks(255)
        .map(|c| usize::from(brackets(c)))
        .sum();
    if opened <= MAX_FLOW_DEPTH {
        return None;
    }
    let (mut depth, mut line) = (0usize, 1usize);
    let mut quote: Option<u8> = None;
    let mut comment = false;
    // The byte before this one on the line (None at its start): a quote
    // opens a scalar only where a scalar can start, and `#` starts a comment
    // only after a space, so `entry's` or `page#part` in plain text is text.
    let mut prev: Option<u8> = None;
    for b in text.bytes() {
        if b == b'\n' {
            // Quotes are closed at line ends: an apostrophe in plain text must
            // not hide the brackets of the following lines.
            line += 1;
            comment = false;
            quote = None;
            prev = None;
            continue;
        }
        if comment {
            continue;
        }
        let starts_scalar =
            || prev.is_none_or(|p| matches!(p, b' ' | b'\t' | b'[' | b'{' | b',' | b':' | b'-'));
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') if starts_scalar() => quote = Some(b),
            (None, b'#') if prev.is_none_or(|p| p == b' ' || p == b'\t') => comment = true,
            (None, b'[' | b'{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some(line);
                }
            }
            (None, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = Some(b);
    }
    None
}

/// Reads a file as text, refusing what is too large, unreadable, not UTF-8 or empty.
pub fn read_text(
    path: &Path,
    rel: &str,
    max: u64,
    tax: Option<&Taxonomy>,
) -> Result<String, Diagnostic> {
    let text = reader::read_text(path, max).map_err(|e| unreadable(&e, rel, tax))?;
    match refusal(&text, rel, tax) {
        Some(d) => Err(d),
        None => Ok(text),
    }
}

/// A text read earlier, as `read_text` would answer for it: the read error
/// becomes a diagnostic only now, when the taxonomy that decides its
/// severity is known.
pub(super) fn accepted<'a>(
    read: Result<&'a str, &ReadError>,
    rel: &str,
    tax: Option<&Taxonomy>,
) -> Result<&'a str, Diagnostic> {
    let text = read.map_err(|e| unreadable(e, rel, tax))?;
    match refusal(text, rel, tax) {
        Some(d) => Err(d),
        None => Ok(text),
    }
}

/// Why a file could not be read, in the words of a data file's diagnostic.
fn unreadable(e: &ReadError, rel: &str, tax: Option<&Taxonomy>) -> Diagnostic {
    let unreadable = |m: String| diag(Rule::FileUnreadable, tax, rel, m);
    match e {
        ReadError::NotRegular(_) => unreadable(format!("`{rel}` is not a regular file")),
        ReadError::TooLarge { size, max } => {
            let size =
                size.map_or_else(|| "larger than that".to_string(), |n| format!("{n} bytes"));
            unreadable(format!(
                "`{rel}` is {size}, over the {max}-byte limit for a data file"
            ))
            .help("split the file, or raise the limit with --max-file-size if it is genuine")
        }
        ReadError::NotUtf8 { line } => {
            unreadable(format!("`{rel}` is not valid UTF-8 (line {line})"))
                .at_line(Some(*line))
                .help("save the file as UTF-8")
        }
        e @ (ReadError::Missing | ReadError::Io(_)) => {
            unreadable(format!("cannot read `{rel}`: {e}"))
        }
    }
}

/// Why a text that was read is refused all the same: empty, or nested too deep to parse.
fn refusal(text: &str, rel: &str, tax: Option<&Taxonomy>) -> Option<Diagnostic> {
    if text.trim().is_empty() {
        return Some(
            diag(Rule::FileUnreadable, tax, rel, format!("`{rel}` is empty"))
                .at_line(Some(1))
                .help("remove the file or fill it in"),
        );
    }
    let line = too_deep(text)?;
    Some(
        diag(
            Rule::YamlSyntax,
            tax,
            rel,
            format!("`{rel}` nests brackets more than {MAX_FLOW_DEPTH} levels deep"),
        )
        .at_line(Some(line))
        .help("data files are flat mappings; remove the nesting"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_depth_is_bounded_outside_quotes_and_comments() {
        let deep = format!("a: {}", "[".repeat(MAX_FLOW_DEPTH + 1));
        assert_eq!(too_deep(&deep), Some(1));
        // Brackets across the chunks the quick count takes are all counted.
        let across = format!("a: {}{}", "x".repeat(250), "[".repeat(MAX_FLOW_DEPTH + 1));
        assert_eq!(too_deep(&across), Some(1));
        assert_eq!(too_deep(&format!("a: \"{}\"", "[".repeat(500))), None);
        assert_eq!(too_deep(&format!("a: 1 # {}", "{".repeat(500))), None);
        assert_eq!(
            too_deep(&format!("t: it's\nb: {}", "[".repeat(200))),
            Some(2)
        );
        assert_eq!(too_deep("a: [x, [y]]\n"), None);
        // An apostrophe inside plain text opens no quote, however many lines hold one.
        let rows = "  - {key: k, place: the entry's row}\n".repeat(MAX_FLOW_DEPTH + 10);
        assert_eq!(too_deep(&format!("rows:\n{rows}")), None);
        assert_eq!(too_deep(&format!("a: x#{}", "[".repeat(200))), Some(1));
    }
}
