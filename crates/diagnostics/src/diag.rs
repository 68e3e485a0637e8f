//! Diagnostics as data: what went wrong, where, and how to fix it.
//!
//! Checks produce [`Diagnostic`] values; renderers in `report` turn them into
//! text. Nothing here prints.

pub use crate::severity::Severity;

use crate::rules::Rule;
use serde::{Deserialize, Serialize};

/// One problem found in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable rule id, e.g. `unknown-value`.
    pub rule: String,
    /// Error or warning.
    pub severity: Severity,
    /// Path relative to the corpus root (or as given on the command line).
    pub file: String,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The field (or JSON pointer) the problem is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, when the tool can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of a registered rule, with no location inside the file yet.
    pub fn new(
        rule: Rule,
        severity: Severity,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic::custom(rule.id(), severity, file, message)
    }

    /// A diagnostic of a rule the taxonomy defines (`when`/`require`), known by its id alone.
    pub fn custom(
        rule: impl Into<String>,
        severity: Severity,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            rule: rule.into(),
            severity,
            file: file.into(),
            line: None,
            column: None,
            field: None,
            message: message.into(),
            help: None,
        }
    }

    /// Sets the 1-based line.
    pub fn at_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }

    /// Sets the 1-based line and column.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Names the field the diagnostic is about.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Adds a suggested fix.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a suggested fix when there is one.
    pub fn maybe_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// Whether this diagnostic fails a run (errors always; warnings under strict).
    pub fn fails(&self, strict: bool) -> bool {
        self.severity == Severity::Error || strict
    }
}

/// Sorts diagnostics into a stable order: file, line, column, rule, message.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.file, a.line, a.column, &a.rule, &a.message)
            .cmp(&(&b.file, b.line, b.column, &b.rule, &b.message))
    });
}

/// The 1-based line of a byte offset in a text, counting `\n` (so CRLF and
/// LF files agree; the csv crate's own line counter drifts on CRLF).
pub fn line_of_byte(text: &str, byte: u64) -> usize {
    let bytes = text.as_bytes();
    let mut end = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
    // On CRLF input the csv crate places a record's start on the `\n` that
    // ends the previous line; the record itself begins after it.
    while end < bytes.len() && matches!(bytes[end], b'\r' | b'\n') {
        end += 1;
    }
    bytes[..end].iter().filter(|b| **b == b'\n').count() + 1
}
