//! The rules the taxonomy defines as data (`when`/`require`), applied to one entry.

use super::sink::Sink;
use crate::model::filter::Filter;
use crate::model::Entry;
use crate::yaml::source::SourceFile;

/// Every taxonomy rule whose `when` matches the entry and whose `require` fails.
pub(super) fn check_data_rules(sink: &mut Sink, file: &SourceFile, e: &Entry) {
    let tax = sink.tax;
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
