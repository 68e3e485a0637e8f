//! The controlled vocabulary, read from `corpus/taxonomy.yaml`.
//!
//! Every tag value, label and consistency rule lives in that file so that a
//! new value is a data change; this module only gives it types and lookups.

use crate::model::fields;
use crate::model::filter::Filter;
use corpus_diagnostics::diag::{Diagnostic, Severity};
use serde::{Deserialize, Serialize};

/// The display label of `id` among `values` (the id itself when unknown).
pub fn label_of<'a>(values: &'a [Value], id: &'a str) -> &'a str {
    values
        .iter()
        .find(|v| v.id == id)
        .map_or(id, |v| v.label.as_str())
}

/// One allowed value of a vocabulary, with its display label.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Value {
    /// The value as written in entry files.
    pub id: String,
    /// Human-readable label.
    pub label: String,
    /// Defining feature (orchestration forms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    /// The question a sub-decision answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

/// A reward family (R1–R8) and the reward_type values it covers.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RewardFamily {
    /// Family id, e.g. `R1`.
    pub id: String,
    /// Display label.
    pub label: String,
    /// The `reward_type` values rolled up into this family.
    pub reward_types: Vec<String>,
    /// The credit unit such rewards typically land on.
    pub typical_credit: String,
    /// Reward channel names in traces that belong to this family.
    #[serde(default)]
    pub trace_channels: Vec<String>,
}

/// Screening vocabulary of the exclusion log.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Screening {
    /// Search cutoff date, YYYY-MM-DD.
    pub cutoff: String,
    /// Date of the search protocol under which records were screened, YYYY-MM-DD.
    pub screened: String,
    /// Stages in flow order.
    pub stages: Vec<Value>,
    /// Where records were found.
    pub sources: Vec<String>,
    /// Which search query family found them.
    pub query_families: Vec<String>,
}

/// A round in which entries and records joined the list (a value of
/// `added_in`): the survey's own rounds and the rounds after publication.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Round {
    /// The value written in `added_in`.
    pub id: String,
    /// Human-readable label.
    pub label: String,
    /// When the round took place or opened, YYYY-MM-DD.
    pub date: String,
    /// Whether the round is the one new entries join (`corpus new` stamps it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

/// A consistency rule: id, severity and the sentence a contributor reads.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable rule id.
    pub id: String,
    /// Error or warning.
    pub severity: RuleSeverity,
    /// What the rule asks for, in one sentence.
    pub sentence: String,
    /// Entries the rule applies to (data-driven rules only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Filter>,
    /// What must hold on those entries (data-driven rules only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require: Option<Filter>,
}

/// Severity as written in the taxonomy.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RuleSeverity {
    /// Fails only under `--strict`; can be waived.
    Warning,
    /// Always fails.
    Error,
}

impl From<RuleSeverity> for Severity {
    fn from(s: RuleSeverity) -> Self {
        match s {
            RuleSeverity::Warning => Severity::Warning,
            RuleSeverity::Error => Severity::Error,
        }
    }
}

/// What the list says about itself: the README's and the site's title and
/// opening sentence come from here, so no list's name is compiled in.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ListInfo {
    /// The list's title, as its README heading shows it.
    pub title: String,
    /// One or two sentences on what the list collects.
    pub description: String,
}

