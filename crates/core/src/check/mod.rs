//! The checks: every rule of the taxonomy applied to a loaded corpus.
//!
//! Rules are identified by the ids listed under `rules:` in the taxonomy; the
//! built-in ones are implemented here, the data-driven ones (`when`/`require`)
//! are evaluated generically. Checks return diagnostics and never print.

pub mod style;
pub mod survey;

use crate::model::claims::CLAIMS_PATH;
use crate::model::corpus::Corpus;
use crate::model::dates::parse_date;
use crate::model::fields::{self, MIN_YEAR, MODELINE};
use crate::model::filter::{FieldValue, Fields, Filter};
use crate::model::ids::{
    arxiv_link_id, arxiv_year, is_http_url, normalize_title, normalize_url, strip_version,
    suggest_key, valid_identifier, valid_key, valid_record_id, KEY_RULE, RECORD_ID_RULE,
};
use crate::model::taxonomy::Taxonomy;
use crate::model::{Entry, Exclusion};
use crate::text::closest::closest;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::diag::{self, Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The outcome of a check: every diagnostic, with waived ones set apart.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Diagnostics that count, sorted by file and line.
    pub diagnostics: Vec<Diagnostic>,
    /// Warnings acknowledged by a waiver (shown only on request).
    pub waived: Vec<Diagnostic>,
}

impl Report {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of (unwaived) warnings.
    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// Whether the run fails: any error, or with `strict` any warning.
    pub fn fails(&self, strict: bool) -> bool {
        self.diagnostics.iter().any(|d| d.fails(strict))
    }
}

/// Collects diagnostics for one file, locating fields through its spans.
struct Sink<'a> {
    tax: &'a Taxonomy,
    out: Vec<Diagnostic>,
    /// Taxonomy rules whose filters name a value outside the vocabulary
    /// (`load` reports them): applied, they would blame entries for the
    /// rule's own mistake, so they wait until it is fixed.
    broken_rules: std::collections::HashSet<&'a str>,
}

/// Allowed values per field, computed once per check rather than per entry.
type Vocab = HashMap<&'static str, Vec<String>>;

fn vocab(tax: &Taxonomy) -> Vocab {
    fields::entry_tags()
        .chain(fields::record_tags())
        .map(|f| (f, tax.allowed(f).unwrap_or_default()))
        .collect()
}

impl Sink<'_> {
    /// A diagnostic of a built-in rule about a field of a file.
    fn at(&self, rule: Rule, file: &SourceFile, field: &str, msg: impl Into<String>) -> Diagnostic {
        let severity = self.tax.severity_of(rule);
        Self::locate(rule.id(), severity, file, field, msg)
    }

    /// A diagnostic of a rule the taxonomy defines (`when`/`require`).
    fn at_data(
        &self,
        rule: &crate::model::taxonomy::Rule,
        file: &SourceFile,
        field: &str,
        msg: String,
    ) -> Diagnostic {
        Self::locate(&rule.id, rule.severity.into(), file, field, msg)
    }

    fn locate(
        rule: &str,
        severity: Severity,
        file: &SourceFile,
        field: &str,
        msg: impl Into<String>,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(rule, severity, file.rel.clone(), msg);
        if !field.is_empty() {
            d = d.field(field.split('[').next().unwrap_or(field));
        }
        if let Some((l, c)) = file
            .spans()
            .pos(field)
            .or_else(|| file.spans().pos(field.split('[').next().unwrap_or(field)))
        {
            d = d.at(l, c);
        }
        d
    }

    fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }
}

/// Said once when checks derived from the data (claims, generated files)
/// were not run because the data itself has errors.
pub const DERIVED_WAIT: &str = "claims and generated files are checked once these errors are fixed";

