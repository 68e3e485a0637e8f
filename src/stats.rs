//! Counting: per-field tallies with every taxonomy value (zeros included,
//! since sparsity is the finding), reward families, cross-tabs and the
//! exclusion log, plus their table, Markdown, JSON and CSV forms.

use crate::corpus::Corpus;
use crate::fields;
use crate::filter::{FieldValue, Fields};
use crate::model::{Entry, Exclusion};
use crate::taxonomy::Taxonomy;
use serde::Serialize;

/// A one-way count: every allowed value of a field with its number of entries.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq)]
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

fn crosstab(tax: &Taxonomy, entries: &[&dyn Fields], row_field: &str, col_field: &str) -> CrossTab {
    let mut rows = Counter::new(tax.allowed(row_field).unwrap_or_default());
    let mut cols = Counter::new(tax.allowed(col_field).unwrap_or_default());
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

/// Computes every figure from entries and exclusion records.
pub fn compute(tax: &Taxonomy, entries: &[&Entry], exclusions: &[&Exclusion]) -> Stats {
    let records: Vec<&dyn Fields> = entries.iter().map(|e| *e as &dyn Fields).collect();
    let mut counts = Vec::new();
    for field in fields::entry_tags() {
        counts.push(tally(
            field,
            tax.allowed(field).unwrap_or_default(),
            &records,
            field,
        ));
        if field == "reward_type" {
            let mut fams: Vec<String> = tax.reward_families.iter().map(|f| f.id.clone()).collect();
            fams.push(tax.na.clone());
            let mut c = Counter::new(fams);
            for e in entries {
                c.add(
                    tax.family_of(&e.reward_type)
                        .map(|f| f.id.as_str())
                        .unwrap_or(&tax.na),
                );
            }
            counts.push(c.finish("reward_family"));
        }
    }
    let mut strict = Counter::new(tax.allowed("credit_granularity").unwrap_or_default());
    for e in entries.iter().filter(|e| e.strict_credit) {
        strict.add(&e.credit_granularity);
    }
    counts.push(strict.finish("strict_credit"));
    let crosstabs = vec![
        crosstab(tax, &records, "reward_type", "credit_granularity"),
        crosstab(tax, &records, "orchestration_form", "credit_granularity"),
        crosstab(tax, &records, "category", "verified"),
    ];
    let xrecords: Vec<&dyn Fields> = exclusions.iter().map(|x| *x as &dyn Fields).collect();
    let exclusions_t = fields::record_tags()
        .map(|f| tally(f, tax.allowed(f).unwrap_or_default(), &xrecords, f))
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
    }
}

/// Computes the figures of a loaded corpus.
pub fn of_corpus(c: &Corpus) -> Stats {
    compute(&c.taxonomy, &c.entry_list(), &c.exclusion_list())
}

impl Stats {
    /// The one-way count of an entry field (or `reward_family`, `strict_credit`).
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

    /// The JSON document with the top-level keys retained, excluded, audited, counts, crosstabs, exclusions.
    pub fn to_json(&self) -> serde_json::Value {
        let tally_map = |ts: &[Tally]| {
            ts.iter()
                .map(|t| {
                    let m: serde_json::Map<String, serde_json::Value> = t
                        .rows
                        .iter()
                        .map(|(v, n)| (v.clone(), (*n).into()))
                        .collect();
                    (t.name.clone(), serde_json::Value::Object(m))
                })
                .collect::<serde_json::Map<_, _>>()
        };
        let crosstabs: serde_json::Map<String, serde_json::Value> = self
            .crosstabs
            .iter()
            .map(|x| {
                let rows: serde_json::Map<String, serde_json::Value> = x
                    .rows
                    .iter()
                    .zip(&x.cells)
                    .map(|(r, cells)| {
                        let cols: serde_json::Map<String, serde_json::Value> = x
                            .cols
                            .iter()
                            .zip(cells)
                            .map(|(c, n)| (c.clone(), (*n).into()))
                            .collect();
                        (r.clone(), serde_json::Value::Object(cols))
                    })
                    .collect();
                (x.name.clone(), serde_json::Value::Object(rows))
            })
            .collect();
        serde_json::json!({
            "retained": self.retained,
            "excluded": self.excluded,
            "audited": self.audited,
            "counts": tally_map(&self.counts),
            "crosstabs": crosstabs,
            "exclusions": tally_map(&self.exclusions),
        })
    }

