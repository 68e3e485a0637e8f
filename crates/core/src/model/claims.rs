//! The claims ledger (`corpus/claims.yaml`): the survey's sentences about
//! counts, written as filters with an expected result, and evaluated on every
//! check so that a sentence cannot drift from the data unnoticed.

use crate::layout::Layout;
use crate::model::fields;
use crate::model::filter::{Fields, Filter};
use crate::model::{Entry, Exclusion};
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a claim counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Over {
    /// Retained entries.
    #[default]
    Entries,
    /// Records of the exclusion log.
    Exclusions,
    /// Entries and records together (the audited pool).
    Audited,
}

/// Which list a claim counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Pool {
    /// The survey's pool: the entries and records of the survey's rounds.
    #[default]
    Survey,
    /// The living list: every entry and record, later rounds included.
    Living,
}

impl Pool {
    /// Its name as written in the ledger.
    pub fn name(self) -> &'static str {
        match self {
            Pool::Survey => "survey",
            Pool::Living => "living",
        }
    }
}

/// The expected outcome: a comparison with a count, or an exact set of keys.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `== N`, `<= N` or `>= N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// Exactly these keys (or record ids) match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<String>>,
}

impl std::fmt::Display for Expect {
    /// The expectation as written: `== 84`, or `keys a, b`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.count, &self.keys) {
            (Some(n), None) => write!(f, "{}", n.trim()),
            (None, Some(k)) => write!(f, "keys {}", k.join(", ")),
            (Some(n), Some(k)) => write!(f, "{} and keys {}", n.trim(), k.join(", ")),
            (None, None) => Ok(()),
        }
    }
}

/// The judged-tag coverage a claim needs: every entry matching `among` has
/// `field` judged, or the claim fails instead of holding by construction.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Coverage {
    /// A judged tag: subdecisions, strict_credit or additional_credit_units.
    pub field: String,
    /// The entries that must all have it judged.
    #[serde(default)]
    pub among: Filter,
}

/// One claim of the ledger.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Stable id.
    pub id: String,
    /// Where the claim comes from (an id of the taxonomy's claim_sources).
    pub source: String,
    /// Where in the source it is stated: a file and a place in it (a
    /// section, a table row, a sentence).
    pub locator: String,
    /// The sentence, in the project's words, keeping the source's limits.
    pub statement: String,
    /// What is counted.
    #[serde(default)]
    pub over: Over,
    /// Which list is counted: the survey's pool (default) or the living list.
    #[serde(default, skip_serializing_if = "is_survey")]
    pub pool: Pool,
    /// Which entries or records count (all conditions must hold).
    #[serde(default, rename = "where")]
    pub filter: Filter,
    /// What the count must be.
    pub expect: Expect,
    /// Judged-tag coverage the claim needs to mean anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// What the claim does not mean.
    pub boundary: String,
    /// A remark shown with the claim (for example, how two sources differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_survey(p: &Pool) -> bool {
    *p == Pool::Survey
}

/// The ledger file.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    /// Claims in file order.
    pub claims: Vec<Claim>,
}

/// A comparison operator of a count expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Exactly.
    Eq,
    /// At most.
    Le,
    /// At least.
    Ge,
}

/// Parses `== 84`, `<= 2`, `>= 1` (or a bare number, meaning `==`).
pub fn parse_count(s: &str) -> Option<(Op, u64)> {
    let s = s.trim();
    let (op, rest) = if let Some(r) = s.strip_prefix("==") {
        (Op::Eq, r)
    } else if let Some(r) = s.strip_prefix("<=") {
        (Op::Le, r)
    } else if let Some(r) = s.strip_prefix(">=") {
        (Op::Ge, r)
    } else {
        (Op::Eq, s)
    };
    Some((op, rest.trim().parse().ok()?))
}

/// The result of evaluating one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Claim id.
    pub id: String,
    /// Where the claim comes from.
    pub source: String,
    /// Where in the source it is stated.
    pub locator: String,
    /// The statement.
    pub statement: String,
    /// The list it was counted over.
    pub pool: Pool,
    /// The expectation as written (`== 84`, or the key list).
    pub expected: String,
    /// The actual count.
    pub actual: u64,
    /// Whether the expectation holds.
    pub holds: bool,
    /// Keys (or record ids) that match, sorted.
    pub matching: Vec<String>,
    /// For key-set claims: expected keys that no longer match.
    pub missing: Vec<String>,
    /// For key-set claims: matching keys that were not expected.
    pub unexpected: Vec<String>,
    /// Judged-tag coverage: (field, judged, of how many entries), when the claim declares one.
    pub coverage: Option<(String, u64, u64)>,
    /// What the claim does not mean.
    pub boundary: String,
    /// A remark shown with the claim.
    pub note: Option<String>,
}

