//! The command line: the global options, the subcommands (each wrapping the
//! options its module in `commands` defines) and the dispatch to that
//! module's `run`. Output is returned as text, never printed here, so `main`
//! stays the only place that touches stdout and stderr.

use crate::commands::{
    agreement, check, claims, completions, diff, discover, export, fmt, import, init, links, list,
    new, publish, release, schema, screen, site, stats, survey, trace, verify, watch, Audience,
    Context, Outcome,
};
use clap::{CommandFactory, Parser, Subcommand};
use corpus_core::load::{self, LoadOptions};
use std::path::{Path, PathBuf};

/// Source texts of a corpus: the fuzz targets render diagnostics with them.
pub use crate::commands::sources;

/// The help heading of the options every subcommand takes.
const GLOBAL: &str = "Global options";

/// Keeps a curated literature corpus as YAML and turns it into checked, counted, rendered output.
#[derive(Debug, Parser)]
#[command(
    name = "corpus",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 clean; 1 problems in the data (the output says which); 2 could not run \
(bad usage, no corpus root or no usable taxonomy, a file that cannot be read or written, \
standard output that cannot be written). A closed pipe stops the output quietly."
)]
pub struct Cli {
    /// Corpus root (default: nearest ancestor holding corpus/taxonomy.yaml).
    // Under their own heading so that every subcommand's help lists them in
    // the same place, after its own options.
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,
    /// Largest corpus data file to read, in bytes (entries, records, taxonomy, claims, annotations; commands that read the corpus).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = load::DEFAULT_MAX_FILE_BYTES, help_heading = GLOBAL)]
    pub max_file_size: u64,
    /// Neither read nor write this user's build record: every run checks and renders in full (always so under CI=true).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub no_cache: bool,
    /// Results only: no progress, notes or warnings on standard error.
    ///
    /// Every command writes its results (data, tables, check's diagnostics, what a writing
    /// command wrote) to standard output and its reports (progress, notes, warnings, errors) to
    /// standard error. --quiet drops the reports of a run that succeeds; a failed run still says why.
    #[arg(long, short, global = true, conflicts_with = "verbose", help_heading = GLOBAL)]
    pub quiet: bool,
    /// Say more: the corpus root used and the time taken, on standard error.
    ///
    /// Commands with more detail to give add it too (claims: the keys behind each claim).
    #[arg(long, short, global = true, help_heading = GLOBAL)]
    pub verbose: bool,
    /// Colour of human reports (diagnostics, errors, warnings).
    ///
    /// auto colours a stream that is a terminal, unless NO_COLOR is set and not empty.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, help_heading = GLOBAL)]
    pub color: ColorChoice,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// When human reports are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set (and not empty) or TERM is `dumb`.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

/// Which of the standard streams are a terminal (`main` looks; tests have none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Terminal {
    /// Standard output is a terminal.
    pub stdout: bool,
    /// Standard error is a terminal.
    pub stderr: bool,
}

