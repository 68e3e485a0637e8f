//! Checks of the artifact's tables in `corpus/survey.yaml` against the data:
//! every key names an entry and every record id a record, the survey's
//! representatives stand for a value of the vocabulary, the spot-check's
//! figures are consistent, and each claim-ledger row agrees with the tags of
//! its entry (its credit unit, and its reading as `strict_credit`).

use crate::layout::Layout;
use crate::model::corpus::Corpus;
use crate::model::fields;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;

/// Every problem of the artifact's tables (rule `survey-reference`).
pub fn problems(corpus: &Corpus) -> Vec<Diagnostic> {
    let Some((survey, text)) = &corpus.survey else {
        return Vec::new();
    };
    let tax = &corpus.taxonomy;
    let sev = tax.severity_of(Rule::SurveyReference);
    let entry = |k: &str| {
        corpus
            .entries
            .iter()
            .find(|e| e.entry.key == k)
            .map(|e| &e.entry)
    };
    let mut out = Vec::new();
    let mut push = |msg: String, section: &str, needle: &str| {
        let line = text.lines().position(|l| l.contains(needle)).map(|i| i + 1);
        out.push(
            Diagnostic::new(Rule::SurveyReference, sev, Layout::SURVEY, msg)
                .at_line(line)
                .field(section.to_string()),
        );
    };

    for r in &survey.survey_representatives {
        let values = match r.field.as_str() {
            fields::ORCHESTRATION_FORM => tax.values(fields::ORCHESTRATION_FORM),
            "reward_family" => Some(tax.reward_families.iter().map(|f| f.id.clone()).collect()),
            _ => None,
        };
        match values {
            None => push(
                format!("the survey's representatives stand for an orchestration_form or a reward_family, not `{}`", r.field),
                "survey_representatives",
                &r.locator,
            ),
            Some(v) if !v.contains(&r.value) => push(
                format!("the survey's representatives name `{}` `{}`, which is not in the taxonomy", r.field, r.value),
                "survey_representatives",
                &r.locator,
            ),
            Some(_) => {}
        }
        for n in r.entries.iter().filter(|n| entry(&n.key).is_none()) {
            push(
                format!(
                    "the survey's representative `{}` ({}) is no entry",
                    n.key, n.label
                ),
                "survey_representatives",
                &n.key,
            );
        }
    }

    if let Some(ledger) = &survey.claim_ledger {
        let readings = tax.values(fields::STRICT_CREDIT).unwrap_or_default();
        for row in &ledger.rows {
            let needle = format!("key: {}", row.key);
            if !readings.contains(&row.reading) {
                push(
                    format!(
                        "claim-ledger row `{}` reads `{}`, which is not a strict_credit value ({})",
                        row.key,
                        row.reading,
                        readings.join(", ")
                    ),
                    "claim_ledger",
                    &needle,
                );
            }
            let Some(e) = entry(&row.key) else {
                push(
                    format!("claim-ledger row `{}` is no entry", row.key),
                    "claim_ledger",
                    &needle,
                );
                continue;
            };
            if e.credit_granularity != row.level {
                push(
                    format!("claim-ledger row `{}` sits at `{}`, but the entry's credit_granularity is `{}`", row.key, row.level, e.credit_granularity),
                    "claim_ledger",
                    &needle,
                );
            }
            if e.strict_credit.as_deref() != Some(row.reading.as_str()) {
                push(
                    format!(
                        "claim-ledger row `{}` reads `{}`, but the entry's strict_credit is `{}`",
                        row.key,
                        row.reading,
                        e.strict_credit
                            .as_deref()
                            .unwrap_or(crate::model::NOT_JUDGED)
                    ),
                    "claim_ledger",
                    &needle,
                );
            }
        }
    }

    if let Some(nm) = &survey.near_misses {
        for row in &nm.rows {
            if !corpus
                .exclusions
                .iter()
                .any(|x| x.record.record_id == row.record)
            {
                push(
                    format!(
                        "near miss `{}` is no record of the exclusion log",
                        row.record
                    ),
                    "near_misses",
                    &format!("record: {}", row.record),
                );
            }
        }
    }

    if let Some(sc) = &survey.spotcheck {
        for a in &sc.agreement {
            if a.agree > a.of || a.of != sc.rows {
                push(
                    format!(
                        "the spot-check's agreement on `{}` is {} of {}, but it covers {} rows",
                        a.field, a.agree, a.of, sc.rows
                    ),
                    "spotcheck",
                    &format!("field: {},", a.field),
                );
            }
        }
        for n in sc.notes.iter().filter(|n| entry(&n.key).is_none()) {
            push(
                format!("the spot-check's note names `{}`, which is no entry", n.key),
                "spotcheck",
                &format!("key: {}", n.key),
            );
        }
    }
    out
}
