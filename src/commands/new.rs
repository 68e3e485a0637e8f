//! `corpus new`: the scaffold of a new entry, written to corpus/papers/KEY.yaml.

use super::{load_corpus, Outcome, Result};
use corpus_core::load::{self, LoadOptions};
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
    if fetch_from.is_some() && !force && corpus_io::files::occupied(&root.join(&rel)) {
        // Say so before asking the network for anything.
        return Err(Outcome::fail(
            2,
            format!("{rel} already exists and was left untouched; pass --force to overwrite"),
        ));
    }
    // With --fetch: title, first author and year from the arXiv API at `fetch_from`.
    let fetched = match (fetch_from, arxiv) {
        (Some(api), Some(id)) => {
            Some(corpus_core::network::arxiv::fetch_one(api, id).map_err(|e| Outcome::fail(2, e))?)
        }
        _ => None,
    };
    let text = corpus_core::exchange::scaffold::scaffold(
        &corpus.taxonomy,
        key,
        arxiv,
        category,
        fetched.as_ref(),
    )
    .map_err(|e| Outcome::fail(2, e))?;
    corpus_io::files::write_new_files(&[(root.join(&rel), text)], force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome::ok(format!(
        "wrote {rel}; fill in the empty fields, then run `corpus check`\n"
    )))
}
