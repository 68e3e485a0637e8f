//! The data model: an entry of the paper pool and a record of the exclusion
//! log, and beside them the field table, filters, the calendar, the
//! taxonomy, the claims ledger, the survey's facts, the loaded corpus and the
//! canonical layout of data files.
//!
//! Field names follow the reference CSV so that import and export round-trip.

pub mod artifact_tables;
pub mod candidate;
pub mod claims;
pub mod corpus;
pub mod dates;
pub mod facts;
pub mod fields;
pub mod filter;
pub mod format;
pub mod locators;
pub mod releases;
pub mod search;
pub mod status;
pub mod survey;
pub mod taxonomy;

use crate::model::filter::{FieldValue, Fields};
use serde::Serialize;
use std::collections::BTreeMap;

/// One retained paper (corpus/papers/<key>.yaml).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Entry {
    /// Equals the file stem; lowercase letters, digits and '-'.
    pub key: String,
    /// Paper title.
    pub title: String,
    /// "Family, Given", or an organisation.
    pub first_author: String,
    /// Every author in the paper's order (`others` last when the list is
    /// cut short); empty when not given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// First author's affiliation.
    pub affiliation: String,
    /// Publication year.
    pub year: i64,
    /// arXiv identifier, when the work has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv_id: Option<String>,
    /// Venue as published (or "arXiv").
    pub venue: String,
    /// Links, most canonical first.
    pub urls: Vec<String>,
    /// The key the survey's bibliography cites the entry by; None = the entry key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cite_key: Option<String>,
    /// The year a citation prints; None = `year`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cite_year: Option<i64>,
    /// The BibTeX entry type; None = the one the venue implies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bib_type: Option<String>,
    /// Taxonomy category.
    pub category: String,
    /// yes / partial / no.
    pub is_rl: String,
    /// Reward type (rolled up into families R1–R8), or NA.
    pub reward_type: String,
    /// Credit unit, or NA.
    pub credit_granularity: String,
    /// Orchestration form, or NA.
    pub orchestration_form: String,
    /// Scenario, or NA.
    pub scenario: String,
    /// core / supporting / case.
    pub is_core: String,
    /// yes / partial / no.
    pub verified: String,
    /// When `corpus verify` last found the entry agreeing with its arXiv record (YYYY-MM-DD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv_verified_on: Option<String>,
    /// Further credit units beyond `credit_granularity`; None = not judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_credit_units: Option<Vec<String>>,
    /// Who judged `additional_credit_units`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_credit_units_source: Vec<String>,
    /// Orchestration sub-decisions the entry trains or designs; None = not judged, [] = judged: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subdecisions: Option<Vec<String>>,
    /// Who judged `subdecisions`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subdecisions_source: Vec<String>,
    /// How directly the credit reaches its unit (strict, near_strict or
    /// no: the taxonomy's `strict_credit` values); None = not judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict_credit: Option<String>,
    /// Who judged `strict_credit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict_credit_source: Option<String>,
    /// Traces of the entry's own system the corpus ships (root-relative paths).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<String>,
    /// The round that added the entry; None = the first round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_in: Option<String>,
    /// A one-sentence summary in the project's words.
    pub one_liner: String,
    /// Optional remarks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Acknowledged warnings: rule id -> reason.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub waivers: BTreeMap<String, String>,
}

/// One screened-but-excluded record (exclusions/<record_id>.yaml).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Exclusion {
    /// E001, E002, …; equals the file stem.
    pub record_id: String,
    /// Title as screened.
    pub title: String,
    /// arXiv:…, OpenReview:…, ACL:…, github:…, or an upper-case document id.
    pub identifier: String,
    /// Where the record can be read.
    pub url: String,
    /// Where it was found.
    pub source: String,
    /// Which query family found it.
    pub query_family: String,
    /// When it was screened (YYYY-MM-DD).
    pub date_screened: String,
    /// The screening stage that excluded it.
    pub stage: String,
    /// Why it was excluded, in the project's words.
    pub reason: String,
    /// The round that logged it; None = the first round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_in: Option<String>,
}

/// How a filter sees a judged tag nobody has judged (`strict_credit=not_judged`).
pub const NOT_JUDGED: &str = "not_judged";

/// The `strict_credit` value of an explicit estimator of each unit's contribution.
pub const STRICT: &str = "strict";
/// The `strict_credit` value of a trained signal aimed at the unit, short of an estimator.
pub const NEAR_STRICT: &str = "near_strict";

/// Tags the project adds beyond the reference CSV, each with the field that
/// names who judged it: (tag, source field).
pub const JUDGED_TAGS: [(&str, &str); 3] = [
    (
        fields::ADDITIONAL_CREDIT_UNITS,
        fields::ADDITIONAL_CREDIT_UNITS_SOURCE,
    ),
    (fields::SUBDECISIONS, fields::SUBDECISIONS_SOURCE),
    (fields::STRICT_CREDIT, fields::STRICT_CREDIT_SOURCE),
];

