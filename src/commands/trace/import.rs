//! `corpus trace import`: OpenTelemetry GenAI or OpenInference spans (OTLP JSON) as orchestration traces.

use super::{stdin_or, TraceLimit};
use crate::commands::{Audience, Context, Outcome, ReportFormat, Result};
use corpus_diagnostics::report::{self, Format, Sources};
use corpus_trace::otlp;
use std::path::{Path, PathBuf};

/// Formats `corpus trace import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ImportFrom {
    /// OTLP JSON of OpenTelemetry GenAI spans (one document, or JSON Lines).
    Otlp,
    /// OTLP JSON of spans that follow the OpenInference conventions.
    Openinference,
}

/// Options of `corpus trace import`.
#[derive(Debug, clap::Args)]
pub struct Args {
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

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // Otherwise the imported trace, JSON for programs; diagnostics go to stderr.
        self.explain
    }
}

/// Imports OTLP JSON files as orchestration traces (or, with `--explain`,
/// prints how spans map to them); diagnostics and the summary go to
/// standard error, since standard output may carry the trace.
pub fn run(ctx: &Context, args: &Args) -> Result {
    if args.explain {
        return Ok(Outcome::ok(otlp::explain()));
    }
    let cwd = ctx.cwd.as_path();
    let max = args.limit.max_trace_size;
    let format = Format::from(args.format);
    let options = otlp::Options {
        orchestrator: args.orchestrator.clone(),
        topology: args.topology.clone(),
        convention: match args.from {
            Some(ImportFrom::Openinference) => otlp::Convention::OpenInference,
            Some(ImportFrom::Otlp) | None => otlp::Convention::GenAi,
        },
    };
    // Files are streamed, not held: an import holds what it makes of them.
    let mut inputs = Vec::new();
    for f in &args.files {
        let path = stdin_or(cwd, f);
        let source = if f == Path::new(corpus_trace::STDIN) {
            let label = "<stdin>".to_string();
            let bytes = corpus_trace::read_input(&path, &label, max)
                .map_err(|d| Outcome::fail(2, format!("{label}: {}", d.message)))?;
            otlp::Source::Held(otlp::Input { label, bytes })
        } else {
            let label = f.display().to_string();
            // Opened once here so a file that cannot be read stops the run before any work.
            corpus_trace::open_input(&path, &label, max)
                .map_err(|d| Outcome::fail(2, format!("{label}: {}", d.message)))?;
            otlp::Source::File(otlp::FileInput { label, path, max })
        };
        inputs.push(source);
    }
    let unreadable = |d: corpus_diagnostics::diag::Diagnostic| {
        Outcome::fail(2, format!("{}: {}", d.file, d.message))
    };
    let mut imported = otlp::import_sources(&inputs, &options).map_err(unreadable)?;
    if let Some(id) = &args.trace_id {
        imported.select(id).map_err(|e| Outcome::fail(1, e))?;
    }
    let located: Vec<_> = imported
        .diagnostics
        .iter()
        .filter(|d| format == Format::Human && d.line.is_some())
        .cloned()
        .collect();
    let texts = otlp::snippet_sources(&inputs, &located).map_err(unreadable)?;
    let sources: Sources = texts
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let summary = format!(
        "{}\n{}",
        imported.summary(),
        report::summary(&imported.diagnostics, 0, "import")
    );
    let mut stderr = report::render(&imported.diagnostics, format, &sources, Some(&summary));
    let destination = match (&args.out, &args.out_dir) {
        (Some(f), _) => otlp::Destination::File(cwd.join(f)),
        (None, Some(d)) => otlp::Destination::Dir(cwd.join(d)),
        (None, None) => otlp::Destination::Stdout,
    };
    let mut code = i32::from(imported.diagnostics.iter().any(|d| d.fails(false)));
    let stdout = match imported.deliver(&destination, args.force) {
        Ok(text) => text,
        Err(e) => {
            stderr.push_str(&format!("error: {e}\n"));
            code = 2;
            String::new()
        }
    };
    if imported.traces.is_empty() && code == 0 {
        // Nothing to hand back is a problem in the input, even without an error.
        stderr.push_str("error: no trace was imported\n");
        code = 1;
    }
    Ok(Outcome {
        code,
        stdout,
        stderr,
    })
}

/// A `--topology` value: one the trace schema allows.
fn topology_value(s: &str) -> std::result::Result<String, String> {
    let allowed = corpus_trace::topologies();
    if allowed.iter().any(|t| t == s) {
        Ok(s.to_string())
    } else {
        Err(format!("expected one of {}", allowed.join(", ")))
    }
}
