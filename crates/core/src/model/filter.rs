//! Filters over entries and records: the one matching language shared by
//! taxonomy rules, claims and `corpus list --where`.
//!
//! A filter is a conjunction of conditions `field: value`. A leading `!`
//! negates, a list gives several allowed values, a list field matches when it
//! contains the value, and `[]` matches an empty list. A value may also
//! start with an operator: `~TEXT` holds when the field contains TEXT
//! (ignoring case), and `>=`, `<=`, `>`, `<` compare (as numbers when both
//! sides are, else as text, which orders ISO dates). On the command line the
//! same reads `field=value`, `field!=value`, `field~text`, `field>=value`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// What a record holds in one field, as the filter sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue<'a> {
    /// A single value (numbers and booleans as their text).
    One(std::borrow::Cow<'a, str>),
    /// A list field such as `subdecisions`.
    Many(&'a [String]),
}

/// Anything a filter can be applied to.
pub trait Fields {
    /// The value of a field, or None when the record has no such field.
    fn field(&self, name: &str) -> Option<FieldValue<'_>>;
}

/// How a condition compares the field with its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Op {
    /// The field is one of the values (a list field contains one).
    #[default]
    Eq,
    /// The field contains the value as text, ignoring case.
    Contains,
    /// The field is greater than or equal to the value.
    Ge,
    /// The field is less than or equal to the value.
    Le,
    /// The field is greater than the value.
    Gt,
    /// The field is less than the value.
    Lt,
}

impl Op {
    /// The operator as written after the field name on the command line.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Contains => "~",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Lt => "<",
        }
    }

    /// Whether the operator orders values rather than matching them.
    pub fn is_comparison(self) -> bool {
        matches!(self, Op::Ge | Op::Le | Op::Gt | Op::Lt)
    }

    /// The operator a YAML value starts with, and the rest of the value.
    fn split_prefix(v: &str) -> (Op, &str) {
        for op in [Op::Ge, Op::Le, Op::Gt, Op::Lt, Op::Contains] {
            if let Some(rest) = v.strip_prefix(op.symbol()) {
                return (op, rest.trim());
            }
        }
        (Op::Eq, v)
    }

    /// Whether `field` relates to `value` by this operator.
    fn holds(self, field: &str, value: &str) -> bool {
        use std::cmp::Ordering;
        let ordering = || match (field.trim().parse::<f64>(), value.trim().parse::<f64>()) {
            (Ok(a), Ok(b)) => a.partial_cmp(&b),
            _ if field.is_empty() => None,
            _ => Some(field.cmp(value)),
        };
        match self {
            Op::Eq => field == value,
            Op::Contains => field.to_lowercase().contains(&value.to_lowercase()),
            Op::Ge => ordering().is_some_and(Ordering::is_ge),
            Op::Le => ordering().is_some_and(Ordering::is_le),
            Op::Gt => ordering().is_some_and(Ordering::is_gt),
            Op::Lt => ordering().is_some_and(Ordering::is_lt),
        }
    }
}

/// One condition: the field, the operator, the values, and whether it is negated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// Field name.
    pub field: String,
    /// How the field is compared with the values.
    pub op: Op,
    /// Any of these values satisfies the condition (`[]` = empty list).
    pub values: Vec<String>,
    /// True when written with a leading `!` (or `!=`).
    pub negate: bool,
}

/// Other names a filter accepts for a field: the names the README's tags
/// show (`reward: hybrid`) and the column heads of `corpus list`.
pub const FIELD_ALIASES: &[(&str, &str)] = &[
    ("reward", "reward_type"),
    ("credit", "credit_granularity"),
    ("topology", "orchestration_form"),
    ("form", "orchestration_form"),
    ("author", "first_author"),
    ("arxiv", "arxiv_id"),
    ("rl", "is_rl"),
    ("core", "is_core"),
];

/// The field a name given by a user stands for among `known`: the name
/// itself, or the field of an alias; else an error with the nearest field
/// (or alias) as a suggestion, and the list of fields.
pub fn resolve_field<'a>(name: &str, known: &[&'a str]) -> Result<&'a str, String> {
    if let Some(f) = known.iter().find(|f| **f == name) {
        return Ok(f);
    }
    let aliased = FIELD_ALIASES
        .iter()
        .find(|(a, _)| *a == name)
        .and_then(|(_, f)| known.iter().find(|k| *k == f));
    if let Some(f) = aliased {
        return Ok(f);
    }
    let aliases = FIELD_ALIASES
        .iter()
        .filter(|(_, f)| known.contains(f))
        .map(|(a, _)| *a);
    let nearest = crate::text::closest::closest(name, known.iter().copied().chain(aliases))
        .map(|c| {
            let target = FIELD_ALIASES
                .iter()
                .find(|(a, _)| *a == c)
                .map_or(c, |(_, f)| f);
            format!("did you mean `{target}`? ")
        })
        .unwrap_or_default();
    Err(format!(
        "unknown field `{name}`; {nearest}fields: {}",
        known.join(", ")
    ))
}

