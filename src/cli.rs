//! The command line: argument definitions and the dispatch from a parsed
//! command to the function of its module in `commands`. Output is returned
//! as text, never printed here, so `main` stays the only place that touches
//! stdout and stderr.

use crate::commands;
pub use crate::commands::diff::DiffFormat;
pub use crate::commands::export::ExportFormat;
pub use crate::commands::list::ListFormat;
pub use crate::commands::stats::StatsFormat;
pub use crate::commands::{find_root, sources, Outcome, TableFormat};
use clap::{Args, Parser, Subcommand};
use corpus_core::load::{self, LoadOptions};
use corpus_core::network::links::{LinkFormat, LinksOptions};
use corpus_core::network::verify::VerifyOptions;
use corpus_core::publish::generate::Part;
use corpus_diagnostics::report::Format;
use std::path::{Path, PathBuf};

/// Keeps a curated literature corpus as YAML and turns it into checked, counted, rendered output.
#[derive(Debug, Parser)]
#[command(
    name = "corpus",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 clean; 1 problems in the data (the output says which); 2 could not run \
(bad usage, no corpus root or no usable taxonomy, a file that cannot be read or written, \
standard output that cannot be written). A closed pipe stops the output quietly."
)]
pub struct Cli {
    /// Corpus root (default: nearest ancestor holding corpus/taxonomy.yaml).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Largest corpus data file (entry, record, taxonomy, claims, annotations) to read, in bytes; traces have --max-trace-size.
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
    /// Write the browsable, filterable page of the corpus: one self-contained HTML file.
    Site(SiteArgs),
    /// Validate orchestration traces, or replay one into metrics.
    #[command(subcommand)]
    Trace(TraceCommand),
    /// Check every link of the entries, records and README (dead, moved, timed out).
    Links(LinksArgs),
    /// Compare entries' title, first author and year with their arXiv records.
    Verify(VerifyArgs),
}

/// The `corpus trace` subcommands.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Check traces against the trace schema and the graph rules.
    Validate(TraceValidateArgs),
    /// Replay one trace into orchestration metrics.
    Metrics(TraceMetricsArgs),
    /// Import OpenTelemetry GenAI spans (OTLP JSON) as orchestration traces.
    Import(TraceImportArgs),
}

/// Options of `corpus trace validate`.
#[derive(Debug, Args)]
pub struct TraceValidateArgs {
    /// Trace files, or folders searched for .json files; - reads standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Size limit for trace files.
    #[command(flatten)]
    pub limit: TraceLimit,
}

/// The size limit of trace files, shared by the trace subcommands.
#[derive(Debug, Args)]
pub struct TraceLimit {
    /// Largest trace file to read, in bytes (traces are larger than data files, so they have their own limit).
    #[arg(long, value_name = "BYTES", default_value_t = corpus_trace::DEFAULT_MAX_BYTES)]
    pub max_trace_size: u64,
}

/// Options of `corpus trace metrics`.
#[derive(Debug, Args)]
pub struct TraceMetricsArgs {
    /// The trace file; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Size limit for trace files.
    #[command(flatten)]
    pub limit: TraceLimit,
}

/// Formats `corpus trace import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ImportFrom {
    /// OTLP JSON of OpenTelemetry GenAI spans (one document, or JSON Lines).
    Otlp,
}

/// Options of `corpus trace import`.
#[derive(Debug, Args)]
pub struct TraceImportArgs {
    /// Input format.
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        required_unless_present = "explain"
    )]
    pub from: Option<ImportFrom>,
    /// OTLP JSON files (one document, or one per line); - reads standard input.
    #[arg(value_name = "FILE", required_unless_present = "explain")]
    pub files: Vec<PathBuf>,
    /// Print how spans map to trace events and edges, then exit.
    #[arg(long)]
    pub explain: bool,
    /// Write the trace to FILE instead of standard output (one trace only).
    #[arg(long, value_name = "FILE", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Write every trace to DIR/<trace_id>.json.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Import only the trace with this id (32 hex digits).
    #[arg(long, value_name = "ID")]
    pub trace_id: Option<String>,
    /// The orchestrating agent (default: the outermost invoked agent).
    #[arg(long, value_name = "NAME")]
    pub orchestrator: Option<String>,
    /// Topology to record in the trace, a value of the trace schema (not inferred from spans).
    #[arg(long, value_name = "TOPOLOGY", value_parser = topology_value)]
    pub topology: Option<String>,
    /// Format of the diagnostics, written to standard error.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Size limit for input files.
    #[command(flatten)]
    pub limit: TraceLimit,
}

