//! The checks of one entry file, one function per concern, in the order they report.

use super::data_rules::check_data_rules;
use super::help::{arxiv_help, mismatch_help};
use super::sink::Finding;
use super::values::check_tags;
use crate::model::facts::EntryFacts;
use crate::model::fields::{self, MIN_YEAR, MODELINE};
use corpus_diagnostics::rules::Rule;

/// Every check of one entry, its cross-file ones aside.
pub(super) fn check_entry<'a>(f: &EntryFacts<'a>, out: &mut Vec<Finding<'a>>) {
    check_verified_on(f, out);
    check_modeline(f, out);
    check_key(f, out);
    check_tags(&f.tags, out);
    check_judgements(f, out);
    check_year(f, out);
    check_arxiv(f, out);
    check_urls(f, out);
    super::citation::check_citation(f, out);
    check_data_rules(f, out);
    super::hidden::check_hidden(&f.hidden, out);
}

/// The day `corpus verify --write` records is a calendar date.
fn check_verified_on(f: &EntryFacts, out: &mut Vec<Finding>) {
    if let Some(day) = f.entry.arxiv_verified_on.as_deref() {
        if !f.verified_on_valid {
            out.push(
                Finding::new(
                    Rule::DateInvalid,
                    fields::ARXIV_VERIFIED_ON,
                    format!("`{day}` is not a calendar date"),
                )
                .help("leave it to `corpus verify --write`, which writes YYYY-MM-DD"),
            );
        }
    }
}

/// The file starts with the schema modeline editors read.
fn check_modeline(f: &EntryFacts, out: &mut Vec<Finding>) {
    if !f.modeline {
        out.push(
            Finding::new(
                Rule::SchemaModeline,
                "",
                "the file does not start with the schema modeline",
            )
            .on_line(1)
            .help(format!("make `{}` the first line", MODELINE)),
        );
    }
}

/// The key is well formed and names the file it is in.
fn check_key(f: &EntryFacts, out: &mut Vec<Finding>) {
    let (e, stem) = (f.entry, f.origin.stem);
    if !e.key.is_empty() {
        if !f.key.valid {
            out.push(
                Finding::new(
                    Rule::KeyFormat,
                    fields::KEY,
                    format!("key `{}` must be {}", e.key, crate::text::ids::key_rule()),
                )
                .maybe_help(f.key.suggestion.as_ref().map(|k| format!("try `{k}`"))),
            );
        }
        if e.key != stem {
            out.push(
                Finding::new(
                    Rule::KeyMismatch,
                    fields::KEY,
                    format!("key `{}` differs from the file name `{stem}.yaml`", e.key),
                )
                .help(mismatch_help(fields::KEY, &e.key, stem, &f.key)),
            );
        }
    }
}

/// A judged tag names who judged it, and a source names a judged tag.
fn check_judgements(f: &EntryFacts, out: &mut Vec<Finding>) {
    let e = f.entry;
    let judged = [
        e.additional_credit_units.is_some(),
        e.subdecisions.is_some(),
        e.strict_credit.is_some(),
    ];
    let sourced = [
        !e.additional_credit_units_source.is_empty(),
        !e.subdecisions_source.is_empty(),
        e.strict_credit_source.is_some(),
    ];
    for (((tag, source), judged), sourced) in
        crate::model::JUDGED_TAGS.iter().zip(judged).zip(sourced)
    {
        let (field, msg, help) = match (judged, sourced) {
            (true, false) => (
                *tag,
                format!("`{tag}` is judged but `{source}` does not say by whom"),
                format!("add `{source}`: one of the taxonomy's judgement_sources (project_reading for your own reading)"),
            ),
            (false, true) => (
                *source,
                format!("`{source}` names a source but `{tag}` is not given"),
                format!("write `{tag}` (an empty list when judged: none), or remove `{source}`"),
            ),
            _ => continue,
        };
        out.push(Finding::new(Rule::JudgementUnsourced, field, msg).help(help));
    }
    if matches!(e.is_rl.as_str(), "yes" | "partial") && e.subdecisions.is_none() {
        out.push(
            Finding::new(
                Rule::SubdecisionsNotJudged,
                fields::IS_RL,
                format!(
                    "`{}` is RL-related (is_rl: {}) but its orchestration sub-decisions are not judged",
                    e.key, e.is_rl
                ),
            )
            .help("write `subdecisions: []` (or the ones it trains or designs) with `subdecisions_source: [project_reading]`, or the source that said so"),
        );
    }
    if f.additional_units.contains(&e.credit_granularity) {
        out.push(
            Finding::new(
                Rule::AdditionalUnitRepeatsPrimary,
                fields::ADDITIONAL_CREDIT_UNITS,
                format!(
                    "`{}` is already the credit_granularity; additional units list only further units",
                    e.credit_granularity
                ),
            )
            .help(format!("remove `{}` from additional_credit_units", e.credit_granularity)),
        );
    }
}

