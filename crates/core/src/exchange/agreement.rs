//! `corpus agreement`: how far a second annotator's tags agree with the
//! corpus, field by field, as observed agreement and Cohen's kappa.
//!
//! Two input layouts carry the same content:
//!
//! - CSV (the survey's spot-check layout): a `key` column and one
//!   `ann_<field>` column per annotated tag field. Every other column
//!   (`orig_*`, notes, …) is ignored.
//! - YAML: a list of mappings, one per annotated entry, each with `key` and
//!   tag fields written either bare (`category: rl_method`) or with the CSV
//!   prefix (`ann_category: rl_method`). `orig_*` and other keys are ignored
//!   as in CSV, except a key that looks like a misspelt tag field
//!   (`catgory`), which is an error rather than a silently lost tag.
//!
//! The fields that can be compared are the single-valued tag fields
//! ([`crate::model::taxonomy::TAG_FIELDS`] without `subdecisions`). An empty cell,
//! a YAML `~`, or a field left out means "not annotated": that cell is not
//! compared, so a field's `n` can be smaller than the number of rows.
//!
//! Every problem of the input is collected before anything is computed:
//! malformed rows and unknown columns (`parse`), then unknown keys, keys
//! given twice and values outside the taxonomy (`compare`). Figures are only
//! produced from input that has none of them.

use crate::model::filter::{FieldValue, Fields};
use crate::model::taxonomy::Taxonomy;
use crate::model::Entry;
use crate::text::closest::closest;
use crate::yaml::source::{second_key_line, ItemSpans};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use serde::Serialize;
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Rule id: the input cannot be read as annotations (syntax, layout, a row without key).
pub const RULE_INPUT: &str = "agreement-input";
/// Rule id: a column or YAML field names no comparable tag field.
pub const RULE_UNKNOWN_FIELD: &str = "agreement-unknown-field";
/// Rule id: an annotated key is not an entry of the corpus.
pub const RULE_UNKNOWN_KEY: &str = "agreement-unknown-key";
/// Rule id: an annotated value is not in the taxonomy for its field.
pub const RULE_UNKNOWN_VALUE: &str = "agreement-unknown-value";
/// Rule id: the same key is annotated more than once.
pub const RULE_DUPLICATE_KEY: &str = "agreement-duplicate-key";

/// Prefix of annotation columns in the CSV layout (optional in YAML).
pub const PREFIX: &str = "ann_";

/// Note on a field whose kappa is undefined because p_e = 1.
pub const NOTE_SINGLE_CATEGORY: &str = "undefined: both annotators used a single category";
/// Note on a field no row annotated.
pub const NOTE_NO_ROWS: &str = "no figures: no row annotated this field";

/// Agreement figures for one tag field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldAgreement {
    /// Tag field name.
    pub field: String,
    /// Rows compared (annotated cells of this field).
    pub n: usize,
    /// Rows where annotator and corpus agree.
    pub agree: usize,
    /// Observed agreement p_o = agree / n; None when n = 0.
    pub observed: Option<f64>,
    /// Expected (chance) agreement p_e; None when n = 0.
    pub expected: Option<f64>,
    /// Cohen's kappa; None when n = 0 or p_e = 1.
    pub kappa: Option<f64>,
    /// Why a figure is missing, when one is.
    pub note: Option<String>,
    /// Each row where the two disagree, in input order.
    pub disagreements: Vec<Disagreement>,
}

/// One cell where the annotator's value differs from the corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// Entry key.
    pub key: String,
    /// The corpus's value.
    pub corpus: String,
    /// The annotator's value.
    pub annotator: String,
}

/// The whole comparison: per-field figures and the pooled observed agreement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Fields annotated in the input, in taxonomy order.
    pub fields: Vec<FieldAgreement>,
    /// Annotated rows (entries) in the input.
    pub rows: usize,
    /// Agreeing cells over compared cells, all fields pooled; None when nothing was compared.
    pub overall_observed: Option<f64>,
}

/// One annotated entry as read from the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Entry key.
    pub key: String,
    /// 1-based line of the row (CSV) or list item (YAML); 0 when it could not be located.
    pub line: usize,
    /// (field, value) in input order; an empty value is a cell left blank, not compared.
    pub tags: Vec<(String, String)>,
    /// Line of each field's value where it differs from `line` (YAML block mappings).
    pub field_lines: BTreeMap<String, usize>,
}

impl Annotation {
    /// Line where a field's value can be found (the row's line when not known more precisely).
    pub fn line_of(&self, field: &str) -> Option<usize> {
        let l = self.field_lines.get(field).copied().unwrap_or(self.line);
        (l > 0).then_some(l)
    }
}

/// The tag fields an annotator can be compared on, in report order.
pub fn comparable_fields() -> impl Iterator<Item = &'static str> {
    // The reference tags: required, single-valued; the project's judged tags
    // have no second annotation to compare with.
    crate::model::fields::ENTRY
        .iter()
        .filter(|f| f.required && f.is_tag())
        .map(|f| f.name)
}

fn is_comparable(field: &str) -> bool {
    comparable_fields().any(|f| f == field)
}

fn error(rule: &str, file: &str, line: Option<usize>, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(rule, Severity::Error, file, msg).at_line(line)
}

