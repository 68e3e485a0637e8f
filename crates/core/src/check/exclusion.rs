//! The checks of one exclusion record file.

use super::help::{arxiv_help, mismatch_help, stem};
use super::sink::Sink;
use super::values::{check_value, Vocab};
use crate::model::dates::parse_date;
use crate::model::fields;
use crate::model::filter::{FieldValue, Fields};
use crate::model::Exclusion;
use crate::text::ids::{
    arxiv_link_id, arxiv_year, record_id_rule, strip_version, url_problem, valid_identifier,
    valid_record_id,
};
use crate::yaml::source::SourceFile;
use corpus_diagnostics::rules::Rule;

/// A valid record id close to what was written (`e9` -> `E009`): the
/// digits of the id or, failing that, of the file name, padded to three.
fn record_id_like(id: &str, stem: &str) -> String {
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    let d = [digits(id), digits(stem)]
        .into_iter()
        .find(|d| !d.is_empty())
        .unwrap_or_else(|| "33".to_string());
    let id = format!("E{d:0>3}");
    if valid_record_id(&id) {
        id
    } else {
        "E033".to_string()
    }
}

pub(super) fn check_exclusion(
    sink: &mut Sink,
    vocab: &Vocab,
    file: &SourceFile,
    x: &Exclusion,
    cutoff: (i64, u32, u32),
) {
    let tax = sink.tax;
    let stem = stem(&file.rel);
    if !x.record_id.is_empty() {
        if !valid_record_id(&x.record_id) {
            let d = sink.at(
                Rule::KeyFormat,
                file,
                fields::RECORD_ID,
                format!("record id `{}` must be {}", x.record_id, record_id_rule()),
            );
            sink.push(d);
        }
        if x.record_id != stem {
            let d = sink
                .at(
                    Rule::KeyMismatch,
                    file,
                    fields::RECORD_ID,
                    format!(
                        "record_id `{}` differs from the file name `{stem}.yaml`",
                        x.record_id
                    ),
                )
                .help(mismatch_help(
                    fields::RECORD_ID,
                    &x.record_id,
                    stem,
                    valid_record_id,
                    &record_id_like(&x.record_id, stem),
                ));
            sink.push(d);
        }
    }
    for field in fields::record_tags().chain([fields::ADDED_IN]) {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(FieldValue::One(v)) = x.field(field) {
            check_value(sink, file, field, &v, allowed);
        }
    }
    if let Some(why) = url_problem(&x.url).filter(|_| !x.url.is_empty()) {
        let d = sink
            .at(
                Rule::UrlScheme,
                file,
                fields::URL,
                format!("`{}` is not an http(s) link: {why}", x.url),
            )
            .help(super::entry::URL_HELP);
        sink.push(d);
    }
    if !x.identifier.is_empty() {
        if !valid_identifier(&x.identifier) {
            let d = sink
                .at(Rule::IdentifierFormat, file, fields::IDENTIFIER, format!("identifier `{}` has no recognised form", x.identifier))
                .help("use arXiv:2305.14325, OpenReview:<id>, ACL:<anthology id>, github:<owner>/<repo> or an upper-case id like CREWAI-DOCS");
            sink.push(d);
        } else if let Some(id) = x.identifier.strip_prefix("arXiv:") {
            if arxiv_year(id).is_none() {
                let d = sink
                    .at(
                        Rule::ArxivFormat,
                        file,
                        fields::IDENTIFIER,
                        format!("`{id}` is not an arXiv id"),
                    )
                    .help(arxiv_help(id));
                sink.push(d);
            } else if let Some(linked) =
                arxiv_link_id(&x.url).filter(|l| strip_version(l) != strip_version(id))
            {
                // A record's link and identifier must name the same paper, as an entry's do.
                let d = sink
                    .at(
                        Rule::ArxivLinkId,
                        file,
                        fields::URL,
                        format!(
                            "link `{}` names arXiv id {linked}, but the record's identifier is arXiv:{id}",
                            x.url
                        ),
                    )
                    .help(format!(
                        "link https://arxiv.org/abs/{id}, or correct `identifier`"
                    ));
                sink.push(d);
            }
        }
    }
    if !x.date_screened.is_empty() {
        match parse_date(&x.date_screened) {
            None => {
                let d = sink
                    .at(
                        Rule::DateInvalid,
                        file,
                        fields::DATE_SCREENED,
                        format!("`{}` is not a calendar date", x.date_screened),
                    )
                    .help("write YYYY-MM-DD, e.g. 2026-04-26");
                sink.push(d);
            }
            Some(date) if date > cutoff => {
                let d = sink.at(
                    Rule::DateAfterCutoff,
                    file,
                    fields::DATE_SCREENED,
                    format!(
                        "screened on {} after the search cutoff {}",
                        x.date_screened, tax.screening.cutoff
                    ),
                );
                sink.push(d);
            }
            Some(_) => {}
        }
    }
}
