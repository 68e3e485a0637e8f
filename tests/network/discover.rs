//! `corpus discover` against a loopback arXiv double serving recorded search
//! answers (`tests/fixtures/discover/`), and `corpus screen` moving what it
//! queued into the pool and the exclusion log.

use crate::common::server::{Reply, Request, Server};
use crate::common::{fixture_dir, Tree};
use corpus_core::model::candidate::Candidate;
use corpus_core::text::ids::normalize_title;
use std::collections::BTreeMap;

const QUEUE: &str = "corpus/candidates";

/// arXiv's double: the recorded second page for the credit-assignment
/// family's query, the first page for every other one.
fn arxiv() -> Server {
    let page = |f: &str| {
        std::fs::read_to_string(fixture_dir("discover").join("arxiv").join(f)).expect("fixture")
    };
    let (first, second) = (
        page("search-testing-start0.xml"),
        page("search-testing-start10.xml"),
    );
    Server::start(move |r: &Request| {
        if r.path != "/api/query" || !r.query.contains("search_query=") {
            return Reply::status(404);
        }
        let body = if r.query.contains("%22credit+assignment%22") {
            &second
        } else {
            &first
        };
        Reply::body("application/atom+xml; charset=utf-8", body)
    })
}

/// The shipped corpus with three of the recorded papers already held: a
/// record by arXiv id, a record by title, an entry by the DOI it links.
fn tree() -> Tree {
    let t = Tree::repo_copy();
    t.set("exclusions/E001.yaml", "identifier", "arXiv:2202.12139");
    t.set(
        "exclusions/E001.yaml",
        "url",
        "https://arxiv.org/abs/2202.12139",
    );
    t.set(
        "exclusions/E002.yaml",
        "title",
        "Active Fuzzing for Testing and Securing Cyber-Physical Systems",
    );
    t.replace(
        "corpus/papers/agent-lightning.yaml",
        "  - https://arxiv.org/abs/2508.03680\n",
        "  - https://arxiv.org/abs/2508.03680\n  - https://doi.org/10.1145/3533767.3534401\n",
    );
    t
}

fn discover(t: &Tree, ax: &Server, more: &[&str]) -> crate::common::Run {
    let api = ax.url("/api/query");
    let mut args = vec![
        "discover",
        "--from",
        "2026-05-05",
        "--to",
        "2026-06-30",
        "--arxiv-api",
        &api,
        "--arxiv-pause",
        "0",
    ];
    args.extend_from_slice(more);
    t.corpus(&args)
}

