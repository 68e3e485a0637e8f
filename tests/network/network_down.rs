//! When no request gets an answer, the network is what failed, not the
//! data: `corpus links` says so once, suggests `--offline`, records nothing
//! and exits 2; `new --fetch` names the command that needs no network. The
//! "down" network is a loopback server that was stopped, so every request
//! is refused on this machine.

use crate::common::server::{Reply, Request, Server};
use crate::common::{valid, Tree};

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
