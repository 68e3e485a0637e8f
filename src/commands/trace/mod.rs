//! `corpus trace validate`, `metrics`, `import` and `classify`: orchestration
//! traces checked against the trace schema, replayed into metrics, imported
//! from OpenTelemetry spans, or classified by the form their events show.
//! Traces come from agent logs anywhere on disk, so none needs a corpus
//! root. `-` reads standard input.

pub mod classify;
pub mod import;
pub mod metrics;
pub mod validate;

use super::{Audience, Context, Result};
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

/// Runs a `corpus trace` subcommand.
pub fn run(ctx: &Context, command: &TraceCommand) -> Result {
    match command {
        TraceCommand::Validate(a) => validate::run(ctx, a),
        TraceCommand::Metrics(a) => metrics::run(ctx, a),
        TraceCommand::Import(a) => import::run(ctx, a),
        TraceCommand::Classify(a) => classify::run(ctx, a),
    }
}

/// `-` stays standard input; any other path is taken from the working directory.
fn stdin_or(cwd: &Path, p: &Path) -> PathBuf {
    if p == Path::new(corpus_trace::STDIN) {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}
