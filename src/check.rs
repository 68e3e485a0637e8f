//! The checks: every rule of the taxonomy applied to a loaded corpus.
//!
//! Rules are identified by the ids listed under `rules:` in the taxonomy; the
//! built-in ones are implemented here, the data-driven ones (`when`/`require`)
//! are evaluated generically. Checks return diagnostics and never print.

use crate::diag::{self, Diagnostic, Severity};
use crate::filter::Filter;
use crate::load::{Corpus, SourceFile};
use crate::model::{Entry, Exclusion};
use crate::taxonomy::{Taxonomy, EXCLUSION_TAG_FIELDS, TAG_FIELDS};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

/// Rules implemented in code; each must be declared in the taxonomy.
pub const BUILTIN_RULES: [&str; 33] = [
    "yaml-syntax",
    "file-unreadable",
    "stray-file",
    "unknown-field",
    "missing-field",
    "duplicate-field",
    "field-type",
    "empty-field",
    "unknown-value",
    "key-format",
    "key-mismatch",
    "arxiv-format",
    "arxiv-unquoted",
    "url-scheme",
    "year-range",
    "date-invalid",
    "date-after-cutoff",
    "identifier-format",
    "duplicate-key",
    "duplicate-arxiv",
    "duplicate-url",
    "duplicate-title",
    "excluded-retained",
    "arxiv-url-mismatch",
    "arxiv-year",
    "waiver-unused",
    "stale-generated",
    "claim-invalid",
    "claim-broken",
    "schema-modeline",
    "not-formatted",
    "yaml-ambiguous-scalar",
    "latex-escape",
];

/// Earliest publication year accepted.
const MIN_YEAR: i64 = 1900;

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

/// Parses a YYYY-MM-DD calendar date into (year, month, day).
pub fn parse_date(s: &str) -> Option<(i64, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y: i64 = s[0..4].parse().ok()?;
    let m: u32 = s[5..7].parse().ok()?;
    let d: u32 = s[8..10].parse().ok()?;
    if !s[0..4]
        .bytes()
        .chain(s[5..7].bytes())
        .chain(s[8..10].bytes())
        .all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (d >= 1 && d <= days).then_some((y, m, d))
}

/// Edit distance between two short strings (for "did you mean").
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The allowed value closest to what was written, when close enough to be a typo.
pub fn closest<'a>(got: &str, allowed: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = got.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for cand in allowed {
        let cl = cand.to_lowercase();
        let d = if cl == lower {
            0
        } else if cl.starts_with(&lower) && lower.len() >= 3
            || lower.starts_with(&cl) && cl.len() >= 3
        {
            1
        } else {
            levenshtein(&lower, &cl)
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    let limit = (got.chars().count() / 3).max(2);
    best.filter(|(d, _)| *d <= limit).map(|(_, c)| c)
}

/// Lowercase alphanumeric words, for comparing titles.
pub fn normalize_title(t: &str) -> String {
    t.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A URL reduced to what identifies the page (scheme, `www.`, case of the host and trailing `/` ignored).
pub fn normalize_url(u: &str) -> String {
    let u = u.trim();
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
        .unwrap_or(u);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    format!("{host}/{}", path.trim_end_matches('/'))
}

fn arxiv_new_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"^(\d{2})(\d{2})\.(\d{4,5})(v\d+)?$").expect("valid regex"))
}

fn arxiv_old_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"^[a-z][a-z\-]*(\.[A-Z]{2})?/(\d{2})(\d{2})\d{3}(v\d+)?$").expect("valid regex")
    })
}

/// The (year, month) an arXiv id was issued, or None when malformed.
pub fn arxiv_year(id: &str) -> Option<(i64, u32)> {
    let (yy, mm) = if let Some(c) = arxiv_new_re().captures(id) {
        // Five-digit numbers started in January 2015; before that, four.
        let five = c[3].len() == 5;
        if five != (&c[1] >= "15") {
            return None;
        }
        (c[1].parse::<i64>().ok()?, c[2].parse::<u32>().ok()?)
    } else {
        let c = arxiv_old_re().captures(id)?;
        (c[2].parse::<i64>().ok()?, c[3].parse::<u32>().ok()?)
    };
    if !(1..=12).contains(&mm) {
        return None;
    }
    let year = if yy >= 91 { 1900 + yy } else { 2000 + yy };
    Some((year, mm))
}

/// Whether text is an absolute http(s) URL with a host and no spaces.
pub fn is_http_url(u: &str) -> bool {
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"));
    matches!(rest, Some(r) if !r.is_empty() && !r.starts_with('/') && !u.chars().any(char::is_whitespace))
}

