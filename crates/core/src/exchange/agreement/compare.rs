//! Annotations checked against the corpus and taxonomy, then turned into figures per field.

use super::{
    comparable_fields, error, is_set_field, set_items, unknown_field, Accept, Agreement,
    Annotation, Disagreement, FieldAgreement, Kappa, NOTE_NO_ROWS, NOTE_SINGLE_CATEGORY,
    RULE_DUPLICATE_KEY, RULE_UNKNOWN_KEY, RULE_UNKNOWN_VALUE,
};
use crate::model::filter::{FieldValue, Fields};
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use crate::text::closest::closest;
use corpus_diagnostics::diag::Diagnostic;
use std::collections::BTreeMap;

/// Checks keys and values against the corpus and taxonomy, then computes the report.
pub fn compare(
    file_label: &str,
    annotations: &[Annotation],
    entries: &[&Entry],
    tax: &Taxonomy,
) -> Result<Agreement, Vec<Diagnostic>> {
    let by_key: BTreeMap<&str, &Entry> = entries.iter().map(|e| (e.key.as_str(), *e)).collect();
    let mut diags = validate(file_label, annotations, &by_key, tax, Accept::Single);
    if !diags.is_empty() {
        corpus_diagnostics::diag::sort(&mut diags);
        return Err(diags);
    }
    let fields: Vec<FieldAgreement> = comparable_fields()
        .filter(|f| {
            annotations
                .iter()
                .any(|a| a.tags.iter().any(|(t, _)| t == f))
        })
        .map(|field| field_agreement(field, annotations, &by_key))
        .collect();
    let (agree, n) = fields
        .iter()
        .fold((0, 0), |(a, n), f| (a + f.agree, n + f.n));
    Ok(Agreement {
        fields,
        rows: annotations.len(),
        overall_observed: ratio(agree, n),
    })
}

/// Every problem of one file's annotations: keys given twice or not in the
/// corpus, fields not compared, values outside the taxonomy.
pub(super) fn validate(
    file_label: &str,
    annotations: &[Annotation],
    by_key: &BTreeMap<&str, &Entry>,
    tax: &Taxonomy,
    accepted: Accept,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut first_line: BTreeMap<&str, usize> = BTreeMap::new();
    for a in annotations {
        let at = (a.line > 0).then_some(a.line);
        if let Some(first) = first_line.get(a.key.as_str()) {
            let field_line = if *first > 0 {
                format!(" (first on line {first})")
            } else {
                String::new()
            };
            diags.push(
                error(
                    RULE_DUPLICATE_KEY,
                    file_label,
                    at,
                    format!("`{}` is annotated twice{field_line}", a.key),
                )
                .field("key")
                .help("keep one row per entry: two rows would count the entry twice"),
            );
        } else {
            first_line.insert(&a.key, a.line);
        }
        if !by_key.contains_key(a.key.as_str()) {
            let d = error(
                RULE_UNKNOWN_KEY,
                file_label,
                at,
                format!("`{}` is not an entry of the corpus", a.key),
            )
            .field("key");
            let help = closest(&a.key, by_key.keys().copied())
                .map(|c| format!("did you mean `{c}`?"))
                .unwrap_or_else(|| "check the key against corpus/papers/<key>.yaml".into());
            diags.push(d.help(help));
        }
        for (field, value) in &a.tags {
            let line = a.line_of(field);
            let allowed = match tax.allowed(field) {
                Some(v) if accepted.accepts(field) => v,
                _ => {
                    diags.push(unknown_field(file_label, line, field, field));
                    continue;
                }
            };
            let values: Vec<String> = if is_set_field(field) {
                set_items(value).unwrap_or_default().into_iter().collect()
            } else if value.is_empty() {
                Vec::new()
            } else {
                vec![value.clone()]
            };
            for value in values.iter().filter(|v| !allowed.contains(v)) {
                diags.push(unknown_value(file_label, line, field, value, &allowed));
            }
        }
    }
    diags
}

fn unknown_value(
    file_label: &str,
    line: Option<usize>,
    field: &str,
    value: &str,
    allowed: &[String],
) -> Diagnostic {
    let help = closest(value, allowed.iter().map(String::as_str))
        .map(|c| format!("did you mean `{c}`?"))
        .unwrap_or_else(|| format!("allowed: {}", allowed.join(", ")));
    error(
        RULE_UNKNOWN_VALUE,
        file_label,
        line,
        format!("`{value}` is not a value of `{field}` in the taxonomy"),
    )
    .field(field)
    .help(help)
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

fn corpus_value(e: &Entry, field: &str) -> String {
    match e.field(field) {
        Some(FieldValue::One(v)) => v.into_owned(),
        Some(FieldValue::Many(v)) => v.join(","),
        None => String::new(),
    }
}

fn field_agreement(
    field: &str,
    annotations: &[Annotation],
    by_key: &BTreeMap<&str, &Entry>,
) -> FieldAgreement {
    let mut pairs = Vec::new();
    let mut disagreements = Vec::new();
    for a in annotations {
        let Some(entry) = by_key.get(a.key.as_str()) else {
            continue;
        };
        let Some((_, ann)) = a.tags.iter().find(|(f, v)| f == field && !v.is_empty()) else {
            continue;
        };
        let corpus = corpus_value(entry, field);
        if corpus != *ann {
            disagreements.push(Disagreement {
                key: a.key.clone(),
                corpus: corpus.clone(),
                annotator: ann.clone(),
            });
        }
        pairs.push((corpus, ann.clone()));
    }
    let k = Kappa::of(pairs.iter().map(|(c, a)| (c.as_str(), a.as_str())));
    let note = if k.n == 0 {
        Some(NOTE_NO_ROWS.to_string())
    } else if k.kappa.is_none() {
        Some(NOTE_SINGLE_CATEGORY.to_string())
    } else {
        None
    };
    FieldAgreement {
        field: field.to_string(),
        n: k.n,
        agree: k.agree,
        observed: k.observed,
        expected: k.expected,
        kappa: k.kappa,
        note,
        disagreements,
    }
}
