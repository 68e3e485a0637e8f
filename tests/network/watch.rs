//! `corpus watch` against loopback doubles of arXiv and OpenAlex serving
//! their recorded answers: a new version, a withdrawal, a publication with
//! its DOI and a retraction become dated events in corpus/status.yaml, each
//! once; `--offline` works from the cache alone; the services are asked one
//! request at a time, in batches, with the contact address.

use crate::common::server::Server;
use crate::common::{self, valid, Tree};
use crate::recorded;

const STATUS: &str = "corpus/status.yaml";
const TWO: &str = "corpus/papers/relay-two2025.yaml";

/// The fixture tree: its arXiv entry is arXiv 2204.08348 (published, per
/// arXiv, with a DOI), a second entry is arXiv 1605.08386, and the classical
/// entry links the DOI of the OpenAlex work recorded.
fn tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::METHOD, "arxiv_id", "\"2204.08348\"");
    t.set(
        valid::METHOD,
        "title",
        "\"Automated Test Generation for REST APIs: No Time to Rest Yet\"",
    );
    let two = t
        .read(valid::METHOD)
        .replace("relay-credit2025", "relay-two2025")
        .replace("\"2204.08348\"", "\"1605.08386\"")
        .replace(
            "Automated Test Generation for REST APIs: No Time to Rest Yet",
            "Heat-bath random walks with Markov bases",
        );
    t.write(TWO, two);
    t.set(
        valid::CLASSICAL,
        "urls",
        "[https://example.org/papers/grid-foraging.pdf, https://doi.org/10.7717/peerj.4375]",
    );
    t
}

fn arxiv(withdrawn: bool) -> Server {
    let two = if withdrawn {
        "1605.08386-withdrawn.xml"
    } else {
        "1605.08386.xml"
    };
    recorded::arxiv(
        &[("2204.08348", "2204.08348.xml"), ("1605.08386", two)],
        &[],
    )
}

fn openalex(retracted: bool) -> Server {
    recorded::openalex(&[if retracted {
        "W2741809807-retracted.json"
    } else {
        "W2741809807.json"
    }])
}

fn watch(t: &Tree, ax: &Server, oa: &Server, more: &[&str]) -> common::Run {
    let (a, o) = (ax.url("/api/query"), oa.url(""));
    let mut args = vec![
        "watch",
        "--arxiv-api",
        &a,
        "--openalex-api",
        &o,
        "--arxiv-pause",
        "0",
        "--openalex-pause",
        "0",
        "--format",
        "json",
    ];
    args.extend_from_slice(more);
    t.corpus(&args)
}

/// The events of the status file as (key, event, date, detail) lines.
fn events(t: &Tree) -> Vec<String> {
    let v: serde_yaml::Value = serde_yaml::from_str(&t.read(STATUS)).expect("status YAML");
    v["events"]
        .as_sequence()
        .expect("events")
        .iter()
        .map(|e| {
            let s = |k: &str| match &e[k] {
                serde_yaml::Value::String(s) => s.clone(),
                serde_yaml::Value::Number(n) => n.to_string(),
                _ => "-".into(),
            };
            format!(
                "{} {} {} {} v{} {} {}",
                s("key"),
                s("event"),
                s("date"),
                s("source"),
                s("version"),
                s("doi"),
                s("venue")
            )
        })
        .collect()
}

