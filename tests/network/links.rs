//! `corpus links` against servers this test starts on 127.0.0.1: every
//! server case (200, 404, 410, 301, a 302 chain, a loop, a server that never
//! answers, 429 then 200, 405 on HEAD, a 503 that never recovers), in every
//! output format, with the cache, `--max-age`, `--fail-after`, the host
//! exceptions and `--offline`. No test contacts any other address: before a
//! run that may use the network, the URLs it would request are listed
//! offline and each must be on 127.0.0.1.

use crate::common::server::{Reply, Request, Server};
use crate::common::{self, valid, Tree};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

/// Every server case, by path.
const CASES: [&str; 11] = [
    "/ok",
    "/gone404",
    "/gone410",
    "/moved301",
    "/chain",
    "/loop-a",
    "/hang",
    "/busy",
    "/busy-date",
    "/nohead",
    "/down",
];

fn route(r: &Request) -> Reply {
    match r.path {
        "/ok" => Reply::status(200),
        "/gone404" => Reply::status(404),
        "/gone410" => Reply::status(410),
        "/moved301" => Reply::redirect(301, "/ok"),
        "/chain" => Reply::redirect(302, "/chain-2"),
        "/chain-2" => Reply::redirect(302, "ok"),
        "/loop-a" => Reply::redirect(302, "/loop-b"),
        "/loop-b" => Reply::redirect(302, "/loop-a"),
        "/hang" => Reply::Hang,
        "/busy" if r.nth == 0 => Reply::with_header(429, "Retry-After", "1"),
        "/busy" => Reply::status(200),
        "/busy-date" if r.nth == 0 => {
            let when = SystemTime::now() + Duration::from_secs(2);
            Reply::with_header(503, "Retry-After", &httpdate::fmt_http_date(when))
        }
        "/busy-date" => Reply::status(200),
        "/nohead" if r.method == "HEAD" => Reply::status(405),
        "/nohead" => Reply::status(200),
        "/down" => Reply::status(503),
        "/forbidden" => Reply::status(403),
        "/busy-long" => Reply::with_header(429, "Retry-After", "3600"),
        "/slow" => {
            std::thread::sleep(Duration::from_millis(150));
            Reply::status(200)
        }
        _ => Reply::status(404),
    }
}

/// The valid fixture with every URL pointing at `server`: the method entry
/// lists `paths`, every other entry and record links to /ok.
fn tree_for(server: &Server, paths: &[&str]) -> Tree {
    let t = Tree::valid();
    let items: String = paths
        .iter()
        .map(|p| format!("  - {}\n", server.url(p)))
        .collect();
    t.replace(
        valid::METHOD,
        "  - https://arxiv.org/abs/2503.01230\n",
        &items,
    );
    t.replace(
        valid::CLASSICAL,
        "https://example.org/papers/grid-foraging.pdf",
        &server.url("/ok"),
    );
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        &server.url("/ok"),
    );
    t.set(valid::ARXIV_RECORD, "url", &server.url("/ok"));
    t.set(valid::DOCS_RECORD, "url", &server.url("/ok"));
    t
}

/// Fails unless every http(s) URL the run would request is on 127.0.0.1.
fn assert_loopback_only(t: &Tree) {
    let run = t.corpus(&["links", "--offline", "--format", "json"]);
    for r in objects(&run.stdout) {
        let url = r["url"].as_str().expect("url");
        if url.starts_with("http") {
            assert!(
                url.starts_with("http://127.0.0.1:") || url.starts_with("https://127.0.0.1:"),
                "the test tree would request {url}"
            );
        }
    }
}

