//! Waivers: the warnings they acknowledge set apart, and those that waive nothing reported.

use super::sink::{Finding, Sink};
use super::Findings;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::Entry;
use crate::text::closest::closest;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::collections::{BTreeMap, BTreeSet};

/// Moves waived warnings aside and reports waivers that waive nothing.
pub(super) fn apply_waivers(diags: Vec<Diagnostic>, corpus: &Corpus) -> Findings {
    let tax = &corpus.taxonomy;
    // Only entries that write waivers can waive or misuse one.
    let mut by_file: BTreeMap<&str, (&Entry, &SourceFile)> = BTreeMap::new();
    for le in corpus
        .entries
        .iter()
        .filter(|le| !le.entry.waivers.is_empty())
    {
        let f = corpus.file(le.file);
        by_file.insert(f.rel.as_str(), (&le.entry, f));
    }
    let mut used: BTreeSet<(String, String)> = BTreeSet::new();
    let mut findings = Findings::default();
    for d in diags {
        let waived = d.severity == Severity::Warning
            && by_file
                .get(d.file.as_str())
                // A waiver without a reason acknowledges nothing, so it waives nothing.
                .is_some_and(|(e, _)| {
                    e.waivers
                        .get(&d.rule)
                        .is_some_and(|why| !why.trim().is_empty())
                });
        if waived {
            used.insert((d.file.clone(), d.rule.clone()));
            findings.waived.push(d);
        } else {
            findings.diagnostics.push(d);
        }
    }
    let mut sink = Sink {
        tax,
        out: Vec::new(),
    };
    for (rel, (e, file)) in &by_file {
        let mut found = Vec::new();
        for (rule, reason) in &e.waivers {
            let problem = match tax.rule(rule) {
                None => Some(format!("waiver names `{rule}`, which is not a rule")),
                Some(r) if Severity::from(r.severity) == Severity::Error => {
                    Some(format!("`{rule}` is an error and cannot be waived"))
                }
                Some(_) if reason.trim().is_empty() => Some(format!(
                    "waiver for `{rule}` gives no reason, so it waives nothing"
                )),
                Some(_) if !used.contains(&(rel.to_string(), rule.clone())) => Some(format!(
                    "waiver for `{rule}` is unused: the rule does not fire on this entry"
                )),
                Some(_) => None,
            };
            let Some(msg) = problem else {
                continue;
            };
            let help = if tax.rule(rule).is_none() {
                let names = tax.rules.iter().map(|r| r.id.as_str());
                closest(rule, names).map(|c| format!("did you mean `{c}`?"))
            } else if reason.trim().is_empty() {
                Some(format!(
                    "write why `{rule}` does not apply here, or remove the waiver"
                ))
            } else {
                Some(format!("remove the `{rule}` waiver"))
            };
            found.push(
                Finding::new(Rule::WaiverUnused, format!("waivers.{rule}"), msg)
                    .named(fields::WAIVERS)
                    .maybe_help(help),
            );
        }
        sink.place(file, found);
    }
    findings.diagnostics.extend(sink.out);
    findings
}
