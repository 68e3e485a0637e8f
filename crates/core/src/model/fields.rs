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

// Field names, each stated once: the tables below and every module that
// reads, writes or counts a field by name use these.

/// Entry field: the entry's key, equal to its file stem.
pub const KEY: &str = "key";
/// Entry and record field: the title (as published; on a record, as screened).
pub const TITLE: &str = "title";
/// Entry field: the first author.
pub const FIRST_AUTHOR: &str = "first_author";
/// Entry field: every author, in the paper's order.
pub const AUTHORS: &str = "authors";
/// Entry field: the first author's affiliation.
pub const AFFILIATION: &str = "affiliation";
/// Entry field: the publication year.
pub const YEAR: &str = "year";
/// Entry field: the arXiv id.
pub const ARXIV_ID: &str = "arxiv_id";
/// Entry field: where the work appeared.
pub const VENUE: &str = "venue";
/// Entry field: the entry's links.
pub const URLS: &str = "urls";
/// Entry field: the key the survey's bibliography cites the entry by.
pub const CITE_KEY: &str = "cite_key";
/// Entry field: the year a citation prints, when it is not `year`.
pub const CITE_YEAR: &str = "cite_year";
/// Entry field: the BibTeX entry type, when the venue does not tell it.
pub const BIB_TYPE: &str = "bib_type";
/// Entry field: the taxonomy category.
pub const CATEGORY: &str = "category";
/// Entry field: whether the work uses reinforcement learning.
pub const IS_RL: &str = "is_rl";
/// Entry field: the reward type.
pub const REWARD_TYPE: &str = "reward_type";
/// Entry field: the credit unit.
pub const CREDIT_GRANULARITY: &str = "credit_granularity";
/// Entry field: the orchestration form.
pub const ORCHESTRATION_FORM: &str = "orchestration_form";
/// Entry field: the scenario.
pub const SCENARIO: &str = "scenario";
/// Entry field: how central the work is: core, supporting or case.
pub const IS_CORE: &str = "is_core";
/// Entry field: whether the entry was checked against the paper.
pub const VERIFIED: &str = "verified";
/// Entry field: when the entry last agreed with its arXiv record.
pub const ARXIV_VERIFIED_ON: &str = "arxiv_verified_on";
/// Entry field: credit units beyond the primary one.
pub const ADDITIONAL_CREDIT_UNITS: &str = "additional_credit_units";
/// Entry field: who judged the additional credit units.
pub const ADDITIONAL_CREDIT_UNITS_SOURCE: &str = "additional_credit_units_source";
/// Entry field: the orchestration sub-decisions.
pub const SUBDECISIONS: &str = "subdecisions";
/// Entry field: who judged the sub-decisions.
pub const SUBDECISIONS_SOURCE: &str = "subdecisions_source";
/// Entry field: whether the credit is strict.
pub const STRICT_CREDIT: &str = "strict_credit";
/// Entry field: who judged the strict credit.
pub const STRICT_CREDIT_SOURCE: &str = "strict_credit_source";
/// Entry field: traces of the entry's own system the corpus ships.
pub const TRACES: &str = "traces";
/// Entry and record field: the round that added the entry or logged the record.
pub const ADDED_IN: &str = "added_in";
/// Entry field: the one-sentence summary.
pub const ONE_LINER: &str = "one_liner";
/// Entry field: optional remarks.
pub const NOTES: &str = "notes";
/// Entry field: acknowledged warnings.
pub const WAIVERS: &str = "waivers";
/// Record field: the record's id, equal to its file stem.
pub const RECORD_ID: &str = "record_id";
/// Record field: the record's identifier (arXiv:…, OpenReview:…, …).
pub const IDENTIFIER: &str = "identifier";
/// Record field: where the record can be read.
pub const URL: &str = "url";
/// Record field: where the record was found.
pub const SOURCE: &str = "source";
/// Record field: which query family found the record.
pub const QUERY_FAMILY: &str = "query_family";
/// Record field: when the record was screened.
pub const DATE_SCREENED: &str = "date_screened";
/// Record field: the screening stage that excluded the record.
pub const STAGE: &str = "stage";
/// Record field: why the record was excluded.
pub const REASON: &str = "reason";

