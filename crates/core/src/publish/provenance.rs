//! The README's provenance views: the judged tags (strict credit, additional
//! credit units, sub-decisions) with yes / no / not-judged counts and their
//! sources, the survey's figures beside them, claims grouped by source, the
//! Benchmark Gap table, the screening log with its later additions, and the
//! paper and artifact the list follows; and the survey's pool beside the
//! living list. All text is escaped here.

use crate::model::claims::Verdict;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::survey::{FigureField, Survey};
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use crate::publish::entry_views::entry_name;
use crate::stats::Stats;
use crate::text::markdown::{code_span, escape_markdown, link_target};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// The survey's pool and what was added since ("84 in the survey · 1 added since").
#[derive(Debug, Clone, serde::Serialize)]
pub struct PoolView {
    /// Entries of the survey's rounds.
    pub retained: u64,
    /// Entries of later rounds.
    pub added_since: u64,
    /// Records of the survey's rounds.
    pub excluded: u64,
    /// Records of later rounds.
    pub logged_since: u64,
    /// The entries' figures as one phrase.
    pub line: String,
}

impl PoolView {
    /// The view of a split, when the statistics have one.
    pub fn of(st: &Stats) -> Option<PoolView> {
        st.survey.map(|p| PoolView {
            retained: p.retained,
            added_since: st.added_since(),
            excluded: p.excluded,
            logged_since: st.logged_since(),
            line: format!(
                "{} in the survey · {} added since",
                p.retained,
                st.added_since()
            ),
        })
    }
}

/// "a, b and c" (or "a, b or c").
fn join_words(items: &[String], conj: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conj} {last}", init.join(", ")),
    }
}

/// How many entries name each source for a judged tag, in taxonomy order.
fn by_source<'a>(
    tax: &Taxonomy,
    entries: impl Iterator<Item = &'a Entry>,
    sources: impl Fn(&Entry) -> Vec<String>,
) -> Vec<Value> {
    let mut n: BTreeMap<String, u64> = BTreeMap::new();
    for e in entries {
        for s in sources(e) {
            *n.entry(s).or_default() += 1;
        }
    }
    tax.judgement_sources
        .iter()
        .filter_map(|s| {
            n.get(&s.id).map(
                |c| json!({"id": code_span(&s.id), "label": escape_markdown(&s.label), "count": c}),
            )
        })
        .collect()
}

/// Escaped short names of the entries with these `keys`, in their order.
fn figure_names(
    survey: Option<&Survey>,
    entries: &HashMap<&str, &Entry>,
    keys: &[String],
) -> Vec<String> {
    keys.iter()
        .filter_map(|k| entries.get(k.as_str()))
        .map(|e| escape_markdown(&entry_name(survey, e)))
        .collect()
}

fn level<'a>(
    survey: Option<&'a Survey>,
    field: FigureField,
    value: &str,
) -> Option<&'a crate::model::survey::Level> {
    survey
        .and_then(|s| s.figure(field))
        .and_then(|f| f.levels.iter().find(|l| l.value == value))
}

