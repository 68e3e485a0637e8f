//! `corpus import`: the reference CSV layout (papers.csv, excluded.csv) into
//! one YAML file per entry and per exclusion record.
//!
//! Every row is validated before anything is written; one bad row means no
//! file is written at all.

use crate::model::fields::{self, Field, ENTRY, MODELINE, RECORD};
use crate::model::{Entry, EntrySource, Exclusion};
use crate::text::ids::{key_rule, record_id_rule, valid_key, valid_record_id};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A judged list tag as one CSV cell: empty = not judged, `[]` = judged: none.
pub fn judged_list_cell(list: Option<&[String]>) -> String {
    match list {
        None => String::new(),
        Some([]) => crate::model::filter::EMPTY_LIST.to_string(),
        Some(l) => l.join(LIST_SEPARATOR),
    }
}

fn parse_judged_list(cell: &str) -> Option<Vec<String>> {
    match cell {
        "" => None,
        crate::model::filter::EMPTY_LIST => Some(Vec::new()),
        c => Some(split_list(c)),
    }
}

/// Separator of several values (URLs, sub-decisions) in one CSV cell.
pub const LIST_SEPARATOR: &str = " ; ";

fn split_list(cell: &str) -> Vec<String> {
    // Split on the spaced separator only: a bare `;` can be part of a URL.
    cell.split(LIST_SEPARATOR)
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty())
        .collect()
}

fn row_diag(file: &str, line: u64, field: &str, msg: String) -> Diagnostic {
    Diagnostic::new(Rule::CsvRow, Severity::Error, file, msg)
        .at_line(Some(line as usize))
        .field(field)
}

/// How many data rows (records after the header) CSV text holds, malformed
/// ones included: what an import summary counts its failing rows against.
pub fn data_rows(text: &str) -> usize {
    csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .count()
}

/// Column names named in one message, at most; the rest are counted.
const NAMED_COLUMNS: usize = 10;
/// Characters of one column name shown, at most.
const NAME_CHARS: usize = 40;

/// The first few names, each cut short, and how many more there are: a
/// header of 100,000 columns must still give a message one can read.
fn name_some(names: &[&str]) -> String {
    let mut shown: Vec<String> = names
        .iter()
        .take(NAMED_COLUMNS)
        .map(|n| match n.char_indices().nth(NAME_CHARS) {
            Some((i, _)) => format!("{}…", &n[..i]),
            None => (*n).to_string(),
        })
        .collect();
    if names.len() > NAMED_COLUMNS {
        shown.push(format!("and {} more", names.len() - NAMED_COLUMNS));
    }
    shown.join(", ")
}

/// Reads CSV text into rows keyed by the header, checking the header first.
fn read_rows(
    file: &str,
    text: &str,
    columns: &[&str],
    extra: &[&str],
    diags: &mut Vec<Diagnostic>,
) -> Vec<(u64, Vec<(String, String)>)> {
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers = match rdr.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            diags.push(row_diag(
                file,
                1,
                "header",
                format!("cannot read the header: {e}"),
            ));
            return Vec::new();
        }
    };
    let missing: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| !headers.iter().any(|h| h == *c))
        .collect();
    // A column import does not know would be dropped without a word.
    let unknown: Vec<&str> = headers
        .iter()
        .filter(|h| !columns.contains(h) && !extra.contains(h))
        .collect();
    if !unknown.is_empty() {
        diags.push(
            row_diag(
                file,
                1,
                "header",
                format!(
                    "unknown column(s): {}; import would drop them",
                    name_some(&unknown)
                ),
            )
            .help(format!(
                "remove them, or rename them to one of: {}",
                columns
                    .iter()
                    .chain(extra)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        );
    }
    // A column named twice: one of the two would be dropped without a word.
    // (A set, not a scan of the columns before each: a header of 100,000
    // columns must not take minutes.)
    let (mut seen, mut reported) = (BTreeSet::new(), BTreeSet::new());
    let twice: Vec<&str> = headers
        .iter()
        .filter(|h| !seen.insert(*h) && reported.insert(*h))
        .collect();
    if !twice.is_empty() {
        diags.push(
            row_diag(
                file,
                1,
                "header",
                format!(
                    "column(s) named twice: {}; import would keep only one of each",
                    name_some(&twice)
                ),
            )
            .help("keep one column of each name"),
        );
    }
    if !missing.is_empty() {
        diags.push(
            row_diag(
                file,
                1,
                "header",
                format!("missing column(s): {}", missing.join(", ")),
            )
            .help(format!("the header must name: {}", columns.join(","))),
        );
        return Vec::new();
    }
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        match rec {
            Ok(r) => {
                let line = r
                    .position()
                    .map(|p| corpus_diagnostics::diag::line_of_byte(text, p.byte()) as u64)
                    .unwrap_or(i as u64 + 2);
                let cells = headers
                    .iter()
                    .zip(r.iter())
                    // Cells are kept as written (no trimming) so that export
                    // and import round-trip exactly; only export's formula
                    // guard is undone.
                    .map(|(h, v)| {
                        (
                            h.to_string(),
                            crate::text::csv_guard::unguard(v).to_string(),
                        )
                    })
                    .collect();
                rows.push((line, cells));
            }
            Err(e) => {
                let line = e
                    .position()
                    .map(|p| corpus_diagnostics::diag::line_of_byte(text, p.byte()) as u64)
                    .unwrap_or(i as u64 + 2);
                diags.push(row_diag(file, line, "row", format!("malformed row: {e}")));
            }
        }
    }
    rows
}

