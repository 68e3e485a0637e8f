//! `corpus agreement`: a second annotator's tags compared with the corpus.

use super::{json_text, load_corpus, Audience, Context, Outcome, Result, TableFormat};
use corpus_core::exchange::agreement;
use corpus_diagnostics::report::{self, Sources};
use std::path::PathBuf;

/// Options of `corpus agreement`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Annotations: CSV with `key` and `ann_<field>` columns, or YAML with the same content.
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Human)]
    pub format: TableFormat,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Compares the annotations in FILE (relative to the working directory) with the corpus.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.root()?;
    let text = agreement::read_input(&ctx.cwd.join(&args.file), ctx.load.max_file_bytes)
        .map_err(|e| Outcome::fail(2, e))?;
    let corpus = load_corpus(root, ctx.load, None)?;
    let label = args.file.display().to_string();
    let result = agreement::parse(&label, &text)
        .and_then(|anns| agreement::compare(&label, &anns, &corpus.entry_list(), &corpus.taxonomy));
    match result {
        Ok(r) => Ok(Outcome::ok(match args.format {
            TableFormat::Human => agreement::table(&r),
            TableFormat::Json => json_text(&r),
        })),
        Err(diags) => {
            let mut src = Sources::new();
            src.insert(label.as_str(), text.as_str());
            let summary = format!(
                "{} problem(s) in the annotations; nothing was compared",
                diags.len()
            );
            Err(Outcome::with_code(
                1,
                report::render(&diags, args.format.report_format(), &src, Some(&summary)),
            ))
        }
    }
}
