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
use corpus_io::digest::Digest;
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
    /// Digest of every file read here (path and bytes), which decide `metrics`.
    pub digest: u128,
}

/// Reads and validates the example traces below `root` (none when it has no such folder).
pub fn read(root: &Path, tax: &Taxonomy) -> Examples {
    let mut out = Examples::default();
    let mut digest = Digest::new();
    let mut seen = |rel: &str, bytes: Option<&[u8]>| {
        digest
            .add(rel.as_bytes())
            .add(bytes.unwrap_or(b"\0unreadable"));
    };
    let families = tax.channel_families();
    let replay = |out: &mut Examples, rel: String, t: Trace| {
        let m = corpus_trace::metrics(&t, &families);
        match m.overflow(&rel) {
            Some(d) => out.diagnostics.push(d),
            None => out.metrics.push((rel, m)),
        }
    };
    for f in files_below(root, Layout::TRACE_EXAMPLES_DIR, tax, &mut out) {
        let rel = rel_path(root, &f);
        let read = corpus_trace::read_limited(&f, &rel, corpus_trace::DEFAULT_MAX_BYTES);
        seen(&rel, read.as_deref().ok());
        let checked = read
            .map_err(|d| vec![d])
            .and_then(|b| corpus_trace::validate_and_parse(&rel, &b));
        match checked {
            Ok(t) => replay(&mut out, rel, t),
            Err(d) => out.diagnostics.extend(d),
        }
    }
    for f in files_below(root, Layout::OTLP_EXAMPLES_DIR, tax, &mut out) {
        let rel = rel_path(root, &f);
        let bytes = match corpus_trace::read_limited(&f, &rel, corpus_trace::DEFAULT_MAX_BYTES) {
            Ok(b) => {
                seen(&rel, Some(&b));
                b
            }
            Err(d) => {
                seen(&rel, None);
                out.diagnostics.push(d);
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
            match corpus_trace::validate_and_parse(&rel, t.text.as_bytes()) {
                Ok(parsed) => replay(&mut out, rel.clone(), parsed),
                Err(d) => out.diagnostics.extend(d),
            }
        }
    }
    tax.apply_severities(&mut out.diagnostics);
    out.digest = digest.value();
    out
}

/// The digest `read` gives as `Examples::digest`, from the files' bytes
/// alone (no validation, no replay): part of the build fingerprint's key
/// before anything is parsed. None when a folder or file cannot be read.
pub fn digest(root: &Path) -> Option<u128> {
    let mut digest = Digest::new();
    for dir in [Layout::TRACE_EXAMPLES_DIR, Layout::OTLP_EXAMPLES_DIR] {
        let full = root.join(dir);
        if !full.is_dir() {
            continue;
        }
        for f in corpus_trace::collect_inputs(&[full]).ok()? {
            let rel = rel_path(root, &f);
            let bytes =
                corpus_trace::read_limited(&f, &rel, corpus_trace::DEFAULT_MAX_BYTES).ok()?;
            digest.add(rel.as_bytes()).add(&bytes);
        }
    }
    Some(digest.value())
}

/// The .json files below `root/dir` (none when there is no such folder).
fn files_below(
    root: &Path,
    dir: &str,
    tax: &Taxonomy,
    out: &mut Examples,
) -> Vec<std::path::PathBuf> {
    let full = root.join(dir);
    if !full.is_dir() {
        return Vec::new();
    }
    corpus_trace::collect_inputs(&[full]).unwrap_or_else(|e| {
        let severity = tax.severity_of(Rule::FileUnreadable);
        out.diagnostics
            .push(Diagnostic::new(Rule::FileUnreadable, severity, dir, e));
        Vec::new()
    })
}
