//! The survey's search as data (`corpus/search.yaml`): the query families of
//! its search protocol, each as a query `corpus discover` can run again, the
//! rules it kept and dropped papers by, and where in the protocol each fact
//! stands. Validated when loaded (rule `search-protocol`).

use crate::layout::Layout;
use crate::model::dates::parse_date;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Where a fact stands in the protocol: its file and section.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Locator {
    /// The protocol's file, relative to its repository.
    pub file: String,
    /// The section heading the fact is under.
    pub section: String,
}

/// The protocol the search follows.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Protocol {
    /// The repository holding it.
    pub repository: String,
    /// Its file in that repository.
    pub file: String,
    /// The commit it was read at.
    pub commit: String,
    /// The date the protocol carries, YYYY-MM-DD.
    pub dated: String,
    /// The last day its search covered, YYYY-MM-DD.
    pub cutoff: String,
}

/// One query: a family of the protocol, as terms arXiv can be asked for.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// Stable id, written on each candidate it finds.
    pub id: String,
    /// The protocol's name of the family.
    pub family: String,
    /// Phrases of which a paper must match one.
    pub terms: Vec<String>,
    /// Phrases of which it must also match one (none: no second condition).
    #[serde(default)]
    pub with: Vec<String>,
    /// The exclusion log's name of the family (one of the taxonomy's
    /// screening `query_families`), written on the records it leads to.
    pub logged_as: String,
    /// First day the survey's search covered (absent: the protocol names none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_from: Option<String>,
    /// Last day the survey's search covered.
    pub covered_to: String,
    /// Where the family stands in the protocol.
    pub locator: Locator,
}

/// A rule of the protocol (inclusion or exclusion), in the project's words.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScreenRule {
    /// Stable id (I1…, X1…).
    pub id: String,
    /// What it says.
    pub text: String,
    /// Where it stands in the protocol.
    pub locator: Locator,
}

/// The search as data.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Search {
    /// The protocol read.
    pub protocol: Protocol,
    /// The source families the protocol names (arXiv is the one `discover` runs).
    #[serde(default)]
    pub sources: Vec<String>,
    /// The query families.
    pub queries: Vec<Query>,
    /// A paper is kept when it meets at least one of these.
    pub include_when: Vec<ScreenRule>,
    /// A paper is dropped when it is one of these.
    #[serde(default)]
    pub exclude_when: Vec<ScreenRule>,
}

impl Search {
    /// The query with this id.
    pub fn query(&self, id: &str) -> Option<&Query> {
        self.queries.iter().find(|q| q.id == id)
    }
}

fn problem(message: String, help: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::SearchProtocol,
        Rule::SearchProtocol.default_severity(),
        Layout::SEARCH,
        message,
    )
    .help(help)
}

/// Parses the search file's text.
pub fn parse(text: &str) -> Result<Search, Vec<Diagnostic>> {
    crate::yaml::block::from_str(text).map_err(|e| {
        let x = crate::yaml::error::explain(&e, text);
        vec![x.place(Diagnostic::new(
            Rule::YamlSyntax,
            Severity::Error,
            Layout::SEARCH,
            format!("the search file cannot be read: {}", x.message),
        ))]
    })
}