impl Verdict {
    /// Whether the declared coverage is complete (true when none is declared).
    pub fn covered(&self) -> bool {
        self.coverage.as_ref().is_none_or(|(_, j, n)| j == n)
    }
}

/// Parses the ledger text; a parse error is a `claim-invalid` diagnostic.
pub fn parse(text: &str) -> Result<Ledger, Vec<Diagnostic>> {
    crate::yaml::block::from_str(text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, text);
        vec![x.place(Diagnostic::new(
            Rule::ClaimInvalid,
            Rule::ClaimInvalid.default_severity(),
            Layout::CLAIMS,
            format!("the claims ledger cannot be read: {}", x.message),
        ))]
    })
}

/// The line of the claim with this id in the ledger text.
pub fn claim_line(text: &str, id: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ").trim_start();
            t.strip_prefix("id:")
                .is_some_and(|v| v.trim().trim_matches(['"', '\'']) == id)
        })
        .map(|i| i + 1)
}

/// Problems in the claims themselves: unknown fields, values outside the
/// vocabulary (with a taxonomy), malformed expectations, repeated ids.
pub fn validate(
    ledger: &Ledger,
    text: &str,
    tax: Option<&crate::model::taxonomy::Taxonomy>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for c in &ledger.claims {
        let mut problems = Vec::new();
        if !ids.insert(&c.id) {
            problems.push(format!("claim id `{}` is used twice", c.id));
        }
        let sources = tax
            .and_then(|t| t.values("claim_source"))
            .unwrap_or_default();
        if tax.is_some() && !sources.contains(&c.source) {
            problems.push(format!(
                "claim `{}` names source `{}`, which is not one of the taxonomy's claim_sources ({})",
                c.id,
                c.source,
                sources.join(", ")
            ));
        }
        if let Some(cov) = &c.coverage {
            if c.over != Over::Entries {
                problems.push(format!(
                    "claim `{}`: coverage applies to entries only",
                    c.id
                ));
            }
            if !crate::model::JUDGED_TAGS
                .iter()
                .any(|(t, _)| *t == cov.field)
            {
                problems.push(format!(
                    "claim `{}`: coverage field `{}` is not a judged tag ({})",
                    c.id,
                    cov.field,
                    crate::model::JUDGED_TAGS.map(|(t, _)| t).join(", ")
                ));
            }
            for cond in &cov.among.conditions {
                if !crate::model::fields::entry_filter_fields().any(|f| f == cond.field) {
                    problems.push(format!(
                        "claim `{}`: coverage filters on `{}`, which entries do not have",
                        c.id, cond.field
                    ));
                }
            }
        }
        let fields: Vec<&str> = match c.over {
            Over::Entries => crate::model::fields::entry_filter_fields().collect(),
            Over::Exclusions => crate::model::fields::record_filter_fields().collect(),
            Over::Audited => Vec::new(),
        };
        let items = match c.over {
            Over::Exclusions => "exclusion records",
            _ => "entries",
        };
        if c.locator.trim().is_empty() {
            problems.push(format!(
                "claim `{}` gives no locator: name the file and the place in `{}` that states it",
                c.id, c.source
            ));
        }
        for cond in &c.filter.conditions {
            if !fields.contains(&cond.field.as_str()) {
                let hint = crate::text::closest::closest(&cond.field, fields.iter().copied())
                    .map(|f| format!("did you mean `{f}`?"))
                    .unwrap_or_else(|| format!("their fields are {}", fields.join(", ")));
                problems.push(format!(
                    "claim `{}` filters on `{}`, which {items} do not have; {hint}",
                    c.id, cond.field
                ));
            }
        }
        if let Some(tax) = tax {
            for p in tax.filter_problems(&c.filter) {
                problems.push(format!("claim `{}`: {p}", c.id));
            }
        }
        match (&c.expect.count, &c.expect.keys) {
            (Some(n), None) if parse_count(n).is_none() => problems.push(format!(
                "claim `{}`: count `{n}` is not `== N`, `<= N` or `>= N`",
                c.id
            )),
            (Some(_), Some(_)) | (None, None) => problems.push(format!(
                "claim `{}` needs exactly one of expect.count or expect.keys",
                c.id
            )),
            _ => {}
        }
        for p in problems {
            out.push(
                Diagnostic::new(
                    Rule::ClaimInvalid,
                    Rule::ClaimInvalid.default_severity(),
                    Layout::CLAIMS,
                    p,
                )
                .at_line(claim_line(text, &c.id))
                .field(format!("claims.{}", c.id)),
            );
        }
    }
    out
}

