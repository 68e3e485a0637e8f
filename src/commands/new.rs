//! `corpus new`: the scaffold of a new entry, written to corpus/papers/KEY.yaml.

use super::{load_corpus, Outcome, Result};
use crate::load::{self, LoadOptions};
use std::path::Path;

/// Writes the scaffold of entry `key`, never over an existing file unless `force`.
pub fn run(
    root: &Path,
    opts: LoadOptions,
    key: &str,
    arxiv: Option<&str>,
    category: Option<&str>,
    force: bool,
) -> Result {
    let corpus = load_corpus(root, opts, None)?;
    let text = crate::scaffold::scaffold(&corpus.taxonomy, key, arxiv, category)
        .map_err(|e| Outcome::fail(2, e))?;
    let rel = format!("{}/{key}.yaml", load::PAPERS_DIR);
    crate::files::write_new_files(&[(root.join(&rel), text)], force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome::ok(format!(
        "wrote {rel}; fill in the empty fields, then run `corpus check`\n"
    )))
}
