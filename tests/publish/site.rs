//! `corpus site`: the page holds every entry and record, loads nothing from
//! elsewhere, counts like `corpus stats`, carries the exported BibTeX, is
//! the same bytes on every run, and never overwrites a file it did not write.
//! (What a reader can do on it is tested in a real browser: tests/browser/.)

use crate::common::{self, run_in, Tree};
use regex::Regex;
use std::collections::BTreeMap;

fn page(t: &Tree) -> String {
    t.corpus(&["site"]).assert_code(0);
    t.read("site/index.html")
}

fn keys(t: &Tree, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["list", "--format", "keys"];
    args.extend_from_slice(extra);
    let run = t.corpus(&args);
    run.assert_code(0);
    run.stdout.lines().map(str::to_string).collect()
}

/// The JSON the page's script reads.
fn page_data(html: &str) -> serde_json::Value {
    let re = Regex::new(r#"(?s)<script type="application/json" id="corpus-data">(.*?)</script>"#)
        .unwrap();
    let text = &re.captures(html).expect("the page carries its data")[1];
    serde_json::from_str(text).expect("the data is JSON")
}

#[test]
fn the_page_holds_every_entry_and_record() {
    let t = Tree::repo_copy();
    let html = page(&t);
    let entries = keys(&t, &[]);
    let records = keys(&t, &["--exclusions"]);
    assert_eq!(entries.len(), 84);
    assert_eq!(records.len(), 32);
    let re = Regex::new(r#"<tr data-key="([^"]+)">"#).unwrap();
    let mut shown: Vec<String> = re.captures_iter(&html).map(|c| c[1].to_string()).collect();
    shown.sort();
    let mut expected: Vec<String> = entries.iter().chain(&records).cloned().collect();
    expected.sort();
    assert_eq!(shown, expected);
    assert!(html.contains(r#"<strong id="count">84</strong>"#));
}

#[test]
fn its_report_counts_the_changes_the_feeds_carry() {
    let t = Tree::repo_copy();
    let run = t.corpus(&["site"]);
    run.assert_code(0);
    let feed: serde_json::Value = serde_json::from_str(&t.read("site/feed.json")).unwrap();
    let n = feed["items"].as_array().expect("the feed has items").len();
    // One per entry of the shipped list (each joined in a round), not one
    // per file written.
    assert_eq!(n, 84);
    assert!(
        run.stdout
            .contains("; feed.json and feed.atom: 84 changes\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_page_loads_nothing_from_elsewhere() {
    let t = Tree::repo_copy();
    let html = page(&t);
    // Only links a reader follows may point away; nothing is fetched on load
    // (the feeds' `<link rel="alternate">` names them for feed readers and
    // is never fetched by the page).
    let fetching = Regex::new(
        r#"(?i)<(script|link|img|iframe|source|video|audio|embed|object|image|use)\b[^>]*\b(src|href|xlink:href)\s*=\s*"([^"]*)""#,
    )
    .unwrap();
    let found: Vec<&str> = fetching
        .captures_iter(&html)
        .filter(|c| !c[3].starts_with("data:"))
        .filter(|c| !(c[1].eq_ignore_ascii_case("link") && c[0].contains(r#"rel="alternate""#)))
        .map(|c| c.get(0).unwrap().as_str())
        .collect();
    assert!(found.is_empty(), "elements that fetch: {found:?}");
    assert!(!html.contains("@import"));
    assert!(!Regex::new(r"url\(").unwrap().is_match(&html));
    assert!(
        html.contains(r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#)
    );
}

/// Text of an HTML attribute as written by Tera's escaping.
fn unescape(s: &str) -> String {
    s.replace("&#x2F;", "/")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn facet_counts_agree_with_corpus_stats() {
    let t = Tree::repo_copy();
    let html = page(&t);
    let stats: serde_json::Value =
        serde_json::from_str(&t.corpus(&["stats", "--format", "json"]).stdout).unwrap();
    let re = Regex::new(
        r#"<input type="checkbox" name="([a-z_]+)" value="([^"]*)" data-i="\d+"><span class="l">[^<]*</span><span class="n">(\d+)</span>"#,
    )
    .unwrap();
    let mut page_counts: BTreeMap<(String, String), u64> = BTreeMap::new();
    for c in re.captures_iter(&html) {
        page_counts.insert((c[1].to_string(), unescape(&c[2])), c[3].parse().unwrap());
    }
    let mut compared = 0;
    for (section, fields) in [
        (
            "counts",
            vec![
                "category",
                "is_rl",
                "reward_family",
                "reward_type",
                "credit_granularity",
                "orchestration_form",
                "subdecisions",
                "scenario",
                "is_core",
                "verified",
            ],
        ),
        ("exclusions", vec!["stage", "source", "query_family"]),
    ] {
        for field in fields {
            let table = stats[section][field]
                .as_object()
                .unwrap_or_else(|| panic!("stats has {section}.{field}"));
            for (value, n) in table {
                let shown = page_counts
                    .get(&(field.to_string(), value.clone()))
                    .unwrap_or_else(|| panic!("the page has no facet value {field}={value}"));
                assert_eq!(Some(*shown), n.as_u64(), "{field}={value}");
                compared += 1;
            }
        }
    }
    assert!(compared > 50, "only {compared} counts compared");
    // Years are counted from the data: each year's facet count is `list --where year=Y`.
    for ((field, value), n) in &page_counts {
        if field == "year" {
            let w = format!("year={value}");
            assert_eq!(keys(&t, &["--where", &w]).len() as u64, *n, "year {value}");
        }
    }
}

#[test]
fn copy_bibtex_carries_the_exported_records() {
    let t = Tree::repo_copy();
    let data = page_data(&page(&t));
    let export = t.corpus(&["export", "--format", "bibtex"]);
    export.assert_code(0);
    let items = data["papers"]["items"].as_array().unwrap();
    let bib = data["papers"]["bib"].as_array().unwrap();
    assert_eq!(items.len(), bib.len());
    let mut by_key: Vec<(&str, &str)> = items
        .iter()
        .zip(bib)
        .map(|(i, b)| (i["k"].as_str().unwrap(), b.as_str().unwrap()))
        .collect();
    by_key.sort();
    // Each record is cited by the entry's cite key, else its key.
    let json = t.corpus(&["export", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let cited: std::collections::BTreeMap<&str, &str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let key = e["key"].as_str().unwrap();
            (key, e["cite_key"].as_str().unwrap_or(key))
        })
        .collect();
    for (key, record) in &by_key {
        let cite = cited[key];
        assert!(
            record.starts_with('@') && record.contains(&format!("{{{cite},\n")),
            "{key}: {record}"
        );
    }
    // Export writes entries in key order: the records, joined, are the export.
    let joined: String = by_key.iter().map(|(_, b)| *b).collect();
    assert_eq!(joined, export.stdout);
}

#[test]
fn the_page_is_the_same_bytes_on_every_run() {
    let t = Tree::repo_copy();
    t.corpus(&["site", "--out", "a"]).assert_code(0);
    t.corpus(&["site", "--out", "b"]).assert_code(0);
    assert_eq!(t.read("a/index.html"), t.read("b/index.html"));
}

#[test]
fn text_from_the_data_cannot_break_the_page() {
    let t = Tree::valid_with_templates();
    t.set(
        common::valid::METHOD,
        "title",
        r#""Credit </script><script>alert(1)</script> & <b>bold</b>""#,
    );
    t.set(
        common::valid::METHOD,
        "one_liner",
        r#""Ends the data early </script><!-- and \u2028 here""#,
    );
    t.corpus(&["build"]).assert_code(0);
    let html = page(&t);
    assert!(!html.contains("<script>alert"));
    assert!(!html.contains("<b>bold"));
    assert!(
        html.contains("&lt;b&gt;bold&lt;&#x2F;b&gt;") || html.contains("&lt;b&gt;bold&lt;/b&gt;")
    );
    // The page keeps exactly its two script elements and its data still parses.
    assert_eq!(html.matches("<script").count(), 2);
    page_data(&html);
}

#[test]
fn out_is_relative_to_the_working_directory() {
    let t = Tree::repo_copy();
    let cwd = Tree::empty();
    let run = run_in(cwd.root(), Some(t.root()), &["site", "--out", "pub"]);
    run.assert_code(0);
    assert!(cwd.path("pub/index.html").is_file());
    assert!(!t.path("site").exists());
    assert!(run.stdout.contains("wrote"), "{}", run.stdout);
}

#[test]
fn a_file_it_did_not_write_is_never_overwritten_without_force() {
    let t = Tree::repo_copy();
    t.write("site/index.html", "my own page");
    let run = t.corpus(&["site"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(t.read("site/index.html"), "my own page");
    t.corpus(&["site", "--force"]).assert_code(0);
    assert!(t
        .read("site/index.html")
        .contains(corpus_core::publish::site::GENERATOR));
    // Its own page it replaces freely.
    t.corpus(&["site"]).assert_code(0);
}

#[test]
fn a_folder_in_the_way_is_refused() {
    let t = Tree::repo_copy();
    std::fs::create_dir_all(t.path("site/index.html")).unwrap();
    t.corpus(&["site", "--force"]).assert_code(2);
    assert!(t.path("site/index.html").is_dir());
}

#[test]
fn a_corpus_with_errors_gets_no_page() {
    let t = Tree::valid_with_templates();
    t.set(common::valid::METHOD, "category", "nonsense");
    let run = t.corpus(&["site"]);
    run.assert_code(1);
    assert!(run.stderr.contains("corpus check"), "{}", run.stderr);
    assert!(!t.path("site").exists());
}

#[test]
fn a_missing_template_is_named() {
    let t = Tree::valid_with_templates();
    t.remove("templates/site.html.tera");
    let run = t.corpus(&["site"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("templates/site.html.tera"),
        "{}",
        run.stderr
    );
    assert!(!t.path("site").exists());
}

#[test]
fn a_template_failing_part_way_replaces_nothing_and_leaves_no_temporary_file() {
    let t = Tree::repo_copy();
    let before = page(&t);
    // Fails only when rendering reaches the end of the page, after the
    // data has been written into the page's temporary file.
    t.replace(
        "templates/site.html.tera",
        "</html>",
        "{{ no_such_value.x }}</html>",
    );
    let run = t.corpus(&["site"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("templates/site.html.tera:") && run.stderr.contains("no_such_value"),
        "{}",
        run.stderr
    );
    assert_eq!(t.read("site/index.html"), before);
    let left: Vec<String> = std::fs::read_dir(t.path("site"))
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".corpus-tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn text_that_spells_the_data_mark_is_shown_as_written() {
    let t = Tree::repo_copy();
    let streamed = page(&t);
    // A YAML escape writes NUL bytes: the list's title spells what a fixed
    // mark for the data's place might be. It stays text, and the data is
    // written once, in the script.
    t.replace(
        "corpus/taxonomy.yaml",
        "  title: Awesome RL for LLM-Based Multi-Agent Systems",
        "  title: \"Awesome RL\\0corpus-site-data\\0 list\"",
    );
    let html = page(&t);
    assert!(
        html.contains("<title>Awesome RL\0corpus-site-data\0 list</title>"),
        "{}",
        &html[..html.len().min(600)]
    );
    assert_eq!(html.matches("\"aliases\":").count(), 1);
    assert_eq!(page_data(&html), page_data(&streamed));
}

#[test]
fn a_template_using_the_data_otherwise_gets_it_whole() {
    let t = Tree::repo_copy();
    let streamed = page(&t);
    // Besides its place in the script, the template asks for the data's
    // length: the data is then handed to it as one text, as it always was.
    t.replace(
        "templates/site.html.tera",
        "{{ data_json | safe }}</script>",
        "{{ data_json | safe }}</script><!-- {{ data_json | length }} -->",
    );
    let whole = page(&t);
    assert_eq!(page_data(&whole), page_data(&streamed));
    let length = &Regex::new(r"<!-- (\d+) -->")
        .unwrap()
        .captures(&whole)
        .unwrap()[1];
    // The length of the JSON text the script element holds.
    let script = Regex::new(r#"(?s)id="corpus-data">(.*?)</script>"#).unwrap();
    let json = &script.captures(&streamed).unwrap()[1];
    assert_eq!(length.parse::<usize>().unwrap(), json.chars().count());
    assert_eq!(whole.replace(&format!("<!-- {length} -->"), ""), streamed);
}

#[test]
fn a_template_whose_row_loops_cannot_be_cut_gets_every_row_at_once() {
    let t = Tree::repo_copy();
    let chunked = page(&t);
    // Counting a list outside its loop needs the whole list: the page is
    // then rendered in one go, and comes out the same.
    t.replace(
        "templates/site.html.tera",
        "{% if entries %}</tbody>{% endif %}",
        "{% if entries | length > 0 %}</tbody>{% endif %}",
    );
    assert_eq!(page(&t), chunked);
}

#[test]
fn an_error_inside_a_row_loop_is_placed_in_the_page_template() {
    let t = Tree::repo_copy();
    t.replace(
        "templates/site.html.tera",
        "<td>{{ e.year }}</td>",
        "<td>{{ e.year.nope }}</td>",
    );
    let line = t.line_of("templates/site.html.tera", "<td>{{ e.year.nope }}</td>");
    let run = t.corpus(&["site"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains(&format!("templates/site.html.tera:{line}:")),
        "{}",
        run.stderr
    );
}

/// The Pages workflow, parsed.
fn pages_workflow() -> serde_yaml::Value {
    let text = std::fs::read_to_string(common::repo().join(".github/workflows/pages.yml"))
        .expect("the Pages workflow exists");
    serde_yaml::from_str(&text).expect("the Pages workflow is YAML")
}

#[test]
fn the_pages_workflow_deploys_what_corpus_site_writes_with_least_privilege() {
    use clap::Parser;
    let wf = pages_workflow();
    // Everything may only read, except the deploy job, which may write to Pages alone.
    let top = wf["permissions"]
        .as_mapping()
        .expect("top-level permissions");
    assert_eq!(top.len(), 1);
    assert_eq!(wf["permissions"]["contents"], "read");
    let deploy = &wf["jobs"]["deploy"];
    let perms = deploy["permissions"]
        .as_mapping()
        .expect("deploy permissions");
    assert_eq!(perms.len(), 2);
    assert_eq!(deploy["permissions"]["pages"], "write");
    assert_eq!(deploy["permissions"]["id-token"], "write");
    assert!(wf["jobs"]["build"]["permissions"].is_null());
    let on_main = &wf["on"]["push"]["branches"];
    assert_eq!(on_main[0], "main");

    let steps = wf["jobs"]["build"]["steps"]
        .as_sequence()
        .expect("build steps");
    let site_run = steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .find(|r| r.contains("corpus site"))
        .expect("the build job runs `corpus site`");
    let words: Vec<&str> = site_run.split_whitespace().collect();
    let mut argv = vec!["corpus"];
    argv.extend(&words[1..]);
    let cli = corpus::cli::Cli::try_parse_from(&argv).expect("the CLI accepts the invocation");
    let corpus::cli::Command::Site(args) = cli.command else {
        panic!("not `corpus site`: {site_run}");
    };
    let out = args.out.expect("--out names the folder it uploads");
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/upload-pages-artifact@"))
        })
        .expect("the build job uploads a Pages artifact");
    assert_eq!(upload["with"]["path"].as_str(), out.to_str());
    let deploys = deploy["steps"][0]["uses"].as_str().unwrap_or_default();
    assert!(deploys.starts_with("actions/deploy-pages@"), "{deploys}");
}

#[test]
fn the_page_carries_what_the_address_filters_test() {
    let t = Tree::valid_with_templates();
    let data = page_data(&page(&t));
    let fields: Vec<&str> = data["papers"]["fields"]
        .as_array()
        .expect("the fields of --where")
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for f in ["title", "year", "reward_type", "is_rl", "subdecisions"] {
        assert!(fields.contains(&f), "{f} not among {fields:?}");
    }
    let aliases = data["aliases"].as_array().expect("the aliases");
    assert!(aliases.contains(&serde_json::json!(["reward", "reward_type"])));
    let year = fields.iter().position(|f| *f == "year").unwrap();
    let subs = fields.iter().position(|f| *f == "subdecisions").unwrap();
    let items = data["papers"]["items"].as_array().unwrap();
    let relay = items
        .iter()
        .find(|i| i["k"] == "relay-credit2025")
        .expect("the entry's row");
    assert_eq!(relay["f"][year], "2025", "values as the filter reads them");
    assert!(relay["f"][subs].is_array(), "list fields stay lists");
    assert!(data["exclusions"]["fields"].as_array().unwrap().len() > 3);
}
