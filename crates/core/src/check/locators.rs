//! Every judged value traces to a place (rule `judgement-locator`): each
//! source an entry names for a judged field has a locator in
//! `corpus/locators.yaml` (a file and place of the artifact, or for a
//! reading a one-sentence reason), or is a survey figure that records its
//! file and commit; no locator outlives the judgement it located; every
//! round with members names the artifact's commit that added them. The rule
//! applies to a root that keeps a locators file.

use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::locators::{is_commit, reason_problem, Judgement, Locators, READINGS};
use crate::model::survey::{FigureField, FIGURE_SOURCE};
use crate::model::Entry;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;

/// The judged fields of an entry with the sources it names for each (none
/// for a field left unjudged), borrowed from the entry.
pub fn judged(e: &Entry) -> impl Iterator<Item = (&'static str, &[String])> {
    [
        (
            fields::SUBDECISIONS,
            e.subdecisions.is_some(),
            e.subdecisions_source.as_slice(),
        ),
        (
            fields::STRICT_CREDIT,
            e.strict_credit.is_some(),
            e.strict_credit_source.as_slice(),
        ),
        (
            fields::ADDITIONAL_CREDIT_UNITS,
            e.additional_credit_units.is_some(),
            e.additional_credit_units_source.as_slice(),
        ),
    ]
    .into_iter()
    .filter(|&(_, is_judged, _)| is_judged)
    .map(|(field, _, sources)| (field, sources))
}

/// The figure field a judged field is drawn in, if any.
fn figure_of(field: &str) -> Option<FigureField> {
    match field {
        fields::SUBDECISIONS => Some(FigureField::Subdecisions),
        fields::ADDITIONAL_CREDIT_UNITS => Some(FigureField::CreditUnit),
        _ => None,
    }
}

/// What is missing from a locator for `source`, if anything.
fn incomplete(j: &Judgement, source: &str) -> Option<String> {
    let filled = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    if READINGS.contains(&source) {
        match &j.reason {
            None => Some(format!("a reading (`{source}`) needs a reason")),
            Some(r) => reason_problem(r).map(|p| format!("its reason {p}")),
        }
    } else if !(filled(&j.file) && filled(&j.place)) {
        Some(format!(
            "a value from `{source}` needs the artifact's file and the place in it"
        ))
    } else {
        None
    }
}

fn row_line(text: &str, j: &Judgement) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .find(|&i| {
            let row = lines[i..lines.len().min(i + 7)].join("\n");
            lines[i].contains(&format!("key: {}", j.key))
                && row.contains(&format!("field: {}", j.field))
                && row.contains(&format!("source: {}", j.source))
        })
        .map(|i| i + 1)
}

/// Every problem of the judged values' locators.
pub fn problems(corpus: &Corpus) -> Vec<Diagnostic> {
    let Some((locs, text)) = &corpus.locators else {
        return Vec::new();
    };
    let sev = corpus
        .taxonomy
        .rule(Rule::JudgementLocator.id())
        .map(|r| r.severity.into())
        .unwrap_or(Severity::Error);
    let survey = corpus.survey.as_ref().map(|(s, _)| s);
    let index = locs.index();
    // Each entry's sources are looked up on their own, and on a large list
    // this loop is most of the rule: it runs on every core.
    let per_entry = crate::parallel::in_parallel(&corpus.entries, |le| {
        let mut out = Vec::new();
        let e = &le.entry;
        let file = corpus.file(le.file);
        for (field, sources) in judged(e) {
            for source in sources.iter().map(String::as_str) {
                let msg = if source == FIGURE_SOURCE && figure_of(field).is_some() {
                    let fig = figure_of(field).and_then(|f| survey.and_then(|s| s.figure(f)));
                    match fig {
                        Some(f) if f.file.is_some() && f.commit.is_some() => continue,
                        _ => format!("`{}` cites the survey's figure for {field}, but {} records no figure file and commit to find it in", e.key, Layout::SURVEY),
                    }
                } else {
                    match index.find(&e.key, field, source) {
                        None => format!(
                            "`{}`'s {field} names `{source}`, but {} says nowhere where the value comes from",
                            e.key,
                            Layout::LOCATORS
                        ),
                        Some(j) => match incomplete(j, source) {
                            None => continue,
                            Some(p) => {
                                out.push(at_row(sev, text, j, format!("the locator of `{}`'s {field} (`{source}`): {p}", e.key)));
                                continue;
                            }
                        },
                    }
                };
                let mut d = Diagnostic::new(Rule::JudgementLocator, sev, file.rel.clone(), msg)
                    .field(field)
                    .help(format!("add a row `{{key: {}, field: {field}, source: {source}, …}}` to {} with the artifact's file and place, or for a reading a one-sentence reason", e.key, Layout::LOCATORS));
                if let Some((l, c)) = file.spans().pos(field) {
                    d = d.at(l, c);
                }
                out.push(d);
            }
        }
        out
    });
    let mut out: Vec<Diagnostic> = per_entry.into_iter().flatten().collect();
    out.extend(stale(corpus, locs, text, sev));
    if let Some((s, stext)) = &corpus.survey {
        out.extend(representatives(s, stext, sev));
    }
    out.extend(rounds(corpus, locs, text, sev));
    out
}

