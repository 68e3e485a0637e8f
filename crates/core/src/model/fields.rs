//! The field table: every field of an entry and of an exclusion record,
//! described once — its name, whether it is required, what kind of value it
//! holds, whether `--where` and claims may filter on it, its CSV column and
//! the sentence that tells a contributor what to write.
//!
//! The loader, the checks, the JSON Schema, the scaffold, import, export,
//! the statistics and `--where` all derive what they know of fields from here.

/// The modeline every entry file starts with (relative to corpus/papers/).
pub const MODELINE: &str = "# yaml-language-server: $schema=../entry.schema.json";

/// Earliest publication year accepted.
pub const MIN_YEAR: i64 = 1900;

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// Free text (numbers and booleans are read as their text).
    Text,
    /// A whole number (the year).
    Year,
    /// One value of the taxonomy; `na` when the NA marker is also allowed.
    Tag {
        /// Whether the taxonomy's "not applicable" marker is allowed.
        na: bool,
    },
    /// A list of taxonomy values.
    Tags,
    /// A list of links.
    Links,
    /// true or false.
    Flag,
    /// A mapping of rule id to reason.
    Waivers,
}

/// Where a field sits in the reference CSV layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// A column of the reference layout: its name and position (0-based).
    Reference(&'static str, usize),
    /// A column export adds after the reference ones (and import reads when present).
    Extra,
}

/// One field of an entry or of an exclusion record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The name as written in the YAML file.
    pub name: &'static str,
    /// Whether a file must give it a value.
    pub required: bool,
    /// What it holds.
    pub kind: ValueKind,
    /// Whether `--where` and claims may filter on it.
    pub filterable: bool,
    /// Its CSV column.
    pub column: Column,
    /// What a contributor should write (the schema's description).
    pub help: &'static str,
}

impl Field {
    /// Whether the field takes its values from the taxonomy.
    pub fn is_tag(&self) -> bool {
        matches!(self.kind, ValueKind::Tag { .. } | ValueKind::Tags)
    }

    /// The CSV column name.
    pub fn column_name(&self) -> &'static str {
        match self.column {
            Column::Reference(name, _) => name,
            Column::Extra => self.name,
        }
    }
}

const TAG_HELP: &str = "A value from corpus/taxonomy.yaml.";

const fn field(
    name: &'static str,
    required: bool,
    kind: ValueKind,
    filterable: bool,
    column: Column,
    help: &'static str,
) -> Field {
    Field {
        name,
        required,
        kind,
        filterable,
        column,
        help,
    }
}

const fn tag(name: &'static str, na: bool, position: usize) -> Field {
    field(
        name,
        true,
        ValueKind::Tag { na },
        true,
        Column::Reference(name, position),
        TAG_HELP,
    )
}

use Column::{Extra, Reference as Col};
use ValueKind::{Flag, Links, Tags, Text, Waivers, Year};