/// Where an entry is read from (a YAML file, a CSV row): each method reads
/// one field of a kind, so that [`Entry::read_from`] states once which field
/// is of which kind, and each source how such a value is read and what it
/// reports about it.
pub trait EntrySource {
    /// A field of one value; empty when it has none.
    fn value(&mut self, field: &str) -> String;
    /// A field of one value that may be left out.
    fn optional_value(&mut self, field: &str) -> Option<String>;
    /// The publication year; 0 when it has none.
    fn year(&mut self, field: &str) -> i64;
    /// A year that may be left out.
    fn optional_year(&mut self, field: &str) -> Option<i64>;
    /// The arXiv id, left out when the work has none.
    fn arxiv_id(&mut self, field: &str) -> Option<String>;
    /// A list; empty when it has none.
    fn values(&mut self, field: &str) -> Vec<String>;
    /// A judged list: None when not judged, empty when judged: none.
    fn judged_values(&mut self, field: &str) -> Option<Vec<String>>;
    /// Waivers: rule id -> reason.
    fn waivers(&mut self, field: &str) -> BTreeMap<String, String>;
}

impl Entry {
    /// Reads an entry field by field from a source.
    pub fn read_from(src: &mut impl EntrySource) -> Entry {
        // A source reports a value's problems as it reads it; the single
        // values come first so that a file's problems keep the order the
        // loader has always reported them in. Each field is read once: the
        // YAML source takes a value out as it reads it.
        Entry {
            key: src.value(fields::KEY),
            title: src.value(fields::TITLE),
            first_author: src.value(fields::FIRST_AUTHOR),
            authors: src.values(fields::AUTHORS),
            affiliation: src.value(fields::AFFILIATION),
            venue: src.value(fields::VENUE),
            category: src.value(fields::CATEGORY),
            is_rl: src.value(fields::IS_RL),
            reward_type: src.value(fields::REWARD_TYPE),
            credit_granularity: src.value(fields::CREDIT_GRANULARITY),
            orchestration_form: src.value(fields::ORCHESTRATION_FORM),
            scenario: src.value(fields::SCENARIO),
            is_core: src.value(fields::IS_CORE),
            verified: src.value(fields::VERIFIED),
            one_liner: src.value(fields::ONE_LINER),
            year: src.year(fields::YEAR),
            arxiv_id: src.arxiv_id(fields::ARXIV_ID),
            arxiv_verified_on: src.optional_value(fields::ARXIV_VERIFIED_ON),
            urls: src.values(fields::URLS),
            cite_key: src.optional_value(fields::CITE_KEY),
            cite_year: src.optional_year(fields::CITE_YEAR),
            bib_type: src.optional_value(fields::BIB_TYPE),
            additional_credit_units: src.judged_values(fields::ADDITIONAL_CREDIT_UNITS),
            additional_credit_units_source: src.values(fields::ADDITIONAL_CREDIT_UNITS_SOURCE),
            subdecisions: src.judged_values(fields::SUBDECISIONS),
            subdecisions_source: src.values(fields::SUBDECISIONS_SOURCE),
            strict_credit: src.optional_value(fields::STRICT_CREDIT),
            strict_credit_source: src.optional_value(fields::STRICT_CREDIT_SOURCE),
            traces: src.values(fields::TRACES),
            added_in: src.optional_value(fields::ADDED_IN),
            notes: src.optional_value(fields::NOTES),
            waivers: src.waivers(fields::WAIVERS),
        }
    }

    /// The entry's sub-decisions (empty when not judged).
    pub fn subdecision_list(&self) -> &[String] {
        self.subdecisions.as_deref().unwrap_or(&[])
    }

    /// Additional credit units (empty when not judged).
    pub fn additional_units(&self) -> &[String] {
        self.additional_credit_units.as_deref().unwrap_or(&[])
    }

    /// Whether a judged tag (one of JUDGED_TAGS) has been judged on this entry.
    pub fn is_judged(&self, tag: &str) -> bool {
        match tag {
            fields::ADDITIONAL_CREDIT_UNITS => self.additional_credit_units.is_some(),
            fields::SUBDECISIONS => self.subdecisions.is_some(),
            fields::STRICT_CREDIT => self.strict_credit.is_some(),
            _ => false,
        }
    }

    /// Whether the entry's credit is strict or near-strict (the spot-check's
    /// "yes", which the claim ledger splits into the two).
    pub fn strict_or_near(&self) -> bool {
        matches!(self.strict_credit.as_deref(), Some(STRICT | NEAR_STRICT))
    }

    /// The key a citation uses: the survey's cite key, else the entry key.
    pub fn citation_key(&self) -> &str {
        self.cite_key.as_deref().unwrap_or(&self.key)
    }

    /// Whether the entry assigns credit at this unit, as its primary or an additional unit.
    pub fn has_credit_unit(&self, unit: &str) -> bool {
        self.credit_granularity == unit || self.additional_units().iter().any(|u| u == unit)
    }
}

