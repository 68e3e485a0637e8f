//! What the checks judge, derived once per entry and record just before its
//! rules run: ids and whether they are well formed, tag values against the
//! vocabulary, dates, arXiv ids, links and titles normalized, the taxonomy's
//! own rules an entry breaks and the invisible characters in its values.
//!
//! Every leaf helper (`text::ids`, `model::dates`, the field table, filters,
//! a file's text) is asked here, in one pass, so the rules in `check` only
//! judge these values; the rules across files compare the same normalized
//! values the rules of one file read, and nothing is normalized twice.

use super::corpus::{Corpus, LoadedEntry, LoadedExclusion};
use super::dates::parse_date;
use super::fields::{self, MODELINE};
use super::filter::{Condition, FieldValue, Fields, Filter};
use super::taxonomy::{Rule, Taxonomy};
use super::{Entry, Exclusion, JUDGED_TAGS};
use crate::text::closest::closest;
use crate::text::ids::{normalize_title, valid_cite_key, valid_identifier, ArxivId, IdForm, Link};
use crate::text::visible::hidden_values;
use crate::yaml::source::SourceFile;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A calendar day as `model::dates` parses it.
pub type Date = (i64, u32, u32);

/// Allowed values per tag field, looked up once per check rather than per entry.
type Vocab = HashMap<&'static str, Vec<String>>;

/// What deriving the facts of an entry or a record needs of the corpus
/// (its cutoff, vocabulary and usable rules), prepared once. The check
/// derives the facts of a block of items at a time, on every core, and lets
/// them go once judged, so a large corpus never holds the facts of all its
/// items at once.
pub struct Deriver<'a> {
    corpus: &'a Corpus,
    cutoff: Date,
    vocab: Vocab,
    rules: Vec<(&'a Rule, &'a Filter, &'a Filter)>,
    /// The search cutoff as the taxonomy writes it.
    pub cutoff_text: &'a str,
}

/// Where an item was read.
pub struct Origin<'a> {
    /// The file's text and the positions of its fields.
    pub source: &'a SourceFile,
    /// The index of its file in `Corpus::files`.
    pub file: usize,
    /// The file's path from the root.
    pub rel: &'a str,
    /// The file's name without `.yaml`, which the item's id must equal.
    pub stem: &'a str,
}

/// One tag value as written, against the taxonomy's vocabulary.
pub struct TagValue<'a> {
    /// The field, with the index of the value in a list (`subdecisions[1]`).
    pub path: Cow<'static, str>,
    /// The field alone.
    pub field: &'static str,
    /// The value as written.
    pub value: Cow<'a, str>,
    /// Set when the vocabulary does not hold a non-empty value.
    pub unknown: Option<Unknown>,
    /// Whether the same list holds the value already.
    pub repeated: bool,
}

/// The vocabulary around a value it does not hold.
pub struct Unknown {
    /// The allowed value nearest to what was written.
    pub nearest: Option<String>,
    /// Every allowed value, for when none is near.
    pub allowed: Vec<String>,
}

/// A rule of the taxonomy (`when`/`require`) an entry breaks.
pub struct Failing<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// The first condition of `require` the entry fails.
    pub condition: &'a Condition,
    /// The value the entry has in that condition's field, as text.
    pub got: String,
}

/// What the rules of one entry file judge.
pub struct EntryFacts<'a> {
    /// The entry itself.
    pub entry: &'a Entry,
    /// Its file.
    pub origin: Origin<'a>,
    /// The latest date its round allows (none outside the survey's pool).
    pub cutoff: Date,
    /// Whether the file starts with the schema modeline.
    pub modeline: bool,
    /// Whether `urls` is written but lists nothing.
    pub urls_written_empty: bool,
    /// Whether `arxiv_verified_on`, when given, is a calendar date.
    pub verified_on_valid: bool,
    /// The key beside the file's name.
    pub key: IdForm,
    /// Every judged or single tag value, in the field table's order.
    pub tags: Vec<TagValue<'a>>,
    /// The further credit units (none when not judged).
    pub additional_units: &'a [String],
    /// The arXiv id, when given.
    pub arxiv: Option<ArxivId>,
    /// Every link of `urls`, in order.
    pub urls: Vec<Link>,
    /// The title as the duplicate rule compares it.
    pub title: String,
    /// Whether `cite_key`, when given, is one BibTeX key.
    pub cite_key_valid: bool,
    /// The key the survey cites the entry by.
    pub citation_key: &'a str,
    /// Text values holding an invisible character, with the first such character.
    pub hidden: Vec<(String, char)>,
    /// The taxonomy's rules the entry breaks.
    pub failing: Vec<Failing<'a>>,
}

