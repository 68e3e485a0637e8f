//! `corpus claims`: the claims ledger judged on the data.

use super::{json_text, load_corpus, sources, Outcome, Result, TableFormat};
use corpus_core::load::LoadOptions;
use corpus_core::model::claims::CLAIMS_PATH;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::{self, Format};
use std::path::Path;

/// Prints each claim with its expected and actual count; fails when one does not hold.
pub fn run(root: &Path, opts: LoadOptions, verbose: bool, format: TableFormat) -> Result {
    let corpus = load_corpus(root, opts, None)?;
    if corpus.claims.is_none() {
        let problems: Vec<Diagnostic> = corpus
            .diagnostics
            .iter()
            .filter(|d| d.file == CLAIMS_PATH)
            .cloned()
            .collect();
        if problems.is_empty() {
            return Err(Outcome::fail(
                2,
                format!("no claims ledger at {CLAIMS_PATH}"),
            ));
        }
        // With --format json every stdout line is JSON: one diagnostic per line.
        let report_format = match format {
            TableFormat::Table => Format::Human,
            TableFormat::Json => Format::Json,
        };
        return Err(Outcome::with_code(
            1,
            report::render(&problems, report_format, &sources(&corpus), None),
        ));
    }
    let verdicts = corpus.verdicts();
    let stdout = match format {
        TableFormat::Table => corpus_core::model::claims::table(verdicts, verbose),
        TableFormat::Json => json_text(verdicts),
    };
    Ok(Outcome::with_code(
        i32::from(verdicts.iter().any(|v| !v.holds)),
        stdout,
    ))
}
