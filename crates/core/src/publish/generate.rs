//! The generated files — Layout::README.md and everything under stats/ — computed
//! from the corpus as `(path, content)` pairs, compared with the disk for the
//! `stale-generated` rule, and written atomically by `corpus build`.

use crate::layout::Layout;
use crate::load::templates::problem as template_diag;
use crate::load::Inputs;
use crate::model::corpus::Corpus;
use crate::model::Entry;
use crate::parallel::beside;
use crate::publish::chart_files::Chart;
use crate::publish::fingerprint;
use crate::publish::on_disk::{is_fresh, publishes, stale, Previous};
use crate::publish::render::beside_entries;
use crate::publish::{engine, render};
use crate::stats::{self, Stats};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use corpus_diagnostics::rules::Rule;
use corpus_io::reader;
use corpus_io::store::Store;
use corpus_trace::Metrics;
use std::path::Path;

/// Largest generated file read back for comparison.
pub use crate::load::MAX_GENERATED_BYTES;

/// Which generated files a command produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Layout::README.md and stats/.
    All,
    /// stats/ only (`corpus stats --write`).
    Stats,
    /// Layout::README.md only (`corpus render`).
    Readme,
}

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// Path relative to the root.
    pub path: String,
    /// Full content.
    pub content: String,
}

/// Computes the generated files of a part from a corpus, its templates
/// and the metrics of its valid example traces (for the Layout::README).
pub fn generate(
    corpus: &Corpus,
    templates: &[(String, String)],
    examples: &[(String, Metrics)],
    part: Part,
) -> Result<Vec<Generated>, Diagnostic> {
    generate_counted(corpus, &stats::of_corpus(corpus), templates, examples, part)
}

/// `generate` from the corpus's figures `st` (`stats::of_corpus`), counted
/// once by a caller that records them too.
pub fn generate_counted(
    corpus: &Corpus,
    st: &Stats,
    templates: &[(String, String)],
    examples: &[(String, Metrics)],
    part: Part,
) -> Result<Vec<Generated>, Diagnostic> {
    let tera = parse_templates(templates, part)?;
    generate_given(Given::Lent(corpus), st, templates, &tera, examples, part)
}

/// The templates a generation of `part` renders (and those they name),
/// parsed. Parsing them is the largest single cost of a build of a small
/// corpus, and needs nothing but the templates, so a caller can run it
/// beside parsing and checking the data.
pub fn parse_templates(
    templates: &[(String, String)],
    part: Part,
) -> Result<tera::Tera, Diagnostic> {
    let wanted: &[&str] = match part {
        Part::All => &[Layout::README_TEMPLATE, Layout::STATS_TEMPLATE],
        Part::Stats => &[Layout::STATS_TEMPLATE],
        Part::Readme => &[Layout::README_TEMPLATE],
    };
    engine::tera(templates, wanted).map_err(|e| template_problem(&e, None))
}

/// [`parse_templates`] of the templates as read: a read that failed gives
/// its own diagnostic.
pub fn parse_read_templates(
    templates: &Result<Vec<(String, String)>, Diagnostic>,
    part: Part,
) -> Result<tera::Tera, Diagnostic> {
    templates
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| parse_templates(t, part))
}

/// Where a template's author learns the language, and what changed for a
/// template written for Tera 1.
const TEMPLATE_HELP: &str = "templates are written in Tera 2's language; the tool's docs/tooling.md (Templates) lists what changed since Tera 1";

/// A Tera error as a diagnostic on the template it points into (else on
/// `fallback`, else on the templates folder), at its line and column.
fn template_problem(e: &tera::Error, fallback: Option<&str>) -> Diagnostic {
    let t = engine::TemplateError::of(e);
    let file = t.template.as_deref().or(fallback).map_or_else(
        || Layout::TEMPLATES_DIR.to_string(),
        |n| format!("{}/{n}", Layout::TEMPLATES_DIR),
    );
    let d = template_diag(&file, t.message).help(TEMPLATE_HELP);
    match t.at {
        Some((line, column)) => d.at(line, column),
        None => d,
    }
}

/// The corpus a generation reads: lent by a caller that needs it after, or
/// handed over by a process that ends once the files are written.
pub enum Given<'a> {
    /// The caller keeps the corpus.
    Lent(&'a Corpus),
    /// The generation lets each entry go as soon as its view is in the
    /// templates' context, so neither the corpus and the context nor the
    /// corpus and the rendered Markdown are held whole at once: on a large
    /// list each is about as large as the context itself. The rest of the
    /// corpus, and the context once rendered, are left to the process's exit
    /// without being freed: freeing them object by object took a tenth of
    /// a second of a 100k-entry build, on the cores the rendering needs.
    /// For the last step of a command, never for a process that goes on.
    AtExit(Box<Corpus>),
}