/// Runs every check on a loaded corpus (loading problems included).
pub fn check(corpus: &Corpus) -> Report {
    let tax = &corpus.taxonomy;
    let broken_rules = tax
        .rules
        .iter()
        .filter(|r| {
            [&r.when, &r.require]
                .into_iter()
                .flatten()
                .any(|f| !tax.filter_problems(f).is_empty())
        })
        .map(|r| r.id.as_str())
        .collect();
    let mut sink = Sink {
        tax,
        out: corpus.diagnostics.clone(),
        broken_rules,
    };
    // `load` refuses a taxonomy whose cutoff is no date; a corpus built
    // another way is checked as if it had no cutoff.
    let cutoff = parse_date(&tax.screening.cutoff).unwrap_or((i64::MAX, 12, 31));
    let vocab = vocab(tax);

    for le in &corpus.entries {
        let file = corpus.file(le.file);
        check_entry(&mut sink, &vocab, file, &le.entry, cutoff);
        check_hidden(&mut sink, file, &le.entry);
    }
    for lx in &corpus.exclusions {
        let file = corpus.file(lx.file);
        check_exclusion(&mut sink, &vocab, file, &lx.record, cutoff);
        check_hidden(&mut sink, file, &lx.record);
    }
    check_across(&mut sink, corpus);
    // Claims count the data; while the data has errors the counts are of
    // something else, so the claims wait (see `DERIVED_WAIT`).
    // The survey file's references wait likewise: an entry that failed to
    // load would otherwise show up as a dangling key.
    if !sink.out.iter().any(|d| d.severity == Severity::Error) {
        sink.out.extend(broken_claims(corpus));
        sink.out.extend(crate::check::survey::problems(corpus));
    }
    let style = crate::check::style::check(corpus, &sink.out);
    sink.out.extend(style);

    let mut report = apply_waivers(sink.out, corpus);
    diag::sort(&mut report.diagnostics);
    diag::sort(&mut report.waived);
    report
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
                "is_rl",
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
                "additional_credit_units",
                format!(
                    "`{}` is already the credit_granularity; additional units list only further units",
                    e.credit_granularity
                ),
            )
            .help(format!("remove `{}` from additional_credit_units", e.credit_granularity));
        sink.push(d);
    }
}

/// `control-character`: every text value of an item, lists and waivers included.
fn check_hidden<T: serde::Serialize>(sink: &mut Sink, file: &SourceFile, item: &T) {
    fn walk(v: &serde_json::Value, path: &str, out: &mut Vec<(String, char)>) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(c) = s.chars().find(|c| crate::text::visible::is_hidden(*c)) {
                    out.push((path.to_string(), c));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, &format!("{path}[{i}]"), out);
                }
            }
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, out);
                }
            }
            _ => {}
        }
    }
    let Ok(value) = serde_json::to_value(item) else {
        return;
    };
    let mut found = Vec::new();
    walk(&value, "", &mut found);
    for (field, c) in found {
        let d = sink
            .at(
                Rule::ControlCharacter,
                file,
                &field,
                format!(
                    "`{field}` holds the invisible character U+{:04X}, which can rewrite a terminal or reorder the text around it",
                    c as u32
                ),
            )
            .help("remove it; write the text with printable characters only");
        sink.push(d);
    }
}

fn check_value(sink: &mut Sink, file: &SourceFile, field: &str, value: &str, allowed: &[String]) {
    if value.is_empty() || allowed.iter().any(|a| a == value) {
        return;
    }
    let help = closest(value, allowed.iter().map(String::as_str))
        .map(|c| format!("did you mean `{c}`?"))
        .unwrap_or_else(|| format!("allowed values: {}", allowed.join(", ")));
    let d = sink
        .at(
            Rule::UnknownValue,
            file,
            field,
            format!("`{field}` has value `{value}`, which is not in the taxonomy"),
        )
        .help(help);
    sink.push(d);
}

