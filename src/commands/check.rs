//! `corpus check`: every rule on every file, plus the staleness of the
//! generated files; all problems reported at once.

use super::{checked_beside, Audience, CheckedCorpus, Context, Outcome, ReportFormat, Result};
use corpus_core::check;
use corpus_core::load::{self, Inputs};
use corpus_core::model::corpus::Corpus;
use corpus_core::publish::generate::{self, Part};
use corpus_core::publish::on_disk;
use corpus_diagnostics::diag::Diagnostic;
use corpus_diagnostics::report::{self, Format, Sources};
use corpus_io::store::Store;
use std::collections::HashSet;
use std::sync::Arc;

/// Options of `corpus check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Fail on unwaived warnings too.
    #[arg(long)]
    pub strict: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Also compare the claims with the corpus as committed at this git
    /// revision: a claim from the survey or its artifact may not change its
    /// expectation unless it names a new source (`claim-expectation-rewritten`).
    /// Without a base that rule cannot run.
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

/// The texts of the data files that `diags` name, kept for quoting in the
/// report while every other text is let go.
fn quoted_texts(corpus: &Corpus, diags: &[Diagnostic]) -> Vec<(String, Arc<str>)> {
    let named: HashSet<&str> = diags.iter().map(|d| d.file.as_str()).collect();
    corpus
        .files
        .iter()
        .filter(|f| named.contains(f.rel.as_str()))
        .map(|f| (f.rel.clone(), Arc::clone(&f.text)))
        .collect()
}

/// Renders check diagnostics of `(entries, records)` checked.
fn render_counted(
    (entries, records): (usize, usize),
    diags: &[Diagnostic],
    waived: usize,
    format: Format,
    sources: &Sources,
) -> String {
    let what = format!("checked {entries} entries and {records} exclusion records");
    let summary = report::summary(diags, waived, &what);
    report::render(diags, format, sources, Some(&summary))
}

/// `check` from the build fingerprint, when the record for `key` proves
/// the inputs are those of a recorded error-free build and the generated
/// files fresh: that build's check result, rendered as the full path
/// renders it, quoting the data files already read.
fn from_fingerprint(
    store: &Store,
    inputs: &Inputs,
    strict: bool,
    format: Format,
) -> Option<Outcome> {
    let key = generate::fingerprint_key(store, inputs, Part::All)?;
    let previous = on_disk::Previous::of(&inputs.root, &inputs.previous, None);
    let (_, c) = generate::unchanged(store, &inputs.root, key, &previous)?;
    let sources: Sources = c
        .diagnostics
        .iter()
        .filter_map(|d| Some((d.file.as_str(), inputs.source_text(&d.file)?)))
        .collect();
    let stdout = render_counted(
        (c.entries, c.exclusions),
        &c.diagnostics,
        c.waived,
        format,
        &sources,
    );
    let fails = c.diagnostics.iter().any(|d| d.fails(strict));
    Some(Outcome::with_code(i32::from(fails), stdout))
}

/// Checks the corpus; fails on errors (and, with `--strict`, on unwaived warnings).
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.root()?;
    let format = Format::from(args.format);
    let inputs = load::read_inputs(root, ctx.load);
    // Leftovers are not among the recorded inputs: with any, the full path
    // reports them. A recorded check knows nothing of a base either.
    let leftovers = corpus_core::load::leftovers::found(root);
    let recorded = ctx
        .store()
        .filter(|_| leftovers.is_empty() && args.base.is_none())
        .and_then(|s| from_fingerprint(s, &inputs, args.strict, format));
    if let Some(out) = recorded {
        return Ok(out);
    }
    // As in `build`: the templates need none of the data, so they are
    // parsed on a second thread meanwhile.
    let (checked, tera) = checked_beside(&inputs, Some(format), || {
        generate::parse_read_templates(&inputs.templates, Part::All)
    });
    let CheckedCorpus {
        mut corpus,
        examples,
        found: mut rep,
        st,
    } = checked?;
    let found = corpus_core::load::leftovers::diagnostics(&leftovers, &corpus.taxonomy);
    rep.diagnostics.extend(found);
    if let Some(rev) = &args.base {
        let snapshot =
            corpus_core::exchange::git::snapshot_at(root, rev).map_err(|e| Outcome::fail(2, e))?;
        let base = corpus_core::load::load(snapshot.root(), ctx.load)
            .map_err(|e| Outcome::fail(2, format!("the base {rev}: {e}")))?;
        rep.diagnostics
            .extend(check::rewritten_expectations(&base, &corpus));
        corpus_diagnostics::diag::sort(&mut rep.diagnostics);
    }
    // Staleness advice ("run `corpus build`") cannot work while errors
    // remain, so generated files are compared only on error-free data.
    let waiting = rep.errors() > 0;
    let deferred = corpus.claims.is_some() || on_disk::publishes(root);
    let previous = on_disk::Previous::of(root, &inputs.previous, None);
    // Only the files a diagnostic names are quoted: every other text goes
    // before the generated files are rendered to be compared.
    let quoted = quoted_texts(&corpus, &rep.diagnostics);
    corpus.release_texts();
    let templates = inputs.into_templates();
    let counts = (corpus.entries.len(), corpus.exclusions.len());
    if !waiting {
        // Past here nothing reads the corpus: the generation lets it go
        // before the templates render, as `build` does.
        rep.diagnostics.extend(generate::stale_diagnostics(
            root,
            generate::Given::AtExit(Box::new(corpus)),
            &templates,
            &examples,
            Part::All,
            &previous,
            generate::Prepared {
                st: &st,
                tera: &tera,
            },
        ));
    }
    let sources: Sources = quoted
        .iter()
        .map(|(rel, text)| (rel.as_str(), &**text))
        .collect();
    let mut stdout = render_counted(counts, &rep.diagnostics, rep.waived.len(), format, &sources);
    if waiting && deferred && format == Format::Human {
        stdout.push_str(&format!("note: {}\n", check::DERIVED_WAIT));
    }
    Ok(Outcome::with_code(
        i32::from(rep.fails(args.strict)),
        stdout,
    ))
}