impl Given<'_> {
    /// The corpus, whoever holds it.
    pub fn corpus(&self) -> &Corpus {
        match self {
            Given::Lent(c) => c,
            Given::AtExit(c) => c,
        }
    }
}

/// `generate_counted` of a corpus lent or handed over, with the templates
/// already parsed into `tera` by [`parse_templates`] for the same `part`.
pub fn generate_given(
    given: Given,
    st: &Stats,
    templates: &[(String, String)],
    tera: &tera::Tera,
    examples: &[(String, Metrics)],
    part: Part,
) -> Result<Vec<Generated>, Diagnostic> {
    let at_exit = matches!(given, Given::AtExit(_));
    let (plain, prepared) = match given {
        Given::Lent(corpus) => plain_and_prepared(corpus, st, examples, part),
        Given::AtExit(corpus) => plain_and_prepared_at_exit(corpus, st, examples, part),
    };
    let rendered = render_prepared(prepared?, templates, tera, part, at_exit)?;
    Ok(assembled(plain, rendered, part))
}

/// Where the list is published, once: the changelog links its entries there
/// and the README names it.
fn site_of(corpus: &Corpus) -> String {
    let repo = &corpus.taxonomy.repository;
    if repo.is_empty() {
        String::new()
    } else {
        crate::publish::repository::pages_url(repo)
    }
}

/// The files that need no template (the figures' own files, the changelog
/// and the schema), computed on a second thread while the templates'
/// context is made from the corpus.
fn plain_and_prepared(
    corpus: &Corpus,
    st: &Stats,
    examples: &[(String, Metrics)],
    part: Part,
) -> (Plain, Result<TemplateInput, Diagnostic>) {
    let site = site_of(corpus);
    beside(
        || plain_files(corpus, st, part, &site),
        || prepared(corpus, st, examples),
    )
}

/// [`plain_and_prepared`] of a corpus handed over until the exit: first all
/// that reads the whole corpus (the plain files on a second thread, what the
/// templates show beside the entries' lists), then the lists, each entry
/// let go as its view goes into the context, and the rest of the corpus
/// left to the exit.
fn plain_and_prepared_at_exit(
    corpus: Box<Corpus>,
    st: &Stats,
    examples: &[(String, Metrics)],
    part: Part,
) -> (Plain, Result<TemplateInput, Diagnostic>) {
    let site = site_of(&corpus);
    let (plain, shown) = beside(
        || plain_files(&corpus, st, part, &site),
        || beside_entries(&corpus, st),
    );
    let mut corpus = *corpus;
    // Each entry moved once, into a box of its own: from here on the README
    // sorts, splits and hands over the entries themselves, a pointer each
    // instead of hundreds of bytes moved at every step.
    let entries: Vec<Box<Entry>> = std::mem::take(&mut corpus.entries)
        .into_iter()
        .map(|loaded| Box::new(loaded.entry))
        .collect();
    let extras = render::Extras::of(&corpus, &shown.charts, &shown.verdicts, examples);
    let view = render::context_handed(&corpus.taxonomy, entries, st, extras);
    let ctx = with_view(&view, shown.ctx);
    std::mem::forget(view);
    std::mem::forget(corpus);
    let prepared = ctx.map(|ctx| TemplateInput {
        ctx,
        charts: shown.charts,
    });
    (plain, prepared)
}

/// Every generated file of `part`, in the order they are reported: the
/// figures and charts (with the manifest of stats/), the changelog, the
/// schema, the README.
fn assembled(plain: Plain, rendered: Rendered, part: Part) -> Vec<Generated> {
    let Rendered {
        stats_md,
        charts: chart_files,
        readme,
    } = rendered;
    let Plain {
        stats: stats_files,
        changelog,
        schema,
    } = plain;
    let mut files = Vec::new();
    if part != Part::Readme {
        files.extend(stats_md);
        files.extend(stats_files);
        for c in chart_files {
            files.push(Generated {
                path: format!("{}/{}", Layout::STATS_DIR, c.file),
                content: c.svg,
            });
        }
        let mut manifest: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        manifest.sort();
        let text = manifest
            .iter()
            .map(|p| format!("{p}\n"))
            .collect::<String>();
        files.push(Generated {
            path: Layout::MANIFEST.to_string(),
            content: text,
        });
    }
    files.extend(changelog);
    files.extend(schema);
    files.extend(readme);
    files
}

