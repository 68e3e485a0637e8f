//! `corpus export`: the corpus as CSV (the import layout), JSON or BibTeX,
//! on standard output or into a new file.

use super::{parse_checked, Audience, Context, Outcome, Result};
use corpus_core::check;
use corpus_core::load;
use std::path::PathBuf;

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// The reference CSV layout (papers.csv, or excluded.csv with --exclusions); a cell a spreadsheet would run as a formula (= + - @) gets a leading ', which import removes.
    Csv,
    /// Entries and records as one JSON document.
    Json,
    /// One BibTeX entry per paper.
    Bibtex,
}

/// Options of `corpus export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// With csv: export the exclusion log instead of the entries.
    #[arg(long)]
    pub exclusions: bool,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Overwrite --out if it exists.
    #[arg(long, requires = "out")]
    pub force: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // CSV, JSON or BibTeX, for other programs to read back.
        false
    }
}

/// Exports a corpus without errors; `--out` (relative to the working
/// directory) is written only when it does not exist yet, or with `--force`.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let inputs = load::read_inputs(ctx.root()?, ctx.load);
    let (corpus, _) = parse_checked(&inputs, None)?;
    let errors = check::check(&corpus).errors();
    if errors > 0 {
        return Err(Outcome::fail(1, format!("the corpus has {errors} error(s); run `corpus check` and fix them before exporting")));
    }
    let (entries, records) = (corpus.entry_list(), corpus.exclusion_list());
    let text = match (args.format, args.exclusions) {
        (ExportFormat::Csv, false) => corpus_core::exchange::export::papers_csv(&entries),
        (ExportFormat::Csv, true) => corpus_core::exchange::export::exclusions_csv(&records),
        (ExportFormat::Json, _) => corpus_core::exchange::export::json(&entries, &records),
        (ExportFormat::Bibtex, false) => {
            corpus_core::exchange::export::bibtex(&entries, &corpus.taxonomy.protected_words)
        }
        (ExportFormat::Bibtex, true) => {
            return Err(Outcome::fail(2, "--exclusions goes with --format csv"))
        }
    };
    let Some(p) = &args.out else {
        return Ok(Outcome::ok(text));
    };
    corpus_io::files::write_new_files(&ctx.cwd, &[(ctx.cwd.join(p), text)], args.force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome {
        code: 0,
        stdout: String::new(),
        stderr: format!("wrote {}\n", p.display()),
    })
}
