//! `corpus links`: every URL of the entries, the exclusion records and the
//! generated Layout::README, checked politely (bounded concurrency overall and per
//! host, retries on 429/503 that honour `Retry-After`), with a results cache
//! so that a weekly job reports a link only after it failed on several runs.
//!
//! What needs no network (URL syntax, Layout::README `#anchors`, arXiv id ↔ URL
//! agreement) is checked always; `--offline` checks only that.

mod cache;
mod extract;
mod hosts;
mod offline;
mod pool;
mod probe;
mod report;

pub use cache::{Cache, CacheEntry};
pub use extract::{anchors, arxiv_id_of_url, collect, markdown_links, slug};
pub use hosts::{parse_age, HostRule, HostsConfig};
pub use pool::{check_all, unanswered, Checks, DOWN_AFTER};
pub use probe::{check_url, Checked};
pub use report::{diagnostics, grouped, json_lines, kind, markdown, render, summary};

use crate::layout::Layout;
use crate::network::http::{self, Client, Policy};
use crate::network::progress::Progress;
use offline::{is_relative, offline_problem};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default results cache, relative to the root.
pub fn default_cache() -> String {
    format!("{}/{}", Layout::CACHE_DIR, Layout::LINKS_CACHE)
}
/// Redirect hops followed before giving up.
pub const MAX_HOPS: usize = 10;

/// Output formats of `corpus links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinkFormat {
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

/// Options of `corpus links`.
#[derive(Debug, Clone, PartialEq)]
pub struct LinksOptions {
    /// Output format.
    pub format: LinkFormat,
    /// Check only what needs no network: URL syntax, Layout::README anchors, arXiv id and link agreement.
    pub offline: bool,
    /// Timeout of one request, in seconds.
    pub timeout: f64,
    /// Results cache (JSON), relative to the working directory [default: <root>/.cache/corpus-links.json].
    pub cache: Option<PathBuf>,
    /// Skip URLs that were checked successfully within this age (e.g. 36h, 7d; plain numbers are seconds).
    pub max_age: Option<String>,
    /// Report a link as failing only once it has failed on this many consecutive runs.
    pub fail_after: u32,
    /// Requests in flight at once, over all hosts.
    pub jobs: u32,
    /// Requests in flight at once to one host.
    pub per_host: u32,
    /// Retries of a 429 or 503 answer.
    pub retries: u32,
    /// Most seconds spent waiting on retries of one URL (a longer Retry-After ends them).
    pub max_wait: f64,
    /// First backoff in seconds when a 429/503 gives no Retry-After (doubled per retry).
    pub backoff: f64,
}

/// One place a URL is written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Place {
    /// File relative to the root.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
}

/// How a link check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The page answered 2xx (or an accepted status for its host).
    Ok,
    /// The page answered 2xx after one or more redirects.
    Redirected,
    /// The server answered with an error status, or an anchor is missing.
    Broken,
    /// No answer within the timeout.
    Timeout,
    /// Anything else: bad syntax, connection or TLS failure, a redirect loop.
    Error,
    /// A redirect from a public address to a private one, not followed.
    Refused,
    /// Not checked on this run (offline, or checked recently).
    Skipped,
}

impl Status {
    /// The lowercase name used in every format.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Redirected => "redirected",
            Status::Broken => "broken",
            Status::Timeout => "timeout",
            Status::Error => "error",
            Status::Refused => "refused",
            Status::Skipped => "skipped",
        }
    }

    /// Whether the check failed.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Status::Broken | Status::Timeout | Status::Error | Status::Refused
        )
    }
}

/// The verdict on one URL.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkResult {
    /// The URL as written.
    pub url: String,
    /// How the check ended.
    pub status: Status,
    /// The first HTTP status received, when there was one.
    pub http_status: Option<u16>,
    /// Where a redirect finally led, when it did.
    pub location: Option<String>,
    /// Whether every redirect hop was permanent (301/308): the link should be replaced.
    pub permanent: bool,
    /// What happened, in words.
    pub message: String,
    /// Every file and line holding the URL.
    #[serde(rename = "where")]
    pub places: Vec<Place>,
    /// Consecutive runs (this one included) on which the URL failed.
    pub failed_runs: u32,
    /// Whether this result fails the run (a failure past `--fail-after`, or a
    /// problem found without the network, which no rerun changes).
    pub fails: bool,
}

/// A URL and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The URL (or `#anchor`) as written.
    pub url: String,
    /// Every place it appears.
    pub places: Vec<Place>,
    /// The arXiv id of the entry holding it, for the agreement check.
    pub arxiv_ids: Vec<Option<String>>,
}

/// Everything one run of `corpus links` found.
#[derive(Debug, Clone)]
pub struct Run {
    /// One result per URL, in URL order.
    pub results: Vec<LinkResult>,
    /// The cache to write back (None when offline).
    pub cache: Option<Cache>,
    /// Set when no request got an answer and enough got none that the
    /// network, not the links, is what failed (then the results say nothing
    /// about the links, and the cache is not to be written).
    pub network_down: Option<Down>,
}

/// Why a run takes the network to be down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Down {
    /// Requests made (each got no answer).
    pub attempted: usize,
    /// Links that needed a request.
    pub needed: usize,
    /// The first failure, in words.
    pub first: String,
    /// Whether the run stopped before requesting every link.
    pub stopped: bool,
}

/// How a run reaches the network and whom it tells how far it got.
pub struct Net<'a> {
    /// The one HTTP client (tests give it a stub resolver).
    pub client: &'a Client,
    /// Does the waiting between retries (tests pass a recorder).
    pub sleep: &'a (dyn Fn(Duration) + Sync),
    /// Hears each finished link.
    pub progress: &'a dyn Progress,
}

