//! `corpus links`: reads the host exceptions, the README and the results
//! cache, checks every link, renders the report and saves the cache.

use super::{load_corpus, Audience, Context, Outcome, Result};
use corpus_core::layout::Layout;
use corpus_core::load::Corpus;
use corpus_core::network::http::{Client, Policy};
use corpus_core::network::links::{
    anchors, collect, default_cache, render, Cache, Down, HostsConfig, LinkFormat, LinksOptions,
    Local, Net, Settings,
};
use corpus_core::network::progress::Progress;
use corpus_io::reader::{self, ReadError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Largest corpus/links.yaml read.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;
/// Largest results cache read.
const MAX_CACHE_BYTES: u64 = 256 * 1024 * 1024;

/// Output formats of `corpus links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LinkFormatArg {
    /// Problems with their file and line, then a summary.
    #[default]
    Human,
    /// One JSON object per URL, one per line.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// A Markdown report (for a job summary).
    Markdown,
}

impl LinkFormatArg {
    /// Whether this format is read by a person rather than a program.
    pub fn is_for_humans(self) -> bool {
        matches!(self, LinkFormatArg::Human | LinkFormatArg::Markdown)
    }
}

impl From<LinkFormatArg> for LinkFormat {
    fn from(f: LinkFormatArg) -> LinkFormat {
        match f {
            LinkFormatArg::Human => LinkFormat::Human,
            LinkFormatArg::Json => LinkFormat::Json,
            LinkFormatArg::Github => LinkFormat::Github,
            LinkFormatArg::Markdown => LinkFormat::Markdown,
        }
    }
}

/// Options of `corpus links`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = LinkFormatArg::Human)]
    pub format: LinkFormatArg,
    /// Check only what needs no network: URL syntax, README anchors, arXiv id and link agreement.
    #[arg(long)]
    pub offline: bool,
    /// Timeout of one request, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub timeout: f64,
    /// Results cache (JSON), relative to the working directory [default: <root>/.cache/corpus-links.json].
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Skip URLs that were checked successfully within this age (e.g. 36h, 7d; plain numbers are seconds).
    #[arg(long, value_name = "AGE")]
    pub max_age: Option<String>,
    /// Report a link as failing only once it has failed on this many consecutive runs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub fail_after: u32,
    /// Requests in flight at once, over all hosts.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Requests in flight at once to one host.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub per_host: u32,
    /// Retries of a 429 or 503 answer.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub retries: u32,
    /// Most seconds spent waiting on retries of one URL (a longer Retry-After ends them).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub max_wait: f64,
    /// First backoff in seconds when a 429/503 gives no Retry-After (doubled per retry).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub backoff: f64,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        self.format.is_for_humans()
    }
}

impl Args {
    /// The library's options for these arguments.
    fn options(&self) -> LinksOptions {
        LinksOptions {
            format: self.format.into(),
            offline: self.offline,
            timeout: self.timeout,
            cache: self.cache.clone(),
            max_age: self.max_age.clone(),
            fail_after: self.fail_after,
            jobs: self.jobs,
            per_host: self.per_host,
            retries: self.retries,
            max_wait: self.max_wait,
            backoff: self.backoff,
        }
    }
}

/// Checks the links of the corpus; `--cache` is relative to the working directory.
pub fn run(ctx: &Context, args: &Args) -> Result {
    let root = ctx.writing_root()?;
    let corpus = load_corpus(root, ctx.load, None)?;
    command(root, &ctx.cwd, &corpus, &args.options(), &ctx.progress)
        .map_err(|e| Outcome::fail(2, e))
}

