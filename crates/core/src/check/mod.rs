//! The checks: every rule of the taxonomy applied to a loaded corpus.
//!
//! Rules are identified by the ids listed under `rules:` in the taxonomy; the
//! built-in ones are implemented here, the data-driven ones (`when`/`require`)
//! are evaluated generically. Checks return diagnostics and never print.

pub mod artifact_tables;
pub mod locators;
pub mod status;
pub mod style;
pub mod survey;
pub mod traces;

mod citation;
mod claims;

pub use claims::rewritten_expectations;
mod data_rules;
mod duplicates;
mod entry;
mod exclusion;
mod help;
mod hidden;
mod sink;
mod values;
mod waivers;

use crate::model::corpus::Corpus;
use crate::model::facts::Deriver;
use crate::parallel::{beside, in_blocks};
use claims::claim_problems;
use corpus_diagnostics::diag::{self, Diagnostic, Severity};
use duplicates::Across;
use entry::check_entry;
use exclusion::check_exclusion;
use sink::{Finding, Sink};
use waivers::apply_waivers;

/// The outcome of a check: every diagnostic, with waived ones set apart.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    /// Diagnostics that count, sorted by file and line.
    pub diagnostics: Vec<Diagnostic>,
    /// Warnings acknowledged by a waiver (shown only on request).
    pub waived: Vec<Diagnostic>,
}

impl Findings {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of (unwaived) warnings.
    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// Whether the run fails: any error, or with `strict` any warning.
    pub fn fails(&self, strict: bool) -> bool {
        self.diagnostics.iter().any(|d| d.fails(strict))
    }
}

/// Said once when checks derived from the data (claims, generated files)
/// were not run because the data itself has errors.
pub const DERIVED_WAIT: &str = "claims and generated files are checked once these errors are fixed";

/// Runs every check on a loaded corpus (loading problems included).
///
/// The facts the rules judge are derived once per entry and record, a block
/// of items at a time (`parallel::in_blocks`), and let go after: every rule of the
/// item, then the rules comparing it with the items before it, add their
/// findings to the list of the file they are about, and each file's list is
/// graded and placed at its fields once, after all of them.
pub fn check(corpus: &Corpus) -> Findings {
    // The style rules judge each file alone, from its text: they run beside
    // all the rest.
    let (style, mut out) = beside(|| style::check(corpus), || judged(corpus));
    let style = style::quiet_beside_errors(style, &out);
    out.extend(style);

    let mut findings = apply_waivers(out, corpus);
    diag::sort(&mut findings.diagnostics);
    diag::sort(&mut findings.waived);
    findings
}

/// Every diagnostic but the style rules': each item's rules, the rules
/// across items, the recorded status, and the claims and the artifact's
/// tables when nothing else is an error.
fn judged(corpus: &Corpus) -> Vec<Diagnostic> {
    let derive = Deriver::new(corpus);
    let mut found: Vec<Vec<Finding>> = corpus.files.iter().map(|_| Vec::new()).collect();
    let mut across = Across::sized(corpus);
    let judge_entry = |le| {
        let f = derive.entry(le);
        let mut out = Vec::new();
        check_entry(&f, &mut out);
        (f, out)
    };
    for (f, mut out) in in_blocks(&corpus.entries, judge_entry) {
        let file = f.origin.file;
        across.entry(f, &mut out);
        found[file].append(&mut out);
    }
    let judge_record = |lx| {
        let f = derive.record(lx);
        let mut out = Vec::new();
        check_exclusion(&f, derive.cutoff_text, &mut out);
        (f, out)
    };
    for (f, mut out) in in_blocks(&corpus.exclusions, judge_record) {
        let file = f.origin.file;
        across.record(f, &mut out);
        found[file].append(&mut out);
    }
    let tax = &corpus.taxonomy;
    let mut sink = Sink {
        tax,
        out: corpus.diagnostics.clone(),
    };
    for (file, found) in corpus.files.iter().zip(found) {
        sink.place(file, found);
    }
    if let Some(status) = &corpus.status {
        let mut recorded = status::problems(corpus, status);
        tax.apply_severities(&mut recorded);
        sink.out.extend(recorded);
    }
    // Claims count the data; while the data has errors the counts are of
    // something else, so the claims wait (see `DERIVED_WAIT`).
    // The survey file's references wait likewise: an entry that failed to
    // load would otherwise show up as a dangling key.
    // Each reads the corpus alone: the two slower ones on a second thread.
    if !sink.out.iter().any(|d| d.severity == Severity::Error) {
        let (tables, claims) = beside(
            || {
                let mut out = crate::check::locators::problems(corpus);
                out.extend(artifact_tables::problems(corpus));
                out
            },
            || {
                let mut out = claim_problems(corpus);
                out.extend(crate::check::survey::problems(corpus));
                out
            },
        );
        sink.out.extend(claims);
        sink.out.extend(tables);
    }
    sink.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::taxonomy::Taxonomy;
    use corpus_diagnostics::rules::{Family, Rule};

    #[test]
    fn the_shipped_taxonomy_declares_every_data_rule() {
        let text = include_str!("../../../../corpus/taxonomy.yaml");
        let tax = Taxonomy::from_yaml(text).unwrap();
        for rule in Rule::of(Family::Data) {
            let declared = tax.rule(rule.id()).unwrap_or_else(|| {
                panic!("built-in rule `{rule}` is missing from corpus/taxonomy.yaml")
            });
            assert_eq!(
                Severity::from(declared.severity),
                rule.default_severity(),
                "`{rule}`: the shipped taxonomy and the registry disagree on its severity"
            );
        }
    }
}