/// The whole taxonomy file.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Taxonomy {
    /// The list's title and description, when the taxonomy gives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<ListInfo>,
    /// The GitHub repository (`owner/name`) the list is published from; the
    /// README and the site derive their addresses from it.
    #[serde(default)]
    pub repository: String,
    /// The "not applicable" marker allowed on tag fields.
    pub na: String,
    /// Categories in display order.
    pub category: Vec<Value>,
    /// Values of `is_rl`.
    pub is_rl: Vec<Value>,
    /// Values of `is_core`.
    pub is_core: Vec<Value>,
    /// Values of `verified`.
    pub verified: Vec<Value>,
    /// Reward families R1–R8.
    pub reward_families: Vec<RewardFamily>,
    /// Credit units, finest to coarsest.
    pub credit_units: Vec<Value>,
    /// Orchestration forms (topologies).
    pub orchestration_forms: Vec<Value>,
    /// Orchestration sub-decisions.
    pub subdecisions: Vec<Value>,
    /// Scenarios.
    pub scenario: Vec<Value>,
    /// Values of `strict_credit`, from the strictest reading down.
    #[serde(default)]
    pub strict_credit: Vec<Value>,
    /// The one criterion each judged tag is decided by (tag -> sentence):
    /// the README, CONTRIBUTING and `corpus new` show it as written here.
    #[serde(default)]
    pub criteria: std::collections::BTreeMap<String, String>,
    /// Screening vocabulary and cutoff.
    pub screening: Screening,
    /// The rounds entries and records joined in, oldest first; a file
    /// without `added_in` belongs to the first.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// Who may have judged a tag the project adds beyond the reference CSV.
    pub judgement_sources: Vec<Value>,
    /// Where a claim of the ledger may come from.
    pub claim_sources: Vec<Value>,
    /// Words and phrases (proper nouns such as "Claude Code") whose capitals
    /// the BibTeX export keeps in titles, beyond those its rules find.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protected_words: Vec<String>,
    /// Consistency rules.
    pub rules: Vec<Rule>,
}

impl Taxonomy {
    /// Parses taxonomy YAML text.
    pub fn from_yaml(text: &str) -> Result<Taxonomy, serde_yaml::Error> {
        crate::yaml::block::from_str(text)
    }

    /// Every reward_type value, in family order.
    pub fn reward_types(&self) -> Vec<String> {
        self.reward_families
            .iter()
            .flat_map(|f| f.reward_types.iter().cloned())
            .collect()
    }

    /// The allowed values of an entry field, without NA, in display order.
    pub fn values(&self, field: &str) -> Option<Vec<String>> {
        let ids = |v: &[Value]| v.iter().map(|x| x.id.clone()).collect::<Vec<_>>();
        Some(match field {
            fields::CATEGORY => ids(&self.category),
            fields::IS_RL => ids(&self.is_rl),
            fields::IS_CORE => ids(&self.is_core),
            fields::VERIFIED => ids(&self.verified),
            fields::REWARD_TYPE => self.reward_types(),
            fields::CREDIT_GRANULARITY => ids(&self.credit_units),
            fields::ORCHESTRATION_FORM => ids(&self.orchestration_forms),
            fields::SCENARIO => ids(&self.scenario),
            fields::SUBDECISIONS => ids(&self.subdecisions),
            fields::STAGE => ids(&self.screening.stages),
            fields::SOURCE => self.screening.sources.clone(),
            fields::QUERY_FAMILY => self.screening.query_families.clone(),
            fields::ADDED_IN => self.rounds.iter().map(|r| r.id.clone()).collect(),
            "claim_source" => ids(&self.claim_sources),
            fields::STRICT_CREDIT => ids(&self.strict_credit),
            fields::ADDITIONAL_CREDIT_UNITS => ids(&self.credit_units),
            fields::SUBDECISIONS_SOURCE
            | fields::ADDITIONAL_CREDIT_UNITS_SOURCE
            | fields::STRICT_CREDIT_SOURCE => ids(&self.judgement_sources),
            _ => return None,
        })
    }

    /// Allowed values including NA where the field accepts it.
    pub fn allowed(&self, field: &str) -> Option<Vec<String>> {
        let mut v = self.values(field)?;
        if crate::model::fields::allows_na(field) {
            v.push(self.na.clone());
        }
        Some(v)
    }

    /// The family (R1…) a reward_type belongs to.
    pub fn family_of(&self, reward_type: &str) -> Option<&RewardFamily> {
        self.reward_families
            .iter()
            .find(|f| f.reward_types.iter().any(|t| t == reward_type))
    }

    /// The round a file's `added_in` names: the value itself, or the first
    /// round when the file has none (None when the taxonomy has no rounds).
    pub fn round_of<'a>(&'a self, added_in: Option<&'a str>) -> Option<&'a str> {
        added_in.or(self.rounds.first().map(|r| r.id.as_str()))
    }