/// The diagnostic for an `ann_<field>` (or YAML key) naming no comparable field.
fn unknown_field(file: &str, line: Option<usize>, name: &str, field: &str) -> Diagnostic {
    let prefix = if name.starts_with(PREFIX) { PREFIX } else { "" };
    let d = error(
        RULE_UNKNOWN_FIELD,
        file,
        line,
        if field == "subdecisions" {
            format!("`{name}`: subdecisions is a list of tags, which agreement does not compare")
        } else {
            format!("`{name}` names no tag field")
        },
    )
    .field(name);
    match closest(field, comparable_fields()).filter(|c| *c != field) {
        Some(c) => d.help(format!("did you mean `{prefix}{c}`?")),
        None => d.help(format!(
            "the fields compared are: {}",
            comparable_fields().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Input layout of an annotation file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// A YAML list of mappings.
    Yaml,
}

/// The layout of a file: by extension, else by its first meaningful line.
pub fn detect(file_label: &str, text: &str) -> InputFormat {
    let lower = file_label.to_ascii_lowercase();
    if lower.ends_with(".csv") {
        return InputFormat::Csv;
    }
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        return InputFormat::Yaml;
    }
    // A CSV header starts with a column name; a YAML list starts with `-`,
    // `[`, a document marker or a comment, none of which CSV has.
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        Some(l) if l.starts_with(['-', '[', '#']) => InputFormat::Yaml,
        _ => InputFormat::Csv,
    }
}

/// Parses CSV or YAML (by extension .csv / .yaml / .yml, else sniff) into annotations, or diagnostics.
pub fn parse(file_label: &str, text: &str) -> Result<Vec<Annotation>, Vec<Diagnostic>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(vec![error(
            RULE_INPUT,
            file_label,
            None,
            format!("`{file_label}` is empty"),
        )
        .help(
            "give a CSV with a `key` column and `ann_<field>` columns, or a YAML list of mappings",
        )]);
    }
    let mut diags = Vec::new();
    let out = match detect(file_label, text) {
        InputFormat::Csv => parse_csv(file_label, text, &mut diags),
        InputFormat::Yaml => parse_yaml(file_label, text, &mut diags),
    };
    if diags.is_empty() && out.is_empty() {
        // A header alone would compare nothing and print an empty table as if
        // that were a result.
        diags.push(
            error(
                RULE_INPUT,
                file_label,
                Some(1),
                format!("`{file_label}` holds no annotations: nothing to compare"),
            )
            .help("add one row per annotated entry below the header"),
        );
    } else if diags.is_empty() && out.iter().all(|a| a.tags.iter().all(|(_, v)| v.is_empty())) {
        // Rows whose every annotation cell is blank compare nothing either.
        diags.push(
            error(
                RULE_INPUT,
                file_label,
                Some(1),
                format!("every annotation cell of `{file_label}` is blank: nothing to compare"),
            )
            .help("fill in the annotations: the `ann_<field>` cells of a CSV, the tag fields of a YAML item"),
        );
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        corpus_diagnostics::diag::sort(&mut diags);
        Err(diags)
    }
}

fn parse_csv(file: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Annotation> {
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers = match rdr.headers() {
        Ok(h) => h.iter().map(|h| h.trim().to_string()).collect::<Vec<_>>(),
        Err(e) => {
            diags.push(error(
                RULE_INPUT,
                file,
                Some(1),
                format!("cannot read the header: {e}"),
            ));
            return Vec::new();
        }
    };
    let header_error = |msg: String| error(RULE_INPUT, file, Some(1), msg).field("header");
    let mut key_col = None;
    let mut ann_cols: Vec<(usize, &str)> = Vec::new();
    for (i, h) in headers.iter().enumerate() {
        if h == "key" {
            if key_col.is_some() {
                diags.push(header_error("the header names `key` twice".into()));
            }
            key_col = Some(i);
        } else if let Some(field) = h.strip_prefix(PREFIX) {
            if !is_comparable(field) {
                diags.push(unknown_field(file, Some(1), h, field));
            } else if ann_cols.iter().any(|(_, f)| *f == field) {
                diags.push(
                    header_error(format!("the header names `{h}` twice"))
                        .help("keep one column per field: which one to compare is ambiguous"),
                );
            } else {
                ann_cols.push((i, field));
            }
        }
    }
    if key_col.is_none() {
        diags.push(
            header_error("the header has no `key` column".into())
                .help("name the column of entry keys `key`"),
        );
    }
    if ann_cols.is_empty() && !headers.iter().any(|h| h.starts_with(PREFIX)) {
        let bare: Vec<&str> = headers
            .iter()
            .map(String::as_str)
            .filter(|h| is_comparable(h))
            .collect();
        let help = match bare.first() {
            Some(b) => format!("annotator columns carry the prefix: rename `{b}` to `{PREFIX}{b}`"),
            None => format!(
                "add a column `{PREFIX}<field>` per annotated tag field, e.g. `{PREFIX}category`"
            ),
        };
        diags.push(header_error("the header has no `ann_<field>` column".into()).help(help));
    }
    let Some(key_col) = key_col else {
        return Vec::new();
    };
    if !diags.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let line = e
                    .position()
                    .map(|p| corpus_diagnostics::diag::line_of_byte(text, p.byte()));
                diags.push(
                    error(RULE_INPUT, file, line, format!("malformed row: {e}")).help(
                        "every row needs as many cells as the header; quote cells holding commas",
                    ),
                );
                continue;
            }
        };
        let line = rec.position().map_or(0, |p| {
            corpus_diagnostics::diag::line_of_byte(text, p.byte())
        });
        let key = rec.get(key_col).unwrap_or("").trim();
        if key.is_empty() {
            diags.push(
                error(RULE_INPUT, file, Some(line), "row has no key")
                    .field("key")
                    .help("fill in the entry key, or remove the row"),
            );
            continue;
        }
        let tags = ann_cols
            .iter()
            .map(|(i, f)| (f.to_string(), rec.get(*i).unwrap_or("").trim().to_string()))
            .collect();
        out.push(Annotation {
            key: key.to_string(),
            line,
            tags,
            field_lines: BTreeMap::new(),
        });
    }
    out
}

