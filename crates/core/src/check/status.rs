//! What the status file (`corpus watch`'s dated events) asks of the
//! entries: a withdrawal not followed by a new version, a retraction, a
//! title arXiv changed that the entry does not carry, a published version
//! an arXiv-only entry does not name. `check` and `watch` both report
//! these; the taxonomy may change their severity like any rule's.

use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::status::{Event, Kind, Status};
use crate::text::ids::{doi_of_url, normalize_title};
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;

fn at(rule: Rule, file: &SourceFile, field: &str, msg: String, help: &str) -> Diagnostic {
    let mut d = Diagnostic::new(rule, rule.default_severity(), &file.rel, msg)
        .field(field)
        .help(help);
    if let Some((l, c)) = file.spans().pos(field) {
        d = d.at(l, c);
    }
    d
}

/// The diagnostics the recorded status gives the entries (default
/// severities; the caller applies the taxonomy's).
pub fn problems(corpus: &Corpus, status: &Status) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for le in &corpus.entries {
        let (e, file) = (&le.entry, corpus.file(le.file));
        let events: Vec<&Event> = status.of(&e.key).collect();
        if events.is_empty() {
            continue;
        }
        if let Some(w) = status.standing_withdrawal(&e.key) {
            out.push(at(
                Rule::StatusWithdrawn,
                file,
                fields::ARXIV_ID,
                format!(
                    "arXiv {} was withdrawn on {} (v{}){}",
                    e.arxiv_id.as_deref().unwrap_or("?"),
                    w.date,
                    w.version.unwrap_or(1),
                    w.note.as_ref().map(|n| format!(": {n}")).unwrap_or_default()
                ),
                "remove the entry (or record it in the exclusion log with the reason), or cite a later version",
            ));
        }
        for r in events.iter().filter(|x| x.event == Kind::Retracted) {
            out.push(at(
                Rule::StatusRetracted,
                file,
                fields::KEY,
                format!(
                    "OpenAlex marks {} retracted (seen {})",
                    r.doi.as_deref().unwrap_or("the paper"),
                    r.observed
                ),
                "remove the entry, or record it in the exclusion log with the reason",
            ));
        }
        if let Some(t) = events.iter().rev().find(|x| x.event == Kind::Title) {
            let title = t.title.as_deref().unwrap_or("");
            if normalize_title(title) != normalize_title(&e.title) {
                out.push(at(
                    Rule::StatusTitleChanged,
                    file,
                    fields::TITLE,
                    format!("arXiv changed the title on {} to \"{title}\"", t.date),
                    "copy arXiv's new title",
                ));
            }
        }
        if e.venue.eq_ignore_ascii_case("arxiv") {
            let linked: Vec<String> = e.urls.iter().filter_map(|u| doi_of_url(u)).collect();
            if let Some(p) = events.iter().find(|x| {
                x.event == Kind::Published && x.doi.as_ref().is_some_and(|d| !linked.contains(d))
            }) {
                let doi = p.doi.as_deref().unwrap_or("");
                out.push(at(
                    Rule::StatusPublished,
                    file,
                    fields::VENUE,
                    format!(
                        "a published version exists{}: https://doi.org/{doi} ({} says so)",
                        p.venue.as_ref().map(|v| format!(" in {v}")).unwrap_or_default(),
                        p.source
                    ),
                    "set `venue` and add the DOI link to `urls`, keeping the year of the version the entry describes",
                ));
            }
        }
    }
    out
}
