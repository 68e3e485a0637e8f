//! `corpus links`: every URL of the entries, the exclusion records and the
//! generated README, checked politely (bounded concurrency overall and per
//! host, retries on 429/503 that honour `Retry-After`), with a results cache
//! so that a weekly job reports a link only after it failed on several runs.
//!
//! What needs no network (URL syntax, README `#anchors`, arXiv id ↔ URL
//! agreement) is checked always; `--offline` checks only that.

use crate::load::Corpus;
use crate::network::http::{self, Client, Failure, Method, Policy};
use corpus_diagnostics::diag::{Diagnostic, Severity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Where the committed host exceptions live, relative to the root.
pub const HOSTS_PATH: &str = "corpus/links.yaml";
/// The default results cache's name in the root's cache folder (kept out of stats/ and git).
pub const DEFAULT_CACHE_NAME: &str = "corpus-links.json";

/// The default results cache, relative to the root.
pub fn default_cache() -> String {
    format!("{}/{DEFAULT_CACHE_NAME}", corpus_io::files::CACHE_DIR)
}
/// The generated README, whose links and anchors are checked too.
pub const README: &str = "README.md";
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
    /// Check only what needs no network: URL syntax, README anchors, arXiv id and link agreement.
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
            Status::Skipped => "skipped",
        }
    }

    /// Whether the check failed.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Broken | Status::Timeout | Status::Error)
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

/// Hosts that answer scripts differently from browsers (corpus/links.yaml).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostsConfig {
    /// The exceptions, one per host.
    #[serde(default)]
    pub hosts: Vec<HostRule>,
}

/// One host exception.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostRule {
    /// The host name as in the URL (`www.` included when the URL has it).
    pub host: String,
    /// Statuses taken as "the page is there" for this host (e.g. 403 from a bot wall).
    #[serde(default)]
    pub accept: Vec<u16>,
    /// Check at most this often (e.g. 30d); between, a link that last passed is skipped.
    #[serde(default)]
    pub every: Option<String>,
    /// Why the exception exists.
    pub reason: String,
}

impl HostsConfig {
    /// Parses the YAML text, or says what is wrong.
    pub fn from_yaml(text: &str) -> Result<HostsConfig, String> {
        let cfg: HostsConfig = serde_yaml::from_str(text).map_err(|e| {
            let x = crate::yaml::error::explain(&e, text);
            let at = x.line.map(|l| format!("line {l}: ")).unwrap_or_default();
            format!("{at}{} (help: {})", x.message, x.help)
        })?;
        let mut seen = std::collections::BTreeSet::new();
        for h in &cfg.hosts {
            if !seen.insert(h.host.to_ascii_lowercase()) {
                return Err(format!("host `{}` is listed twice", h.host));
            }
            if h.reason.trim().is_empty() {
                return Err(format!("host `{}` gives no reason", h.host));
            }
            if h.accept.is_empty() && h.every.is_none() {
                return Err(format!(
                    "host `{}` neither accepts a status nor sets `every`",
                    h.host
                ));
            }
            if let Some(e) = &h.every {
                parse_age(e).map_err(|m| format!("host `{}`: every: {m}", h.host))?;
            }
        }
        Ok(cfg)
    }

    fn rule(&self, host: &str) -> Option<&HostRule> {
        self.hosts
            .iter()
            .find(|h| h.host.eq_ignore_ascii_case(host))
    }
}

/// Parses an age such as `90s`, `30m`, `36h`, `7d` or a plain number of seconds.
pub fn parse_age(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not an age such as 36h or 7d"))?;
    let mult = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(format!("`{s}`: the unit must be s, m, h, d or w")),
    };
    Ok(Duration::from_secs(n.saturating_mul(mult)))
}

/// What the cache remembers of one URL.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheEntry {
    /// Unix time of the last check.
    pub last_checked: u64,
    /// Unix time of the last successful check.
    pub last_success: Option<u64>,
    /// Runs in a row on which the URL failed.
    pub consecutive_failures: u32,
    /// Status of the last check.
    pub last_status: Option<Status>,
    /// HTTP status of the last check, when there was one.
    pub last_http_status: Option<u16>,
}