/// What is wrong with a parsed search: ids, empty or unsafe terms, dates,
/// and (given the taxonomy) a family the exclusion log does not know.
pub fn validate(s: &Search, tax: Option<&Taxonomy>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let date = |d: &str, what: &str, out: &mut Vec<Diagnostic>| {
        if parse_date(d).is_none() {
            out.push(problem(
                format!("{what} `{d}` is not a calendar date"),
                "write YYYY-MM-DD",
            ));
        }
    };
    date(&s.protocol.dated, "protocol.dated", &mut out);
    date(&s.protocol.cutoff, "protocol.cutoff", &mut out);
    let mut ids = BTreeSet::new();
    for q in &s.queries {
        let at = format!("query `{}`", q.id);
        if !crate::text::ids::valid_key(&q.id) {
            out.push(problem(
                format!("{at}: the id must be lowercase letters, digits and '-'"),
                "ids are written on candidates, so keep them short and stable",
            ));
        }
        if !ids.insert(q.id.as_str()) {
            out.push(problem(
                format!("{at} is defined twice"),
                "give each query its own id",
            ));
        }
        if q.family.trim().is_empty() {
            out.push(problem(
                format!("{at} names no family"),
                "name the protocol's family",
            ));
        }
        if q.terms.is_empty() {
            out.push(problem(
                format!("{at} has no terms"),
                "list the family's phrases",
            ));
        }
        for t in q.terms.iter().chain(&q.with) {
            if t.trim().is_empty() || t.contains(['"', '(', ')', '[', ']']) {
                out.push(problem(
                    format!("{at}: term `{t}` is empty or holds a quote, parenthesis or bracket"),
                    "a term is a plain phrase; the query around it is built by `corpus discover`",
                ));
            }
        }
        if let Some(known) = tax.map(|t| &t.screening.query_families) {
            if !known.contains(&q.logged_as) {
                out.push(problem(
                    format!(
                        "{at}: logged_as `{}` is not a query family of the exclusion log",
                        q.logged_as
                    ),
                    &format!(
                        "use one of the taxonomy's screening query_families: {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        date(&q.covered_to, &format!("{at}: covered_to"), &mut out);
        if let Some(from) = &q.covered_from {
            date(from, &format!("{at}: covered_from"), &mut out);
            if parse_date(from) > parse_date(&q.covered_to) {
                out.push(problem(
                    format!(
                        "{at}: covered_from {from} is after covered_to {}",
                        q.covered_to
                    ),
                    "a date range runs forward",
                ));
            }
        }
        if q.locator.file.trim().is_empty() || q.locator.section.trim().is_empty() {
            out.push(problem(
                format!("{at}: the locator needs a file and a section"),
                "point to where the protocol states the family",
            ));
        }
    }
    let mut rule_ids = BTreeSet::new();
    for r in s.include_when.iter().chain(&s.exclude_when) {
        if !rule_ids.insert(r.id.as_str()) {
            out.push(problem(
                format!("screening rule `{}` is defined twice", r.id),
                "give each rule its own id",
            ));
        }
        if r.text.trim().is_empty() {
            out.push(problem(
                format!("screening rule `{}` says nothing", r.id),
                "state the rule in your own words",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "protocol: {repository: r, file: f.md, commit: abc, dated: 2026-04-26, cutoff: 2026-05-04}
queries:
  - id: credit
    family: Credit assignment
    terms: [credit assignment]
    logged_as: credit assignment
    covered_to: 2026-05-04
    locator: {file: f.md, section: Query Families}
include_when:
  - id: I1
    text: trains agents
    locator: {file: f.md, section: Inclusion Rule}
";

    fn rules(text: &str) -> Vec<String> {
        validate(&parse(text).expect("parses"), None)
            .iter()
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn a_sound_search_passes() {
        assert!(rules(GOOD).is_empty());
        let shipped = include_str!("../../../../corpus/search.yaml");
        let s = parse(shipped).expect("the shipped search parses");
        let tax = Taxonomy::from_yaml(include_str!("../../../../corpus/taxonomy.yaml"))
            .expect("taxonomy");
        assert!(validate(&s, Some(&tax)).is_empty());
        let mut odd = s.clone();
        odd.queries[0].logged_as = "astrology".into();
        assert!(validate(&odd, Some(&tax))[0]
            .message
            .contains("not a query family"));
        assert_eq!(s.queries.len(), 7);
    }

    #[test]
    fn broken_queries_fire_the_rule() {
        let bad = GOOD
            .replace("[credit assignment]", "[\"credit \\\"x\\\"\"]")
            .replace(
                "covered_to: 2026-05-04",
                "covered_to: 2026-02-30\n    covered_from: 2026-06-01",
            );
        let found = rules(&bad);
        assert!(found.iter().any(|m| m.contains("quote")), "{found:?}");
        assert!(
            found.iter().any(|m| m.contains("not a calendar date")),
            "{found:?}"
        );
        let twice = GOOD.replace(
            "include_when:",
            &format!(
                "{}include_when:",
                &GOOD[GOOD.find("  - id").unwrap()..GOOD.find("include_when").unwrap()]
            ),
        );
        assert!(rules(&twice).iter().any(|m| m.contains("defined twice")));
        let d = &validate(&parse(&bad).unwrap(), None)[0];
        assert_eq!(d.rule, "search-protocol");
    }
}