/// Options of `corpus site`.
#[derive(Debug, Args)]
pub struct SiteArgs {
    /// Folder to write index.html into (default: site/ under the corpus root).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an index.html that `corpus site` did not write.
    #[arg(long)]
    pub force: bool,
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
    /// Fill title, first author and year from the arXiv API (needs --arxiv).
    #[arg(long, requires = "arxiv")]
    pub fetch: bool,
    /// The arXiv API endpoint used by --fetch.
    #[arg(long, value_name = "URL", default_value = corpus_core::network::arxiv::DEFAULT_API)]
    pub arxiv_api: String,
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
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
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

/// Output format of diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ReportFormat {
    /// rustc-like text with source snippets.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

impl From<ReportFormat> for Format {
    fn from(f: ReportFormat) -> Format {
        match f {
            ReportFormat::Human => Format::Human,
            ReportFormat::Json => Format::Json,
            ReportFormat::Github => Format::Github,
        }
    }
}

/// Output formats of `corpus links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LinkFormatArg {
    /// Problems with their file and line, then a summary.
    #[default]
    Human,
    /// One JSON object per URL, one per line.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// A Markdown report (for a job summary).
    Markdown,
}

impl From<LinkFormatArg> for LinkFormat {
    fn from(f: LinkFormatArg) -> LinkFormat {
        match f {
            LinkFormatArg::Human => LinkFormat::Human,
            LinkFormatArg::Json => LinkFormat::Json,
            LinkFormatArg::Github => LinkFormat::Github,
            LinkFormatArg::Markdown => LinkFormat::Markdown,
        }
    }
}

/// Options of `corpus links`.
#[derive(Debug, Clone, Args)]
pub struct LinksArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = LinkFormatArg::Human)]
    pub format: LinkFormatArg,
    /// Check only what needs no network: URL syntax, README anchors, arXiv id and link agreement.
    #[arg(long)]
    pub offline: bool,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub timeout: f64,
    /// Results cache (JSON), relative to the working directory [default: <root>/.cache/corpus-links.json].
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Skip URLs that were checked successfully within this age (e.g. 36h, 7d; plain numbers are seconds).
    #[arg(long, value_name = "AGE")]
    pub max_age: Option<String>,
    /// Report a link as failing only once it has failed on this many consecutive runs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub fail_after: u32,
    /// Requests in flight at once, over all hosts.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Requests in flight at once to one host.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub per_host: u32,
    /// Retries of a 429 or 503 answer.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub retries: u32,
    /// Most seconds spent waiting on retries of one URL (a longer Retry-After ends them).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub max_wait: f64,
    /// First backoff in seconds when a 429/503 gives no Retry-After (doubled per retry).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub backoff: f64,
}

impl LinksArgs {
    /// The library's options for these arguments.
    pub fn options(&self) -> LinksOptions {
        LinksOptions {
            format: self.format.into(),
            offline: self.offline,
            timeout: self.timeout,
            cache: self.cache.clone(),
            max_age: self.max_age.clone(),
            fail_after: self.fail_after,
            jobs: self.jobs,
            per_host: self.per_host,
            retries: self.retries,
            max_wait: self.max_wait,
            backoff: self.backoff,
        }
    }
}

/// Options of `corpus verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// Entries to verify (default: every entry with an arxiv_id).
    #[arg(value_name = "KEY")]
    pub keys: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Record today's date in `arxiv_verified_on` of each entry that agrees with arXiv.
    #[arg(long)]
    pub write: bool,
    /// The arXiv API endpoint.
    #[arg(long, value_name = "URL", default_value = corpus_core::network::arxiv::DEFAULT_API)]
    pub arxiv_api: String,
    /// Seconds between two API requests (at least 3 against the public API, as it asks).
    #[arg(long, value_name = "SECONDS", default_value_t = corpus_core::network::arxiv::DEFAULT_PAUSE_SECS)]
    pub pause: f64,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl VerifyArgs {
    /// The library's options for these arguments.
    pub fn options(&self) -> VerifyOptions {
        VerifyOptions {
            keys: self.keys.clone(),
            format: self.format.into(),
            write: self.write,
            arxiv_api: self.arxiv_api.clone(),
            pause: self.pause,
            timeout: self.timeout,
        }
    }
}

/// A `--topology` value: one the trace schema allows.
fn topology_value(s: &str) -> Result<String, String> {
    let allowed = corpus_trace::topologies();
    if allowed.iter().any(|t| t == s) {
        Ok(s.to_string())
    } else {
        Err(format!("expected one of {}", allowed.join(", ")))
    }
}

/// Runs a parsed command line from the given working directory.
pub fn run(cli: &Cli, cwd: &Path) -> Outcome {
    let mut out = dispatch(cli, cwd).unwrap_or_else(|stopped| stopped);
    // Text from data files must not drive the terminal: escape control and
    // bidirectional characters in everything meant for a human to read.
    // Machine formats and exported files are left byte for byte.
    out.stderr = corpus_core::text::visible::visible(&out.stderr).into_owned();
    if human_stdout(&cli.command) {
        out.stdout = corpus_core::text::visible::visible(&out.stdout).into_owned();
    }
    out
}