/// The cell of a row holding a field (found by the field's CSV column).
fn cell<'a>(row: &'a [(String, String)], field: Option<&Field>) -> &'a str {
    let Some(column) = field.map(Field::column_name) else {
        return "";
    };
    row.iter()
        .find(|(h, _)| h == column)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

/// A papers.csv row to read an entry from. Its year and
/// waivers were parsed when the row was checked (a bad one skips the row),
/// so they are given here rather than parsed from the cells again.
struct PaperRow<'a> {
    cells: &'a [(String, String)],
    year: i64,
    cite_year: Option<i64>,
    waivers: BTreeMap<String, String>,
}

impl EntrySource for PaperRow<'_> {
    fn value(&mut self, field: &str) -> String {
        cell(self.cells, fields::entry(field)).to_string()
    }

    fn optional_value(&mut self, field: &str) -> Option<String> {
        Some(self.value(field)).filter(|v| !v.is_empty())
    }

    fn year(&mut self, _: &str) -> i64 {
        self.year
    }

    fn optional_year(&mut self, _: &str) -> Option<i64> {
        self.cite_year
    }

    fn arxiv_id(&mut self, field: &str) -> Option<String> {
        self.optional_value(field)
    }

    fn values(&mut self, field: &str) -> Vec<String> {
        split_list(&self.value(field))
    }

    fn judged_values(&mut self, field: &str) -> Option<Vec<String>> {
        parse_judged_list(&self.value(field))
    }

    fn waivers(&mut self, _: &str) -> BTreeMap<String, String> {
        std::mem::take(&mut self.waivers)
    }
}