/// The generated files that need no template.
struct Plain {
    /// stats/stats.json and the CSV tables (not for `Part::Readme`).
    stats: Vec<Generated>,
    /// The changelog (`Part::All` only).
    changelog: Option<Generated>,
    /// The JSON Schema of entries (`Part::All` only).
    schema: Option<Generated>,
}

fn plain_files(corpus: &Corpus, st: &Stats, part: Part, site: &str) -> Plain {
    let mut stats = Vec::new();
    if part != Part::Readme {
        stats.push(Generated {
            path: format!("{}/stats.json", Layout::STATS_DIR),
            content: crate::stats::render::json_text(st),
        });
        for (stem, text) in crate::stats::render::csv_tables(st) {
            stats.push(Generated {
                path: format!("{}/{stem}.csv", Layout::STATS_DIR),
                content: text,
            });
        }
    }
    let all = part == Part::All;
    Plain {
        stats,
        changelog: all.then(|| Generated {
            path: Layout::CHANGELOG.to_string(),
            content: crate::publish::changes::changelog(corpus, site),
        }),
        schema: all.then(|| Generated {
            path: Layout::ENTRY_SCHEMA.to_string(),
            content: crate::publish::schema::entry_schema_text(&corpus.taxonomy),
        }),
    }
}

/// The charts and the Markdown rendered from the templates.
struct Rendered {
    /// stats/STATS.md, when rendered.
    stats_md: Option<Generated>,
    /// The charts (their SVG is written under stats/, their descriptions
    /// are the alt texts of both Markdown files).
    charts: Vec<Chart>,
    /// README.md, when rendered.
    readme: Option<Generated>,
}

/// What the templates render from: their context and the charts. Neither
/// borrows from the corpus.
struct TemplateInput {
    /// Everything the templates are given.
    ctx: tera::Context,
    /// The charts, which the context describes.
    charts: Vec<Chart>,
}

/// The charts and the templates' context, made from the corpus.
fn prepared(
    corpus: &Corpus,
    st: &Stats,
    examples: &[(String, Metrics)],
) -> Result<TemplateInput, Diagnostic> {
    let beside = beside_entries(corpus, st);
    let extras = render::Extras::of(corpus, &beside.charts, &beside.verdicts, examples);
    let view = render::context(&corpus.taxonomy, &corpus.entry_list(), st, extras);
    let ctx = with_view(&view, beside.ctx)?;
    Ok(TemplateInput {
        ctx,
        charts: beside.charts,
    })
}

/// The templates' context: the view's, with what is shown `beside` the
/// entries' lists (which wins a name both hold).
fn with_view(view: &render::Context, beside: tera::Context) -> Result<tera::Context, Diagnostic> {
    let mut ctx = tera::Context::from_serialize(view).map_err(|e| template_problem(&e, None))?;
    ctx.extend(beside);
    Ok(ctx)
}

/// The length of a README (bytes) past which its context is freed on a
/// thread of its own (a list of some thousands of entries).
const FREED_BESIDE: usize = 1 << 20;

/// The Markdown of `part` rendered from the context alone, laid out; the
/// context is left to the process's exit when `at_exit`.
fn render_prepared(
    prepared: TemplateInput,
    templates: &[(String, String)],
    tera: &tera::Tera,
    part: Part,
    at_exit: bool,
) -> Result<Rendered, Diagnostic> {
    let TemplateInput { ctx, charts } = prepared;
    let has = |n: &str| templates.iter().any(|(t, _)| t == n);
    let render_one = |name: &str| {
        tera.render(name, &ctx)
            .map_err(|e| template_problem(&e, Some(name)))
    };
    let stats_md = if part != Part::Readme && has(Layout::STATS_TEMPLATE) {
        Some(render_one(Layout::STATS_TEMPLATE)?)
    } else {
        None
    };
    let readme = if part != Part::Stats && has(Layout::README_TEMPLATE) {
        Some(render_one(Layout::README_TEMPLATE)?)
    } else {
        None
    };
    let laid_out = |text: String, path: String| Generated {
        path,
        content: crate::publish::markdown_layout::layout(&text),
    };
    // A process about to exit keeps the context: the allocator's pages of a
    // large one stay resident freed or not, and the peak is the check's.
    // Otherwise, on a large list the context is let go on another thread
    // while the text is laid out: freeing its many small values takes as
    // long as the layout. A small context goes here, where starting a
    // thread would cost more.
    let freeing = if at_exit {
        std::mem::forget(ctx);
        None
    } else if readme.as_ref().is_some_and(|t| t.len() > FREED_BESIDE) {
        Some(std::thread::spawn(move || drop(ctx)))
    } else {
        drop(ctx);
        None
    };
    let stats_md = stats_md.map(|t| laid_out(t, format!("{}/STATS.md", Layout::STATS_DIR)));
    let readme = readme.map(|t| laid_out(t, Layout::README.to_string()));
    if let Some(freeing) = freeing {
        // Freeing cannot fail; a panic there would have nothing to report.
        let _ = freeing.join();
    }
    Ok(Rendered {
        stats_md,
        charts,
        readme,
    })
}

