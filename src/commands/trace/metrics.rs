//! `corpus trace metrics`: one trace replayed into orchestration metrics.

use super::{on_stderr, read_one, OneTrace};
use crate::commands::{json_text, Context, Outcome, Result, TableFormat};
use corpus_core::layout::Layout;
use corpus_diagnostics::report::{self, Format, Sources};

/// Options of `corpus trace metrics`: one trace in, one result out, as for
/// `corpus trace classify`.
pub type Args = OneTrace;

/// Replays one trace into orchestration metrics, mapping reward channels with
/// the taxonomy of the corpus root (`--root`, or around the working
/// directory). Outside a corpus there is no taxonomy, and channels keep
/// their own names: the tool carries no list's vocabulary of its own.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let max = args.limit.max_trace_size;
    let (label, bytes) = read_one(ctx, args)?;
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
    let families = match ctx.root() {
        Ok(root) => {
            let path = root.join(Layout::TAXONOMY);
            let text = corpus_io::reader::read_text(&path, max)
                .map_err(|e| Outcome::fail(2, format!("{}: {e}", root.display())))?;
            corpus_core::model::taxonomy::Taxonomy::from_yaml(&text)
                .map_err(|e| Outcome::fail(2, format!("{}: {e}", path.display())))?
                .channel_families()
        }
        Err(_) => Default::default(),
    };
    let m = corpus_trace::metrics(&tr, &families);
    if let Some(d) = m.overflow(&label) {
        let summary = report::summary(std::slice::from_ref(&d), 0, "no metrics for this trace");
        let refusal = report::render(&[d], Format::Human, &Sources::new(), Some(&summary));
        return Err(on_stderr(warnings + &refusal));
    }
    let mut out = Outcome::ok(match args.format {
        TableFormat::Human => corpus_trace::metrics_table(&m),
        TableFormat::Json => json_text(&m),
    });
    out.stderr = warnings;
    Ok(out)
}
