//! `corpus verify` and `corpus new --fetch` against an arXiv API double on
//! 127.0.0.1 that answers Atom feeds written after the API's documented
//! format: a matching record, a title that differs, another first author,
//! another year, an unknown id, a withdrawn record, an error entry and a
//! malformed feed. No test contacts any other address.

use crate::common::server::{Reply, Request, Server};
use crate::common::{self, valid, Tree};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The fixture's arXiv entry as its record on arXiv would read.
const ID: &str = "2503.01230";
const TITLE: &str = "Relay Credit: Turn-Level Advantages for Cooperating Language Agents";

/// One `<entry>` of an arXiv Atom feed.
fn entry(id_v: &str, title: &str, authors: &[&str], published: &str, extra: &str) -> String {
    let authors: String = authors
        .iter()
        .map(|a| format!("    <author>\n      <name>{a}</name>\n    </author>\n"))
        .collect();
    format!(
        "  <entry>\n    <id>http://arxiv.org/abs/{id_v}</id>\n    <updated>{published}T10:00:00Z</updated>\n    <published>{published}T10:00:00Z</published>\n    <title>{title}</title>\n    <summary>  An abstract\n  over two lines.</summary>\n{authors}    <link href=\"http://arxiv.org/abs/{id_v}\" rel=\"alternate\" type=\"text/html\"/>\n    <arxiv:primary_category term=\"cs.LG\" scheme=\"http://arxiv.org/schemas/atom\"/>\n{extra}  </entry>\n"
    )
}

/// A feed around entries, with the OpenSearch counts the API sends.
fn feed(entries: &[String]) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">\n  <link href=\"http://arxiv.org/api/query\" rel=\"self\" type=\"application/atom+xml\"/>\n  <title type=\"html\">ArXiv Query</title>\n  <id>http://arxiv.org/api/test</id>\n  <updated>2026-11-30T00:00:00-05:00</updated>\n  <opensearch:totalResults>{n}</opensearch:totalResults>\n  <opensearch:startIndex>0</opensearch:startIndex>\n  <opensearch:itemsPerPage>{n}</opensearch:itemsPerPage>\n{body}</feed>\n",
        n = entries.len(),
        body = entries.concat()
    )
}

/// An API double that knows `records` (bare id → entry XML) and answers
/// each `id_list` with the entries it knows, as arXiv does.
fn api(records: BTreeMap<String, String>) -> Server {
    Server::start(move |r: &Request| {
        if r.path != "/api/query" {
            return Reply::status(404);
        }
        let ids = r
            .query
            .split('&')
            .find_map(|kv| kv.strip_prefix("id_list="))
            .unwrap_or("");
        let found: Vec<String> = ids
            .split(',')
            .filter_map(|id| records.get(id).cloned())
            .collect();
        Reply::body("application/atom+xml; charset=utf-8", &feed(&found))
    })
}

fn one(record: String) -> BTreeMap<String, String> {
    BTreeMap::from([(ID.to_string(), record)])
}

fn matching() -> String {
    entry(
        &format!("{ID}v2"),
        "Relay Credit: Turn-Level Advantages for\n      Cooperating Language Agents",
        &["Ada Okafor", "Ben Quist"],
        "2025-03-03",
        "",
    )
}

fn verify(t: &Tree, server: &Server, more: &[&str]) -> common::Run {
    let api = server.url("/api/query");
    let mut args = vec![
        "verify",
        "--arxiv-api",
        &api,
        "--pause",
        "0",
        "--timeout",
        "5",
    ];
    args.extend_from_slice(more);
    t.corpus(&args)
}

