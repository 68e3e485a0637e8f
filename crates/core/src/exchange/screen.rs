//! `corpus screen`: what a screening decision writes. A candidate kept
//! becomes the scaffold of an entry (the `corpus new` scaffold, filled from
//! what the candidate knows and stamped with the open round); a candidate
//! dropped becomes a record of the exclusion log with its stage and reason.

use crate::model::candidate::Candidate;
use crate::model::format::{formatted_or_same, scalar, FileKind};
use crate::model::search::Search;
use crate::model::taxonomy::Taxonomy;
use crate::network::arxiv::Record;

/// The arXiv record a candidate came from, as far as it keeps it.
fn record_of(c: &Candidate) -> Record {
    Record {
        id: c.arxiv_id.clone(),
        version: None,
        title: c.title.clone(),
        authors: c.authors.clone(),
        affiliation: c.affiliation.clone(),
        published: c.published.clone(),
        updated: c.published.clone(),
        withdrawn: false,
        comment: None,
        doi: c.doi.clone(),
        journal_ref: None,
    }
}

/// The scaffold of the entry a kept candidate becomes, under `key`.
pub fn entry_text(tax: &Taxonomy, c: &Candidate, key: &str) -> Result<String, String> {
    super::scaffold::scaffold(tax, key, Some(&c.arxiv_id), None, Some(&record_of(c)))
}

/// The stage ids of the screening log, in flow order.
pub fn stages(tax: &Taxonomy) -> Vec<String> {
    tax.values(crate::model::fields::STAGE).unwrap_or_default()
}

/// The record ids after the highest of `existing` (E033, E034, …).
pub fn next_record_ids(existing: &[String], n: usize) -> Vec<String> {
    let top = existing
        .iter()
        .filter_map(|id| id.strip_prefix('E')?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    (1..=n as u64).map(|i| format!("E{:03}", top + i)).collect()
}

/// What a dropped candidate is logged as.
pub struct Decision<'a> {
    /// The record id.
    pub record_id: &'a str,
    /// The stage that dropped it.
    pub stage: &'a str,
    /// Why, in the maintainer's words.
    pub reason: &'a str,
    /// The day of the decision, YYYY-MM-DD.
    pub date: &'a str,
}

/// The exclusion record of a dropped candidate, in the layout `corpus fmt`
/// writes; Err when the stage or the candidate's query is unknown.
pub fn record_text(
    tax: &Taxonomy,
    search: Option<&Search>,
    c: &Candidate,
    d: &Decision,
) -> Result<String, String> {
    let known = stages(tax);
    if !known.iter().any(|s| s == d.stage) {
        return Err(format!(
            "stage `{}` is not a screening stage; use one of: {}",
            d.stage,
            known.join(", ")
        ));
    }
    if d.reason.trim().is_empty() {
        return Err("a reason is required: say why the paper leaves the pool".into());
    }
    let family = search
        .and_then(|s| s.query(&c.query))
        .map(|q| q.logged_as.as_str())
        .ok_or_else(|| {
            format!(
                "{}: query `{}` is not in corpus/search.yaml, so the exclusion log's query family is unknown",
                c.key, c.query
            )
        })?;
    let mut text = String::new();
    let mut field = |name: &str, v: &str| text.push_str(&format!("{name}: {}\n", scalar(v)));
    field("record_id", d.record_id);
    field("title", &c.title);
    field("identifier", &format!("arXiv:{}", c.arxiv_id));
    field("url", &format!("https://arxiv.org/abs/{}", c.arxiv_id));
    field("source", "arXiv");
    field("query_family", family);
    field("date_screened", d.date);
    field("stage", d.stage);
    field("reason", d.reason.trim());
    if let Some(r) = tax.open_round() {
        field("added_in", &r.id);
    }
    Ok(formatted_or_same(text, FileKind::Record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_ids_continue_the_log() {
        let have = ["E001".to_string(), "E032".into(), "notes".into()];
        assert_eq!(next_record_ids(&have, 2), ["E033", "E034"]);
        assert_eq!(next_record_ids(&[], 1), ["E001"]);
    }
}
