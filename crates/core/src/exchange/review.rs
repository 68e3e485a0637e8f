//! What a change does to the checks themselves, for review: claims whose
//! definition moved (expectation, statement, source, pool, coverage,
//! filter), taxonomy rules added, removed or rewritten, severities,
//! vocabulary values, the survey's rounds and the templates. A pull request
//! can pass `check` by weakening a check as well as by fixing the data, so
//! these are listed before the data changes, old and new side by side.

use crate::model::claims::{Claim, Coverage, Expect};
use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::model::taxonomy::{Rule, RuleSeverity, Taxonomy};
use crate::text::markdown::{code_span, escape_markdown};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One edit of a check: what (a claim id, a rule id, a field, a template),
/// which aspect moved, and its old and new text (empty when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// The claim, rule, vocabulary field or template.
    pub id: String,
    /// What changed: `expectation`, `statement`, `severity`, `value removed`, …
    pub aspect: String,
    /// Before.
    pub old: String,
    /// After.
    pub new: String,
}

/// Every edit of the checks, by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Review {
    /// Claims of the ledger: added, removed, or a definition moved.
    pub claims: Vec<Edit>,
    /// Taxonomy rules: added, removed, or their sentence, filter or requirement moved.
    pub rules: Vec<Edit>,
    /// Rule severities.
    pub severities: Vec<Edit>,
    /// Vocabulary values added or removed, and the survey's rounds.
    pub vocabularies: Vec<Edit>,
    /// Templates added, removed or changed.
    pub templates: Vec<Edit>,
}

impl Review {
    /// Whether no check moved.
    pub fn is_empty(&self) -> bool {
        self.sections().iter().all(|(_, e)| e.is_empty())
    }

