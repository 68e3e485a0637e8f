//! When no request gets an answer, the network is what failed, not the
//! data: `corpus links` says so once, suggests `--offline`, records nothing
//! and exits 2; `new --fetch` names the command that needs no network. The
//! "down" network is a loopback server that was stopped, so every request
//! is refused on this machine, or a stub resolver that finds no host and
//! counts how often it was asked: `links` and `verify` stop after their
//! first few unanswered requests instead of trying every one.

use crate::common::server::{Reply, Request, Server};
use crate::common::{valid, Tree};
use corpus_core::network::address::Resolve;
use corpus_core::network::arxiv;
use corpus_core::network::http::{Client, Policy};
use corpus_core::network::links::{
    self, Cache, HostsConfig, Link, Local, Net, Place, Settings, DOWN_AFTER,
};
use corpus_core::network::progress::Silent;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn ok(_: &Request) -> Reply {
    Reply::status(200)
}

#[test]
fn links_with_every_connection_refused_says_the_network_is_down_once() {
    let server = Server::start(ok);
    let t = Tree::valid();
    for (rel, old) in [
        (
            valid::CLASSICAL,
            "https://example.org/papers/grid-foraging.pdf",
        ),
        (
            valid::INDUSTRY,
            "https://harbor.example.com/blog/agent-platform",
        ),
    ] {
        t.replace(rel, old, &server.url("/gone"));
    }
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230\n",
        &format!("  - {}\n", server.url("/a")),
    );
    t.set(valid::ARXIV_RECORD, "url", &server.url("/b"));
    t.set(valid::DOCS_RECORD, "url", &server.url("/c"));
    drop(server);
    let offline = t.corpus(&["links", "--offline", "--format", "json"]);
    for line in offline.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let url = v["url"].as_str().unwrap_or_default();
        assert!(
            !url.starts_with("http") || url.starts_with("http://127.0.0.1:"),
            "the tree would request {url}"
        );
    }
    for format in ["human", "json"] {
        let run = t.corpus(&["links", "--timeout", "2", "--format", format]);
        run.assert_code(2);
        assert_eq!(run.stdout, "", "no per-link report");
        assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains("network looks down"), "{}", run.stderr);
        assert!(run.stderr.contains("--offline"), "{}", run.stderr);
        assert!(
            !run.stderr.contains(['\r', '\x1b']),
            "no progress bar into a pipe: {:?}",
            run.stderr
        );
    }
    assert!(
        !t.path(".cache/corpus-links.json").exists(),
        "a run without network records no failures"
    );
}

#[test]
fn one_refused_link_among_answered_ones_is_a_problem_in_the_data() {
    let server = Server::start(ok);
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let t = Tree::valid();
    t.replace(
        valid::CLASSICAL,
        "https://example.org/papers/grid-foraging.pdf",
        &format!("http://127.0.0.1:{closed}/x"),
    );
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        &format!("http://127.0.0.1:{closed}/y"),
    );
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230\n",
        &format!("  - {}\n", server.url("/a")),
    );
    t.set(valid::ARXIV_RECORD, "url", &server.url("/b"));
    t.set(valid::DOCS_RECORD, "url", &server.url("/c"));
    let run = t.corpus(&["links", "--timeout", "2"]);
    run.assert_code(1);
    assert!(!run.stderr.contains("network looks down"), "{}", run.stderr);
}

#[test]
fn new_fetch_without_network_names_the_command_without_fetch() {
    let server = Server::start(ok);
    let api = server.url("/api/query");
    drop(server);
    let t = Tree::valid();
    let run = t.corpus(&[
        "new",
        "x2026",
        "--arxiv",
        "2601.00001",
        "--fetch",
        "--arxiv-api",
        &api,
    ]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("`corpus new x2026 --arxiv 2601.00001` writes the scaffold"),
        "{}",
        run.stderr
    );
    assert!(!t.path("corpus/papers/x2026.yaml").exists());
}

/// A resolver for a machine without a network: every lookup fails, and
/// each one is counted, so a test sees how many requests were tried.
#[derive(Debug, Default)]
struct NoNetwork {
    lookups: AtomicUsize,
}

impl Resolve for NoNetwork {
    fn lookup(&self, host: &str, _: u16) -> std::io::Result<Vec<SocketAddr>> {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        Err(std::io::Error::other(format!(
            "failed to lookup address information for {host}"
        )))
    }
}

