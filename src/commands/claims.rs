//! `corpus claims`: the claims ledger judged on the data.

use super::{json_text, load_corpus, sources, Audience, Context, Outcome, Result, TableFormat};
use corpus_core::layout::Layout;

use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report;

/// Options of `corpus claims`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Human)]
    pub format: TableFormat,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Prints each claim with its expected and actual count (with `--verbose`,
/// the keys each matches too); fails when one does not hold.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let corpus = load_corpus(ctx.root()?, ctx.load, None)?;
    if corpus.claims.is_none() {
        let problems: Vec<Diagnostic> = corpus
            .diagnostics
            .iter()
            .filter(|d| d.file == Layout::CLAIMS)
            .cloned()
            .collect();
        if problems.is_empty() {
            return Err(Outcome::fail(
                2,
                format!("no claims ledger at {}", Layout::CLAIMS),
            ));
        }
        return Err(Outcome::with_code(
            1,
            report::render(
                &problems,
                args.format.report_format(),
                &sources(&corpus),
                None,
            ),
        ));
    }
    let verdicts = corpus.verdicts();
    let stdout = match args.format {
        TableFormat::Human => corpus_core::model::claims::table(verdicts, ctx.verbose),
        TableFormat::Json => json_text(verdicts),
    };
    Ok(Outcome::with_code(
        i32::from(verdicts.iter().any(|v| !v.holds)),
        stdout,
    ))
}