/// The key of a generation of `part` from `inputs` in the build fingerprint
/// (see `fingerprint`); None when an input could not be read.
pub fn fingerprint_key(store: &Store, inputs: &Inputs, part: Part) -> Option<u128> {
    let digest = inputs.digest(store.key())?;
    Some(fingerprint::key(store, digest, &format!("{part:?}")))
}

/// When the record for `key` proves the generated files fresh (same inputs,
/// same bytes on disk, nothing the `previous` build left over): their
/// paths, and what checking found. Then parsing, checking and rendering can
/// all be skipped, since only a build that found no error writes a record
/// (see `fingerprint`).
pub fn unchanged(
    store: &Store,
    root: &Path,
    key: u128,
    previous: &Previous,
) -> Option<(Vec<String>, fingerprint::Checked)> {
    let (paths, checked) = fingerprint::fresh(store, root, key)?;
    // A build that left the user's changelog alone wrote none; once that
    // file is gone, the generated one is due.
    if !paths.iter().any(|p| p == Layout::CHANGELOG) && !previous.users_changelog() {
        return None;
    }
    let names: Vec<&str> = paths.iter().map(String::as_str).collect();
    previous
        .leftovers_of(&names)
        .is_empty()
        .then_some((paths, checked))
}

/// The figures of the corpus, and what checking found, when the record for
/// `key` proves the generated files fresh (see `unchanged`) and the recorded
/// figures are exactly those of the fresh stats/stats.json. None when the
/// full path must decide. `previous` is what the previous build left, as
/// read with the inputs.
pub fn fresh_stats(
    store: &Store,
    root: &Path,
    key: u128,
    previous: &Previous,
) -> Option<(Stats, fingerprint::Checked)> {
    let (paths, mut checked) = unchanged(store, root, key, previous)?;
    let json = format!("{}/stats.json", Layout::STATS_DIR);
    if !paths.contains(&json) {
        return None;
    }
    let st: Stats = serde_json::from_str(&checked.stats_json.take()?).ok()?;
    let on_disk = reader::read_text(&root.join(&json), MAX_STATS_JSON_BYTES).ok()?;
    (on_disk == crate::stats::render::json_text(&st)).then_some((st, checked))
}

/// Largest stats/stats.json read back by `fresh_stats`.
const MAX_STATS_JSON_BYTES: u64 = 512 * 1024 * 1024;

/// `stale-generated` diagnostics for a root (none when it has no
/// templates), from the templates and what the `previous` build left, read
/// with its other inputs, and the figures and parsed templates `prepared`;
/// a corpus handed over (`Given::AtExit`) is left to the exit.
pub fn stale_diagnostics(
    root: &Path,
    given: Given,
    templates: &Result<Vec<(String, String)>, Diagnostic>,
    examples: &[(String, Metrics)],
    part: Part,
    previous: &Previous,
    prepared: Prepared,
) -> Vec<Diagnostic> {
    if !publishes(root) {
        return Vec::new();
    }
    let severity = given.corpus().taxonomy.severity_of(Rule::StaleGenerated);
    let templates = match templates {
        Ok(t) => t,
        Err(d) => return vec![d.clone()],
    };
    // Without its template Layout::README.md would silently go unchecked.
    let missing_template = (part != Part::Stats
        && !templates.iter().any(|(n, _)| n == Layout::README_TEMPLATE))
    .then(|| {
        let rel = format!("{}/{}", Layout::TEMPLATES_DIR, Layout::README_TEMPLATE);
        Diagnostic::new(
            Rule::StaleGenerated,
            severity,
            rel.clone(),
            format!(
                "`{rel}` is missing, so {} can be neither generated nor checked",
                Layout::README
            ),
        )
        .help("restore the template (`git checkout -- templates/`)")
    });
    let mut out: Vec<Diagnostic> = missing_template.into_iter().collect();
    let Prepared { st, tera } = prepared;
    let files = tera
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|tera| generate_given(given, st, templates, tera, examples, part));
    let mut files = match files {
        Ok(f) => f,
        Err(d) => return vec![d],
    };
    previous.keep_users_changelog(&mut files);
    out.extend(stale_files(root, &files, severity, previous));
    out
}