/// Evaluates one claim on the entries and records of a corpus.
pub fn evaluate(claim: &Claim, entries: &[&Entry], records: &[&Exclusion]) -> Verdict {
    let mut matching: Vec<String> = match claim.over {
        Over::Entries => entries
            .iter()
            .filter(|e| claim.filter.matches(**e))
            .map(|e| e.key.clone())
            .collect(),
        Over::Exclusions => records
            .iter()
            .filter(|x| claim.filter.matches(**x as &dyn Fields))
            .map(|x| x.record_id.clone())
            .collect(),
        Over::Audited => entries
            .iter()
            .map(|e| e.key.clone())
            .chain(records.iter().map(|x| x.record_id.clone()))
            .collect(),
    };
    matching.sort();
    let coverage = claim.coverage.as_ref().map(|cov| {
        let among: Vec<&&Entry> = entries.iter().filter(|e| cov.among.matches(**e)).collect();
        let judged = among.iter().filter(|e| e.is_judged(&cov.field)).count() as u64;
        (cov.field.clone(), judged, among.len() as u64)
    });
    let actual = matching.len() as u64;
    let (expected, holds, missing, unexpected) = match (&claim.expect.count, &claim.expect.keys) {
        (_, Some(keys)) => {
            let want: BTreeSet<&String> = keys.iter().collect();
            let got: BTreeSet<&String> = matching.iter().collect();
            let missing: Vec<String> = want.difference(&got).map(|s| s.to_string()).collect();
            let unexpected: Vec<String> = got.difference(&want).map(|s| s.to_string()).collect();
            let holds = missing.is_empty() && unexpected.is_empty();
            (
                format!("keys {}", keys.join(", ")),
                holds,
                missing,
                unexpected,
            )
        }
        (Some(n), None) => {
            let holds = match parse_count(n) {
                Some((Op::Eq, v)) => actual == v,
                Some((Op::Le, v)) => actual <= v,
                Some((Op::Ge, v)) => actual >= v,
                None => false,
            };
            (n.trim().to_string(), holds, Vec::new(), Vec::new())
        }
        (None, None) => (String::new(), false, Vec::new(), Vec::new()),
    };
    // A claim about a judged tag holds only when its coverage is complete.
    let covered = coverage.as_ref().is_none_or(|(_, j, n)| j == n);
    Verdict {
        id: claim.id.clone(),
        source: claim.source.clone(),
        locator: claim.locator.clone(),
        statement: claim.statement.clone(),
        pool: claim.pool,
        expected,
        actual,
        holds: holds && covered,
        matching,
        missing,
        unexpected,
        coverage,
        boundary: claim.boundary.clone(),
        note: claim.note.clone(),
    }
}

/// Why no single-entry edit can make a holding claim fail, judged from its
/// form alone (None: an edit can). One entry or record added, removed or
/// retagged moves a count by at most one, so a bound with slack cannot fail;
/// a filter on keys alone says nothing about tags, and holds while those
/// entries exist. The test `every_claim_has_a_falsifying_edit` searches the
/// edits themselves, against every other rule, on the shipped corpus.
pub fn unfalsifiable(claim: &Claim, verdict: &Verdict) -> Option<String> {
    if !verdict.holds {
        return None;
    }
    let only_keys = claim.over == Over::Entries
        && !claim.filter.conditions.is_empty()
        && claim
            .filter
            .conditions
            .iter()
            .all(|c| c.field == fields::KEY);
    if only_keys {
        return Some(
            "it filters on keys alone, so it holds while those entries exist whatever their tags"
                .to_string(),
        );
    }
    let bound = claim.expect.count.as_deref().and_then(parse_count);
    match bound {
        Some((Op::Ge, 0)) => Some("it expects at least 0, which every count is".to_string()),
        Some((Op::Ge, n)) if verdict.actual > n => Some(format!(
            "it expects at least {n} and {} match, so no single edit brings the count below {n}",
            verdict.actual
        )),
        Some((Op::Le, n)) if verdict.actual < n => Some(format!(
            "it expects at most {n} and {} match, so no single edit brings the count above {n}",
            verdict.actual
        )),
        _ => None,
    }
}