fn key_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"^[a-z0-9]+(-[a-z0-9]+)*$").expect("valid regex"))
}

/// Whether a key is lowercase letters, digits and single dashes.
pub fn valid_key(k: &str) -> bool {
    key_re().is_match(k)
}

fn record_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"^E\d{3,}$").expect("valid regex"))
}

fn identifier_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"^(arXiv:\S+|OpenReview:\S+|ACL:\S+|github:[\w.\-]+/[\w.\-]+|[A-Z][A-Z0-9]*(-[A-Z0-9]+)*)$")
            .expect("valid regex")
    })
}

/// Collects diagnostics for one file, locating fields through its spans.
struct Sink<'a> {
    tax: &'a Taxonomy,
    out: Vec<Diagnostic>,
}

/// Allowed values per field, computed once per check rather than per entry.
type Vocab = HashMap<&'static str, Vec<String>>;

fn vocab(tax: &Taxonomy) -> Vocab {
    TAG_FIELDS
        .iter()
        .chain(&EXCLUSION_TAG_FIELDS)
        .map(|f| (*f, tax.allowed(f).unwrap_or_default()))
        .collect()
}

impl Sink<'_> {
    fn at(&self, rule: &str, file: &SourceFile, field: &str, msg: impl Into<String>) -> Diagnostic {
        let severity = self
            .tax
            .rule(rule)
            .map(|r| r.severity.into())
            .unwrap_or(Severity::Error);
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

/// Runs every check on a loaded corpus (loading problems included).
pub fn check(corpus: &Corpus) -> Report {
    let tax = &corpus.taxonomy;
    let mut sink = Sink {
        tax,
        out: corpus.diagnostics.clone(),
    };
    // `load` refuses a taxonomy whose cutoff is no date; a corpus built
    // another way is checked as if it had no cutoff.
    let cutoff = parse_date(&tax.screening.cutoff).unwrap_or((i64::MAX, 12, 31));
    let vocab = vocab(tax);

    for le in &corpus.entries {
        let file = corpus.file(le.file);
        check_entry(&mut sink, &vocab, file, &le.entry, cutoff);
    }
    for lx in &corpus.exclusions {
        let file = corpus.file(lx.file);
        check_exclusion(&mut sink, &vocab, file, &lx.record, cutoff);
    }
    check_across(&mut sink, corpus);
    sink.out.extend(crate::claims::broken(corpus));
    let style = crate::style_rules::check(corpus, &sink.out);
    sink.out.extend(style);

    let mut report = apply_waivers(sink.out, corpus);
    diag::sort(&mut report.diagnostics);
    diag::sort(&mut report.waived);
    report
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
            "unknown-value",
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
    if file.text.lines().next().map(str::trim_end) != Some(crate::schema::MODELINE) {
        let d = sink
            .at(
                "schema-modeline",
                file,
                "",
                "the file does not start with the schema modeline",
            )
            .at_line(Some(1))
            .help(format!("make `{}` the first line", crate::schema::MODELINE));
        sink.push(d);
    }
    if !e.key.is_empty() {
        if !valid_key(&e.key) {
            let d = sink
                .at(
                    "key-format",
                    file,
                    "key",
                    format!(
                        "key `{}` must be lowercase letters, digits and single dashes",
                        e.key
                    ),
                )
                .help(format!("try `{}`", suggest_key(&e.key)));
            sink.push(d);
        }
        if e.key != stem {
            let d = sink
                .at(
                    "key-mismatch",
                    file,
                    "key",
                    format!("key `{}` differs from the file name `{stem}.yaml`", e.key),
                )
                .help(format!(
                    "rename the file to `{}.yaml` or set `key: {stem}`",
                    e.key
                ));
            sink.push(d);
        }
    }
    for field in TAG_FIELDS {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        if field == "subdecisions" {
            for (i, s) in e.subdecisions.iter().enumerate() {
                check_value(sink, file, &format!("subdecisions[{i}]"), s, allowed);
            }
        } else if let Some(crate::filter::FieldValue::One(v)) =
            crate::filter::Fields::field(e, field)
        {
            check_value(sink, file, field, &v, allowed);
        }
    }
    let mut seen_sub = BTreeSet::new();
    for (i, s) in e.subdecisions.iter().enumerate() {
        if !seen_sub.insert(s) {
            let d = sink.at(
                "duplicate-field",
                file,
                &format!("subdecisions[{i}]"),
                format!("sub-decision `{s}` is listed twice"),
            );
            sink.push(d);
        }
    }
    if e.year != 0 && (e.year < MIN_YEAR || e.year > cutoff.0) {
        let d = sink.at(
            "year-range",
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
                        "arxiv-format",
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
                        "arxiv-year",
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
                if !e
                    .urls
                    .iter()
                    .any(|u| normalize_url(u).starts_with("arxiv.org/"))
                {
                    let d = sink
                        .at("arxiv-url-mismatch", file, "urls", format!("arXiv id {id} is set but no link goes to arxiv.org"))
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
                    "url-scheme",
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
            .at("missing-field", file, "urls", "`urls` lists no link")
            .help("add at least one link");
        sink.push(d);
    }
    for rule in &tax.rules {
        let (Some(when), Some(require)) = (&rule.when, &rule.require) else {
            continue;
        };
        // A rule over a field that is missing or blank would only repeat the missing-field error.
        let blank = |f: &Filter| {
            f.conditions.iter().any(|c| {
                matches!(crate::filter::Fields::field(e, &c.field), Some(crate::filter::FieldValue::One(v)) if v.is_empty())
            })
        };
        if blank(when) || blank(require) {
            continue;
        }
        if when.matches(e) {
            if let Some(first) = require.failing(e).first() {
                let d = sink
                    .at(&rule.id, file, &first.field, rule_message(rule, first, e))
                    .maybe_help(require_help(require, e));
                sink.push(d);
            }
        }
    }
}

fn rule_message(rule: &crate::taxonomy::Rule, c: &crate::filter::Condition, e: &Entry) -> String {
    let got = match crate::filter::Fields::field(e, &c.field) {
        Some(crate::filter::FieldValue::One(v)) => v.into_owned(),
        Some(crate::filter::FieldValue::Many(l)) => format!("[{}]", l.join(", ")),
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
    } else if c.values == [crate::filter::EMPTY_LIST] {
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

fn suggest_key(k: &str) -> String {
    let mut s = String::new();
    for c in k.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
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
        if !record_re().is_match(&x.record_id) {
            let d = sink.at(
                "key-format",
                file,
                "record_id",
                format!(
                    "record id `{}` must be E followed by digits, e.g. E033",
                    x.record_id
                ),
            );
            sink.push(d);
        }
        if x.record_id != stem {
            let d = sink
                .at(
                    "key-mismatch",
                    file,
                    "record_id",
                    format!(
                        "record_id `{}` differs from the file name `{stem}.yaml`",
                        x.record_id
                    ),
                )
                .help(format!(
                    "rename the file to `{}.yaml` or set `record_id: {stem}`",
                    x.record_id
                ));
            sink.push(d);
        }
    }
    for field in EXCLUSION_TAG_FIELDS {
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        let v = match field {
            "stage" => &x.stage,
            "source" => &x.source,
            _ => &x.query_family,
        };
        check_value(sink, file, field, v, allowed);
    }
    if !x.url.is_empty() && !is_http_url(&x.url) {
        let d = sink
            .at(
                "url-scheme",
                file,
                "url",
                format!("`{}` is not an http(s) link", x.url),
            )
            .help("write the full address starting with https://");
        sink.push(d);
    }
    if !x.identifier.is_empty() {
        if !identifier_re().is_match(&x.identifier) {
            let d = sink
                .at("identifier-format", file, "identifier", format!("identifier `{}` has no recognised form", x.identifier))
                .help("use arXiv:2305.14325, OpenReview:<id>, ACL:<anthology id>, github:<owner>/<repo> or an upper-case id like CREWAI-DOCS");
            sink.push(d);
        } else if let Some(id) = x.identifier.strip_prefix("arXiv:") {
            if arxiv_year(id).is_none() {
                let d = sink
                    .at(
                        "arxiv-format",
                        file,
                        "identifier",
                        format!("`{id}` is not an arXiv id"),
                    )
                    .help(arxiv_help(id));
                sink.push(d);
            }
        }
    }
    if !x.date_screened.is_empty() {
        match parse_date(&x.date_screened) {
            None => {
                let d = sink
                    .at(
                        "date-invalid",
                        file,
                        "date_screened",
                        format!("`{}` is not a calendar date", x.date_screened),
                    )
                    .help("write YYYY-MM-DD, e.g. 2026-04-26");
                sink.push(d);
            }
            Some(date) if date > cutoff => {
                let d = sink.at(
                    "date-after-cutoff",
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
                    "duplicate-key",
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
                    "duplicate-arxiv",
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
                    "duplicate-url",
                    file,
                    &format!("urls[{i}]"),
                    format!("link `{u}` is listed twice"),
                );
                sink.push(d);
                continue;
            }
            if let Some(first) = urls.get(&norm) {
                let d = sink.at(
                    "duplicate-url",
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
                    "duplicate-title",
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
    for lx in &corpus.exclusions {
        let x = &lx.record;
        let file = corpus.file(lx.file);
        if !x.record_id.is_empty() {
            if let Some(first) = ids.insert(&x.record_id, &file.rel) {
                let d = sink.at(
                    "duplicate-key",
                    file,
                    "record_id",
                    format!("record id `{}` is also used by {first}", x.record_id),
                );
                sink.push(d);
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
                    "excluded-retained",
                    file,
                    field,
                    format!("record {} is also retained as {entry_file}", x.record_id),
                )
                .help("keep it in one place: delete the exclusion record or the entry");
            sink.push(d);
        }
    }
}

fn strip_version(id: &str) -> &str {
    match id.rfind('v') {
        Some(i) if i > 0 && id[i + 1..].bytes().all(|b| b.is_ascii_digit()) && i + 1 < id.len() => {
            &id[..i]
        }
        _ => id,
    }
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
                .is_some_and(|(e, _)| e.waivers.contains_key(&d.rule));
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
    };
    for (rel, (e, file)) in &by_file {
        for (rule, reason) in &e.waivers {
            let path = format!("waivers.{rule}");
            let problem = match tax.rule(rule) {
                None => Some(format!("waiver names `{rule}`, which is not a rule")),
                Some(r) if Severity::from(r.severity) == Severity::Error => {
                    Some(format!("`{rule}` is an error and cannot be waived"))
                }
                Some(_) if !used.contains(&(rel.to_string(), rule.clone())) => Some(format!(
                    "waiver for `{rule}` is unused: the rule does not fire on this entry"
                )),
                Some(_) if reason.trim().is_empty() => {
                    Some(format!("waiver for `{rule}` gives no reason"))
                }
                Some(_) => None,
            };
            if let Some(msg) = problem {
                let mut d = sink.at("waiver-unused", file, &path, msg).field("waivers");
                if tax.rule(rule).is_none() {
                    let names = tax.rules.iter().map(|r| r.id.as_str());
                    if let Some(c) = closest(rule, names) {
                        d = d.help(format!("did you mean `{c}`?"));
                    }
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
        let text = include_str!("../corpus/taxonomy.yaml");
        let tax = Taxonomy::from_yaml(text).unwrap();
        for id in BUILTIN_RULES {
            assert!(
                tax.rule(id).is_some(),
                "built-in rule `{id}` is missing from corpus/taxonomy.yaml"
            );
        }
    }

    #[test]
    fn dates_are_real_calendar_dates() {
        assert_eq!(parse_date("2026-05-04"), Some((2026, 5, 4)));
        assert_eq!(parse_date("2024-02-29"), Some((2024, 2, 29)));
        assert_eq!(parse_date("2026-02-29"), None);
        assert_eq!(parse_date("2026-13-01"), None);
        assert_eq!(parse_date("26-01-01"), None);
        assert_eq!(parse_date("2026-1a-01"), None);
    }

    #[test]
    fn arxiv_ids_give_their_year() {
        assert_eq!(arxiv_year("2508.04652"), Some((2025, 8)));
        assert_eq!(arxiv_year("1706.02275v3"), Some((2017, 6)));
        assert_eq!(arxiv_year("cs/0701001"), Some((2007, 1)));
        assert_eq!(arxiv_year("hep-th/9901001"), Some((1999, 1)));
        assert_eq!(arxiv_year("2513.00001"), None);
        assert_eq!(arxiv_year("2508.0465"), None);
        assert_eq!(arxiv_year("arXiv:2508.04652"), None);
    }

    #[test]
    fn closest_suggests_only_plausible_typos() {
        let allowed = ["shared", "individual", "role", "NA"];
        assert_eq!(closest("shard", allowed), Some("shared"));
        assert_eq!(closest("na", allowed), Some("NA"));
        assert_eq!(closest("xyzzy-quux", allowed), None);
    }

    #[test]
    fn normalisation_ignores_case_punctuation_scheme_and_slashes() {
        assert_eq!(
            normalize_title("MARFT: Multi-Agent  RFT"),
            normalize_title("marft multi agent rft")
        );
        assert_eq!(
            normalize_url("http://www.Example.org/a/"),
            normalize_url("https://example.org/a")
        );
        assert!(is_http_url("https://arxiv.org/abs/1"));
        assert!(!is_http_url("ftp://x.org"));
        assert!(!is_http_url("https://"));
        assert!(!is_http_url("https://a b"));
    }

    #[test]
    fn versions_are_ignored_when_comparing_arxiv_ids() {
        assert_eq!(strip_version("2508.04652v2"), "2508.04652");
        assert_eq!(strip_version("2508.04652"), "2508.04652");
    }
}
