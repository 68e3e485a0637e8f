//! `corpus check`: every rule on every file, plus the staleness of the
//! generated files; all problems reported at once.

use super::{load_checked, sources, Outcome, Result};
use crate::check;
use crate::corpus::Corpus;
use crate::diag::Diagnostic;
use crate::generate::{self, Part};
use crate::load::LoadOptions;
use crate::report::{self, Format};
use std::path::Path;

/// Renders check diagnostics, adding a summary line in human format.
pub fn render_report(
    corpus: &Corpus,
    diags: &[Diagnostic],
    waived: usize,
    format: Format,
) -> String {
    let what = format!(
        "checked {} entries and {} exclusion records",
        corpus.entries.len(),
        corpus.exclusions.len()
    );
    let summary = report::summary(diags, waived, &what);
    report::render(diags, format, &sources(corpus), Some(&summary))
}

/// Checks the corpus at `root`; fails on errors (and, with `strict`, on unwaived warnings).
pub fn run(root: &Path, opts: LoadOptions, strict: bool, format: Format) -> Result {
    let (corpus, examples) = load_checked(root, opts, Some(format))?;
    let mut rep = check::check(&corpus);
    // Staleness advice ("run `corpus build`") cannot work while errors
    // remain, so generated files are compared only on error-free data.
    let waiting = rep.errors() > 0;
    let deferred = corpus.claims.is_some() || generate::publishes(root);
    if !waiting {
        rep.diagnostics.extend(generate::stale_diagnostics(
            root,
            &corpus,
            &examples,
            Part::All,
        ));
    }
    let mut stdout = render_report(&corpus, &rep.diagnostics, rep.waived.len(), format);
    if waiting && deferred && format == Format::Human {
        stdout.push_str(&format!("note: {}\n", check::DERIVED_WAIT));
    }
    Ok(Outcome::with_code(i32::from(rep.fails(strict)), stdout))
}
