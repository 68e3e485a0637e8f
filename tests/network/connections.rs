//! `corpus links` on connections that lie and redirects that wander: a
//! server that closes every connection without saying so gives no spurious
//! failure and keeps a redirect loop's verdict; a redirect from a public
//! address to a private one is refused before any connection.
//!
//! "Public" names are made with a stub resolver injected into the HTTP
//! client: it maps them to the loopback servers the tests start, and it is
//! the only place a loopback address is declared public. No test reaches an
//! address other than 127.0.0.1.

use crate::common::server::{Reply, Request, Server};
use crate::common::{valid, Tree};
use corpus_core::network::address::Resolve;
use corpus_core::network::http::{Client, Policy};
use corpus_core::network::links::{check_url, HostsConfig, Status};
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const RUNS: usize = 20;
const LINKS: usize = 30;

fn route(r: &Request) -> Reply {
    match r.path {
        "/loop-a" => Reply::redirect(302, "/loop-b"),
        "/loop-b" => Reply::redirect(302, "/loop-a"),
        p if p.starts_with("/p") => Reply::status(200),
        _ => Reply::status(404),
    }
}

/// The valid fixture whose method entry lists `urls` and whose other links
/// all lead to `/p0` of the same server.
fn tree_with(server: &Server, urls: &[String]) -> Tree {
    let t = Tree::valid();
    let items: String = urls.iter().map(|u| format!("  - {u}\n")).collect();
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230\n",
        &items,
    );
    for (file, old) in [
        (
            valid::CLASSICAL,
            "https://example.org/papers/grid-foraging.pdf",
        ),
        (
            valid::INDUSTRY,
            "https://harbor.example.com/blog/agent-platform",
        ),
    ] {
        t.replace(file, old, &server.url("/p0"));
    }
    t.set(valid::ARXIV_RECORD, "url", &server.url("/p0"));
    t.set(valid::DOCS_RECORD, "url", &server.url("/p0"));
    t
}

/// `corpus links --format json` with no cache carried between runs; every
/// result as (URL, object).
fn run_links(t: &Tree) -> (i32, BTreeMap<String, Value>) {
    let run = t.corpus(&[
        "links",
        "--format",
        "json",
        "--timeout",
        "5",
        "--retries",
        "0",
        "--cache",
        "none.json",
    ]);
    let _ = std::fs::remove_file(t.path("none.json"));
    let results = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .map(|v| (v["url"].as_str().unwrap_or_default().to_string(), v))
        .collect();
    (run.code.unwrap_or(-1), results)
}

#[test]
fn a_server_closing_every_connection_silently_gives_no_spurious_failure_in_20_runs() {
    let server = Server::start_closing_silently(route);
    let urls: Vec<String> = (1..=LINKS).map(|i| server.url(&format!("/p{i}"))).collect();
    let t = tree_with(&server, &urls);
    let mut failures = Vec::new();
    for run in 0..RUNS {
        let (code, results) = run_links(&t);
        for (url, r) in &results {
            if r["status"] != "ok" {
                failures.push(format!("run {run}: {url}: {}", r["message"]));
            }
        }
        assert!(code == 0 || !failures.is_empty(), "run {run} exited {code}");
        assert_eq!(results.len(), LINKS + 1, "run {run}");
    }
    assert!(
        failures.is_empty(),
        "{} spurious failures: {failures:#?}",
        failures.len()
    );
}

#[test]
fn a_redirect_loop_over_silently_closed_connections_is_reported_as_a_loop() {
    let server = Server::start_closing_silently(route);
    let t = tree_with(&server, &[server.url("/loop-a")]);
    for run in 0..RUNS {
        let (code, results) = run_links(&t);
        let r = &results[&server.url("/loop-a")];
        assert_eq!(r["status"], "error", "run {run}: {r}");
        let message = r["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("redirect loop: "),
            "run {run}: {message}"
        );
        assert_eq!(code, 1);
    }
}

/// A stub resolver: names map to loopback ports, and the names in `public`
/// count as public although they lead to 127.0.0.1 (the tests' stand-in for
/// an address on the internet). Every name asked is recorded.
#[derive(Debug, Default)]
struct Stub {
    names: BTreeMap<String, u16>,
    public: Vec<String>,
    asked: Mutex<Vec<String>>,
}

impl Resolve for Stub {
    fn lookup(&self, host: &str, _port: u16) -> std::io::Result<Vec<SocketAddr>> {
        self.asked.lock().expect("asked").push(host.to_string());
        match self.names.get(host) {
            Some(&port) => Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))]),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("the stub knows no {host}"),
            )),
        }
    }

    fn is_private(&self, host: &str, ip: IpAddr) -> bool {
        !self.public.iter().any(|p| p == host) && corpus_core::network::address::is_private(ip)
    }
}

