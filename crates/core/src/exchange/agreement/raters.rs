//! Agreement among any number of raters: each annotation file is one rater,
//! the corpus's own tags another (unless left out); Krippendorff's alpha per
//! field with a bootstrap interval over entries.

use super::alpha::{bootstrap, Alpha, Masi, Nominal};
use super::compare::validate;
use super::{comparable_fields, set_items, Accept, Annotation, SET_FIELDS};
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use corpus_diagnostics::diag::Diagnostic;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Label of the corpus when its tags count as one rater.
pub const CORPUS_RATER: &str = "corpus";
/// Note on a field where fewer than two ratings of one entry pair up.
pub const NOTE_UNPAIRED: &str = "undefined: no entry has two ratings of this field";
/// Note on a field where every rating is the same value (D_e = 0).
pub const NOTE_ONE_VALUE: &str = "undefined: every rating is the same value";

/// How alpha is computed and resampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Whether the corpus's own tags are one of the raters.
    pub with_corpus: bool,
    /// Bootstrap resamples of the entries.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
}

/// Alpha for one tag field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldReliability {
    /// Tag field name.
    pub field: String,
    /// `nominal` for a single-valued field, `MASI` for a set of tags.
    pub distance: &'static str,
    /// Raters who rated this field at least once.
    pub raters: usize,
    /// Entries with at least two ratings of the field.
    pub units: usize,
    /// Ratings in those entries.
    pub values: usize,
    /// Observed disagreement D_o.
    pub observed_disagreement: Option<f64>,
    /// Disagreement expected by chance D_e.
    pub expected_disagreement: Option<f64>,
    /// Krippendorff's alpha = 1 − D_o / D_e.
    pub alpha: Option<f64>,
    /// Lower end of the bootstrap interval.
    pub ci_low: Option<f64>,
    /// Upper end of the bootstrap interval.
    pub ci_high: Option<f64>,
    /// Resamples whose alpha was defined (the interval is over these).
    pub defined_resamples: usize,
    /// Why a figure is missing, when one is.
    pub note: Option<String>,
}

/// Alpha for every annotated field, with what it was computed from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reliability {
    /// The raters: `corpus` (when counted) and the files, in the order given.
    pub raters: Vec<String>,
    /// Entries annotated in at least one file.
    pub entries: usize,
    /// Coverage of the bootstrap interval.
    pub confidence: f64,
    /// Bootstrap resamples of the entries.
    pub resamples: usize,
    /// Seed of the resampling (SplitMix64).
    pub seed: u64,
    /// Fields annotated in at least one file, single-valued first, in taxonomy order.
    pub fields: Vec<FieldReliability>,
}

/// Checks every file against the corpus and taxonomy, then computes alpha per field.
pub fn reliability(
    files: &[(String, Vec<Annotation>)],
    entries: &[&Entry],
    tax: &Taxonomy,
    opts: Options,
) -> Result<Reliability, Vec<Diagnostic>> {
    let by_key: BTreeMap<&str, &Entry> = entries.iter().map(|e| (e.key.as_str(), *e)).collect();
    let mut diags: Vec<Diagnostic> = files
        .iter()
        .flat_map(|(label, anns)| validate(label, anns, &by_key, tax, Accept::WithSets))
        .collect();
    if !diags.is_empty() {
        corpus_diagnostics::diag::sort(&mut diags);
        return Err(diags);
    }
    // Each file's ratings by key: (field → value), blanks left out.
    let rated: Vec<BTreeMap<&str, BTreeMap<&str, &str>>> = files
        .iter()
        .map(|(_, anns)| {
            anns.iter()
                .map(|a| {
                    let tags = a
                        .tags
                        .iter()
                        .filter(|(_, v)| !v.trim().is_empty())
                        .map(|(f, v)| (f.as_str(), v.as_str()))
                        .collect();
                    (a.key.as_str(), tags)
                })
                .collect()
        })
        .collect();
    let keys: BTreeSet<&str> = rated.iter().flat_map(|r| r.keys().copied()).collect();
    let annotated = |f: &str| {
        files
            .iter()
            .any(|(_, anns)| anns.iter().any(|a| a.tags.iter().any(|(t, _)| t == f)))
    };
    let fields = comparable_fields()
        .chain(SET_FIELDS)
        .filter(|f| annotated(f))
        .map(|field| {
            let corpus = |key: &str| {
                opts.with_corpus
                    .then(|| by_key.get(key).and_then(|e| corpus_value(e, field)))
                    .flatten()
            };
            let per_unit: Vec<Vec<String>> = keys
                .iter()
                .map(|key| {
                    corpus(key)
                        .into_iter()
                        .chain(rated.iter().filter_map(|r| {
                            r.get(key).and_then(|t| t.get(field)).map(|v| v.to_string())
                        }))
                        .collect()
                })
                .collect();
            let raters = usize::from(opts.with_corpus && keys.iter().any(|k| corpus(k).is_some()))
                + rated
                    .iter()
                    .filter(|r| r.values().any(|t| t.contains_key(field)))
                    .count();
            field_reliability(field, raters, &per_unit, opts)
        })
        .collect();
    let raters = opts
        .with_corpus
        .then(|| CORPUS_RATER.to_string())
        .into_iter()
        .chain(files.iter().map(|(l, _)| l.clone()))
        .collect();
    Ok(Reliability {
        raters,
        entries: keys.len(),
        confidence: 0.95,
        resamples: opts.resamples,
        seed: opts.seed,
        fields,
    })
}