#[test]
fn a_matching_record_passes_and_write_records_only_the_date() {
    let server = api(one(matching()));
    let t = Tree::valid();
    let run = verify(&t, &server, &[]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("verified 1 entry against"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("0 errors"), "{}", run.stdout);
    assert_eq!(server.hits().len(), 1);
    assert!(server.hits()[0].target.contains("id_list=2503.01230"));

    let before = t.read(valid::METHOD);
    let run = verify(&t, &server, &["--write"]);
    run.assert_code(0);
    let after = t.read(valid::METHOD);
    let added: Vec<&str> = after
        .lines()
        .filter(|l| !before.lines().any(|b| b == *l))
        .collect();
    assert_eq!(added.len(), 1, "{after}");
    assert!(added[0].starts_with("arxiv_verified_on: \""), "{after}");
    let date = added[0]
        .trim_start_matches("arxiv_verified_on: \"")
        .trim_end_matches('"');
    assert_eq!(date.len(), 10);
    assert_eq!(
        after
            .lines()
            .filter(|l| !l.starts_with("arxiv_verified_on"))
            .collect::<Vec<_>>(),
        before.lines().collect::<Vec<_>>(),
        "every other line is kept"
    );
    // The other entries have no arXiv id and are left alone.
    assert!(!t.read(valid::CLASSICAL).contains("arxiv_verified_on"));
    // The field is known to the checker and the schema.
    t.check(&["--strict"]).assert_code(0);
    // Writing again replaces the date rather than adding a line.
    verify(&t, &server, &["--write"]).assert_code(0);
    assert_eq!(
        t.read(valid::METHOD).matches("arxiv_verified_on").count(),
        1
    );
}

#[test]
fn each_mismatch_is_a_diagnostic_at_the_entry_line() {
    let cases = [
        (
            "arxiv-title-mismatch",
            "title",
            entry(
                ID,
                "Relay Credit Revisited",
                &["Ada Okafor", "Ben Quist"],
                "2025-03-03",
                "",
            ),
            "Relay Credit Revisited",
        ),
        (
            "arxiv-author-mismatch",
            "first_author",
            entry(ID, TITLE, &["Chen Wei", "Ada Okafor"], "2025-03-03", ""),
            "Chen Wei",
        ),
        (
            "arxiv-year-mismatch",
            "year",
            entry(ID, TITLE, &["Ada Okafor", "Ben Quist"], "2023-12-30", ""),
            "2023-12-30",
        ),
        (
            "arxiv-withdrawn",
            "arxiv_id",
            entry(
                ID,
                TITLE,
                &["Ada Okafor", "Ben Quist"],
                "2025-03-03",
                "    <arxiv:comment>This paper has been withdrawn by the authors</arxiv:comment>\n",
            ),
            "withdrawn",
        ),
    ];
    for (rule, field, record, says) in cases {
        let server = api(one(record));
        let t = Tree::valid();
        let before = t.read(valid::METHOD);
        let run = verify(&t, &server, &["--format", "json", "--write"]);
        run.assert_code(1);
        let d = run.single();
        assert_eq!(d.rule, rule);
        assert_eq!(d.severity, "error");
        assert_eq!(d.file, valid::METHOD);
        assert_eq!(d.field.as_deref(), Some(field));
        assert_eq!(d.line, Some(t.line_of(valid::METHOD, &format!("{field}:"))));
        assert!(d.message.contains(says), "{rule}: {}", d.message);
        assert_eq!(
            t.read(valid::METHOD),
            before,
            "{rule}: --write left a disagreeing entry alone"
        );
    }
}

#[test]
fn mismatches_render_in_human_and_github_formats() {
    let record = entry(ID, TITLE, &["Chen Wei"], "2025-03-03", "");
    let t = Tree::valid();
    let line = t.line_of(valid::METHOD, "first_author:");

    let server = api(one(record.clone()));
    let human = verify(&t, &server, &[]);
    human.assert_code(1);
    assert!(human.stdout.contains("error[arxiv-author-mismatch]: first author differs from arXiv 2503.01230, which lists Chen Wei first"), "{}", human.stdout);
    assert!(
        human
            .stdout
            .contains(&format!("--> {}:{line}:", valid::METHOD)),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains("= help: write `first_author: Wei, Chen`"),
        "{}",
        human.stdout
    );

    let server = api(one(record));
    let github = verify(&t, &server, &["--format", "github"]);
    github.assert_code(1);
    assert!(
        github
            .stdout
            .starts_with(&format!("::error file={},line={line},col=", valid::METHOD)),
        "{}",
        github.stdout
    );
    assert!(
        github.stdout.contains("title=arxiv-author-mismatch::"),
        "{}",
        github.stdout
    );
}

#[test]
fn an_unknown_id_or_an_api_error_is_an_error_at_arxiv_id() {
    let t = Tree::valid();
    let line = t.line_of(valid::METHOD, "arxiv_id:");
    let server = api(BTreeMap::new());
    let run = verify(&t, &server, &["--format", "json"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!((d.rule.as_str(), d.line), ("arxiv-not-found", Some(line)));
    assert!(
        d.message.contains("arXiv has no record 2503.01230"),
        "{}",
        d.message
    );

    // arXiv reports a bad id as an entry titled Error.
    let error = Server::start(|_: &Request| {
        Reply::body(
            "application/atom+xml",
            &feed(&["  <entry>\n    <id>http://arxiv.org/api/errors#incorrect_id_format_for_2503.01230</id>\n    <title>Error</title>\n    <summary>incorrect id format for 2503.01230</summary>\n    <updated>2026-11-30T00:00:00-05:00</updated>\n    <author><name>arXiv api core</name></author>\n  </entry>\n".to_string()]),
        )
    });
    let run = verify(&t, &error, &["--format", "json"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-not-found");
    assert!(
        d.message.contains("arXiv says: incorrect id format"),
        "{}",
        d.message
    );
}

#[test]
fn a_malformed_feed_or_a_throttle_message_means_it_could_not_run() {
    let t = Tree::valid();
    for (body, says) in [
        (
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>cut",
            "malformed XML",
        ),
        ("Rate exceeded.", "Rate exceeded."),
    ] {
        let server = Server::start(move |_: &Request| Reply::body("text/plain", body));
        let before = t.read(valid::METHOD);
        let run = verify(&t, &server, &["--write"]);
        run.assert_code(2);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert_eq!(run.stdout, "");
        assert_eq!(t.read(valid::METHOD), before);
    }
    let down = Server::start(|_: &Request| Reply::status(500));
    let run = verify(&t, &down, &[]);
    run.assert_code(2);
    assert!(run.stderr.contains("answered 500"), "{}", run.stderr);
}

#[test]
fn ids_are_batched_into_one_request_and_keys_select_entries() {
    let t = Tree::valid();
    let second = t
        .read(valid::METHOD)
        .replace("relay-credit2025", "relay-two2025")
        .replace(ID, "2504.00007")
        .replace("Relay Credit:", "Relay Two:");
    t.write("corpus/papers/relay-two2025.yaml", second);
    let mut records = one(matching());
    records.insert(
        "2504.00007".into(),
        entry(
            "2504.00007v1",
            "Relay Two: Turn-Level Advantages for Cooperating Language Agents",
            &["Ada Okafor", "Ben Quist"],
            "2025-04-01",
            "",
        ),
    );
    let server = api(records);
    verify(&t, &server, &[]).assert_code(0);
    let hits = server.hits();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        hits[0].target.contains("id_list=2503.01230,2504.00007"),
        "{hits:?}"
    );

    verify(&t, &server, &["relay-two2025"]).assert_code(0);
    assert!(server.hits()[1].target.contains("id_list=2504.00007&"));

    let run = verify(&t, &server, &["no-such-key"]);
    run.assert_code(2);
    assert!(run.stderr.contains("no-such-key"), "{}", run.stderr);
}

#[test]
fn batches_go_one_at_a_time_with_the_pause_between() {
    let server = api(BTreeMap::new());
    let ids: Vec<String> = (0..120).map(|i| format!("2501.{:05}", i + 1)).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let client = corpus_core::network::http::Client::new(corpus_core::network::http::Policy {
        timeout: Duration::from_secs(5),
        ..Default::default()
    });
    let pauses = Arc::new(Mutex::new(Vec::new()));
    let p2 = pauses.clone();
    let sleep = move |d: Duration| p2.lock().unwrap().push(d);
    let feed = corpus_core::network::arxiv::fetch(
        &client,
        &server.url("/api/query"),
        &refs,
        Duration::from_millis(1500),
        &sleep,
        &corpus_core::network::progress::Silent,
    )
    .unwrap();
    assert!(feed.records.is_empty());
    let hits = server.hits();
    let sizes: Vec<usize> = hits
        .iter()
        .map(|h| {
            let q = h.target.split("id_list=").nth(1).unwrap();
            q.split('&').next().unwrap().split(',').count()
        })
        .collect();
    assert_eq!(sizes, [50, 50, 20]);
    assert_eq!(*pauses.lock().unwrap(), [Duration::from_millis(1500); 2]);
}

#[test]
fn new_fetch_fills_title_author_year_and_link_and_check_accepts_it() {
    let record = entry(
        "2508.04652v7",
        "LLM Collaboration With Multi-Agent: Reinforcement Learning",
        &["Shuo Liu", "Christopher Amato"],
        "2025-08-06",
        "",
    );
    let server = api(BTreeMap::from([("2508.04652".to_string(), record)]));
    let t = Tree::valid();
    let api_url = server.url("/api/query");
    let run = t.corpus(&[
        "new",
        "llm-collab2025",
        "--arxiv",
        "2508.04652",
        "--fetch",
        "--arxiv-api",
        &api_url,
    ]);
    run.assert_code(0);
    let rel = "corpus/papers/llm-collab2025.yaml";
    let text = t.read(rel);
    assert!(
        text.contains("title: \"LLM Collaboration With Multi-Agent: Reinforcement Learning\""),
        "{text}"
    );
    assert!(text.contains("first_author: Liu, Shuo"), "{text}");
    // Every author arXiv lists, first author first, as `check` wants them.
    assert!(
        text.contains("\n  - Liu, Shuo\n  - Amato, Christopher\n"),
        "{text}"
    );
    assert!(text.contains("year: 2025"), "{text}");
    assert!(
        text.contains("  - https://arxiv.org/abs/2508.04652"),
        "{text}"
    );
    assert!(text.contains("venue: arXiv"), "{text}");
    assert!(
        text.contains("\n# arxiv_verified_on:"),
        "left for `verify --write`: {text}"
    );
    // An existing file is refused before the API is asked.
    let asked = server.hits().len();
    let again = t.corpus(&[
        "new",
        "llm-collab2025",
        "--arxiv",
        "2508.04652",
        "--fetch",
        "--arxiv-api",
        &api_url,
    ]);
    again.assert_code(2);
    assert!(again.stderr.contains("already exists"), "{}", again.stderr);
    assert_eq!(server.hits().len(), asked);

    // The contributor fills the rest; then the entry checks clean and verifies.
    for (field, value) in [
        ("affiliation", "Northeastern University"),
        ("category", "rl_method"),
        ("is_rl", "\"yes\""),
        ("reward_type", "shared"),
        ("credit_granularity", "agent"),
        ("orchestration_form", "centralized"),
        ("scenario", "general"),
        ("is_core", "core"),
        ("verified", "\"no\""),
        (
            "one_liner",
            "Trains several language models to cooperate as one team with a shared reward.",
        ),
    ] {
        t.set(rel, field, value);
    }
    let check = t.check(&[]);
    check.assert_code(0);
    let run = verify(&t, &server, &["llm-collab2025"]);
    run.assert_code(0);

    // An unknown id is refused before anything is written.
    let run = t.corpus(&[
        "new",
        "ghost2025",
        "--arxiv",
        "2508.99999",
        "--fetch",
        "--arxiv-api",
        &api_url,
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("arXiv has no record 2508.99999"),
        "{}",
        run.stderr
    );
    assert!(!t.path("corpus/papers/ghost2025.yaml").exists());
    // --fetch needs --arxiv.
    t.corpus(&["new", "ghost2025", "--fetch"]).assert_code(2);
}

#[test]
fn check_knows_the_verification_date_and_refuses_an_impossible_one() {
    let t = Tree::valid();
    t.replace(
        valid::METHOD,
        "verified: \"yes\"\n",
        "verified: \"yes\"\narxiv_verified_on: \"2026-02-30\"\n",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "date-invalid");
    assert_eq!(d.field.as_deref(), Some("arxiv_verified_on"));
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "arxiv_verified_on:")));

    t.set(valid::METHOD, "arxiv_verified_on", "\"2026-02-28\"");
    t.check(&["--strict"]).assert_code(0);
    let listed = t.corpus(&[
        "list",
        "--where",
        "arxiv_verified_on=2026-02-28",
        "--format",
        "keys",
    ]);
    listed.assert_code(0);
    assert_eq!(listed.stdout, "relay-credit2025\n");
}

#[test]
fn the_author_list_is_cross_checked_with_arxiv() {
    let three = |names: &[&str]| one(entry(&format!("{ID}v2"), TITLE, names, "2025-03-03", ""));
    let t = Tree::valid();
    // The fixture lists Okafor and Quist, as the matching record does.
    let server = api(one(matching()));
    let run = verify(&t, &server, &["--format", "json"]);
    run.assert_code(0);
    assert!(
        run.of("arxiv-authors-mismatch").is_empty(),
        "{}",
        run.stdout
    );

    // arXiv lists a third author: a warning at `authors`, naming arXiv's list.
    let server = api(three(&["Ada Okafor", "Cy Lind", "Ben Quist"]));
    let run = verify(&t, &server, &["--format", "json"]);
    run.assert_code(0);
    let hits = run.of("arxiv-authors-mismatch");
    assert_eq!(hits.len(), 1, "{}", run.stdout);
    assert_eq!(hits[0].severity, "warning");
    assert_eq!(hits[0].field.as_deref(), Some("authors"));
    assert!(hits[0].message.contains("lists 3"), "{}", hits[0].message);

    // A list cut short with `others` agrees when its names come in arXiv's order.
    t.replace(
        valid::METHOD,
        "  - Quist, Ben",
        "  - Quist, Ben\n  - others",
    );
    let run = verify(&t, &server, &["--format", "json"]);
    assert!(
        run.of("arxiv-authors-mismatch").is_empty(),
        "{}",
        run.stdout
    );

    // A name arXiv does not list is one.
    t.replace(valid::METHOD, "  - Quist, Ben", "  - Brandt, Jonas");
    let run = verify(&t, &server, &["--format", "json"]);
    let hits = run.of("arxiv-authors-mismatch");
    assert_eq!(hits.len(), 1, "{}", run.stdout);
    assert!(
        hits[0].message.contains("Brandt, Jonas"),
        "{}",
        hits[0].message
    );
}