fn port(server: &Server) -> u16 {
    server
        .url("")
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("port")
}

fn client(stub: Stub) -> (Client, Arc<Stub>) {
    let stub = Arc::new(stub);
    let policy = Policy {
        timeout: Duration::from_secs(5),
        retries: 0,
        ..Policy::default()
    };
    (Client::with_resolver(policy, stub.clone()), stub)
}

fn check(client: &Client, url: &str) -> corpus_core::network::links::Checked {
    check_url(client, url, &HostsConfig::default(), &|_| {})
}

#[test]
fn a_redirect_from_a_public_address_to_a_private_one_is_refused_before_connecting() {
    // The private side: a server that must never see a request.
    let inner = Server::start(|_| Reply::status(200));
    let inner_port = port(&inner);
    let public = Server::start(move |r: &Request| match r.path {
        "/to-inner" => Reply::redirect(302, &format!("http://inner.test:{inner_port}/secret")),
        "/to-metadata" => Reply::redirect(301, "http://169.254.169.254/latest/meta-data/"),
        "/to-v6" => Reply::redirect(302, "http://[fe80::1]/"),
        _ => Reply::status(404),
    });
    let (client, stub) = client(Stub {
        names: [
            ("www.public.test".to_string(), port(&public)),
            ("inner.test".to_string(), inner_port),
        ]
        .into_iter()
        .collect(),
        public: vec!["www.public.test".into()],
        ..Stub::default()
    });
    let origin = format!("http://www.public.test:{}", port(&public));
    for (path, says) in [
        (
            "/to-inner",
            "inner.test resolves to the private address 127.0.0.1",
        ),
        ("/to-metadata", "169.254.169.254 is a private address"),
        ("/to-v6", "fe80::1 is a private address"),
    ] {
        let c = check(&client, &format!("{origin}{path}"));
        assert_eq!(c.status, Status::Refused, "{path}: {c:?}");
        assert!(c.message.contains(says), "{path}: {}", c.message);
        assert!(
            c.message.contains("refused before connecting"),
            "{}",
            c.message
        );
    }
    assert!(inner.hits().is_empty(), "{:?}", inner.hits());
    assert_eq!(public.hits().len(), 3);
    assert!(stub
        .asked
        .lock()
        .expect("asked")
        .contains(&"inner.test".to_string()));
}

#[test]
fn redirects_within_public_or_from_private_addresses_are_followed() {
    let target = Server::start(|_| Reply::status(200));
    let target_port = port(&target);
    let origin = Server::start(move |r: &Request| match r.path {
        "/to-public" => {
            Reply::redirect(302, &format!("http://other.public.test:{target_port}/page"))
        }
        "/to-inner" => Reply::redirect(302, &format!("http://inner.test:{target_port}/page")),
        _ => Reply::status(404),
    });
    let (client, _) = client(Stub {
        names: [
            ("www.public.test".to_string(), port(&origin)),
            ("other.public.test".to_string(), target_port),
            ("inner.test".to_string(), target_port),
        ]
        .into_iter()
        .collect(),
        public: vec!["www.public.test".into(), "other.public.test".into()],
        ..Stub::default()
    });
    // Public to public.
    let c = check(
        &client,
        &format!("http://www.public.test:{}/to-public", port(&origin)),
    );
    assert_eq!(c.status, Status::Redirected, "{c:?}");
    // Private (loopback, as written) to private: nothing is crossed.
    let c = check(&client, &origin.url("/to-inner"));
    assert_eq!(c.status, Status::Redirected, "{c:?}");
    assert_eq!(target.hits().len(), 2);
}

#[test]
fn a_refused_redirect_is_reported_under_its_own_rule() {
    use corpus_core::network::links::{diagnostics, LinkResult, Place};
    let tax = corpus_core::model::taxonomy::Taxonomy::from_yaml(
        &std::fs::read_to_string(crate::common::repo().join("corpus/taxonomy.yaml"))
            .expect("taxonomy"),
    )
    .expect("taxonomy parses");
    let result = |status: Status| LinkResult {
        url: "https://www.public.test/x".into(),
        status,
        http_status: Some(302),
        location: None,
        permanent: false,
        message: "refused before connecting: …".into(),
        places: vec![Place {
            file: valid::METHOD.into(),
            line: Some(3),
        }],
        failed_runs: 1,
        fails: true,
    };
    let d = diagnostics(&[result(Status::Refused)], &tax);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].rule, "link-private-redirect");
    assert_eq!(d[0].severity.as_str(), "error");
    let d = diagnostics(&[result(Status::Error)], &tax);
    assert_eq!(d[0].rule, "link-error");
}