fn objects(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Fast, bounded settings: 1 s timeout, 2 retries, short backoff, and
/// (unless `more` sets them) everything at once, since all cases share one host.
fn online<'a>(t: &Tree, cache: &'a str, more: &[&'a str]) -> common::Run {
    assert_loopback_only(t);
    let mut args = vec![
        "links",
        "--timeout",
        "1",
        "--retries",
        "2",
        "--backoff",
        "0.05",
        "--max-wait",
        "5",
        "--cache",
        cache,
    ];
    if !more.contains(&"--jobs") {
        args.extend(["--jobs", "16", "--per-host", "16"]);
    }
    args.extend_from_slice(more);
    t.corpus(&args)
}

fn by_path(server: &Server, stdout: &str) -> BTreeMap<String, Value> {
    let prefix = server.url("");
    objects(stdout)
        .into_iter()
        .map(|r| {
            let url = r["url"].as_str().expect("url").to_string();
            (url.replacen(&prefix, "", 1), r)
        })
        .collect()
}

fn line_of_url(t: &Tree, rel: &str, url: &str) -> u64 {
    let want = format!("  - {url}");
    t.read(rel)
        .lines()
        .position(|l| l == want)
        .unwrap_or_else(|| panic!("{url} not in {rel}")) as u64
        + 1
}

#[test]
fn every_server_case_is_reported_with_status_location_and_place() {
    let server = Server::start(route);
    let t = tree_for(&server, &CASES);
    let cache = t.path("cache.json").display().to_string();
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(1);
    let r = by_path(&server, &run.stdout);

    let expect = |path: &str, status: &str, http: Option<u64>| {
        let o = &r[path];
        assert_eq!(o["status"], status, "{path}: {o}");
        assert_eq!(o["http_status"].as_u64(), http, "{path}: {o}");
        let places = o["where"].as_array().expect("where");
        assert!(!places.is_empty(), "{path}: no place");
    };
    expect("/ok", "ok", Some(200));
    expect("/gone404", "broken", Some(404));
    expect("/gone410", "broken", Some(410));
    expect("/moved301", "redirected", Some(301));
    expect("/chain", "redirected", Some(302));
    expect("/loop-a", "error", Some(302));
    expect("/hang", "timeout", None);
    expect("/busy", "ok", Some(200));
    expect("/busy-date", "ok", Some(200));
    expect("/nohead", "ok", Some(200));
    expect("/down", "broken", Some(503));

    // Redirects: the target, and whether the move is permanent.
    assert_eq!(r["/moved301"]["location"], server.url("/ok"));
    assert_eq!(r["/moved301"]["permanent"], true);
    assert!(r["/moved301"]["message"]
        .as_str()
        .unwrap()
        .contains("moved permanently to"));
    assert_eq!(r["/chain"]["location"], server.url("/ok"));
    assert_eq!(r["/chain"]["permanent"], false);
    assert_eq!(r["/ok"]["location"], Value::Null);
    assert!(r["/loop-a"]["message"]
        .as_str()
        .unwrap()
        .contains("redirect loop"));
    assert!(r["/hang"]["message"]
        .as_str()
        .unwrap()
        .contains("timed out"));
    assert!(r["/down"]["message"]
        .as_str()
        .unwrap()
        .contains("after 3 attempts"));

    // Where: file and line of the URL in the entry.
    let gone = &r["/gone404"]["where"][0];
    assert_eq!(gone["file"], valid::METHOD);
    assert_eq!(
        gone["line"].as_u64(),
        Some(line_of_url(&t, valid::METHOD, &server.url("/gone404")))
    );
    // /ok is written in five files; every place is listed.
    assert_eq!(r["/ok"]["where"].as_array().unwrap().len(), 5);

    // HEAD first, GET only where HEAD is refused; retries after 429/503.
    let methods =
        |p: &str| -> Vec<String> { server.hits_on(p).into_iter().map(|h| h.method).collect() };
    assert_eq!(methods("/nohead"), ["HEAD", "GET"]);
    assert_eq!(methods("/gone404"), ["HEAD"]);
    assert_eq!(methods("/busy"), ["HEAD", "HEAD"]);
    assert_eq!(methods("/busy-date"), ["HEAD", "HEAD"]);
    assert_eq!(methods("/down").len(), 3);
    let busy = server.hits_on("/busy");
    assert!(
        busy[1].at - busy[0].at >= Duration::from_millis(950),
        "Retry-After: 1 was not honoured"
    );
    let dated = server.hits_on("/busy-date");
    assert!(
        dated[1].at - dated[0].at >= Duration::from_millis(900),
        "a Retry-After date was not honoured"
    );
    // A clear user agent on every request.
    for h in server.hits() {
        assert!(h.user_agent.starts_with("corpus/"), "{h:?}");
    }

    // The cache remembers each URL's last check and failures.
    let c: Value = serde_json::from_str(&t.read("cache.json")).expect("cache is JSON");
    let urls = &c["urls"];
    assert_eq!(urls[server.url("/gone404")]["consecutive_failures"], 1);
    assert_eq!(urls[server.url("/gone404")]["last_success"], Value::Null);
    assert_eq!(urls[server.url("/ok")]["consecutive_failures"], 0);
    assert!(urls[server.url("/ok")]["last_success"].as_u64().is_some());
    assert!(urls[server.url("/hang")]["last_checked"].as_u64().is_some());
}

#[test]
fn human_github_and_markdown_formats_report_the_same_cases() {
    let paths = ["/ok", "/gone404", "/moved301", "/hang", "/down"];
    let render = |format: &str| {
        let server = Server::start(route);
        let t = tree_for(&server, &paths);
        let cache = t.path("cache.json").display().to_string();
        let run = online(&t, &cache, &["--format", format]);
        run.assert_code(1);
        let line = |p: &str| line_of_url(&t, valid::METHOD, &server.url(p));
        (
            run.stdout.clone(),
            server.url(""),
            line("/gone404"),
            line("/moved301"),
        )
    };

    // Each run waits out the one-second timeout of `/hang`, each on a server
    // of its own: the three formats run at once.
    let [human_run, github_run, markdown_run] = std::thread::scope(|s| {
        ["human", "github", "markdown"]
            .map(|format| s.spawn(move || render(format)))
            .map(|run| run.join().expect("a links run"))
    });

    let (human, base, gone, moved) = human_run;
    insta::assert_snapshot!("links_human", human.replace(&base, "http://127.0.0.1:PORT"));
    assert!(human.contains(&format!("error[link-broken]: {base}/gone404: answered 404")));
    assert!(
        human.contains(&format!("--> {}:{gone}", valid::METHOD)),
        "{human}"
    );
    assert!(human.contains("warning[link-redirected]"), "{human}");
    assert!(
        human.contains(&format!("--> {}:{moved}", valid::METHOD)),
        "{human}"
    );
    assert!(
        human.contains(&format!("= help: replace it with {base}/ok")),
        "{human}"
    );
    assert!(human.contains("error[link-timeout]"), "{human}");
    assert!(
        human.contains(
            "5 links: 1 ok, 1 redirected, 2 broken, 1 timeout, 0 error, 0 refused, 0 skipped; 3 failing"
        ),
        "{human}"
    );

    let (github, base, gone, moved) = github_run;
    assert!(
        github.contains(&format!(
            "::error file={},line={gone},title=link-broken::{base}/gone404: answered 404",
            valid::METHOD
        )),
        "{github}"
    );
    assert!(
        github.contains(&format!(
            "::warning file={},line={moved},title=link-redirected::",
            valid::METHOD
        )),
        "{github}"
    );
    assert!(
        !github.contains("links:"),
        "machine formats print no summary: {github}"
    );

    let (markdown, base, gone, _) = markdown_run;
    insta::assert_snapshot!(
        "links_markdown",
        markdown.replace(&base, "http://127.0.0.1:PORT")
    );
    assert!(markdown.starts_with("## Link check\n"), "{markdown}");
    assert!(
        markdown.contains(&format!(
            "| **broken** | 404 | [{base}/gone404]({base}/gone404) | {}:{gone} |",
            valid::METHOD
        )),
        "{markdown}"
    );
    assert!(markdown.contains("| redirected | 301 |"), "{markdown}");
    assert!(markdown.contains("| **timeout** |  |"), "{markdown}");
    assert!(
        !markdown.contains(&format!("({base}/ok)")),
        "ok links are not listed: {markdown}"
    );
}

#[test]
fn a_link_fails_the_run_only_after_failing_on_n_runs_in_a_row() {
    // 404 on the first two runs, then back.
    let server = Server::start(|r: &Request| match r.path {
        "/flaky" if r.nth < 2 => Reply::status(404),
        "/flaky" => Reply::status(200),
        _ => route(r),
    });
    let t = tree_for(&server, &["/ok", "/flaky"]);
    let cache = t.path("cache.json").display().to_string();
    let args = ["--format", "json", "--fail-after", "2"];

    let first = online(&t, &cache, &args);
    first.assert_code(0);
    let r = &by_path(&server, &first.stdout)["/flaky"];
    assert_eq!(r["status"], "broken");
    assert_eq!(r["failed_runs"], 1);
    assert_eq!(r["fails"], false);

    let second = online(&t, &cache, &args);
    second.assert_code(1);
    let r = &by_path(&server, &second.stdout)["/flaky"];
    assert_eq!(r["failed_runs"], 2);
    assert_eq!(r["fails"], true);

    let third = online(&t, &cache, &args);
    third.assert_code(0);
    let r = &by_path(&server, &third.stdout)["/flaky"];
    assert_eq!(r["status"], "ok");
    assert_eq!(r["failed_runs"], 0);

    // Below the threshold, the human format warns instead of failing.
    let t2 = tree_for(&server, &["/gone404"]);
    let cache2 = t2.path("cache.json").display().to_string();
    let run = online(&t2, &cache2, &["--fail-after", "3"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("warning[link-broken]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("failed on 1 of the 3 runs"),
        "{}",
        run.stdout
    );
}

#[test]
fn max_age_skips_links_that_passed_recently_but_rechecks_failures() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/ok", "/gone404"]);
    let cache = t.path("cache.json").display().to_string();
    online(&t, &cache, &["--format", "json"]).assert_code(1);
    let before = server.hits().len();

    let run = online(&t, &cache, &["--format", "json", "--max-age", "1h"]);
    run.assert_code(1);
    let r = by_path(&server, &run.stdout);
    assert_eq!(r["/ok"]["status"], "skipped");
    assert_eq!(r["/gone404"]["status"], "broken");
    assert_eq!(r["/gone404"]["failed_runs"], 2);
    let new: Vec<String> = server.hits()[before..]
        .iter()
        .map(|h| h.target.clone())
        .collect();
    assert_eq!(
        new,
        ["/gone404"],
        "only the failing link is requested again"
    );
}

#[test]
fn the_default_cache_lives_under_the_root_outside_stats() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/ok"]);
    assert_loopback_only(&t);
    t.corpus(&["links", "--timeout", "1"]).assert_code(0);
    let c: Value =
        serde_json::from_str(&t.read(".cache/corpus-links.json")).expect("cache is JSON");
    assert_eq!(c["version"], 1);
    assert!(!t.path("stats").exists());
}

#[test]
fn a_results_cache_git_tracks_is_not_trusted() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/ok"]);
    let cache = t.path("cache.json").display().to_string();
    online(&t, &cache, &[]).assert_code(0);
    let first = server.hits().len();
    // Not tracked: within --max-age nothing is requested again.
    online(&t, &cache, &["--max-age", "1h"]).assert_code(0);
    assert_eq!(server.hits().len(), first, "served from the cache");
    // Committed, as a pull request could carry it: every link is checked afresh.
    for args in [&["init", "-q"][..], &["add", "-f", "cache.json"]] {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(t.root())
            .status()
            .expect("git runs")
            .success();
        assert!(ok, "git {args:?}");
    }
    let run = online(&t, &cache, &["--max-age", "1h"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("git tracks this results cache"),
        "{}",
        run.stderr
    );
    assert!(server.hits().len() > first, "requested again");
}

#[test]
fn committed_host_exceptions_accept_a_status_or_space_out_checks() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/forbidden"]);
    let cache = t.path("cache.json").display().to_string();
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(1);
    assert_eq!(
        by_path(&server, &run.stdout)["/forbidden"]["status"],
        "broken"
    );

    t.write(
        "corpus/links.yaml",
        "hosts:\n  - host: 127.0.0.1\n    accept: [403]\n    every: 7d\n    reason: the test server plays a bot wall\n",
    );
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(0);
    let r = &by_path(&server, &run.stdout)["/forbidden"];
    assert_eq!(r["status"], "ok");
    assert!(r["message"].as_str().unwrap().contains("403 is accepted"));
    // Checked less often: the next run skips it.
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(0);
    assert_eq!(
        by_path(&server, &run.stdout)["/forbidden"]["status"],
        "skipped"
    );

    t.write(
        "corpus/links.yaml",
        "hosts:\n  - host: 127.0.0.1\n    accept: [403]\n",
    );
    let run = online(&t, &cache, &[]);
    run.assert_code(2);
    assert!(run.stderr.contains("corpus/links.yaml"), "{}", run.stderr);
}