/// The last name of an author list the source cut short (BibTeX's word
/// for the authors not listed).
pub const MORE_AUTHORS: &str = "others";

/// The entry types of standard BibTeX styles (`plain`, `ieeetr`, …).
pub const BIB_TYPES: [&str; 13] = [
    "article",
    "book",
    "booklet",
    "inbook",
    "incollection",
    "inproceedings",
    "manual",
    "mastersthesis",
    "misc",
    "phdthesis",
    "proceedings",
    "techreport",
    "unpublished",
];

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
    /// A list of free text (names).
    Names,
    /// A list of files, each a path relative to the corpus root.
    Paths,
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
use ValueKind::{Links, Names, Paths, Tags, Text, Waivers, Year};

/// Entry fields (corpus/papers/KEY.yaml), in file order.
pub const ENTRY: [Field; 32] = [
    field(
        KEY,
        true,
        Text,
        true,
        Col(KEY, 0),
        "Equals the file name without .yaml; lowercase letters, digits and '-'.",
    ),
    field(
        TITLE,
        true,
        Text,
        true,
        Col(TITLE, 1),
        "The title as published.",
    ),
    field(
        FIRST_AUTHOR,
        true,
        Text,
        true,
        Col(FIRST_AUTHOR, 2),
        "\"Family, Given\", or an organisation.",
    ),
    field(
        AUTHORS,
        false,
        Names,
        true,
        Extra,
        "Every author in the paper's order, each \"Family, Given\" or an organisation, the first equal to first_author; end with `others` only when the source lists no more.",
    ),
    field(
        AFFILIATION,
        true,
        Text,
        true,
        Col(AFFILIATION, 3),
        "The first author's affiliation.",
    ),
    field(
        YEAR,
        true,
        Year,
        true,
        Col(YEAR, 4),
        "Publication year.",
    ),
    field(
        ARXIV_ID,
        false,
        Text,
        true,
        Col(ARXIV_ID, 5),
        "arXiv id as a quoted string, e.g. \"2508.04652\"; leave out when there is none.",
    ),
    field(
        VENUE,
        true,
        Text,
        true,
        Col(VENUE, 6),
        "Where it appeared, e.g. arXiv, NeurIPS 2025, Tech Blog.",
    ),
    field(
        URLS,
        true,
        Links,
        true,
        // The reference CSV names its column of links in the singular.
        Col("url", 7),
        "Links, most canonical first (http or https).",
    ),
    field(
        CITE_KEY,
        false,
        Text,
        true,
        Extra,
        "The key the survey's bibliography cites the work by (`\\cite{...}`); `corpus export --format bibtex` uses it in place of the entry key.",
    ),
    field(
        CITE_YEAR,
        false,
        Year,
        true,
        Extra,
        "The year a citation prints when it is later than `year` (e.g. the venue's year of a paper first posted earlier); leave out otherwise.",
    ),
    field(
        BIB_TYPE,
        false,
        Text,
        true,
        Extra,
        "The BibTeX entry type (article, inproceedings, misc, ...) when the survey's bibliography gives another than the venue implies; leave out otherwise.",
    ),
    tag(CATEGORY, false, 8),
    tag(IS_RL, false, 9),
    tag(REWARD_TYPE, true, 10),
    tag(CREDIT_GRANULARITY, true, 11),
    tag(ORCHESTRATION_FORM, true, 12),
    tag(SCENARIO, true, 13),
    tag(IS_CORE, false, 14),
    tag(VERIFIED, false, 16),
    field(
        ARXIV_VERIFIED_ON,
        false,
        Text,
        true,
        Extra,
        "Written by `corpus verify --write`: the date (YYYY-MM-DD) the entry last agreed with its arXiv record.",
    ),
    field(
        ADDITIONAL_CREDIT_UNITS,
        false,
        Tags,
        true,
        Extra,
        "Credit units beyond credit_granularity a source places the entry at; leave out when not judged.",
    ),
    field(
        ADDITIONAL_CREDIT_UNITS_SOURCE,
        false,
        Tags,
        true,
        Extra,
        "Who judged additional_credit_units (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        SUBDECISIONS,
        false,
        Tags,
        true,
        Extra,
        "Orchestration sub-decisions the entry makes by a trained policy or a designed mechanism (criteria.subdecisions in corpus/taxonomy.yaml); [] = judged: none; leave out when not judged.",
    ),
    field(
        SUBDECISIONS_SOURCE,
        false,
        Tags,
        true,
        Extra,
        "Who judged subdecisions (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        STRICT_CREDIT,
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "strict, near_strict or no: how directly the credit reaches its unit (criteria.strict_credit in corpus/taxonomy.yaml); leave out when not judged.",
    ),
    field(
        STRICT_CREDIT_SOURCE,
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "Who judged strict_credit (judgement_sources in corpus/taxonomy.yaml); required with it.",
    ),
    field(
        TRACES,
        false,
        Paths,
        true,
        Extra,
        "Recorded runs of the entry's own system the corpus ships, each a path below traces/runs/ (recorded runs of surveyed systems, the trace format), traces/examples/ (the trace format) or traces/otlp/ (OTLP JSON), e.g. traces/runs/run.json; `check` compares orchestration_form and subdecisions with what they show; leave out when there is none.",
    ),
    field(
        ADDED_IN,
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "The round that added the entry (rounds in corpus/taxonomy.yaml); `corpus new` writes the open round; leave out for the first round.",
    ),
    field(
        ONE_LINER,
        true,
        Text,
        false,
        Col(ONE_LINER, 15),
        "One sentence, in your own words.",
    ),
    field(
        NOTES,
        false,
        Text,
        false,
        Col(NOTES, 17),
        "Optional remarks, in your own words.",
    ),
    field(
        WAIVERS,
        false,
        Waivers,
        false,
        Extra,
        "Acknowledged warnings: rule id -> reason.",
    ),
];

