//! `corpus schema`: the JSON Schema of entry files, from the taxonomy.

use super::{load_corpus, Outcome, Result};
use corpus_core::load::LoadOptions;
use std::path::Path;

/// Prints the entry schema generated from the taxonomy at `root`.
pub fn run(root: &Path, opts: LoadOptions) -> Result {
    let corpus = load_corpus(root, opts, None)?;
    Ok(Outcome::ok(
        corpus_core::publish::schema::entry_schema_text(&corpus.taxonomy),
    ))
}