/// The queue's files: name → text.
fn queue(t: &Tree) -> BTreeMap<String, String> {
    std::fs::read_dir(t.path(QUEUE))
        .map(|d| {
            d.map(|e| e.expect("entry").path())
                .map(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read_to_string(&p).expect("candidate"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// (arXiv ids, normalised titles) of every entry and record of the tree.
fn held(t: &Tree) -> (Vec<String>, Vec<String>) {
    let c = corpus_core::load::load(t.root(), Default::default()).expect("loads");
    let mut ids: Vec<String> = c
        .entries
        .iter()
        .filter_map(|e| e.entry.arxiv_id.clone())
        .collect();
    ids.extend(c.exclusions.iter().filter_map(|x| {
        x.record
            .identifier
            .strip_prefix("arXiv:")
            .map(str::to_string)
    }));
    let mut titles: Vec<String> = c
        .entries
        .iter()
        .map(|e| normalize_title(&e.entry.title))
        .collect();
    titles.extend(
        c.exclusions
            .iter()
            .map(|x| normalize_title(&x.record.title)),
    );
    (ids, titles)
}

#[test]
fn discover_queues_what_the_corpus_lacks_ranked_and_explained_and_a_second_run_adds_nothing() {
    let t = tree();
    let ax = arxiv();
    let run = discover(&t, &ax, &[]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("20 papers found: 3 already in the pool, the exclusion log or the queue (arXiv id 1, DOI 1, title 1), 17 new candidates"),
        "{}",
        run.stdout
    );
    let files = queue(&t);
    assert_eq!(files.len(), 17);
    let page =
        std::fs::read_to_string(fixture_dir("discover").join("arxiv/search-testing-start10.xml"))
            .expect("fixture");
    let page_two: Vec<&str> = page
        .split("<id>http://arxiv.org/abs/")
        .skip(1)
        .map(|s| s.split(['v', '<']).next().unwrap())
        .collect();
    assert_eq!(page_two.len(), 10);
    let (ids, titles) = held(&t);
    for (name, text) in &files {
        let c = Candidate::parse(text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(format!("{}.yaml", c.key), *name);
        assert!(!ids.contains(&c.arxiv_id), "{name} is already held by id");
        assert!(
            !titles.contains(&normalize_title(&c.title)),
            "{name} is already held by title"
        );
        assert!((0.0..=1.0).contains(&c.score), "{name}: {}", c.score);
        assert!(
            !c.top_terms.is_empty(),
            "{name} has no terms behind its score"
        );
        assert!(!c.summary.is_empty(), "{name} lost its abstract");
        assert!(text.contains("nobody has judged them"), "{text}");
        // The second page only answers the credit-assignment query.
        let second = page_two.iter().any(|id| *id == c.arxiv_id);
        assert_eq!(c.query, if second { "credit" } else { "mas-rl" }, "{name}");
    }
    for planted in ["2202.12139", "2005.14124", "2204.08348"] {
        assert!(
            !files.values().any(|f| f.contains(planted)),
            "{planted} was queued"
        );
    }
    // One request per query, never two at once, each for the date range.
    let hits = ax.hits_on("/api/query");
    assert_eq!(hits.len(), 7);
    assert_eq!(ax.max_in_flight(), 1);
    assert!(hits.iter().all(|h| h
        .target
        .contains("submittedDate:%5B202605050000+TO+202606302359%5D")));

    // The maintainer edits a candidate; a second run adds nothing and keeps the edit.
    let edited = files.keys().next().unwrap().clone();
    t.append(
        &format!("{QUEUE}/{edited}"),
        "# read on Monday: looks off-topic\n",
    );
    let before = queue(&t);
    let again = discover(&t, &ax, &[]);
    again.assert_code(0);
    assert!(
        again.stdout.contains(", 0 new candidates"),
        "{}",
        again.stdout
    );
    assert_eq!(queue(&t), before);

    // Offline, from the cache: no request, nothing new.
    let offline = discover(&t, &ax, &["--offline"]);
    offline.assert_code(0);
    assert_eq!(ax.hits_on("/api/query").len(), 14);
    assert!(
        offline
            .stdout
            .contains("(0 requests, offline), 20 papers found"),
        "{}",
        offline.stdout
    );
    // Fresh answers are reused with --max-age.
    discover(&t, &ax, &["--max-age", "1d"]).assert_code(0);
    assert_eq!(ax.hits_on("/api/query").len(), 14);
}

#[test]
fn discover_refuses_a_bad_range_and_a_broken_search_before_asking() {
    let t = tree();
    let ax = arxiv();
    let api = ax.url("/api/query");
    let run = t.corpus(&[
        "discover",
        "--from",
        "2026-06-30",
        "--to",
        "2026-05-05",
        "--arxiv-api",
        &api,
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("is after --to"), "{}", run.stderr);
    t.replace(
        "corpus/search.yaml",
        "logged_as: safety",
        "logged_as: astrology",
    );
    let run = discover(&t, &ax, &[]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("corpus/search.yaml is missing or has problems"),
        "{}",
        run.stderr
    );
    assert!(ax.hits().is_empty());
}

#[test]
fn a_candidate_file_that_cannot_be_read_stops_discover_before_any_request() {
    let t = tree();
    let ax = arxiv();
    t.write(&format!("{QUEUE}/broken.yaml"), "key: [unclosed\n");
    let run = discover(&t, &ax, &[]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("corpus/candidates/broken.yaml: not a candidate"),
        "{}",
        run.stderr
    );
    assert!(ax.hits().is_empty());
}

#[test]
fn the_search_protocol_rule_fires_on_a_broken_search_file_only() {
    let t = Tree::repo_copy();
    assert!(t.check_in_process(&[]).of("search-protocol").is_empty());
    t.replace("corpus/search.yaml", "  - id: credit\n", "  - id: mas-rl\n");
    let found = t.check_in_process(&[]).of("search-protocol");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].message.contains("defined twice"));
    assert_eq!(found[0].file, "corpus/search.yaml");
}

#[test]
fn screen_moves_one_candidate_each_way_and_the_built_corpus_passes_the_strict_check() {
    let t = tree();
    let ax = arxiv();
    discover(&t, &ax, &[]).assert_code(0);
    let keys: Vec<String> = queue(&t)
        .keys()
        .map(|k| k.trim_end_matches(".yaml").to_string())
        .collect();
    let (keep, drop) = (&keys[0], &keys[1]);

    let kept_text = t.read(&format!("{QUEUE}/{keep}.yaml"));
    let run = t.corpus(&["screen", keep, "--include"]);
    run.assert_code(0);
    let entry = format!("corpus/papers/{keep}.yaml");
    let text = t.read(&entry);
    assert!(text.contains("added_in: after_publication"), "{text}");
    assert!(!t.path(&format!("{QUEUE}/{keep}.yaml")).exists());

    // Two dropped at once: two records, numbered after the log's last.
    let logged_as = |key: &str| match Candidate::parse(&t.read(&format!("{QUEUE}/{key}.yaml")))
        .unwrap()
        .query
        .as_str()
    {
        "credit" => "credit assignment",
        _ => "multi-agent LLM",
    };
    let families = [logged_as(drop), logged_as(&keys[3])];
    let run = t.corpus(&[
        "screen",
        drop,
        &keys[3],
        "--exclude",
        "--stage",
        "abstract_screen",
        "--reason",
        "Software testing, no agents.",
    ]);
    run.assert_code(0);
    for (id, family) in ["E033", "E034"].iter().zip(families) {
        let record = t.read(&format!("exclusions/{id}.yaml"));
        assert!(
            record.contains("stage: abstract_screen\n")
                && record.contains(&format!("query_family: {family}\n"))
                && record.contains("reason: Software testing, no agents.\n"),
            "{record}"
        );
        assert!(record.contains("added_in: after_publication\n"), "{record}");
    }
    assert!(!t.path(&format!("{QUEUE}/{drop}.yaml")).exists());
    assert!(!t.path(&format!("{QUEUE}/{}.yaml", keys[3])).exists());
    assert_eq!(
        t.corpus(&["fmt", "--check"]).code,
        Some(0),
        "the records are in fmt's layout"
    );

    // Refusals: a candidate already moved, a stage the log does not know, no reason.
    t.corpus(&["screen", keep, "--include"]).assert_code(2);
    let odd = t.corpus(&[
        "screen",
        &keys[2],
        "--exclude",
        "--stage",
        "vibes",
        "--reason",
        "x",
    ]);
    odd.assert_code(2);
    assert!(
        odd.stderr.contains("not a screening stage"),
        "{}",
        odd.stderr
    );
    t.corpus(&[
        "screen",
        &keys[2],
        "--exclude",
        "--stage",
        "abstract_screen",
    ])
    .assert_code(2);
    assert!(t.path(&format!("{QUEUE}/{}.yaml", keys[2])).exists());

    // The maintainer judges the new entry's tags, then builds.
    for (field, value) in [
        ("category", "benchmark"),
        ("is_rl", "\"no\""),
        ("affiliation", "Unknown"),
        ("reward_type", "NA"),
        ("credit_granularity", "NA"),
        ("orchestration_form", "NA"),
        ("scenario", "general"),
        ("is_core", "supporting"),
        ("verified", "\"yes\""),
        (
            "one_liner",
            "A recorded search answer screened in by the test.",
        ),
    ] {
        t.set(&entry, field, value);
    }
    let (readme, stages) = (t.read("README.md"), t.read("stats/exclusions_stage.csv"));
    let prisma_before =
        std::fs::read_to_string(t.path("stats/chart_prisma_2020.svg")).unwrap_or_default();
    let build = t.corpus(&["build"]);
    build.assert_code(0);
    let kept_id = Candidate::parse(&kept_text).expect("candidate").arxiv_id;
    let link = format!("https://arxiv.org/abs/{kept_id}");
    assert!(
        !readme.contains(&link) && t.read("README.md").contains(&link),
        "the README lists the new entry"
    );
    assert_ne!(
        t.read("stats/exclusions_stage.csv"),
        stages,
        "the statistics count the new record"
    );
    // The PRISMA diagram's new round counts the study screened in and the
    // two records screened out (its accessible description says so in words).
    let prisma = t.read("stats/chart_prisma_2020.svg");
    assert_ne!(prisma, prisma_before, "the PRISMA diagram follows the log");
    let desc = &prisma[prisma.find("<desc>").unwrap()..prisma.find("</desc>").unwrap()];
    assert!(
        desc.contains("records excluded 2") && desc.contains("new studies included 1"),
        "{desc}"
    );
    t.corpus(&["check", "--strict"]).assert_code(0);
}