/// What the rules of one exclusion record file judge.
pub struct RecordFacts<'a> {
    /// The record itself.
    pub record: &'a Exclusion,
    /// Its file.
    pub origin: Origin<'a>,
    /// The latest screening date its round allows.
    pub cutoff: Date,
    /// The record id beside the file's name.
    pub id: IdForm,
    /// Every single tag value, `added_in` last.
    pub tags: Vec<TagValue<'a>>,
    /// The link.
    pub url: Link,
    /// Whether the identifier has a recognised form.
    pub identifier_valid: bool,
    /// The arXiv id of an `arXiv:` identifier.
    pub arxiv: Option<ArxivId>,
    /// The identifier as the duplicate rules compare it (arXiv ids without version).
    pub identifier: String,
    /// `date_screened` parsed; none when it is no calendar date.
    pub screened: Option<Date>,
    /// The title as the duplicate rules compare it.
    pub title: String,
    /// Text values holding an invisible character, with the first such character.
    pub hidden: Vec<(String, char)>,
}

impl<'a> Deriver<'a> {
    /// Prepares the derivation of the facts of `corpus`'s items.
    pub fn new(corpus: &'a Corpus) -> Deriver<'a> {
        let tax = &corpus.taxonomy;
        Deriver {
            corpus,
            // `load` refuses a taxonomy whose cutoff is no date; a corpus
            // built another way is checked as if it had no cutoff.
            cutoff: parse_date(&tax.screening.cutoff).unwrap_or(NO_CUTOFF),
            vocab: vocab(tax),
            rules: usable_rules(tax),
            cutoff_text: &tax.screening.cutoff,
        }
    }

    /// The cutoff bounds the survey's search; an item of a later round may
    /// be younger than it.
    fn cutoff_of(&self, added_in: Option<&str>) -> Date {
        if self.corpus.in_survey_pool(added_in) {
            self.cutoff
        } else {
            NO_CUTOFF
        }
    }

    /// The facts of one loaded entry.
    pub fn entry(&self, le: &'a LoadedEntry) -> EntryFacts<'a> {
        let cutoff = self.cutoff_of(le.entry.added_in.as_deref());
        let origin = origin_of(le.file, self.corpus.file(le.file));
        EntryFacts::derive(&le.entry, origin, cutoff, &self.vocab, &self.rules)
    }

    /// The facts of one loaded exclusion record.
    pub fn record(&self, lx: &'a LoadedExclusion) -> RecordFacts<'a> {
        let cutoff = self.cutoff_of(lx.record.added_in.as_deref());
        let origin = origin_of(lx.file, self.corpus.file(lx.file));
        RecordFacts::derive(&lx.record, origin, cutoff, &self.vocab)
    }
}

/// The date of an item no cutoff bounds.
const NO_CUTOFF: Date = (i64::MAX, 12, 31);

fn origin_of(index: usize, file: &SourceFile) -> Origin<'_> {
    let rel = file.rel.as_str();
    let name = rel.rsplit('/').next().unwrap_or(rel);
    Origin {
        source: file,
        file: index,
        rel,
        stem: name.strip_suffix(".yaml").unwrap_or(name),
    }
}

fn vocab(tax: &Taxonomy) -> Vocab {
    fields::entry_tags()
        .chain(fields::record_tags())
        .map(|f| (f, tax.allowed(f).unwrap_or_default()))
        .collect()
}

/// The taxonomy's `when`/`require` rules, leaving out those whose filters
/// name a value outside the vocabulary (`load` reports them): applied, they
/// would blame entries for the rule's own mistake, so they wait until fixed.
fn usable_rules(tax: &Taxonomy) -> Vec<(&Rule, &Filter, &Filter)> {
    let broken: HashSet<&str> = tax
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
    tax.rules
        .iter()
        .filter(|r| !broken.contains(r.id.as_str()))
        .filter_map(|r| Some((r, r.when.as_ref()?, r.require.as_ref()?)))
        .collect()
}

impl<'a> EntryFacts<'a> {
    /// Reads the model first (the field table, filters, dates), then the
    /// file, then the syntax of what the entry writes.
    fn derive(
        e: &'a Entry,
        origin: Origin<'a>,
        cutoff: Date,
        vocab: &Vocab,
        rules: &[(&'a Rule, &'a Filter, &'a Filter)],
    ) -> EntryFacts<'a> {
        let file = origin.source;
        let failing = failing_rules(e, rules);
        let mut tags = entry_tags(e, vocab);
        let verified_on_valid = e
            .arxiv_verified_on
            .as_deref()
            .is_none_or(|day| parse_date(day).is_some());
        let additional_units = e.additional_units();
        let citation_key = e.citation_key();
        let urls_written_empty = e.urls.is_empty() && file.spans().pos(fields::URLS).is_some();
        for t in &mut tags {
            if let Some(u) = &mut t.unknown {
                u.nearest =
                    closest(&t.value, u.allowed.iter().map(String::as_str)).map(str::to_string);
            }
        }
        EntryFacts {
            entry: e,
            cutoff,
            modeline: file.text.lines().next().map(str::trim_end) == Some(MODELINE),
            urls_written_empty,
            verified_on_valid,
            key: IdForm::key(&e.key, origin.stem),
            tags,
            additional_units,
            arxiv: e.arxiv_id.as_deref().map(ArxivId::read),
            urls: e.urls.iter().map(|u| Link::read(u)).collect(),
            title: normalize_title(&e.title),
            cite_key_valid: e.cite_key.as_deref().is_none_or(valid_cite_key),
            citation_key,
            hidden: hidden_values(&file.text, e),
            failing,
            origin,
        }
    }
}

impl<'a> RecordFacts<'a> {
    /// Reads the model first (the field table, dates), then the syntax of
    /// what the record writes.
    fn derive(
        x: &'a Exclusion,
        origin: Origin<'a>,
        cutoff: Date,
        vocab: &Vocab,
    ) -> RecordFacts<'a> {
        let file = origin.source;
        let mut tags = record_tags(x, vocab);
        let screened = parse_date(&x.date_screened);
        for t in &mut tags {
            if let Some(u) = &mut t.unknown {
                u.nearest =
                    closest(&t.value, u.allowed.iter().map(String::as_str)).map(str::to_string);
            }
        }
        let arxiv = x.identifier.strip_prefix("arXiv:").map(ArxivId::read);
        let identifier = match &arxiv {
            Some(id) => format!("arXiv:{}", id.unversioned),
            None => x.identifier.clone(),
        };
        RecordFacts {
            record: x,
            cutoff,
            id: IdForm::record_id(&x.record_id, origin.stem),
            tags,
            url: Link::read(&x.url),
            identifier_valid: valid_identifier(&x.identifier),
            arxiv,
            identifier,
            screened,
            title: normalize_title(&x.title),
            hidden: hidden_values(&file.text, x),
            origin,
        }
    }
}

/// Every taxonomy rule whose `when` matches the entry and whose `require` fails.
fn failing_rules<'a>(e: &Entry, rules: &[(&'a Rule, &'a Filter, &'a Filter)]) -> Vec<Failing<'a>> {
    // A rule over a field that is missing or blank would only repeat the missing-field error.
    let blank = |f: &Filter| {
        f.conditions
            .iter()
            .any(|c| matches!(e.field(&c.field), Some(FieldValue::One(v)) if v.is_empty()))
    };
    let mut out = Vec::new();
    for &(rule, when, require) in rules {
        if blank(when) || blank(require) || !when.matches(e) {
            continue;
        }
        if let Some(&condition) = require.failing(e).first() {
            let got = match e.field(&condition.field) {
                Some(FieldValue::One(v)) => v.into_owned(),
                Some(FieldValue::Many(l)) => format!("[{}]", l.join(", ")),
                None => String::new(),
            };
            out.push(Failing {
                rule,
                condition,
                got,
            });
        }
    }
    out
}