#[test]
fn offline_checks_syntax_anchors_and_arxiv_links_without_the_network() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.append(
        "README.md",
        "\nSee [nowhere](#no-such-section) and [charts](#charts).\n",
    );
    // An arXiv link that names another paper than the entry's arxiv_id.
    t.replace(
        valid::METHOD,
        "https://arxiv.org/abs/2503.01230",
        "https://arxiv.org/abs/2503.01231",
    );
    let cache = t.path("cache.json");
    let run = t.corpus(&[
        "links",
        "--offline",
        "--format",
        "json",
        "--cache",
        &cache.display().to_string(),
    ]);
    run.assert_code(1);
    let all = objects(&run.stdout);
    let find = |u: &str| {
        all.iter()
            .find(|r| r["url"] == u)
            .unwrap_or_else(|| panic!("{u} not reported: {}", run.stdout))
    };
    assert_eq!(find("#no-such-section")["status"], "broken");
    assert_eq!(find("#charts")["status"], "ok");
    let arxiv = find("https://arxiv.org/abs/2503.01231");
    assert_eq!(arxiv["status"], "error");
    assert!(arxiv["message"]
        .as_str()
        .unwrap()
        .contains("arxiv_id is 2503.01230"));
    assert_eq!(
        find("https://example.org/papers/grid-foraging.pdf")["status"],
        "skipped"
    );
    assert!(!cache.exists(), "offline runs leave the cache alone");
}

