//! Where each judged value comes from (`corpus/locators.yaml`): for a value
//! taken from the survey's artifact, the file and the place in it; for this
//! project's or a contributor's reading, a one-sentence reason naming what
//! in the paper supports it; for each round, the artifact's commit that
//! added its members. A value sourced to a survey figure is located by the
//! figure itself (its file and commit in `corpus/survey.yaml`).
//! `check::locators` holds the entries to it.

use crate::layout::Layout;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use serde::{Deserialize, Serialize};

/// The judgement sources that are readings of the paper rather than places
/// in the artifact: they give a reason, not a file.
pub const READINGS: &[&str] = &["project_reading", "contributor"];

/// The locator of one judged field of one entry, for one of its sources.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Judgement {
    /// The entry's key.
    pub key: String,
    /// The judged field (`subdecisions`, `strict_credit`, `additional_credit_units`).
    pub field: String,
    /// The source the entry names for it (one of its `*_source` values).
    pub source: String,
    /// The artifact's file the value comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The place in that file: a table and row, a CSV row, a ledger row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// For a reading: one sentence naming what in the paper supports the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Where a round's members come from in the artifact's history.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoundSource {
    /// The round (an id of the taxonomy's `rounds`).
    pub round: String,
    /// The artifact's commit that added the round's members (40 hex digits).
    pub commit: String,
    /// The artifact's file that lists them.
    pub file: String,
    /// What in that commit shows them, in the project's words.
    pub place: String,
    /// Text of the notes column that marks this round's members among the
    /// rows of that commit, when another round shares the commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The whole locators file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Locators {
    /// One locator per entry, judged field and source.
    #[serde(default)]
    pub judgements: Vec<Judgement>,
    /// One per round that has members.
    #[serde(default)]
    pub rounds: Vec<RoundSource>,
}

impl Locators {
    /// The locator of `key`'s `field` for `source`.
    pub fn find(&self, key: &str, field: &str, source: &str) -> Option<&Judgement> {
        self.judgements
            .iter()
            .find(|j| j.key == key && j.field == field && j.source == source)
    }

    /// The locators by entry, field and source, for many look-ups: what
    /// [`Locators::find`] answers, without a pass over every row each time
    /// (on a large corpus, one pass per judged value was quadratic).
    pub fn index(&self) -> Index<'_> {
        let mut rows = std::collections::HashMap::with_capacity(self.judgements.len());
        for j in &self.judgements {
            // The first row wins, as with `find`.
            rows.entry((j.key.as_str(), j.field.as_str(), j.source.as_str()))
                .or_insert(j);
        }
        Index { rows }
    }
}

/// The judgements of a locators file by (key, field, source); see [`Locators::index`].
pub struct Index<'a> {
    rows: std::collections::HashMap<(&'a str, &'a str, &'a str), &'a Judgement>,
}

impl<'a> Index<'a> {
    /// The locator of `key`'s `field` for `source`.
    pub fn find(&self, key: &str, field: &str, source: &str) -> Option<&'a Judgement> {
        self.rows.get(&(key, field, source)).copied()
    }
}

/// Parses the locators file's text.
pub fn parse(text: &str) -> Result<Locators, Vec<Diagnostic>> {
    serde_yaml::from_str(text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, text);
        vec![x.place(Diagnostic::new(
            Rule::YamlSyntax,
            Severity::Error,
            Layout::LOCATORS,
            format!("the locators file cannot be read: {}", x.message),
        ))]
    })
}

/// Why a reason is not one sentence, if it is not: empty, not ending in a
/// full stop, or holding a second sentence.
pub fn reason_problem(reason: &str) -> Option<&'static str> {
    let r = reason.trim();
    if r.is_empty() {
        return Some("is empty");
    }
    if !r.ends_with('.') {
        return Some("does not end with a full stop");
    }
    let inner = &r[..r.len() - 1];
    let second = inner
        .match_indices(". ")
        .any(|(i, _)| inner[i + 2..].starts_with(|c: char| c.is_uppercase()));
    second.then_some("holds more than one sentence")
}

/// Whether `commit` is a full commit id (40 hex digits).
pub fn is_commit(commit: &str) -> bool {
    commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_one_sentence() {
        assert_eq!(reason_problem("The abstract says so."), None);
        assert_eq!(reason_problem("Uses e.g. a critic."), None);
        assert_eq!(reason_problem(""), Some("is empty"));
        assert_eq!(
            reason_problem("No stop"),
            Some("does not end with a full stop")
        );
        assert_eq!(
            reason_problem("One. Two."),
            Some("holds more than one sentence")
        );
    }

    #[test]
    fn a_commit_is_forty_hex_digits() {
        assert!(is_commit(&"a".repeat(40)));
        assert!(!is_commit("ae877ac"));
        assert!(!is_commit(&"g".repeat(40)));
    }
}