fn at_row(sev: Severity, text: &str, j: &Judgement, msg: String) -> Diagnostic {
    Diagnostic::new(Rule::JudgementLocator, sev, Layout::LOCATORS, msg)
        .at_line(row_line(text, j))
        .field("judgements")
}

/// Every row of chosen representatives says who chose them: the artifact's
/// file and place, or this project's one-sentence reason.
fn representatives(
    survey: &crate::model::survey::Survey,
    text: &str,
    sev: Severity,
) -> Vec<Diagnostic> {
    let filled = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    let mut out = Vec::new();
    for r in &survey.representatives {
        let problem = match &r.reason {
            Some(reason) => reason_problem(reason).map(|p| format!("its reason {p}")),
            None if filled(&r.file) && filled(&r.place) => None,
            None => Some("it names neither the artifact's file and place nor a reason".to_string()),
        };
        let Some(problem) = problem else { continue };
        let line = text
            .lines()
            .position(|l| l.contains(&format!("value: {},", r.value)) && l.contains(&r.field))
            .map(|i| i + 1);
        out.push(
            Diagnostic::new(
                Rule::JudgementLocator,
                sev,
                Layout::SURVEY,
                format!(
                    "the representatives of {} `{}`: {problem}",
                    r.field, r.value
                ),
            )
            .at_line(line)
            .field("representatives")
            .help(
                "give the artifact's `file` and `place` that name them, or this project's `reason`",
            ),
        );
    }
    out
}

/// Locators no judgement needs: the entry is gone, or no longer names that
/// source for that field.
fn stale(corpus: &Corpus, locs: &Locators, text: &str, sev: Severity) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Entries by key (the first of a duplicated key, as a search in order
    // finds), so each row is one look-up rather than a pass over the entries.
    let mut by_key = std::collections::HashMap::with_capacity(corpus.entries.len());
    for le in &corpus.entries {
        by_key.entry(le.entry.key.as_str()).or_insert(le);
    }
    for j in &locs.judgements {
        let named = by_key
            .get(j.key.as_str())
            .map(|le| judged(&le.entry).any(|(f, s)| f == j.field && s.contains(&j.source)));
        let msg = match named {
            None => format!("a locator names `{}`, which is no entry", j.key),
            Some(false) => format!(
                "a locator places `{}`'s {} from `{}`, which the entry does not name as its source",
                j.key, j.field, j.source
            ),
            Some(true) => continue,
        };
        out.push(
            at_row(sev, text, j, msg)
                .help("remove the row, or correct the entry's judgement and its source"),
        );
    }
    out
}

/// Every round that has members, except the open one new entries join,
/// names the artifact's commit that added them.
fn rounds(corpus: &Corpus, locs: &Locators, text: &str, sev: Severity) -> Vec<Diagnostic> {
    let tax = &corpus.taxonomy;
    let first = tax.rounds.first().map(|r| r.id.as_str());
    // Inserted one by one into a set as small as the list of rounds: collecting
    // would sort every item's round first.
    let mut used = std::collections::BTreeSet::new();
    let rounds = corpus.entries.iter().map(|e| e.entry.added_in.as_deref());
    let rounds = rounds.chain(
        corpus
            .exclusions
            .iter()
            .map(|x| x.record.added_in.as_deref()),
    );
    for round in rounds.filter_map(|r| r.or(first)) {
        used.insert(round);
    }
    let mut out = Vec::new();
    let line = |needle: &str| text.lines().position(|l| l.contains(needle)).map(|i| i + 1);
    for r in tax
        .rounds
        .iter()
        .filter(|r| !r.open && used.contains(r.id.as_str()))
    {
        let msg = match locs.rounds.iter().find(|s| s.round == r.id) {
            None => format!(
                "round `{}` has members, but {} names no commit of the artifact that added them",
                r.id,
                Layout::LOCATORS
            ),
            Some(s) if !is_commit(&s.commit) => format!(
                "round `{}`: `{}` is not a full commit id (40 hex digits)",
                r.id, s.commit
            ),
            Some(_) => continue,
        };
        let d = Diagnostic::new(Rule::JudgementLocator, sev, Layout::LOCATORS, msg)
            .at_line(line(&format!("round: {}", r.id)))
            .field("rounds")
            .help("name the commit, the file and what in it shows the round's members");
        out.push(d);
    }
    for s in &locs.rounds {
        if !tax.rounds.iter().any(|r| r.id == s.round) {
            let d = Diagnostic::new(
                Rule::JudgementLocator,
                sev,
                Layout::LOCATORS,
                format!("`{}` is not one of the taxonomy's rounds", s.round),
            )
            .at_line(line(&format!("round: {}", s.round)))
            .field("rounds");
            out.push(d);
        }
    }
    out
}
