//! Tag values against the taxonomy's vocabulary.

use super::sink::Finding;
use crate::model::facts::TagValue;
use corpus_diagnostics::rules::Rule;

/// Every tag value is in the vocabulary, and no list repeats one.
pub(super) fn check_tags(tags: &[TagValue], out: &mut Vec<Finding>) {
    for t in tags {
        let (path, value) = (&*t.path, &*t.value);
        if let Some(unknown) = &t.unknown {
            let help = match &unknown.nearest {
                Some(c) => format!("did you mean `{c}`?"),
                None => format!("allowed values: {}", unknown.allowed.join(", ")),
            };
            out.push(
                Finding::new(
                    Rule::UnknownValue,
                    path,
                    format!("`{path}` has value `{value}`, which is not in the taxonomy"),
                )
                .help(help),
            );
        }
        if t.repeated {
            out.push(Finding::new(
                Rule::DuplicateField,
                path,
                format!("`{value}` is listed twice in `{}`", t.field),
            ));
        }
    }
}
