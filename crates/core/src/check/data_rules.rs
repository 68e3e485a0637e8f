//! The rules the taxonomy defines as data (`when`/`require`), applied to one entry.

use super::sink::{Finding, RuleOf};
use crate::model::facts::{EntryFacts, Failing};
use crate::model::filter::EMPTY_LIST;

/// Every taxonomy rule whose `when` matches the entry and whose `require` fails.
pub(super) fn check_data_rules<'a>(f: &EntryFacts<'a>, out: &mut Vec<Finding<'a>>) {
    for failing in &f.failing {
        out.push(
            Finding::of(
                RuleOf::Data(failing.rule),
                failing.condition.field.as_str(),
                rule_message(failing),
            )
            .help(require_help(failing)),
        );
    }
}

fn rule_message(f: &Failing) -> String {
    format!(
        "{} (`{}` is `{}`)",
        f.rule.sentence.trim_end_matches('.'),
        f.condition.field,
        f.got
    )
}

fn require_help(f: &Failing) -> String {
    let c = f.condition;
    let fix = if c.negate {
        format!("change `{}` away from `{}`", c.field, c.values.join("`/`"))
    } else if c.values == [EMPTY_LIST] {
        format!("empty `{}`", c.field)
    } else {
        format!("set `{}` to `{}`", c.field, c.values.join("` or `"))
    };
    format!("{fix}, or waive the rule with a reason if the entry is a genuine exception")
}