#[test]
fn changes_become_dated_events_once_and_the_decisions_are_reported() {
    let t = tree();
    let (ax, oa) = (arxiv(false), openalex(false));
    let first = watch(
        &t,
        &ax,
        &oa,
        &["--write", "--contact", "curator@example.org"],
    );
    first.assert_code(0);
    assert_eq!(
        events(&t),
        [
            "grid-foraging1999 published 2018-02-13 openalex v- 10.7717/peerj.4375 PeerJ",
            "relay-credit2025 version 2022-07-06 arxiv v3 - -",
            "relay-credit2025 published 2026-12-01 arxiv v- 10.1145/3533767.3534401 InProceedings of the 31st ACM SIGSOFT International Symposium on Software Testing and Analysis 2022 Jul 18 (pp. 289-301)",
            "relay-two2025 version 2016-05-26 arxiv v1 - -",
        ]
        .map(|s| s.replace("2026-12-01", &corpus_core::model::dates::today()))
    );
    assert!(t.read(STATUS).contains("cited_by: 962"));
    // The preprint entry has a published version it does not name: a warning.
    let d = first.single();
    assert_eq!(
        (d.rule.as_str(), d.severity.as_str(), d.file.as_str()),
        ("status-published", "warning", valid::METHOD)
    );
    assert!(
        d.message
            .contains("https://doi.org/10.1145/3533767.3534401"),
        "{}",
        d.message
    );
    // One batch each, one request at a time, the contact address sent.
    assert_eq!(ax.hits().len(), 1);
    assert!(ax.hits()[0]
        .target
        .contains("id_list=1605.08386,2204.08348,2404.05550&"));
    assert_eq!(oa.hits().len(), 1);
    assert!(
        oa.hits()[0].target.contains("mailto=curator%40example.org"),
        "{:?}",
        oa.hits()
    );
    assert_eq!((ax.max_in_flight(), oa.max_in_flight()), (1, 1));

    // The same answers again: nothing new, not a byte changed.
    let before = t.read(STATUS);
    let again = watch(&t, &ax, &oa, &["--write"]);
    again.assert_code(0);
    assert!(!again.stderr.contains("recorded:"), "{}", again.stderr);
    assert_eq!(t.read(STATUS), before);

    // arXiv withdraws 1605.08386 (a new version), OpenAlex marks the work retracted.
    let (ax, oa) = (arxiv(true), openalex(true));
    let later = watch(&t, &ax, &oa, &["--write"]);
    later.assert_code(1);
    let now = events(&t);
    assert_eq!(now.len(), 7, "{now:#?}");
    for new in [
        "relay-two2025 version 2026-03-02 arxiv v2 - -",
        "relay-two2025 withdrawn 2026-03-02 arxiv v2 - -",
    ] {
        assert!(now.contains(&new.to_string()), "{now:#?}");
    }
    assert!(
        now.iter()
            .any(|e| e.starts_with("grid-foraging1999 retracted ")),
        "{now:#?}"
    );
    assert_eq!(
        later.rules(),
        ["status-retracted", "status-published", "status-withdrawn"]
    );
    let withdrawn = &later.of("status-withdrawn")[0];
    assert_eq!(withdrawn.file, TWO);
    assert_eq!(withdrawn.line, Some(t.line_of(TWO, "arxiv_id:")));
    assert!(
        withdrawn.message.contains("Theorem 1 does not hold"),
        "{}",
        withdrawn.message
    );
    assert!(
        later
            .stderr
            .contains("recorded: relay-two2025 withdrawn on 2026-03-02"),
        "{}",
        later.stderr
    );

    // `check` reports what needs a decision from the recorded status.
    let check = t.check(&[]);
    check.assert_code(1);
    assert_eq!(check.of("status-retracted").len(), 1, "{}", check.stdout);
    assert_eq!(check.of("status-retracted")[0].file, valid::CLASSICAL);
    assert_eq!(check.of("status-withdrawn")[0].file, TWO);

    // Once only, online or from the cache.
    let before = t.read(STATUS);
    watch(&t, &ax, &oa, &["--write"]).assert_code(1);
    assert_eq!(t.read(STATUS), before);
    let (down_a, down_o) = (arxiv(false), openalex(false));
    let offline = watch(&t, &down_a, &down_o, &["--offline", "--write"]);
    offline.assert_code(1);
    assert_eq!(offline.rules(), later.rules());
    assert_eq!(down_a.hits().len() + down_o.hits().len(), 0);
    assert_eq!(t.read(STATUS), before);
}