fn check_entry(
    sink: &mut Sink,
    vocab: &Vocab,
    file: &SourceFile,
    e: &Entry,
    cutoff: (i64, u32, u32),
) {
    let tax = sink.tax;
    let stem = stem(&file.rel);
    if let Some(day) = e.arxiv_verified_on.as_deref() {
        if parse_date(day).is_none() {
            let d = sink
                .at(
                    Rule::DateInvalid,
                    file,
                    "arxiv_verified_on",
                    format!("`{day}` is not a calendar date"),
                )
                .help("leave it to `corpus verify --write`, which writes YYYY-MM-DD");
            sink.push(d);
        }
    }
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
    if !e.key.is_empty() {
        if !valid_key(&e.key) {
            let d = sink
                .at(
                    Rule::KeyFormat,
                    file,
                    "key",
                    format!("key `{}` must be {KEY_RULE}", e.key),
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
                    "key",
                    format!("key `{}` differs from the file name `{stem}.yaml`", e.key),
                )
                .help(mismatch_help("key", &e.key, stem, valid_key, &{
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
    for field in fields::entry_tags() {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
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
    check_judgements(sink, file, e);
    if e.year != 0 && (e.year < MIN_YEAR || e.year > cutoff.0) {
        let d = sink.at(
            Rule::YearRange,
            file,
            "year",
            format!(
                "year {} is outside {MIN_YEAR}..={} (the search cutoff year)",
                e.year, cutoff.0
            ),
        );
        sink.push(d);
    }
    if let Some(id) = &e.arxiv_id {
        match arxiv_year(id) {
            None => {
                let d = sink
                    .at(
                        Rule::ArxivFormat,
                        file,
                        "arxiv_id",
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
                        "year",
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
                        .at(Rule::ArxivUrlMismatch, file, "urls", format!("arXiv id {id} is set but no link goes to arxiv.org"))
                        .help(format!("add https://arxiv.org/abs/{id}, or waive `arxiv-url-mismatch` with the reason"));
                    sink.push(d);
                }
            }
        }
    }
    for (i, u) in e.urls.iter().enumerate() {
        if !is_http_url(u) {
            let d = sink
                .at(
                    Rule::UrlScheme,
                    file,
                    &format!("urls[{i}]"),
                    format!("`{u}` is not an http(s) link"),
                )
                .help("write the full address starting with https://");
            sink.push(d);
        }
    }
    if e.urls.is_empty() && file.spans().pos("urls").is_some() {
        let d = sink
            .at(Rule::MissingField, file, "urls", "`urls` lists no link")
            .help("add at least one link");
        sink.push(d);
    }
    for rule in &tax.rules {
        let (Some(when), Some(require)) = (&rule.when, &rule.require) else {
            continue;
        };
        if sink.broken_rules.contains(rule.id.as_str()) {
            continue;
        }
        // A rule over a field that is missing or blank would only repeat the missing-field error.
        let blank = |f: &Filter| {
            f.conditions.iter().any(|c| {
                matches!(crate::model::filter::Fields::field(e, &c.field), Some(crate::model::filter::FieldValue::One(v)) if v.is_empty())
            })
        };
        if blank(when) || blank(require) {
            continue;
        }
        if when.matches(e) {
            if let Some(first) = require.failing(e).first() {
                let d = sink
                    .at_data(rule, file, &first.field, rule_message(rule, first, e))
                    .maybe_help(require_help(require, e));
                sink.push(d);
            }
        }
    }
}

fn rule_message(
    rule: &crate::model::taxonomy::Rule,
    c: &crate::model::filter::Condition,
    e: &Entry,
) -> String {
    let got = match crate::model::filter::Fields::field(e, &c.field) {
        Some(crate::model::filter::FieldValue::One(v)) => v.into_owned(),
        Some(crate::model::filter::FieldValue::Many(l)) => format!("[{}]", l.join(", ")),
        None => String::new(),
    };
    format!(
        "{} (`{}` is `{got}`)",
        rule.sentence.trim_end_matches('.'),
        c.field
    )
}

fn require_help(require: &Filter, e: &Entry) -> Option<String> {
    let c = *require.failing(e).first()?;
    let fix = if c.negate {
        format!("change `{}` away from `{}`", c.field, c.values.join("`/`"))
    } else if c.values == [crate::model::filter::EMPTY_LIST] {
        format!("empty `{}`", c.field)
    } else {
        format!("set `{}` to `{}`", c.field, c.values.join("` or `"))
    };
    Some(format!(
        "{fix}, or waive the rule with a reason if the entry is a genuine exception"
    ))
}

fn arxiv_help(id: &str) -> String {
    let trimmed = id
        .trim()
        .trim_start_matches("arXiv:")
        .trim_start_matches("arxiv:")
        .trim_start_matches("https://arxiv.org/abs/");
    if trimmed != id && arxiv_year(trimmed).is_some() {
        format!("write just the id: `\"{trimmed}\"`")
    } else {
        "write it like \"2508.04652\" (new style) or \"cs/0701001\" (old style)".to_string()
    }
}

/// Help for a key (or record id) that differs from its file name, offering
/// only names that pass the key rule themselves: renaming to an invalid key
/// would trade one error for another. `fallback` must itself be valid.
fn mismatch_help(
    field: &str,
    value: &str,
    stem: &str,
    valid: impl Fn(&str) -> bool,
    fallback: &str,
) -> String {
    match (valid(value), valid(stem)) {
        (true, true) => format!("rename the file to `{value}.yaml` or set `{field}: {stem}`"),
        (true, false) => format!("rename the file to `{value}.yaml`"),
        (false, true) => format!("set `{field}: {stem}`"),
        (false, false) => format!(
            "name the file and `{field}` alike with a valid name, e.g. `{fallback}.yaml` and `{field}: {fallback}`"
        ),
    }
}

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

fn stem(rel: &str) -> &str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.strip_suffix(".yaml").unwrap_or(name)
}

fn check_exclusion(
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
                "record_id",
                format!("record id `{}` must be {RECORD_ID_RULE}", x.record_id),
            );
            sink.push(d);
        }
        if x.record_id != stem {
            let d = sink
                .at(
                    Rule::KeyMismatch,
                    file,
                    "record_id",
                    format!(
                        "record_id `{}` differs from the file name `{stem}.yaml`",
                        x.record_id
                    ),
                )
                .help(mismatch_help(
                    "record_id",
                    &x.record_id,
                    stem,
                    valid_record_id,
                    &record_id_like(&x.record_id, stem),
                ));
            sink.push(d);
        }
    }
    for field in fields::record_tags() {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(FieldValue::One(v)) = x.field(field) {
            check_value(sink, file, field, &v, allowed);
        }
    }
    if !x.url.is_empty() && !is_http_url(&x.url) {
        let d = sink
            .at(
                Rule::UrlScheme,
                file,
                "url",
                format!("`{}` is not an http(s) link", x.url),
            )
            .help("write the full address starting with https://");
        sink.push(d);
    }
    if !x.identifier.is_empty() {
        if !valid_identifier(&x.identifier) {
            let d = sink
                .at(Rule::IdentifierFormat, file, "identifier", format!("identifier `{}` has no recognised form", x.identifier))
                .help("use arXiv:2305.14325, OpenReview:<id>, ACL:<anthology id>, github:<owner>/<repo> or an upper-case id like CREWAI-DOCS");
            sink.push(d);
        } else if let Some(id) = x.identifier.strip_prefix("arXiv:") {
            if arxiv_year(id).is_none() {
                let d = sink
                    .at(
                        Rule::ArxivFormat,
                        file,
                        "identifier",
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
                        "url",
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
                        "date_screened",
                        format!("`{}` is not a calendar date", x.date_screened),
                    )
                    .help("write YYYY-MM-DD, e.g. 2026-04-26");
                sink.push(d);
            }
            Some(date) if date > cutoff => {
                let d = sink.at(
                    Rule::DateAfterCutoff,
                    file,
                    "date_screened",
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

/// Rules that compare files with each other; linear in the corpus size.
fn check_across(sink: &mut Sink, corpus: &Corpus) {
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
                    "key",
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
                    "arxiv_id",
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
                    "title",
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
                    "record_id",
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
            (Rule::DuplicateKey, "identifier", ident, &mut record_idents),
            (
                Rule::DuplicateUrl,
                "url",
                normalize_url(&x.url),
                &mut record_urls,
            ),
            (
                Rule::DuplicateTitle,
                "title",
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
            .and_then(|id| arxiv.get(strip_version(id)).map(|f| ("identifier", *f)))
            .or_else(|| {
                urls.get(&normalize_url(&x.url))
                    .map(|f| ("url", *f))
                    .filter(|_| !x.url.is_empty())
            })
            .or_else(|| {
                titles
                    .get(&normalize_title(&x.title))
                    .map(|f| ("title", *f))
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

/// `claim-broken` diagnostics: every claim of the corpus's ledger that does not hold.
fn broken_claims(corpus: &Corpus) -> Vec<Diagnostic> {
    let Some((_, text)) = &corpus.claims else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let severity = corpus.taxonomy.severity_of(Rule::ClaimBroken);
    for v in corpus.verdicts() {
        if v.holds {
            continue;
        }
        let named = !v.missing.is_empty() || !v.unexpected.is_empty() || v.matching.len() <= 12;
        let who = if let Some((field, judged, of)) = v.coverage.as_ref().filter(|_| !v.covered()) {
            format!("`{field}` is judged for only {judged} of the {of} entries the claim needs; it cannot hold by construction")
        } else if !v.missing.is_empty() || !v.unexpected.is_empty() {
            let mut parts = Vec::new();
            if !v.missing.is_empty() {
                parts.push(format!("no longer matching: {}", v.missing.join(", ")));
            }
            if !v.unexpected.is_empty() {
                parts.push(format!("newly matching: {}", v.unexpected.join(", ")));
            }
            parts.join("; ")
        } else if v.matching.len() <= 12 {
            format!(
                "matching: {}",
                if v.matching.is_empty() {
                    "none".to_string()
                } else {
                    v.matching.join(", ")
                }
            )
        } else {
            format!("{} entries match", v.matching.len())
        };
        out.push(
            Diagnostic::new(
                Rule::ClaimBroken.id(),
                severity,
                CLAIMS_PATH,
                format!("claim `{}` no longer holds: expected {}, found {} ({who})", v.id, v.expected, v.actual),
            )
            .at_line(crate::model::claims::claim_line(text, &v.id))
            .field(format!("claims.{}", v.id))
            .help(if named {
                format!("\"{}\" — fix the tags of the entries named, or update the claim and the survey text together", v.statement)
            } else {
                format!("\"{}\" — `corpus claims --verbose` lists the matching entries; fix their tags, or update the claim and the survey text together", v.statement)
            }),
        );
    }
    out
}

/// Moves waived warnings aside and reports waivers that waive nothing.
fn apply_waivers(diags: Vec<Diagnostic>, corpus: &Corpus) -> Report {
    let tax = &corpus.taxonomy;
    let mut by_file: BTreeMap<&str, (&Entry, &SourceFile)> = BTreeMap::new();
    for le in &corpus.entries {
        let f = corpus.file(le.file);
        by_file.insert(f.rel.as_str(), (&le.entry, f));
    }
    let mut used: BTreeSet<(String, String)> = BTreeSet::new();
    let mut report = Report::default();
    for d in diags {
        let waived = d.severity == Severity::Warning
            && by_file
                .get(d.file.as_str())
                // A waiver without a reason acknowledges nothing, so it waives nothing.
                .is_some_and(|(e, _)| {
                    e.waivers
                        .get(&d.rule)
                        .is_some_and(|why| !why.trim().is_empty())
                });
        if waived {
            used.insert((d.file.clone(), d.rule.clone()));
            report.waived.push(d);
        } else {
            report.diagnostics.push(d);
        }
    }
    let mut sink = Sink {
        tax,
        out: Vec::new(),
        broken_rules: Default::default(),
    };
    for (rel, (e, file)) in &by_file {
        for (rule, reason) in &e.waivers {
            let path = format!("waivers.{rule}");
            let problem = match tax.rule(rule) {
                None => Some(format!("waiver names `{rule}`, which is not a rule")),
                Some(r) if Severity::from(r.severity) == Severity::Error => {
                    Some(format!("`{rule}` is an error and cannot be waived"))
                }
                Some(_) if reason.trim().is_empty() => Some(format!(
                    "waiver for `{rule}` gives no reason, so it waives nothing"
                )),
                Some(_) if !used.contains(&(rel.to_string(), rule.clone())) => Some(format!(
                    "waiver for `{rule}` is unused: the rule does not fire on this entry"
                )),
                Some(_) => None,
            };
            if let Some(msg) = problem {
                let mut d = sink
                    .at(Rule::WaiverUnused, file, &path, msg)
                    .field("waivers");
                if tax.rule(rule).is_none() {
                    let names = tax.rules.iter().map(|r| r.id.as_str());
                    if let Some(c) = closest(rule, names) {
                        d = d.help(format!("did you mean `{c}`?"));
                    }
                } else if reason.trim().is_empty() {
                    d = d.help(format!(
                        "write why `{rule}` does not apply here, or remove the waiver"
                    ));
                } else {
                    d = d.help(format!("remove the `{rule}` waiver"));
                }
                sink.push(d);
            }
        }
    }
    report.diagnostics.extend(sink.out);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_taxonomy_declares_every_built_in_rule() {
        let text = include_str!("../../../../corpus/taxonomy.yaml");
        let tax = Taxonomy::from_yaml(text).unwrap();
        for rule in Rule::ALL {
            let declared = tax.rule(rule.id()).unwrap_or_else(|| {
                panic!("built-in rule `{rule}` is missing from corpus/taxonomy.yaml")
            });
            assert_eq!(
                Severity::from(declared.severity),
                rule.default_severity(),
                "`{rule}`: the shipped taxonomy and the registry disagree on its severity"
            );
        }
    }
}