    /// The kinds in the order a reviewer reads them, with their headings.
    pub fn sections(&self) -> [(&'static str, &Vec<Edit>); 5] {
        [
            ("Claim definitions", &self.claims),
            ("Taxonomy rules", &self.rules),
            ("Severities", &self.severities),
            ("Vocabularies", &self.vocabularies),
            ("Templates", &self.templates),
        ]
    }
}

fn edit(id: &str, aspect: &str, old: impl Into<String>, new: impl Into<String>) -> Edit {
    Edit {
        id: id.to_string(),
        aspect: aspect.to_string(),
        old: old.into(),
        new: new.into(),
    }
}

/// The expectation as written: `== 84`, or `keys a, b`.
fn expectation(e: &Expect) -> String {
    e.to_string()
}

fn coverage(c: &Option<Coverage>) -> String {
    c.as_ref()
        .map(|c| format!("{} among {}", c.field, c.among))
        .unwrap_or_default()
}

/// The aspects of a claim's definition, each as text, in review order.
fn aspects(c: &Claim) -> [(&'static str, String); 7] {
    [
        ("expectation", expectation(&c.expect)),
        ("statement", c.statement.clone()),
        ("source", c.source.clone()),
        ("pool", c.pool.name().to_string()),
        ("coverage", coverage(&c.coverage)),
        ("where", c.filter.to_string()),
        (
            "over",
            serde_json::to_value(c.over)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
        ),
    ]
}

/// The claims of a corpus by id.
fn claims(c: &Corpus) -> BTreeMap<&str, &Claim> {
    c.claims
        .iter()
        .flat_map(|(l, _)| &l.claims)
        .map(|c| (c.id.as_str(), c))
        .collect()
}

/// The first error that keeps a corpus's ledger from loading, if any.
fn ledger_error(c: &Corpus) -> Option<String> {
    if c.claims.is_some() {
        return None;
    }
    c.diagnostics
        .iter()
        .find(|d| d.file == crate::layout::Layout::CLAIMS && d.fails(false))
        .map(|d| d.message.clone())
}

/// Every claim whose definition moved, aspect by aspect. A ledger that
/// no longer loads is one edit, not every claim removed.
pub fn claim_edits(old: &Corpus, new: &Corpus) -> Vec<Edit> {
    match (ledger_error(old), ledger_error(new)) {
        (_, Some(e)) => {
            return vec![edit(
                crate::layout::Layout::CLAIMS,
                "ledger no longer loads",
                "",
                e,
            )]
        }
        (Some(e), None) => {
            return vec![edit(
                crate::layout::Layout::CLAIMS,
                "ledger loads again",
                e,
                "",
            )]
        }
        (None, None) => {}
    }
    let (o, n) = (claims(old), claims(new));
    let ids: BTreeSet<&str> = o.keys().chain(n.keys()).copied().collect();
    let mut out = Vec::new();
    for id in ids {
        match (o.get(id), n.get(id)) {
            (Some(a), Some(b)) => {
                for ((aspect, x), (_, y)) in aspects(a).into_iter().zip(aspects(b)) {
                    if x != y {
                        out.push(edit(id, aspect, x, y));
                    }
                }
            }
            (Some(a), None) => out.push(edit(id, "claim removed", expectation(&a.expect), "")),
            (None, Some(b)) => out.push(edit(id, "claim added", "", expectation(&b.expect))),
            (None, None) => {}
        }
    }
    out
}

fn severity(s: RuleSeverity) -> &'static str {
    match s {
        RuleSeverity::Error => "error",
        RuleSeverity::Warning => "warning",
    }
}

fn filter_text(f: &Option<crate::model::filter::Filter>) -> String {
    f.as_ref().map(|f| f.to_string()).unwrap_or_default()
}

/// Rules added, removed or rewritten, and severities that moved.
fn rule_edits(old: &Taxonomy, new: &Taxonomy, review: &mut Review) {
    let by_id = |t: &'_ Taxonomy| -> BTreeMap<String, Rule> {
        t.rules.iter().map(|r| (r.id.clone(), r.clone())).collect()
    };
    let (o, n) = (by_id(old), by_id(new));
    let ids: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    for id in ids {
        match (o.get(id), n.get(id)) {
            (Some(a), Some(b)) => {
                if a.severity != b.severity {
                    review.severities.push(edit(
                        id,
                        "severity",
                        severity(a.severity),
                        severity(b.severity),
                    ));
                }
                for (aspect, x, y) in [
                    ("when", filter_text(&a.when), filter_text(&b.when)),
                    ("require", filter_text(&a.require), filter_text(&b.require)),
                    ("sentence", a.sentence.clone(), b.sentence.clone()),
                ] {
                    if x != y {
                        review.rules.push(edit(id, aspect, x, y));
                    }
                }
            }
            (Some(a), None) => review.rules.push(edit(
                id,
                "rule removed",
                format!("{}: {}", severity(a.severity), a.sentence),
                "",
            )),
            (None, Some(b)) => review.rules.push(edit(
                id,
                "rule added",
                "",
                format!("{}: {}", severity(b.severity), b.sentence),
            )),
            (None, None) => {}
        }
    }
}

/// The vocabularies a change can move, by the name a reviewer knows.
fn vocabularies(t: &Taxonomy) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = fields::entry_tags()
        .chain(fields::record_tags())
        .chain(["claim_source"])
        .map(|f| (f.to_string(), t.values(f).unwrap_or_default()))
        .collect();
    out.insert("na".into(), vec![t.na.clone()]);
    for f in &t.reward_families {
        out.insert(format!("reward family {}", f.id), f.reward_types.clone());
    }
    out.insert(
        "open round".into(),
        t.open_round().map(|r| r.id.clone()).into_iter().collect(),
    );
    out
}

fn vocabulary_edits(old: &Corpus, new: &Corpus) -> Vec<Edit> {
    let (o, n) = (vocabularies(&old.taxonomy), vocabularies(&new.taxonomy));
    let mut out = Vec::new();
    let names: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    let empty = Vec::new();
    for name in names {
        let (a, b) = (o.get(name).unwrap_or(&empty), n.get(name).unwrap_or(&empty));
        for v in a.iter().filter(|v| !b.contains(v)) {
            out.push(edit(name, "value removed", v.clone(), ""));
        }
        for v in b.iter().filter(|v| !a.contains(v)) {
            out.push(edit(name, "value added", "", v.clone()));
        }
    }
    let rounds = |c: &Corpus| c.survey_rounds().map(|r| r.join(", ")).unwrap_or_default();
    if rounds(old) != rounds(new) {
        out.push(edit(
            "survey",
            "rounds of the pool",
            rounds(old),
            rounds(new),
        ));
    }
    out
}

