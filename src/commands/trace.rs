//! `corpus trace validate`, `metrics` and `import`: orchestration traces
//! checked against the trace schema, replayed into metrics, or imported from
//! OpenTelemetry spans. Traces come from agent logs anywhere on disk, so none
//! needs a corpus root. `-` reads standard input.

use super::{find_root, json_text, Outcome, Result, TableFormat};
use corpus_core::load;
use corpus_diagnostics::report::{self, Format, Sources};

use std::path::{Path, PathBuf};

/// The shipped taxonomy, for mapping trace reward channels outside a corpus root.
const BUILTIN_TAXONOMY: &str = include_str!("../../corpus/taxonomy.yaml");

/// Validates the trace files found at `paths` (files, or folders searched for .json).
pub fn validate(paths: &[PathBuf], format: Format, max: u64, cwd: &Path) -> Result {
    let paths: Vec<PathBuf> = paths.iter().map(|p| stdin_or(cwd, p)).collect();
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

/// Replays one trace into orchestration metrics, mapping reward channels with
/// the taxonomy of the corpus around `cwd` (or `root`), else the shipped one.
pub fn metrics(
    file: &Path,
    format: TableFormat,
    max: u64,
    root: Option<&Path>,
    cwd: &Path,
) -> Result {
    let path = stdin_or(cwd, file);
    let label = file.display().to_string();
    // Problems go to stderr: stdout holds the metrics, JSON with --format json.
    let on_stderr = |text: String| Outcome {
        code: 1,
        stdout: String::new(),
        stderr: text,
    };
    let bytes = corpus_trace::read_input(&path, &label, max).map_err(|d| {
        if path.is_file() || path == Path::new(corpus_trace::STDIN) {
            on_stderr(report::render(&[d], Format::Human, &Sources::new(), None))
        } else {
            Outcome::fail(2, d.message)
        }
    })?;
    // Figures of a trace that breaks the schema or the graph rules (a cycle,
    // a dangling parent, time running backwards) would be made up: refuse
    // with the diagnostics `trace validate` gives. A valid trace comes back
    // typed from the same pass, so the file is parsed once.
    let (tr, problems) = corpus_trace::check_and_parse(&label, &bytes);
    let render = |summary: Option<&str>| {
        let text = String::from_utf8_lossy(&bytes);
        let mut src = Sources::new();
        src.insert(label.as_str(), &text);
        report::render(&problems, Format::Human, &src, summary)
    };
    let Some(tr) = tr else {
        let summary = report::summary(&problems, 0, "no metrics for an invalid trace");
        return Err(on_stderr(render(Some(&summary))));
    };
    // Warnings alone leave the trace sound enough to replay; they go to stderr.
    let warnings = if problems.is_empty() {
        String::new()
    } else {
        render(None)
    };
    // The replay needs only the typed trace; the file's bytes go before it runs.
    drop(bytes);
    let (tax_label, tax_text) = match find_root(root, cwd) {
        Ok(root) => {
            let path = root.join(load::TAXONOMY_PATH);
            let text = corpus_io::reader::read_text(&path, max)
                .map_err(|e| Outcome::fail(2, format!("{}: {e}", root.display())))?;
            (path.display().to_string(), text)
        }
        Err(_) => (
            "built-in taxonomy".to_string(),
            BUILTIN_TAXONOMY.to_string(),
        ),
    };
    let taxonomy = corpus_core::model::taxonomy::Taxonomy::from_yaml(&tax_text)
        .map_err(|e| Outcome::fail(2, format!("{tax_label}: {e}")))?;
    let m = corpus_trace::metrics(&tr, &taxonomy.channel_families());
    if let Some(d) = m.overflow(&label) {
        let summary = report::summary(std::slice::from_ref(&d), 0, "no metrics for this trace");
        let refusal = report::render(&[d], Format::Human, &Sources::new(), Some(&summary));
        return Err(on_stderr(warnings + &refusal));
    }
    let mut out = Outcome::ok(match format {
        TableFormat::Table => corpus_trace::metrics_table(&m),
        TableFormat::Json => json_text(&m),
    });
    out.stderr = warnings;
    Ok(out)
}

/// `-` stays standard input; any other path is taken from the working directory.
fn stdin_or(cwd: &Path, p: &Path) -> PathBuf {
    if p == Path::new(corpus_trace::STDIN) {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

/// The mapping from OpenTelemetry GenAI spans to trace events and edges.
pub fn explain() -> Outcome {
    Outcome::ok(corpus_trace::otlp::explain())
}

/// Where and how `corpus trace import` writes.
#[derive(Debug, Clone, Copy)]
pub struct ImportOutput<'a> {
    /// One trace to this file.
    pub out: Option<&'a Path>,
    /// Every trace to DIR/<trace_id>.json.
    pub out_dir: Option<&'a Path>,
    /// Overwrite existing files.
    pub force: bool,
    /// Keep only this trace id.
    pub trace_id: Option<&'a str>,
    /// Format of the diagnostics (on standard error).
    pub format: Format,
}

/// Imports OTLP JSON files as orchestration traces; diagnostics and the
/// summary go to standard error, since standard output may carry the trace.
pub fn import(
    files: &[PathBuf],
    options: corpus_trace::otlp::Options,
    output: &ImportOutput,
    max: u64,
    cwd: &Path,
) -> Result {
    use corpus_trace::otlp;
    let mut inputs = Vec::new();
    for f in files {
        let label = if f == Path::new(corpus_trace::STDIN) {
            "<stdin>".to_string()
        } else {
            f.display().to_string()
        };
        let bytes = corpus_trace::read_input(&stdin_or(cwd, f), &label, max)
            .map_err(|d| Outcome::fail(2, format!("{label}: {}", d.message)))?;
        inputs.push(otlp::Input { label, bytes });
    }
    let mut imported = otlp::import(&inputs, &options);
    if let Some(id) = output.trace_id {
        imported.select(id).map_err(|e| Outcome::fail(1, e))?;
    }
    let sources: Sources = inputs
        .iter()
        .filter(|i| {
            output.format == Format::Human
                && imported
                    .diagnostics
                    .iter()
                    .any(|d| d.file == i.label && d.line.is_some())
        })
        .filter_map(|i| Some((i.label.as_str(), std::str::from_utf8(&i.bytes).ok()?)))
        .collect();
    let summary = format!(
        "{}\n{}",
        imported.summary(),
        report::summary(&imported.diagnostics, 0, "import")
    );
    let mut stderr = report::render(
        &imported.diagnostics,
        output.format,
        &sources,
        Some(&summary),
    );
    let destination = match (output.out, output.out_dir) {
        (Some(f), _) => otlp::Destination::File(cwd.join(f)),
        (None, Some(d)) => otlp::Destination::Dir(cwd.join(d)),
        (None, None) => otlp::Destination::Stdout,
    };
    let mut code = i32::from(imported.diagnostics.iter().any(|d| d.fails(false)));
    let stdout = match imported.deliver(&destination, output.force) {
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
