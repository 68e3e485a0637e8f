//! Checks of `corpus/survey.yaml` against the entries: every key it names
//! exists, cited benchmarks are benchmarks, representatives carry their
//! value, and entries agree with the survey figures that name them.

use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::survey::{FigureField, FIGURE_SOURCE};
use crate::model::Entry;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;

fn invalid(msg: String) -> Diagnostic {
    Diagnostic::new(Rule::SurveyReference, Severity::Error, Layout::SURVEY, msg)
}

fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// Every problem between the survey facts, the taxonomy examples and the entries.
pub fn problems(corpus: &Corpus) -> Vec<Diagnostic> {
    let tax = &corpus.taxonomy;
    let severity = |rule: &str| {
        tax.rule(rule)
            .map(|r| r.severity.into())
            .unwrap_or(Severity::Error)
    };
    let mut out = Vec::new();
    let Some((survey, text)) = &corpus.survey else {
        return out;
    };
    // Looked up, never walked in order; of entries sharing a key (an error
    // that holds this check back unless the taxonomy lowers it) the last.
    let mut by_key = HashMap::with_capacity(corpus.entries.len());
    for le in &corpus.entries {
        by_key.insert(le.entry.key.as_str(), (&le.entry, le.file));
    }
    let sev = severity("survey-reference");
    out.extend(round_problems(corpus, &by_key, survey, text, sev));
    for r in &survey.representatives {
        let carries = |e: &Entry| match r.field.as_str() {
            fields::ORCHESTRATION_FORM => e.orchestration_form == r.value,
            "reward_family" => tax
                .family_of(&e.reward_type)
                .is_some_and(|f| f.id == r.value),
            _ => false,
        };
        for k in &r.entries {
            let msg = match by_key.get(k.as_str()) {
                _ if !matches!(
                    r.field.as_str(),
                    fields::ORCHESTRATION_FORM | "reward_family"
                ) =>
                {
                    format!(
                    "representatives are chosen per orchestration_form or reward_family, not `{}`",
                    r.field
                )
                }
                None => format!(
                    "`{k}` is named as representative of `{}`, but is no entry",
                    r.value
                ),
                Some((e, _)) if !carries(e) => format!(
                    "`{k}` is named as representative of {} `{}`, which it does not carry",
                    r.field, r.value
                ),
                Some(_) => continue,
            };
            let mut d = invalid(msg).at_line(line_of(text, &format!("value: {},", r.value)));
            d.severity = sev;
            out.push(d.field("representatives"));
        }
    }
    for row in &survey.benchmark_gap {
        for k in &row.benchmarks {
            let msg = match by_key.get(k.as_str()) {
                None => format!(
                    "Benchmark Gap row `{}` cites `{k}`, which is no entry",
                    row.domain
                ),
                Some((e, _)) if e.category != "benchmark" => format!(
                    "Benchmark Gap row `{}` cites `{k}`, which is a `{}` entry, not a benchmark",
                    row.domain, e.category
                ),
                Some(_) => continue,
            };
            out.push(
                invalid(msg)
                    .at_line(line_of(text, k))
                    .field("benchmark_gap")
                    .help("cite the key of a `category: benchmark` entry"),
            );
        }
    }
    let mut named = std::collections::BTreeSet::new();
    for n in &survey.names {
        let msg = if !by_key.contains_key(n.key.as_str()) {
            format!("a short name is given for `{}`, which is no entry", n.key)
        } else if !named.insert(n.key.as_str()) {
            format!("`{}` is given a short name twice", n.key)
        } else {
            continue;
        };
        let mut d = invalid(msg).at_line(line_of(text, &format!("key: {}", n.key)));
        d.severity = sev;
        out.push(d.field("names"));
    }
    for fig in &survey.figures {
        let allowed = match fig.field {
            FigureField::CreditUnit => tax.values(fields::CREDIT_GRANULARITY).unwrap_or_default(),
            FigureField::Subdecisions => tax.values(fields::SUBDECISIONS).unwrap_or_default(),
            FigureField::OrchestrationForm => {
                tax.values(fields::ORCHESTRATION_FORM).unwrap_or_default()
            }
        };
        for level in &fig.levels {
            if !allowed.contains(&level.value) {
                let mut d = invalid(format!(
                    "figure `{}` has level `{}`, which is not in the taxonomy",
                    fig.id, level.value
                ))
                .at_line(line_of(text, &format!("value: {}", level.value)));
                d.severity = sev;
                out.push(d);
            }
            for k in &level.entries {
                if !by_key.contains_key(k.as_str()) {
                    let mut d = invalid(format!(
                        "figure `{}` names `{k}` at `{}`, which is no entry",
                        fig.id, level.value
                    ))
                    .at_line(line_of(text, k));
                    d.severity = sev;
                    out.push(d);
                }
            }
        }
    }
    for l in &survey.figure_labels {
        for k in l.keys.iter().filter(|k| !by_key.contains_key(k.as_str())) {
            let mut d = invalid(format!(
                "the figure label `{}` names `{k}`, which is no entry",
                l.label
            ))
            .at_line(line_of(text, &l.label))
            .field("figure_labels");
            d.severity = sev;
            out.push(d);
        }
    }
    let fsev = severity("survey-figure-membership");
    for le in &corpus.entries {
        let e = &le.entry;
        let file = corpus.file(le.file);
        let mut push = |field: &str, msg: String, help: String| {
            let mut d = Diagnostic::new(Rule::SurveyFigureMembership, fsev, file.rel.clone(), msg)
                .field(field)
                .help(help);
            if let Some((l, c)) = file.spans().pos(field) {
                d = d.at(l, c);
            }
            out.push(d);
        };
        let credit = survey.memberships(FigureField::CreditUnit, &e.key);
        let extra_src = &e.additional_credit_units_source;
        for unit in &credit {
            if e.credit_granularity == *unit {
                continue;
            }
            if !e.additional_units().iter().any(|u| u == unit)
                || !extra_src.iter().any(|s| s == FIGURE_SOURCE)
            {
                push(
                    fields::ADDITIONAL_CREDIT_UNITS,
                    format!("the survey's credit figure places `{}` at `{unit}`, which is neither its credit_granularity nor an additional unit sourced to the figure", e.key),
                    format!("add `{unit}` to additional_credit_units and `{FIGURE_SOURCE}` to additional_credit_units_source"),
                );
            }
        }
        if extra_src.iter().any(|s| s == FIGURE_SOURCE) {
            let shown: Vec<&String> = e
                .additional_units()
                .iter()
                .filter(|u| credit.contains(&u.as_str()))
                .collect();
            let only_figure = extra_src.len() == 1;
            if shown.is_empty() || (only_figure && shown.len() != e.additional_units().len()) {
                push(
                    fields::ADDITIONAL_CREDIT_UNITS_SOURCE,
                    format!("`{}` names `{FIGURE_SOURCE}` for additional credit units the figure does not show", e.key),
                    "name the source that did say so (project_reading, contributor, …)".to_string(),
                );
            }
        }
        let subs = survey.memberships(FigureField::Subdecisions, &e.key);
        let sub_src = &e.subdecisions_source;
        for s in &subs {
            if !e.subdecision_list().iter().any(|x| x == s)
                || !sub_src.iter().any(|x| x == FIGURE_SOURCE)
            {
                push(
                    fields::SUBDECISIONS,
                    format!("the survey's sub-decision figure names `{}` under `{s}`, but the entry does not carry it with `{FIGURE_SOURCE}` as a source", e.key),
                    format!("add `{s}` to subdecisions and `{FIGURE_SOURCE}` to subdecisions_source"),
                );
            }
        }
        if sub_src.iter().any(|x| x == FIGURE_SOURCE) {
            let only_figure = sub_src.len() == 1;
            let beyond = e
                .subdecision_list()
                .iter()
                .any(|x| !subs.contains(&x.as_str()));
            if subs.is_empty() || (only_figure && beyond) {
                push(
                    fields::SUBDECISIONS_SOURCE,
                    format!(
                        "`{}` names `{FIGURE_SOURCE}` for sub-decisions the figure does not show",
                        e.key
                    ),
                    "name the source that did say so (project_reading, contributor, …)".to_string(),
                );
            }
        }
    }
    out
}

