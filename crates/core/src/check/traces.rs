//! An entry's tags against the traces it links (`traces`): a third rater
//! beside the survey and this project's reading.
//!
//! A linked trace must be an example the corpus ships (the load stage reads
//! and classifies those, so the build fingerprint covers them); a link of
//! another form, to no such file, or to one holding no valid trace is a
//! `trace-link` error. Once every link of an entry resolves, its tags are
//! compared with what the traces show (`trace-tags-disagree`), in the one
//! direction a trace can speak to: a claimed sub-decision none of them takes,
//! and an orchestration form none of them shows while one shows another. A
//! run taking a sub-decision the entry lacks is not reported: a fixed
//! pipeline also spawns, passes messages and stops, and the tag records that
//! the method decides, which one run cannot show.

use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::Entry;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_trace::{Classification, Evidence};
use std::collections::BTreeMap;

/// The orchestration form no trace shows: an entry so tagged names no form.
const NO_FORM: &str = "NA";

/// Problems of the entries' linked traces, given the example traces read
/// and classified (`load::examples::Examples::forms`).
pub fn linked(corpus: &Corpus, forms: &BTreeMap<String, Vec<Classification>>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for le in corpus
        .entries
        .iter()
        .filter(|le| !le.entry.traces.is_empty())
    {
        let (e, file) = (&le.entry, corpus.file(le.file));
        let mut shown: Vec<(&str, &Classification)> = Vec::new();
        let mut broken = false;
        for (i, path) in e.traces.iter().enumerate() {
            let item = format!("{}[{i}]", fields::TRACES);
            let problem = if !Layout::valid_trace_link(path) {
                Some((
                    format!("`{path}` is not a path below {} ending in .json", dirs()),
                    "name a trace the corpus ships by its path from the corpus root: forward slashes, no part empty or starting with a dot, e.g. traces/examples/run.json".to_string(),
                ))
            } else {
                match forms.get(path) {
                    None => Some((
                        format!("`{path}` is no trace file the corpus ships"),
                        format!(
                            "add the trace below {} (a recorded run below {}, OTLP JSON below {}), or correct the path",
                            Layout::TRACE_EXAMPLES_DIR,
                            Layout::TRACE_RUNS_DIR,
                            Layout::OTLP_EXAMPLES_DIR
                        ),
                    )),
                    Some(found) if found.is_empty() => Some((
                        format!("`{path}` holds no valid trace"),
                        "fix the problems `check` reports on the trace file itself".to_string(),
                    )),
                    Some(found) => {
                        shown.extend(found.iter().map(|c| (path.as_str(), c)));
                        None
                    }
                }
            };
            if let Some((msg, help)) = problem {
                broken = true;
                out.push(at(corpus, Rule::TraceLink, file, &item, msg).help(help));
            }
        }
        if !broken {
            out.extend(disagreements(corpus, file, e, &shown));
        }
    }
    out
}

/// The linkable folders, for messages.
fn dirs() -> String {
    Layout::LINKABLE_TRACE_DIRS
        .iter()
        .map(|d| format!("{d}/"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Where an entry's tags claim what its traces do not show.
fn disagreements(
    corpus: &Corpus,
    file: &SourceFile,
    e: &Entry,
    shown: &[(&str, &Classification)],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let paths = || {
        let mut p: Vec<&str> = shown.iter().map(|(p, _)| *p).collect();
        p.dedup();
        p.join(", ")
    };
    for s in e.subdecision_list() {
        // A sub-decision the classifier does not know is one no trace can show.
        let known = shown.iter().any(|(_, c)| c.sub_decisions.contains_key(s));
        let taken = shown
            .iter()
            .any(|(_, c)| c.sub_decisions.get(s).is_some_and(|ev| ev.count > 0));
        if known && !taken {
            let msg = format!(
                "`{}` claims the sub-decision `{s}`, but none of its linked traces takes it ({})",
                e.key,
                paths()
            );
            let help = format!("link a run in which the method takes `{s}`, or, when the reading was wrong, remove it from subdecisions; `corpus trace classify` shows what a trace takes; waive the warning (waivers: trace-tags-disagree) when the runs are right and so is the tag");
            out.push(at(corpus, Rule::TraceTagsDisagree, file, fields::TRACES, msg).help(help));
        }
    }
    let form = e.orchestration_form.as_str();
    let comparable = form == NO_FORM || corpus_trace::FORMS.contains(&form);
    let other = shown
        .iter()
        .find(|(_, c)| c.form != "unknown" && c.form != form);
    if comparable && !shown.iter().any(|(_, c)| c.form == form) {
        if let Some((path, c)) = other {
            let msg = format!(
                "`{}` is tagged orchestration_form `{form}`, but its linked trace {path} shows `{}`: {} (events {})",
                e.key,
                c.form,
                c.reason,
                events(&c.evidence)
            );
            let help = "correct orchestration_form when the trace is a faithful run of the method, or link one that is; `corpus trace classify` shows why a trace takes its form; waive the warning (waivers: trace-tags-disagree) when the run departs from the method on purpose";
            out.push(at(corpus, Rule::TraceTagsDisagree, file, fields::TRACES, msg).help(help));
        }
    }
    out
}

/// Evidence event ids, with how many more there are.
fn events(ev: &Evidence) -> String {
    let mut s = ev.events.join(", ");
    if ev.count > ev.events.len() {
        s.push_str(&format!(" and {} more", ev.count - ev.events.len()));
    }
    s
}

/// A diagnostic at a field (or list item) of an entry file, in the taxonomy's severity.
fn at(corpus: &Corpus, rule: Rule, file: &SourceFile, field: &str, msg: String) -> Diagnostic {
    let severity = corpus.taxonomy.severity_of(rule);
    let name = field.split('[').next().unwrap_or(field);
    let mut d = Diagnostic::new(rule, severity, &file.rel, msg).field(name);
    if let Some((l, c)) = file.spans().pos(field).or_else(|| file.spans().pos(name)) {
        d = d.at(l, c);
    }
    d
}
