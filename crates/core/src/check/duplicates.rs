//! Rules across files: keys, arXiv ids, links and titles used twice, records also retained.

use super::sink::Finding;
use crate::model::facts::Facts;
use crate::model::fields;
use corpus_diagnostics::rules::Rule;
use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

/// Rules that compare files with each other, over the values the facts
/// normalized once; linear in the corpus size. Each finding goes to the
/// file it is about, `found` holding one list per file.
pub(super) fn check_across<'a>(facts: &Facts<'a>, found: &mut [Vec<Finding<'a>>]) {
    super::citation::check_cite_keys(facts, found);
    let mut keys: HashMap<&str, &str> = HashMap::new();
    let mut arxiv: HashMap<&str, &str> = HashMap::new();
    let mut urls: HashMap<&str, &str> = HashMap::new();
    let mut titles: HashMap<&str, &str> = HashMap::new();
    for f in &facts.entries {
        let (e, rel) = (f.entry, f.origin.rel);
        let out = &mut found[f.origin.file];
        if !e.key.is_empty() {
            if let Some(first) = keys.insert(&e.key, rel) {
                out.push(Finding::new(
                    Rule::DuplicateKey,
                    fields::KEY,
                    format!("key `{}` is also used by {first}", e.key),
                ));
            }
        }
        if let (Some(id), Some(a)) = (&e.arxiv_id, &f.arxiv) {
            if let Some(first) = first_seen(&mut arxiv, &a.unversioned, rel) {
                out.push(Finding::new(
                    Rule::DuplicateArxiv,
                    fields::ARXIV_ID,
                    format!("arXiv id {id} is also used by {first}"),
                ));
            }
        }
        let mut own = BTreeSet::new();
        for (i, (u, link)) in e.urls.iter().zip(&f.urls).enumerate() {
            let norm = link.normalized.as_str();
            if !own.insert(norm) {
                out.push(Finding::new(
                    Rule::DuplicateUrl,
                    format!("urls[{i}]"),
                    format!("link `{u}` is listed twice"),
                ));
                continue;
            }
            if let Some(first) = first_seen(&mut urls, norm, rel) {
                out.push(Finding::new(
                    Rule::DuplicateUrl,
                    format!("urls[{i}]"),
                    format!("link `{u}` is also used by {first}"),
                ));
            }
        }
        if !f.title.is_empty() {
            if let Some(first) = first_seen(&mut titles, &f.title, rel) {
                out.push(Finding::new(
                    Rule::DuplicateTitle,
                    fields::TITLE,
                    format!("the same title is used by {first}"),
                ));
            }
        }
    }
    let mut ids: HashMap<&str, &str> = HashMap::new();
    // The entry duplicate rules, applied among records: a record screened
    // twice would count twice in the audited total.
    let mut record_idents: HashMap<&str, &str> = HashMap::new();
    let mut record_urls: HashMap<&str, &str> = HashMap::new();
    let mut record_titles: HashMap<&str, &str> = HashMap::new();
    for f in &facts.records {
        let (x, rel) = (f.record, f.origin.rel);
        let out = &mut found[f.origin.file];
        if !x.record_id.is_empty() {
            if let Some(first) = ids.insert(&x.record_id, rel) {
                out.push(Finding::new(
                    Rule::DuplicateKey,
                    fields::RECORD_ID,
                    format!("record id `{}` is also used by {first}", x.record_id),
                ));
            }
        }
        let seen = [
            (
                Rule::DuplicateKey,
                fields::IDENTIFIER,
                f.identifier.as_str(),
                &mut record_idents,
            ),
            (
                Rule::DuplicateUrl,
                fields::URL,
                f.url.normalized.as_str(),
                &mut record_urls,
            ),
            (
                Rule::DuplicateTitle,
                fields::TITLE,
                f.title.as_str(),
                &mut record_titles,
            ),
        ];
        for (rule, field, norm, map) in seen {
            if norm.is_empty() || norm == "/" {
                continue;
            }
            if let Some(first) = first_seen(map, norm, rel) {
                out.push(
                    Finding::new(
                        rule,
                        field,
                        format!(
                            "record {}: the same {field} is used by {first}",
                            x.record_id
                        ),
                    )
                    .help("one record per screened item: delete the repeat"),
                );
            }
        }
        let hit = f
            .arxiv
            .as_ref()
            .and_then(|a| {
                arxiv
                    .get(a.unversioned.as_str())
                    .map(|r| (fields::IDENTIFIER, *r))
            })
            .or_else(|| {
                urls.get(f.url.normalized.as_str())
                    .map(|r| (fields::URL, *r))
                    .filter(|_| !x.url.is_empty())
            })
            .or_else(|| {
                titles
                    .get(f.title.as_str())
                    .map(|r| (fields::TITLE, *r))
                    .filter(|_| !x.title.is_empty())
            });
        if let Some((field, entry_file)) = hit {
            out.push(
                Finding::new(
                    Rule::ExcludedRetained,
                    field,
                    format!("record {} is also retained as {entry_file}", x.record_id),
                )
                .help("keep it in one place: delete the exclusion record or the entry"),
            );
        }
    }
}

/// The file that first used `value`, or none when this is its first use
/// (then `rel` is kept as that file): one lookup per value.
fn first_seen<'a>(
    seen: &mut HashMap<&'a str, &'a str>,
    value: &'a str,
    rel: &'a str,
) -> Option<&'a str> {
    match seen.entry(value) {
        Entry::Occupied(first) => Some(*first.get()),
        Entry::Vacant(slot) => {
            slot.insert(rel);
            None
        }
    }
}
