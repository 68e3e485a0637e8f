//! What entry and record checks share: the file stem an id must match, help for wrong ids.

use crate::text::ids::arxiv_year;

pub(super) fn arxiv_help(id: &str) -> String {
    let trimmed = id
        .trim()
        .trim_start_matches("arXiv:")
        .trim_start_matches("arxiv:")
        .trim_start_matches("https://arxiv.org/abs/");
    if trimmed != id && arxiv_year(trimmed).is_some() {
        format!("write just the id: `\"{trimmed}\"`")
    } else {
        "write it like \"2508.04652\" (new style) or \"cs/0701001\" (old style)".to_string()
    }
}

/// Help for a key (or record id) that differs from its file name, offering
/// only names that pass the key rule themselves: renaming to an invalid key
/// would trade one error for another. `fallback` must itself be valid.
pub(super) fn mismatch_help(
    field: &str,
    value: &str,
    stem: &str,
    valid: impl Fn(&str) -> bool,
    fallback: &str,
) -> String {
    match (valid(value), valid(stem)) {
        (true, true) => format!("rename the file to `{value}.yaml` or set `{field}: {stem}`"),
        (true, false) => format!("rename the file to `{value}.yaml`"),
        (false, true) => format!("set `{field}: {stem}`"),
        (false, false) => format!(
            "name the file and `{field}` alike with a valid name, e.g. `{fallback}.yaml` and `{field}: {fallback}`"
        ),
    }
}

pub(super) fn stem(rel: &str) -> &str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.strip_suffix(".yaml").unwrap_or(name)
}