/// The tag values of an entry; a judged tag nobody judged reads
/// `not_judged` to filters, and its file holds no value to check.
fn entry_tags<'a>(e: &'a Entry, vocab: &Vocab) -> Vec<TagValue<'a>> {
    let mut out = Vec::new();
    for field in fields::entry_tags() {
        if !e.is_judged(field) && JUDGED_TAGS.iter().any(|(t, _)| *t == field) {
            continue;
        }
        let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
        match e.field(field) {
            Some(FieldValue::Many(list)) => {
                let mut seen = BTreeSet::new();
                for (i, s) in list.iter().enumerate() {
                    let path = format!("{field}[{i}]").into();
                    let mut v = tag_value(path, field, s.into(), allowed);
                    v.repeated = !seen.insert(s);
                    out.push(v);
                }
            }
            Some(FieldValue::One(v)) => out.push(tag_value(field.into(), field, v, allowed)),
            None => {}
        }
    }
    out
}

/// The single tag values of a record, and the round it was added in.
fn record_tags<'a>(x: &'a Exclusion, vocab: &Vocab) -> Vec<TagValue<'a>> {
    fields::record_tags()
        .chain([fields::ADDED_IN])
        .filter_map(|field| match x.field(field) {
            Some(FieldValue::One(v)) => {
                let allowed = vocab.get(field).map(Vec::as_slice).unwrap_or(&[]);
                Some(tag_value(field.into(), field, v, allowed))
            }
            _ => None,
        })
        .collect()
}

fn tag_value<'a>(
    path: Cow<'static, str>,
    field: &'static str,
    value: Cow<'a, str>,
    allowed: &[String],
) -> TagValue<'a> {
    let unknown = (!value.is_empty() && !allowed.iter().any(|a| *a == value)).then(|| Unknown {
        nearest: None,
        allowed: allowed.to_vec(),
    });
    TagValue {
        path,
        field,
        value,
        unknown,
        repeated: false,
    }
}