/// How many lines of `b` are not lines of `a` and the other way round.
fn lines_moved(a: &str, b: &str) -> (usize, usize) {
    fn count(t: &str) -> BTreeMap<&str, i64> {
        let mut m: BTreeMap<&str, i64> = BTreeMap::new();
        for l in t.lines() {
            *m.entry(l).or_default() += 1;
        }
        m
    }
    let (x, y) = (count(a), count(b));
    let gone = x
        .iter()
        .map(|(l, n)| (n - y.get(l).copied().unwrap_or(0)).max(0))
        .sum::<i64>();
    let came = y
        .iter()
        .map(|(l, n)| (n - x.get(l).copied().unwrap_or(0)).max(0))
        .sum::<i64>();
    (gone as usize, came as usize)
}

/// Templates added, removed or changed (by how many lines).
pub fn template_edits(old: &[(String, String)], new: &[(String, String)]) -> Vec<Edit> {
    let (o, n): (BTreeMap<_, _>, BTreeMap<_, _>) = (
        old.iter().map(|(k, v)| (k, v)).collect(),
        new.iter().map(|(k, v)| (k, v)).collect(),
    );
    let names: BTreeSet<&String> = o.keys().chain(n.keys()).copied().collect();
    let mut out = Vec::new();
    for name in names {
        match (o.get(name), n.get(name)) {
            (Some(a), Some(b)) if a != b => {
                let (gone, came) = lines_moved(a, b);
                out.push(edit(
                    name,
                    "changed",
                    format!("{gone} line(s) removed"),
                    format!("{came} line(s) added"),
                ));
            }
            (Some(_), None) => out.push(edit(name, "template removed", "present", "")),
            (None, Some(_)) => out.push(edit(name, "template added", "", "present")),
            _ => {}
        }
    }
    out
}

/// Every edit of the checks between two corpora (templates are added by
/// the caller, which read them).
pub fn review(old: &Corpus, new: &Corpus) -> Review {
    let mut r = Review {
        claims: claim_edits(old, new),
        vocabularies: vocabulary_edits(old, new),
        ..Review::default()
    };
    rule_edits(&old.taxonomy, &new.taxonomy, &mut r);
    r
}

/// "expectation changed", "rule removed", "value added".
fn what(aspect: &str) -> String {
    if aspect.ends_with(" added")
        || aspect.ends_with(" removed")
        || aspect.starts_with("ledger ")
        || aspect == "changed"
    {
        aspect.to_string()
    } else {
        format!("{aspect} changed")
    }
}

fn cell(s: &str) -> String {
    if s.is_empty() {
        "–".to_string()
    } else {
        escape_markdown(s)
    }
}

/// The review as Markdown sections, each under its own heading.
pub fn markdown(r: &Review) -> String {
    let mut out = String::new();
    for (title, edits) in r.sections() {
        if edits.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n### {title}\n\n| | change | old | new |\n|---|---|---|---|\n"
        ));
        for e in edits {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                code_span(&e.id),
                escape_markdown(&what(&e.aspect)),
                cell(&e.old),
                cell(&e.new)
            ));
        }
    }
    out
}

/// The review as plain lines for a terminal.
pub fn text(r: &Review) -> String {
    let mut out = String::new();
    let kinds = ["claim", "rule", "rule", "vocabulary", "template"];
    for ((_, edits), kind) in r.sections().into_iter().zip(kinds) {
        for e in edits {
            let what = what(&e.aspect);
            let show = |s: &str| {
                if s.is_empty() {
                    "–".to_string()
                } else {
                    s.to_string()
                }
            };
            out.push_str(&format!(
                "{kind} {}: {what}: {} → {}\n",
                e.id,
                show(&e.old),
                show(&e.new)
            ));
        }
    }
    out
}