fn optional(v: &Option<String>) -> FieldValue<'_> {
    match v {
        Some(s) => FieldValue::One(s.as_str().into()),
        None => FieldValue::Many(&[]),
    }
}

impl Fields for Entry {
    fn field(&self, name: &str) -> Option<FieldValue<'_>> {
        let one = |s: &str| Some(FieldValue::One(s.to_string().into()));
        match name {
            fields::KEY => Some(FieldValue::One(self.key.as_str().into())),
            fields::TITLE => Some(FieldValue::One(self.title.as_str().into())),
            fields::FIRST_AUTHOR => Some(FieldValue::One(self.first_author.as_str().into())),
            fields::AUTHORS => Some(FieldValue::Many(&self.authors)),
            fields::AFFILIATION => Some(FieldValue::One(self.affiliation.as_str().into())),
            fields::YEAR => one(&self.year.to_string()),
            fields::ARXIV_ID => one(self.arxiv_id.as_deref().unwrap_or("")),
            fields::VENUE => Some(FieldValue::One(self.venue.as_str().into())),
            fields::URLS => Some(FieldValue::Many(&self.urls)),
            fields::CITE_KEY => Some(optional(&self.cite_key)),
            fields::CITE_YEAR => Some(match self.cite_year {
                Some(y) => FieldValue::One(y.to_string().into()),
                None => FieldValue::Many(&[]),
            }),
            fields::BIB_TYPE => Some(optional(&self.bib_type)),
            fields::CATEGORY => Some(FieldValue::One(self.category.as_str().into())),
            fields::IS_RL => Some(FieldValue::One(self.is_rl.as_str().into())),
            fields::REWARD_TYPE => Some(FieldValue::One(self.reward_type.as_str().into())),
            fields::CREDIT_GRANULARITY => {
                Some(FieldValue::One(self.credit_granularity.as_str().into()))
            }
            fields::ORCHESTRATION_FORM => {
                Some(FieldValue::One(self.orchestration_form.as_str().into()))
            }
            fields::SCENARIO => Some(FieldValue::One(self.scenario.as_str().into())),
            fields::IS_CORE => Some(FieldValue::One(self.is_core.as_str().into())),
            fields::VERIFIED => Some(FieldValue::One(self.verified.as_str().into())),
            fields::ARXIV_VERIFIED_ON => one(self.arxiv_verified_on.as_deref().unwrap_or("")),
            fields::ADDITIONAL_CREDIT_UNITS => Some(FieldValue::Many(
                self.additional_credit_units.as_deref().unwrap_or(&[]),
            )),
            fields::ADDITIONAL_CREDIT_UNITS_SOURCE => {
                Some(FieldValue::Many(&self.additional_credit_units_source))
            }
            fields::SUBDECISIONS => Some(FieldValue::Many(
                self.subdecisions.as_deref().unwrap_or(&[]),
            )),
            fields::SUBDECISIONS_SOURCE => Some(FieldValue::Many(&self.subdecisions_source)),
            fields::STRICT_CREDIT => one(self.strict_credit.as_deref().unwrap_or(NOT_JUDGED)),
            // An absent optional value holds nothing (rather than ""), so it
            // is not counted and matches no value.
            fields::STRICT_CREDIT_SOURCE => Some(optional(&self.strict_credit_source)),
            fields::TRACES => Some(FieldValue::Many(&self.traces)),
            fields::ADDED_IN => Some(optional(&self.added_in)),
            fields::ONE_LINER => Some(FieldValue::One(self.one_liner.as_str().into())),
            fields::NOTES => Some(FieldValue::One(
                self.notes.as_deref().unwrap_or_default().into(),
            )),
            _ => None,
        }
    }
}

impl Exclusion {
    /// Reads a record field by field; each of its fields holds one value.
    pub fn read_from(mut value: impl FnMut(&str) -> String) -> Exclusion {
        Exclusion {
            record_id: value(fields::RECORD_ID),
            title: value(fields::TITLE),
            identifier: value(fields::IDENTIFIER),
            url: value(fields::URL),
            source: value(fields::SOURCE),
            query_family: value(fields::QUERY_FAMILY),
            date_screened: value(fields::DATE_SCREENED),
            stage: value(fields::STAGE),
            reason: value(fields::REASON),
            added_in: Some(value(fields::ADDED_IN)).filter(|v| !v.is_empty()),
        }
    }
}

impl Fields for Exclusion {
    fn field(&self, name: &str) -> Option<FieldValue<'_>> {
        let v = match name {
            fields::RECORD_ID => &self.record_id,
            fields::TITLE => &self.title,
            fields::IDENTIFIER => &self.identifier,
            fields::URL => &self.url,
            fields::SOURCE => &self.source,
            fields::QUERY_FAMILY => &self.query_family,
            fields::DATE_SCREENED => &self.date_screened,
            fields::STAGE => &self.stage,
            fields::REASON => &self.reason,
            fields::ADDED_IN => return Some(optional(&self.added_in)),
            _ => return None,
        };
        Some(FieldValue::One(v.as_str().into()))
    }
}
