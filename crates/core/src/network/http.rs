//! The network edge: one blocking HTTP client (ureq over rustls, no system
//! OpenSSL) that makes single requests and says plainly how each one ended.
//!
//! Redirects are never followed here and error statuses are answers, not
//! errors, so the callers (`links`, `arxiv`) see every hop and every status.
//! The retry policy for 429 and 503 lives here too, because both callers
//! must honour `Retry-After` the same way.

use super::address::{self, Adapter, PrivateTarget, Resolve, SystemResolver};
use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// The user agent every request sends: names the tool and where it lives.
pub const USER_AGENT: &str = concat!(
    "corpus/",
    env!("CARGO_PKG_VERSION"),
    " (link and metadata checker of a literature corpus)"
);

/// Largest response body read (the arXiv feed of a full batch is far smaller).
pub const MAX_BODY_BYTES: u64 = 16 * 1024 * 1024;

/// The request method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// HEAD: status and headers only.
    Head,
    /// GET: the whole answer.
    Get,
    /// GET, with the body left unread (a link check needs only the status).
    GetStatus,
}

/// What a server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// The `Location` header, as sent.
    pub location: Option<String>,
    /// The `Retry-After` header, as sent.
    pub retry_after: Option<String>,
    /// The body (empty for HEAD and when not asked for).
    pub body: Vec<u8>,
}

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the timeout.
    Timeout(String),
    /// The host could not be found or the connection failed or broke.
    Connection(String),
    /// The TLS handshake or certificate was refused.
    Tls(String),
    /// Anything else (a malformed URL or answer).
    Other(String),
    /// Not attempted: the host leads to a private address the request may not reach.
    Refused(String),
}

impl Failure {
    /// The failure in words, with its kind first.
    pub fn describe(&self) -> String {
        match self {
            Failure::Timeout(m) => format!("timed out: {m}"),
            Failure::Connection(m) => format!("connection failed: {m}"),
            Failure::Tls(m) => format!("TLS error: {m}"),
            Failure::Other(m) => m.clone(),
            Failure::Refused(m) => format!("refused before connecting: {m}"),
        }
    }
}

/// How patient and how persistent requests are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Timeout of one request, connection included.
    pub timeout: Duration,
    /// How many times a 429 or 503 answer is retried.
    pub retries: u32,
    /// The first wait when the server gives no `Retry-After` (doubled each time).
    pub backoff: Duration,
    /// The most time spent waiting for one URL across all its retries; a
    /// `Retry-After` that asks for more ends the retries.
    pub max_wait: Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            timeout: Duration::from_secs(20),
            retries: 3,
            backoff: Duration::from_secs(2),
            max_wait: Duration::from_secs(60),
        }
    }
}

/// Which addresses a request may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Any address (a URL as written in the data).
    Any,
    /// Public addresses only: a redirect that started on the internet.
    PublicOnly,
}

thread_local! {
    /// Connections this thread opened: unchanged across a request means the
    /// request went out on a pooled connection.
    static OPENED: Cell<u64> = const { Cell::new(0) };
}

/// The connector chain of ureq, counting the connections it opens.
#[derive(Debug, Default)]
struct Counting(ureq::unversioned::transport::DefaultConnector);

impl ureq::unversioned::transport::Connector for Counting {
    type Out = Box<dyn ureq::unversioned::transport::Transport>;

    fn connect(
        &self,
        details: &ureq::unversioned::transport::ConnectionDetails,
        chained: Option<()>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        OPENED.with(|n| n.set(n.get() + 1));
        self.0.connect(details, chained)
    }
}

/// Requests on a pooled connection found dead before any answer, retried
/// at most this often in one request (a pool holds a few per host, and each
/// dead one is dropped when it fails).
const STALE_RETRIES: u32 = 4;

/// A blocking HTTP client.
pub struct Client {
    agent: ureq::Agent,
    /// Loopback needs no proxy, whatever the environment says.
    direct: ureq::Agent,
    /// Like `agent`, refusing to connect to a private address.
    guarded: ureq::Agent,
    /// Like `direct`, refusing to connect to a private address.
    guarded_direct: ureq::Agent,
    resolver: Arc<dyn Resolve>,
    policy: Policy,
}

impl Client {
    /// A client with the given policy and the tool's user agent.
    pub fn new(policy: Policy) -> Client {
        Client::build(policy, Arc::new(SystemResolver), true)
    }

    /// A client whose host names are resolved by `resolver` (tests map names
    /// to their loopback servers); it uses no proxy, so the resolver alone
    /// decides where every request goes.
    pub fn with_resolver(policy: Policy, resolver: Arc<dyn Resolve>) -> Client {
        Client::build(policy, resolver, false)
    }