/// A YAML scalar as text; None for lists and mappings.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => Some(String::new()),
        Value::Tagged(t) => scalar(&t.value),
        Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

fn parse_yaml(file: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Annotation> {
    let items = ItemSpans::scan(text);
    let value: Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            diags.push(yaml_error(file, text, &e));
            return Vec::new();
        }
    };
    let seq = match value {
        Value::Sequence(s) => s,
        _ => {
            diags.push(
                error(
                    RULE_INPUT,
                    file,
                    Some(1),
                    "expected a list of mappings, one per annotated entry",
                )
                .help("write each entry as `- key: <key>` followed by `  <field>: <value>` lines"),
            );
            return Vec::new();
        }
    };
    // Lines come from a scan of the text; when the scan and the parser do not
    // see the same number of items, no line is better than a wrong one.
    let item_lines = if items.items.len() == seq.len() {
        items.items
    } else {
        vec![(0, BTreeMap::new()); seq.len()]
    };
    let mut out = Vec::new();
    for (item, (line, keys)) in seq.iter().zip(item_lines) {
        let at = (line > 0).then_some(line);
        let key_line = |k: &str| keys.get(k).copied().or(at);
        let Value::Mapping(map) = item else {
            diags.push(error(
                RULE_INPUT,
                file,
                at,
                "each list item must be a mapping with `key` and tag fields",
            ));
            continue;
        };
        let mut key = None;
        let mut key_reported = false;
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut field_lines = BTreeMap::new();
        for (k, v) in map {
            let Some(name) = scalar(k) else {
                diags.push(error(RULE_INPUT, file, at, "field names must be text"));
                continue;
            };
            let field_line = key_line(&name);
            if name == "key" {
                match scalar(v).filter(|s| !s.is_empty()) {
                    Some(s) => key = Some(s),
                    None => {
                        key_reported = true;
                        diags.push(
                            error(RULE_INPUT, file, field_line, "`key` must be an entry key")
                                .field("key"),
                        );
                    }
                }
                continue;
            }
            let field = name.strip_prefix(PREFIX).unwrap_or(&name);
            if !is_comparable(field) {
                // Bare keys other than tag fields are ignored like extra CSV
                // columns, unless they look like a misspelt tag field.
                let looks_like_tag = field == "subdecisions"
                    || name.starts_with(PREFIX)
                    || (!name.starts_with("orig_")
                        && closest(field, comparable_fields()).is_some());
                if looks_like_tag {
                    diags.push(unknown_field(file, field_line, &name, field));
                }
                continue;
            }
            if tags.iter().any(|(f, _)| f == field) {
                diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        field_line,
                        format!("`{field}` is given twice in one item"),
                    )
                    .field(field)
                    .help(format!("keep either `{field}` or `{PREFIX}{field}`")),
                );
                continue;
            }
            match scalar(v) {
                Some(s) => {
                    if let Some(l) = field_line {
                        field_lines.insert(field.to_string(), l);
                    }
                    tags.push((field.to_string(), s));
                }
                None => diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        field_line,
                        format!("`{name}` must be a single value"),
                    )
                    .field(field),
                ),
            }
        }
        match key {
            Some(key) => out.push(Annotation {
                key,
                line,
                tags,
                field_lines,
            }),
            None if !key_reported => diags.push(
                error(RULE_INPUT, file, at, "item has no `key`")
                    .field("key")
                    .help("add `key: <entry key>` to the item"),
            ),
            None => {}
        }
    }
    out
}

