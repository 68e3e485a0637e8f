//! The commands: one module per `corpus` subcommand, each with the clap
//! `Args` of its options and a `run(&Context, &Args)` that returns its
//! [`Outcome`] (exit code and the text of each stream) or stops early with
//! `?`. Nothing here prints; `main` writes the streams.

pub mod agreement;
pub mod check;
pub mod claims;
pub mod completions;
pub mod diff;
pub mod discover;
pub mod export;
pub mod fmt;
pub mod import;
pub mod init;
pub mod links;
pub mod list;
pub mod new;
pub mod publish;
pub mod release;
pub mod schema;
pub mod screen;
pub mod site;
pub mod stats;
pub mod survey;
pub mod trace;
pub mod verify;
pub mod watch;

use corpus_core::layout::Layout;
use corpus_core::load::{self, Inputs, LoadError, LoadOptions};
use corpus_core::model::corpus::Corpus;
use corpus_core::parallel::beside;
use corpus_core::stats::Stats;
use corpus_diagnostics::report::{self, Format, Sources};
use corpus_io::store::Store;
use corpus_trace::Metrics;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// What a command produced: exit code and the text for each stream.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// 0 clean, 1 problems found, 2 could not run.
    pub code: i32,
    /// Text for standard output.
    pub stdout: String,
    /// Text for standard error.
    pub stderr: String,
}

impl Outcome {
    /// A clean run that printed `stdout`.
    pub fn ok(stdout: impl Into<String>) -> Outcome {
        Outcome {
            code: 0,
            stdout: stdout.into(),
            stderr: String::new(),
        }
    }

    /// A run that ended with `code` after printing `stdout`.
    pub fn with_code(code: i32, stdout: impl Into<String>) -> Outcome {
        Outcome {
            code,
            stdout: stdout.into(),
            stderr: String::new(),
        }
    }

    /// A run that stopped with an error message on standard error.
    pub fn fail(code: i32, msg: impl AsRef<str>) -> Outcome {
        Outcome {
            code,
            stdout: String::new(),
            stderr: format!("error: {}\n", msg.as_ref()),
        }
    }
}

/// A command's result; `Err` is the outcome of a run that stopped early.
pub type Result = std::result::Result<Outcome, Outcome>;

/// Whom a command writes its standard output for, which each command's
/// options know: text from data files must not drive a terminal, so a
/// person's text gets control and bidirectional characters escaped, while
/// data for a program or a file must pass byte for byte.
pub trait Audience {
    /// Whether standard output is text for a person (reports, tables, Markdown).
    fn stdout_is_for_humans(&self) -> bool;
}

/// Output format of tables that also come as JSON (claims, agreement, trace metrics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum TableFormat {
    /// A text table, for a person.
    #[default]
    #[value(alias = "table")]
    Human,
    /// JSON.
    Json,
}

impl TableFormat {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        self == TableFormat::Human
    }

    /// The format of diagnostics printed in place of the table: with JSON,
    /// every line of standard output stays JSON (one diagnostic per line).
    pub fn report_format(self) -> Format {
        match self {
            TableFormat::Human => Format::Human,
            TableFormat::Json => Format::Json,
        }
    }
}

/// Output format of diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ReportFormat {
    /// rustc-like text with source snippets.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

impl ReportFormat {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        self == ReportFormat::Human
    }
}

impl From<ReportFormat> for Format {
    fn from(f: ReportFormat) -> Format {
        match f {
            ReportFormat::Human => Format::Human,
            ReportFormat::Json => Format::Json,
            ReportFormat::Github => Format::Github,
        }
    }
}

/// A cache of a network command that git tracks came with the repository,
/// maybe with a pull request, so it is not read: the warning that says so
/// (`shown` names the file, `kind` the cache, `afresh` what happens
/// instead), or None for a cache of this machine's own.
pub fn committed_cache(
    root: &Path,
    path: &Path,
    shown: &str,
    kind: &str,
    afresh: &str,
) -> Option<String> {
    corpus_core::exchange::git::tracks(root, path).then(|| {
        format!(
            "warning: {shown}: git tracks this {kind} cache, so it is not trusted; {afresh} (remove it with `git rm --cached`)\n"
        )
    })
}

/// `--max-age`, read the way `links`, `watch` and `discover` all read it.
pub fn max_age(given: Option<&str>) -> std::result::Result<Option<std::time::Duration>, String> {
    given
        .map(corpus_core::network::links::parse_age)
        .transpose()
        .map_err(|e| format!("--max-age: {e}"))
}

/// An answers cache under the root's cache folder, as `watch` and
/// `discover` read it: its text only when git does not track it (a committed
/// cache is a pull request's claim, never believed), else the warning.
pub struct AnswersCache {
    /// The cache's path as reports show it (relative to the root).
    pub shown: String,
    /// Where it is.
    pub path: PathBuf,
    /// Its text, when there is one the run may believe.
    pub text: Option<String>,
    /// What to tell the user (empty, or the committed-cache warning).
    pub warning: String,
}