/// The settings of a run, resolved from the arguments.
#[derive(Debug, Clone)]
pub struct Settings {
    /// No network.
    pub offline: bool,
    /// Request policy.
    pub policy: Policy,
    /// Skip URLs that passed within this age.
    pub max_age: Option<Duration>,
    /// Consecutive failing runs before a failure fails the run.
    pub fail_after: u32,
    /// Concurrency overall.
    pub jobs: usize,
    /// Concurrency per host.
    pub per_host: usize,
}

/// What the repository itself tells about links: its root (for Layout::README
/// links to files), the Layout::README's anchors and the host exceptions.
#[derive(Debug, Clone, Copy)]
pub struct Local<'a> {
    /// The corpus root.
    pub root: &'a Path,
    /// Anchors of Layout::README.md.
    pub anchors: &'a std::collections::BTreeSet<String>,
    /// corpus/links.yaml.
    pub hosts: &'a HostsConfig,
}

/// Runs the checks on collected links against a cache, at time `now`.
pub fn run(
    links: &[Link],
    local: Local,
    mut cache: Cache,
    settings: &Settings,
    now: u64,
    net: &Net,
) -> Run {
    let mut results: Vec<LinkResult> = Vec::new();
    let mut to_check: Vec<(usize, String)> = Vec::new();
    for link in links {
        let mut r = LinkResult {
            url: link.url.clone(),
            status: Status::Skipped,
            http_status: None,
            location: None,
            permanent: false,
            message: String::new(),
            places: link.places.clone(),
            failed_runs: 0,
            fails: false,
        };
        if let Some((status, message)) = offline_problem(link, local.anchors, local.root) {
            r.status = status;
            r.message = message;
            r.fails = true;
            r.failed_runs = 1;
        } else if link.url.starts_with('#') {
            r.status = Status::Ok;
            r.message = "anchor found".into();
        } else if is_relative(link) {
            r.status = Status::Ok;
            r.message = "file found".into();
        } else if settings.offline {
            r.message = "offline: not requested".into();
        } else {
            let host = http::host_of(&link.url);
            let rule = local.hosts.rule(&host);
            let every = rule
                .and_then(|h| h.every.as_deref())
                .and_then(|e| parse_age(e).ok());
            let fresh_for = match (settings.max_age, every) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let recent = cache.urls.get(&link.url).filter(|c| {
                c.consecutive_failures == 0
                    && c.last_success.is_some()
                    && fresh_for
                        .is_some_and(|age| now.saturating_sub(c.last_checked) < age.as_secs())
            });
            if let Some(c) = recent {
                r.message = format!(
                    "passed {} ago; not rechecked",
                    human_age(now.saturating_sub(c.last_checked))
                );
                r.http_status = c.last_http_status;
            } else {
                to_check.push((results.len(), link.url.clone()));
            }
        }
        results.push(r);
    }
    if settings.offline {
        return Run {
            results,
            cache: None,
            network_down: None,
        };
    }
    let urls: Vec<String> = to_check.iter().map(|(_, u)| u.clone()).collect();
    let checks = check_all(
        net.client,
        &urls,
        local.hosts,
        (settings.jobs, settings.per_host),
        net.sleep,
        net.progress,
    );
    if let Some(down) = network_down(&checks) {
        return Run {
            results,
            cache: None,
            network_down: Some(down),
        };
    }
    let checked = checks.checked.into_iter().map(|c| {
        c.unwrap_or(Checked {
            status: Status::Error,
            http_status: None,
            location: None,
            permanent: false,
            message: "not checked".into(),
        })
    });
    for ((idx, url), c) in to_check.into_iter().zip(checked) {
        let entry = cache.urls.entry(url).or_default();
        entry.last_checked = now;
        entry.last_status = Some(c.status);
        entry.last_http_status = c.http_status;
        if c.status.is_failure() {
            entry.consecutive_failures = entry.consecutive_failures.saturating_add(1);
        } else {
            entry.consecutive_failures = 0;
            entry.last_success = Some(now);
        }
        let r = &mut results[idx];
        r.status = c.status;
        r.http_status = c.http_status;
        r.location = c.location;
        r.permanent = c.permanent;
        r.failed_runs = entry.consecutive_failures;
        r.fails = c.status.is_failure() && entry.consecutive_failures >= settings.fail_after;
        r.message = if c.status.is_failure() && !r.fails {
            format!(
                "{}; failed on {} of the {} runs in a row needed to report it",
                c.message, entry.consecutive_failures, settings.fail_after
            )
        } else {
            c.message
        };
    }
    cache.version = 1;
    Run {
        results,
        cache: Some(cache),
        network_down: None,
    }
}

/// Whether the network, not the links, failed: the pool stopped early, or
/// every request finished and none got an answer while at least two (and
/// half of them) got none at all.
fn network_down(checks: &Checks) -> Option<Down> {
    let done: Vec<&Checked> = checks.checked.iter().flatten().collect();
    if done.iter().any(|c| c.http_status.is_some()) {
        return None;
    }
    let silent: Vec<&&Checked> = done.iter().filter(|c| unanswered(c)).collect();
    let down = checks.network_down || (silent.len() >= 2 && silent.len() * 2 >= done.len());
    down.then(|| Down {
        attempted: done.len(),
        needed: checks.checked.len(),
        first: silent
            .first()
            .map(|c| c.message.clone())
            .unwrap_or_default(),
        stopped: done.len() < checks.checked.len(),
    })
}

fn human_age(secs: u64) -> String {
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}
