//! `corpus verify`: each entry's title, first author, author list and year
//! compared with its arXiv record; every difference is a diagnostic at the
//! entry's line.
//! With `--write`, entries that agree get the date of this verification in
//! their `arxiv_verified_on` field, and no other byte of the file changes.

use crate::load::SourceFile;
use crate::model::fields;
use crate::model::Entry;
use crate::network::arxiv::{self, Record};
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::Format;
use corpus_diagnostics::rules::Rule;

/// The field `--write` sets.
pub const FIELD: &str = fields::ARXIV_VERIFIED_ON;
/// The field after which `--write` adds [`FIELD`] when the entry has none yet.
const AFTER: &str = fields::VERIFIED;

/// Options of `corpus verify`.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyOptions {
    /// Entries to verify (default: every entry with an arxiv_id).
    pub keys: Vec<String>,
    /// Output format.
    pub format: Format,
    /// Record today's date in `arxiv_verified_on` of each entry that agrees with arXiv.
    pub write: bool,
    /// The arXiv API endpoint.
    pub arxiv_api: String,
    /// Seconds between two API requests (at least 3 against the public API, as it asks).
    pub pause: f64,
    /// Timeout of one request, in seconds.
    pub timeout: f64,
}

fn diag(rule: Rule, file: &SourceFile, field: &str, msg: String) -> Diagnostic {
    let mut d = Diagnostic::new(rule, rule.default_severity(), &file.rel, msg).field(field);
    if let Some((l, c)) = file.spans().pos(field) {
        d = d.at(l, c);
    }
    d
}

/// An `arxiv-not-found` diagnostic at the entry's `arxiv_id`.
pub fn not_found(file: &SourceFile, msg: String) -> Diagnostic {
    diag(Rule::ArxivNotFound, file, fields::ARXIV_ID, msg)
}

/// The family name of a "Family, Given" author (or the whole name).
fn family(name: &str) -> &str {
    name.split_once(',').map(|(f, _)| f).unwrap_or(name).trim()
}

/// Whether the entry's first author is arXiv's first author: every word of
/// the family name appears in arXiv's name, ignoring case and punctuation.
pub fn same_author(entry_author: &str, arxiv_author: &str) -> bool {
    let theirs = crate::text::ids::normalize_title(arxiv_author);
    let theirs: Vec<&str> = theirs.split(' ').collect();
    let ours = crate::text::ids::normalize_title(family(entry_author));
    !ours.is_empty() && ours.split(' ').all(|w| theirs.contains(&w))
}

/// The cross-check of an entry's author list with arXiv's: each listed
/// name (by family name) among arXiv's authors in the same order, and as
/// many names as arXiv lists, or fewer when the list ends in `others`. A
/// warning, since a list can follow another version of the paper.
fn authors_differ(file: &SourceFile, e: &Entry, r: &Record) -> Option<Diagnostic> {
    // Another first author is `arxiv-author-mismatch`'s to report.
    let first_agrees = r
        .authors
        .first()
        .is_some_and(|f| same_author(&e.first_author, f));
    if e.authors.is_empty() || !first_agrees {
        return None;
    }
    let cut = e.authors.last().is_some_and(|a| a == fields::MORE_AUTHORS);
    let named = &e.authors[..e.authors.len() - usize::from(cut)];
    let mut theirs = r.authors.iter();
    let missing = named.iter().find(|a| !theirs.any(|t| same_author(a, t)));
    let count_fits = if cut {
        named.len() < r.authors.len()
    } else {
        named.len() == r.authors.len()
    };
    let id = &r.id;
    let why = match missing {
        Some(a) => format!("`{a}` is not among arXiv {id}'s authors in this order"),
        None if !count_fits => format!(
            "the list names {}{} authors; arXiv {id} lists {}",
            named.len(),
            if cut { " and others as" } else { "" },
            r.authors.len()
        ),
        None => return None,
    };
    let listed: Vec<String> = r.authors.iter().map(|a| arxiv::family_first(a)).collect();
    Some(
        diag(Rule::ArxivAuthorsMismatch, file, fields::AUTHORS, why)
            .help(format!("arXiv lists: {}", listed.join("; "))),
    )
}