/// Whether a command's standard output is meant for a human (text, tables,
/// Markdown) rather than for a program or a file.
fn human_stdout(command: &Command) -> bool {
    match command {
        Command::Check(a) => a.format == ReportFormat::Human,
        Command::Stats(a) => {
            a.write || matches!(a.format, StatsFormat::Table | StatsFormat::Markdown)
        }
        Command::Claims(a) => a.format == TableFormat::Table,
        Command::List(a) => a.format != ListFormat::Json,
        Command::Diff(a) => a.format != DiffFormat::Json,
        Command::Agreement(a) => a.format == TableFormat::Table,
        Command::Trace(TraceCommand::Validate(a)) => a.format == ReportFormat::Human,
        Command::Trace(TraceCommand::Metrics(a)) => a.format == TableFormat::Table,
        Command::Trace(TraceCommand::Import(a)) => a.explain,
        Command::Links(a) => matches!(a.format, LinkFormatArg::Human | LinkFormatArg::Markdown),
        Command::Verify(a) => a.format == ReportFormat::Human,
        Command::Export(_) | Command::Schema => false,
        Command::Build(_)
        | Command::Render(_)
        | Command::Import(_)
        | Command::New(_)
        | Command::Site(_)
        | Command::Fmt(_) => true,
    }
}

/// `corpus trace …`: traces come from agent logs anywhere on disk, so they need no corpus root.
fn trace(cli: &Cli, t: &TraceCommand, cwd: &Path) -> commands::Result {
    match t {
        TraceCommand::Validate(a) => {
            commands::trace::validate(&a.paths, a.format.into(), a.limit.max_trace_size, cwd)
        }
        TraceCommand::Metrics(a) => commands::trace::metrics(
            &a.file,
            a.format,
            a.limit.max_trace_size,
            cli.root.as_deref(),
            cwd,
        ),
        TraceCommand::Import(a) if a.explain => Ok(commands::trace::explain()),
        TraceCommand::Import(a) => commands::trace::import(
            &a.files,
            corpus_trace::otlp::Options {
                orchestrator: a.orchestrator.clone(),
                topology: a.topology.clone(),
            },
            &commands::trace::ImportOutput {
                out: a.out.as_deref(),
                out_dir: a.out_dir.as_deref(),
                force: a.force,
                trace_id: a.trace_id.as_deref(),
                format: a.format.into(),
            },
            a.limit.max_trace_size,
            cwd,
        ),
    }
}

fn dispatch(cli: &Cli, cwd: &Path) -> commands::Result {
    if let Command::Trace(t) = &cli.command {
        return trace(cli, t, cwd);
    }
    let root = find_root(cli.root.as_deref(), cwd).map_err(|e| Outcome::fail(2, e))?;
    let root = root.as_path();
    let opts = LoadOptions {
        max_file_bytes: cli.max_file_size,
    };
    match &cli.command {
        Command::Check(a) => commands::check::run(root, opts, a.strict, a.format.into()),
        Command::Build(a) => commands::publish::run(root, opts, Part::All, a.check),
        Command::Render(a) => commands::publish::run(root, opts, Part::Readme, a.check),
        Command::Stats(a) if a.write => commands::publish::run(root, opts, Part::Stats, a.check),
        Command::Stats(a) => commands::stats::run(root, opts, a.format),
        Command::Claims(a) => commands::claims::run(root, opts, a.verbose, a.format),
        Command::List(a) => commands::list::run(root, opts, &a.conditions, a.exclusions, a.format),
        Command::Diff(a) => commands::diff::run(
            root,
            opts,
            a.old_root.as_deref(),
            a.base.as_deref(),
            a.format,
        ),
        Command::Import(a) => commands::import::run(
            root,
            opts,
            a.papers.as_deref(),
            a.excluded.as_deref(),
            a.force,
        ),
        Command::New(a) => commands::new::run(
            root,
            opts,
            &a.key,
            a.arxiv.as_deref(),
            a.category.as_deref(),
            a.force,
            a.fetch.then_some(a.arxiv_api.as_str()),
        ),
        Command::Fmt(a) => commands::fmt::run(root, &a.paths, a.check, opts.max_file_bytes, cwd),
        Command::Schema => commands::schema::run(root, opts),
        Command::Export(a) => commands::export::run(
            root,
            opts,
            a.format,
            a.exclusions,
            a.out.as_deref(),
            a.force,
            cwd,
        ),
        Command::Agreement(a) => commands::agreement::run(root, opts, &a.file, a.format, cwd),
        Command::Site(a) => commands::site::run(root, opts, a.out.as_deref(), a.force, cwd),
        Command::Trace(t) => trace(cli, t, cwd),
        Command::Links(a) => commands::links::run(root, opts, cwd, &a.options()),
        Command::Verify(a) => commands::verify::run(root, opts, &a.options()),
    }
}