/// Entry fields (corpus/papers/KEY.yaml), in file order.
pub const ENTRY: [Field; 27] = [
    field(
        "key",
        true,
        Text,
        true,
        Col("key", 0),
        "Equals the file name without .yaml; lowercase letters, digits and '-'.",
    ),
    field(
        "title",
        true,
        Text,
        true,
        Col("title", 1),
        "The title as published.",
    ),
    field(
        "first_author",
        true,
        Text,
        true,
        Col("first_author", 2),
        "\"Family, Given\", or an organisation.",
    ),
    field(
        "affiliation",
        true,
        Text,
        true,
        Col("affiliation", 3),
        "The first author's affiliation.",
    ),
    field(
        "year",
        true,
        Year,
        true,
        Col("year", 4),
        "Publication year.",
    ),
    field(
        "arxiv_id",
        false,
        Text,
        true,
        Col("arxiv_id", 5),
        "arXiv id as a quoted string, e.g. \"2508.04652\"; leave out when there is none.",
    ),
    field(
        "venue",
        true,
        Text,
        true,
        Col("venue", 6),
        "Where it appeared, e.g. arXiv, NeurIPS 2025, Tech Blog.",
    ),
    field(
        "urls",
        true,
        Links,
        true,
        Col("url", 7),
        "Links, most canonical first (http or https).",
    ),
    tag("category", false, 8),
    tag("is_rl", false, 9),
    tag("reward_type", true, 10),
    tag("credit_granularity", true, 11),
    tag("orchestration_form", true, 12),
    tag("scenario", true, 13),
    tag("is_core", false, 14),
    tag("verified", false, 16),
    field(
        "arxiv_verified_on",
        false,
        Text,
        true,
        Extra,
        "Written by `corpus verify --write`: the date (YYYY-MM-DD) the entry last agreed with its arXiv record.",
    ),
    field(
        "additional_credit_units",
        false,
        Tags,
        true,
        Extra,
        "Credit units beyond credit_granularity a source places the entry at; leave out when not judged.",
    ),
    field(
        "additional_credit_units_source",
        false,
        Tags,
        true,
        Extra,
        "Who judged additional_credit_units (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        "subdecisions",
        false,
        Tags,
        true,
        Extra,
        "Orchestration sub-decisions the entry trains or designs; [] = judged: none; leave out when not judged.",
    ),
    field(
        "subdecisions_source",
        false,
        Tags,
        true,
        Extra,
        "Who judged subdecisions (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        "strict_credit",
        false,
        Flag,
        true,
        Extra,
        "true / false: whether the credit is strict (an explicit estimator); leave out when not judged.",
    ),
    field(
        "strict_credit_source",
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "Who judged strict_credit (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        "added_in",
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "The later screening round that added the entry (screening.additions); leave out for the main screening.",
    ),
    field(
        "one_liner",
        true,
        Text,
        false,
        Col("one_liner", 15),
        "One sentence, in your own words.",
    ),
    field(
        "notes",
        false,
        Text,
        false,
        Col("notes", 17),
        "Optional remarks, in your own words.",
    ),
    field(
        "waivers",
        false,
        Waivers,
        false,
        Extra,
        "Acknowledged warnings: rule id -> reason.",
    ),
];

/// Exclusion record fields (exclusions/ID.yaml), in file order; all required.
pub const RECORD: [Field; 9] = [
    field(
        "record_id",
        true,
        Text,
        true,
        Col("record_id", 0),
        "E followed by digits; equals the file name without .yaml.",
    ),
    field(
        "title",
        true,
        Text,
        true,
        Col("screening_label", 3),
        "The title as screened.",
    ),
    field(
        "identifier",
        true,
        Text,
        true,
        Col("identifier", 4),
        "arXiv:…, OpenReview:…, ACL:…, github:owner/repo, or an upper-case document id.",
    ),
    field(
        "url",
        true,
        Text,
        true,
        Col("url", 5),
        "Where the record can be read (http or https).",
    ),
    tag("source", false, 1),
    tag("query_family", false, 2),
    field(
        "date_screened",
        true,
        Text,
        true,
        Col("date_screened", 6),
        "When it was screened, YYYY-MM-DD.",
    ),
    tag("stage", false, 7),
    field(
        "reason",
        true,
        Text,
        false,
        Col("exclusion_reason", 8),
        "Why it was excluded, in your own words.",
    ),
];

/// The entry field with this name.
pub fn entry(name: &str) -> Option<&'static Field> {
    ENTRY.iter().find(|f| f.name == name)
}

/// The record field with this name.
pub fn record(name: &str) -> Option<&'static Field> {
    RECORD.iter().find(|f| f.name == name)
}

