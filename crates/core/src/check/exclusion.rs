//! The checks of one exclusion record file.

use super::help::{arxiv_help, mismatch_help};
use super::sink::Finding;
use super::values::check_tags;
use crate::model::facts::RecordFacts;
use crate::model::fields;
use crate::text::ids::record_id_rule;
use corpus_diagnostics::rules::Rule;

/// Every check of one record, its cross-file ones aside.
pub(super) fn check_exclusion<'a>(
    f: &RecordFacts<'a>,
    cutoff_text: &str,
    out: &mut Vec<Finding<'a>>,
) {
    check_record_id(f, out);
    check_tags(&f.tags, out);
    check_link(f, out);
    check_screened(f, cutoff_text, out);
    super::hidden::check_hidden(&f.hidden, out);
}

/// The record id is well formed and names the file it is in.
fn check_record_id(f: &RecordFacts, out: &mut Vec<Finding>) {
    let (x, stem) = (f.record, f.origin.stem);
    if x.record_id.is_empty() {
        return;
    }
    if !f.id.valid {
        out.push(Finding::new(
            Rule::KeyFormat,
            fields::RECORD_ID,
            format!("record id `{}` must be {}", x.record_id, record_id_rule()),
        ));
    }
    if x.record_id != stem {
        out.push(
            Finding::new(
                Rule::KeyMismatch,
                fields::RECORD_ID,
                format!(
                    "record_id `{}` differs from the file name `{stem}.yaml`",
                    x.record_id
                ),
            )
            .help(mismatch_help(fields::RECORD_ID, &x.record_id, stem, &f.id)),
        );
    }
}

/// The link is an http(s) URL, the identifier has a known form, and an
/// arXiv identifier names the paper the link does.
fn check_link(f: &RecordFacts, out: &mut Vec<Finding>) {
    let x = f.record;
    if let Some(why) = f.url.problem.as_ref().filter(|_| !x.url.is_empty()) {
        out.push(
            Finding::new(
                Rule::UrlScheme,
                fields::URL,
                format!("`{}` is not an http(s) link: {why}", x.url),
            )
            .help(super::entry::URL_HELP),
        );
    }
    if x.identifier.is_empty() {
        return;
    }
    if !f.identifier_valid {
        out.push(
            Finding::new(Rule::IdentifierFormat, fields::IDENTIFIER, format!("identifier `{}` has no recognised form", x.identifier))
                .help("use arXiv:2305.14325, OpenReview:<id>, ACL:<anthology id>, github:<owner>/<repo> or an upper-case id like CREWAI-DOCS"),
        );
    } else if let (Some(id), Some(arxiv)) = (x.identifier.strip_prefix("arXiv:"), &f.arxiv) {
        if arxiv.year.is_none() {
            out.push(
                Finding::new(
                    Rule::ArxivFormat,
                    fields::IDENTIFIER,
                    format!("`{id}` is not an arXiv id"),
                )
                .help(arxiv_help(arxiv)),
            );
        } else if let Some(linked) = f.url.names_other_arxiv(&arxiv.unversioned) {
            // A record's link and identifier must name the same paper, as an entry's do.
            out.push(
                Finding::new(
                    Rule::ArxivLinkId,
                    fields::URL,
                    format!(
                        "link `{}` names arXiv id {linked}, but the record's identifier is arXiv:{id}",
                        x.url
                    ),
                )
                .help(format!(
                    "link https://arxiv.org/abs/{id}, or correct `identifier`"
                )),
            );
        }
    }
}

/// The screening date is a calendar date within the search.
fn check_screened(f: &RecordFacts, cutoff_text: &str, out: &mut Vec<Finding>) {
    let x = f.record;
    if x.date_screened.is_empty() {
        return;
    }
    match f.screened {
        None => out.push(
            Finding::new(
                Rule::DateInvalid,
                fields::DATE_SCREENED,
                format!("`{}` is not a calendar date", x.date_screened),
            )
            .help("write YYYY-MM-DD, e.g. 2026-04-26"),
        ),
        Some(date) if date > f.cutoff => out.push(Finding::new(
            Rule::DateAfterCutoff,
            fields::DATE_SCREENED,
            format!(
                "screened on {} after the search cutoff {cutoff_text}",
                x.date_screened
            ),
        )),
        Some(_) => {}
    }
}