/// The corpus's rating of a field: the tag, or the set written `a;b` / `[]`;
/// None for a set the entry leaves out (not judged).
fn corpus_value(e: &Entry, field: &str) -> Option<String> {
    use crate::model::fields::{ADDITIONAL_CREDIT_UNITS, SUBDECISIONS};
    let set = |v: &Option<Vec<String>>| {
        v.as_ref().map(|v| {
            if v.is_empty() {
                super::EMPTY_SET.to_string()
            } else {
                v.join(";")
            }
        })
    };
    match field {
        SUBDECISIONS => set(&e.subdecisions),
        ADDITIONAL_CREDIT_UNITS => set(&e.additional_credit_units),
        _ => match crate::model::filter::Fields::field(e, field) {
            Some(crate::model::filter::FieldValue::One(v)) if !v.is_empty() => Some(v.into_owned()),
            _ => None,
        },
    }
}

fn field_reliability(
    field: &str,
    raters: usize,
    per_unit: &[Vec<String>],
    opts: Options,
) -> FieldReliability {
    let is_set = super::is_set_field(field);
    // Distinct values as indices; a set is compared by its members, so `a;b`
    // and `b; a` are one value.
    let canon = |v: &str| -> String {
        if is_set {
            let items = set_items(v).unwrap_or_default();
            items.into_iter().collect::<Vec<_>>().join(";")
        } else {
            v.to_string()
        }
    };
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let units: Vec<Vec<usize>> = per_unit
        .iter()
        .map(|u| {
            u.iter()
                .map(|v| {
                    let c = canon(v);
                    let next = index.len();
                    *index.entry(c).or_insert(next)
                })
                .collect()
        })
        .collect();
    let mut sets = vec![BTreeSet::new(); index.len()];
    for (v, &i) in &index {
        sets[i] = v
            .split(';')
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
    }
    let masi = Masi { sets: &sets };
    let distance: &dyn super::alpha::Distance = if is_set { &masi } else { &Nominal };
    let a = Alpha::of(&units, index.len(), distance);
    let ci = a
        .alpha
        .and_then(|_| bootstrap(&units, index.len(), distance, opts.resamples, opts.seed));
    let note = if a.units == 0 {
        Some(NOTE_UNPAIRED.to_string())
    } else if a.alpha.is_none() {
        Some(NOTE_ONE_VALUE.to_string())
    } else {
        None
    };
    FieldReliability {
        field: field.to_string(),
        distance: if is_set { "MASI" } else { "nominal" },
        raters,
        units: a.units,
        values: a.values,
        observed_disagreement: a.observed,
        expected_disagreement: a.expected,
        alpha: a.alpha,
        ci_low: ci.map(|c| c.low),
        ci_high: ci.map(|c| c.high),
        defined_resamples: ci.map_or(0, |c| c.defined),
        note,
    }
}

fn fmt3(x: Option<f64>) -> String {
    x.map_or_else(|| "undefined".to_string(), |v| format!("{v:.3}"))
}

/// Renders the alpha report as a text table that fits 80 columns.
pub fn reliability_table(r: &Reliability) -> String {
    use comfy_table::{
        presets::UTF8_FULL_CONDENSED, CellAlignment, ColumnConstraint, ContentArrangement, Table,
    };
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(80);
    t.set_header(vec![
        "field", "distance", "raters", "units", "values", "alpha", "95% CI",
    ]);
    for f in &r.fields {
        let ci = match (f.ci_low, f.ci_high) {
            (Some(l), Some(h)) => format!("{l:.3} to {h:.3}"),
            _ => "-".to_string(),
        };
        t.add_row(vec![
            f.field.clone(),
            f.distance.to_string(),
            f.raters.to_string(),
            f.units.to_string(),
            f.values.to_string(),
            fmt3(f.alpha),
            ci,
        ]);
    }
    for i in 2..7 {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
            c.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let mut out = format!(
        "Krippendorff's alpha among {} raters over {} annotated entries:\n",
        r.raters.len(),
        r.entries
    );
    for (i, rater) in r.raters.iter().enumerate() {
        out.push_str(&format!("  {}. {rater}\n", i + 1));
    }
    out.push_str(&format!("{t}\n"));
    out.push_str("alpha = 1 - observed / expected disagreement; units: entries rated twice+\n");
    out.push_str(&format!(
        "95% CI: percentile bootstrap over units, {} resamples, seed {}\n",
        r.resamples, r.seed
    ));
    if r.fields.iter().any(|f| f.distance == "MASI") {
        out.push_str("MASI distance of tag sets (Passonneau 2006): 0 equal, 1 disjoint\n");
    }
    out.push_str(&super::table::notes_block(
        r.fields
            .iter()
            .map(|f| (f.field.as_str(), f.note.as_deref())),
    ));
    out
}