impl AnswersCache {
    /// The cache `parse` reads from the text (empty when there is none or
    /// it is not a `kind` cache), and what to tell the user: the warning,
    /// and that an unreadable cache starts anew.
    pub fn decode<C: Default>(
        &self,
        parse: impl Fn(&str) -> std::result::Result<C, String>,
        kind: &str,
    ) -> (C, String) {
        let mut stderr = self.warning.clone();
        let cache = match &self.text {
            None => C::default(),
            Some(t) => parse(t).unwrap_or_else(|e| {
                stderr.push_str(&format!(
                    "warning: {}: not a {kind} cache ({e}); starting a new one\n",
                    self.shown
                ));
                C::default()
            }),
        };
        (cache, stderr)
    }
}

/// Reads `.cache/FILE` for a network command; `afresh` says what happens
/// instead when the cache is not trusted ("every paper is asked afresh").
pub fn answers_cache(
    root: &Path,
    file: &str,
    afresh: &str,
    max_bytes: u64,
) -> std::result::Result<AnswersCache, String> {
    let shown = format!("{}/{}", Layout::CACHE_DIR, file);
    let path = root.join(&shown);
    let committed = committed_cache(root, &path, &shown, "answers", afresh);
    let text = match committed {
        Some(_) => None,
        None => match corpus_io::reader::read_text(&path, max_bytes) {
            Ok(t) => Some(t),
            Err(corpus_io::reader::ReadError::Missing) => None,
            Err(e) => return Err(format!("{shown}: {e}")),
        },
    };
    Ok(AnswersCache {
        shown,
        path,
        text,
        warning: committed.unwrap_or_default(),
    })
}

/// Pretty JSON of a value with a final newline.
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// What every command shares: where it runs, where the corpus is and how
/// its files are read.
#[derive(Debug)]
pub struct Context {
    /// The working directory; relative paths given on the command line start here.
    pub cwd: PathBuf,
    /// How corpus data files are read (`--max-file-size`).
    pub load: LoadOptions,
    /// `--verbose`: reports say more (the keys behind each claim, what each run did).
    pub verbose: bool,
    /// The progress bar of long work (drawn only on a terminal, never with `--quiet`).
    pub progress: crate::progress::Bar,
    /// `--root` as given.
    explicit_root: Option<PathBuf>,
    /// The corpus root once looked for: traces need none, so it is looked
    /// for only when a command asks.
    root: OnceCell<std::result::Result<PathBuf, String>>,
    /// The folder of this user's build records, when this run may use them.
    store_dir: Option<PathBuf>,
    /// The store once opened (None: no folder, or it could not be used).
    store: OnceCell<Option<Store>>,
}

impl Context {
    /// A context for running from `cwd`, with `--root` (if given) and the load options.
    pub fn new(explicit_root: Option<PathBuf>, load: LoadOptions, cwd: &Path) -> Context {
        Context {
            cwd: cwd.to_path_buf(),
            load,
            verbose: false,
            progress: crate::progress::Bar::default(),
            explicit_root,
            root: OnceCell::new(),
            store_dir: None,
            store: OnceCell::new(),
        }
    }

    /// The same context with `--verbose` and the progress bar set.
    pub fn with_reports(mut self, verbose: bool, progress: crate::progress::Bar) -> Context {
        self.verbose = verbose;
        self.progress = progress;
        self
    }

    /// The same context, keeping build records in `dir` (None: keep none).
    pub fn with_store(mut self, dir: Option<PathBuf>) -> Context {
        self.store_dir = dir;
        self
    }

    /// The corpus root of a command that is about to write there, after
    /// removing the temporary files an interrupted run left below it.
    pub fn writing_root(&self) -> std::result::Result<&Path, Outcome> {
        let root = self.root()?;
        corpus_core::load::leftovers::sweep(root);
        Ok(root)
    }

    /// This user's store of build records, opened on first use; None when
    /// the run may not use one or it cannot be opened (then every command
    /// takes the full path, which is never wrong, only slower).
    pub fn store(&self) -> Option<&Store> {
        self.store
            .get_or_init(|| Store::open(self.store_dir.as_deref()?).ok())
            .as_ref()
    }

    /// The corpus root, when a command has looked for one and found it.
    pub fn found_root(&self) -> Option<&Path> {
        self.root.get()?.as_deref().ok()
    }

    /// The corpus root: `--root`, else the nearest ancestor of the working
    /// directory holding the taxonomy; a run without one cannot start (2).
    pub fn root(&self) -> std::result::Result<&Path, Outcome> {
        self.root
            .get_or_init(|| find_root(self.explicit_root.as_deref(), &self.cwd))
            .as_deref()
            .map_err(|e| Outcome::fail(2, e))
    }
}

