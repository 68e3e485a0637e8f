//! What an import produced: the traces, the problems and the counts, and the one-line summary.

use corpus_diagnostics::diag::Diagnostic;
use std::collections::BTreeMap;

/// One imported trace.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedTrace {
    /// Hex trace id (also the trace's `trace_id`).
    pub trace_id: String,
    /// The trace, as JSON text.
    pub text: String,
    /// Events in it.
    pub events: usize,
    /// Edges in it.
    pub edges: usize,
}

/// What an import produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Imported {
    /// Traces that imported cleanly and validate, by trace id.
    pub traces: Vec<ImportedTrace>,
    /// Every problem, located.
    pub diagnostics: Vec<Diagnostic>,
    /// Trace ids seen.
    pub trace_ids: usize,
    /// Spans read.
    pub spans: usize,
    /// Spans that map to no event, by operation (or span name).
    pub unmapped: BTreeMap<String, usize>,
    /// Links to spans of other traces.
    pub cross_trace_links: usize,
    /// Events that carry the error of a failed tool run or agent invocation.
    pub errors: usize,
    /// Counts of diagnostics not shown (past the cap of each rule), one line each.
    pub elided: Vec<String>,
}

impl Imported {
    /// One line saying what was read and what it became.
    pub fn summary(&self) -> String {
        let events: usize = self.traces.iter().map(|t| t.events).sum();
        let edges: usize = self.traces.iter().map(|t| t.edges).sum();
        let mut s = format!(
            "imported {} of {} trace(s) from {} span(s): {events} events, {edges} edges",
            self.traces.len(),
            self.trace_ids,
            self.spans
        );
        let skipped: usize = self.unmapped.values().sum();
        if skipped > 0 {
            let mut by_count: Vec<(&String, &usize)> = self.unmapped.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let shown: Vec<String> = by_count
                .iter()
                .take(10)
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let more = if by_count.len() > 10 {
                format!(", {} more kinds", by_count.len() - 10)
            } else {
                String::new()
            };
            s.push_str(&format!(
                "; {skipped} span(s) map to no event ({}{more})",
                shown.join(", ")
            ));
        }
        if self.errors > 0 {
            s.push_str(&format!(
                "; {} failed span(s) kept as `error` on their events",
                self.errors
            ));
        }
        if self.cross_trace_links > 0 {
            s.push_str(&format!(
                "; {} link(s) to other traces not carried over",
                self.cross_trace_links
            ));
        }
        for note in &self.elided {
            s.push('\n');
            s.push_str(note);
        }
        s
    }
}
