//! `corpus new`: the scaffold of a new entry, written to corpus/papers/KEY.yaml.

use super::{load_corpus, Outcome, Result};
use crate::load::{self, LoadOptions};
use std::path::Path;

/// Writes the scaffold of entry `key`, never over an existing file unless `force`;
/// with `fetch_from` (an arXiv API URL) the record fills what it knows.
pub fn run(
    root: &Path,
    opts: LoadOptions,
    key: &str,
    arxiv: Option<&str>,
    category: Option<&str>,
    force: bool,
    fetch_from: Option<&str>,
) -> Result {
    let corpus = load_corpus(root, opts, None)?;
    let rel = format!("{}/{key}.yaml", load::PAPERS_DIR);
    if fetch_from.is_some() && !force && crate::files::occupied(&root.join(&rel)) {
        // Say so before asking the network for anything.
        return Err(Outcome::fail(
            2,
            format!("{rel} already exists and was left untouched; pass --force to overwrite"),
        ));
    }
    // With --fetch: title, first author and year from the arXiv API at `fetch_from`.
    let fetched = match (fetch_from, arxiv) {
        (Some(api), Some(id)) => {
            Some(crate::arxiv::fetch_one(api, id).map_err(|e| Outcome::fail(2, e))?)
        }
        _ => None,
    };
    let text = crate::scaffold::scaffold(&corpus.taxonomy, key, arxiv, category, fetched.as_ref())
        .map_err(|e| Outcome::fail(2, e))?;
    crate::files::write_new_files(&[(root.join(&rel), text)], force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome::ok(format!(
        "wrote {rel}; fill in the empty fields, then run `corpus check`\n"
    )))
}
