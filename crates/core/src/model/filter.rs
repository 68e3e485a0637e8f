//! Filters over entries and records: the one matching language shared by
//! taxonomy rules, claims and `corpus list --where`.
//!
//! A filter is a conjunction of conditions `field: value`. A leading `!`
//! negates, a list gives several allowed values, a list field matches when it
//! contains the value, and `[]` matches an empty list.

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

/// One condition: the field, the allowed values, and whether it is negated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// Field name.
    pub field: String,
    /// Any of these values satisfies the condition (`[]` = empty list).
    pub values: Vec<String>,
    /// True when written with a leading `!`.
    pub negate: bool,
}

/// The literal that matches an empty list.
pub const EMPTY_LIST: &str = "[]";

impl Condition {
    /// Parses `FIELD=VALUE` (VALUE may start with `!` or hold `a,b`).
    pub fn parse_assignment(s: &str) -> Result<Condition, String> {
        let (field, value) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}` is not FIELD=VALUE"))?;
        let field = field.trim();
        if field.is_empty() {
            return Err(format!("`{s}` names no field"));
        }
        let (negate, value) = match value.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        let values = value.split(',').map(|v| v.trim().to_string()).collect();
        Ok(Condition {
            field: field.to_string(),
            values,
            negate,
        })
    }

    /// Whether a record satisfies this condition.
    pub fn matches(&self, record: &dyn Fields) -> bool {
        let hit = match record.field(&self.field) {
            None => return false,
            Some(FieldValue::One(v)) => self.values.iter().any(|x| *x == v),
            Some(FieldValue::Many(list)) => self.values.iter().any(|x| {
                if x == EMPTY_LIST {
                    list.is_empty()
                } else {
                    list.contains(x)
                }
            }),
        };
        hit != self.negate
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bang = if self.negate { "!" } else { "" };
        write!(f, "{}={}{}", self.field, bang, self.values.join(","))
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
                            values: vec![EMPTY_LIST.into()],
                            negate: false,
                        }
                    } else {
                        Condition {
                            field,
                            values,
                            negate: false,
                        }
                    }
                }
                other => {
                    let text = scalar_text(other).ok_or_else(|| {
                        D::Error::custom(format!("`{field}`: value must be text"))
                    })?;
                    match text.strip_prefix('!') {
                        Some(rest) => Condition {
                            field,
                            values: vec![rest.to_string()],
                            negate: true,
                        },
                        None => Condition {
                            field,
                            values: vec![text],
                            negate: false,
                        },
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
            if c.values.len() == 1 {
                m.serialize_entry(&c.field, &format!("{bang}{}", c.values[0]))?;
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
    fn assignments_parse_like_yaml_conditions() {
        let c = Condition::parse_assignment("category=!survey").unwrap();
        assert!(c.negate && c.values == ["survey"]);
        let c = Condition::parse_assignment("is_rl=yes,partial").unwrap();
        assert_eq!(c.values, ["yes", "partial"]);
        assert!(Condition::parse_assignment("nofield").is_err());
        assert_eq!(c.to_string(), "is_rl=yes,partial");
    }
}