    /// Whether a file's `added_in` falls in one of `rounds` (always, when
    /// there is no such list: the whole list is then one pool).
    pub fn in_rounds(&self, added_in: Option<&str>, rounds: Option<&[String]>) -> bool {
        match rounds {
            None => true,
            Some(rounds) => self
                .round_of(added_in)
                .is_some_and(|r| rounds.iter().any(|s| s == r)),
        }
    }

    /// The round new entries join (`open: true`), when there is one.
    pub fn open_round(&self) -> Option<&Round> {
        self.rounds.iter().find(|r| r.open)
    }

    /// The display label of a round (the id itself when unknown).
    pub fn round_label<'a>(&'a self, id: &'a str) -> &'a str {
        self.rounds
            .iter()
            .find(|r| r.id == id)
            .map_or(id, |r| r.label.as_str())
    }

    /// The rule with this id.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// The severity of a built-in rule: as the taxonomy declares it, else its default.
    pub fn severity_of(&self, rule: corpus_diagnostics::rules::Rule) -> Severity {
        self.rule(rule.id())
            .map_or(rule.default_severity(), |r| r.severity.into())
    }

    /// Gives each diagnostic of a registered rule that the taxonomy
    /// declares the declared severity in place of the rule's default. A
    /// severity a command chose on purpose (a link not yet failing long
    /// enough is a warning) is not a default and stays.
    pub fn apply_severities(&self, diags: &mut [Diagnostic]) {
        for d in diags {
            let Some(rule) = corpus_diagnostics::rules::Rule::from_id(&d.rule) else {
                continue;
            };
            if d.severity == rule.default_severity() {
                d.severity = self.severity_of(rule);
            }
        }
    }

    /// Display label of a category id (the id itself when unknown).
    pub fn category_label<'a>(&'a self, id: &'a str) -> &'a str {
        label_of(&self.category, id)
    }

    /// Maps trace reward channel names to reward family ids.
    pub fn channel_families(&self) -> std::collections::BTreeMap<String, String> {
        self.reward_families
            .iter()
            .flat_map(|f| f.trace_channels.iter().map(|c| (c.clone(), f.id.clone())))
            .collect()
    }

    /// Values a filter names that its field can never hold, one sentence
    /// each with a did-you-mean where one is close. A filter on a value
    /// outside the vocabulary matches nothing, so a claim or rule using it
    /// would hold (or never fire) vacuously. Fields without a vocabulary
    /// (titles, keys, …) accept any text and `year` takes a number; a judged
    /// tag also accepts `not_judged`.
    pub fn filter_problems(&self, filter: &Filter) -> Vec<String> {
        let mut out = Vec::new();
        for c in &filter.conditions {
            // Text search and comparisons do not name values of the
            // vocabulary; only a comparison of years needs a number.
            if c.op != crate::model::filter::Op::Eq {
                if c.op.is_comparison() && c.field == fields::YEAR {
                    for v in c.values.iter().filter(|v| v.parse::<i64>().is_err()) {
                        out.push(format!("`year` is a number, not `{v}`"));
                    }
                }
                continue;
            }
            let allowed: Vec<String> = match c.field.as_str() {
                fields::STRICT_CREDIT => {
                    let mut a = self.values(fields::STRICT_CREDIT).unwrap_or_default();
                    a.push(crate::model::NOT_JUDGED.to_string());
                    a
                }
                fields::YEAR => {
                    // A year no entry can have (`check` refuses it) also matches nothing.
                    let first = crate::model::fields::MIN_YEAR;
                    let last = crate::model::dates::parse_date(&self.screening.cutoff)
                        .map_or(i64::MAX, |d| d.0);
                    for v in &c.values {
                        match v.parse::<i64>() {
                            Err(_) => out.push(format!("`year` is a number, not `{v}`")),
                            Ok(y) if y < first || y > last => out.push(format!(
                                "no entry can have year {y}, so the filter matches nothing; years run from {first} to {last} (the search cutoff)"
                            )),
                            Ok(_) => {}
                        }
                    }
                    continue;
                }
                f => match self.allowed(f) {
                    Some(mut a) => {
                        if f == fields::SUBDECISIONS {
                            a.push(crate::model::filter::EMPTY_LIST.to_string());
                        }
                        a
                    }
                    None => continue,
                },
            };
            for v in c.values.iter().filter(|v| !allowed.contains(v)) {
                let help = crate::text::closest::closest(v, allowed.iter().map(String::as_str))
                    .map(|m| format!("did you mean `{m}`?"))
                    .unwrap_or_else(|| format!("its values are {}", allowed.join(", ")));
                out.push(format!(
                    "`{}` has no value `{v}`, so the filter matches nothing; {help}",
                    c.field
                ));
            }
        }
        out
    }