/// The literal that matches an empty list.
pub const EMPTY_LIST: &str = "[]";

impl Condition {
    /// Parses `FIELD=VALUE`, `FIELD!=VALUE`, `FIELD~TEXT` or `FIELD>=VALUE`
    /// (also `<=`, `>`, `<`). After `=` the value may start with `!` or hold
    /// `a,b`; `!` before any operator negates it.
    pub fn parse_assignment(s: &str) -> Result<Condition, String> {
        let at = s
            .find(['=', '!', '~', '<', '>'])
            .ok_or_else(|| format!("`{s}` is not FIELD=VALUE (or FIELD~TEXT, FIELD>=VALUE)"))?;
        let field = s[..at].trim();
        if field.is_empty() {
            return Err(format!("`{s}` names no field"));
        }
        let mut rest = &s[at..];
        let mut negate = false;
        if let Some(r) = rest.strip_prefix('!') {
            negate = true;
            rest = r;
        }
        let (op, value) = if let Some(v) = rest.strip_prefix('=') {
            (Op::Eq, v)
        } else {
            match Op::split_prefix(rest) {
                (Op::Eq, _) => {
                    return Err(format!(
                        "`{s}` is not FIELD=VALUE (or FIELD~TEXT, FIELD>=VALUE)"
                    ))
                }
                (op, v) => (op, v),
            }
        };
        let value = match (op, value.strip_prefix('!')) {
            (Op::Eq, Some(v)) if !negate => {
                negate = true;
                v
            }
            _ => value,
        };
        let values = if op == Op::Eq {
            value.split(',').map(|v| v.trim().to_string()).collect()
        } else {
            vec![value.trim().to_string()]
        };
        Ok(Condition {
            field: field.to_string(),
            op,
            values,
            negate,
        })
    }

    /// Whether a record satisfies this condition.
    pub fn matches(&self, record: &dyn Fields) -> bool {
        let hit = match record.field(&self.field) {
            None => return false,
            Some(FieldValue::One(v)) => self.values.iter().any(|x| self.op.holds(&v, x)),
            Some(FieldValue::Many(list)) => self.values.iter().any(|x| {
                if x == EMPTY_LIST && self.op == Op::Eq {
                    list.is_empty()
                } else {
                    list.iter().any(|item| self.op.holds(item, x))
                }
            }),
        };
        hit != self.negate
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bang = if self.negate { "!" } else { "" };
        match self.op {
            Op::Eq => write!(f, "{}={}{}", self.field, bang, self.values.join(",")),
            op => write!(
                f,
                "{}{bang}{}{}",
                self.field,
                op.symbol(),
                self.values.join(",")
            ),
        }
    }
}

/// A conjunction of conditions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// All of these must hold.
    pub conditions: Vec<Condition>,
}

impl Filter {
    /// Whether a record satisfies every condition.
    pub fn matches(&self, record: &dyn Fields) -> bool {
        self.conditions.iter().all(|c| c.matches(record))
    }

    /// Conditions that do not hold on a record.
    pub fn failing<'a>(&'a self, record: &dyn Fields) -> Vec<&'a Condition> {
        self.conditions
            .iter()
            .filter(|c| !c.matches(record))
            .collect()
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.conditions.iter().map(|c| c.to_string()).collect();
        f.write_str(&parts.join(" "))
    }
}

