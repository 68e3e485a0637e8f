//! The checks of an entry's citation fields: the author list, the survey's
//! cite key, the BibTeX entry type and the year a citation prints.

use super::sink::Sink;
use crate::model::corpus::Corpus;
use crate::model::fields::{self, BIB_TYPES, MORE_AUTHORS};
use crate::model::Entry;
use crate::text::ids::valid_cite_key;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;

/// Every citation check of one entry.
pub(super) fn check_citation(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    check_authors(sink, file, e);
    if let Some(key) = &e.cite_key {
        if !valid_cite_key(key) {
            let d = sink
                .at(
                    Rule::CiteKeyFormat,
                    file,
                    fields::CITE_KEY,
                    format!("cite key `{key}` is not one BibTeX key"),
                )
                .help("use ASCII letters, digits and - _ : . + / only, as the survey's \\cite writes it");
            sink.push(d);
        }
    }
    if let Some(kind) = &e.bib_type {
        if !BIB_TYPES.contains(&kind.as_str()) {
            let d = sink
                .at(
                    Rule::BibType,
                    file,
                    fields::BIB_TYPE,
                    format!("`{kind}` is not a BibTeX entry type"),
                )
                .help(format!("write one of {}", BIB_TYPES.join(", ")));
            sink.push(d);
        }
    }
    if let Some(y) = e.cite_year {
        if y <= e.year {
            let d = sink
                .at(
                    Rule::CiteYearOrder,
                    file,
                    fields::CITE_YEAR,
                    format!("cite_year {y} is not later than year {}", e.year),
                )
                .help("leave cite_year out when the citation prints `year`; it holds only a later year (the venue's)");
            sink.push(d);
        }
    }
}

/// The author list starts with the first author and ends, if anywhere,
/// with `others`; an entry without one is flagged, as its citation cannot
/// name all its authors.
fn check_authors(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    let Some(first) = e.authors.first() else {
        // A scaffold still missing its first author hears of that first.
        if e.first_author.is_empty() {
            return;
        }
        let d = sink
            .at(
                Rule::AuthorsMissing,
                file,
                fields::FIRST_AUTHOR,
                "the entry has no `authors` list",
            )
            .help("list every author under `authors:`, first author first; BibTeX otherwise prints the first author and \"others\"");
        sink.push(d);
        return;
    };
    if !e.first_author.is_empty() && *first != e.first_author {
        let d = sink
            .at(
                Rule::AuthorsFirstAuthor,
                file,
                "authors[0]",
                format!(
                    "the author list starts with `{first}`, not the first author `{}`",
                    e.first_author
                ),
            )
            .help("put the first author first, written as in `first_author`");
        sink.push(d);
    }
    let last = e.authors.len() - 1;
    for (i, a) in e.authors.iter().enumerate() {
        let misplaced = a == MORE_AUTHORS && (i != last || i == 0);
        if misplaced || a.trim().is_empty() {
            let what = if misplaced {
                format!("`{MORE_AUTHORS}` stands for the authors not listed: it goes last, after at least one name")
            } else {
                "an author is blank".to_string()
            };
            let d = sink
                .at(Rule::AuthorsOthers, file, &format!("authors[{i}]"), what)
                .help(format!(
                    "list the names, then `{MORE_AUTHORS}` only when the source lists no more"
                ));
            sink.push(d);
        }
    }
}

/// No two entries share a citation key (an entry without `cite_key` is
/// cited by its own key); two entries sharing their own key are
/// `duplicate-key`'s, so a clash is reported only when a `cite_key` is in it.
pub(super) fn check_cite_keys(sink: &mut Sink, corpus: &Corpus) {
    let mut seen: HashMap<&str, (&str, bool)> = HashMap::new();
    for le in &corpus.entries {
        let e = &le.entry;
        let file = corpus.file(le.file);
        let key = e.citation_key();
        if key.is_empty() {
            continue;
        }
        let own = e.cite_key.is_some();
        match seen.get(key) {
            Some(&(first, first_own)) if own || first_own => {
                let field = if own { fields::CITE_KEY } else { fields::KEY };
                let d = sink
                    .at(
                        Rule::DuplicateCiteKey,
                        file,
                        field,
                        format!("cite key `{key}` also cites {first}"),
                    )
                    .help("give each entry the key the survey cites it by; two works cannot share one");
                sink.push(d);
            }
            Some(_) => {}
            None => {
                seen.insert(key, (&file.rel, own));
            }
        }
    }
}
