//! What rules find, and where it collects: each file's findings graded and
//! placed at their fields once, after every rule has judged.

use crate::model::taxonomy::Taxonomy;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;

/// The rule behind a finding: a built-in one, or one the taxonomy defines.
pub(super) enum RuleOf<'a> {
    Builtin(Rule),
    Data(&'a crate::model::taxonomy::Rule),
}

/// What a rule found in one file, before it has a severity or a place: the
/// rule, the field (a path such as `urls[1]`), the message and the help.
pub(super) struct Finding<'a> {
    rule: RuleOf<'a>,
    field: String,
    message: String,
    help: Option<String>,
    line: Option<usize>,
    named: Option<&'static str>,
}

impl<'a> Finding<'a> {
    /// A finding of a built-in rule about a field (`""` for the file as a whole).
    pub(super) fn new(rule: Rule, field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::of(RuleOf::Builtin(rule), field, message)
    }

    /// A finding of a rule, built-in or the taxonomy's.
    pub(super) fn of(
        rule: RuleOf<'a>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            rule,
            field: field.into(),
            message: message.into(),
            help: None,
            line: None,
            named: None,
        }
    }

    /// Adds how to fix it.
    pub(super) fn help(self, help: impl Into<String>) -> Self {
        self.maybe_help(Some(help.into()))
    }

    /// Adds how to fix it, when the rule can tell.
    pub(super) fn maybe_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// Names a field other than the one the path starts with (`waivers`
    /// for `waivers.<rule>`), still placed at the path.
    pub(super) fn named(mut self, field: &'static str) -> Self {
        self.named = Some(field);
        self
    }

    /// Places it on a line of its own, whatever its field.
    pub(super) fn on_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }
}

/// Collects the diagnostics of a check, grading and placing findings.
pub(super) struct Sink<'a> {
    pub(super) tax: &'a Taxonomy,
    pub(super) out: Vec<Diagnostic>,
}

impl Sink<'_> {
    /// Grades every finding of one file (the taxonomy may override a
    /// built-in rule's severity) and places it at its field's line and column.
    pub(super) fn place(&mut self, file: &SourceFile, found: Vec<Finding>) {
        for f in found {
            let d = self.placed(file, f);
            self.out.push(d);
        }
    }

    /// One finding of a file, graded and placed.
    fn placed(&self, file: &SourceFile, f: Finding) -> Diagnostic {
        let (id, severity): (&str, Severity) = match &f.rule {
            RuleOf::Builtin(rule) => (rule.id(), self.tax.severity_of(*rule)),
            RuleOf::Data(rule) => (&rule.id, rule.severity.into()),
        };
        let field = f.field.split('[').next().unwrap_or(&f.field);
        let at = file
            .spans()
            .pos(&f.field)
            .or_else(|| file.spans().pos(field));
        let mut d = Diagnostic::custom(id, severity, file.rel.clone(), f.message);
        if !f.field.is_empty() {
            d = d.field(f.named.unwrap_or(field));
        }
        if let Some((l, c)) = at {
            d = d.at(l, c);
        }
        if f.line.is_some() {
            d = d.at_line(f.line);
        }
        d.maybe_help(f.help)
    }
}