/// What [`stale_diagnostics`] renders from, made by its caller beside
/// parsing and checking the data.
pub struct Prepared<'a> {
    /// The corpus's figures (`stats::of_corpus`).
    pub st: &'a Stats,
    /// The templates of the part, parsed ([`parse_read_templates`]).
    pub tera: &'a Result<tera::Tera, Diagnostic>,
}

/// One `stale-generated` diagnostic for every generated file that differs
/// from what a build would write, or none: every stale file has the same
/// cause and the same fix, and twenty copies of it would bury the other
/// problems.
fn stale_files(
    root: &Path,
    files: &[Generated],
    severity: Severity,
    previous: &Previous,
) -> Option<Diagnostic> {
    let mut stale: Vec<&str> = stale(root, files)
        .into_iter()
        .map(|f| f.path.as_str())
        .collect();
    // The Layout::README first: it is what readers see, so the diagnostic points there.
    stale.sort_by_key(|p| *p != Layout::README);
    let gone = previous.leftovers(files);
    let first = stale
        .first()
        .copied()
        .or(gone.first().map(String::as_str))?;
    let mut parts = Vec::new();
    if !stale.is_empty() {
        let (n, verb) = if stale.len() == 1 {
            ("generated file".to_string(), "is")
        } else {
            (format!("{} generated files", stale.len()), "are")
        };
        parts.push(format!(
            "{n} {verb} out of date or missing ({})",
            first_few(&stale)
        ));
    }
    if !gone.is_empty() {
        let gone: Vec<&str> = gone.iter().map(String::as_str).collect();
        parts.push(format!("no longer generated: {}", first_few(&gone)));
    }
    Some(
        Diagnostic::new(
            Rule::StaleGenerated,
            severity,
            first.to_string(),
            format!("{}; `corpus build` regenerates them", parts.join("; ")),
        )
        .help("run `corpus build` (`cargo run --release -- build` in this repository) and commit the result; `corpus build --check` lists every file"),
    )
}

/// The first three names and how many more: the diagnostic names the
/// command that fixes them all, not every file.
fn first_few(names: &[&str]) -> String {
    const SHOWN: usize = 3;
    let mut out = names
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        out.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    out
}

/// What a build did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    /// Files written because their content changed (or was missing).
    pub changed: Vec<String>,
    /// Files left alone because they were already fresh.
    pub unchanged: usize,
    /// Files removed because a previous build generated them and this one does not.
    pub removed: Vec<String>,
}

/// The build record a successful build keeps once its files are written
/// (see `fingerprint`): the store, the key of its inputs and what checking
/// them found.
pub struct Record<'a> {
    /// This user's store.
    pub store: &'a Store,
    /// The key of the generation (`fingerprint_key`).
    pub key: u128,
    /// What checking the inputs found.
    pub checked: fingerprint::Checked,
}

/// Writes the stale files, removes what the `previous` build generated and
/// this one does not, then keeps the `record` of the build.
///
/// The stale files are written together by [`corpus_io::files::write_all`]: a
/// folder in the way of any of them, or a file that cannot be staged, fails
/// the build before any generated file is replaced, so a build that fails
/// half-way leaves every previously generated file as it was. Leftovers are
/// removed only once everything is written, and the record is written last.
pub fn write(
    root: &Path,
    files: &[Generated],
    previous: &Previous,
    record: Option<Record>,
) -> Result<Written, String> {
    let mut w = Written::default();
    let leftovers = previous.leftovers(files);
    let mut todo = Vec::new();
    for f in files {
        let path = root.join(&f.path);
        if is_fresh(root, f) {
            w.unchanged += 1;
        } else {
            todo.push((path, f.path.clone(), f.content.as_bytes().into()));
        }
    }
    w.changed = corpus_io::files::write_all(root, &todo)?;
    for p in leftovers {
        std::fs::remove_file(root.join(&p)).map_err(|e| format!("cannot remove {p}: {e}"))?;
        w.removed.push(p);
    }
    if let Some(r) = record {
        let outputs = files
            .iter()
            .map(|f| (f.path.as_str(), f.content.as_bytes()));
        fingerprint::record(r.store, root, r.key, &r.checked, outputs);
    }
    Ok(w)
}