#[test]
fn bad_arguments_exit_2() {
    let t = Tree::valid();
    for args in [
        vec!["links", "--offline", "--max-age", "soon"],
        vec!["links", "--offline", "--timeout", "0"],
        vec!["links", "--offline", "--fail-after", "0"],
        vec!["links", "--offline", "--format", "xml"],
    ] {
        t.corpus(&args).assert_code(2);
    }
}

#[test]
fn refused_connections_and_tls_failures_are_errors_that_say_so() {
    // A port that was just free: nothing listens there now.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    // A server that answers plain text to a TLS handshake.
    let plain = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let plain_port = plain.local_addr().expect("addr").port();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    let handle = std::thread::spawn(move || {
        for conn in plain.incoming() {
            if stop2.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
            if let Ok(mut s) = conn {
                use std::io::Write;
                let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
            }
        }
    });
    let server = Server::start(route);
    let t = tree_for(&server, &["/ok"]);
    let refused = format!("http://127.0.0.1:{closed}/x");
    let tls = format!("https://127.0.0.1:{plain_port}/x");
    t.replace(
        valid::METHOD,
        &format!("  - {}\n", server.url("/ok")),
        &format!("  - {refused}\n  - {tls}\n"),
    );
    let cache = t.path("cache.json").display().to_string();
    let run = online(&t, &cache, &["--format", "json"]);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = std::net::TcpStream::connect(("127.0.0.1", plain_port));
    let _ = handle.join();
    run.assert_code(1);
    let all = objects(&run.stdout);
    let find = |u: &str| {
        all.iter()
            .find(|r| r["url"] == u)
            .expect("reported")
            .clone()
    };
    let r = find(&refused);
    assert_eq!(r["status"], "error");
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .starts_with("connection failed"),
        "{r}"
    );
    let r = find(&tls);
    assert_eq!(r["status"], "error");
    assert!(
        r["message"].as_str().unwrap().starts_with("TLS error"),
        "{r}"
    );
}

