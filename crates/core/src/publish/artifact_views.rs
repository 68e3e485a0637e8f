//! The README's views of the survey artifact's own tables (corpus/survey.yaml):
//! the representatives its README names per topology and reward family,
//! the claim ledger's per-row readings, the stress test's near misses, the
//! evidence levels and the spot-check, each with its locator; and the
//! taxonomy's criteria for the judged tags. All text is escaped here.

use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::taxonomy::label_of;
use crate::model::Entry;
use crate::text::markdown::{code_span, escape_markdown};
use serde_json::{json, Value};

/// The survey's representatives for one value: each as the table labels
/// it, marked when this list tags the entry with another value.
fn survey_reps(
    corpus: &Corpus,
    field: &str,
    value: &str,
    carries: impl Fn(&Entry) -> bool,
) -> Value {
    let Some((s, _)) = &corpus.survey else {
        return json!({"names": [], "locator": ""});
    };
    let entries = corpus.entry_list();
    let names: Vec<String> = s
        .survey_representatives(field, value)
        .iter()
        .map(|n| {
            let elsewhere = entries
                .iter()
                .find(|e| e.key == n.key)
                .is_some_and(|e| !carries(e));
            format!(
                "{}{}",
                escape_markdown(&n.label),
                if elsewhere { " †" } else { "" }
            )
        })
        .collect();
    let locator = s
        .survey_representatives
        .iter()
        .find(|r| r.field == field && r.value == value)
        .map(|r| escape_markdown(&r.locator))
        .unwrap_or_default();
    json!({"names": names, "locator": locator})
}

/// Adds the artifact's tables and the taxonomy's criteria to the README context.
pub fn extend_context(ctx: &mut tera::Context, corpus: &Corpus) {
    let tax = &corpus.taxonomy;
    let criteria: serde_json::Map<String, Value> = tax
        .criteria
        .iter()
        .map(|(k, v)| (k.clone(), json!(escape_markdown(v))))
        .collect();
    ctx.insert("criteria", &criteria);
    let topologies: Vec<Value> = tax
        .orchestration_forms
        .iter()
        .map(|f| {
            survey_reps(corpus, fields::ORCHESTRATION_FORM, &f.id, |e| {
                e.orchestration_form == f.id
            })
        })
        .collect();
    ctx.insert("survey_topology_reps", &topologies);
    let families: Vec<Value> = tax
        .reward_families
        .iter()
        .map(|f| {
            survey_reps(corpus, "reward_family", &f.id, |e| {
                f.reward_types.contains(&e.reward_type)
            })
        })
        .collect();
    ctx.insert("survey_family_reps", &families);

    let Some((s, _)) = &corpus.survey else {
        return;
    };
    let entries = corpus.entry_list();
    let name = |k: &str| {
        entries
            .iter()
            .find(|e| e.key == k)
            .map(|e| crate::publish::entry_views::entry_name(Some(s), e))
            .unwrap_or_else(|| k.to_string())
    };
    if let Some(l) = &s.claim_ledger {
        let rows: Vec<Value> = l
            .rows
            .iter()
            .map(|r| {
                // The row's words first (the entry's name, the reading's
                // label), then each escaped.
                let (entry, reading) = (name(&r.key), label_of(&tax.strict_credit, &r.reading));
                json!({
                    "name": escape_markdown(&entry),
                    "level": code_span(&r.level),
                    "reading": escape_markdown(reading),
                    "rationale": escape_markdown(&r.rationale),
                    "boundary": escape_markdown(&r.boundary),
                })
            })
            .collect();
        ctx.insert(
            "ledger_rows",
            &json!({"locator": escape_markdown(&l.locator), "rows": rows}),
        );
    }
    if let Some(nm) = &s.near_misses {
        let records = corpus.exclusion_list();
        let rows: Vec<Value> = nm
            .rows
            .iter()
            .map(|r| {
                let title = records
                    .iter()
                    .find(|x| x.record_id == r.record)
                    .map(|x| x.title.split(':').next().unwrap_or(&x.title).to_string())
                    .unwrap_or_default();
                json!({
                    "record": code_span(&r.record),
                    "title": escape_markdown(&title),
                    "why": escape_markdown(&r.why),
                    "effect": escape_markdown(&r.effect),
                })
            })
            .collect();
        ctx.insert(
            "near_misses",
            &json!({"locator": escape_markdown(&nm.locator), "finding": escape_markdown(&nm.finding), "rows": rows}),
        );
    }
    // The search protocol is stated once, in corpus/search.yaml (the file
    // `corpus discover` runs); the README shows its families and rules.
    if let Some(sp) = &corpus.search {
        let families: Vec<Value> = sp
            .queries
            .iter()
            .map(|q| {
                let mut terms = q.terms.join("; ");
                if !q.with.is_empty() {
                    terms = format!("{terms}; with one of: {}", q.with.join("; "));
                }
                json!({"family": escape_markdown(&q.family), "terms": escape_markdown(&terms)})
            })
            .collect();
        let sections: Vec<&str> = std::iter::once("Query Families")
            .chain(
                sp.include_when
                    .iter()
                    .chain(&sp.exclude_when)
                    .map(|r| r.locator.section.as_str()),
            )
            .fold(Vec::new(), |mut v, x| {
                if !v.contains(&x) {
                    v.push(x);
                }
                v
            });
        let locator = format!("{}, \"{}\"", sp.protocol.file, sections.join("\", \""));
        let text = |rules: &[crate::model::search::ScreenRule]| -> Vec<String> {
            rules.iter().map(|r| escape_markdown(&r.text)).collect()
        };
        ctx.insert(
            "protocol",
            &json!({
                "locator": escape_markdown(&locator),
                "families": families,
                "inclusion": text(&sp.include_when),
                "exclusion": text(&sp.exclude_when),
            }),
        );
    }
    if let Some(ev) = &s.evidence_levels {
        let levels: Vec<Value> = ev
            .levels
            .iter()
            .map(|l| json!({"evidence": escape_markdown(&l.evidence), "supports": escape_markdown(&l.supports)}))
            .collect();
        ctx.insert(
            "evidence_levels",
            &json!({"locator": escape_markdown(&ev.locator), "levels": levels}),
        );
    }
    if let Some(sc) = &s.spotcheck {
        let agreement: Vec<Value> = sc
            .agreement
            .iter()
            .map(|a| json!({"field": code_span(&a.field), "agree": a.agree, "of": a.of}))
            .collect();
        let notes: Vec<Value> = sc
            .notes
            .iter()
            .map(|n| json!({"name": escape_markdown(&name(&n.key)), "verdict": code_span(&n.verdict), "note": escape_markdown(&n.note)}))
            .collect();
        ctx.insert(
            "spot",
            &json!({
                "locator": escape_markdown(&sc.locator),
                "date": escape_markdown(&sc.date),
                "rows": sc.rows,
                "selection": sc.selection.iter().map(|x| escape_markdown(x)).collect::<Vec<_>>(),
                "caveat": escape_markdown(&sc.caveat),
                "agreement": agreement,
                "notes": notes,
            }),
        );
    }
}
