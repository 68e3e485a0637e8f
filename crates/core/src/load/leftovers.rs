//! Temporary files a killed run left behind: the folders where the tool
//! writes, what `check` says of a leftover there, and how the next writing
//! command removes it. A temporary file whose writer still runs is locked
//! and is neither reported nor removed (see `corpus_io::files::stage`).

use crate::layout::Layout;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use std::path::{Path, PathBuf};

/// The folders below the root that the tool writes into (the root itself
/// first), so where a killed run can leave a temporary file.
fn written_folders(root: &Path) -> Vec<(String, PathBuf)> {
    let data = Path::new(Layout::TAXONOMY)
        .parent()
        .map_or(String::new(), |p| p.to_string_lossy().into_owned());
    [
        String::new(),
        data,
        Layout::PAPERS_DIR.to_string(),
        Layout::EXCLUSIONS_DIR.to_string(),
        Layout::CANDIDATES_DIR.to_string(),
        Layout::STATS_DIR.to_string(),
        Layout::CACHE_DIR.to_string(),
        Layout::SITE_DIR.to_string(),
    ]
    .into_iter()
    .map(|rel| {
        let dir = root.join(&rel);
        (rel, dir)
    })
    .collect()
}

/// The root-relative path of `name` in the folder `rel`.
fn joined(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

/// The abandoned temporary files below `root`, by root-relative path.
pub fn found(root: &Path) -> Vec<String> {
    written_folders(root)
        .iter()
        .flat_map(|(rel, dir)| {
            corpus_io::files::abandoned(dir)
                .into_iter()
                .map(move |n| joined(rel, &n))
        })
        .collect()
}

/// Removes the abandoned temporary files below `root`; returns their paths.
pub fn sweep(root: &Path) -> Vec<String> {
    written_folders(root)
        .iter()
        .flat_map(|(rel, dir)| {
            corpus_io::files::sweep(dir)
                .into_iter()
                .map(move |n| joined(rel, &n))
        })
        .collect()
}

/// One `leftover-temp-file` diagnostic per leftover `found`, in the
/// taxonomy's severity.
pub fn diagnostics(found: &[String], tax: &Taxonomy) -> Vec<Diagnostic> {
    found
        .iter()
        .map(|rel| {
            Diagnostic::new(
                Rule::LeftoverTempFile,
                tax.severity_of(Rule::LeftoverTempFile),
                rel.clone(),
                format!("`{rel}` is a temporary file an interrupted run left behind"),
            )
            .help("any writing command (`corpus build`, `corpus fmt`) removes it; do not commit it")
        })
        .collect()
}
