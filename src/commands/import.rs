//! `corpus import`: the reference CSV layout into one YAML file per entry
//! and per record, all rows validated before anything is written.

use super::{Audience, Context, Outcome, Result};
use corpus_core::exchange::import;
use corpus_core::layout::Layout;
use corpus_core::load::LoadOptions;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::{self, Format, Sources};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Options of `corpus import`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("input").required(true).multiple(true).args(["papers", "excluded"]))]
pub struct Args {
    /// papers.csv in the reference layout (at least one of --papers and --excluded).
    #[arg(long, value_name = "FILE")]
    pub papers: Option<PathBuf>,
    /// excluded.csv in the reference layout (at least one of --papers and --excluded).
    #[arg(long, value_name = "FILE")]
    pub excluded: Option<PathBuf>,
    /// Overwrite existing entry and record files.
    #[arg(long)]
    pub force: bool,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // A count of what was imported, or the bad rows.
        true
    }
}

/// "N problem(s) in M of R row(s) of FILE (lines …)" for each file with
/// problems: rows and problems are counted apart, since one row can have
/// several, and the failing rows are named by the line they start on.
fn failure_summary(diags: &[Diagnostic], rows: &[(String, usize)]) -> String {
    rows.iter()
        .filter_map(|(file, total)| {
            let of_file: Vec<&Diagnostic> = diags.iter().filter(|d| &d.file == file).collect();
            if of_file.is_empty() {
                return None;
            }
            // The header's problems (line 1) concern the file, not a row.
            let lines: BTreeSet<usize> = of_file
                .iter()
                .filter_map(|d| d.line)
                .filter(|&l| l > 1)
                .collect();
            let shown: Vec<String> = lines.iter().take(10).map(ToString::to_string).collect();
            let more = lines.len().saturating_sub(shown.len());
            let which = match (shown.is_empty(), more) {
                (true, _) => String::new(),
                (false, 0) => format!(" (lines {})", shown.join(", ")),
                (false, n) => format!(" (lines {} and {n} more)", shown.join(", ")),
            };
            Some(format!(
                "{} problem(s) in {} of {total} row(s) of {file}{which}",
                of_file.len(),
                lines.len()
            ))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Reads one CSV file, turning a failure into the outcome of a run that cannot start.
fn read(path: &Path, opts: LoadOptions) -> std::result::Result<String, Outcome> {
    import::read_csv(path, opts.max_file_bytes).map_err(|e| Outcome::fail(2, e))
}

/// Imports `--papers` (papers.csv) and/or `--excluded` (excluded.csv) into
/// the corpus; writes nothing when a row is bad or a file exists (unless `--force`).
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    if args.papers.is_none() && args.excluded.is_none() {
        return Err(Outcome::fail(
            2,
            "import needs --papers FILE.csv and/or --excluded FILE.csv",
        ));
    }
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut diags = Vec::new();
    let mut counts = (0, 0);
    // Each file read, with its number of data rows, for the summary of a failed import.
    let mut rows: Vec<(String, usize)> = Vec::new();
    if let Some(p) = &args.papers {
        let text = read(p, ctx.load)?;
        rows.push((p.display().to_string(), import::data_rows(&text)));
        match import::parse_papers(&p.display().to_string(), &text) {
            Ok(entries) => {
                counts.0 = entries.len();
                for e in entries {
                    let path = root
                        .join(Layout::PAPERS_DIR)
                        .join(format!("{}.yaml", e.key));
                    files.push((path, import::entry_yaml(&e)));
                }
            }
            Err(d) => diags.extend(d),
        }
    }
    if let Some(p) = &args.excluded {
        let text = read(p, ctx.load)?;
        rows.push((p.display().to_string(), import::data_rows(&text)));
        match import::parse_exclusions(&p.display().to_string(), &text) {
            Ok(records) => {
                counts.1 = records.len();
                for x in records {
                    let path = root
                        .join(Layout::EXCLUSIONS_DIR)
                        .join(format!("{}.yaml", x.record_id));
                    files.push((path, import::exclusion_yaml(&x)));
                }
            }
            Err(d) => diags.extend(d),
        }
    }
    if !diags.is_empty() {
        let summary = format!(
            "import: {}; nothing was written",
            failure_summary(&diags, &rows)
        );
        return Err(Outcome::with_code(
            1,
            report::render(&diags, Format::Human, &Sources::new(), Some(&summary)),
        ));
    }
    let n = corpus_io::files::write_new_files(root, &files, args.force)
        .map_err(|e| Outcome::fail(2, e))?;
    Ok(Outcome::ok(format!(
        "imported {} entries and {} exclusion records ({n} files written)\n",
        counts.0, counts.1
    )))
}
