//! YAML parser errors in the tool's own words. serde_yaml and libyaml name
//! their internals ("did not find expected key, while parsing a block
//! mapping", "invalid type: integer … as u128"); every problem a contributor
//! can realistically make in a data file is mapped here, once, to a sentence
//! that stands alone, the line (and column) where the fix goes, and a help
//! line. Only a problem this table does not know keeps the parser's words,
//! after a sentence of ours.

mod lines;
mod raw;
mod syntax;
mod wrong_type;

use lines::{first_key_line, second_key_line};
use raw::raw;
use syntax::syntax;
use wrong_type::wrong_type;

/// What a parser error is about, which decides the rule that reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not YAML, or not one document.
    Syntax,
    /// A mapping repeats this key.
    DuplicateKey(String),
    /// A value has the wrong type (a number too large, a tag that does not fit).
    Type,
}

/// A parser error explained: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// Which rule reports it.
    pub kind: ErrorKind,
    /// What is wrong, in one sentence of ours.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// The field the problem is about, when known.
    pub field: Option<String>,
}

impl Explained {
    fn new(message: impl Into<String>, help: impl Into<String>) -> Self {
        Explained {
            kind: ErrorKind::Syntax,
            message: message.into(),
            help: help.into(),
            line: None,
            column: None,
            field: None,
        }
    }

    fn at(mut self, pos: Option<(usize, usize)>) -> Self {
        if let Some((l, c)) = pos {
            self.line = Some(l);
            self.column = Some(c);
        }
        self
    }

    fn at_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self.column = None;
        self
    }

    /// Gives a diagnostic the place, field and help of this parser error.
    pub fn place(
        &self,
        mut d: corpus_diagnostics::diag::Diagnostic,
    ) -> corpus_diagnostics::diag::Diagnostic {
        d.line = self.line;
        d.column = self.line.and(self.column);
        if self.field.is_some() {
            d.field = self.field.clone();
        }
        d.help = Some(self.help.clone());
        d
    }
}

const LAYOUT_HELP: &str = "fields start at the beginning of a line as `field: value`; list items go on their own lines, indented by two spaces under their field";

/// Explains a serde_yaml error on `text` (the whole file).
pub fn explain(e: &serde_yaml::Error, text: &str) -> Explained {
    let msg = e.to_string();
    let r = raw(&msg, e);
    if let Some(key) = r
        .problem
        .split("duplicate entry with key \"")
        .nth(1)
        .and_then(|k| k.split('"').next())
    {
        let from = r.at.map_or(1, |(l, _)| l);
        let line = second_key_line(text, from, key);
        // Both places, so the reader can compare them without searching.
        let first = first_key_line(text, from, key)
            .filter(|_| line.is_some())
            .map(|l| format!(" (first defined on line {l})"))
            .unwrap_or_default();
        return Explained {
            kind: ErrorKind::DuplicateKey(key.to_string()),
            field: Some(key.to_string()),
            ..Explained::new(
                format!("field `{key}` appears more than once{first}"),
                "keep one of them: a repeated field would silently lose data",
            )
        }
        .at_line(line.or(r.at.map(|(l, _)| l)));
    }
    if r.problem.contains("more than one document") {
        return more_than_one_document(text);
    }
    if let Some(x) = wrong_type(&r) {
        return x;
    }
    syntax(&r, text).unwrap_or_else(|| {
        let line = r.at.map(|(l, _)| format!(" at line {l}")).unwrap_or_default();
        Explained::new(
            format!(
                "the file is not valid YAML{line} (the parser reports: {})",
                r.problem
            ),
            format!("check the quoting and indentation of that line: {LAYOUT_HELP}; quote a value that holds `: ` or ` #` or starts with a special character"),
        )
        .at(r.at)
    })
}

/// A second document (or a directive) after the first.
fn more_than_one_document(text: &str) -> Explained {
    let marker = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .find(|&(i, l)| {
            (l == "---" && (i > 1 || !text.starts_with("---")))
                || l == "..."
                || (i > 1 && l.starts_with('%'))
        });
    let what = match marker {
        Some((_, "...")) => "a `...` line ends the first and more follows",
        Some((_, l)) if l.starts_with('%') => "a `%` directive line starts another",
        _ => "a `---` line starts another",
    };
    Explained::new(
        format!("the file holds more than one YAML document: {what}"),
        "one entry per file: remove the marker line and move what follows into a file of its own",
    )
    .at_line(marker.map(|(i, _)| i))
}

/// The file parsed, but to something other than a mapping (a list or a single value).
pub fn not_a_mapping(text: &str, is_list: bool) -> Explained {
    let first = text
        .lines()
        .position(|l| {
            let t = l.trim_start_matches('\u{feff}').trim();
            !t.is_empty() && !t.starts_with('#') && t != "---"
        })
        .map(|i| i + 1);
    let what = if is_list {
        "a list (its lines start with `- `)"
    } else {
        "a single value"
    };
    Explained::new(
        format!("the file holds {what}, but a data file holds a mapping of `field: value` lines"),
        "write one `field: value` per line, starting at the beginning of the line (`corpus new KEY` writes a skeleton)",
    )
    .at_line(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explain_text(text: &str) -> Explained {
        let e = serde_yaml::from_str::<serde_yaml::Value>(text).expect_err("broken YAML");
        explain(&e, text)
    }

    #[test]
    fn an_unclosed_quote_points_at_its_start() {
        let x = explain_text("a: 1\nb: 'open\nc: 2\n");
        assert_eq!(x.line, Some(2), "{x:?}");
        assert!(x.message.contains("never closed"), "{x:?}");
    }

    #[test]
    fn a_control_character_is_located_by_line() {
        let x = explain_text("a: 1\nb: x\u{1}y\n");
        assert_eq!((x.line, x.column), (Some(2), Some(5)), "{x:?}");
        assert!(x.message.contains("U+0001"), "{x:?}");
    }

    fn nested_mappings(levels: usize) -> String {
        (0..levels)
            .map(|i| format!("{}n{i}:\n", " ".repeat(i)))
            .collect::<String>()
            + &" ".repeat(levels)
            + "x\n"
    }

    #[test]
    fn deep_block_mappings_are_a_nesting_problem_not_an_alias_problem() {
        let x = explain_text(&nested_mappings(200));
        assert!(x.message.contains("nest deeper than 128 levels"), "{x:?}");
        assert!(!x.message.contains("alias"), "{x:?}");
        assert!(x.line.is_some(), "{x:?}");
    }

    #[test]
    fn nesting_within_the_limit_parses_and_aliases_keep_their_message() {
        assert!(serde_yaml::from_str::<serde_yaml::Value>(&nested_mappings(100)).is_ok());
        let nested = (0..130).fold("*a".to_string(), |inner, _| format!("[{inner}]"));
        let text = format!("a: &a x\nb: {nested}\n");
        let e = serde_yaml::from_str::<serde_yaml::Value>(&text).expect_err("too deep");
        let x = explain(&e, &text);
        assert!(x.message.contains("aliases"), "{x:?}");
    }

    #[test]
    fn an_unknown_problem_keeps_the_parser_words_after_ours() {
        let r = "a: |x\n  b\n";
        let x = explain_text(r);
        assert!(!x.message.starts_with("did not"), "{x:?}");
        assert!(x.line.is_some());
    }
}
