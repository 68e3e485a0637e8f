//! `corpus site` writes the list's dated changes (here: the fixture's three
//! entries, added in the first round) and the status changes of
//! `corpus/status.yaml` as a JSON Feed 1.1 and an Atom feed beside the
//! page: each conforms to its
//! specification's required structure (checked below, field by field, with
//! an XML parser for Atom), escapes what came from data or a service, is the
//! same bytes on every run, and is never written over a file it did not write.

use crate::common::Tree;

const STATUS: &str = "events:
  - key: relay-credit2025
    event: version
    date: \"2025-03-03\"
    observed: \"2026-11-30\"
    source: arxiv
    version: 1
    title: \"Relay Credit: Turn-Level Advantages for Cooperating Language Agents\"
  - key: relay-credit2025
    event: withdrawn
    date: \"2026-03-02\"
    observed: \"2026-11-30\"
    source: arxiv
    version: 2
    note: \"withdrawn: </summary><script>alert(1)</script> & more\"
  - key: relay-credit2025
    event: version
    date: \"2026-03-10\"
    observed: \"2026-11-30\"
    source: arxiv
    version: 3
  - key: relay-credit2025
    event: published
    date: \"2026-04-01\"
    observed: \"2026-11-30\"
    source: openalex
    doi: 10.7717/peerj.4375
    venue: PeerJ
latest: []
";

const ATOM: &str = "http://www.w3.org/2005/Atom";

/// The fixture tree with a status file (a withdrawal that a later version
/// superseded, so `check` lets the site be written).
fn tree() -> Tree {
    let t = Tree::valid_with_templates();
    t.write("corpus/status.yaml", STATUS);
    t
}