fn no_network_client(resolver: &Arc<NoNetwork>) -> Client {
    Client::with_resolver(
        Policy {
            timeout: Duration::from_secs(5),
            ..Policy::default()
        },
        resolver.clone(),
    )
}

#[test]
fn links_stop_after_the_first_few_unanswered_requests() {
    const LINKS: usize = 60;
    const JOBS: usize = 4;
    let links: Vec<Link> = (0..LINKS)
        .map(|i| Link {
            url: format!("https://host{i}.example.org/paper"),
            places: vec![Place {
                file: "corpus/papers/p.yaml".into(),
                line: Some(i + 1),
            }],
            arxiv_ids: vec![None],
        })
        .collect();
    let dir = Tree::empty();
    let anchors = BTreeSet::new();
    let hosts = HostsConfig::default();
    let settings = Settings {
        offline: false,
        policy: Policy::default(),
        max_age: None,
        fail_after: 1,
        jobs: JOBS,
        per_host: 2,
    };
    let resolver = Arc::new(NoNetwork::default());
    let client = no_network_client(&resolver);
    let sleeps = AtomicUsize::new(0);
    let sleep = |_: Duration| {
        sleeps.fetch_add(1, Ordering::SeqCst);
    };
    let run = links::run(
        &links,
        Local {
            root: dir.root(),
            anchors: &anchors,
            hosts: &hosts,
        },
        Cache::default(),
        &settings,
        1_700_000_000,
        &Net {
            client: &client,
            sleep: &sleep,
            progress: &Silent,
        },
    );
    let down = run.network_down.expect("the network is taken to be down");
    let tried = resolver.lookups.load(Ordering::SeqCst);
    // The pool starts no request once DOWN_AFTER have failed; those already
    // in flight (at most JOBS - 1 more) finish.
    assert!(
        (DOWN_AFTER..DOWN_AFTER + JOBS).contains(&tried),
        "{tried} lookups for {LINKS} links"
    );
    assert!(down.stopped, "{down:?}");
    assert_eq!(down.attempted, tried);
    assert_eq!(down.needed, LINKS);
    assert!(down.first.contains("failed to lookup"), "{}", down.first);
    assert!(run.cache.is_none(), "nothing is recorded against the links");
    assert_eq!(
        sleeps.load(Ordering::SeqCst),
        0,
        "no retries were waited for"
    );
}

#[test]
fn verify_stops_at_its_first_unanswered_request() {
    let ids: Vec<String> = (0..120).map(|i| format!("2501.{:05}", i + 1)).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let resolver = Arc::new(NoNetwork::default());
    let err = arxiv::fetch(
        &no_network_client(&resolver),
        "http://export.arxiv.example/api/query",
        &refs,
        Duration::from_secs(3),
        &|_| {},
        &Silent,
    )
    .expect_err("no network, no feed");
    assert!(err.unanswered, "{err:?}");
    assert_eq!(
        resolver.lookups.load(Ordering::SeqCst),
        1,
        "three batches needed, one tried"
    );
}

#[test]
fn verify_with_the_api_unreachable_says_the_network_is_down_once() {
    let server = Server::start(ok);
    let api = server.url("/api/query");
    drop(server);
    let t = Tree::valid();
    let run = t.corpus(&["verify", "--arxiv-api", &api, "--timeout", "2"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "", "no per-entry report");
    assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("network looks down"), "{}", run.stderr);
    assert!(run.stderr.contains("--offline"), "{}", run.stderr);
}

#[test]
fn watch_with_the_services_unreachable_says_the_network_is_down_once() {
    let server = Server::start(ok);
    let (arxiv_api, openalex_api) = (server.url("/api/query"), server.url(""));
    drop(server);
    let t = Tree::valid();
    t.set(valid::METHOD, "arxiv_id", "\"2204.08348\"");
    let run = t.corpus(&[
        "watch",
        "--arxiv-api",
        &arxiv_api,
        "--openalex-api",
        &openalex_api,
        "--arxiv-pause",
        "0",
        "--timeout",
        "2",
        "--write",
    ]);
    run.assert_code(2);
    assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("network looks down"), "{}", run.stderr);
    assert!(
        run.stderr.contains("corpus watch --offline"),
        "{}",
        run.stderr
    );
    assert!(!t.path("corpus/status.yaml").exists(), "nothing recorded");
}