#[test]
fn without_write_nothing_is_recorded_and_max_age_spares_the_services() {
    let t = tree();
    let (ax, oa) = (arxiv(true), openalex(true));
    let run = watch(&t, &ax, &oa, &[]);
    run.assert_code(1);
    assert!(!t.path(STATUS).exists());
    assert!(
        run.stderr.contains("would record: relay-two2025 withdrawn"),
        "{}",
        run.stderr
    );
    // The answers are cached: within --max-age nobody is asked again.
    let again = watch(&t, &ax, &oa, &["--max-age", "1d"]);
    again.assert_code(1);
    assert_eq!((ax.hits().len(), oa.hits().len()), (1, 1));
}

#[test]
fn offline_with_no_cache_says_so_and_records_nothing() {
    let t = tree();
    let (ax, oa) = (arxiv(false), openalex(false));
    let run = watch(&t, &ax, &oa, &["--offline", "--write"]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("no answer of arXiv for 2204.08348 in the cache"),
        "{}",
        run.stderr
    );
    assert!(!t.path(STATUS).exists());
    assert_eq!(ax.hits().len() + oa.hits().len(), 0);
}

#[test]
fn a_broken_status_file_or_a_bad_contact_means_it_could_not_run() {
    let t = tree();
    let (ax, oa) = (arxiv(false), openalex(false));
    t.write(STATUS, "events:\n  - key: a\n    colour: blue\n");
    let run = watch(&t, &ax, &oa, &["--write"]);
    run.assert_code(2);
    assert!(run.stderr.contains(STATUS), "{}", run.stderr);
    assert_eq!(t.read(STATUS), "events:\n  - key: a\n    colour: blue\n");
    t.remove(STATUS);
    let run = watch(&t, &ax, &oa, &["--contact", "me@example.org&x=1"]);
    run.assert_code(2);
    assert_eq!(ax.hits().len() + oa.hits().len(), 0);
}

#[test]
fn a_title_arxiv_changed_is_recorded_and_flagged_until_the_entry_carries_it() {
    let t = tree();
    t.set(TWO, "title", "Heat-bath walks on fibers");
    t.write(
        STATUS,
        "events:\n  - key: relay-two2025\n    event: version\n    date: \"2016-05-26\"\n    observed: \"2026-01-05\"\n    source: arxiv\n    version: 1\n    title: Heat-bath walks on fibers\n",
    );
    let (ax, oa) = (arxiv(false), openalex(false));
    let run = watch(&t, &ax, &oa, &["--write"]);
    run.assert_code(0);
    let d = &run.of("status-title-changed")[0];
    assert_eq!((d.file.as_str(), d.severity.as_str()), (TWO, "warning"));
    assert_eq!(d.line, Some(t.line_of(TWO, "title:")));
    assert!(
        d.message
            .contains("\"Heat-bath random walks with Markov bases\""),
        "{}",
        d.message
    );
    let today = corpus_core::model::dates::today();
    assert!(
        events(&t).contains(&format!("relay-two2025 title {today} arxiv v1 - -")),
        "{:#?}",
        events(&t)
    );
    // The same version was not recorded again.
    assert_eq!(
        events(&t)
            .iter()
            .filter(|e| e.contains(" version ") && e.starts_with("relay-two2025"))
            .count(),
        1
    );

    t.set(TWO, "title", "Heat-bath random walks with Markov bases");
    let run = watch(&t, &ax, &oa, &["--offline"]);
    assert!(run.of("status-title-changed").is_empty(), "{}", run.stdout);
}

#[test]
fn check_reports_a_status_file_it_cannot_read() {
    let t = tree();
    t.write(STATUS, "events:\n  - key: a\n    colour: blue\n");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = &run.of("status-file")[0];
    assert_eq!(d.file, STATUS);
    t.write(STATUS, "# nothing recorded yet\n");
    assert!(t.check(&[]).of("status-file").is_empty());
}
