//! The command line: argument definitions and the dispatch from a parsed
//! command to library calls. Output is returned as text, never printed here,
//! so `main` stays the only place that touches stdout and stderr.

use crate::check;
use crate::diag::Diagnostic;
use crate::generate::{self, Part};
use crate::load::{self, Corpus, LoadError, LoadOptions};
use crate::report::{self, Format, Sources};
use crate::stats;
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Keeps a curated literature corpus as YAML and turns it into checked, counted, rendered output.
#[derive(Debug, Parser)]
#[command(
    name = "corpus",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 clean, 1 problems found, 2 could not run (bad usage, no corpus root)."
)]
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
    /// Check, then regenerate stats/ and README.md from the data.
    Build(PublishArgs),
    /// Print the statistics (or, with --write, regenerate stats/ only).
    Stats(StatsArgs),
    /// Regenerate README.md only.
    Render(PublishArgs),
    /// Print the claims ledger: each claim, expected and actual, and whether it holds.
    Claims(ClaimsArgs),
    /// List entries (or exclusion records) matching filters.
    List(ListArgs),
    /// Show what a change moves: entries, figures and claims.
    Diff(DiffArgs),
    /// Import the reference CSV layout into YAML files.
    Import(ImportArgs),
    /// Write the scaffold of a new entry, corpus/papers/KEY.yaml.
    New(NewArgs),
    /// Format entry and record files: field order, quoting every YAML reader agrees on.
    Fmt(FmtArgs),
    /// Print the JSON Schema of entry files, generated from the taxonomy.
    Schema,
    /// Export the corpus as CSV (the import layout), JSON or BibTeX.
    Export(ExportArgs),
    /// Compare a second annotator's tags with the corpus (agreement, Cohen's kappa).
    Agreement(AgreementArgs),
    /// Validate orchestration traces, or replay one into metrics.
    #[command(subcommand)]
    Trace(TraceCommand),
}

/// The `corpus trace` subcommands.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Check traces against the trace schema and the graph rules.
    Validate(TraceValidateArgs),
    /// Replay one trace into orchestration metrics.
    Metrics(TraceMetricsArgs),
}

/// Options of `corpus trace validate`.
#[derive(Debug, Args)]
pub struct TraceValidateArgs {
    /// Trace files, or folders searched for .json files.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Options of `corpus trace metrics`.
#[derive(Debug, Args)]
pub struct TraceMetricsArgs {
    /// The trace file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Options of `corpus agreement`.
#[derive(Debug, Args)]
pub struct AgreementArgs {
    /// Annotations: CSV with `key` and `ann_<field>` columns, or YAML with the same content.
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Options of `corpus new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The new entry's key: lowercase letters, digits and '-'.
    pub key: String,
    /// Its arXiv id (fills arxiv_id, year and the link).
    #[arg(long, value_name = "ID")]
    pub arxiv: Option<String>,
    /// Its category.
    #[arg(long, value_name = "C")]
    pub category: Option<String>,
    /// Overwrite an existing file.
    #[arg(long)]
    pub force: bool,
}

/// Options of `corpus fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Write nothing; list the files that would change and fail if any would.
    #[arg(long)]
    pub check: bool,
    /// Entry or record files, or folders searched for .yaml files (default: all of them).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// The reference CSV layout (papers.csv, or excluded.csv with --exclusions).
    Csv,
    /// Entries and records as one JSON document.
    Json,
    /// One BibTeX entry per paper.
    Bibtex,
}

/// Options of `corpus export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
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

/// Output format of `corpus claims`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum TableFormat {
    /// A text table.
    #[default]
    Table,
    /// JSON.
    Json,
}

/// Options of `corpus claims`.
#[derive(Debug, Args)]
pub struct ClaimsArgs {
    /// Also list the keys each claim matches.
    #[arg(long, short)]
    pub verbose: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Output format of `corpus list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ListFormat {
    /// A text table.
    #[default]
    Table,
    /// JSON array of the full entries.
    Json,
    /// One key per line.
    Keys,
}

/// Options of `corpus list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// FIELD=VALUE condition (repeatable; all must hold). `!` negates, `a,b` allows several, `[]` is an empty list.
    #[arg(long = "where", value_name = "FIELD=VALUE")]
    pub conditions: Vec<String>,
    /// List exclusion records instead of entries.
    #[arg(long)]
    pub exclusions: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

/// Output format of `corpus diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiffFormat {
    /// Plain text.
    #[default]
    Text,
    /// A pull-request comment.
    Markdown,
    /// JSON.
    Json,
}

/// Options of `corpus diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old corpus root to compare with (instead of --base).
    #[arg(
        value_name = "OLD_ROOT",
        conflicts_with = "base",
        required_unless_present = "base"
    )]
    pub old_root: Option<PathBuf>,
    /// Compare with the corpus as committed at this git revision.
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
}

