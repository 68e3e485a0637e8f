//! Counting: per-field tallies with every taxonomy value (zeros included,
//! since sparsity is the finding), reward families, cross-tabs and the
//! exclusion log. Their table, Markdown, JSON and CSV forms are in
//! `stats_render`.

pub mod charts;
pub mod render;

use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::filter::{FieldValue, Fields};
use crate::model::taxonomy::Taxonomy;
use crate::model::{Entry, Exclusion};
use serde::{Deserialize, Serialize};

/// A one-way count: every allowed value of a field with its number of entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Table name, e.g. `reward_family`.
    pub name: String,
    /// Rows in taxonomy order, zeros included, unknown values last.
    pub rows: Vec<(String, u64)>,
}

impl Tally {
    /// Count of one value (0 when absent).
    pub fn get(&self, value: &str) -> u64 {
        self.rows
            .iter()
            .find(|(v, _)| v == value)
            .map(|r| r.1)
            .unwrap_or(0)
    }

    /// Rows sorted by count (descending), then name.
    pub fn sorted(&self) -> Vec<(String, u64)> {
        let mut r = self.rows.clone();
        r.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        r
    }

    /// Sum of all rows.
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|r| r.1).sum()
    }
}

/// A two-way count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossTab {
    /// Table name, e.g. `reward_type_x_credit_granularity`.
    pub name: String,
    /// Field counted along the rows.
    pub row_field: String,
    /// Field counted along the columns.
    pub col_field: String,
    /// Row values in taxonomy order.
    pub rows: Vec<String>,
    /// Column values in taxonomy order.
    pub cols: Vec<String>,
    /// `cells[r][c]`.
    pub cells: Vec<Vec<u64>>,
}

impl CrossTab {
    /// Count of one cell (0 when either value is absent).
    pub fn get(&self, row: &str, col: &str) -> u64 {
        let r = self.rows.iter().position(|x| x == row);
        let c = self.cols.iter().position(|x| x == col);
        match (r, c) {
            (Some(r), Some(c)) => self.cells[r][c],
            _ => 0,
        }
    }
}

/// Every figure the tool reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Retained entries.
    pub retained: u64,
    /// Excluded records.
    pub excluded: u64,
    /// Retained plus excluded.
    pub audited: u64,
    /// One-way counts over entries, by field.
    pub counts: Vec<Tally>,
    /// Two-way counts over entries.
    pub crosstabs: Vec<CrossTab>,
    /// One-way counts over the exclusion log.
    pub exclusions: Vec<Tally>,
    /// The survey's pool, when the living list has grown beyond it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub survey: Option<SurveyPool>,
    /// The entries counted that rest on withdrawn or retracted papers, when
    /// the corpus has a status file to say so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusShare>,
}

/// The entries every figure counts whose paper `corpus watch` recorded as
/// withdrawn (with no later version) or retracted, by key.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusShare {
    /// Keys of entries whose arXiv record stands withdrawn.
    pub withdrawn: Vec<String>,
    /// Keys of entries whose paper is marked retracted.
    pub retracted: Vec<String>,
}

impl StatusShare {
    /// The file the figures come from.
    pub const SOURCE: &'static str = crate::layout::Layout::STATUS;

    /// Entries resting on either (an entry both withdrawn and retracted counts once).
    pub fn either(&self) -> usize {
        let mut all: Vec<&String> = self.withdrawn.iter().chain(&self.retracted).collect();
        all.sort();
        all.dedup();
        all.len()
    }
}

/// The size of the survey's pool beside the living list's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurveyPool {
    /// Entries of the survey's rounds.
    pub retained: u64,
    /// Records of the survey's rounds.
    pub excluded: u64,
}

impl Stats {
    /// Entries added since the survey (0 without a split).
    pub fn added_since(&self) -> u64 {
        self.survey.map_or(0, |p| self.retained - p.retained)
    }

    /// Records logged since the survey (0 without a split).
    pub fn logged_since(&self) -> u64 {
        self.survey.map_or(0, |p| self.excluded - p.excluded)
    }
}

/// Calls `f` with each value a record holds in a field, without copying it.
fn each_value(e: &dyn Fields, field: &str, mut f: impl FnMut(&str)) {
    match e.field(field) {
        Some(FieldValue::One(v)) => f(&v),
        Some(FieldValue::Many(l)) => l.iter().for_each(|v| f(v)),
        None => {}
    }
}

