//! The checks of one entry file, one function per concern, in the order they report.

use super::data_rules::check_data_rules;
use super::help::{arxiv_help, mismatch_help, stem};
use super::sink::Sink;
use super::values::{check_value, Vocab};
use crate::model::dates::parse_date;
use crate::model::fields::{self, MIN_YEAR, MODELINE};
use crate::model::filter::{FieldValue, Fields};
use crate::model::Entry;
use crate::text::ids::{
    arxiv_link_id, arxiv_year, key_rule, normalize_url, strip_version, suggest_key, url_problem,
    valid_key,
};
use crate::yaml::source::SourceFile;
use corpus_diagnostics::rules::Rule;
use std::collections::BTreeSet;

/// Every check of one entry, its cross-file ones aside.
pub(super) fn check_entry(
    sink: &mut Sink,
    vocab: &Vocab,
    file: &SourceFile,
    e: &Entry,
    cutoff: (i64, u32, u32),
) {
    check_verified_on(sink, file, e);
    check_modeline(sink, file);
    check_key(sink, file, e);
    check_tags(sink, vocab, file, e);
    check_judgements(sink, file, e);
    check_year(sink, file, e, cutoff);
    check_arxiv(sink, file, e);
    check_urls(sink, file, e);
    super::citation::check_citation(sink, file, e);
    check_data_rules(sink, file, e);
}

/// The day `corpus verify --write` records is a calendar date.
fn check_verified_on(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    if let Some(day) = e.arxiv_verified_on.as_deref() {
        if parse_date(day).is_none() {
            let d = sink
                .at(
                    Rule::DateInvalid,
                    file,
                    fields::ARXIV_VERIFIED_ON,
                    format!("`{day}` is not a calendar date"),
                )
                .help("leave it to `corpus verify --write`, which writes YYYY-MM-DD");
            sink.push(d);
        }
    }
}

/// The file starts with the schema modeline editors read.
fn check_modeline(sink: &mut Sink, file: &SourceFile) {
    if file.text.lines().next().map(str::trim_end) != Some(MODELINE) {
        let d = sink
            .at(
                Rule::SchemaModeline,
                file,
                "",
                "the file does not start with the schema modeline",
            )
            .at_line(Some(1))
            .help(format!("make `{}` the first line", MODELINE));
        sink.push(d);
    }
}

/// The key is well formed and names the file it is in.
fn check_key(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    let stem = stem(&file.rel);
    if !e.key.is_empty() {
        if !valid_key(&e.key) {
            let d = sink
                .at(
                    Rule::KeyFormat,
                    file,
                    fields::KEY,
                    format!("key `{}` must be {}", e.key, key_rule()),
                )
                .maybe_help(
                    Some(suggest_key(&e.key))
                        .filter(|k| valid_key(k))
                        .map(|k| format!("try `{k}`")),
                );
            sink.push(d);
        }
        if e.key != stem {
            let d = sink
                .at(
                    Rule::KeyMismatch,
                    file,
                    fields::KEY,
                    format!("key `{}` differs from the file name `{stem}.yaml`", e.key),
                )
                .help(mismatch_help(fields::KEY, &e.key, stem, valid_key, &{
                    let k = suggest_key(stem);
                    if valid_key(&k) {
                        k
                    } else {
                        "new-entry".to_string()
                    }
                }));
            sink.push(d);
        }
    }
}

/// Tag values are in the taxonomy, and no list repeats one.
fn check_tags(sink: &mut Sink, vocab: &Vocab, file: &SourceFile, e: &Entry) {
    for field in fields::entry_tags() {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        // A judged tag nobody judged reads `not_judged` to filters; the file
        // holds no value to check.
        if !e.is_judged(field) && crate::model::JUDGED_TAGS.iter().any(|(t, _)| *t == field) {
            continue;
        }
        match e.field(field) {
            Some(FieldValue::Many(list)) => {
                let mut seen = BTreeSet::new();
                for (i, s) in list.iter().enumerate() {
                    let at = format!("{field}[{i}]");
                    check_value(sink, file, &at, s, allowed);
                    if !seen.insert(s) {
                        let d = sink.at(
                            Rule::DuplicateField,
                            file,
                            &at,
                            format!("`{s}` is listed twice in `{field}`"),
                        );
                        sink.push(d);
                    }
                }
            }
            Some(FieldValue::One(v)) => check_value(sink, file, field, &v, allowed),
            None => {}
        }
    }
}