/// Options of `corpus build` and `corpus render`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Write nothing; fail when a generated file is stale.
    #[arg(long)]
    pub check: bool,
}

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

/// Options of `corpus stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Output format when printing.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Regenerate stats/ instead of printing.
    #[arg(long)]
    pub write: bool,
    /// With --write: write nothing; fail when a file under stats/ is stale.
    #[arg(long, requires = "write")]
    pub check: bool,
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

impl From<crate::fmt_files::FmtOutcome> for Outcome {
    fn from(o: crate::fmt_files::FmtOutcome) -> Outcome {
        Outcome {
            code: o.code,
            stdout: o.stdout,
            stderr: o.stderr,
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
    // Traces come from agent logs anywhere on disk; they need no corpus root.
    if let Command::Trace(t) = &cli.command {
        return cmd_trace(cli, t, cwd);
    }
    let root = match find_root(cli.root.as_deref(), cwd) {
        Ok(r) => r,
        Err(e) => return Outcome::fail(2, e),
    };
    let opts = LoadOptions {
        max_file_bytes: cli.max_file_size,
    };
    match &cli.command {
        Command::Check(a) => cmd_check(&root, opts, a),
        Command::Import(a) => cmd_import(&root, opts, a),
        Command::Build(a) => cmd_publish(&root, opts, Part::All, a.check),
        Command::Render(a) => cmd_publish(&root, opts, Part::Readme, a.check),
        Command::Stats(a) if a.write => cmd_publish(&root, opts, Part::Stats, a.check),
        Command::Stats(a) => cmd_stats(&root, opts, a),
        Command::Claims(a) => cmd_claims(&root, opts, a),
        Command::List(a) => cmd_list(&root, opts, a),
        Command::Diff(a) => cmd_diff(&root, opts, a),
        Command::New(a) => cmd_new(&root, opts, a),
        Command::Fmt(a) => {
            crate::fmt_files::run(&root, &a.paths, a.check, opts.max_file_bytes, cwd).into()
        }
        Command::Schema => match load_or_fail(&root, opts, Format::Human) {
            Ok(c) => Outcome {
                code: 0,
                stdout: crate::schema::entry_schema_text(&c.taxonomy),
                stderr: String::new(),
            },
            Err(o) => o,
        },
        Command::Export(a) => cmd_export(&root, opts, a, cwd),
        Command::Agreement(a) => cmd_agreement(&root, opts, a, cwd),
        Command::Trace(t) => cmd_trace(cli, t, cwd),
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
    let mut rep = check::check(&corpus);
    rep.diagnostics
        .extend(generate::stale_diagnostics(root, &corpus, Part::All));
    Outcome {
        code: i32::from(rep.fails(a.strict)),
        stdout: render_report(&corpus, &rep.diagnostics, rep.waived.len(), a.format),
        stderr: String::new(),
    }
}

fn cmd_stats(root: &Path, opts: LoadOptions, a: &StatsArgs) -> Outcome {
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let st = stats::of_corpus(&corpus);
    let stdout = match a.format {
        StatsFormat::Table => stats::text_tables(&st),
        StatsFormat::Markdown => stats::markdown_tables(&st),
        StatsFormat::Json => st.json_text(),
        StatsFormat::Csv => st.csv_long(),
    };
    let errors = check::check(&corpus).errors();
    let stderr = if errors > 0 {
        format!("warning: the corpus has {errors} error(s); run `corpus check` — these figures count the data as it is\n")
    } else {
        String::new()
    };
    Outcome {
        code: 0,
        stdout,
        stderr,
    }
}

/// `build`, `render` and `stats --write`: check, generate, then write or compare.
fn cmd_publish(root: &Path, opts: LoadOptions, part: Part, check_only: bool) -> Outcome {
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let rep = check::check(&corpus);
    if rep.errors() > 0 {
        let errors: Vec<Diagnostic> = rep
            .diagnostics
            .into_iter()
            .filter(|d| d.fails(false))
            .collect();
        let summary = format!(
            "{} error(s): nothing was written; fix them and build again",
            errors.len()
        );
        return Outcome {
            code: 1,
            stdout: String::new(),
            stderr: report::render(&errors, Format::Human, &sources(&corpus), Some(&summary)),
        };
    }
    let templates = match generate::read_templates(root) {
        Ok(t) => t,
        Err(d) => return Outcome::fail(1, format!("{}: {}", d.file, d.message)),
    };
    if part != Part::Stats && !templates.iter().any(|(n, _)| n == "README.md.tera") {
        return Outcome::fail(
            2,
            format!(
                "no {}/README.md.tera under {}",
                generate::TEMPLATES_DIR,
                root.display()
            ),
        );
    }
    let files = match generate::generate(&corpus, &templates, part) {
        Ok(f) => f,
        Err(d) => return Outcome::fail(1, format!("{}: {}", d.file, d.message)),
    };
    if check_only {
        let stale: Vec<String> = generate::stale(root, &files)
            .iter()
            .map(|f| f.path.clone())
            .collect();
        let leftovers = generate::leftovers(root, &files);
        if stale.is_empty() && leftovers.is_empty() {
            return Outcome {
                code: 0,
                stdout: format!("all {} generated files are fresh\n", files.len()),
                stderr: String::new(),
            };
        }
        let mut msg = String::new();
        for p in &stale {
            msg.push_str(&format!("stale: {p}\n"));
        }
        for p in &leftovers {
            msg.push_str(&format!("no longer generated: {p}\n"));
        }
        msg.push_str("run `corpus build` and commit the result\n");
        return Outcome {
            code: 1,
            stdout: msg,
            stderr: String::new(),
        };
    }
    match generate::write(root, &files) {
        Ok(w) => {
            let mut out = String::new();
            for p in &w.changed {
                out.push_str(&format!("wrote {p}\n"));
            }
            for p in &w.removed {
                out.push_str(&format!("removed {p}\n"));
            }
            out.push_str(&format!(
                "{} changed, {} unchanged, {} removed\n",
                w.changed.len(),
                w.unchanged,
                w.removed.len()
            ));
            Outcome {
                code: 0,
                stdout: out,
                stderr: String::new(),
            }
        }
        Err(e) => Outcome::fail(1, e),
    }
}

fn cmd_import(root: &Path, opts: LoadOptions, a: &ImportArgs) -> Outcome {
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
        let text = match import::read_csv(p, opts.max_file_bytes) {
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
        let text = match import::read_csv(p, opts.max_file_bytes) {
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

fn cmd_claims(root: &Path, opts: LoadOptions, a: &ClaimsArgs) -> Outcome {
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    if corpus.claims.is_none() {
        let problems: Vec<Diagnostic> = corpus
            .diagnostics
            .iter()
            .filter(|d| d.file == crate::claims::CLAIMS_PATH)
            .cloned()
            .collect();
        if problems.is_empty() {
            return Outcome::fail(
                1,
                format!("no claims ledger at {}", crate::claims::CLAIMS_PATH),
            );
        }
        return Outcome {
            code: 1,
            stdout: report::render(&problems, Format::Human, &sources(&corpus), None),
            stderr: String::new(),
        };
    }
    let verdicts = corpus.verdicts();
    let code = i32::from(verdicts.iter().any(|v| !v.holds));
    let stdout = match a.format {
        TableFormat::Table => crate::claims::table(verdicts, a.verbose),
        TableFormat::Json => serde_json::to_string_pretty(verdicts).unwrap_or_default() + "\n",
    };
    Outcome {
        code,
        stdout,
        stderr: String::new(),
    }
}

fn cmd_list(root: &Path, opts: LoadOptions, a: &ListArgs) -> Outcome {
    use crate::filter::{Condition, Filter};
    let mut filter = Filter::default();
    let known: Vec<&str> = if a.exclusions {
        crate::fields::record_filter_fields().collect()
    } else {
        crate::fields::entry_filter_fields().collect()
    };
    for c in &a.conditions {
        match Condition::parse_assignment(c) {
            Ok(cond) if known.contains(&cond.field.as_str()) => filter.conditions.push(cond),
            Ok(cond) => {
                return Outcome::fail(
                    2,
                    format!(
                        "--where: unknown field `{}`; fields: {}",
                        cond.field,
                        known.join(", ")
                    ),
                )
            }
            Err(e) => return Outcome::fail(2, format!("--where: {e}")),
        }
    }
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let stdout = if a.exclusions {
        let items: Vec<&crate::model::Exclusion> = corpus
            .exclusion_list()
            .into_iter()
            .filter(|x| filter.matches(*x))
            .collect();
        match a.format {
            ListFormat::Keys => items.iter().map(|x| format!("{}\n", x.record_id)).collect(),
            ListFormat::Json => serde_json::to_string_pretty(&items).unwrap_or_default() + "\n",
            ListFormat::Table => list_table(
                &["record_id", "stage", "source", "title"],
                items.iter().map(|x| {
                    vec![
                        x.record_id.clone(),
                        x.stage.clone(),
                        x.source.clone(),
                        x.title.clone(),
                    ]
                }),
            ),
        }
    } else {
        let items: Vec<&crate::model::Entry> = corpus
            .entry_list()
            .into_iter()
            .filter(|e| filter.matches(*e))
            .collect();
        match a.format {
            ListFormat::Keys => items.iter().map(|e| format!("{}\n", e.key)).collect(),
            ListFormat::Json => serde_json::to_string_pretty(&items).unwrap_or_default() + "\n",
            ListFormat::Table => list_table(
                &["key", "year", "category", "reward", "credit", "form"],
                items.iter().map(|e| {
                    vec![
                        e.key.clone(),
                        e.year.to_string(),
                        e.category.clone(),
                        e.reward_type.clone(),
                        e.credit_granularity.clone(),
                        e.orchestration_form.clone(),
                    ]
                }),
            ),
        }
    };
    Outcome {
        code: 0,
        stdout,
        stderr: String::new(),
    }
}

fn list_table(head: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(100)
        .set_header(head.to_vec());
    let mut n = 0;
    for r in rows {
        t.add_row(r);
        n += 1;
    }
    format!("{t}\n{n} matching\n")
}

fn cmd_diff(root: &Path, opts: LoadOptions, a: &DiffArgs) -> Outcome {
    let snapshot;
    let old_root: &Path = match (&a.old_root, &a.base) {
        (Some(p), _) => {
            if !p.join(load::TAXONOMY_PATH).is_file() {
                return Outcome::fail(
                    2,
                    format!("{}: no {} there", p.display(), load::TAXONOMY_PATH),
                );
            }
            p
        }
        (None, Some(rev)) => match crate::diff::snapshot_at(root, rev) {
            Ok(s) => {
                snapshot = s;
                snapshot.root()
            }
            Err(e) => return Outcome::fail(2, e),
        },
        (None, None) => return Outcome::fail(2, "diff needs OLD_ROOT or --base REV"),
    };
    let old = match load::load(old_root, opts).map_err(|e| format!("{}: {e}", old_root.display())) {
        Ok(c) => c,
        Err(e) => return Outcome::fail(2, e),
    };
    let new = match load::load(root, opts).map_err(|e| format!("{}: {e}", root.display())) {
        Ok(c) => c,
        Err(e) => return Outcome::fail(2, e),
    };
    let d = crate::diff::diff(&old, &new);
    let unreadable: usize = [&old, &new]
        .iter()
        .map(|c| c.diagnostics.iter().filter(|d| d.fails(false)).count())
        .sum();
    let stderr = if unreadable > 0 {
        format!("warning: {unreadable} file problem(s) left some data out of the comparison; run `corpus check`\n")
    } else {
        String::new()
    };
    let stdout = match a.format {
        DiffFormat::Text => crate::diff::text(&d),
        DiffFormat::Markdown => crate::diff::markdown(&d),
        DiffFormat::Json => serde_json::to_string_pretty(&d).unwrap_or_default() + "\n",
    };
    Outcome {
        code: 0,
        stdout,
        stderr,
    }
}

fn cmd_new(root: &Path, opts: LoadOptions, a: &NewArgs) -> Outcome {
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let text = match crate::scaffold::scaffold(
        &corpus.taxonomy,
        &a.key,
        a.arxiv.as_deref(),
        a.category.as_deref(),
    ) {
        Ok(t) => t,
        Err(e) => return Outcome::fail(2, e),
    };
    let rel = format!("{}/{}.yaml", load::PAPERS_DIR, a.key);
    match crate::files::write_new_files(&[(root.join(&rel), text)], a.force) {
        Ok(_) => Outcome {
            code: 0,
            stdout: format!("wrote {rel}; fill in the empty fields, then run `corpus check`\n"),
            stderr: String::new(),
        },
        Err(e) => Outcome::fail(1, e),
    }
}

fn cmd_export(root: &Path, opts: LoadOptions, a: &ExportArgs, cwd: &Path) -> Outcome {
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let errors = check::check(&corpus).errors();
    if errors > 0 {
        return Outcome::fail(1, format!("the corpus has {errors} error(s); run `corpus check` and fix them before exporting"));
    }
    let (entries, records) = (corpus.entry_list(), corpus.exclusion_list());
    let text = match (a.format, a.exclusions) {
        (ExportFormat::Csv, false) => crate::export::papers_csv(&entries),
        (ExportFormat::Csv, true) => crate::export::exclusions_csv(&records),
        (ExportFormat::Json, _) => crate::export::json(&entries, &records),
        (ExportFormat::Bibtex, false) => crate::export::bibtex(&entries),
        (ExportFormat::Bibtex, true) => {
            return Outcome::fail(2, "--exclusions goes with --format csv")
        }
    };
    match &a.out {
        None => Outcome {
            code: 0,
            stdout: text,
            stderr: String::new(),
        },
        Some(p) => {
            let path = cwd.join(p);
            match crate::files::write_new_files(&[(path, text)], a.force) {
                Ok(_) => Outcome {
                    code: 0,
                    stdout: String::new(),
                    stderr: format!("wrote {}\n", p.display()),
                },
                Err(e) => Outcome::fail(1, e),
            }
        }
    }
}

fn cmd_agreement(root: &Path, opts: LoadOptions, a: &AgreementArgs, cwd: &Path) -> Outcome {
    use crate::agreement;
    let text = match agreement::read_input(&cwd.join(&a.file), opts.max_file_bytes) {
        Ok(t) => t,
        Err(e) => return Outcome::fail(2, e),
    };
    let corpus = match load_or_fail(root, opts, Format::Human) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let label = a.file.display().to_string();
    let mut src = Sources::new();
    src.insert(label.as_str(), text.as_str());
    let result = agreement::parse(&label, &text)
        .and_then(|anns| agreement::compare(&label, &anns, &corpus.entry_list(), &corpus.taxonomy));
    match result {
        Ok(r) => Outcome {
            code: 0,
            stdout: match a.format {
                TableFormat::Table => agreement::table(&r),
                TableFormat::Json => serde_json::to_string_pretty(&r).unwrap_or_default() + "\n",
            },
            stderr: String::new(),
        },
        Err(diags) => {
            let summary = format!(
                "{} problem(s) in the annotations; nothing was compared",
                diags.len()
            );
            Outcome {
                code: 1,
                stdout: report::render(&diags, Format::Human, &src, Some(&summary)),
                stderr: String::new(),
            }
        }
    }
}

/// The shipped taxonomy, for mapping trace reward channels outside a corpus root.
const BUILTIN_TAXONOMY: &str = include_str!("../corpus/taxonomy.yaml");

fn cmd_trace(cli: &Cli, t: &TraceCommand, cwd: &Path) -> Outcome {
    use crate::trace;
    let max = cli.max_file_size.max(trace::DEFAULT_MAX_BYTES);
    match t {
        TraceCommand::Validate(a) => {
            let paths: Vec<PathBuf> = a.paths.iter().map(|p| cwd.join(p)).collect();
            let files = match trace::collect_inputs(&paths) {
                Ok(f) => f,
                Err(e) => return Outcome::fail(2, e),
            };
            let mut diags = Vec::new();
            for f in &files {
                let label = f.strip_prefix(cwd).unwrap_or(f).display().to_string();
                diags.extend(trace::validate_file(f, &label, max));
            }
            let summary = report::summary(
                &diags,
                0,
                &format!("validated {} trace file(s)", files.len()),
            );
            // Snippets only for the human format, and only of files that have problems.
            let mut texts: Vec<(String, String)> = Vec::new();
            if a.format == Format::Human {
                for f in &files {
                    let label = f.strip_prefix(cwd).unwrap_or(f).display().to_string();
                    if diags.iter().any(|d| d.file == label && d.line.is_some()) {
                        if let Ok(b) = crate::reader::read_bytes(f, max) {
                            texts.push((label, String::from_utf8_lossy(&b).into_owned()));
                        }
                    }
                }
            }
            let sources: Sources = texts
                .iter()
                .map(|(l, t)| (l.as_str(), t.as_str()))
                .collect();
            Outcome {
                code: i32::from(diags.iter().any(|d| d.fails(false))),
                stdout: report::render(&diags, a.format, &sources, Some(&summary)),
                stderr: String::new(),
            }
        }
        TraceCommand::Metrics(a) => {
            let path = cwd.join(&a.file);
            let label = a.file.display().to_string();
            let bytes = match trace::read_limited(&path, &label, max) {
                Ok(b) => b,
                Err(d) if !path.is_file() => return Outcome::fail(2, d.message),
                Err(d) => {
                    return Outcome {
                        code: 1,
                        stdout: report::render(&[d], Format::Human, &Sources::new(), None),
                        stderr: String::new(),
                    }
                }
            };
            let tr = match trace::parse(&label, &bytes) {
                Ok(t) => t,
                Err(diags) => {
                    return Outcome {
                        code: 1,
                        stdout: report::render(&diags, Format::Human, &Sources::new(), None),
                        stderr: String::new(),
                    }
                }
            };
            // The corpus's own taxonomy when run inside one, else the shipped one.
            let (tax_label, tax_text) = match find_root(cli.root.as_deref(), cwd) {
                Ok(root) => match crate::reader::read_text(
                    &root.join(load::TAXONOMY_PATH),
                    cli.max_file_size,
                ) {
                    Ok(t) => (root.join(load::TAXONOMY_PATH).display().to_string(), t),
                    Err(e) => return Outcome::fail(2, format!("{}: {e}", root.display())),
                },
                Err(_) => (
                    "built-in taxonomy".to_string(),
                    BUILTIN_TAXONOMY.to_string(),
                ),
            };
            let taxonomy = match crate::taxonomy::Taxonomy::from_yaml(&tax_text) {
                Ok(t) => t,
                Err(e) => return Outcome::fail(2, format!("{tax_label}: {e}")),
            };
            let m = trace::metrics(&tr, &taxonomy.channel_families());
            let stdout = match a.format {
                TableFormat::Table => trace::metrics_table(&m),
                TableFormat::Json => serde_json::to_string_pretty(&m).unwrap_or_default() + "\n",
            };
            Outcome {
                code: 0,
                stdout,
                stderr: String::new(),
            }
        }
    }
}
