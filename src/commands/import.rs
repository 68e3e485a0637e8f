//! `corpus import`: the reference CSV layout into one YAML file per entry
//! and per record, all rows validated before anything is written.

use super::{Audience, Context, Outcome, Result};
use corpus_core::exchange::import;
use corpus_core::layout::Layout;
use corpus_core::load::LoadOptions;
use corpus_diagnostics::report::{self, Format, Sources};
use std::path::{Path, PathBuf};

/// Options of `corpus import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// papers.csv in the reference layout.
    #[arg(long, value_name = "FILE")]
    pub papers: Option<PathBuf>,
    /// excluded.csv in the reference layout.
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
    if let Some(p) = &args.papers {
        let text = read(p, ctx.load)?;
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
        let summary = format!("import: {} bad row(s); nothing was written", diags.len());
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
