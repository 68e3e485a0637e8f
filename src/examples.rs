//! The example traces a corpus ships (`traces/examples/*.json`): validated
//! whenever the corpus is checked, so they cannot rot, and replayed into
//! metrics only where those are shown (the README).

use crate::diag::Diagnostic;
use crate::load::rel_path;
use crate::rules::Rule;
use crate::taxonomy::Taxonomy;
use crate::trace::{self, Trace};
use std::path::Path;

/// Folder of example traces, relative to the root.
pub const TRACE_EXAMPLES_DIR: &str = "traces/examples";

/// The valid example traces by root-relative path, and the problems of the others.
#[derive(Debug, Clone, Default)]
pub struct Examples {
    /// Traces that passed every trace check.
    pub traces: Vec<(String, Trace)>,
    /// Problems of the traces that did not.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and validates the example traces below `root` (none when it has no such folder).
pub fn read(root: &Path, tax: &Taxonomy) -> Examples {
    let mut out = Examples::default();
    let dir = root.join(TRACE_EXAMPLES_DIR);
    if !dir.is_dir() {
        return out;
    }
    let files = match trace::collect_inputs(&[dir]) {
        Ok(f) => f,
        Err(e) => {
            let severity = tax.severity_of(Rule::FileUnreadable);
            out.diagnostics.push(Diagnostic::new(
                Rule::FileUnreadable.id(),
                severity,
                TRACE_EXAMPLES_DIR,
                e,
            ));
            return out;
        }
    };
    for f in files {
        let rel = rel_path(root, &f);
        let checked = trace::read_limited(&f, &rel, trace::DEFAULT_MAX_BYTES)
            .map_err(|d| vec![d])
            .and_then(|b| trace::validate_and_parse(&rel, &b));
        match checked {
            Ok(t) => out.traces.push((rel, t)),
            Err(d) => out.diagnostics.extend(d),
        }
    }
    out
}

/// Each valid example replayed into orchestration metrics.
pub fn metrics(traces: &[(String, Trace)], tax: &Taxonomy) -> Vec<(String, trace::Metrics)> {
    let families = tax.channel_families();
    traces
        .iter()
        .map(|(rel, t)| (rel.clone(), trace::metrics(t, &families)))
        .collect()
}