/// Parses papers.csv text into entries, or every row problem found.
pub fn parse_papers(file: &str, text: &str) -> Result<Vec<Entry>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let rows = read_rows(
        file,
        text,
        &fields::reference_columns(&ENTRY),
        &fields::extra_columns(&ENTRY),
        &mut diags,
    );
    let mut out = Vec::new();
    let mut keys = BTreeSet::new();
    for (line, row) in rows {
        let c = |n: &str| cell(&row, fields::entry(n)).to_string();
        let key = c(fields::KEY);
        if !valid_key(&key) {
            diags.push(row_diag(
                file,
                line,
                fields::KEY,
                format!("row {line}: key `{key}` must be {}", key_rule()),
            ));
            continue;
        }
        if !keys.insert(key.clone()) {
            diags.push(row_diag(
                file,
                line,
                fields::KEY,
                format!("row {line}: key `{key}` appears twice"),
            ));
            continue;
        }
        let year = match c(fields::YEAR).parse::<i64>() {
            Ok(y) => y,
            Err(_) => {
                diags.push(row_diag(
                    file,
                    line,
                    fields::YEAR,
                    format!(
                        "row {line}: year `{}` is not a whole number",
                        c(fields::YEAR)
                    ),
                ));
                continue;
            }
        };
        let cite_year = match c(fields::CITE_YEAR) {
            cell if cell.is_empty() => None,
            cell => match cell.parse::<i64>() {
                Ok(y) => Some(y),
                Err(_) => {
                    diags.push(row_diag(
                        file,
                        line,
                        fields::CITE_YEAR,
                        format!("row {line}: cite_year `{cell}` is not a whole number"),
                    ));
                    continue;
                }
            },
        };
        for required in [
            fields::TITLE,
            fields::CATEGORY,
            fields::IS_RL,
            fields::IS_CORE,
            fields::VERIFIED,
        ] {
            if c(required).is_empty() {
                diags.push(row_diag(
                    file,
                    line,
                    required,
                    format!("row {line}: `{required}` is empty"),
                ));
            }
        }
        let mut waivers = BTreeMap::new();
        let mut bad_waiver = false;
        for w in c(fields::WAIVERS).lines().filter(|l| !l.trim().is_empty()) {
            match w.split_once(':') {
                Some((rule, why))
                    if waivers
                        .insert(rule.trim().to_string(), why.trim().to_string())
                        .is_none() => {}
                _ => {
                    diags.push(row_diag(
                        file,
                        line,
                        fields::WAIVERS,
                        format!(
                            "row {line}: waiver `{w}` is not `rule: reason`, or repeats a rule"
                        ),
                    ));
                    bad_waiver = true;
                }
            }
        }
        if bad_waiver {
            continue;
        }
        out.push(Entry::read_from(&mut PaperRow {
            cells: &row,
            year,
            cite_year,
            waivers,
        }));
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Parses excluded.csv text into records, or every row problem found.
pub fn parse_exclusions(file: &str, text: &str) -> Result<Vec<Exclusion>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let rows = read_rows(
        file,
        text,
        &fields::reference_columns(&RECORD),
        &fields::extra_columns(&RECORD),
        &mut diags,
    );
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for (line, row) in rows {
        let c = |n: &str| cell(&row, fields::record(n)).to_string();
        let id = c(fields::RECORD_ID);
        // The same format `check` holds the record to, so import never
        // writes a file (such as E1.yaml) that check then rejects.
        if !valid_record_id(&id) {
            diags.push(row_diag(
                file,
                line,
                fields::RECORD_ID,
                format!("row {line}: record_id `{id}` must be {}", record_id_rule()),
            ));
            continue;
        }
        if !ids.insert(id.clone()) {
            diags.push(row_diag(
                file,
                line,
                fields::RECORD_ID,
                format!("row {line}: record_id `{id}` appears twice"),
            ));
            continue;
        }
        out.push(Exclusion::read_from(c));
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// The YAML text of an entry file.
pub fn entry_yaml(e: &Entry) -> String {
    let body = serde_yaml::to_string(e).unwrap_or_default();
    crate::model::format::formatted_or_same(
        format!("{MODELINE}\n{body}"),
        crate::model::format::FileKind::Entry,
    )
}

/// The YAML text of an exclusion record file.
pub fn exclusion_yaml(x: &Exclusion) -> String {
    crate::model::format::formatted_or_same(
        serde_yaml::to_string(x).unwrap_or_default(),
        crate::model::format::FileKind::Record,
    )
}

/// Reads a CSV file for import, as text.
pub fn read_csv(path: &Path, max_bytes: u64) -> Result<String, String> {
    corpus_io::reader::read_text(path, max_bytes).map_err(|e| match e {
        corpus_io::reader::ReadError::NotUtf8 { .. } => format!("{} is not UTF-8", path.display()),
        e => format!("cannot read {}: {e}", path.display()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes\n";

    #[test]
    fn urls_split_and_empty_arxiv_becomes_absent() {
        let csv = format!("{HEAD}a,T,\"X, Y\",Org,2025,,Blog,https://a ; https://b,industry,no,NA,NA,NA,general,case,Sum,yes,\n");
        let e = &parse_papers("p.csv", &csv).unwrap()[0];
        assert_eq!(e.urls, ["https://a", "https://b"]);
        assert_eq!(e.arxiv_id, None);
        assert_eq!(e.notes, None);
        assert!(entry_yaml(e).contains("first_author: X, Y"));
    }

    #[test]
    fn data_rows_counts_records_after_the_header_even_malformed_ones() {
        assert_eq!(data_rows("a,b\n1,2\n\"x\ny\",3\n4\n"), 3);
        assert_eq!(data_rows("a,b\n"), 0);
    }

    #[test]
    fn bad_rows_are_reported_by_row_number() {
        let csv = format!("{HEAD}ok,T,A,O,2025,,V,https://a,survey,no,NA,NA,NA,general,core,S,yes,\nBad Key,T,A,O,20x5,,V,https://a,survey,no,NA,NA,NA,general,core,S,yes,\nb,T,A,O,20x5,,V,https://a,survey,no,NA,NA,NA,general,core,S,yes,\n");
        let errs = parse_papers("p.csv", &csv).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].line, Some(3));
        assert_eq!(errs[1].line, Some(4));
        assert_eq!(errs[1].field.as_deref(), Some("year"));
    }

    #[test]
    fn a_header_of_100000_unknown_columns_names_ten_and_counts_the_rest() {
        let extra: Vec<String> = (0..100_000).map(|i| format!("c{i}")).collect();
        let csv = format!("{},{}\n", HEAD.trim_end(), extra.join(","));
        let errs = parse_papers("p.csv", &csv).unwrap_err();
        let m = &errs[0].message;
        assert!(m.len() < 200, "{} bytes: {m}", m.len());
        assert!(
            m.contains("c0, c1,") && m.contains("c9, and 99990 more"),
            "{m}"
        );
        assert!(!m.contains("c10"), "{m}");
    }

    #[test]
    fn columns_named_twice_are_named_once_each() {
        let csv = format!("{},z,z,z,w,w\n", HEAD.trim_end());
        let errs = parse_papers("p.csv", &csv).unwrap_err();
        assert!(
            errs.iter()
                .any(|d| d.message.starts_with("column(s) named twice: z, w;")),
            "{errs:?}"
        );
    }

    #[test]
    fn a_few_unknown_columns_are_all_named_and_long_names_cut() {
        let long = "y".repeat(500);
        let csv = format!("{},x,{long}\n", HEAD.trim_end());
        let m = &parse_papers("p.csv", &csv).unwrap_err()[0].message;
        assert!(m.contains("unknown column(s): x, yyyy"), "{m}");
        assert!(
            m.contains("…;") && !m.contains("more") && m.len() < 120,
            "{m}"
        );
    }

    #[test]
    fn a_missing_column_is_one_clear_error() {
        let errs = parse_exclusions("x.csv", "record_id,source\nE001,arXiv\n").unwrap_err();
        assert!(errs[0].message.contains("screening_label"));
    }
}
