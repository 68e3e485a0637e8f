//! `corpus stats`: the figures printed in one of four formats.

use super::{load_checked, Outcome, Result};
use corpus_core::check;
use corpus_core::load::LoadOptions;
use corpus_core::publish::generate;
use corpus_core::stats::{self, Stats};
use corpus_diagnostics::diag::Severity;
use std::path::Path;

/// Output format of `corpus stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum StatsFormat {
    /// Terminal tables (80 columns).
    #[default]
    Table,
    /// GitHub Markdown tables.
    Markdown,
    /// One JSON document.
    Json,
    /// One long-form CSV (table,row,column,n).
    Csv,
}

/// Prints the figures of the corpus at `root`; warns (but counts) when the data has errors.
pub fn run(root: &Path, opts: LoadOptions, format: StatsFormat) -> Result {
    // When the build fingerprint proves the inputs those of a recorded
    // error-free build, its figures and check result are this run's.
    if let Some((st, checked)) = generate::fresh_stats(root, opts) {
        let errors = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        return Ok(printed(&st, format, errors));
    }
    let (corpus, _) = load_checked(root, opts, None)?;
    let st = stats::of_corpus(&corpus);
    let errors = check::check(&corpus).errors();
    Ok(printed(&st, format, errors))
}

/// The figures `st` in `format`, with a warning when the data has `errors`.
fn printed(st: &Stats, format: StatsFormat, errors: usize) -> Outcome {
    let stdout = match format {
        StatsFormat::Table => corpus_core::stats::render::table(st),
        StatsFormat::Markdown => corpus_core::stats::render::markdown(st),
        StatsFormat::Json => corpus_core::stats::render::json_text(st),
        StatsFormat::Csv => corpus_core::stats::render::csv_long(st),
    };
    let mut out = Outcome::ok(stdout);
    if errors > 0 {
        out.stderr = format!("warning: the corpus has {errors} error(s); run `corpus check` — these figures count the data as it is\n");
    }
    out
}
