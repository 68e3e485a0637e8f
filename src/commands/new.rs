//! `corpus new`: the scaffold of a new entry, written to corpus/papers/KEY.yaml.

use super::{load_corpus, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;

/// Options of `corpus new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The new entry's key: lowercase letters, digits and '-'.
    pub key: String,
    /// Its arXiv id (fills arxiv_id, year and the link).
    #[arg(long, value_name = "ID")]
    pub arxiv: Option<String>,
    /// Its category: one of the taxonomy's `category` values (`corpus schema` lists them; a wrong one is answered with the list).
    #[arg(long, value_name = "CATEGORY")]
    pub category: Option<String>,
    /// Overwrite an existing file.
    #[arg(long)]
    pub force: bool,
    /// Fill title, first author and year from the arXiv API (needs --arxiv).
    #[arg(long, requires = "arxiv")]
    pub fetch: bool,
    /// The arXiv API endpoint used by --fetch.
    #[arg(long, value_name = "URL", default_value = corpus_core::network::arxiv::DEFAULT_API)]
    pub arxiv_api: String,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // Where the scaffold was written.
        true
    }
}

/// Writes the scaffold of entry KEY, never over an existing file unless
/// `--force`; with `--fetch` the arXiv record fills what it knows.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let corpus = load_corpus(root, ctx.load, None)?;
    let rel = format!("{}/{}.yaml", Layout::PAPERS_DIR, args.key);
    if args.fetch && !args.force && corpus_io::files::occupied(&root.join(&rel)) {
        // Say so before asking the network for anything.
        return Err(Outcome::fail(
            2,
            format!("{rel} already exists and was left untouched; pass --force to overwrite"),
        ));
    }
    let fetched = match (args.fetch, &args.arxiv) {
        (true, Some(id)) => Some(
            corpus_core::network::arxiv::fetch_one(&args.arxiv_api, id).map_err(|e| {
                // Offline, the scaffold is still one command away.
                Outcome::fail(
                    2,
                    format!(
                        "{e}\n  = help: without the network, leave out --fetch: `corpus new {} --arxiv {id}` writes the scaffold, and you fill in title, first author and year",
                        args.key
                    ),
                )
            })?,
        ),
        _ => None,
    };
    let text = corpus_core::exchange::scaffold::scaffold(
        &corpus.taxonomy,
        &args.key,
        args.arxiv.as_deref(),
        args.category.as_deref(),
        fetched.as_ref(),
    )
    .map_err(|e| Outcome::fail(2, e))?;
    corpus_io::files::write_new_files(root, &[(root.join(&rel), text)], args.force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome::ok(format!(
        "wrote {rel}; fill in the empty fields, then run `corpus check`\n"
    )))
}