/// The results cache: URL → what was last seen.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// Format version of the file.
    pub version: u32,
    /// Per URL.
    pub urls: BTreeMap<String, CacheEntry>,
}

impl Cache {
    /// Parses cache text.
    pub fn from_json(text: &str) -> Result<Cache, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The cache as written: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Every URL of the corpus and the README, with where it is written.
pub fn collect(corpus: &Corpus, readme: Option<&str>) -> Vec<Link> {
    let mut by_url: BTreeMap<String, Link> = BTreeMap::new();
    let mut add = |url: &str, place: Place, arxiv: Option<String>| {
        let l = by_url.entry(url.to_string()).or_insert_with(|| Link {
            url: url.to_string(),
            places: Vec::new(),
            arxiv_ids: Vec::new(),
        });
        l.places.push(place);
        l.arxiv_ids.push(arxiv);
    };
    for le in &corpus.entries {
        let file = corpus.file(le.file);
        for (i, u) in le.entry.urls.iter().enumerate() {
            let line = file.spans().line(&format!("urls[{i}]"));
            let place = Place {
                file: file.rel.clone(),
                line,
            };
            add(
                u,
                place,
                Some(le.entry.arxiv_id.clone().unwrap_or_default()),
            );
        }
    }
    for lx in &corpus.exclusions {
        let file = corpus.file(lx.file);
        if lx.record.url.is_empty() {
            continue;
        }
        let place = Place {
            file: file.rel.clone(),
            line: file.spans().line("url"),
        };
        add(&lx.record.url, place, None);
    }
    if let Some(text) = readme {
        for (line, url) in markdown_links(text) {
            let place = Place {
                file: README.to_string(),
                line: Some(line),
            };
            add(&url, place, None);
        }
    }
    by_url.into_values().collect()
}

/// Link targets of Markdown text with their lines: inline links and images,
/// autolinks and reference definitions, outside fenced code.
pub fn markdown_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let line_no = i + 1;
        // Reference definitions: `[label]: url`.
        if let Some(rest) = t.strip_prefix('[') {
            if let Some((_, after)) = rest.split_once("]:") {
                if let Some(u) = after.split_whitespace().next() {
                    out.push((line_no, u.trim_matches(['<', '>']).to_string()));
                }
                continue;
            }
        }
        let bytes = line.as_bytes();
        let mut j = 0;
        while j + 1 < bytes.len() {
            if bytes[j] == b']' && bytes[j + 1] == b'(' {
                let start = j + 2;
                if let Some(len) = line[start..].find(')') {
                    let inner = line[start..start + len].trim();
                    let target = inner
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .trim_matches(['<', '>']);
                    if !target.is_empty() {
                        out.push((line_no, target.to_string()));
                    }
                    j = start + len;
                    continue;
                }
            }
            if bytes[j] == b'<' && line[j + 1..].starts_with("http") {
                if let Some(len) = line[j + 1..].find('>') {
                    let u = &line[j + 1..j + 1 + len];
                    if !u.contains(char::is_whitespace) {
                        out.push((line_no, u.to_string()));
                    }
                    j += len + 1;
                    continue;
                }
            }
            j += 1;
        }
    }
    out
}

/// The anchors GitHub makes for a Markdown text's headings (and explicit
/// `<a id>`/`<a name>` targets).
pub fn anchors(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(i) = rest.find(key) {
                let after = &rest[i + key.len()..];
                if let Some(end) = after.find('"') {
                    out.insert(after[..end].to_string());
                }
                rest = after;
            }
        }
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(t[hashes..].trim().trim_end_matches('#').trim());
        let n = counts.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        out.insert(anchor);
    }
    out
}

