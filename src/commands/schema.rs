//! `corpus schema`: the JSON Schema of entry files, from the taxonomy.

use super::{load_corpus, Audience, Context, Outcome, Result};

/// Options of `corpus schema`: none beyond the global ones.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Prints the entry schema generated from the corpus's taxonomy.
pub fn run(ctx: &Context, _args: &Args) -> Result {
    let corpus = load_corpus(ctx.root()?, ctx.load, None)?;
    Ok(Outcome::ok(
        corpus_core::publish::schema::entry_schema_text(&corpus.taxonomy),
    ))
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // A JSON Schema, for validators.
        false
    }
}
