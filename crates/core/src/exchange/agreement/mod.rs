//! `corpus agreement`: how far annotators' tags agree, field by field: one
//! annotator against the corpus as observed agreement and Cohen's kappa, or
//! any number of annotators (the corpus among them unless left out) as
//! Krippendorff's alpha with a bootstrap interval ([`reliability`]).
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
//! Alpha also compares the set-valued tag fields ([`SET_FIELDS`]): a CSV cell
//! lists the tags separated by `;` (`[]` is the empty set, judged: none), a
//! YAML value is a list.
//!
//! Every problem of the input is collected before anything is computed:
//! malformed rows and unknown columns (`parse`), then unknown keys, keys
//! given twice and values outside the taxonomy (`compare`). Figures are only
//! produced from input that has none of them.

pub mod alpha;
mod compare;
mod csv;
mod kappa;
mod raters;
mod table;
#[cfg(test)]
mod tests;
mod yaml;

pub use compare::compare;
pub use kappa::Kappa;
pub use raters::{reliability, reliability_table, FieldReliability, Options, Reliability};
pub use table::table;

use crate::text::closest::closest;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Rule id: the input cannot be read as annotations (syntax, layout, a row without key).
pub const RULE_INPUT: Rule = Rule::AgreementInput;
/// Rule id: a column or YAML field names no comparable tag field.
pub const RULE_UNKNOWN_FIELD: Rule = Rule::AgreementUnknownField;
/// Rule id: an annotated key is not an entry of the corpus.
pub const RULE_UNKNOWN_KEY: Rule = Rule::AgreementUnknownKey;
/// Rule id: an annotated value is not in the taxonomy for its field.
pub const RULE_UNKNOWN_VALUE: Rule = Rule::AgreementUnknownValue;
/// Rule id: the same key is annotated more than once.
pub const RULE_DUPLICATE_KEY: Rule = Rule::AgreementDuplicateKey;

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
pub struct Agreement {
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

/// The set-valued tag fields alpha compares with the MASI distance.
pub const SET_FIELDS: [&str; 2] = [
    crate::model::fields::SUBDECISIONS,
    crate::model::fields::ADDITIONAL_CREDIT_UNITS,
];

/// How a set is written when it is empty (judged: none), as opposed to a blank (not annotated).
pub const EMPTY_SET: &str = "[]";

/// Whether a field holds a set of tags.
pub fn is_set_field(field: &str) -> bool {
    SET_FIELDS.contains(&field)
}

/// Which fields an input may annotate: the single-valued ones, and the sets too for alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    /// Single-valued tag fields only (Cohen's kappa).
    Single,
    /// Single-valued and set-valued tag fields (Krippendorff's alpha).
    WithSets,
}

impl Accept {
    fn accepts(self, field: &str) -> bool {
        is_comparable(field) || (self == Accept::WithSets && is_set_field(field))
    }
}

/// The tags of a set cell (`a; b`, `[]`); None for a blank cell (not annotated).
pub fn set_items(value: &str) -> Option<std::collections::BTreeSet<String>> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    let inner = v
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(v);
    Some(
        inner
            .split([';', ','])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect(),
    )
}

fn error(rule: Rule, file: &str, line: Option<usize>, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(rule, Severity::Error, file, msg).at_line(line)
}

/// The diagnostic for an `ann_<field>` (or YAML key) naming no comparable field.
fn unknown_field(file: &str, line: Option<usize>, name: &str, field: &str) -> Diagnostic {
    let prefix = if name.starts_with(PREFIX) { PREFIX } else { "" };
    let d = error(
        RULE_UNKNOWN_FIELD,
        file,
        line,
        if is_set_field(field) {
            format!("`{name}`: {field} is a list of tags, which Cohen's kappa does not compare")
        } else {
            format!("`{name}` names no tag field")
        },
    )
    .field(name);
    if is_set_field(field) {
        return d.help(
            "Krippendorff's alpha compares it (MASI distance): give two or more annotation files, or --alpha",
        );
    }
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
    parse_fields(file_label, text, Accept::Single)
}

/// [`parse`], accepting the set-valued fields as well when `fields` says so.
pub fn parse_fields(
    file_label: &str,
    text: &str,
    fields: Accept,
) -> Result<Vec<Annotation>, Vec<Diagnostic>> {
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
        InputFormat::Csv => csv::parse_csv(file_label, text, fields, &mut diags),
        InputFormat::Yaml => yaml::parse_yaml(file_label, text, fields, &mut diags),
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
