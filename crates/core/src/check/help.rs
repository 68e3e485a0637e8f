//! What entry and record checks share: help for wrong ids.

use crate::text::ids::{ArxivId, IdForm};

/// Help for an arXiv id that is none, offering the id alone when only its
/// prefix was in the way.
pub(super) fn arxiv_help(id: &ArxivId) -> String {
    match &id.bare {
        Some(bare) => format!("write just the id: `\"{bare}\"`"),
        None => {
            "write it like \"2508.04652\" (new style) or \"cs/0701001\" (old style)".to_string()
        }
    }
}

/// Help for a key (or record id) that differs from its file name, offering
/// only names that pass the key rule themselves: renaming to an invalid key
/// would trade one error for another.
pub(super) fn mismatch_help(field: &str, value: &str, stem: &str, id: &IdForm) -> String {
    let fallback = &id.fallback;
    match (id.valid, id.stem_valid) {
        (true, true) => format!("rename the file to `{value}.yaml` or set `{field}: {stem}`"),
        (true, false) => format!("rename the file to `{value}.yaml`"),
        (false, true) => format!("set `{field}: {stem}`"),
        (false, false) => format!(
            "name the file and `{field}` alike with a valid name, e.g. `{fallback}.yaml` and `{field}: {fallback}`"
        ),
    }
}
