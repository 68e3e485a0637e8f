//! The command line: argument definitions and the dispatch from a parsed
//! command to library calls. Output is returned as text, never printed here,
//! so `main` stays the only place that touches stdout and stderr.

use crate::check;
use crate::diag::Diagnostic;
use crate::load::{self, Corpus, LoadError, LoadOptions};
use crate::report::{self, Format, Sources};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Keeps a curated literature corpus as YAML and turns it into checked, counted, rendered output.
#[derive(Debug, Parser)]
#[command(name = "corpus", version, about, long_about = None)]
pub struct Cli {
    /// Corpus root (default: nearest ancestor holding corpus/taxonomy.yaml).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Largest data file to read, in bytes.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = load::DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check every entry and record; report all problems.
    Check(CheckArgs),
    /// Import the reference CSV layout into YAML files.
    Import(ImportArgs),
}

/// Options of `corpus check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Fail on unwaived warnings too.
    #[arg(long)]
    pub strict: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Options of `corpus import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
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

/// What a command produced: exit code and the text for each stream.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// 0 clean, 1 problems found, 2 could not run.
    pub code: i32,
    /// Text for standard output.
    pub stdout: String,
    /// Text for standard error.
    pub stderr: String,
}

impl Outcome {
    fn fail(code: i32, msg: impl AsRef<str>) -> Outcome {
        Outcome {
            code,
            stdout: String::new(),
            stderr: format!("error: {}\n", msg.as_ref()),
        }
    }
}

/// Finds the corpus root: `--root`, else the nearest ancestor of `cwd` holding the taxonomy.
pub fn find_root(explicit: Option<&Path>, cwd: &Path) -> Result<PathBuf, String> {
    if let Some(r) = explicit {
        if !r.is_dir() {
            return Err(format!("--root {}: no such directory", r.display()));
        }
        if !r.join(load::TAXONOMY_PATH).is_file() {
            return Err(format!(
                "--root {}: no {} there",
                r.display(),
                load::TAXONOMY_PATH
            ));
        }
        return Ok(r.to_path_buf());
    }
    cwd.ancestors()
        .find(|d| d.join(load::TAXONOMY_PATH).is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "no corpus root: neither {} nor any parent holds {}; pass --root DIR",
                cwd.display(),
                load::TAXONOMY_PATH
            )
        })
}

/// Runs a parsed command line from the given working directory.
pub fn run(cli: &Cli, cwd: &Path) -> Outcome {
    let root = match find_root(cli.root.as_deref(), cwd) {
        Ok(r) => r,
        Err(e) => return Outcome::fail(2, e),
    };
    let opts = LoadOptions {
        max_file_bytes: cli.max_file_size,
    };
    match &cli.command {
        Command::Check(a) => cmd_check(&root, opts, a),
        Command::Import(a) => cmd_import(&root, a),
    }
}

/// Loads a corpus, turning a load failure into the outcome to return.
fn load_or_fail(root: &Path, opts: LoadOptions, format: Format) -> Result<Corpus, Outcome> {
    match load::load(root, opts) {
        Ok(c) => Ok(c),
        Err(LoadError::Io(m)) => Err(Outcome::fail(2, m)),
        Err(LoadError::Taxonomy(diags)) => Err(Outcome {
            code: 1,
            stdout: report::render(
                &diags,
                format,
                &Sources::new(),
                Some("the taxonomy must be fixed before anything else can be checked"),
            ),
            stderr: String::new(),
        }),
    }
}

/// Source texts of a corpus, for snippets.
pub fn sources(corpus: &Corpus) -> Sources<'_> {
    corpus
        .files
        .iter()
        .map(|f| (f.rel.as_str(), f.text.as_str()))
        .collect()
}

/// Renders check diagnostics, adding a summary line in human format.
fn render_report(corpus: &Corpus, diags: &[Diagnostic], waived: usize, format: Format) -> String {
    let what = format!(
        "checked {} entries and {} exclusion records",
        corpus.entries.len(),
        corpus.exclusions.len()
    );
    let summary = report::summary(diags, waived, &what);
    report::render(diags, format, &sources(corpus), Some(&summary))
}

fn cmd_check(root: &Path, opts: LoadOptions, a: &CheckArgs) -> Outcome {
    let corpus = match load_or_fail(root, opts, a.format) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let rep = check::check(&corpus);
    Outcome {
        code: i32::from(rep.fails(a.strict)),
        stdout: render_report(&corpus, &rep.diagnostics, rep.waived.len(), a.format),
        stderr: String::new(),
    }
}

fn cmd_import(root: &Path, a: &ImportArgs) -> Outcome {
    use crate::import;
    if a.papers.is_none() && a.excluded.is_none() {
        return Outcome::fail(
            2,
            "import needs --papers FILE.csv and/or --excluded FILE.csv",
        );
    }
    let mut files = Vec::new();
    let mut diags = Vec::new();
    let mut counts = (0, 0);
    if let Some(p) = &a.papers {
        let text = match import::read_csv(p) {
            Ok(t) => t,
            Err(e) => return Outcome::fail(2, e),
        };
        match import::parse_papers(&p.display().to_string(), &text) {
            Ok(entries) => {
                counts.0 = entries.len();
                for e in entries {
                    let path = root.join(load::PAPERS_DIR).join(format!("{}.yaml", e.key));
                    files.push((path, import::entry_yaml(&e)));
                }
            }
            Err(d) => diags.extend(d),
        }
    }
    if let Some(p) = &a.excluded {
        let text = match import::read_csv(p) {
            Ok(t) => t,
            Err(e) => return Outcome::fail(2, e),
        };
        match import::parse_exclusions(&p.display().to_string(), &text) {
            Ok(records) => {
                counts.1 = records.len();
                for x in records {
                    let path = root
                        .join(load::EXCLUSIONS_DIR)
                        .join(format!("{}.yaml", x.record_id));
                    files.push((path, import::exclusion_yaml(&x)));
                }
            }
            Err(d) => diags.extend(d),
        }
    }
    if !diags.is_empty() {
        let summary = format!("import: {} bad row(s); nothing was written", diags.len());
        return Outcome {
            code: 1,
            stdout: report::render(&diags, Format::Human, &Sources::new(), Some(&summary)),
            stderr: String::new(),
        };
    }
    match crate::files::write_new_files(&files, a.force) {
        Ok(n) => Outcome {
            code: 0,
            stdout: format!(
                "imported {} entries and {} exclusion records ({n} files written)\n",
                counts.0, counts.1
            ),
            stderr: String::new(),
        },
        Err(e) => Outcome::fail(1, e),
    }
}