/// Counts values, keeping the taxonomy's order and appending unknown values.
///
/// A vocabulary has a handful of values, so a linear scan beats hashing.
struct Counter {
    rows: Vec<(String, u64)>,
}

impl Counter {
    fn new(allowed: Vec<String>) -> Counter {
        Counter {
            rows: allowed.into_iter().map(|v| (v, 0)).collect(),
        }
    }

    /// Index of a value, adding it when unseen.
    fn slot(&mut self, v: &str) -> usize {
        if let Some(i) = self.rows.iter().position(|(r, _)| r == v) {
            return i;
        }
        self.rows.push((v.to_string(), 0));
        self.rows.len() - 1
    }

    fn add(&mut self, v: &str) {
        let i = self.slot(v);
        self.rows[i].1 += 1;
    }

    fn finish(self, name: &str) -> Tally {
        Tally {
            name: name.to_string(),
            rows: self.rows,
        }
    }
}

fn tally(name: &str, allowed: Vec<String>, records: &[&dyn Fields], field: &str) -> Tally {
    let mut c = Counter::new(allowed);
    for r in records {
        each_value(*r, field, |v| c.add(v));
    }
    c.finish(name)
}

fn crosstab(vocab: &Vocab, entries: &[&dyn Fields], row_field: &str, col_field: &str) -> CrossTab {
    let mut rows = Counter::new(vocab.allowed(row_field));
    let mut cols = Counter::new(vocab.allowed(col_field));
    let mut hits: Vec<(usize, usize)> = Vec::with_capacity(entries.len());
    for e in entries {
        let mut rs = Vec::new();
        each_value(*e, row_field, |v| rs.push(rows.slot(v)));
        each_value(*e, col_field, |v| {
            let c = cols.slot(v);
            hits.extend(rs.iter().map(|r| (*r, c)));
        });
    }
    let mut cells = vec![vec![0u64; cols.rows.len()]; rows.rows.len()];
    for (r, c) in hits {
        cells[r][c] += 1;
    }
    CrossTab {
        name: format!("{row_field}_x_{col_field}"),
        row_field: row_field.into(),
        col_field: col_field.into(),
        rows: rows.rows.into_iter().map(|r| r.0).collect(),
        cols: cols.rows.into_iter().map(|c| c.0).collect(),
        cells,
    }
}

/// The row of a `*_judged` tally counting entries whose tag was judged.
pub const JUDGED: &str = "judged";
pub use crate::model::NOT_JUDGED;

/// The two-way counts over entries: (row field, column field).
const CROSSTABS: [(&str, &str); 4] = [
    (fields::REWARD_TYPE, fields::CREDIT_GRANULARITY),
    (fields::ORCHESTRATION_FORM, fields::CREDIT_GRANULARITY),
    (fields::CATEGORY, fields::VERIFIED),
    (fields::CREDIT_GRANULARITY, fields::STRICT_CREDIT),
];

/// The taxonomy's words a count needs, looked up before anything is
/// counted: each counted field's values in the taxonomy's order (its
/// table's rows, zeros included), the round and the reward family of each
/// entry, and the rows of the families' table.
struct Vocab {
    /// Allowed values by field.
    allowed: Vec<(&'static str, Vec<String>)>,
    /// Each entry's round (`added_in`, else the first round).
    rounds: Vec<Option<String>>,
    /// Each entry's reward family (the `NA` value when it has none).
    families: Vec<String>,
    /// The families' ids, then the `NA` value.
    family_rows: Vec<String>,
}

impl Vocab {
    /// Looks up everything counting `entries` needs in `tax`.
    fn of(tax: &Taxonomy, entries: &[&Entry]) -> Vocab {
        let allowed = fields::entry_tags()
            .chain(fields::record_tags())
            .chain(CROSSTABS.iter().flat_map(|(row, col)| [*row, *col]))
            .map(|f| (f, tax.allowed(f).unwrap_or_default()))
            .collect();
        let rounds = entries
            .iter()
            .map(|e| tax.round_of(e.added_in.as_deref()).map(str::to_string))
            .collect();
        let families = entries
            .iter()
            .map(|e| {
                tax.family_of(&e.reward_type)
                    .map_or_else(|| tax.na.clone(), |f| f.id.clone())
            })
            .collect();
        let mut family_rows: Vec<String> =
            tax.reward_families.iter().map(|f| f.id.clone()).collect();
        family_rows.push(tax.na.clone());
        Vocab {
            allowed,
            rounds,
            families,
            family_rows,
        }
    }