    fn build(policy: Policy, resolver: Arc<dyn Resolve>, proxy: bool) -> Client {
        let make = |proxy: bool, guard: bool| {
            let mut cfg = ureq::Agent::config_builder()
                .timeout_global(Some(policy.timeout))
                .max_redirects(0)
                .http_status_as_error(false)
                .user_agent(USER_AGENT);
            if !proxy {
                cfg = cfg.proxy(None);
            }
            // Through a proxy the name resolved is the proxy's: the guard
            // would judge the proxy, so the check before each hop
            // (`Client::refusal`) is what keeps such a hop off private addresses.
            let guard = guard && !(proxy && ureq::Proxy::try_from_env().is_some());
            let adapter = Adapter {
                inner: resolver.clone(),
                guard,
                timeout: policy.timeout,
            };
            ureq::Agent::with_parts(cfg.build(), Counting::default(), adapter)
        };
        Client {
            agent: make(proxy, false),
            direct: make(false, false),
            guarded: make(proxy, true),
            guarded_direct: make(false, true),
            resolver,
            policy,
        }
    }

    /// Why `url` may not be requested with [`Reach::PublicOnly`]: its host
    /// leads to a private address. Resolving is all it does: nothing connects.
    pub fn refusal(&self, url: &str) -> Option<PrivateTarget> {
        let host = host_of(url);
        let port = port_of(url);
        let found = address::addresses(&self.resolver, &host, port, self.policy.timeout).ok()?;
        address::first_private(&*self.resolver, &host, &found)
    }

    /// Whether `url`'s host leads to private addresses only: a link the data
    /// itself points into a private network. A host that does not resolve, or
    /// resolves to any public address, counts as public (the strict side).
    pub fn is_private_only(&self, url: &str) -> bool {
        let host = host_of(url);
        address::addresses(&self.resolver, &host, port_of(url), self.policy.timeout).is_ok_and(
            |found| {
                !found.is_empty()
                    && found
                        .iter()
                        .all(|a| self.resolver.is_private(&host, a.ip()))
            },
        )
    }

    /// The policy this client was made with.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// One request, reaching any address; the body is read for GET only.
    pub fn request(&self, method: Method, url: &str) -> Result<Response, Failure> {
        self.request_to(method, url, Reach::Any)
    }

    /// One request; the body is read for GET only. A request that went out
    /// on a pooled connection the server had already closed is sent again
    /// (it failed before any answer, so the server did nothing with it).
    pub fn request_to(&self, method: Method, url: &str, reach: Reach) -> Result<Response, Failure> {
        let agent = match (is_loopback(url), reach) {
            (true, Reach::Any) => &self.direct,
            (false, Reach::Any) => &self.agent,
            (true, Reach::PublicOnly) => &self.guarded_direct,
            (false, Reach::PublicOnly) => &self.guarded,
        };
        let mut stale = 0;
        let result = loop {
            let opened = OPENED.with(Cell::get);
            let result = match method {
                Method::Head => agent.head(url).call(),
                Method::Get | Method::GetStatus => agent.get(url).call(),
            };
            let reused = OPENED.with(Cell::get) == opened;
            match result {
                Err(e) if reused && closed_before_answer(&e) && stale < STALE_RETRIES => {
                    stale += 1;
                }
                other => break other,
            }
        };
        let mut resp = result.map_err(|e| self.classify(e))?;
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let location = header("location");
        let retry_after = header("retry-after");
        let status = resp.status().as_u16();
        let body = match method {
            Method::Head | Method::GetStatus => Vec::new(),
            Method::Get => resp
                .body_mut()
                .with_config()
                .limit(MAX_BODY_BYTES)
                .read_to_vec()
                .map_err(|e| self.classify(e))?,
        };
        Ok(Response {
            status,
            location,
            retry_after,
            body,
        })
    }

    /// A request retried on 429 and 503 as the policy allows, honouring
    /// `Retry-After`; `sleep` does the waiting (tests pass a recorder).
    /// Returns the last answer and the number of attempts made.
    pub fn request_with_retries(
        &self,
        method: Method,
        url: &str,
        sleep: &dyn Fn(Duration),
    ) -> (Result<Response, Failure>, u32) {
        self.request_with_retries_to(method, url, Reach::Any, sleep)
    }

    /// [`Client::request_with_retries`], reaching only what `reach` allows.
    pub fn request_with_retries_to(
        &self,
        method: Method,
        url: &str,
        reach: Reach,
        sleep: &dyn Fn(Duration),
    ) -> (Result<Response, Failure>, u32) {
        let mut waited = Duration::ZERO;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let result = self.request_to(method, url, reach);
            let retryable = matches!(&result, Ok(r) if r.status == 429 || r.status == 503);
            if !retryable || attempt > self.policy.retries {
                return (result, attempt);
            }
            let asked = result
                .as_ref()
                .ok()
                .and_then(|r| r.retry_after.as_deref())
                .and_then(|v| retry_after(v, SystemTime::now()));
            let wait = asked.unwrap_or_else(|| {
                self.policy
                    .backoff
                    .saturating_mul(1u32 << (attempt - 1).min(16))
            });
            if waited + wait > self.policy.max_wait {
                return (result, attempt);
            }
            sleep(wait);
            waited += wait;
        }
    }

    /// A failure in words, a timeout naming the limit that ran out.
    fn classify(&self, e: ureq::Error) -> Failure {
        match classify(e) {
            Failure::Timeout(_) => {
                Failure::Timeout(format!("no answer within {:?}", self.policy.timeout))
            }
            other => other,
        }
    }
}

