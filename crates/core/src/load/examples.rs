//! The example traces a corpus ships (`traces/examples/*.json`, and OTLP
//! spans in `traces/otlp/*.json` imported as `corpus trace import` would):
//! validated whenever the corpus is checked, so they cannot rot, and replayed
//! into the metrics the README shows. An example whose figures overflow is
//! refused like an invalid one, so the README never prints `inf` or `NaN`.

use crate::layout::Layout;
use crate::load::rel_path;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_trace::{self, Metrics, Trace};
use std::path::Path;

/// Whether an example (by root-relative path) was imported from OTLP spans.
pub fn is_imported(rel: &str) -> bool {
    rel.starts_with(Layout::OTLP_EXAMPLES_DIR)
}

/// The valid example traces' metrics by root-relative path, and the problems of the others.
#[derive(Debug, Clone, Default)]
pub struct Examples {
    /// Metrics of the traces that passed every trace check and replay into finite figures.
    pub metrics: Vec<(String, Metrics)>,
    /// Problems of the traces that did not.
    pub diagnostics: Vec<Diagnostic>,
}

/// The example trace files as read, before any is validated.
#[derive(Debug)]
pub struct Traces {
    /// The files of `traces/examples`.
    pub native: TraceFiles,
    /// The files of `traces/otlp`.
    pub otlp: TraceFiles,
}

/// The .json files below one folder (none when there is no such folder), by
/// root-relative path, each with its bytes or the problem reading them; or
/// why the folder could not be walked.
pub type TraceFiles = Result<Vec<(String, Result<Vec<u8>, Diagnostic>)>, String>;

/// Reads the example traces below `root`.
pub fn read_traces(root: &Path) -> Traces {
    Traces {
        native: read_folder(root, Layout::TRACE_EXAMPLES_DIR),
        otlp: read_folder(root, Layout::OTLP_EXAMPLES_DIR),
    }
}

/// Reads the .json files below `root/dir`.
fn read_folder(root: &Path, dir: &str) -> TraceFiles {
    let full = root.join(dir);
    if !full.is_dir() {
        return Ok(Vec::new());
    }
    let files = corpus_trace::collect_inputs(&[full])?;
    Ok(files
        .iter()
        .map(|f| {
            let rel = rel_path(root, f);
            let bytes = corpus_trace::read_limited(f, &rel, corpus_trace::DEFAULT_MAX_BYTES);
            (rel, bytes)
        })
        .collect())
}

/// Validates the example traces read and replays the valid ones.
pub fn replay(traces: &Traces, tax: &Taxonomy) -> Examples {
    let mut out = Examples::default();
    let families = tax.channel_families();
    let replay = |out: &mut Examples, rel: String, t: Trace| {
        let m = corpus_trace::metrics(&t, &families);
        match m.overflow(&rel) {
            Some(d) => out.diagnostics.push(d),
            None => out.metrics.push((rel, m)),
        }
    };
    for (rel, read) in files_of(&traces.native, Layout::TRACE_EXAMPLES_DIR, tax, &mut out) {
        let checked = read
            .as_ref()
            .map_err(|d| vec![d.clone()])
            .and_then(|b| corpus_trace::validate_and_parse(rel, b));
        match checked {
            Ok(t) => replay(&mut out, rel.clone(), t),
            Err(d) => out.diagnostics.extend(d),
        }
    }
    for (rel, read) in files_of(&traces.otlp, Layout::OTLP_EXAMPLES_DIR, tax, &mut out) {
        let bytes = match read {
            Ok(b) => b.clone(),
            Err(d) => {
                out.diagnostics.push(d.clone());
                continue;
            }
        };
        let input = corpus_trace::otlp::Input {
            label: rel.clone(),
            bytes,
        };
        let imported =
            corpus_trace::otlp::import(&[input], &corpus_trace::otlp::Options::default());
        out.diagnostics.extend(imported.diagnostics);
        for t in imported.traces {
            match corpus_trace::validate_and_parse(rel, t.text.as_bytes()) {
                Ok(parsed) => replay(&mut out, rel.clone(), parsed),
                Err(d) => out.diagnostics.extend(d),
            }
        }
    }
    tax.apply_severities(&mut out.diagnostics);
    out
}

/// The files of a folder read, or none after reporting why it could not be walked.
fn files_of<'a>(
    folder: &'a TraceFiles,
    dir: &str,
    tax: &Taxonomy,
    out: &mut Examples,
) -> &'a [(String, Result<Vec<u8>, Diagnostic>)] {
    folder.as_deref().unwrap_or_else(|e| {
        let severity = tax.severity_of(Rule::FileUnreadable);
        out.diagnostics
            .push(Diagnostic::new(Rule::FileUnreadable, severity, dir, e));
        &[]
    })
}