/// Compares one entry with its arXiv record.
pub fn compare(file: &SourceFile, e: &Entry, r: &Record) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let id = &r.id;
    if r.withdrawn {
        out.push(
            diag(
                Rule::ArxivWithdrawn,
                file,
                fields::ARXIV_ID,
                format!("arXiv {id} has been withdrawn"),
            )
            .help(
                "check whether the work still belongs in the corpus, or link a published version",
            ),
        );
    }
    if crate::text::ids::normalize_title(&e.title) != crate::text::ids::normalize_title(&r.title) {
        out.push(
            diag(
                Rule::ArxivTitleMismatch,
                file,
                fields::TITLE,
                format!("title differs from arXiv {id}, which has \"{}\"", r.title),
            )
            .help("if the paper was renamed, copy arXiv's title"),
        );
    }
    match r.authors.first() {
        Some(first) if !same_author(&e.first_author, first) => out.push(
            diag(
                Rule::ArxivAuthorMismatch,
                file,
                fields::FIRST_AUTHOR,
                format!("first author differs from arXiv {id}, which lists {first} first"),
            )
            .help(format!(
                "write `first_author: {}`",
                arxiv::family_first(first)
            )),
        ),
        None => out.push(diag(
            Rule::ArxivAuthorMismatch,
            file,
            fields::FIRST_AUTHOR,
            format!("arXiv {id} lists no author"),
        )),
        _ => {}
    }
    if let Some(d) = authors_differ(file, e, r) {
        out.push(d);
    }
    if let Some(v1) = r.year() {
        let preprint = e.venue.eq_ignore_ascii_case("arxiv");
        let fits = if preprint {
            e.year == v1
        } else {
            (v1..=v1 + 2).contains(&e.year)
        };
        if !fits {
            let expected = if preprint {
                format!("an arXiv preprint carries the year of its first version, {v1}")
            } else {
                format!("a paper published at {} is expected within two years of its first arXiv version ({v1})", e.venue)
            };
            out.push(
                diag(
                    Rule::ArxivYearMismatch,
                    file,
                    fields::YEAR,
                    format!(
                        "year {} does not fit arXiv {id}, first posted {}: {expected}",
                        e.year, r.published
                    ),
                )
                .help(format!(
                    "write `year: {v1}`, or the year of the published version"
                )),
            );
        }
    }
    out
}

/// The text of an entry file with `arxiv_verified_on` set to `date`: the
/// field's own line replaced, or a new line added after `verified`; every
/// other line is kept byte for byte.
pub fn with_date(text: &str, date: &str) -> String {
    let line = format!("{FIELD}: \"{date}\"");
    let prefix = format!("{FIELD}:");
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if let Some(i) = lines.iter().position(|l| l.starts_with(&prefix)) {
        let ending = if lines[i].ends_with('\n') { nl } else { "" };
        let replaced = format!("{line}{ending}");
        let mut out: String = lines[..i].concat();
        out.push_str(&replaced);
        out.push_str(&lines[i + 1..].concat());
        return out;
    }
    let after = format!("{AFTER}:");
    let at = lines
        .iter()
        .position(|l| l.starts_with(&after))
        .map(|i| i + 1)
        .unwrap_or(lines.len());
    let mut owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    if at > 0 && !owned[at - 1].ends_with('\n') {
        owned[at - 1].push_str(nl);
    }
    owned.insert(at, format!("{line}{nl}"));
    lines.clear();
    owned.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_match_on_family_name() {
        assert!(same_author("Liu, Shuo", "Shuo Liu"));
        assert!(same_author(
            "de Witt, Christian",
            "Christian Schroeder de Witt"
        ));
        assert!(!same_author("Liu, Shuo", "Christopher Amato"));
        assert!(!same_author("", "Shuo Liu"));
    }

    #[test]
    fn the_date_replaces_its_line_or_follows_verified() {
        let text = "key: a\nverified: yes\nnotes: x\n";
        assert_eq!(
            with_date(text, "2026-11-30"),
            "key: a\nverified: yes\narxiv_verified_on: \"2026-11-30\"\nnotes: x\n"
        );
        let again = with_date(&with_date(text, "2026-11-30"), "2026-12-07");
        assert_eq!(
            again,
            "key: a\nverified: yes\narxiv_verified_on: \"2026-12-07\"\nnotes: x\n"
        );
        assert_eq!(
            with_date("key: a", "2026-11-30"),
            "key: a\narxiv_verified_on: \"2026-11-30\"\n"
        );
        assert_eq!(
            with_date("key: a\r\nverified: yes\r\n", "2026-11-30"),
            "key: a\r\nverified: yes\r\narxiv_verified_on: \"2026-11-30\"\r\n"
        );
    }
}
