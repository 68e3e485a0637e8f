//! `corpus stats`: the figures printed in one of four formats (or, with
//! `--write`, written under stats/ as `corpus build` would; with `--check`,
//! compared with what is there).

use super::{checked_and_counted, parse_checked, publish, Audience, Context, Outcome, Result};
use corpus_core::load;
use corpus_core::publish::generate::{self, Part};
use corpus_core::publish::on_disk;
use corpus_core::stats::Stats;
use corpus_diagnostics::diag::Severity;

/// Output format of `corpus stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum StatsFormat {
    /// Terminal tables (80 columns), for a person.
    #[default]
    #[value(alias = "table")]
    Human,
    /// GitHub Markdown tables.
    Markdown,
    /// One JSON document.
    Json,
    /// One long-form CSV (table,row,column,n).
    Csv,
}

impl StatsFormat {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        matches!(self, StatsFormat::Human | StatsFormat::Markdown)
    }
}

/// Options of `corpus stats`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format when printing.
    #[arg(long, value_enum, default_value_t = StatsFormat::Human)]
    pub format: StatsFormat,
    /// Regenerate stats/ instead of printing.
    #[arg(long)]
    pub write: bool,
    /// Write nothing; fail when a file under stats/ is stale (as `corpus build --check`).
    #[arg(long)]
    pub check: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // With --write or --check, the files written (or stale) rather than the figures.
        self.write || self.check || self.format.is_for_humans()
    }
}

/// Prints the figures of the corpus; warns (but counts) when the data has errors.
pub fn run(ctx: &Context, args: &Args) -> Result {
    if args.write || args.check {
        return publish::run_part(ctx, Part::Stats, args.check, None);
    }
    let root = ctx.root()?;
    let inputs = load::read_inputs(root, ctx.load);
    // When the build fingerprint proves the inputs those of a recorded
    // error-free build, its figures and check result are this run's.
    let recorded = ctx.store().and_then(|s| {
        let key = generate::fingerprint_key(s, &inputs, Part::All)?;
        let previous = on_disk::Previous::of(root, &inputs.previous, None);
        generate::fresh_stats(s, root, key, &previous)
    });
    if let Some((st, checked)) = recorded {
        let errors = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        return Ok(printed(&st, args.format, errors));
    }
    let (corpus, _) = parse_checked(&inputs, None)?;
    let (found, st) = checked_and_counted(&corpus);
    let errors = found.errors();
    let out = printed(&st, args.format, errors);
    super::left_for_exit((corpus, found, inputs));
    Ok(out)
}

/// The figures `st` in `format`, with a warning when the data has `errors`.
fn printed(st: &Stats, format: StatsFormat, errors: usize) -> Outcome {
    let stdout = match format {
        StatsFormat::Human => corpus_core::stats::render::table(st),
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