/// GitHub's heading anchor of a heading whose links keep only their text.
pub fn slug(heading: &str) -> String {
    let mut plain = String::new();
    let mut rest = heading;
    // `[text](url)` keeps only its text.
    while let Some(i) = rest.find('[') {
        plain.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find("](") {
            Some(j) => {
                plain.push_str(&after[..j]);
                let tail = &after[j + 2..];
                rest = tail.find(')').map(|k| &tail[k + 1..]).unwrap_or("");
            }
            None => {
                plain.push('[');
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    crate::text::markdown::anchor(&plain)
}

/// The arXiv id an arxiv.org link names (abs, pdf or html), version dropped.
pub fn arxiv_id_of_url(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let path = rest.strip_prefix("arxiv.org/")?;
    let (kind, id) = path.split_once('/')?;
    if !matches!(kind, "abs" | "pdf" | "html") {
        return None;
    }
    let id = id.split(['?', '#']).next().unwrap_or(id);
    let id = id.trim_end_matches('/').trim_end_matches(".pdf");
    Some(crate::model::ids::strip_version(id).to_string())
}

/// The problem a link has that needs no network, if any.
fn offline_problem(
    link: &Link,
    anchors: &std::collections::BTreeSet<String>,
    root: &Path,
) -> Option<(Status, String)> {
    if let Some(a) = link.url.strip_prefix('#') {
        return (!anchors.contains(a)).then(|| {
            (
                Status::Broken,
                format!("no heading or anchor `{a}` in {README}"),
            )
        });
    }
    if is_relative(link) {
        let path = link.url.split(['#', '?']).next().unwrap_or("");
        let inside = !path.starts_with('/') && !path.split('/').any(|c| c == "..");
        return (!inside || !root.join(path).exists()).then(|| {
            (
                Status::Broken,
                format!("no file `{path}` in the repository"),
            )
        });
    }
    if !crate::model::ids::is_http_url(&link.url) {
        return Some((Status::Error, "not an absolute http(s) URL".to_string()));
    }
    if let Some(in_url) = arxiv_id_of_url(&link.url) {
        for id in link.arxiv_ids.iter().flatten() {
            if id.is_empty() {
                return Some((
                    Status::Error,
                    format!("links to arXiv {in_url}, but the entry has no arxiv_id"),
                ));
            }
            if crate::model::ids::strip_version(id) != in_url {
                return Some((
                    Status::Error,
                    format!("links to arXiv {in_url}, but the entry's arxiv_id is {id}"),
                ));
            }
        }
    }
    None
}

/// A README link to a file of the repository (no scheme, not an anchor).
fn is_relative(link: &Link) -> bool {
    !link.url.contains(':')
        && !link.url.starts_with('#')
        && !link.url.is_empty()
        && link.places.iter().all(|p| p.file == README)
}

/// How one URL fared on the network.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The verdict.
    pub status: Status,
    /// The first HTTP status seen.
    pub http_status: Option<u16>,
    /// The final target of redirects.
    pub location: Option<String>,
    /// Every hop permanent.
    pub permanent: bool,
    /// In words.
    pub message: String,
}

/// Checks one URL: HEAD first, GET when HEAD is refused, redirects followed
/// and reported, 429/503 retried as the client's policy allows.
pub fn check_url(
    client: &Client,
    url: &str,
    hosts: &HostsConfig,
    sleep: &dyn Fn(Duration),
) -> Checked {
    let mut current = url.to_string();
    let mut seen = vec![url.to_string()];
    let mut first_status = None;
    let mut permanent = true;
    for _ in 0..=MAX_HOPS {
        let (mut result, mut attempts) = client.request_with_retries(Method::Head, &current, sleep);
        if matches!(&result, Ok(r) if matches!(r.status, 405 | 501)) {
            (result, attempts) = client.request_with_retries(Method::GetStatus, &current, sleep);
        }
        let r = match result {
            Ok(r) => r,
            Err(f) => {
                let status = if matches!(f, Failure::Timeout(_)) {
                    Status::Timeout
                } else {
                    Status::Error
                };
                let hop = if current == url {
                    String::new()
                } else {
                    format!(" (at {current})")
                };
                return Checked {
                    status,
                    http_status: first_status,
                    location: (current != url).then_some(current.clone()),
                    permanent: false,
                    message: format!("{}{hop}", f.describe()),
                };
            }
        };
        first_status.get_or_insert(r.status);
        if (300..400).contains(&r.status) {
            let Some(loc) = r.location.as_deref().filter(|l| !l.is_empty()) else {
                return Checked {
                    status: Status::Broken,
                    http_status: first_status,
                    location: None,
                    permanent: false,
                    message: format!("answered {} without a Location", r.status),
                };
            };
            permanent &= matches!(r.status, 301 | 308);
            let next = http::resolve(&current, loc);
            if seen.contains(&next) {
                seen.push(next.clone());
                return Checked {
                    status: Status::Error,
                    http_status: first_status,
                    location: Some(next),
                    permanent: false,
                    message: format!("redirect loop: {}", seen.join(" -> ")),
                };
            }
            seen.push(next.clone());
            current = next;
            continue;
        }
        let hops = seen.len() - 1;
        let accepted_here = hosts
            .rule(&http::host_of(&current))
            .is_some_and(|h| h.accept.contains(&r.status));
        if (200..300).contains(&r.status) || accepted_here {
            let accepted = if (200..300).contains(&r.status) {
                String::new()
            } else {
                format!("; {} is accepted for this host", r.status)
            };
            if hops == 0 {
                return Checked {
                    status: Status::Ok,
                    http_status: first_status,
                    location: None,
                    permanent: false,
                    message: format!("answered {}{accepted}", r.status),
                };
            }
            let message = if permanent {
                format!("moved permanently to {current}{accepted}")
            } else {
                format!("redirects ({hops} hop(s)) to {current}{accepted}")
            };
            return Checked {
                status: Status::Redirected,
                http_status: first_status,
                location: Some(current),
                permanent,
                message,
            };
        }
        let tries = if attempts > 1 {
            format!(" after {attempts} attempts")
        } else {
            String::new()
        };
        let at = if hops > 0 {
            format!(" at {current}")
        } else {
            String::new()
        };
        return Checked {
            status: Status::Broken,
            http_status: Some(r.status),
            location: (hops > 0).then_some(current.clone()),
            permanent: false,
            message: format!("answered {}{at}{tries}", r.status),
        };
    }
    Checked {
        status: Status::Error,
        http_status: first_status,
        location: Some(current),
        permanent: false,
        message: format!("more than {MAX_HOPS} redirects"),
    }
}

/// Checks URLs with at most `jobs` requests in flight, and at most
/// `per_host` to any one host; results come back in input order.
pub fn check_all(
    client: &Client,
    urls: &[String],
    hosts_config: &HostsConfig,
    jobs: usize,
    per_host: usize,
    sleep: &(dyn Fn(Duration) + Sync),
) -> Vec<Checked> {
    struct State {
        pending: VecDeque<usize>,
        active: HashMap<String, usize>,
    }
    let hosts: Vec<String> = urls.iter().map(|u| http::host_of(u)).collect();
    let state = Mutex::new(State {
        pending: (0..urls.len()).collect(),
        active: HashMap::new(),
    });
    let ready = Condvar::new();
    let results: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; urls.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(urls.len().max(1)) {
            s.spawn(|| loop {
                let idx = {
                    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if st.pending.is_empty() {
                            break None;
                        }
                        let pos = st.pending.iter().position(|&i| {
                            st.active.get(&hosts[i]).copied().unwrap_or(0) < per_host.max(1)
                        });
                        if let Some(p) = pos {
                            let i = st.pending.remove(p).unwrap_or_default();
                            *st.active.entry(hosts[i].clone()).or_insert(0) += 1;
                            break Some(i);
                        }
                        st = ready.wait(st).unwrap_or_else(|e| e.into_inner());
                    }
                };
                let Some(i) = idx else { break };
                let checked = check_url(client, &urls[i], hosts_config, sleep);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(checked);
                let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(n) = st.active.get_mut(&hosts[i]) {
                    *n -= 1;
                }
                ready.notify_all();
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|c| {
            c.unwrap_or(Checked {
                status: Status::Error,
                http_status: None,
                location: None,
                permanent: false,
                message: "not checked".into(),
            })
        })
        .collect()
}

/// Everything one run of `corpus links` found.
#[derive(Debug, Clone)]
pub struct Run {
    /// One result per URL, in URL order.
    pub results: Vec<LinkResult>,
    /// The cache to write back (None when offline).
    pub cache: Option<Cache>,
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

/// What the repository itself tells about links: its root (for README
/// links to files), the README's anchors and the host exceptions.
#[derive(Debug, Clone, Copy)]
pub struct Local<'a> {
    /// The corpus root.
    pub root: &'a Path,
    /// Anchors of README.md.
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
    sleep: &(dyn Fn(Duration) + Sync),
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
        };
    }
    let client = Client::new(settings.policy);
    let urls: Vec<String> = to_check.iter().map(|(_, u)| u.clone()).collect();
    let checked = check_all(
        &client,
        &urls,
        local.hosts,
        settings.jobs,
        settings.per_host,
        sleep,
    );
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
    }
}