/// Adds the provenance views to the README context.
pub fn extend_context(ctx: &mut tera::Context, corpus: &Corpus, st: &Stats, verdicts: &[Verdict]) {
    let tax = &corpus.taxonomy;
    let entries = corpus.entry_list();
    let keyed = corpus.entries_by_key();
    let survey = corpus.survey.as_ref().map(|(s, _)| s);
    let na = tax.na.as_str();

    // Credit: primary and additional units; strict, near-strict, no, not judged.
    let with_unit: Vec<&Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.credit_granularity != na && !e.credit_granularity.is_empty())
        .collect();
    let units: Vec<Value> = tax
        .credit_units
        .iter()
        .map(|u| {
            let primary: Vec<&&Entry> = with_unit
                .iter()
                .filter(|e| e.credit_granularity == u.id)
                .collect();
            let additional = entries
                .iter()
                .filter(|e| e.additional_units().contains(&u.id))
                .count();
            let strict = |v: Option<&str>| {
                primary
                    .iter()
                    .filter(|e| e.strict_credit.as_deref() == v)
                    .count()
            };
            let lv = level(survey, FigureField::CreditUnit, &u.id);
            json!({
                "id": code_span(&u.id),
                "primary": primary.len(),
                "additional": additional,
                "strict": strict(Some(crate::model::STRICT)),
                "near_strict": strict(Some(crate::model::NEAR_STRICT)),
                "strict_no": strict(Some("no")),
                "strict_not_judged": strict(None),
                "figure": lv.map(|l| figure_names(survey, &keyed, &l.entries)).unwrap_or_default(),
                "figure_note": lv.and_then(|l| l.note.as_deref()).map(escape_markdown).unwrap_or_default(),
            })
        })
        .collect();
    ctx.insert("credit_units", &units);
    let empty: Vec<&str> = tax
        .credit_units
        .iter()
        .filter(|u| !with_unit.iter().any(|e| e.credit_granularity == u.id))
        .map(|u| u.id.as_str())
        .collect();
    let primary_empty: Vec<String> = empty.iter().map(|u| code_span(u)).collect();
    // Units no entry has as primary but some have as an additional unit, so
    // the sentence about empty units stays true of both views.
    let only_additional: Vec<String> = empty
        .iter()
        .filter(|u| {
            entries
                .iter()
                .any(|e| e.additional_units().iter().any(|a| a == *u))
        })
        .map(|u| code_span(u))
        .collect();
    let strict_judged = with_unit
        .iter()
        .filter(|e| e.strict_credit.is_some())
        .count();
    let strict_sources = by_source(tax, with_unit.iter().copied(), |e| {
        e.strict_credit_source.iter().cloned().collect()
    });
    let additional: Vec<&Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.additional_credit_units.is_some())
        .collect();
    ctx.insert(
        "credit",
        &json!({
            "with_unit": with_unit.len(),
            "strict_judged": strict_judged,
            "strict_not_judged": with_unit.len() - strict_judged,
            "strict_sources": strict_sources,
            "primary_empty": join_words(&primary_empty, "or"),
            "only_additional": join_words(&only_additional, "and"),
            "primary_empty_count": primary_empty.len(),
            "additional_judged": additional.len(),
            "additional_names": figure_names(survey, &keyed, &additional.iter().map(|e| e.key.clone()).collect::<Vec<_>>()),
            "additional_sources": by_source(tax, additional.iter().copied(), |e| e.additional_credit_units_source.clone()),
            "title": survey.and_then(|s| s.figure(FigureField::CreditUnit)).map(|f| escape_markdown(&f.title)).unwrap_or_default(),
        }),
    );

    // The spot-check, described as what it is.
    let spot: Vec<&Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.strict_credit_source.as_deref() == Some("spotcheck"))
        .collect();
    ctx.insert(
        "spotcheck",
        &json!({
            "rows": spot.len(),
            "yes": spot.iter().filter(|e| e.strict_or_near()).count(),
            "no": spot.iter().filter(|e| e.strict_credit.as_deref() == Some("no")).count(),
        }),
    );

    // Sub-decisions: judged coverage, RL entries, the survey's figure.
    let is_rlish = |e: &&Entry| e.is_rl == "yes" || e.is_rl == "partial";
    let rlish: Vec<&Entry> = entries.iter().copied().filter(is_rlish).collect();
    let rl_judged = rlish.iter().filter(|e| e.subdecisions.is_some()).count();
    let judged: Vec<&Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.subdecisions.is_some())
        .collect();
    let sub_count = st.count(fields::SUBDECISIONS);
    let subs: Vec<Value> = tax
        .subdecisions
        .iter()
        .map(|s| {
            let lv = level(survey, FigureField::Subdecisions, &s.id);
            let has = |e: &&&Entry| e.subdecision_list().contains(&s.id);
            json!({
                "id": code_span(&s.id),
                "label": escape_markdown(&s.label),
                "question": escape_markdown(s.question.as_deref().unwrap_or("")),
                "count": sub_count.map(|t| t.get(&s.id)).unwrap_or(0),
                "rl": judged.iter().filter(|e| e.is_rl == "yes").filter(has).count(),
                "judged_no": judged.len() - judged.iter().filter(has).count(),
                "figure": lv.map(|l| figure_names(survey, &keyed, &l.entries)).unwrap_or_default(),
                "figure_note": lv.and_then(|l| l.note.as_deref()).map(escape_markdown).unwrap_or_default(),
            })
        })
        .collect();
    ctx.insert("subdecisions", &subs);
    ctx.insert(
        "subs",
        &json!({
            "rlish": rlish.len(),
            "rlish_judged": rl_judged,
            "complete": rl_judged == rlish.len(),
            "judged": judged.len(),
            "other_judged": judged.len() - rl_judged,
            "not_judged": entries.len() - judged.len(),
            "sources": by_source(tax, judged.iter().copied(), |e| e.subdecisions_source.clone()),
        }),
    );

    // Claims, grouped by source in the taxonomy's order.
    let groups: Vec<Value> = tax
        .claim_sources
        .iter()
        .filter_map(|src| {
            let rows: Vec<Value> = verdicts
                .iter()
                .filter(|v| v.source == src.id)
                .map(|v| {
                    json!({
                        "id": code_span(&v.id),
                        "statement": escape_markdown(&v.statement),
                        "locator": escape_markdown(&v.locator),
                        // A claim over the living list says so: it is not the survey's figure.
                        "living": v.pool == crate::model::claims::Pool::Living,
                        "expected": code_span(&v.expected),
                        "actual": v.actual,
                        "holds": v.holds,
                        "coverage": v.coverage.as_ref().map(|(f, j, n)| format!("{j} of {n} ({})", code_span(f))).unwrap_or_default(),
                        "boundary": escape_markdown(&v.boundary),
                        "note": v.note.as_deref().map(escape_markdown).unwrap_or_default(),
                    })
                })
                .collect();
            (!rows.is_empty()).then(|| json!({"label": escape_markdown(&src.label), "claims": rows}))
        })
        .collect();
    ctx.insert("claim_groups", &groups);

    // Screening: the log by stage, and later additions beside it.
    let stage_count = st.exclusion(fields::STAGE);
    let stages: Vec<Value> = tax
        .screening
        .stages
        .iter()
        .map(|s| json!({"id": code_span(&s.id), "label": escape_markdown(&s.label), "count": stage_count.map(|t| t.get(&s.id)).unwrap_or(0)}))
        .collect();
    ctx.insert("stages", &stages);
    // Rounds after the first, with the entries each added: the survey's
    // own later rounds and those of the living list alike.
    let first = tax.rounds.first().map(|r| r.id.as_str());
    let additions: Vec<Value> = tax
        .rounds
        .iter()
        .filter(|r| Some(r.id.as_str()) != first)
        .filter_map(|a| {
            let of: Vec<String> = entries
                .iter()
                .filter(|e| e.added_in.as_deref() == Some(a.id.as_str()))
                .map(|e| escape_markdown(&entry_name(survey, e)))
                .collect();
            let in_survey = corpus.in_survey_pool(Some(a.id.as_str()));
            (!of.is_empty()).then(|| json!({"id": code_span(&a.id), "label": escape_markdown(&a.label), "date": escape_markdown(&a.date), "in_survey": in_survey, "count": of.len(), "entries": of}))
        })
        .collect();
    let added: usize = entries
        .iter()
        .filter(|e| e.added_in.is_some() && e.added_in.as_deref() != first)
        .count();
    ctx.insert("additions", &additions);
    ctx.insert("added_later", &added);
    ctx.insert("screened", &tax.screening.screened);

    // The paper, its artifact and the Benchmark Gap table.
    if let Some(s) = survey {
        let p = &s.paper;
        ctx.insert(
            "paper",
            &json!({
                "title": escape_markdown(&p.title),
                // BibTeX keeps the acronym's case only inside braces.
                "bib_title": p.title.replace("LLM", "{LLM}"),
                "authors_bib": p.authors.join(" and "),
                "bib_key": p.bibtex_key(),
                "authors": escape_markdown(&join_words(&p.authors.iter().map(|a| crate::publish::entry_views::display_author(a)).collect::<Vec<_>>(), "and")),
                "year": p.year,
                // Shown raw (in a link text and in BibTeX), so only the
                // characters an arXiv id can hold are kept.
                "arxiv_id": p.arxiv_id.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-')).collect::<String>(),
                "arxiv_url": link_target(&format!("https://arxiv.org/abs/{}", p.arxiv_id)),
                "artifact": link_target(&p.artifact),
                "artifact_name": escape_markdown(p.artifact.trim_start_matches("https://")),
                "snapshot": escape_markdown(&p.snapshot),
            }),
        );
        let rows: Vec<Value> = s
            .benchmark_gap
            .iter()
            .map(|r| {
                let mut cited: Vec<String> = r
                    .benchmarks
                    .iter()
                    .filter_map(|k| keyed.get(k.as_str()))
                    // Named, not linked: each is an entry of the list below,
                    // and a second link to it is a duplicate to awesome-lint.
                    .map(|e| escape_markdown(&entry_name(survey, e)))
                    .collect();
                cited.extend(r.also_named.iter().map(|n| escape_markdown(n)));
                json!({
                    "domain": escape_markdown(&r.domain),
                    "cited": cited.join(", "),
                    "mas_native": escape_markdown(&r.mas_native),
                    "measures": escape_markdown(&r.measures),
                })
            })
            .collect();
        ctx.insert("benchmark_gap", &rows);
        ctx.insert("measures_note", &escape_markdown(&s.measures_note));
    }
}
