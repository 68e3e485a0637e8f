//! Where one file's diagnostics collect, each placed at its field.

use crate::model::taxonomy::Taxonomy;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;

/// Collects diagnostics for one file, locating fields through its spans.
pub(super) struct Sink<'a> {
    pub(super) tax: &'a Taxonomy,
    pub(super) out: Vec<Diagnostic>,
    /// Taxonomy rules whose filters name a value outside the vocabulary
    /// (`load` reports them): applied, they would blame entries for the
    /// rule's own mistake, so they wait until it is fixed.
    pub(super) broken_rules: std::collections::HashSet<&'a str>,
}

impl Sink<'_> {
    /// A diagnostic of a built-in rule about a field of a file.
    pub(super) fn at(
        &self,
        rule: Rule,
        file: &SourceFile,
        field: &str,
        msg: impl Into<String>,
    ) -> Diagnostic {
        let severity = self.tax.severity_of(rule);
        Self::locate(
            Diagnostic::new(rule, severity, file.rel.clone(), msg),
            file,
            field,
        )
    }

    /// A diagnostic of a rule the taxonomy defines (`when`/`require`).
    pub(super) fn at_data(
        &self,
        rule: &crate::model::taxonomy::Rule,
        file: &SourceFile,
        field: &str,
        msg: String,
    ) -> Diagnostic {
        let d = Diagnostic::custom(&rule.id, rule.severity.into(), file.rel.clone(), msg);
        Self::locate(d, file, field)
    }

    fn locate(mut d: Diagnostic, file: &SourceFile, field: &str) -> Diagnostic {
        if !field.is_empty() {
            d = d.field(field.split('[').next().unwrap_or(field));
        }
        if let Some((l, c)) = file
            .spans()
            .pos(field)
            .or_else(|| file.spans().pos(field.split('[').next().unwrap_or(field)))
        {
            d = d.at(l, c);
        }
        d
    }

    pub(super) fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }
}