    /// Pretty JSON text with a final newline.
    pub fn json_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(&self.to_json()).unwrap_or_default();
        s.push('\n');
        s
    }

    /// All tables as `(file stem, CSV text)`: one per count, cross-tab and exclusion count.
    pub fn csv_tables(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for t in &self.counts {
            out.push((format!("count_{}", t.name), tally_csv(t)));
        }
        for t in &self.exclusions {
            out.push((format!("exclusions_{}", t.name), tally_csv(t)));
        }
        for x in &self.crosstabs {
            let mut w = csv::Writer::from_writer(Vec::new());
            let mut head = vec![format!("{}\\{}", x.row_field, x.col_field)];
            head.extend(x.cols.iter().cloned());
            let _ = w.write_record(&head);
            for (r, cells) in x.rows.iter().zip(&x.cells) {
                let mut rec = vec![r.clone()];
                rec.extend(cells.iter().map(u64::to_string));
                let _ = w.write_record(&rec);
            }
            out.push((format!("crosstab_{}", x.name), csv_text(w)));
        }
        out
    }

    /// One long-form CSV of every figure: table,row,column,n.
    pub fn csv_long(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(["table", "row", "column", "n"]);
        for (k, v) in [
            ("retained", self.retained),
            ("excluded", self.excluded),
            ("audited", self.audited),
        ] {
            let _ = w.write_record(["total", k, "", &v.to_string()]);
        }
        for (prefix, ts) in [("count", &self.counts), ("exclusions", &self.exclusions)] {
            for t in ts {
                for (v, n) in t.sorted() {
                    let _ =
                        w.write_record([&format!("{prefix}_{}", t.name), &v, "", &n.to_string()]);
                }
            }
        }
        for x in &self.crosstabs {
            for (r, cells) in x.rows.iter().zip(&x.cells) {
                for (c, n) in x.cols.iter().zip(cells) {
                    let _ = w.write_record([&format!("crosstab_{}", x.name), r, c, &n.to_string()]);
                }
            }
        }
        csv_text(w)
    }
}

fn tally_csv(t: &Tally) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([t.name.as_str(), "n"]);
    for (v, n) in t.sorted() {
        let _ = w.write_record([v, n.to_string()]);
    }
    csv_text(w)
}

fn csv_text(w: csv::Writer<Vec<u8>>) -> String {
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Renders every table with comfy-table, fitting an 80-column terminal.
pub fn text_tables(s: &Stats) -> String {
    use comfy_table::{
        presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, ContentArrangement, Table,
    };
    let mut out = format!(
        "retained {}  excluded {}  audited {}\n\n",
        s.retained, s.excluded, s.audited
    );
    let new_table = || {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        t
    };
    for (prefix, ts) in [("", &s.counts), ("exclusions: ", &s.exclusions)] {
        for tally in ts {
            let mut t = new_table();
            t.set_header(vec![format!("{prefix}{}", tally.name), "n".into()]);
            for (v, n) in tally.sorted() {
                t.add_row(vec![
                    Cell::new(v),
                    Cell::new(n).set_alignment(CellAlignment::Right),
                ]);
            }
            out.push_str(&t.to_string());
            out.push_str("\n\n");
        }
    }
    for x in &s.crosstabs {
        // Nine or more count columns fit 80 columns only without inner
        // borders and with the row labels kept whole.
        let mut t = Table::new();
        t.load_preset(comfy_table::presets::NOTHING)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        let mut head = vec![Cell::new(&x.row_field)];
        head.extend(
            x.cols
                .iter()
                .map(|c| Cell::new(c).set_alignment(CellAlignment::Right)),
        );
        t.set_header(head);
        for (r, cells) in x.rows.iter().zip(&x.cells) {
            let mut row = vec![Cell::new(r)];
            row.extend(
                cells
                    .iter()
                    .map(|n| Cell::new(n).set_alignment(CellAlignment::Right)),
            );
            t.add_row(row);
        }
        for col in t.column_iter_mut() {
            col.set_padding((1, 0));
        }
        if let Some(first) = t.column_mut(0) {
            first.set_padding((0, 0));
            first.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
        out.push_str(&format!("{} by {}\n", x.row_field, x.col_field));
        out.push_str(&t.to_string());
        out.push_str("\n\n");
    }
    out
}

/// Escapes text for a Markdown table cell.
fn md_cell(s: &str) -> String {
    crate::markdown::escape_markdown(s)
}

/// Renders every table as GitHub Markdown.
pub fn markdown_tables(s: &Stats) -> String {
    let mut out = format!(
        "| total | n |\n|---|---:|\n| retained | {} |\n| excluded | {} |\n| audited | {} |\n\n",
        s.retained, s.excluded, s.audited
    );
    for (prefix, ts) in [("", &s.counts), ("exclusions: ", &s.exclusions)] {
        for t in ts {
            out.push_str(&format!(
                "| {prefix}{} | n |\n|---|---:|\n",
                md_cell(&t.name)
            ));
            for (v, n) in t.sorted() {
                out.push_str(&format!("| {} | {n} |\n", md_cell(&v)));
            }
            out.push('\n');
        }
    }
    for x in &s.crosstabs {
        out.push_str(&crosstab_markdown(x));
        out.push('\n');
    }
    out
}

/// One cross-tab as a Markdown table.
pub fn crosstab_markdown(x: &CrossTab) -> String {
    let mut out = format!(
        "| {} \\\\ {} |",
        md_cell(&x.row_field),
        md_cell(&x.col_field)
    );
    for c in &x.cols {
        out.push_str(&format!(" {} |", md_cell(c)));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(x.cols.len()));
    out.push('\n');
    for (r, cells) in x.rows.iter().zip(&x.cells) {
        out.push_str(&format!("| {} |", md_cell(r)));
        for n in cells {
            out.push_str(&format!(" {n} |"));
        }
        out.push('\n');
    }
    out
}
