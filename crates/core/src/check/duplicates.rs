//! Rules across files: keys, arXiv ids, links and titles used twice, records also retained.

use super::sink::Finding;
use crate::model::corpus::Corpus;
use crate::model::facts::{EntryFacts, RecordFacts};
use crate::model::fields;
use corpus_diagnostics::rules::Rule;
use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

/// Rules that compare files with each other, over the values the facts
/// normalized once; linear in the corpus size. The items are handed over one
/// at a time, entries first, each right after its own rules; what is kept is
/// only the values later items are compared with (with the file that first
/// used each), not their facts.
pub(super) struct Across<'a> {
    /// The citation key of each entry so far, its file, and whether it
    /// was written as `cite_key`.
    cite_keys: HashMap<&'a str, (&'a str, bool)>,
    keys: HashMap<&'a str, &'a str>,
    arxiv: HashMap<String, &'a str>,
    urls: HashMap<String, &'a str>,
    titles: HashMap<String, &'a str>,
    record_ids: HashMap<&'a str, &'a str>,
    // The entry duplicate rules, applied among records: a record screened
    // twice would count twice in the audited total.
    record_idents: HashMap<String, &'a str>,
    record_urls: HashMap<String, &'a str>,
    record_titles: HashMap<String, &'a str>,
}

impl<'a> Across<'a> {
    /// Ready for the items of `corpus`: each map is made at its final size
    /// once, where growing it would hash every value again at each doubling
    /// (at 100k entries, a third of the time these rules took).
    pub(super) fn sized(corpus: &Corpus) -> Self {
        let (entries, records) = (corpus.entries.len(), corpus.exclusions.len());
        let links = corpus.entries.iter().map(|e| e.entry.urls.len()).sum();
        Across {
            cite_keys: HashMap::with_capacity(entries),
            keys: HashMap::with_capacity(entries),
            arxiv: HashMap::with_capacity(entries),
            urls: HashMap::with_capacity(links),
            titles: HashMap::with_capacity(entries),
            record_ids: HashMap::with_capacity(records),
            record_idents: HashMap::with_capacity(records),
            record_urls: HashMap::with_capacity(records),
            record_titles: HashMap::with_capacity(records),
        }
    }

    /// Compares an entry with the entries before it; its findings go to `out`.
    pub(super) fn entry(&mut self, f: EntryFacts<'a>, out: &mut Vec<Finding<'a>>) {
        super::citation::check_cite_key(&f, &mut self.cite_keys, out);
        let (e, rel) = (f.entry, f.origin.rel);
        if !e.key.is_empty() {
            if let Some(first) = self.keys.insert(&e.key, rel) {
                out.push(Finding::new(
                    Rule::DuplicateKey,
                    fields::KEY,
                    format!("key `{}` is also used by {first}", e.key),
                ));
            }
        }
        if let (Some(id), Some(a)) = (&e.arxiv_id, f.arxiv) {
            if let Some(first) = first_seen(&mut self.arxiv, a.unversioned, rel) {
                out.push(Finding::new(
                    Rule::DuplicateArxiv,
                    fields::ARXIV_ID,
                    format!("arXiv id {id} is also used by {first}"),
                ));
            }
        }
        let mut own = BTreeSet::new();
        for (i, (u, link)) in e.urls.iter().zip(f.urls).enumerate() {
            if !own.insert(link.normalized.clone()) {
                out.push(Finding::new(
                    Rule::DuplicateUrl,
                    format!("urls[{i}]"),
                    format!("link `{u}` is listed twice"),
                ));
                continue;
            }
            if let Some(first) = first_seen(&mut self.urls, link.normalized, rel) {
                out.push(Finding::new(
                    Rule::DuplicateUrl,
                    format!("urls[{i}]"),
                    format!("link `{u}` is also used by {first}"),
                ));
            }
        }
        if !f.title.is_empty() {
            if let Some(first) = first_seen(&mut self.titles, f.title, rel) {
                out.push(Finding::new(
                    Rule::DuplicateTitle,
                    fields::TITLE,
                    format!("the same title is used by {first}"),
                ));
            }
        }
    }

    /// Compares a record with the records before it and with every entry
    /// (all handed over before any record); its findings go to `out`.
    pub(super) fn record(&mut self, f: RecordFacts<'a>, out: &mut Vec<Finding<'a>>) {
        let (x, rel) = (f.record, f.origin.rel);
        if !x.record_id.is_empty() {
            if let Some(first) = self.record_ids.insert(&x.record_id, rel) {
                out.push(Finding::new(
                    Rule::DuplicateKey,
                    fields::RECORD_ID,
                    format!("record id `{}` is also used by {first}", x.record_id),
                ));
            }
        }
        let hit = f
            .arxiv
            .as_ref()
            .and_then(|a| {
                self.arxiv
                    .get(a.unversioned.as_str())
                    .map(|r| (fields::IDENTIFIER, *r))
            })
            .or_else(|| {
                self.urls
                    .get(f.url.normalized.as_str())
                    .map(|r| (fields::URL, *r))
                    .filter(|_| !x.url.is_empty())
            })
            .or_else(|| {
                self.titles
                    .get(f.title.as_str())
                    .map(|r| (fields::TITLE, *r))
                    .filter(|_| !x.title.is_empty())
            });
        let seen = [
            (
                Rule::DuplicateKey,
                fields::IDENTIFIER,
                f.identifier,
                &mut self.record_idents,
            ),
            (
                Rule::DuplicateUrl,
                fields::URL,
                f.url.normalized,
                &mut self.record_urls,
            ),
            (
                Rule::DuplicateTitle,
                fields::TITLE,
                f.title,
                &mut self.record_titles,
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
    seen: &mut HashMap<String, &'a str>,
    value: String,
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
