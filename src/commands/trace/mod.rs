//! `corpus trace validate`, `metrics`, `import` and `classify`: orchestration
//! traces checked against the trace schema, replayed into metrics, imported
//! from OpenTelemetry spans, or classified by the form their events show.
//! Traces come from agent logs anywhere on disk, so none needs a corpus
//! root. `-` reads standard input.

pub mod classify;
pub mod import;
pub mod metrics;
pub mod validate;

use super::{Audience, Context, Outcome, Result, TableFormat};
use corpus_diagnostics::report::{self, Format, Sources};
use std::path::{Path, PathBuf};

/// The `corpus trace` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum TraceCommand {
    /// Check traces against the trace schema and the graph rules.
    Validate(validate::Args),
    /// Replay one trace into orchestration metrics.
    Metrics(metrics::Args),
    /// Import OpenTelemetry GenAI or OpenInference spans (OTLP JSON) as orchestration traces.
    Import(import::Args),
    /// Infer the orchestration form and sub-decisions a trace's events show.
    Classify(classify::Args),
}

impl Audience for TraceCommand {
    fn stdout_is_for_humans(&self) -> bool {
        match self {
            TraceCommand::Validate(a) => a.stdout_is_for_humans(),
            TraceCommand::Metrics(a) => a.stdout_is_for_humans(),
            TraceCommand::Import(a) => a.stdout_is_for_humans(),
            TraceCommand::Classify(a) => a.stdout_is_for_humans(),
        }
    }
}

/// The size limit of trace files, shared by the trace subcommands.
#[derive(Debug, clap::Args)]
pub struct TraceLimit {
    /// Largest trace file to read, in bytes (traces are larger than data files, so they have their own limit).
    #[arg(long, value_name = "BYTES", default_value_t = corpus_trace::DEFAULT_MAX_BYTES)]
    pub max_trace_size: u64,
}

/// The options of the commands that turn one trace into one result
/// (`metrics`, `classify`): one type, so both take their input, format and
/// limit alike and their help reads alike.
#[derive(Debug, clap::Args)]
pub struct OneTrace {
    /// The trace file; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Human)]
    pub format: TableFormat,
    /// Size limit for trace files.
    #[command(flatten)]
    pub limit: TraceLimit,
}

impl Audience for OneTrace {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Runs a `corpus trace` subcommand.
pub fn run(ctx: &Context, command: &TraceCommand) -> Result {
    match command {
        TraceCommand::Validate(a) => validate::run(ctx, a),
        TraceCommand::Metrics(a) => metrics::run(ctx, a),
        TraceCommand::Import(a) => import::run(ctx, a),
        TraceCommand::Classify(a) => classify::run(ctx, a),
    }
}

/// The outcome of a one-trace command that found problems: they go to
/// stderr, since its stdout holds the result (JSON with --format json).
fn on_stderr(text: String) -> Outcome {
    Outcome {
        code: 1,
        stdout: String::new(),
        stderr: text,
    }
}

/// Reads the one trace a command was given (`-`: standard input) and
/// returns its label and bytes. A file that is there but cannot be read is
/// a problem of the data (1); a path with nothing there, a run that could
/// not start (2).
fn read_one(ctx: &Context, args: &OneTrace) -> std::result::Result<(String, Vec<u8>), Outcome> {
    let path = stdin_or(&ctx.cwd, &args.file);
    let label = args.file.display().to_string();
    let max = args.limit.max_trace_size;
    let bytes = corpus_trace::read_input(&path, &label, max).map_err(|d| {
        if path.is_file() || path == Path::new(corpus_trace::STDIN) {
            on_stderr(report::render(&[d], Format::Human, &Sources::new(), None))
        } else {
            Outcome::fail(2, d.message)
        }
    })?;
    Ok((label, bytes))
}

/// `-` stays standard input; any other path is taken from the working directory.
fn stdin_or(cwd: &Path, p: &Path) -> PathBuf {
    if p == Path::new(corpus_trace::STDIN) {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}
