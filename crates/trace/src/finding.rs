//! Problems found by the schema and graph rules, and their placing in the file as diagnostics.

use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;

/// A problem before it is located in the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    pub pointer: String,
    pub message: String,
    pub help: Option<String>,
}

impl Finding {
    pub(crate) fn error(rule: Rule, pointer: String, message: String) -> Self {
        Finding {
            rule,
            severity: Severity::Error,
            pointer,
            message,
            help: None,
        }
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Turns findings into diagnostics, locating every pointer in one pass over the text.
pub(crate) fn locate_findings(file: &str, bytes: &[u8], findings: Vec<Finding>) -> Vec<Diagnostic> {
    let pointers: Vec<&str> = findings.iter().map(|f| f.pointer.as_str()).collect();
    let places = crate::locate::locate(bytes, &pointers);
    findings
        .into_iter()
        .zip(places)
        .map(|(f, place)| {
            let d = Diagnostic::new(f.rule, f.severity, file, f.message)
                .field(f.pointer)
                .maybe_help(f.help);
            match place {
                Some((line, column)) => d.at(line, column),
                None => d,
            }
        })
        .collect()
}