/// A parser error as a diagnostic, with duplicate fields located by our own scan.
fn yaml_error(file: &str, text: &str, e: &serde_yaml::Error) -> Diagnostic {
    let msg = e.to_string();
    let loc = e.location().map(|l| l.line());
    if let Some(key) = msg
        .split("duplicate entry with key \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
    {
        // The parser points at the start of the mapping; the repeat is below it.
        let line = loc
            .and_then(|from| second_key_line(text, from, key))
            .or(loc);
        return error(
            RULE_INPUT,
            file,
            line,
            format!("`{key}` is given twice in one item"),
        )
        .field(key)
        .help("keep one of them: a repeated field would silently lose an annotation");
    }
    let x = crate::yaml::error::explain(e, text);
    x.place(error(RULE_INPUT, file, None, x.message.clone()))
}

/// Checks keys and values against the corpus and taxonomy, then computes the report.
pub fn compare(
    file_label: &str,
    annotations: &[Annotation],
    entries: &[&Entry],
    tax: &Taxonomy,
) -> Result<Report, Vec<Diagnostic>> {
    let by_key: BTreeMap<&str, &Entry> = entries.iter().map(|e| (e.key.as_str(), *e)).collect();
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
                Some(v) if is_comparable(field) => v,
                _ => {
                    diags.push(unknown_field(file_label, line, field, field));
                    continue;
                }
            };
            if value.is_empty() || allowed.contains(value) {
                continue;
            }
            let help = closest(value, allowed.iter().map(String::as_str))
                .map(|c| format!("did you mean `{c}`?"))
                .unwrap_or_else(|| format!("allowed: {}", allowed.join(", ")));
            diags.push(
                error(
                    RULE_UNKNOWN_VALUE,
                    file_label,
                    line,
                    format!("`{value}` is not a value of `{field}` in the taxonomy"),
                )
                .field(field.clone())
                .help(help),
            );
        }
    }
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
    Ok(Report {
        fields,
        rows: annotations.len(),
        overall_observed: ratio(agree, n),
    })
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

/// Cohen's kappa for two raters over the same items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kappa {
    /// Items rated by both.
    pub n: usize,
    /// Items on which they agree.
    pub agree: usize,
    /// p_o = agree / n.
    pub observed: Option<f64>,
    /// p_e = Σ_c (share of c for rater 1) × (share of c for rater 2).
    pub expected: Option<f64>,
    /// (p_o − p_e) / (1 − p_e); None when n = 0 or p_e = 1.
    pub kappa: Option<f64>,
}

impl Kappa {
    /// Computes the figures from (rater 1, rater 2) pairs.
    pub fn of<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Kappa {
        let mut counts: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        let (mut n, mut agree) = (0u64, 0u64);
        for (a, b) in pairs {
            n += 1;
            agree += u64::from(a == b);
            counts.entry(a).or_default().0 += 1;
            counts.entry(b).or_default().1 += 1;
        }
        if n == 0 {
            return Kappa {
                n: 0,
                agree: 0,
                observed: None,
                expected: None,
                kappa: None,
            };
        }
        // Kept in integers until the last division, so that p_e = 1 is
        // detected exactly and perfect agreement gives exactly 1:
        // p_e = S / n², kappa = (agree·n − S) / (n² − S).
        let s: u64 = counts.values().map(|(a, b)| a * b).sum();
        let nn = n * n;
        let kappa = (s < nn).then(|| (agree as f64 * n as f64 - s as f64) / (nn - s) as f64);
        Kappa {
            n: n as usize,
            agree: agree as usize,
            observed: Some(agree as f64 / n as f64),
            expected: Some(s as f64 / nn as f64),
            kappa,
        }
    }
}

/// Reads an annotation file as UTF-8 text; the error is a message for a run that cannot start.
pub fn read_input(path: &Path, max_bytes: u64) -> Result<String, String> {
    use corpus_io::reader::ReadError;
    let shown = path.display();
    corpus_io::reader::read_text(path, max_bytes).map_err(|e| match e {
        ReadError::NotRegular(_) => format!("{shown} is not a regular file"),
        ReadError::TooLarge { size: Some(n), max } => {
            format!("{shown} is {n} bytes, over the {max}-byte limit")
        }
        ReadError::NotUtf8 { .. } => format!("{shown} is not UTF-8"),
        e => format!("cannot read {shown}: {e}"),
    })
}

fn fmt3(x: Option<f64>) -> String {
    x.map_or_else(|| "undefined".to_string(), |v| format!("{v:.3}"))
}

