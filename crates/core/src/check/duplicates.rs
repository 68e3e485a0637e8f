//! Rules across files: keys, arXiv ids, links and titles used twice, records also retained.

use super::sink::Sink;
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::text::ids::{normalize_title, normalize_url, strip_version};
use corpus_diagnostics::rules::Rule;
use std::collections::{BTreeSet, HashMap};

/// Rules that compare files with each other; linear in the corpus size.
pub(super) fn check_across(sink: &mut Sink, corpus: &Corpus) {
    super::citation::check_cite_keys(sink, corpus);
    let mut keys: HashMap<&str, &str> = HashMap::new();
    let mut arxiv: HashMap<String, &str> = HashMap::new();
    let mut urls: HashMap<String, &str> = HashMap::new();
    let mut titles: HashMap<String, &str> = HashMap::new();
    for le in &corpus.entries {
        let e = &le.entry;
        let file = corpus.file(le.file);
        if !e.key.is_empty() {
            if let Some(first) = keys.insert(&e.key, &file.rel) {
                let d = sink.at(
                    Rule::DuplicateKey,
                    file,
                    fields::KEY,
                    format!("key `{}` is also used by {first}", e.key),
                );
                sink.push(d);
            }
        }
        if let Some(id) = &e.arxiv_id {
            let norm = strip_version(id).to_string();
            if let Some(first) = arxiv.get(&norm) {
                let d = sink.at(
                    Rule::DuplicateArxiv,
                    file,
                    fields::ARXIV_ID,
                    format!("arXiv id {id} is also used by {first}"),
                );
                sink.push(d);
            } else {
                arxiv.insert(norm, &file.rel);
            }
        }
        let mut own = BTreeSet::new();
        for (i, u) in e.urls.iter().enumerate() {
            let norm = normalize_url(u);
            if !own.insert(norm.clone()) {
                let d = sink.at(
                    Rule::DuplicateUrl,
                    file,
                    &format!("urls[{i}]"),
                    format!("link `{u}` is listed twice"),
                );
                sink.push(d);
                continue;
            }
            if let Some(first) = urls.get(&norm) {
                let d = sink.at(
                    Rule::DuplicateUrl,
                    file,
                    &format!("urls[{i}]"),
                    format!("link `{u}` is also used by {first}"),
                );
                sink.push(d);
            } else {
                urls.insert(norm, &file.rel);
            }
        }
        let t = normalize_title(&e.title);
        if !t.is_empty() {
            if let Some(first) = titles.get(&t) {
                let d = sink.at(
                    Rule::DuplicateTitle,
                    file,
                    fields::TITLE,
                    format!("the same title is used by {first}"),
                );
                sink.push(d);
            } else {
                titles.insert(t, &file.rel);
            }
        }
    }
    let mut ids: HashMap<&str, &str> = HashMap::new();
    // The entry duplicate rules, applied among records: a record screened
    // twice would count twice in the audited total.
    let mut record_idents: HashMap<String, &str> = HashMap::new();
    let mut record_urls: HashMap<String, &str> = HashMap::new();
    let mut record_titles: HashMap<String, &str> = HashMap::new();
    for lx in &corpus.exclusions {
        let x = &lx.record;
        let file = corpus.file(lx.file);
        if !x.record_id.is_empty() {
            if let Some(first) = ids.insert(&x.record_id, &file.rel) {
                let d = sink.at(
                    Rule::DuplicateKey,
                    file,
                    fields::RECORD_ID,
                    format!("record id `{}` is also used by {first}", x.record_id),
                );
                sink.push(d);
            }
        }
        let ident = match x.identifier.strip_prefix("arXiv:") {
            Some(id) => format!("arXiv:{}", strip_version(id)),
            None => x.identifier.clone(),
        };
        let seen = [
            (
                Rule::DuplicateKey,
                fields::IDENTIFIER,
                ident,
                &mut record_idents,
            ),
            (
                Rule::DuplicateUrl,
                fields::URL,
                normalize_url(&x.url),
                &mut record_urls,
            ),
            (
                Rule::DuplicateTitle,
                fields::TITLE,
                normalize_title(&x.title),
                &mut record_titles,
            ),
        ];
        for (rule, field, norm, map) in seen {
            if norm.is_empty() || norm == "/" {
                continue;
            }
            if let Some(first) = map.get(&norm) {
                let d = sink
                    .at(
                        rule,
                        file,
                        field,
                        format!(
                            "record {}: the same {field} is used by {first}",
                            x.record_id
                        ),
                    )
                    .help("one record per screened item: delete the repeat");
                sink.push(d);
            } else {
                map.insert(norm, &file.rel);
            }
        }
        let hit = x
            .identifier
            .strip_prefix("arXiv:")
            .and_then(|id| {
                arxiv
                    .get(strip_version(id))
                    .map(|f| (fields::IDENTIFIER, *f))
            })
            .or_else(|| {
                urls.get(&normalize_url(&x.url))
                    .map(|f| (fields::URL, *f))
                    .filter(|_| !x.url.is_empty())
            })
            .or_else(|| {
                titles
                    .get(&normalize_title(&x.title))
                    .map(|f| (fields::TITLE, *f))
                    .filter(|_| !x.title.is_empty())
            });
        if let Some((field, entry_file)) = hit {
            let d = sink
                .at(
                    Rule::ExcludedRetained,
                    file,
                    field,
                    format!("record {} is also retained as {entry_file}", x.record_id),
                )
                .help("keep it in one place: delete the exclusion record or the entry");
            sink.push(d);
        }
    }
}