/// The year lies between the earliest accepted and the search cutoff.
fn check_year(f: &EntryFacts, out: &mut Vec<Finding>) {
    let (year, cutoff) = (f.entry.year, f.cutoff.0);
    if year != 0 && (year < MIN_YEAR || year > cutoff) {
        out.push(Finding::new(
            Rule::YearRange,
            fields::YEAR,
            format!("year {year} is outside {MIN_YEAR}..={cutoff} (the search cutoff year)"),
        ));
    }
}

/// The arXiv id is well formed, fits the year, and agrees with the links.
fn check_arxiv(f: &EntryFacts, out: &mut Vec<Finding>) {
    let e = f.entry;
    let (Some(id), Some(arxiv)) = (&e.arxiv_id, &f.arxiv) else {
        return;
    };
    let Some(ay) = arxiv.year else {
        out.push(
            Finding::new(
                Rule::ArxivFormat,
                fields::ARXIV_ID,
                format!("`{id}` is not an arXiv id"),
            )
            .help(arxiv_help(arxiv)),
        );
        return;
    };
    if e.year != 0 && (e.year < ay || e.year > ay + 2) {
        out.push(Finding::new(
            Rule::ArxivYear,
            fields::YEAR,
            format!(
                "year {} is outside {ay}..={} implied by arXiv id {id}",
                e.year,
                ay + 2
            ),
        ));
    }
    for (i, (u, link)) in e.urls.iter().zip(&f.urls).enumerate() {
        if let Some(linked) = link.names_other_arxiv(&arxiv.unversioned) {
            out.push(
                Finding::new(
                    Rule::ArxivLinkId,
                    format!("urls[{i}]"),
                    format!("link `{u}` names arXiv id {linked}, but the entry's id is {id}"),
                )
                .help(format!(
                    "link https://arxiv.org/abs/{id}, or correct `arxiv_id`"
                )),
            );
        }
    }
    if !f
        .urls
        .iter()
        .any(|l| l.normalized.starts_with("arxiv.org/"))
    {
        out.push(
            Finding::new(
                Rule::ArxivUrlMismatch,
                fields::URLS,
                format!("arXiv id {id} is set but no link goes to arxiv.org"),
            )
            .help(format!(
                "add https://arxiv.org/abs/{id}, or waive `arxiv-url-mismatch` with the reason"
            )),
        );
    }
}

/// How to write a link the URL check refuses.
pub(super) const URL_HELP: &str = "write the full address starting with https://, with every character RFC 3986 leaves out (space, quotes, `<`, `>`, `|`, braces, backslash, backtick, non-ASCII) percent-encoded: a space as %20, `|` as %7C";

/// Links are absolute http(s) URLs, and a `urls` field lists at least one.
fn check_urls(f: &EntryFacts, out: &mut Vec<Finding>) {
    for (i, (u, link)) in f.entry.urls.iter().zip(&f.urls).enumerate() {
        if let Some(why) = &link.problem {
            out.push(
                Finding::new(
                    Rule::UrlScheme,
                    format!("urls[{i}]"),
                    format!("`{u}` is not an http(s) link: {why}"),
                )
                .help(URL_HELP),
            );
        }
    }
    if f.urls_written_empty {
        out.push(
            Finding::new(Rule::MissingField, fields::URLS, "`urls` lists no link")
                .help("add at least one link"),
        );
    }
}