/// Exclusion record fields (exclusions/ID.yaml), in file order.
pub const RECORD: [Field; 10] = [
    field(
        RECORD_ID,
        true,
        Text,
        true,
        Col(RECORD_ID, 0),
        "E followed by digits; equals the file name without .yaml.",
    ),
    field(
        TITLE,
        true,
        Text,
        true,
        Col("screening_label", 3),
        "The title as screened.",
    ),
    field(
        IDENTIFIER,
        true,
        Text,
        true,
        Col(IDENTIFIER, 4),
        "arXiv:…, OpenReview:…, ACL:…, github:owner/repo, or an upper-case document id.",
    ),
    field(
        URL,
        true,
        Text,
        true,
        Col(URL, 5),
        "Where the record can be read (http or https).",
    ),
    tag(SOURCE, false, 1),
    tag(QUERY_FAMILY, false, 2),
    field(
        DATE_SCREENED,
        true,
        Text,
        true,
        Col(DATE_SCREENED, 6),
        "When it was screened, YYYY-MM-DD.",
    ),
    tag(STAGE, false, 7),
    field(
        REASON,
        true,
        Text,
        false,
        Col("exclusion_reason", 8),
        "Why it was excluded, in your own words.",
    ),
    field(
        ADDED_IN,
        false,
        ValueKind::Tag { na: false },
        true,
        Extra,
        "The round that logged the record (rounds in corpus/taxonomy.yaml); leave out for the first round.",
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
    [STAGE, SOURCE, QUERY_FAMILY]
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
                "authors",
                "cite_key",
                "cite_year",
                "bib_type",
                "arxiv_verified_on",
                "additional_credit_units",
                "additional_credit_units_source",
                "subdecisions",
                "subdecisions_source",
                "strict_credit",
                "strict_credit_source",
                "traces",
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
                "strict_credit",
                "strict_credit_source",
                "added_in"
            ]
        );
        assert_eq!(
            record_tags().collect::<Vec<_>>(),
            [STAGE, SOURCE, QUERY_FAMILY]
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