/// Names of fields, in table order.
pub fn names(table: &'static [Field]) -> Vec<&'static str> {
    table.iter().map(|f| f.name).collect()
}

/// Names of the required fields, in table order.
pub fn required(table: &'static [Field]) -> Vec<&'static str> {
    table
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect()
}

/// The tag fields of entries, in the order they are reported and counted.
pub fn entry_tags() -> impl Iterator<Item = &'static str> {
    ENTRY.iter().filter(|f| f.is_tag()).map(|f| f.name)
}

/// The tag fields of exclusion records, in screening-flow order (stage first).
pub fn record_tags() -> impl Iterator<Item = &'static str> {
    ["stage", "source", "query_family"]
        .into_iter()
        .filter(|n| record(n).is_some_and(Field::is_tag))
}

/// Field names a filter over entries may use.
pub fn entry_filter_fields() -> impl Iterator<Item = &'static str> {
    ENTRY.iter().filter(|f| f.filterable).map(|f| f.name)
}

/// Field names a filter over exclusion records may use.
pub fn record_filter_fields() -> impl Iterator<Item = &'static str> {
    RECORD.iter().filter(|f| f.filterable).map(|f| f.name)
}

/// Whether an entry or record field also accepts the NA marker.
pub fn allows_na(name: &str) -> bool {
    entry(name)
        .or_else(|| record(name))
        .is_some_and(|f| f.kind == ValueKind::Tag { na: true })
}

/// The reference CSV columns of a table, in layout order.
pub fn reference_columns(table: &'static [Field]) -> Vec<&'static str> {
    let mut cols: Vec<(usize, &str)> = table
        .iter()
        .filter_map(|f| match f.column {
            Column::Reference(name, at) => Some((at, name)),
            Column::Extra => None,
        })
        .collect();
    cols.sort();
    cols.into_iter().map(|(_, n)| n).collect()
}

/// The columns export adds beyond the reference layout, in table order.
pub fn extra_columns(table: &'static [Field]) -> Vec<&'static str> {
    table
        .iter()
        .filter(|f| f.column == Column::Extra)
        .map(|f| f.name)
        .collect()
}

/// The field a CSV column holds.
pub fn by_column(table: &'static [Field], column: &str) -> Option<&'static Field> {
    table.iter().find(|f| f.column_name() == column)
}

/// What a contributor should write in a field (used as the schema description).
pub fn describe(name: &str) -> &'static str {
    entry(name)
        .or_else(|| record(name))
        .map_or(TAG_HELP, |f| f.help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_layouts_come_out_in_their_order() {
        assert_eq!(
            reference_columns(&ENTRY).join(","),
            "key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes"
        );
        assert_eq!(
            reference_columns(&RECORD).join(","),
            "record_id,source,query_family,screening_label,identifier,url,date_screened,stage,exclusion_reason"
        );
        assert_eq!(
            extra_columns(&ENTRY),
            [
                "arxiv_verified_on",
                "additional_credit_units",
                "additional_credit_units_source",
                "subdecisions",
                "subdecisions_source",
                "strict_credit",
                "strict_credit_source",
                "added_in",
                "waivers"
            ]
        );
    }

    #[test]
    fn tag_and_filter_fields_derive_from_the_table() {
        assert_eq!(
            entry_tags().collect::<Vec<_>>(),
            [
                "category",
                "is_rl",
                "reward_type",
                "credit_granularity",
                "orchestration_form",
                "scenario",
                "is_core",
                "verified",
                "additional_credit_units",
                "additional_credit_units_source",
                "subdecisions",
                "subdecisions_source",
                "strict_credit_source",
                "added_in"
            ]
        );
        assert_eq!(
            record_tags().collect::<Vec<_>>(),
            ["stage", "source", "query_family"]
        );
        assert!(!entry_filter_fields().any(|f| f == "one_liner" || f == "waivers"));
        assert!(!record_filter_fields().any(|f| f == "reason"));
        assert!(allows_na("scenario") && !allows_na("category"));
        assert_eq!(
            by_column(&RECORD, "screening_label").map(|f| f.name),
            Some("title")
        );
    }
}