#[test]
fn a_cache_that_cannot_be_written_fails_the_run_after_the_report() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/ok"]);
    // The cache's folder is a file.
    t.write("blocked", "a file, not a folder");
    let cache = t.path("blocked/cache.json").display().to_string();
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("cannot write the cache"),
        "{}",
        run.stderr
    );
    assert_eq!(objects(&run.stdout).len(), 1, "the report is still printed");

    // Something other than a file where the cache should be is left alone.
    std::fs::create_dir_all(t.path("folder.json")).expect("folder");
    let cache = t.path("folder.json").display().to_string();
    let run = online(&t, &cache, &[]);
    run.assert_code(2);
    assert!(run.stderr.contains("folder.json"), "{}", run.stderr);

    // A cache that is not ours is replaced, with a warning.
    let t = tree_for(&server, &["/ok"]);
    t.write("cache.json", "{ not json");
    let cache = t.path("cache.json").display().to_string();
    let run = online(&t, &cache, &[]);
    run.assert_code(0);
    assert!(run.stderr.contains("not a links cache"), "{}", run.stderr);
    let c: Value = serde_json::from_str(&t.read("cache.json")).expect("rewritten");
    assert_eq!(c["version"], 1);
}

#[test]
fn a_retry_after_beyond_the_wait_budget_ends_the_retries_at_once() {
    let server = Server::start(route);
    let t = tree_for(&server, &["/busy-long"]);
    let cache = t.path("cache.json").display().to_string();
    let run = online(&t, &cache, &["--format", "json"]);
    run.assert_code(1);
    let r = &by_path(&server, &run.stdout)["/busy-long"];
    assert_eq!(r["status"], "broken");
    assert_eq!(r["http_status"], 429);
    assert_eq!(
        server.hits_on("/busy-long").len(),
        1,
        "no retry was waited for"
    );
}

