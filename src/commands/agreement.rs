//! `corpus agreement`: a second annotator's tags compared with the corpus.

use super::{json_text, load_corpus, Outcome, Result, TableFormat};
use corpus_core::exchange::agreement;
use corpus_core::load::LoadOptions;
use corpus_diagnostics::report::{self, Format, Sources};
use std::path::Path;

/// Compares the annotations in `file` (relative to `cwd`) with the corpus at `root`.
pub fn run(root: &Path, opts: LoadOptions, file: &Path, format: TableFormat, cwd: &Path) -> Result {
    let text = agreement::read_input(&cwd.join(file), opts.max_file_bytes)
        .map_err(|e| Outcome::fail(2, e))?;
    let corpus = load_corpus(root, opts, None)?;
    let label = file.display().to_string();
    let result = agreement::parse(&label, &text)
        .and_then(|anns| agreement::compare(&label, &anns, &corpus.entry_list(), &corpus.taxonomy));
    match result {
        Ok(r) => Ok(Outcome::ok(match format {
            TableFormat::Table => agreement::table(&r),
            TableFormat::Json => json_text(&r),
        })),
        Err(diags) => {
            let mut src = Sources::new();
            src.insert(label.as_str(), text.as_str());
            let summary = format!(
                "{} problem(s) in the annotations; nothing was compared",
                diags.len()
            );
            // With --format json every stdout line is JSON: one diagnostic per line.
            let report_format = match format {
                TableFormat::Table => Format::Human,
                TableFormat::Json => Format::Json,
            };
            Err(Outcome::with_code(
                1,
                report::render(&diags, report_format, &src, Some(&summary)),
            ))
        }
    }
}