    /// The allowed values of `field` (none when the taxonomy lists none).
    fn allowed(&self, field: &str) -> Vec<String> {
        self.allowed
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// Computes every figure from entries and exclusion records.
pub fn compute(tax: &Taxonomy, entries: &[&Entry], exclusions: &[&Exclusion]) -> Stats {
    let vocab = Vocab::of(tax, entries);
    let records: Vec<&dyn Fields> = entries.iter().map(|e| *e as &dyn Fields).collect();
    let mut counts = Vec::new();
    for field in fields::entry_tags() {
        if field == fields::ADDED_IN {
            // Every entry belongs to a round: one without `added_in`
            // counts under the first.
            let mut c = Counter::new(vocab.allowed(field));
            for r in vocab.rounds.iter().flatten() {
                c.add(r);
            }
            counts.push(c.finish(field));
            continue;
        }
        counts.push(tally(field, vocab.allowed(field), &records, field));
        if field == fields::REWARD_TYPE {
            let mut c = Counter::new(vocab.family_rows.clone());
            for f in &vocab.families {
                c.add(f);
            }
            counts.push(c.finish("reward_family"));
        }
    }
    // The project's judged tags: what was judged, by whom, and what was not.
    for (tag, _) in crate::model::JUDGED_TAGS {
        let mut c = Counter::new(vec![JUDGED.to_string(), NOT_JUDGED.to_string()]);
        for e in entries {
            c.add(if e.is_judged(tag) { JUDGED } else { NOT_JUDGED });
        }
        counts.push(c.finish(&format!("{tag}_judged")));
    }
    let crosstabs = CROSSTABS
        .iter()
        .map(|(row, col)| crosstab(&vocab, &records, row, col))
        .collect();
    let xrecords: Vec<&dyn Fields> = exclusions.iter().map(|x| *x as &dyn Fields).collect();
    let exclusions_t = fields::record_tags()
        .map(|f| tally(f, vocab.allowed(f), &xrecords, f))
        .collect();
    let retained = entries.len() as u64;
    let excluded = exclusions.len() as u64;
    Stats {
        retained,
        excluded,
        audited: retained + excluded,
        counts,
        crosstabs,
        exclusions: exclusions_t,
        survey: None,
        status: None,
    }
}

/// Computes the figures of a loaded corpus: the living list, with the
/// survey's pool beside it when the two differ.
pub fn of_corpus(c: &Corpus) -> Stats {
    let mut st = compute(&c.taxonomy, &c.entry_list(), &c.exclusion_list());
    let pool = SurveyPool {
        retained: c.survey_entries().len() as u64,
        excluded: c.survey_exclusions().len() as u64,
    };
    if (pool.retained, pool.excluded) != (st.retained, st.excluded) {
        st.survey = Some(pool);
    }
    // Only a status file can say it; without one the share is unknown, not zero.
    st.status = c.status.as_ref().map(|s| {
        let keys = |f: &dyn Fn(&str) -> bool| -> Vec<String> {
            c.entries
                .iter()
                .map(|le| le.entry.key.clone())
                .filter(|k| f(k))
                .collect()
        };
        StatusShare {
            withdrawn: keys(&|k| s.standing_withdrawal(k).is_some()),
            retracted: keys(&|k| s.retraction(k).is_some()),
        }
    });
    st
}

impl Stats {
    /// The one-way count of an entry field (or `reward_family`).
    pub fn count(&self, name: &str) -> Option<&Tally> {
        self.counts.iter().find(|t| t.name == name)
    }

    /// The one-way count of an exclusion field.
    pub fn exclusion(&self, name: &str) -> Option<&Tally> {
        self.exclusions.iter().find(|t| t.name == name)
    }

    /// The cross-tab with this name.
    pub fn crosstab(&self, name: &str) -> Option<&CrossTab> {
        self.crosstabs.iter().find(|t| t.name == name)
    }
}