/// Finds the corpus root: `--root`, else the nearest ancestor of `cwd` holding the taxonomy.
fn find_root(explicit: Option<&Path>, cwd: &Path) -> std::result::Result<PathBuf, String> {
    if let Some(r) = explicit {
        if !r.is_dir() {
            let what = if r.exists() {
                "not a directory"
            } else {
                "no such directory"
            };
            return Err(format!("--root {}: {what}", r.display()));
        }
        if !r.join(Layout::TAXONOMY).is_file() {
            return Err(format!(
                "--root {}: no {} there",
                r.display(),
                Layout::TAXONOMY
            ));
        }
        return Ok(r.to_path_buf());
    }
    cwd.ancestors()
        .find(|d| d.join(Layout::TAXONOMY).is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "no corpus root: neither {} nor any parent holds {}; pass --root DIR",
                cwd.display(),
                Layout::TAXONOMY
            )
        })
}

/// Loads a corpus, turning a load failure into the outcome to return.
///
/// `report` is the diagnostics format of a command whose output is the
/// diagnostics (`check`): they go to stdout in that format. Every other
/// command prints data on stdout, so its load problems go to stderr as text
/// and a machine format on stdout is never mixed with prose.
pub fn load_corpus(
    root: &Path,
    opts: LoadOptions,
    report: Option<Format>,
) -> std::result::Result<Corpus, Outcome> {
    loaded(load::load(root, opts), report)
}

/// What a load gave, or the outcome of a load that failed (see `load_corpus`).
fn loaded<T>(
    corpus: std::result::Result<T, LoadError>,
    report: Option<Format>,
) -> std::result::Result<T, Outcome> {
    match corpus {
        Ok(c) => Ok(c),
        Err(LoadError::Io(m)) => Err(Outcome::fail(2, m)),
        // Without a usable taxonomy nothing can be checked: the run could not happen.
        Err(LoadError::Taxonomy(diags)) => {
            let text = report::render(
                &diags,
                report.unwrap_or(Format::Human),
                &Sources::new(),
                Some("the taxonomy must be fixed before anything else can be checked"),
            );
            Err(match report {
                Some(_) => Outcome::with_code(2, text),
                None => Outcome {
                    code: 2,
                    stdout: String::new(),
                    stderr: text,
                },
            })
        }
    }
}

/// Parses the inputs read for a command that checks the corpus: the
/// example traces are validated and replayed too, their problems counted
/// with the corpus's own (and those of the entries linking them), and the
/// valid ones' metrics returned for the README. Load failures are reported
/// as by `load_corpus`.
pub fn parse_checked(
    inputs: &Inputs,
    report: Option<Format>,
) -> std::result::Result<(Corpus, Vec<(String, Metrics)>), Outcome> {
    // The example traces need only the taxonomy: they are replayed while the data folders are parsed.
    let parsed = load::parse_with(inputs, |tax| load::examples::replay(&inputs.traces, tax));
    let (mut corpus, examples) = loaded(parsed, report)?;
    corpus.diagnostics.extend(examples.diagnostics);
    let linked = corpus_core::check::traces::linked(&corpus, &examples.forms);
    corpus.diagnostics.extend(linked);
    Ok((corpus, examples.metrics))
}

/// The check of a parsed corpus and its figures, counted on a second
/// thread meanwhile: both only read the corpus, and the figures are of the
/// corpus as parsed whatever the check finds.
pub fn checked_and_counted(corpus: &Corpus) -> (corpus_core::check::Findings, Stats) {
    let (st, found) = beside(
        || corpus_core::stats::of_corpus(corpus),
        || corpus_core::check::check(corpus),
    );
    (found, st)
}

/// A parsed corpus, its replayed examples' metrics, its check and its figures.
pub struct CheckedCorpus {
    /// The corpus as parsed.
    pub corpus: Corpus,
    /// The metrics of the valid example traces, for the README.
    pub examples: Vec<(String, Metrics)>,
    /// What the check found.
    pub found: corpus_core::check::Findings,
    /// The figures of the corpus as parsed.
    pub st: Stats,
}

/// Parses, checks and counts the inputs (`parse_checked`, then
/// `checked_and_counted`) while `aside` runs on a second thread: work that
/// needs none of the data, such as parsing the templates.
pub fn checked_beside<A: Send>(
    inputs: &Inputs,
    report: Option<Format>,
    aside: impl FnOnce() -> A + Send,
) -> (std::result::Result<CheckedCorpus, Outcome>, A) {
    let (aside, checked) = beside(aside, || {
        parse_checked(inputs, report).map(|(corpus, examples)| {
            let (found, st) = checked_and_counted(&corpus);
            CheckedCorpus {
                corpus,
                examples,
                found,
                st,
            }
        })
    });
    (checked, aside)
}

/// Lets go of what a command made without freeing it, for its last step:
/// the process ends once the command returns, and freeing a large corpus
/// object by object would only delay that (a tenth of a second at 100,000
/// entries, a twentieth of `stats`). Only the binary runs commands, once.
pub fn left_for_exit<T>(made: T) {
    std::mem::forget(made);
}

/// Source texts of a corpus, for snippets.
pub fn sources(corpus: &Corpus) -> Sources<'_> {
    corpus
        .files
        .iter()
        .map(|f| (f.rel.as_str(), &*f.text))
        .collect()
}
