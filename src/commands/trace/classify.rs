//! `corpus trace classify`: the orchestration form and sub-decisions a trace's events show.

use super::{on_stderr, read_one, OneTrace};
use crate::commands::{json_text, Context, Outcome, Result, TableFormat};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::report::{self, Format, Sources};
use corpus_diagnostics::rules::Rule;

/// Options of `corpus trace classify`: one trace in, one result out, as for
/// `corpus trace metrics`.
pub type Args = OneTrace;

/// Infers the orchestration form and sub-decisions of one valid trace, with
/// the events that show each; a declared topology the events do not show is
/// a `trace-form-disagrees` warning on standard error.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let (label, bytes) = read_one(ctx, args)?;
    let (tr, mut problems) = corpus_trace::check_and_parse(&label, &bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let render = |problems: &[Diagnostic], summary: Option<&str>| {
        let mut src = Sources::new();
        src.insert(label.as_str(), &text);
        report::render(problems, Format::Human, &src, summary)
    };
    let Some(tr) = tr else {
        let summary = report::summary(&problems, 0, "no classification of an invalid trace");
        return Err(on_stderr(render(&problems, Some(&summary))));
    };
    let c = corpus_trace::classify(&tr);
    if c.disagrees() {
        problems.push(
            Diagnostic::new(
                Rule::TraceFormDisagrees,
                Severity::Warning,
                &label,
                format!(
                    "the trace declares topology `{}`, but its events show `{}`: {}",
                    c.declared.as_deref().unwrap_or_default(),
                    c.form,
                    c.reason
                ),
            )
            .field("/topology")
            .help("correct the declared topology, or the events; `corpus trace classify` lists the events each form rests on"),
        );
    }
    let stderr = if problems.is_empty() {
        String::new()
    } else {
        render(&problems, None)
    };
    let mut out = Outcome::ok(match args.format {
        TableFormat::Human => corpus_trace::classification_text(&c),
        TableFormat::Json => json_text(&c),
    });
    out.stderr = stderr;
    Ok(out)
}
