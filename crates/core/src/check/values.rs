//! Tag values against the taxonomy's vocabulary.

use super::sink::Sink;
use crate::model::fields;
use crate::model::taxonomy::Taxonomy;
use crate::text::closest::closest;
use crate::yaml::source::SourceFile;
use corpus_diagnostics::rules::Rule;
use std::collections::HashMap;

/// Allowed values per field, computed once per check rather than per entry.
pub(super) type Vocab = HashMap<&'static str, Vec<String>>;

pub(super) fn vocab(tax: &Taxonomy) -> Vocab {
    fields::entry_tags()
        .chain(fields::record_tags())
        .map(|f| (f, tax.allowed(f).unwrap_or_default()))
        .collect()
}

pub(super) fn check_value(
    sink: &mut Sink,
    file: &SourceFile,
    field: &str,
    value: &str,
    allowed: &[String],
) {
    if value.is_empty() || allowed.iter().any(|a| a == value) {
        return;
    }
    let help = closest(value, allowed.iter().map(String::as_str))
        .map(|c| format!("did you mean `{c}`?"))
        .unwrap_or_else(|| format!("allowed values: {}", allowed.join(", ")));
    let d = sink
        .at(
            Rule::UnknownValue,
            file,
            field,
            format!("`{field}` has value `{value}`, which is not in the taxonomy"),
        )
        .help(help);
    sink.push(d);
}