/// The ledger as a text table (claim, expected, actual, holds; keys with `verbose`).
pub fn table(verdicts: &[Verdict], verbose: bool) -> String {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(100);
    t.set_header(vec!["claim", "expected", "actual", "holds"]);
    for v in verdicts {
        let expected = if v.expected.starts_with("keys ") {
            format!("{} keys", v.expected.matches(", ").count() + 1)
        } else {
            v.expected.clone()
        };
        let holds = if v.holds { "yes" } else { "NO" };
        let id = match v.pool {
            Pool::Survey => v.id.clone(),
            Pool::Living => format!("{} (living list)", v.id),
        };
        t.add_row(vec![id, expected, v.actual.to_string(), holds.to_string()]);
    }
    let broken = verdicts.iter().filter(|v| !v.holds).count();
    let mut out = format!(
        "{t}\n{} claims, {} holding, {broken} broken\n",
        verdicts.len(),
        verdicts.len() - broken
    );
    if verbose {
        for v in verdicts {
            out.push_str(&format!(
                "\n{}: {}\n  matching ({}): {}\n",
                v.id,
                v.statement,
                v.actual,
                v.matching.join(", ")
            ));
            if !v.missing.is_empty() {
                out.push_str(&format!(
                    "  expected but not matching: {}\n",
                    v.missing.join(", ")
                ));
            }
            if !v.unexpected.is_empty() {
                out.push_str(&format!(
                    "  matching but not expected: {}\n",
                    v.unexpected.join(", ")
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_with_and_without_operator() {
        assert_eq!(parse_count("== 84"), Some((Op::Eq, 84)));
        assert_eq!(parse_count("<=2"), Some((Op::Le, 2)));
        assert_eq!(parse_count(">= 1"), Some((Op::Ge, 1)));
        assert_eq!(parse_count("7"), Some((Op::Eq, 7)));
        assert_eq!(parse_count("~ 7"), None);
    }

    #[test]
    fn a_claim_that_no_single_edit_can_break_is_named_by_its_form() {
        let ledger = |rest: &str| {
            parse(&format!(
                "claims:\n  - id: c\n    source: s\n    locator: l\n    statement: x\n{rest}    boundary: b\n"
            ))
            .unwrap()
            .claims
            .remove(0)
        };
        let holding = |actual: u64| Verdict {
            id: "c".into(),
            source: "s".into(),
            locator: "l".into(),
            statement: "x".into(),
            pool: Pool::Survey,
            expected: String::new(),
            actual,
            holds: true,
            matching: Vec::new(),
            missing: Vec::new(),
            unexpected: Vec::new(),
            coverage: None,
            boundary: "b".into(),
            note: None,
        };
        let bound = |n: &str| {
            ledger(&format!(
                "    where: {{category: survey}}\n    expect: {{count: \"{n}\"}}\n"
            ))
        };
        assert!(unfalsifiable(&bound(">= 2"), &holding(3)).is_some());
        assert!(unfalsifiable(&bound(">= 3"), &holding(3)).is_none());
        assert!(unfalsifiable(&bound("<= 4"), &holding(3)).is_some());
        assert!(unfalsifiable(&bound("<= 3"), &holding(3)).is_none());
        assert!(unfalsifiable(&bound(">= 0"), &holding(0)).is_some());
        assert!(unfalsifiable(&bound("== 3"), &holding(3)).is_none());
        let keys_only = ledger("    where: {key: [a, b]}\n    expect: {keys: [a, b]}\n");
        assert!(unfalsifiable(&keys_only, &holding(2)).is_some());
        let keys_and_tag =
            ledger("    where: {key: [a, b], category: survey}\n    expect: {keys: [a, b]}\n");
        assert!(unfalsifiable(&keys_and_tag, &holding(2)).is_none());
        // A broken claim is `claim-broken`'s to report.
        let mut broken = holding(1);
        broken.holds = false;
        assert!(unfalsifiable(&bound(">= 0"), &broken).is_none());
    }

    #[test]
    fn claim_lines_are_found_by_id() {
        let text = "claims:\n  - id: a\n    statement: x\n  - id: \"b\"\n";
        assert_eq!(claim_line(text, "b"), Some(4));
    }
}