/// `corpus links`: checks, renders, saves the cache; Err says why it could
/// not run.
fn command(
    root: &Path,
    cwd: &Path,
    corpus: &Corpus,
    a: &LinksOptions,
    progress: &dyn Progress,
) -> std::result::Result<Outcome, String> {
    let secs = |v: f64, name: &str| {
        if v.is_finite() && (0.0..=86_400.0).contains(&v) {
            Ok(Duration::from_secs_f64(v))
        } else {
            Err(format!(
                "{name} must be a number of seconds between 0 and 86400"
            ))
        }
    };
    let timeout = secs(a.timeout, "--timeout")?;
    if timeout.is_zero() {
        return Err("--timeout must be more than 0 seconds".into());
    }
    let settings = Settings {
        offline: a.offline,
        policy: Policy {
            timeout,
            retries: a.retries,
            backoff: secs(a.backoff, "--backoff")?,
            max_wait: secs(a.max_wait, "--max-wait")?,
        },
        max_age: super::max_age(a.max_age.as_deref())?,
        fail_after: a.fail_after,
        jobs: a.jobs as usize,
        per_host: a.per_host as usize,
    };
    let hosts = match reader::read_text(&root.join(Layout::LINK_HOSTS), MAX_CONFIG_BYTES) {
        Err(ReadError::Missing) => HostsConfig::default(),
        Err(e) => return Err(format!("{}: {e}", Layout::LINK_HOSTS)),
        Ok(text) => {
            HostsConfig::from_yaml(&text).map_err(|e| format!("{}: {e}", Layout::LINK_HOSTS))?
        }
    };
    let readme = match reader::read_text(
        &root.join(Layout::README),
        corpus_core::publish::generate::MAX_GENERATED_BYTES,
    ) {
        Ok(t) => Some(t),
        Err(ReadError::Missing) => None,
        Err(e) => return Err(format!("{}: {e}", Layout::README)),
    };
    let readme_anchors = readme.as_deref().map(anchors).unwrap_or_default();
    let links = collect(corpus, readme.as_deref());
    let cache_path = match &a.cache {
        Some(p) => cwd.join(p),
        None => root.join(default_cache()),
    };
    // Believing a committed cache could pass dead links as alive.
    let committed = (!a.offline)
        .then(|| {
            let shown = cache_path.display().to_string();
            super::committed_cache(
                root,
                &cache_path,
                &shown,
                "results",
                "every link is checked afresh",
            )
        })
        .flatten();
    let mut stderr = committed.clone().unwrap_or_default();
    let cache = if a.offline || committed.is_some() {
        Cache::default()
    } else {
        match reader::read_text(&cache_path, MAX_CACHE_BYTES).map(|t| Cache::from_json(&t)) {
            Err(ReadError::Missing) => Cache::default(),
            // Nothing there yet (even when a parent is not a folder; writing will say so).
            Err(_) if std::fs::symlink_metadata(&cache_path).is_err() => Cache::default(),
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                stderr.push_str(&format!(
                    "warning: {}: not a links cache ({e}); starting a new one\n",
                    cache_path.display()
                ));
                Cache::default()
            }
            // Anything but a plain file there is the user's, not ours to replace.
            Err(e) => return Err(format!("cache {}: {e}", cache_path.display())),
        }
    };
    let local = Local {
        root,
        anchors: &readme_anchors,
        hosts: &hosts,
    };
    let client = Client::new(settings.policy);
    let net = Net {
        client: &client,
        sleep: &std::thread::sleep,
        progress,
    };
    let run = corpus_core::network::links::run(
        &links,
        local,
        cache,
        &settings,
        corpus_core::model::dates::unix_now(),
        &net,
    );
    if let Some(down) = &run.network_down {
        // Every link would be reported as failing, and the cache would
        // count a failed run against each: neither is true of the data.
        return Err(no_network(down));
    }
    let diagnostics = corpus_core::network::links::diagnostics(&run.results, &corpus.taxonomy);
    let mut code = i32::from(diagnostics.iter().any(|d| d.fails(false)));
    if let Some(c) = &run.cache {
        // The report is still worth printing; the exit code says the run did not finish.
        if let Err(e) = corpus_io::files::write_atomic(root, &cache_path, c.to_json().as_bytes()) {
            stderr.push_str(&format!(
                "error: cannot write the cache {}: {e}\n",
                cache_path.display()
            ));
            code = 2;
        }
    }
    Ok(Outcome {
        code,
        stdout: render(
            &run.results,
            &diagnostics,
            a.format,
            corpus,
            readme.as_deref(),
        ),
        stderr,
    })
}

/// Why the run says nothing about the links: the network, not the data,
/// failed. Said once, with what still works without it.
fn no_network(down: &Down) -> String {
    let stopped = if down.stopped {
        format!(
            "stopped after the first {} of {} requests",
            down.attempted, down.needed
        )
    } else {
        format!("all {} requests", down.attempted)
    };
    format!(
        "no link could be reached, so the network looks down: {stopped} got no answer ({}); \
nothing was recorded. Check the connection, or run `corpus links --offline` for the checks that need no network",
        down.first
    )
}