/// `--max-file-size` of a command that reads no corpus data file: accepted
/// but not shown, so that only the commands it limits list it.
fn unlimited() -> clap::Arg {
    clap::Arg::new("max_file_size")
        .long("max-file-size")
        .value_name("BYTES")
        .value_parser(clap::value_parser!(u64))
        .hide(true)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check every entry and record; report all problems.
    Check(check::Args),
    /// Check, then regenerate every generated file: README.md, stats/, the entry schema, the man page.
    ///
    /// The one command that writes them all. `render` (README.md) and `stats --write` (stats/) are
    /// its parts, for when only one is wanted; only `build` records the build for the next run.
    /// The man page, docs/corpus.1, is written where the root has a docs/ folder.
    Build(publish::Args),
    /// Print the statistics (with --write, regenerate stats/ only: that part of `build`).
    Stats(stats::Args),
    /// Regenerate README.md only: that part of `build`, leaving stats/ and the schema as they are.
    Render(publish::Args),
    /// Print the claims ledger: each claim, expected and actual, and whether it holds.
    Claims(claims::Args),
    /// List entries (or exclusion records) matching filters.
    List(list::Args),
    /// Show what a change moves: entries, figures and claims.
    Diff(diff::Args),
    /// Import the reference CSV layout into YAML files.
    Import(import::Args),
    /// Write the scaffold of a new entry, corpus/papers/KEY.yaml.
    New(new::Args),
    /// Start a new list in an empty folder: taxonomy, templates, empty data folders.
    #[command(arg = unlimited())]
    Init(init::Args),
    /// Format entry and record files: field order, quoting every YAML reader agrees on.
    Fmt(fmt::Args),
    /// Print the JSON Schema of entry files, generated from the taxonomy.
    Schema(schema::Args),
    /// Export the corpus as CSV (the import layout), JSON or BibTeX.
    Export(export::Args),
    /// Compare annotators' tags with the corpus (Cohen's kappa; Krippendorff's alpha for more raters).
    Agreement(agreement::Args),
    /// Write the browsable, filterable page of the corpus: one self-contained HTML file.
    Site(site::Args),
    /// Validate orchestration traces, or replay one into metrics.
    #[command(subcommand, arg = unlimited())]
    Trace(trace::TraceCommand),
    /// Read the survey's figure memberships from its artifact's figure files (check or write).
    #[command(subcommand)]
    Survey(survey::SurveyCommand),
    /// Check every link of the entries, records and README (dead, moved, timed out).
    Links(links::Args),
    /// Compare entries' title, first author and year with their arXiv records.
    Verify(verify::Args),
    /// Record each paper's status (versions, withdrawal, publication, retraction) from arXiv and OpenAlex.
    Watch(watch::Args),
    /// Make a citable release: changelog, CITATION.cff, .zenodo.json and a snapshot of the figures.
    Release(release::Args),
    /// Run the search's query families against arXiv for a date range; queue new papers as ranked candidates.
    Discover(discover::Args),
    /// Move candidates into the pool (--include) or the exclusion log (--exclude --stage --reason).
    Screen(screen::Args),
    /// Print the shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(arg = unlimited())]
    Completions(completions::Args),
}

/// Runs a parsed command line from the given working directory, keeping
/// build records in this user's cache folder unless `--no-cache` or `CI`
/// say otherwise; `tty` says which streams a person watches.
pub fn run(cli: &Cli, cwd: &Path, tty: Terminal) -> Outcome {
    let store = if cli.no_cache || in_ci() {
        None
    } else {
        user_cache_dir()
    };
    run_on(cli, cwd, store, tty)
}

/// Runs a parsed command line, keeping build records in `store` (None:
/// none), with no terminal attached.
pub fn run_with_store(cli: &Cli, cwd: &Path, store: Option<PathBuf>) -> Outcome {
    run_on(cli, cwd, store, Terminal::default())
}

fn run_on(cli: &Cli, cwd: &Path, store: Option<PathBuf>, tty: Terminal) -> Outcome {
    let started = std::time::Instant::now();
    let load = LoadOptions {
        max_file_bytes: cli.max_file_size,
    };
    let bar = crate::progress::Bar::new(tty.stderr && !cli.quiet);
    let ctx = Context::new(cli.root.clone(), load, cwd)
        .with_store(store)
        .with_reports(cli.verbose, bar);
    let mut out = dispatch(&cli.command, &ctx).unwrap_or_else(|stopped| stopped);
    if cli.quiet && out.code == 0 {
        // Reports only: a clean run's notes and warnings are what --quiet drops.
        out.stderr.clear();
    }
    if cli.verbose {
        let root = ctx.found_root().map(|r| r.display().to_string());
        out.stderr.push_str(&format!(
            "note: corpus root: {}; exit status {}; took {:.2} s\n",
            root.as_deref().unwrap_or("none used"),
            out.code,
            started.elapsed().as_secs_f64()
        ));
    }
    // Text from data files must not drive the terminal (see `Audience`):
    // stderr is always read by a person, stdout when the options say so.
    out.stderr = corpus_core::text::visible::visible(&out.stderr).into_owned();
    let human = human_stdout(&cli.command);
    if human {
        out.stdout = corpus_core::text::visible::visible(&out.stdout).into_owned();
    }
    // Colour is added after the escaping, so data cannot forge or break it.
    if colour(cli.color, tty.stderr) {
        out.stderr = corpus_diagnostics::report::paint(&out.stderr);
    }
    if human && colour(cli.color, tty.stdout) {
        out.stdout = corpus_diagnostics::report::paint(&out.stdout);
    }
    out
}

