//! `corpus trace validate` and `corpus trace metrics`: orchestration traces
//! checked against the trace schema, or replayed into metrics. Traces come
//! from agent logs anywhere on disk, so neither needs a corpus root.

use super::{find_root, json_text, Outcome, Result, TableFormat};
use crate::load;
use crate::report::{self, Format, Sources};
use crate::trace;
use std::path::{Path, PathBuf};

/// The shipped taxonomy, for mapping trace reward channels outside a corpus root.
const BUILTIN_TAXONOMY: &str = include_str!("../../corpus/taxonomy.yaml");

/// Validates the trace files found at `paths` (files, or folders searched for .json).
pub fn validate(paths: &[PathBuf], format: Format, max: u64, cwd: &Path) -> Result {
    let paths: Vec<PathBuf> = paths.iter().map(|p| cwd.join(p)).collect();
    let files = trace::collect_inputs(&paths).map_err(|e| Outcome::fail(2, e))?;
    let mut diags = Vec::new();
    // Each file is read once; its text is kept for snippets only when it has located problems.
    let mut texts: Vec<(String, String)> = Vec::new();
    for f in &files {
        let label = f.strip_prefix(cwd).unwrap_or(f).display().to_string();
        let found = match trace::read_limited(f, &label, max) {
            Ok(bytes) => {
                let found = trace::validate_bytes(&label, &bytes);
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

/// Replays one trace into orchestration metrics, mapping reward channels with
/// the taxonomy of the corpus around `cwd` (or `root`), else the shipped one.
pub fn metrics(
    file: &Path,
    format: TableFormat,
    max: u64,
    root: Option<&Path>,
    cwd: &Path,
) -> Result {
    let path = cwd.join(file);
    let label = file.display().to_string();
    // Problems go to stderr: stdout holds the metrics, JSON with --format json.
    let on_stderr = |text: String| Outcome {
        code: 1,
        stdout: String::new(),
        stderr: text,
    };
    let bytes = trace::read_limited(&path, &label, max).map_err(|d| {
        if path.is_file() {
            on_stderr(report::render(&[d], Format::Human, &Sources::new(), None))
        } else {
            Outcome::fail(2, d.message)
        }
    })?;
    // Figures of a trace that breaks the schema or the graph rules (a cycle,
    // a dangling parent, time running backwards) would be made up: refuse
    // with the diagnostics `trace validate` gives. A valid trace comes back
    // typed from the same pass, so the file is parsed once.
    let (tr, warnings) = match trace::validate_and_parse(&label, &bytes) {
        Ok(tr) => (tr, String::new()),
        Err(problems) => {
            let text = String::from_utf8_lossy(&bytes);
            let mut src = Sources::new();
            src.insert(label.as_str(), &text);
            if problems.iter().any(|d| d.fails(false)) {
                let summary = report::summary(&problems, 0, "no metrics for an invalid trace");
                return Err(on_stderr(report::render(
                    &problems,
                    Format::Human,
                    &src,
                    Some(&summary),
                )));
            }
            // Only warnings: the trace is sound enough to replay.
            let tr = trace::parse(&label, &bytes)
                .map_err(|diags| on_stderr(report::render(&diags, Format::Human, &src, None)))?;
            (tr, report::render(&problems, Format::Human, &src, None))
        }
    };
    // The replay needs only the typed trace; the file's bytes go before it runs.
    drop(bytes);
    let (tax_label, tax_text) = match find_root(root, cwd) {
        Ok(root) => {
            let path = root.join(load::TAXONOMY_PATH);
            let text = crate::reader::read_text(&path, max)
                .map_err(|e| Outcome::fail(2, format!("{}: {e}", root.display())))?;
            (path.display().to_string(), text)
        }
        Err(_) => (
            "built-in taxonomy".to_string(),
            BUILTIN_TAXONOMY.to_string(),
        ),
    };
    let taxonomy = crate::taxonomy::Taxonomy::from_yaml(&tax_text)
        .map_err(|e| Outcome::fail(2, format!("{tax_label}: {e}")))?;
    let m = trace::metrics(&tr, &taxonomy.channel_families());
    let overflow = m.non_finite();
    if !overflow.is_empty() {
        return Err(Outcome::fail(
            1,
            format!(
                "{label}: {} overflow (the trace's numbers are too large to add or divide); no metrics printed",
                overflow.join(", ")
            ),
        ));
    }
    let mut out = Outcome::ok(match format {
        TableFormat::Table => trace::metrics_table(&m),
        TableFormat::Json => json_text(&m),
    });
    out.stderr = warnings;
    Ok(out)
}