#[test]
fn concurrency_is_bounded_overall_and_per_host() {
    let paths: Vec<String> = (0..6).map(|i| format!("/slow?n={i}")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    // Each run counts the requests in flight on a server of its own, so the
    // settings, which mostly wait on the slow answers, are run at once.
    let in_flight = |jobs: &str, per_host: &str| {
        let server = Server::start(route);
        let t = tree_for(&server, &refs);
        let cache = t.path("cache.json").display().to_string();
        online(&t, &cache, &["--jobs", jobs, "--per-host", per_host]).assert_code(0);
        assert_eq!(server.hits_on("/slow").len(), 6);
        server.max_in_flight()
    };
    let bounded = [("8", "2", 2), ("8", "1", 1), ("1", "4", 1)];
    let (seen, unbounded) = std::thread::scope(|s| {
        let runs = bounded.map(|(jobs, per_host, _)| s.spawn(move || in_flight(jobs, per_host)));
        // The measure can see parallel requests: unbounded, they overlap.
        let unbounded = in_flight("8", "8");
        (runs.map(|run| run.join().expect("a links run")), unbounded)
    });
    for ((jobs, per_host, most), seen) in bounded.into_iter().zip(seen) {
        assert!(
            seen <= most,
            "--jobs {jobs} --per-host {per_host}: {seen} requests at once"
        );
    }
    assert!(unbounded >= 2, "{unbounded}");
}