/// Whether a stream gets colour: `--color always`, or `auto` on a terminal
/// without NO_COLOR (set and not empty, as no-color.org asks) or TERM=dumb.
fn colour(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

/// Whether this run is a continuous-integration job (`CI` set, as every
/// common CI service does): there the build record is never trusted, since
/// whatever the job's folders hold may have come with the change under test.
fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| {
        let v = v.to_string_lossy().to_ascii_lowercase();
        !v.is_empty() && v != "0" && v != "false"
    })
}

/// This user's cache folder for the tool, outside any working tree:
/// `CORPUS_CACHE_DIR`, else the platform's user cache folder + `corpus`
/// (`XDG_CACHE_HOME`, `~/.cache`; `~/Library/Caches` on macOS;
/// `%LOCALAPPDATA%` on Windows). None when no absolute one is known.
fn user_cache_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if let Some(dir) = var("CORPUS_CACHE_DIR") {
        return Some(dir);
    }
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library/Caches")
    } else {
        var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")))?
    };
    Some(base.join("corpus"))
}

/// Whether a command's standard output is meant for a human; its options say.
fn human_stdout(command: &Command) -> bool {
    let args: &dyn Audience = match command {
        Command::Check(a) => a,
        Command::Build(a) | Command::Render(a) => a,
        Command::Stats(a) => a,
        Command::Claims(a) => a,
        Command::List(a) => a,
        Command::Diff(a) => a,
        Command::Import(a) => a,
        Command::New(a) => a,
        Command::Init(a) => a,
        Command::Fmt(a) => a,
        Command::Schema(a) => a,
        Command::Export(a) => a,
        Command::Agreement(a) => a,
        Command::Site(a) => a,
        Command::Trace(a) => a,
        Command::Survey(a) => a,
        Command::Links(a) => a,
        Command::Verify(a) => a,
        Command::Watch(a) => a,
        Command::Release(a) => a,
        Command::Discover(a) => a,
        Command::Screen(a) => a,
        Command::Completions(a) => a,
    };
    args.stdout_is_for_humans()
}

/// Runs one command; `Err` is the outcome of a run that stopped early.
fn dispatch(command: &Command, ctx: &Context) -> crate::commands::Result {
    match command {
        Command::Check(a) => check::run(ctx, a),
        Command::Build(a) => publish::build(ctx, a, || completions::man_page(Cli::command())),
        Command::Stats(a) => stats::run(ctx, a),
        Command::Render(a) => publish::render(ctx, a),
        Command::Claims(a) => claims::run(ctx, a),
        Command::List(a) => list::run(ctx, a),
        Command::Diff(a) => diff::run(ctx, a),
        Command::Import(a) => import::run(ctx, a),
        Command::New(a) => new::run(ctx, a),
        Command::Init(a) => init::run(ctx, a),
        Command::Fmt(a) => fmt::run(ctx, a),
        Command::Schema(a) => schema::run(ctx, a),
        Command::Export(a) => export::run(ctx, a),
        Command::Agreement(a) => agreement::run(ctx, a),
        Command::Site(a) => site::run(ctx, a),
        Command::Trace(a) => trace::run(ctx, a),
        Command::Survey(a) => survey::run(ctx, a),
        Command::Links(a) => links::run(ctx, a),
        Command::Verify(a) => verify::run(ctx, a),
        Command::Watch(a) => watch::run(ctx, a),
        Command::Release(a) => release::run(ctx, a),
        Command::Discover(a) => discover::run(ctx, a),
        Command::Screen(a) => screen::run(ctx, a),
        Command::Completions(a) => completions::run(Cli::command(), a),
    }
}