#[test]
fn the_json_feed_has_what_json_feed_1_1_requires() {
    let t = tree();
    t.corpus(&["site"]).assert_code(0);
    // The page names its feeds for feed readers and links them for people.
    let page = t.read("site/index.html");
    assert!(page.contains(r#"<link rel="alternate" type="application/feed+json" title="Changes (JSON Feed)" href="feed.json">"#));
    assert!(page.contains(r#"<link rel="alternate" type="application/atom+xml" title="Changes (Atom)" href="feed.atom">"#));
    assert!(page.contains(r#"<a href="feed.json">JSON Feed</a>"#));
    let text = t.read("site/feed.json");
    let feed: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(feed["version"], "https://jsonfeed.org/version/1.1");
    assert!(feed["title"].as_str().is_some_and(|s| !s.is_empty()));
    let items = feed["items"].as_array().expect("items");
    let of = |prefix: &str| {
        items
            .iter()
            .filter(|i| i["id"].as_str().unwrap().starts_with(prefix))
            .count()
    };
    assert_eq!(of("urn:x-corpus-status:"), 4, "every status event");
    assert_eq!(of("urn:x-corpus-change:"), 3, "every entry's addition");
    assert_eq!(items.len(), 7);
    let rfc3339 = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$").unwrap();
    for item in items {
        // Required: a string id; at least one of content_html/content_text.
        assert!(item["id"].as_str().is_some_and(|s| !s.is_empty()), "{item}");
        assert!(item["content_text"].is_string(), "{item}");
        // Dates are RFC 3339.
        let date = item["date_published"].as_str().unwrap();
        assert!(rfc3339.is_match(date), "{date}");
        // Custom keys must start with an underscore (the spec's extensions).
        let known = ["id", "url", "title", "content_text", "date_published"];
        for k in item.as_object().unwrap().keys() {
            assert!(known.contains(&k.as_str()) || k.starts_with('_'), "{k}");
        }
    }
    // Newest first (the first round's day, then the status events); every
    // item links the paper on the page.
    assert_eq!(items[0]["date_published"], "2026-04-26T00:00:00Z");
    assert_eq!(items[3]["date_published"], "2026-04-01T00:00:00Z");
    assert!(items[3]["url"]
        .as_str()
        .unwrap()
        .contains("#q=Relay%20Credit"));
    let added = items
        .iter()
        .find(|i| i["title"] == "relay-credit2025: added")
        .expect("the addition");
    assert!(added["url"].as_str().unwrap().contains("#q=Relay%20Credit"));
    let withdrawn = items
        .iter()
        .find(|i| i["title"].as_str().unwrap().ends_with("withdrawn"))
        .unwrap();
    assert!(
        withdrawn["content_text"]
            .as_str()
            .unwrap()
            .contains("<script>"),
        "JSON carries text as text"
    );
    for k in feed.as_object().unwrap().keys() {
        let top = [
            "version",
            "title",
            "description",
            "items",
            "home_page_url",
            "feed_url",
        ];
        assert!(top.contains(&k.as_str()) || k.starts_with('_'), "{k}");
    }
}

#[test]
fn the_atom_feed_has_what_rfc_4287_requires_and_escapes_data() {
    let t = tree();
    t.corpus(&["site"]).assert_code(0);
    let text = t.read("site/feed.atom");
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let feed = doc.root_element();
    assert!(feed.has_tag_name((ATOM, "feed")));
    let one = |n: roxmltree::Node, name: &str| {
        let found: Vec<_> = n
            .children()
            .filter(|c| c.has_tag_name((ATOM, name)))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "exactly one atom:{name} in {:?}",
            n.tag_name()
        );
        found[0].text().unwrap_or("").to_string()
    };
    // atom:feed: one id, title, updated; an author since entries have none.
    one(feed, "id");
    one(feed, "title");
    assert_eq!(one(feed, "updated"), "2026-04-26T00:00:00Z");
    assert_eq!(
        feed.children()
            .filter(|c| c.has_tag_name((ATOM, "author")))
            .count(),
        1
    );
    let entries: Vec<_> = feed
        .children()
        .filter(|c| c.has_tag_name((ATOM, "entry")))
        .collect();
    assert_eq!(entries.len(), 7);
    let mut ids = std::collections::BTreeSet::new();
    for e in &entries {
        assert!(ids.insert(one(*e, "id")), "entry ids are unique");
        one(*e, "title");
        one(*e, "updated");
        // No content element, so an alternate link and a summary are required.
        assert!(e
            .children()
            .any(|c| c.has_tag_name((ATOM, "link")) && c.attribute("rel") == Some("alternate")));
        one(*e, "summary");
    }
    // The note with markup is text inside the summary, not elements.
    let withdrawn = entries
        .iter()
        .find(|e| one(**e, "title").contains("withdrawn"))
        .unwrap();
    assert!(one(*withdrawn, "summary").contains("</summary><script>alert(1)</script> & more"));
    assert!(doc.descendants().all(|n| !n.has_tag_name("script")));
}

#[test]
fn the_feeds_are_the_same_bytes_on_every_run_and_guard_foreign_files() {
    let t = tree();
    t.corpus(&["site"]).assert_code(0);
    let (json, atom) = (t.read("site/feed.json"), t.read("site/feed.atom"));
    t.corpus(&["site"]).assert_code(0);
    assert_eq!(
        (t.read("site/feed.json"), t.read("site/feed.atom")),
        (json, atom.clone())
    );

    t.write("site/feed.json", "{\"mine\": true}\n");
    let run = t.corpus(&["site"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("feed.json exists and was not written by `corpus site`"),
        "{}",
        run.stderr
    );
    assert_eq!(t.read("site/feed.json"), "{\"mine\": true}\n");
    t.corpus(&["site", "--force"]).assert_code(0);
    assert!(t.read("site/feed.json").contains("jsonfeed.org"));

    // A broken status file is an error of the corpus: nothing is written.
    t.write("corpus/status.yaml", "events: [{key: a}]\n");
    t.remove("site/feed.atom");
    let run = t.corpus(&["site"]);
    run.assert_code(1);
    assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
    assert!(!t.path("site/feed.atom").exists());
    // No status file: the feeds hold the list's own changes alone.
    t.remove("corpus/status.yaml");
    t.corpus(&["site"]).assert_code(0);
    let atom = t.read("site/feed.atom");
    assert_eq!(atom.matches("<entry>").count(), 3, "{atom}");
    assert!(!atom.contains("urn:x-corpus-status:"));
}

/// A second reading by an independent library: feed-rs parses both files as
/// the formats they claim to be (JSON Feed 1.1, Atom) and finds every item
/// with its id, title, date and link, as a feed reader would.
#[test]
fn a_feed_library_reads_both_feeds_item_for_item() {
    let t = tree();
    t.corpus(&["site"]).assert_code(0);
    let mut seen = Vec::new();
    for (file, kind) in [
        ("site/feed.json", feed_rs::model::FeedType::JSON),
        ("site/feed.atom", feed_rs::model::FeedType::Atom),
    ] {
        let text = t.read(file);
        let feed = feed_rs::parser::parse(text.as_bytes())
            .unwrap_or_else(|e| panic!("{file} does not parse as a feed: {e}"));
        assert_eq!(feed.feed_type, kind, "{file}");
        assert_eq!(feed.entries.len(), 7, "{file}");
        for e in &feed.entries {
            assert!(!e.id.is_empty(), "{file}: an item without an id");
            assert!(e.title.is_some(), "{file}: {} has no title", e.id);
            assert!(
                e.published.or(e.updated).is_some(),
                "{file}: {} has no date",
                e.id
            );
            assert!(
                e.links.iter().any(|l| l.href.contains("#q=")),
                "{file}: {} links no entry on the page",
                e.id
            );
        }
        let mut ids: Vec<_> = feed.entries.iter().map(|e| e.id.clone()).collect();
        ids.sort();
        seen.push(ids);
    }
    assert_eq!(seen[0], seen[1], "both feeds carry the same items");
}