    /// Problems in the taxonomy itself that would make checks meaningless.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for r in &self.rules {
            if !seen.insert(r.id.as_str()) {
                out.push(format!("rule `{}` is defined twice", r.id));
            }
            if r.when.is_some() != r.require.is_some() {
                out.push(format!(
                    "rule `{}` needs both `when` and `require`, or neither",
                    r.id
                ));
            }
        }
        for field in crate::model::fields::entry_tags().chain(crate::model::fields::record_tags()) {
            let vals = self.values(field).unwrap_or_default();
            let mut s = std::collections::BTreeSet::new();
            for v in &vals {
                if !s.insert(v) {
                    out.push(format!("value `{v}` of `{field}` is listed twice"));
                }
            }
        }
        if self.rounds.iter().filter(|r| r.open).count() > 1 {
            out.push("more than one round is `open: true`; new entries join one round".to_string());
        }
        for r in &self.rounds {
            // A repeated id is reported with the other vocabularies below.
            if crate::model::dates::parse_date(&r.date).is_none() {
                out.push(format!(
                    "round `{}` has date `{}`, which is not a YYYY-MM-DD date",
                    r.id, r.date
                ));
            }
        }
        for (name, date) in [
            ("cutoff", &self.screening.cutoff),
            ("screened", &self.screening.screened),
        ] {
            if crate::model::dates::parse_date(date).is_none() {
                out.push(format!(
                    "screening.{name} `{date}` is not a YYYY-MM-DD date"
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corpus_diagnostics::rules::Rule as Registered;

    fn shipped_with(extra_rules: &str) -> Taxonomy {
        let text = include_str!("../../../../corpus/taxonomy.yaml");
        Taxonomy::from_yaml(&text.replace("\nrules:\n", &format!("\nrules:\n{extra_rules}")))
            .unwrap()
    }

    #[test]
    fn a_declared_severity_replaces_the_default_of_any_registered_rule() {
        let tax = shipped_with(
            "  - id: link-broken\n    severity: warning\n    sentence: Broken links are reviewed by hand.\n",
        );
        let at_default = Diagnostic::new(Registered::LinkBroken, Severity::Error, "README.md", "x");
        let chosen = Diagnostic::new(Registered::LinkTimeout, Severity::Warning, "README.md", "y");
        let mut diags = vec![at_default, chosen.clone()];
        tax.apply_severities(&mut diags);
        assert_eq!(
            diags[0].severity,
            Severity::Warning,
            "declared in the taxonomy"
        );
        assert_eq!(diags[1], chosen, "not declared: left as the command chose");
    }

    #[test]
    fn a_severity_the_command_chose_is_not_a_default_and_stays() {
        let tax = shipped_with(
            "  - id: link-broken\n    severity: error\n    sentence: Broken links fail the run.\n",
        );
        // A link not yet failing for --fail-after runs is reported as a warning on purpose.
        let d = Diagnostic::new(Registered::LinkBroken, Severity::Warning, "README.md", "x");
        let mut diags = vec![d.clone()];
        tax.apply_severities(&mut diags);
        assert_eq!(diags, [d]);
    }
}