/// A judged tag names who judged it, and a source names a judged tag.
fn check_judgements(sink: &mut Sink, file: &SourceFile, e: &Entry) {
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
        let d = sink
            .at(Rule::JudgementUnsourced, file, field, msg)
            .help(help);
        sink.push(d);
    }
    if matches!(e.is_rl.as_str(), "yes" | "partial") && e.subdecisions.is_none() {
        let d = sink
            .at(
                Rule::SubdecisionsNotJudged,
                file,
                fields::IS_RL,
                format!(
                    "`{}` is RL-related (is_rl: {}) but its orchestration sub-decisions are not judged",
                    e.key, e.is_rl
                ),
            )
            .help("write `subdecisions: []` (or the ones it trains or designs) with `subdecisions_source: [project_reading]`, or the source that said so");
        sink.push(d);
    }
    if e.additional_units().contains(&e.credit_granularity) {
        let d = sink
            .at(
                Rule::AdditionalUnitRepeatsPrimary,
                file,
                fields::ADDITIONAL_CREDIT_UNITS,
                format!(
                    "`{}` is already the credit_granularity; additional units list only further units",
                    e.credit_granularity
                ),
            )
            .help(format!("remove `{}` from additional_credit_units", e.credit_granularity));
        sink.push(d);
    }
}

/// The year lies between the earliest accepted and the search cutoff.
fn check_year(sink: &mut Sink, file: &SourceFile, e: &Entry, cutoff: (i64, u32, u32)) {
    if e.year != 0 && (e.year < MIN_YEAR || e.year > cutoff.0) {
        let d = sink.at(
            Rule::YearRange,
            file,
            fields::YEAR,
            format!(
                "year {} is outside {MIN_YEAR}..={} (the search cutoff year)",
                e.year, cutoff.0
            ),
        );
        sink.push(d);
    }
}

/// The arXiv id is well formed, fits the year, and agrees with the links.
fn check_arxiv(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    if let Some(id) = &e.arxiv_id {
        match arxiv_year(id) {
            None => {
                let d = sink
                    .at(
                        Rule::ArxivFormat,
                        file,
                        fields::ARXIV_ID,
                        format!("`{id}` is not an arXiv id"),
                    )
                    .help(arxiv_help(id));
                sink.push(d);
            }
            Some((ay, _)) => {
                if e.year != 0 && (e.year < ay || e.year > ay + 2) {
                    let d = sink.at(
                        Rule::ArxivYear,
                        file,
                        fields::YEAR,
                        format!(
                            "year {} is outside {ay}..={} implied by arXiv id {id}",
                            e.year,
                            ay + 2
                        ),
                    );
                    sink.push(d);
                }
                for (i, u) in e.urls.iter().enumerate() {
                    if let Some(linked) =
                        arxiv_link_id(u).filter(|l| strip_version(l) != strip_version(id))
                    {
                        let d = sink
                            .at(
                                Rule::ArxivLinkId,
                                file,
                                &format!("urls[{i}]"),
                                format!("link `{u}` names arXiv id {linked}, but the entry's id is {id}"),
                            )
                            .help(format!("link https://arxiv.org/abs/{id}, or correct `arxiv_id`"));
                        sink.push(d);
                    }
                }
                if !e
                    .urls
                    .iter()
                    .any(|u| normalize_url(u).starts_with("arxiv.org/"))
                {
                    let d = sink
                        .at(Rule::ArxivUrlMismatch, file, fields::URLS, format!("arXiv id {id} is set but no link goes to arxiv.org"))
                        .help(format!("add https://arxiv.org/abs/{id}, or waive `arxiv-url-mismatch` with the reason"));
                    sink.push(d);
                }
            }
        }
    }
}

/// How to write a link the URL check refuses.
pub(super) const URL_HELP: &str = "write the full address starting with https://, with every character RFC 3986 leaves out (space, quotes, `<`, `>`, `|`, braces, backslash, backtick, non-ASCII) percent-encoded: a space as %20, `|` as %7C";

/// Links are absolute http(s) URLs, and a `urls` field lists at least one.
fn check_urls(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    for (i, u) in e.urls.iter().enumerate() {
        if let Some(why) = url_problem(u) {
            let d = sink
                .at(
                    Rule::UrlScheme,
                    file,
                    &format!("urls[{i}]"),
                    format!("`{u}` is not an http(s) link: {why}"),
                )
                .help(URL_HELP);
            sink.push(d);
        }
    }
    if e.urls.is_empty() && file.spans().pos(fields::URLS).is_some() {
        let d = sink
            .at(
                Rule::MissingField,
                file,
                fields::URLS,
                "`urls` lists no link",
            )
            .help("add at least one link");
        sink.push(d);
    }
}