/// Whether an error is a connection that ended before any answer came: what
/// a pooled connection the server has closed gives.
fn closed_before_answer(e: &ureq::Error) -> bool {
    use std::io::ErrorKind as K;
    match e {
        ureq::Error::Io(io) => matches!(
            io.kind(),
            K::ConnectionReset
                | K::ConnectionAborted
                | K::BrokenPipe
                | K::UnexpectedEof
                | K::NotConnected
        ),
        _ => false,
    }
}

fn classify(e: ureq::Error) -> Failure {
    use ureq::Error as E;
    match e {
        E::Other(o) if o.is::<PrivateTarget>() => Failure::Refused(o.to_string()),
        E::Timeout(t) => Failure::Timeout(format!("no answer in time ({t})")),
        E::HostNotFound => Failure::Connection("host not found".into()),
        E::ConnectionFailed => Failure::Connection("could not connect".into()),
        E::Io(io) => match io.kind() {
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                Failure::Timeout(io.to_string())
            }
            // rustls reports a failed handshake or a corrupt record through the
            // transport as invalid data.
            std::io::ErrorKind::InvalidData => Failure::Tls(io.to_string()),
            _ => Failure::Connection(io.to_string()),
        },
        E::Tls(m) => Failure::Tls(m.to_string()),
        E::Rustls(r) => Failure::Tls(r.to_string()),
        E::TlsRequired => Failure::Tls("TLS required".into()),
        other => Failure::Other(other.to_string()),
    }
}

/// Whether a URL points at this machine (never proxied).
fn is_loopback(url: &str) -> bool {
    let host = host_of(url);
    host == "127.0.0.1" || host == "localhost" || host == "[::1]"
}

/// The port of an absolute URL: the one written, else the scheme's.
pub fn port_of(url: &str) -> u16 {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let after_host = match authority.rfind(']') {
        Some(i) => &authority[i + 1..],
        None => authority,
    };
    let written = after_host
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok());
    written.unwrap_or(if scheme.eq_ignore_ascii_case("https") {
        443
    } else {
        80
    })
}

/// The host (and port) of an absolute URL, lowercased; empty when there is none.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or("");
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = if authority.starts_with('[') {
        authority.split_inclusive(']').next().unwrap_or(authority)
    } else {
        authority.split(':').next().unwrap_or(authority)
    };
    host.to_ascii_lowercase()
}

/// Resolves a `Location` header against the URL that sent it.
pub fn resolve(base: &str, location: &str) -> String {
    if location.contains("://") {
        return location.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    if let Some(net) = location.strip_prefix("//") {
        return format!("{scheme}://{net}");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = &rest[authority.len()..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    if location.starts_with('?') {
        return format!("{scheme}://{authority}{path}{location}");
    }
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    };
    format!("{scheme}://{authority}{dir}{location}")
}

/// The wait a `Retry-After` value asks for: whole seconds, or an HTTP date
/// (a date in the past asks for no wait). None when it is neither.
pub fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate::parse_http_date(v).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let now = httpdate::parse_http_date("Mon, 30 Nov 2026 12:00:00 GMT").unwrap();
        assert_eq!(retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Mon, 30 Nov 2026 12:00:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            retry_after("Mon, 30 Nov 2026 11:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", now), None);
    }

    #[test]
    fn locations_resolve_against_the_sender() {
        let base = "https://a.org/x/y?q=1";
        assert_eq!(resolve(base, "https://b.org/z"), "https://b.org/z");
        assert_eq!(resolve(base, "//c.org/z"), "https://c.org/z");
        assert_eq!(resolve(base, "/z"), "https://a.org/z");
        assert_eq!(resolve(base, "z"), "https://a.org/x/z");
        assert_eq!(resolve("http://a.org", "z"), "http://a.org/z");
        assert_eq!(resolve(base, "?p=2"), "https://a.org/x/y?p=2");
    }

    #[test]
    fn hosts_are_lowercased_without_port_or_user() {
        assert_eq!(host_of("https://User@Example.ORG:8080/p"), "example.org");
        assert_eq!(host_of("http://127.0.0.1:99/"), "127.0.0.1");
        assert_eq!(host_of("http://[::1]:80/"), "[::1]");
        assert_eq!(host_of("nonsense"), "");
    }

    #[test]
    fn ports_are_written_or_the_schemes() {
        assert_eq!(port_of("https://a.org/p"), 443);
        assert_eq!(port_of("http://a.org"), 80);
        assert_eq!(port_of("http://u:pw@a.org:8080/p:9"), 8080);
        assert_eq!(port_of("http://[::1]:99/"), 99);
        assert_eq!(port_of("https://[::1]/"), 443);
    }
}