fn scalar_text(v: &serde_yaml::Value) -> Option<String> {
    match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl<'de> Deserialize<'de> for Filter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        // A Mapping (not a HashMap) so that a repeated field is an error, not a silent overwrite.
        let map = serde_yaml::Mapping::deserialize(d)?;
        let mut conditions = Vec::new();
        for (k, v) in map {
            let field =
                scalar_text(&k).ok_or_else(|| D::Error::custom("filter field must be text"))?;
            let cond = match &v {
                serde_yaml::Value::Sequence(items) => {
                    let values = items
                        .iter()
                        .map(|i| {
                            scalar_text(i).ok_or_else(|| {
                                D::Error::custom(format!("`{field}`: list items must be text"))
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    if values.is_empty() {
                        Condition {
                            field,
                            op: Op::Eq,
                            values: vec![EMPTY_LIST.into()],
                            negate: false,
                        }
                    } else {
                        Condition {
                            field,
                            op: Op::Eq,
                            values,
                            negate: false,
                        }
                    }
                }
                other => {
                    let text = scalar_text(other).ok_or_else(|| {
                        D::Error::custom(format!("`{field}`: value must be text"))
                    })?;
                    let (negate, text) = match text.strip_prefix('!') {
                        Some(rest) => (true, rest),
                        None => (false, text.as_str()),
                    };
                    let (op, value) = Op::split_prefix(text);
                    Condition {
                        field,
                        op,
                        values: vec![value.to_string()],
                        negate,
                    }
                }
            };
            conditions.push(cond);
        }
        Ok(Filter { conditions })
    }
}

impl Serialize for Filter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.conditions.len()))?;
        for c in &self.conditions {
            let bang = if c.negate { "!" } else { "" };
            let op = if c.op == Op::Eq { "" } else { c.op.symbol() };
            if c.values.len() == 1 {
                m.serialize_entry(&c.field, &format!("{bang}{op}{}", c.values[0]))?;
            } else {
                m.serialize_entry(&c.field, &c.values)?;
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct R {
        cat: String,
        subs: Vec<String>,
    }
    impl Fields for R {
        fn field(&self, name: &str) -> Option<FieldValue<'_>> {
            match name {
                "category" => Some(FieldValue::One(self.cat.as_str().into())),
                "subdecisions" => Some(FieldValue::Many(&self.subs)),
                _ => None,
            }
        }
    }

    fn r(cat: &str, subs: &[&str]) -> R {
        R {
            cat: cat.into(),
            subs: subs.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn f(yaml: &str) -> Filter {
        serde_yaml::from_str(yaml).unwrap()
    }

    #[test]
    fn equality_negation_and_any_of() {
        assert!(f("{category: survey}").matches(&r("survey", &[])));
        assert!(!f("{category: survey}").matches(&r("benchmark", &[])));
        assert!(f("{category: '!survey'}").matches(&r("benchmark", &[])));
        assert!(f("{category: [survey, benchmark]}").matches(&r("benchmark", &[])));
    }

    #[test]
    fn list_fields_match_by_containment_and_emptiness() {
        assert!(f("{subdecisions: o1_spawn}").matches(&r("x", &["o1_spawn", "o2_delegate"])));
        assert!(f("{subdecisions: '!o5_stop'}").matches(&r("x", &["o1_spawn"])));
        assert!(f("{subdecisions: '[]'}").matches(&r("x", &[])));
        assert!(!f("{subdecisions: '[]'}").matches(&r("x", &["o1_spawn"])));
        assert!(f("{subdecisions: '![]'}").matches(&r("x", &["o1_spawn"])));
    }

    #[test]
    fn unknown_field_never_matches_and_duplicates_are_refused() {
        assert!(!f("{nope: x}").matches(&r("x", &[])));
        assert!(serde_yaml::from_str::<Filter>("{a: x, a: y}").is_err());
    }

    #[test]
    fn text_search_and_comparisons() {
        let c = |s: &str| Filter {
            conditions: vec![Condition::parse_assignment(s).unwrap()],
        };
        assert!(c("category~SUR").matches(&r("survey", &[])));
        assert!(!c("category!~sur").matches(&r("survey", &[])));
        assert!(c("category>=b").matches(&r("survey", &[])));
        assert!(!c("category<b").matches(&r("survey", &[])));
        assert!(c("subdecisions~spawn").matches(&r("x", &["o1_spawn"])));
        assert!(c("category!=survey").matches(&r("benchmark", &[])));
        assert!(f("{category: '~vey'}").matches(&r("survey", &[])));
        assert_eq!(c("category>=2025").to_string(), "category>=2025");
        assert!(Op::Ge.holds("10", "9"));
        assert!(Op::Lt.holds("2024", "2025"));
        assert!(!Op::Ge.holds("", "1"));
    }

    #[test]
    fn aliases_resolve_and_typos_get_a_suggestion() {
        let known = ["reward_type", "year", "title"];
        assert_eq!(resolve_field("reward", &known), Ok("reward_type"));
        assert_eq!(resolve_field("year", &known), Ok("year"));
        let e = resolve_field("yaer", &known).unwrap_err();
        assert!(e.contains("did you mean `year`?"), "{e}");
        let e = resolve_field("rewad", &known).unwrap_err();
        assert!(e.contains("did you mean `reward_type`?"), "{e}");
        assert!(resolve_field("credit", &known).is_err());
    }

    #[test]
    fn assignments_parse_like_yaml_conditions() {
        let c = Condition::parse_assignment("category=!survey").unwrap();
        assert!(c.negate && c.values == ["survey"]);
        let c = Condition::parse_assignment("is_rl=yes,partial").unwrap();
        assert_eq!(c.values, ["yes", "partial"]);
        assert!(Condition::parse_assignment("nofield").is_err());
        assert_eq!(c.to_string(), "is_rl=yes,partial");
    }
}
