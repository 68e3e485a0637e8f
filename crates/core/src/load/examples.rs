//! The example traces a corpus ships (`traces/examples/*.json`, and OTLP
//! spans in `traces/otlp/*.json` imported as `corpus trace import` would):
//! validated whenever the corpus is checked, so they cannot rot, and replayed
//! into the metrics the README shows. Recorded runs of surveyed systems
//! (`traces/runs/*.json`, the trace format) are validated and classified the
//! same way but stay out of those metrics: they are evidence for the entries
//! that link them, not illustrations. An example whose figures overflow is
//! refused like an invalid one, so the README never prints `inf` or `NaN`.
//! Each valid trace is also classified (`corpus_trace::classify`), for the
//! entries that link it (`traces`). A file reached through a symbolic link
//! is not read: a link planted by a pull request could point anywhere.

use crate::layout::Layout;
use crate::load::rel_path;
use crate::model::taxonomy::Taxonomy;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::rules::Rule;
use corpus_trace::{self, Classification, Metrics, Trace};
use std::collections::BTreeMap;
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
    /// Every example file read, by root-relative path, with the form and
    /// sub-decisions of each valid trace it holds (none: it holds no valid
    /// trace; an OTLP file may hold several).
    pub forms: BTreeMap<String, Vec<Classification>>,
}

/// The example trace files as read, before any is validated.
#[derive(Debug)]
pub struct Traces {
    /// The files of `traces/examples`.
    pub native: TraceFiles,
    /// The files of `traces/otlp`.
    pub otlp: TraceFiles,
    /// The files of `traces/runs`.
    pub runs: TraceFiles,
}

/// The .json files below one folder (none when there is no such folder), by
/// root-relative path, each with its bytes or the problem reading them; or
/// why the folder could not be walked.
pub type TraceFiles = Result<Vec<(String, Result<Vec<u8>, Diagnostic>)>, String>;

/// Reads the example traces below `root`.
pub fn read_traces(root: &Path) -> Traces {
    let [native, otlp, runs] = Layout::LINKABLE_TRACE_DIRS.map(|dir| read_folder(root, dir));
    Traces { native, otlp, runs }
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
            let bytes = match corpus_io::files::guard(root, f) {
                Ok(()) => corpus_trace::read_limited(f, &rel, corpus_trace::DEFAULT_MAX_BYTES),
                Err(_) => Err(Diagnostic::new(
                    Rule::TraceUnreadable,
                    corpus_diagnostics::diag::Severity::Error,
                    &rel,
                    "the file is reached through a symbolic link, so it was not read",
                )
                .help("put the trace itself in the folder, not a link to it")),
            };
            (rel, bytes)
        })
        .collect())
}

/// Validates the example traces read and replays the valid ones.
pub fn replay(traces: &Traces, tax: &Taxonomy) -> Examples {
    let mut out = Examples::default();
    let families = tax.channel_families();
    // `shown`: the metrics go to the README (examples, not recorded runs).
    let replay = |out: &mut Examples, rel: String, t: Trace, shown: bool| {
        let m = corpus_trace::metrics(&t, &families);
        match m.overflow(&rel) {
            Some(d) => out.diagnostics.push(d),
            None => {
                let form = corpus_trace::classify(&t);
                out.forms.entry(rel.clone()).or_default().push(form);
                if shown {
                    out.metrics.push((rel, m));
                }
            }
        }
    };
    for (folder, dir, shown) in [
        (&traces.native, Layout::TRACE_EXAMPLES_DIR, true),
        (&traces.runs, Layout::TRACE_RUNS_DIR, false),
    ] {
        for (rel, read) in files_of(folder, dir, tax, &mut out) {
            out.forms.entry(rel.clone()).or_default();
            let checked = read
                .as_ref()
                .map_err(|d| vec![d.clone()])
                .and_then(|b| corpus_trace::validate_and_parse(rel, b));
            match checked {
                Ok(t) => replay(&mut out, rel.clone(), t, shown),
                Err(d) => out.diagnostics.extend(d),
            }
        }
    }
    for (rel, read) in files_of(&traces.otlp, Layout::OTLP_EXAMPLES_DIR, tax, &mut out) {
        out.forms.entry(rel.clone()).or_default();
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
                Ok(parsed) => replay(&mut out, rel.clone(), parsed, true),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_run_is_classified_but_is_no_readme_example() {
        let tax = Taxonomy::from_yaml(include_str!("../../../../corpus/taxonomy.yaml")).unwrap();
        let example = "traces/examples/centralized.json";
        let run = "traces/runs/puppeteer-mmlu-pro.json";
        let traces = Traces {
            native: Ok(vec![(
                example.to_string(),
                Ok(include_bytes!("../../../../traces/examples/centralized.json").to_vec()),
            )]),
            otlp: Ok(Vec::new()),
            runs: Ok(vec![(
                run.to_string(),
                Ok(include_bytes!("../../../../traces/runs/puppeteer-mmlu-pro.json").to_vec()),
            )]),
        };
        let out = replay(&traces, &tax);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert_eq!(out.forms[run].len(), 1);
        assert_eq!(out.forms[example].len(), 1);
        let shown: Vec<&str> = out.metrics.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(shown, [example]);
    }
}
