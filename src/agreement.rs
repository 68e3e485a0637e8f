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
//! ([`crate::taxonomy::TAG_FIELDS`] without `subdecisions`). An empty cell,
//! a YAML `~`, or a field left out means "not annotated": that cell is not
//! compared, so a field's `n` can be smaller than the number of rows.
//!
//! Every problem of the input is collected before anything is computed:
//! malformed rows and unknown columns (`parse`), then unknown keys, keys
//! given twice and values outside the taxonomy (`compare`). Figures are only
//! produced from input that has none of them.

use crate::check::closest;
use crate::diag::{Diagnostic, Severity};
use crate::filter::{FieldValue, Fields};
use crate::model::Entry;
use crate::taxonomy::{Taxonomy, TAG_FIELDS};
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
pub const NOTE_NO_ROWS: &str = "no row annotated this field";

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
    TAG_FIELDS.iter().copied().filter(|f| *f != "subdecisions")
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
        .help("give a CSV with a `key` column and `ann_<field>` columns, or a YAML list of mappings")]);
    }
    let mut diags = Vec::new();
    let out = match detect(file_label, text) {
        InputFormat::Csv => parse_csv(file_label, text, &mut diags),
        InputFormat::Yaml => parse_yaml(file_label, text, &mut diags),
    };
    if diags.is_empty() {
        Ok(out)
    } else {
        crate::diag::sort(&mut diags);
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
            None => format!("add a column `{PREFIX}<field>` per annotated tag field, e.g. `{PREFIX}category`"),
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
                let line = e.position().map(|p| p.line() as usize);
                diags.push(
                    error(RULE_INPUT, file, line, format!("malformed row: {e}"))
                        .help("every row needs as many cells as the header; quote cells holding commas"),
                );
                continue;
            }
        };
        let line = rec.position().map_or(0, |p| p.line() as usize);
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
    let items = ItemLines::scan(text);
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
            let where_ = key_line(&name);
            if name == "key" {
                match scalar(v).filter(|s| !s.is_empty()) {
                    Some(s) => key = Some(s),
                    None => {
                        key_reported = true;
                        diags.push(
                            error(RULE_INPUT, file, where_, "`key` must be an entry key")
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
                    || (!name.starts_with("orig_") && closest(field, comparable_fields()).is_some());
                if looks_like_tag {
                    diags.push(unknown_field(file, where_, &name, field));
                }
                continue;
            }
            if tags.iter().any(|(f, _)| f == field) {
                diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        where_,
                        format!("`{field}` is given twice in one item"),
                    )
                    .field(field)
                    .help(format!("keep either `{field}` or `{PREFIX}{field}`")),
                );
                continue;
            }
            match scalar(v) {
                Some(s) => {
                    if let Some(l) = where_ {
                        field_lines.insert(field.to_string(), l);
                    }
                    tags.push((field.to_string(), s));
                }
                None => diags.push(
                    error(
                        RULE_INPUT,
                        file,
                        where_,
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
        let line = loc.and_then(|from| second_key_line(text, from, key)).or(loc);
        return error(
            RULE_INPUT,
            file,
            line,
            format!("`{key}` is given twice in one item"),
        )
        .field(key)
        .help("keep one of them: a repeated field would silently lose an annotation");
    }
    let mut d = error(RULE_INPUT, file, None, format!("invalid YAML: {msg}"));
    if let Some(l) = e.location() {
        d = d.at(l.line(), l.column());
    }
    d
}

/// The line of the second `key:` at or after line `from` (1-based).
fn second_key_line(text: &str, from: usize, key: &str) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .filter(|(_, l)| {
            let t = l.trim_start();
            let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
            line_key(t).as_deref() == Some(key)
        })
        .nth(1)
        .map(|(i, _)| i + 1)
}

/// The key of a `key: value` line (quotes removed), if the line is one.
fn line_key(s: &str) -> Option<String> {
    let s = s.trim_end_matches('\r');
    let (key, rest) = if let Some(q) = s.strip_prefix(['"', '\'']) {
        let end = q.find(s.as_bytes()[0] as char)?;
        (&q[..end], &q[end + 1..])
    } else {
        let end = s.find(':')?;
        (s[..end].trim_end(), &s[end..])
    };
    let after = rest.trim_start().strip_prefix(':')?;
    (after.is_empty() || after.starts_with([' ', '\t'])).then(|| key.to_string())
}

/// Lines of the items of a top-level block sequence, and of their keys.
struct ItemLines {
    items: Vec<(usize, BTreeMap<String, usize>)>,
}

impl ItemLines {
    fn scan(text: &str) -> ItemLines {
        let mut items: Vec<(usize, BTreeMap<String, usize>)> = Vec::new();
        let mut indent: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
                continue;
            }
            let ind = line.len() - trimmed.len();
            let is_item = trimmed == "-" || trimmed.starts_with("- ");
            if is_item && indent.is_none_or(|x| x == ind) {
                indent = Some(ind);
                let mut keys = BTreeMap::new();
                let rest = trimmed.trim_start_matches('-').trim_start();
                if let Some(k) = line_key(rest) {
                    keys.insert(k, i + 1);
                }
                items.push((i + 1, keys));
                continue;
            }
            // Keys of the item's mapping sit two columns right of its dash.
            if let (Some(base), Some((_, keys))) = (indent, items.last_mut()) {
                if ind == base + 2 {
                    if let Some(k) = line_key(trimmed) {
                        keys.entry(k).or_insert(i + 1);
                    }
                }
            }
        }
        ItemLines { items }
    }
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
            let where_ = if *first > 0 {
                format!(" (first on line {first})")
            } else {
                String::new()
            };
            diags.push(
                error(
                    RULE_DUPLICATE_KEY,
                    file_label,
                    at,
                    format!("`{}` is annotated twice{where_}", a.key),
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
        crate::diag::sort(&mut diags);
        return Err(diags);
    }
    let fields: Vec<FieldAgreement> = comparable_fields()
        .filter(|f| annotations.iter().any(|a| a.tags.iter().any(|(t, _)| t == f)))
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
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown} is not a regular file"));
    }
    if meta.len() > max_bytes {
        return Err(format!(
            "{shown} is {} bytes, over the {max_bytes}-byte limit",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8"))?;
    Ok(text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text))
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
