//! The checks of an entry's citation fields: the author list, the survey's
//! cite key, the BibTeX entry type and the year a citation prints.

use super::sink::Finding;
use crate::model::facts::EntryFacts;
use crate::model::fields::{self, BIB_TYPES, MORE_AUTHORS};
use crate::model::Entry;
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;

/// Every citation check of one entry.
pub(super) fn check_citation(f: &EntryFacts, out: &mut Vec<Finding>) {
    let e = f.entry;
    check_authors(e, out);
    if let Some(key) = &e.cite_key {
        if !f.cite_key_valid {
            out.push(Finding::new(Rule::CiteKeyFormat, fields::CITE_KEY,
                    format!("cite key `{key}` is not one BibTeX key"),
                )
                .help("use ASCII letters, digits and - _ : . + / only, as the survey's \\cite writes it"));
        }
    }
    if let Some(kind) = &e.bib_type {
        if !BIB_TYPES.contains(&kind.as_str()) {
            out.push(
                Finding::new(
                    Rule::BibType,
                    fields::BIB_TYPE,
                    format!("`{kind}` is not a BibTeX entry type"),
                )
                .help(format!("write one of {}", BIB_TYPES.join(", "))),
            );
        }
    }
    if let Some(y) = e.cite_year {
        if y <= e.year {
            out.push(Finding::new(Rule::CiteYearOrder, fields::CITE_YEAR,
                    format!("cite_year {y} is not later than year {}", e.year),
                )
                .help("leave cite_year out when the citation prints `year`; it holds only a later year (the venue's)"));
        }
    }
}

/// The author list starts with the first author and ends, if anywhere,
/// with `others`; an entry without one is flagged, as its citation cannot
/// name all its authors.
fn check_authors(e: &Entry, out: &mut Vec<Finding>) {
    let Some(first) = e.authors.first() else {
        // A scaffold still missing its first author hears of that first.
        if e.first_author.is_empty() {
            return;
        }
        out.push(Finding::new(Rule::AuthorsMissing, fields::FIRST_AUTHOR,
                "the entry has no `authors` list",
            )
            .help("list every author under `authors:`, first author first; BibTeX otherwise prints the first author and \"others\""));

        return;
    };
    if !e.first_author.is_empty() && *first != e.first_author {
        out.push(
            Finding::new(
                Rule::AuthorsFirstAuthor,
                "authors[0]",
                format!(
                    "the author list starts with `{first}`, not the first author `{}`",
                    e.first_author
                ),
            )
            .help("put the first author first, written as in `first_author`"),
        );
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
            out.push(
                Finding::new(Rule::AuthorsOthers, format!("authors[{i}]"), what).help(format!(
                    "list the names, then `{MORE_AUTHORS}` only when the source lists no more"
                )),
            );
        }
    }
}

/// No two entries share a citation key (an entry without `cite_key` is
/// cited by its own key); two entries sharing their own key are
/// `duplicate-key`'s, so a clash is reported only when a `cite_key` is in it.
/// `seen` holds the citation key of each entry before this one.
pub(super) fn check_cite_key<'a>(
    f: &EntryFacts<'a>,
    seen: &mut HashMap<&'a str, (&'a str, bool)>,
    out: &mut Vec<Finding<'a>>,
) {
    let key = f.citation_key;
    if key.is_empty() {
        return;
    }
    let own = f.entry.cite_key.is_some();
    match seen.get(key) {
        Some(&(first, first_own)) if own || first_own => {
            let field = if own { fields::CITE_KEY } else { fields::KEY };
            out.push(
                Finding::new(
                    Rule::DuplicateCiteKey,
                    field,
                    format!("cite key `{key}` also cites {first}"),
                )
                .help("give each entry the key the survey cites it by; two works cannot share one"),
            );
        }
        Some(_) => {}
        None => {
            seen.insert(key, (f.origin.rel, own));
        }
    }
}
