//! `corpus stats`: the figures printed in one of four formats.

use super::{load_checked, Outcome, Result};
use crate::check;
use crate::load::LoadOptions;
use crate::stats;
use crate::stats_render;
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
    let (corpus, _) = load_checked(root, opts, None)?;
    let st = stats::of_corpus(&corpus);
    let stdout = match format {
        StatsFormat::Table => stats_render::table(&st),
        StatsFormat::Markdown => stats_render::markdown(&st),
        StatsFormat::Json => stats_render::json_text(&st),
        StatsFormat::Csv => stats_render::csv_long(&st),
    };
    let errors = check::check(&corpus).errors();
    let mut out = Outcome::ok(stdout);
    if errors > 0 {
        out.stderr = format!("warning: the corpus has {errors} error(s); run `corpus check` — these figures count the data as it is\n");
    }
    Ok(out)
}
