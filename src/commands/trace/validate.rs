//! `corpus trace validate`: trace files checked against the trace schema and the graph rules.

use super::{stdin_or, TraceLimit};
use crate::commands::{Audience, Context, Outcome, ReportFormat, Result};
use corpus_diagnostics::report::{self, Format, Sources};
use std::path::PathBuf;

/// Options of `corpus trace validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
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

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// Validates the trace files found at the given paths (files, or folders searched for .json).
pub fn run(ctx: &Context, args: &Args) -> Result {
    let cwd = ctx.cwd.as_path();
    let max = args.limit.max_trace_size;
    let format = Format::from(args.format);
    let paths: Vec<PathBuf> = args.paths.iter().map(|p| stdin_or(cwd, p)).collect();
    let files = corpus_trace::collect_inputs(&paths).map_err(|e| Outcome::fail(2, e))?;
    let mut diags = Vec::new();
    // Each file is read once; its text is kept for snippets only when it has located problems.
    let mut texts: Vec<(String, String)> = Vec::new();
    for f in &files {
        let label = f.strip_prefix(cwd).unwrap_or(f).display().to_string();
        let found = match corpus_trace::read_input(f, &label, max) {
            Ok(bytes) => {
                let found = corpus_trace::validate_bytes(&label, &bytes);
                if format == Format::Human && found.iter().any(|d| d.line.is_some()) {
                    texts.push((label, String::from_utf8_lossy(&bytes).into_owned()));
                }
                found
            }
            Err(d) => vec![d],
        };
        diags.extend(found);
    }
    let summary = report::summary(
        &diags,
        0,
        &format!("validated {} trace file(s)", files.len()),
    );
    let sources: Sources = texts
        .iter()
        .map(|(l, t)| (l.as_str(), t.as_str()))
        .collect();
    Ok(Outcome::with_code(
        i32::from(diags.iter().any(|d| d.fails(false))),
        report::render(&diags, format, &sources, Some(&summary)),
    ))
}