fn human_age(secs: u64) -> String {
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

/// The diagnostics of a run: failures as errors, redirects and failures not
/// yet past `--fail-after` as warnings, one per place the URL is written.
pub fn diagnostics(results: &[LinkResult]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in results {
        let (rule, severity) = match r.status {
            Status::Ok | Status::Skipped => continue,
            Status::Redirected => ("link-redirected", Severity::Warning),
            Status::Broken => ("link-broken", Severity::Error),
            Status::Timeout => ("link-timeout", Severity::Error),
            Status::Error => ("link-error", Severity::Error),
        };
        let severity = if r.fails { severity } else { Severity::Warning };
        for p in &r.places {
            let mut d =
                Diagnostic::new(rule, severity, &p.file, format!("{}: {}", r.url, r.message))
                    .at_line(p.line);
            if r.permanent {
                if let Some(to) = &r.location {
                    d = d.help(format!("replace it with {to}"));
                }
            }
            out.push(d);
        }
    }
    corpus_diagnostics::diag::sort(&mut out);
    out
}

/// One line counting results by status.
pub fn summary(results: &[LinkResult]) -> String {
    let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
    for r in results {
        *counts.entry(r.status).or_insert(0) += 1;
    }
    let parts: Vec<String> = [
        Status::Ok,
        Status::Redirected,
        Status::Broken,
        Status::Timeout,
        Status::Error,
        Status::Skipped,
    ]
    .iter()
    .map(|s| format!("{} {}", counts.get(s).copied().unwrap_or(0), s.as_str()))
    .collect();
    let failing = results.iter().filter(|r| r.fails).count();
    format!(
        "{} links: {}; {failing} failing",
        results.len(),
        parts.join(", ")
    )
}

/// The JSON format: one object per URL, one per line.
pub fn json_lines(results: &[LinkResult]) -> String {
    results
        .iter()
        .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
        .collect()
}

fn md_cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// The Markdown format: a summary line and a table of every URL that is not
/// simply ok, for a job summary.
pub fn markdown(results: &[LinkResult]) -> String {
    let mut out = String::from("## Link check\n\n");
    out.push_str(&summary(results));
    out.push_str("\n\n");
    let shown: Vec<&LinkResult> = results
        .iter()
        .filter(|r| !matches!(r.status, Status::Ok | Status::Skipped) || r.fails)
        .collect();
    if shown.is_empty() {
        out.push_str("Every checked link answered.\n");
        return out;
    }
    out.push_str("| status | HTTP | URL | where | details |\n| --- | --- | --- | --- | --- |\n");
    for r in shown {
        let places: Vec<String> = r
            .places
            .iter()
            .map(|p| match p.line {
                Some(l) => format!("{}:{l}", p.file),
                None => p.file.clone(),
            })
            .collect();
        let status = if r.fails {
            format!("**{}**", r.status.as_str())
        } else {
            r.status.as_str().to_string()
        };
        out.push_str(&format!(
            "| {status} | {} | <{}> | {} | {} |\n",
            r.http_status.map(|s| s.to_string()).unwrap_or_default(),
            md_cell(&r.url),
            md_cell(&places.join(", ")),
            md_cell(&r.message),
        ));
    }
    out
}

/// Renders a run in the chosen format.
pub fn render(
    results: &[LinkResult],
    format: LinkFormat,
    corpus: &Corpus,
    readme: Option<&str>,
) -> String {
    match format {
        LinkFormat::Json => json_lines(results),
        LinkFormat::Markdown => markdown(results),
        LinkFormat::Github => corpus_diagnostics::report::render(
            &diagnostics(results),
            corpus_diagnostics::report::Format::Github,
            &corpus_diagnostics::report::Sources::new(),
            None,
        ),
        LinkFormat::Human => {
            let mut sources: corpus_diagnostics::report::Sources = corpus
                .files
                .iter()
                .map(|f| (f.rel.as_str(), f.text.as_str()))
                .collect();
            if let Some(t) = readme {
                sources.insert(README, t);
            }
            corpus_diagnostics::report::render(
                &diagnostics(results),
                corpus_diagnostics::report::Format::Human,
                &sources,
                Some(&summary(results)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("Quick start"), "quick-start");
        assert_eq!(
            slug("RL and Post-Training Methods (42)"),
            "rl-and-post-training-methods-42"
        );
        assert_eq!(slug("[Linked](https://x.org) heading"), "linked-heading");
        assert_eq!(slug("snake_case `code`"), "snake_case-code");
    }

    #[test]
    fn anchors_number_repeated_headings_and_skip_code() {
        let a = anchors("# A\n## A\n```\n# B\n```\n<a id=\"c\"></a>\n");
        assert!(a.contains("a") && a.contains("a-1") && a.contains("c"));
        assert!(!a.contains("b"));
    }

    #[test]
    fn markdown_links_are_found_with_their_lines() {
        let text = "x [a](https://a.org) and ![i](https://i.org/p.svg \"t\")\n<https://b.org>\n```\n[c](https://c.org)\n```\n[ref]: https://d.org\n[toc](#top)\n";
        let found: Vec<(usize, String)> = markdown_links(text);
        assert_eq!(
            found,
            vec![
                (1, "https://a.org".to_string()),
                (1, "https://i.org/p.svg".to_string()),
                (2, "https://b.org".to_string()),
                (6, "https://d.org".to_string()),
                (7, "#top".to_string()),
            ]
        );
    }

    #[test]
    fn arxiv_ids_come_out_of_links() {
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/abs/2508.04652v7").as_deref(),
            Some("2508.04652")
        );
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/pdf/2508.04652.pdf").as_deref(),
            Some("2508.04652")
        );
        assert_eq!(
            arxiv_id_of_url("https://arxiv.org/abs/cs/0701001").as_deref(),
            Some("cs/0701001")
        );
        assert_eq!(arxiv_id_of_url("https://arxiv.org/list/cs.AI/new"), None);
        assert_eq!(arxiv_id_of_url("https://example.org/abs/1"), None);
    }

    #[test]
    fn ages_have_units() {
        assert_eq!(parse_age("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_age("36h"), Ok(Duration::from_secs(36 * 3600)));
        assert_eq!(parse_age("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert!(parse_age("7y").is_err());
        assert!(parse_age("h").is_err());
    }

    #[test]
    fn host_config_needs_reasons_and_no_repeats() {
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    accept: [403]\n    reason: bot wall\n"
        )
        .is_ok());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    accept: [403]\n    reason: ''\n"
        )
        .is_err());
        assert!(HostsConfig::from_yaml("hosts:\n  - host: a.org\n    reason: r\n").is_err());
        assert!(HostsConfig::from_yaml("hosts:\n  - host: a.org\n    every: 30d\n    reason: r\n  - host: A.org\n    every: 1d\n    reason: r\n").is_err());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    every: soon\n    reason: r\n"
        )
        .is_err());
        assert!(HostsConfig::from_yaml(
            "hosts:\n  - host: a.org\n    every: 1d\n    reason: r\n    extra: 1\n"
        )
        .is_err());
    }
}