/// Renders a comfy-table text table (fits 80 columns): per-field figures, notes, then each disagreement.
pub fn table(r: &Report) -> String {
    use comfy_table::{
        presets::UTF8_FULL_CONDENSED, CellAlignment, ColumnConstraint, ContentArrangement, Table,
    };
    let new_table = || {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(80);
        t
    };
    let mut t = new_table();
    t.set_header(vec!["field", "n", "agree", "observed", "expected", "kappa"]);
    for f in &r.fields {
        t.add_row(vec![
            f.field.clone(),
            f.n.to_string(),
            f.agree.to_string(),
            fmt3(f.observed),
            fmt3(f.expected),
            fmt3(f.kappa),
        ]);
    }
    for i in 1..6 {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
            c.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let (agree, n) = r
        .fields
        .iter()
        .fold((0, 0), |(a, n), f| (a + f.agree, n + f.n));
    let mut out = format!("{t}\n");
    out.push_str(&format!(
        "overall: {agree} of {n} compared cells agree ({}) over {} row(s)\n",
        fmt3(r.overall_observed),
        r.rows
    ));
    out.push_str("kappa = (observed - expected) / (1 - expected)\n");
    let notes: Vec<&FieldAgreement> = r.fields.iter().filter(|f| f.note.is_some()).collect();
    if !notes.is_empty() {
        out.push_str("\nnotes:\n");
        for f in notes {
            out.push_str(&format!(
                "  {}: {}\n",
                f.field,
                f.note.as_deref().unwrap_or("")
            ));
        }
    }
    let total: usize = r.fields.iter().map(|f| f.disagreements.len()).sum();
    if total == 0 {
        out.push_str("\nno disagreements\n");
        return out;
    }
    let mut d = new_table();
    d.set_header(vec!["field", "key", "corpus", "annotator"]);
    for f in &r.fields {
        for x in &f.disagreements {
            d.add_row(vec![
                f.field.clone(),
                x.key.clone(),
                x.corpus.clone(),
                x.annotator.clone(),
            ]);
        }
    }
    out.push_str(&format!("\ndisagreements ({total}):\n{d}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KAPPA_CSV: &str = include_str!("../../../../tests/fixtures/agreement/kappa.csv");
    const KAPPA_YAML: &str = include_str!("../../../../tests/fixtures/agreement/kappa.yaml");
    const ERRORS_CSV: &str = include_str!("../../../../tests/fixtures/agreement/errors.csv");
    const ERRORS_YAML: &str = include_str!("../../../../tests/fixtures/agreement/errors.yaml");
    const BAD_HEADER_CSV: &str =
        include_str!("../../../../tests/fixtures/agreement/bad-header.csv");
    const MALFORMED_CSV: &str = include_str!("../../../../tests/fixtures/agreement/malformed.csv");

    fn taxonomy() -> Taxonomy {
        Taxonomy::from_yaml(include_str!("../../../../corpus/taxonomy.yaml"))
            .expect("taxonomy parses")
    }

    /// The fixture corpus's tags, read from the entry files the end-to-end
    /// tests load, so that both kinds of test see the same data.
    fn entries() -> Vec<Entry> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agreement/corpus/papers");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("fixture papers")
            .map(|e| e.expect("dir entry").path())
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| {
                let v: Value = serde_yaml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                let s = |f: &str| v[f].as_str().unwrap_or_default().to_string();
                Entry {
                    key: s("key"),
                    category: s("category"),
                    is_rl: s("is_rl"),
                    reward_type: s("reward_type"),
                    credit_granularity: s("credit_granularity"),
                    orchestration_form: s("orchestration_form"),
                    scenario: s("scenario"),
                    is_core: s("is_core"),
                    verified: s("verified"),
                    ..Entry::default()
                }
            })
            .collect()
    }

    fn run(label: &str, text: &str) -> Result<Report, Vec<Diagnostic>> {
        let owned = entries();
        let refs: Vec<&Entry> = owned.iter().collect();
        let anns = parse(label, text)?;
        compare(label, &anns, &refs, &taxonomy())
    }

    fn errors(label: &str, text: &str) -> Vec<Diagnostic> {
        run(label, text).expect_err("input has problems")
    }

    fn field<'a>(r: &'a Report, name: &str) -> &'a FieldAgreement {
        r.fields
            .iter()
            .find(|f| f.field == name)
            .expect("field reported")
    }

    fn close(got: Option<f64>, want: f64) {
        let g = got.expect("a figure");
        assert!((g - want).abs() < 1e-12, "got {g}, want {want}");
    }

    fn summary(d: &[Diagnostic]) -> Vec<(String, Option<usize>, Option<String>)> {
        d.iter()
            .map(|d| (d.rule.clone(), d.line, d.field.clone()))
            .collect()
    }

    fn triple(rule: &str, line: usize, field: &str) -> (String, Option<usize>, Option<String>) {
        (rule.to_string(), Some(line), Some(field.to_string()))
    }

    #[test]
    fn two_categories_match_the_hand_computed_kappa() {
        // is_rl on the 10 fixture rows (rows: corpus, columns: annotator):
        //              yes  partial | corpus total
        //   yes         4      1    |  5
        //   partial     2      3    |  5
        //   ann total   6      4    | 10
        // p_o = (4 + 3) / 10 = 7/10
        // p_e = (5/10)(6/10) + (5/10)(4/10) = 30/100 + 20/100 = 1/2
        // kappa = (7/10 - 1/2) / (1 - 1/2) = (1/5) / (1/2) = 2/5
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let f = field(&r, "is_rl");
        assert_eq!((f.n, f.agree), (10, 7));
        close(f.observed, 7.0 / 10.0);
        close(f.expected, 1.0 / 2.0);
        close(f.kappa, 2.0 / 5.0);
        assert_eq!(f.note, None);
        let keys: Vec<(&str, &str, &str)> = f
            .disagreements
            .iter()
            .map(|d| (d.key.as_str(), d.corpus.as_str(), d.annotator.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ("echo", "yes", "partial"),
                ("foxtrot", "partial", "yes"),
                ("golf", "partial", "yes")
            ]
        );
    }

    #[test]
    fn three_categories_match_the_hand_computed_kappa() {
        // reward_type (rows: corpus, columns: annotator):
        //              shared hybrid NA | corpus total
        //   shared       3      1    0  |  4
        //   hybrid       0      2    1  |  3
        //   NA           0      0    3  |  3
        //   ann total    3      3    4  | 10
        // p_o = (3 + 2 + 3) / 10 = 8/10
        // p_e = (4·3 + 3·3 + 3·4) / 10² = 33/100
        // kappa = (80/100 - 33/100) / (1 - 33/100) = 47/67 ≈ 0.701
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let f = field(&r, "reward_type");
        assert_eq!((f.n, f.agree), (10, 8));
        close(f.observed, 8.0 / 10.0);
        close(f.expected, 33.0 / 100.0);
        close(f.kappa, 47.0 / 67.0);
        let d: Vec<&str> = f.disagreements.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(d, ["delta", "golf"]);
    }

    #[test]
    fn perfect_agreement_over_several_categories_is_kappa_one() {
        // category: rl_method 6, benchmark 2, survey 2 on both sides, all agreeing.
        // p_o = 1; p_e = (6² + 2² + 2²) / 10² = 44/100 = 11/25;
        // kappa = (1 - 11/25) / (1 - 11/25) = 1, exactly.
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let f = field(&r, "category");
        assert_eq!((f.n, f.agree), (10, 10));
        close(f.expected, 11.0 / 25.0);
        assert_eq!(f.kappa, Some(1.0));
        assert!(f.disagreements.is_empty());
    }

    #[test]
    fn one_shared_category_leaves_kappa_undefined() {
        // verified: "yes" on all 10 rows for both: p_o = 1, p_e = (10·10)/10² = 1,
        // so kappa = 0/0.
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let f = field(&r, "verified");
        assert_eq!((f.n, f.agree), (10, 10));
        assert_eq!(f.observed, Some(1.0));
        assert_eq!(f.expected, Some(1.0));
        assert_eq!(f.kappa, None);
        assert_eq!(f.note.as_deref(), Some(NOTE_SINGLE_CATEGORY));
    }

    #[test]
    fn a_field_with_only_blank_cells_has_no_figures() {
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let f = field(&r, "credit_granularity");
        assert_eq!((f.n, f.agree), (0, 0));
        assert_eq!((f.observed, f.expected, f.kappa), (None, None, None));
        assert_eq!(f.note.as_deref(), Some(NOTE_NO_ROWS));
    }

    #[test]
    fn overall_pools_every_compared_cell_in_taxonomy_order() {
        // Compared cells: category 10, is_rl 10, reward_type 10, credit 0,
        // verified 10 = 40; agreeing: 10 + 7 + 8 + 0 + 10 = 35; 35/40 = 7/8.
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        assert_eq!(r.rows, 10);
        close(r.overall_observed, 7.0 / 8.0);
        let names: Vec<&str> = r.fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            names,
            [
                "category",
                "is_rl",
                "reward_type",
                "credit_granularity",
                "verified"
            ]
        );
    }

    #[test]
    fn csv_and_yaml_give_the_same_report() {
        let csv = run("kappa.csv", KAPPA_CSV).unwrap();
        let yaml = run("kappa.yaml", KAPPA_YAML).unwrap();
        assert_eq!(csv, yaml);
    }

    #[test]
    fn kappa_edge_cases_on_raw_pairs() {
        // Two items, systematic swap: p_o = 0, p_e = (1·1 + 1·1)/2² = 1/2,
        // kappa = (0 - 1/2)/(1 - 1/2) = -1.
        let k = Kappa::of([("a", "b"), ("b", "a")]);
        assert_eq!((k.n, k.agree), (2, 0));
        assert_eq!(
            (k.observed, k.expected, k.kappa),
            (Some(0.0), Some(0.5), Some(-1.0))
        );
        // No item: no figure at all.
        let k = Kappa::of(std::iter::empty());
        assert_eq!(
            (k.n, k.observed, k.expected, k.kappa),
            (0, None, None, None)
        );
        // Each rater constant but on different categories: p_o = 0,
        // p_e = 3·0 + 0·3 = 0, kappa = 0.
        let k = Kappa::of([("a", "b"); 3]);
        assert_eq!((k.expected, k.kappa), (Some(0.0), Some(0.0)));
    }

    #[test]
    fn no_annotation_rows_are_refused_not_an_empty_table() {
        for (label, text) in [("empty.csv", "key,ann_is_rl\n"), ("empty.yaml", "[]\n")] {
            let d = run(label, text).unwrap_err();
            assert_eq!(d.len(), 1);
            assert!(d[0].message.contains("no annotations"), "{}", d[0].message);
        }
    }

    #[test]
    fn csv_unknown_keys_values_and_repeated_keys_are_all_reported() {
        let d = errors("errors.csv", ERRORS_CSV);
        // The two-line note of the first record moves the next records down one line.
        assert_eq!(
            summary(&d),
            [
                triple(RULE_UNKNOWN_KEY, 4, "key"),
                triple(RULE_UNKNOWN_VALUE, 5, "category"),
                triple(RULE_UNKNOWN_VALUE, 6, "reward_type"),
                triple(RULE_DUPLICATE_KEY, 7, "key"),
            ]
        );
        assert!(d.iter().all(|d| d.file == "errors.csv"));
        assert_eq!(d[0].help.as_deref(), Some("did you mean `alpha`?"));
        assert_eq!(d[1].help.as_deref(), Some("did you mean `rl_method`?"));
        assert_eq!(d[2].help.as_deref(), Some("did you mean `NA`?"));
        assert!(d[3].message.contains("first on line 2"), "{}", d[3].message);
    }

    #[test]
    fn yaml_problems_point_at_the_item_or_the_field_line() {
        let d = errors("errors.yaml", ERRORS_YAML);
        assert_eq!(
            summary(&d),
            [
                triple(RULE_UNKNOWN_KEY, 5, "key"),
                triple(RULE_UNKNOWN_VALUE, 8, "category"),
                triple(RULE_UNKNOWN_VALUE, 12, "reward_type"),
                triple(RULE_DUPLICATE_KEY, 13, "key"),
            ]
        );
    }

    #[test]
    fn yaml_field_lines_follow_the_item_indentation() {
        let wide = "-   key: alpha\n    is_rl: maybe\n-   key: bravo\n    category: x\n";
        let d = errors("w.yaml", wide);
        assert_eq!(
            d.iter().map(|d| d.line).collect::<Vec<_>>(),
            [Some(2), Some(4)]
        );
        let nested = "  - key: alpha\n    is_rl: maybe\n";
        assert_eq!(errors("n.yaml", nested)[0].line, Some(2));
        let flow = "- {key: alpha, is_rl: maybe}\n- {key: bravo, is_rl: no}\n";
        assert_eq!(errors("f.yaml", flow)[0].line, Some(1));
    }

    #[test]
    fn a_value_outside_the_taxonomy_lists_the_allowed_ones_when_nothing_is_close() {
        let d = errors("x.csv", "key,ann_is_rl\nalpha,maybe\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, RULE_UNKNOWN_VALUE);
        assert_eq!(d[0].help.as_deref(), Some("allowed: yes, partial, no"));
    }

    #[test]
    fn bad_csv_headers_are_all_reported_before_any_row() {
        let d = parse("bad-header.csv", BAD_HEADER_CSV).unwrap_err();
        let rules: Vec<(&str, Option<&str>)> = d
            .iter()
            .map(|d| (d.rule.as_str(), d.field.as_deref()))
            .collect();
        assert_eq!(
            rules,
            [
                (RULE_INPUT, Some("header")),
                (RULE_INPUT, Some("header")),
                (RULE_UNKNOWN_FIELD, Some("ann_catgory")),
                (RULE_UNKNOWN_FIELD, Some("ann_subdecisions")),
            ]
        );
        assert!(d.iter().all(|d| d.line == Some(1)));
        let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert!(msgs.contains(&"the header has no `key` column"));
        assert!(msgs.contains(&"the header names `ann_is_rl` twice"));
        let typo = d
            .iter()
            .find(|d| d.field.as_deref() == Some("ann_catgory"))
            .unwrap();
        assert_eq!(typo.help.as_deref(), Some("did you mean `ann_category`?"));
    }

    #[test]
    fn a_csv_without_annotator_columns_suggests_the_prefix() {
        let d = parse("bare.csv", "key,category\nalpha,rl_method\n").unwrap_err();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].message, "the header has no `ann_<field>` column");
        assert_eq!(
            d[0].help.as_deref(),
            Some("annotator columns carry the prefix: rename `category` to `ann_category`")
        );
    }

    #[test]
    fn malformed_csv_rows_and_rows_without_key_are_reported_by_line() {
        let d = parse("malformed.csv", MALFORMED_CSV).unwrap_err();
        let lines: Vec<(Option<usize>, &str)> =
            d.iter().map(|d| (d.line, d.rule.as_str())).collect();
        assert_eq!(lines, [(Some(3), RULE_INPUT), (Some(4), RULE_INPUT)]);
        assert!(
            d[0].message.starts_with("malformed row"),
            "{}",
            d[0].message
        );
        assert_eq!(d[1].message, "row has no key");
    }

    #[test]
    fn yaml_layout_problems_are_reported() {
        let not_list = parse("a.yaml", "key: alpha\ncategory: survey\n").unwrap_err();
        assert_eq!(not_list[0].rule, RULE_INPUT);
        assert!(not_list[0].message.contains("list of mappings"));

        let text = "- key: alpha\n  category: survey\n  category: benchmark\n";
        let dup = parse("a.yaml", text).unwrap_err();
        assert_eq!(summary(&dup), [triple(RULE_INPUT, 3, "category")]);

        let text = "- key: alpha\n  category: survey\n  ann_category: benchmark\n";
        let both = parse("a.yaml", text).unwrap_err();
        assert_eq!(summary(&both), [triple(RULE_INPUT, 3, "category")]);

        let text = "- key: alpha\n  is_rl: [yes, no]\n- just text\n- category: survey\n";
        let d = parse("a.yaml", text).unwrap_err();
        let got: Vec<(Option<usize>, &str)> =
            d.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (Some(2), "`is_rl` must be a single value"),
                (
                    Some(3),
                    "each list item must be a mapping with `key` and tag fields"
                ),
                (Some(4), "item has no `key`"),
            ]
        );

        let bad = parse("a.yaml", "- key: alpha\n  category: [unclosed\n").unwrap_err();
        assert!(
            bad[0].message.contains("is not closed") && !bad[0].message.contains("did not find"),
            "{}",
            bad[0].message
        );
        assert!(bad[0].line.is_some() && bad[0].help.is_some());
    }

    #[test]
    fn yaml_keys_that_look_like_misspelt_tag_fields_are_errors_others_are_ignored() {
        let text = "- key: alpha\n  catgory: survey\n  ann_bogus: x\n  subdecisions: [o1_spawn]\n  orig_category: anything\n  annotator_note: fine\n";
        let d = parse("a.yaml", text).unwrap_err();
        let got: Vec<(&str, Option<usize>, Option<&str>)> = d
            .iter()
            .map(|d| (d.rule.as_str(), d.line, d.help.as_deref()))
            .collect();
        assert_eq!(
            got[0],
            (
                RULE_UNKNOWN_FIELD,
                Some(2),
                Some("did you mean `category`?")
            )
        );
        assert_eq!(got[1].1, Some(3));
        assert_eq!(got[2].1, Some(4));
        assert_eq!(d.len(), 3);
    }

    #[test]
    fn format_is_chosen_by_extension_then_by_content() {
        assert_eq!(detect("a.CSV", "- x"), InputFormat::Csv);
        assert_eq!(detect("a.yml", "key,ann_is_rl"), InputFormat::Yaml);
        assert_eq!(detect("-", "\n- key: a\n"), InputFormat::Yaml);
        assert_eq!(detect("-", "# comment\n- key: a\n"), InputFormat::Yaml);
        assert_eq!(detect("notes.txt", "key,ann_is_rl\n"), InputFormat::Csv);
        let sniffed = run("stdin", &KAPPA_YAML.replace("# ", "#")).unwrap();
        assert_eq!(sniffed, run("kappa.csv", KAPPA_CSV).unwrap());
    }

    #[test]
    fn empty_input_and_a_byte_order_mark() {
        let d = parse("a.csv", " \n").unwrap_err();
        assert_eq!(d[0].message, "`a.csv` is empty");
        let with_bom = format!("\u{feff}{KAPPA_CSV}");
        assert_eq!(
            run("kappa.csv", &with_bom).unwrap(),
            run("kappa.csv", KAPPA_CSV).unwrap()
        );
    }

    #[test]
    fn table_shows_figures_notes_and_disagreements_within_80_columns() {
        let t = table(&run("kappa.csv", KAPPA_CSV).unwrap());
        for line in t.lines() {
            assert!(line.chars().count() <= 80, "too wide: {line}");
        }
        let row = |name: &str| {
            t.lines()
                .find(|l| l.contains(&format!(" {name} ")))
                .unwrap_or_else(|| panic!("no row for {name} in\n{t}"))
                .split(['│', '┆'])
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            row("is_rl"),
            ["is_rl", "10", "7", "0.700", "0.500", "0.400"]
        );
        assert_eq!(row("reward_type")[3..], ["0.800", "0.330", "0.701"]);
        assert_eq!(
            row("credit_granularity")[1..],
            ["0", "0", "undefined", "undefined", "undefined"]
        );
        assert_eq!(row("verified")[5], "undefined");
        assert!(t.contains("overall: 35 of 40 compared cells agree (0.875) over 10 row(s)"));
        assert!(t.contains(&format!("verified: {NOTE_SINGLE_CATEGORY}")));
        assert!(t.contains("disagreements (5):"));
        assert_eq!(row("golf").len(), 4);
        let golf: Vec<Vec<&str>> = t
            .lines()
            .filter(|l| l.contains(" golf "))
            .map(|l| {
                l.split(['│', '┆'])
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .collect()
            })
            .collect();
        assert_eq!(
            golf,
            [
                vec!["is_rl", "golf", "partial", "yes"],
                vec!["reward_type", "golf", "hybrid", "NA"]
            ]
        );
    }

    #[test]
    fn table_says_when_there_is_no_disagreement() {
        let t = table(&run("a.csv", "key,ann_category\nalpha,rl_method\n").unwrap());
        assert!(t.contains("no disagreements"), "{t}");
    }

    #[test]
    fn json_keeps_missing_figures_as_null() {
        let r = run("kappa.csv", KAPPA_CSV).unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&serde_json::to_string_pretty(&r).unwrap()).unwrap();
        let credit = &v["fields"][3];
        assert_eq!(credit["field"], "credit_granularity");
        assert!(credit["observed"].is_null() && credit["kappa"].is_null());
        assert_eq!(credit["note"], NOTE_NO_ROWS);
        assert_eq!(v["fields"][1]["kappa"], 0.4);
        assert_eq!(v["fields"][1]["disagreements"][0]["key"], "echo");
        assert_eq!(v["rows"], 10);
        assert_eq!(v["overall_observed"], 0.875);
    }

    #[test]
    fn no_prefix_of_any_fixture_makes_parse_or_compare_panic() {
        let owned = entries();
        let refs: Vec<&Entry> = owned.iter().collect();
        let tax = taxonomy();
        for (label, text) in [
            ("k.csv", KAPPA_CSV),
            ("k.yaml", KAPPA_YAML),
            ("e.csv", ERRORS_CSV),
            ("e.yaml", ERRORS_YAML),
            ("b.csv", BAD_HEADER_CSV),
            ("m.csv", MALFORMED_CSV),
        ] {
            for (i, _) in text.char_indices() {
                for l in [label, "sniffed"] {
                    if let Ok(a) = parse(l, &text[..i]) {
                        let _ = compare(l, &a, &refs, &tax).map(|r| table(&r));
                    }
                }
            }
        }
    }

    #[test]
    fn hand_built_annotations_with_a_non_comparable_field_are_refused() {
        let owned = entries();
        let refs: Vec<&Entry> = owned.iter().collect();
        let a = Annotation {
            key: "alpha".into(),
            line: 3,
            tags: vec![("subdecisions".into(), "o1_spawn".into())],
            field_lines: BTreeMap::new(),
        };
        let d = compare("x", &[a], &refs, &taxonomy()).unwrap_err();
        assert_eq!(summary(&d), [triple(RULE_UNKNOWN_FIELD, 3, "subdecisions")]);
    }
}