/// The survey's rounds against the taxonomy's, and the survey's own
/// references against its pool: a survey cannot name an entry that joined
/// after it, and the round new entries join cannot be one of its own.
fn round_problems(
    corpus: &Corpus,
    by_key: &HashMap<&str, (&Entry, usize)>,
    survey: &crate::model::survey::Survey,
    text: &str,
    sev: Severity,
) -> Vec<Diagnostic> {
    let tax = &corpus.taxonomy;
    let mut out = Vec::new();
    let mut push = |msg: String, needle: &str| {
        let mut d = invalid(msg).at_line(line_of(text, needle));
        d.severity = sev;
        out.push(d);
    };
    for r in &survey.rounds {
        match tax.rounds.iter().find(|t| &t.id == r) {
            None => push(
                format!(
                    "the survey's pool names round `{r}`, which is not one of the taxonomy's rounds ({})",
                    tax.rounds.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
                ),
                "rounds:",
            ),
            Some(t) if t.open => push(
                format!("the survey's pool names round `{r}`, the open round new entries join; the survey's pool is closed"),
                "rounds:",
            ),
            Some(_) => {}
        }
    }
    if corpus.survey_rounds().is_none() {
        return out;
    }
    let named = survey
        .figures
        .iter()
        .flat_map(|f| f.levels.iter().flat_map(|l| &l.entries))
        .chain(survey.benchmark_gap.iter().flat_map(|g| &g.benchmarks));
    let mut seen = std::collections::BTreeSet::new();
    for k in named {
        let Some((e, _)) = by_key.get(k.as_str()) else {
            continue;
        };
        if !corpus.in_survey_pool(e.added_in.as_deref()) && seen.insert(k.as_str()) {
            push(
                format!(
                    "the survey names `{k}`, which joined in round `{}` after the survey's pool",
                    e.added_in.as_deref().unwrap_or_default()
                ),
                k,
            );
        }
    }
    out
}
