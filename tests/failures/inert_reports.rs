//! Every report is inert. Hostile strings (HTML that closes a link and opens
//! a heading, table pipes, backticks, a GitHub workflow command, `%0A`, real
//! line breaks, an escape sequence) are put in every place a user or a
//! server controls: data fields, URLs, file names, trace ids, CSV headers, an
//! arXiv record and a redirect's `Location`. Every format of every command
//! that reports them must keep them text: no tag or table cell of their own
//! in Markdown or HTML, and no annotation split or forged on GitHub.

use crate::common::server::{Reply, Request, Server};
use crate::common::{run_in, valid, Run, Tree};
use regex::Regex;

/// Markup, table pipes, code spans, a workflow command and an encoded line break.
const HOSTILE: &str = "x</a><h1>h</h1><img src=x>|a|b`code`::error::oops%0Adone";
/// The same with a real line break starting a forged annotation.
const HOSTILE_LINES: &str = "y</a>|`z`\n::error file=forged.yaml::injected\r\n|c|";

/// Text as a double-quoted YAML scalar.
fn yaml(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text of a Markdown line outside its code spans, or None when a
/// backtick is left open (a raw backtick got through).
fn outside_code(line: &str) -> Option<String> {
    let (mut out, mut in_code, mut chars) = (String::new(), false, line.chars());
    while let Some(c) = chars.next() {
        match c {
            '\\' if !in_code => {
                out.push(c);
                out.extend(chars.next());
            }
            '`' => in_code = !in_code,
            c if !in_code => out.push(c),
            _ => {}
        }
    }
    (!in_code).then_some(out)
}

/// `|` that split table cells (not written `\|`).
fn cell_separators(line: &str) -> usize {
    let b = line.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

fn assert_markdown_inert(what: &str, md: &str) {
    let tag = Regex::new(r"<[A-Za-z/!?]").expect("regex");
    let mut columns: Option<usize> = None;
    for line in md.lines() {
        let outside = outside_code(line)
            .unwrap_or_else(|| panic!("{what}: a backtick opens a code span: {line:?}\n{md}"));
        assert!(
            !tag.is_match(&outside),
            "{what}: raw HTML in {line:?}\n{md}"
        );
        if line.starts_with('|') {
            let n = cell_separators(line);
            assert_eq!(
                *columns.get_or_insert(n),
                n,
                "{what}: a row with cells of its own: {line:?}\n{md}"
            );
        } else {
            columns = None;
        }
    }
    assert!(
        !md.contains("a|b"),
        "{what}: a raw pipe from the data:\n{md}"
    );
}

fn assert_github_inert(what: &str, out: &str) {
    let one = Regex::new(
        r"^::(error|warning|notice) file=[^,:]*(,line=\d+)?(,col=\d+)?,title=[^,:]*::[^\r]*$",
    )
    .expect("regex");
    for line in out.lines() {
        assert!(
            one.is_match(line),
            "{what}: not one whole annotation: {line:?}\n{out}"
        );
    }
    assert!(
        !out.contains("oops%0Adone"),
        "{what}: a %0A from the data would become a line break:\n{out}"
    );
}

fn assert_json_lines(what: &str, out: &str) {
    for line in out.lines().filter(|l| !l.trim().is_empty()) {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {line:?}"));
    }
}

fn assert_human_inert(what: &str, out: &str) {
    assert!(
        !out.contains('\u{1b}'),
        "{what}: an escape sequence reaches the terminal:\n{out}"
    );
}

/// Checks one run's output in its format; `shown` says the hostile text must appear.
fn assert_inert(what: &str, format: &str, run: &Run) {
    let out = &run.stdout;
    match format {
        "markdown" => assert_markdown_inert(what, out),
        "github" => assert_github_inert(what, out),
        "json" => assert_json_lines(what, out),
        _ => assert_human_inert(what, out),
    }
    assert_human_inert(what, &run.stderr);
}

/// A GitHub report holds one annotation per diagnostic of the JSON report:
/// no line break in the data made one more.
fn assert_one_annotation_each(what: &str, json: &Run, github: &Run) {
    let (j, g) = (json.stdout.lines().count(), github.stdout.lines().count());
    assert!(j > 0, "{what}: no diagnostics");
    assert_eq!(
        j, g,
        "{what}: {j} diagnostics, {g} annotations:\n{}",
        github.stdout
    );
}

/// The valid fixture with hostile text in fields, a URL, a stray file's name
/// and a value the taxonomy does not list.
fn hostile_tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::INDUSTRY, "title", &yaml(HOSTILE));
    t.set(valid::INDUSTRY, "affiliation", &yaml(HOSTILE_LINES));
    t.set(
        valid::INDUSTRY,
        "notes",
        &yaml("\u{1b}[2J\u{1b}]0;owned\u{7}"),
    );
    t.set(valid::INDUSTRY, "scenario", &yaml(HOSTILE));
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        &yaml(&format!("https://127.0.0.1:1/{HOSTILE}")),
    );
    t.write(
        &format!("corpus/papers/{}.txt", HOSTILE_LINES.replace('/', "∕")),
        "a stray file with a hostile name",
    );
    t
}

#[test]
fn check_reports_hostile_data_inertly_in_every_format() {
    let t = hostile_tree();
    let json = t.check(&[]);
    let rules = json.rules();
    for rule in [
        "url-scheme",
        "unknown-value",
        "control-character",
        "stray-file",
    ] {
        assert!(rules.iter().any(|r| r == rule), "{rule} not in {rules:?}");
    }
    for format in ["human", "json", "github"] {
        let run = t.corpus(&["check", "--format", format]);
        run.assert_code(1);
        assert_inert(&format!("check --format {format}"), format, &run);
    }
    let github = t.corpus(&["check", "--format", "github"]);
    assert_one_annotation_each("check", &json, &github);
}

#[test]
fn links_reports_a_hostile_url_inertly_in_every_format() {
    let t = hostile_tree();
    for format in ["human", "json", "github", "markdown"] {
        let run = t.corpus(&["links", "--offline", "--format", format]);
        run.assert_code(1);
        assert!(
            run.stdout.contains("h1"),
            "links --format {format}: {}",
            run.stdout
        );
        assert_inert(&format!("links --offline --format {format}"), format, &run);
    }
    // Its JSON holds one object per URL: a diagnostic per place of each not ok.
    let json = t.corpus(&["links", "--offline", "--format", "json"]);
    let reported: usize = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["status"] != "ok" && v["status"] != "skipped")
        .map(|v| v["where"].as_array().map_or(0, Vec::len))
        .sum();
    let github = t.corpus(&["links", "--offline", "--format", "github"]);
    assert_eq!(reported, 1, "{}", json.stdout);
    assert_eq!(github.stdout.lines().count(), reported, "{}", github.stdout);
}

/// The valid fixture whose every link leads to `server`, the method entry's to `path`.
fn tree_on(server: &Server, path: &str) -> Tree {
    let t = Tree::valid();
    t.replace(
        valid::METHOD,
        "https://arxiv.org/abs/2503.01230",
        &server.url(path),
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
        t.replace(file, old, &server.url("/ok"));
    }
    t.set(valid::ARXIV_RECORD, "url", &server.url("/ok"));
    t.set(valid::DOCS_RECORD, "url", &server.url("/ok"));
    t
}

#[test]
fn links_reports_a_hostile_location_header_inertly_in_every_format() {
    let server = Server::start(|r: &Request| match r.path {
        "/ok" => Reply::status(200),
        "/moved" => Reply::redirect(302, &format!("/next{HOSTILE}")),
        _ => Reply::status(404),
    });
    let t = tree_on(&server, "/moved");
    for format in ["human", "json", "github", "markdown"] {
        let run = t.corpus(&[
            "links",
            "--format",
            format,
            "--timeout",
            "5",
            "--retries",
            "0",
            "--cache",
            "c.json",
        ]);
        let _ = std::fs::remove_file(t.path("c.json"));
        run.assert_code(1);
        assert!(
            run.stdout.contains("/next"),
            "links --format {format}: {}",
            run.stdout
        );
        assert_inert(&format!("links --format {format} (Location)"), format, &run);
    }
    // The location is followed, percent-encoded, as a browser sends it.
    assert!(server
        .hits()
        .iter()
        .any(|h| h.target.starts_with("/nextx%3C/a%3E%3Ch1%3E")));
}

/// An arXiv API double whose one record has a hostile title and first author.
fn hostile_api() -> Server {
    let xml = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let feed = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\">\n<opensearch:totalResults>1</opensearch:totalResults>\n<entry>\n<id>http://arxiv.org/abs/2503.01230v1</id>\n<published>2025-03-03T10:00:00Z</published>\n<updated>2025-03-03T10:00:00Z</updated>\n<title>{}</title>\n<summary>s</summary>\n<author><name>{}</name></author>\n</entry>\n</feed>\n",
        xml(HOSTILE),
        xml(&format!("Ada {HOSTILE_LINES}"))
    );
    Server::start(move |r: &Request| match r.path {
        "/api/query" => Reply::body("application/atom+xml", &feed),
        _ => Reply::status(404),
    })
}

#[test]
fn verify_reports_a_hostile_arxiv_record_inertly_in_every_format() {
    let api = hostile_api();
    let t = Tree::valid();
    let url = api.url("/api/query");
    for format in ["human", "json", "github"] {
        let run = t.corpus(&[
            "verify",
            "--arxiv-api",
            &url,
            "--pause",
            "0",
            "--timeout",
            "5",
            "--format",
            format,
        ]);
        run.assert_code(1);
        assert!(
            run.stdout.contains("h1"),
            "verify --format {format}: {}",
            run.stdout
        );
        assert_inert(&format!("verify --format {format}"), format, &run);
    }
    let run = |f: &str| {
        t.corpus(&[
            "verify",
            "--arxiv-api",
            &url,
            "--pause",
            "0",
            "--timeout",
            "5",
            "--format",
            f,
        ])
    };
    assert_one_annotation_each("verify", &run("json"), &run("github"));
}

#[test]
fn diff_reports_hostile_changes_inertly_in_every_format() {
    let old = Tree::valid();
    let new = Tree::valid();
    new.set(valid::INDUSTRY, "title", &yaml(HOSTILE));
    new.set(valid::INDUSTRY, "notes", &yaml(HOSTILE_LINES));
    new.write(
        &format!("corpus/papers/{}.yaml", HOSTILE.replace('/', "∕")),
        new.read(valid::CLASSICAL)
            .replace("key: grid-foraging1999", &format!("key: {}", yaml(HOSTILE))),
    );
    // A claim whose id is hostile: it shows among the edited checks and
    // among the claims that moved.
    let ledger = |id: &str| {
        format!("claims:\n  - id: {}\n    source: this_project\n    statement: {}\n    where: {{is_rl: \"yes\"}}\n    expect: {{count: \">= 1\"}}\n    boundary: Counts tagged entries only.\n", yaml(id), yaml(HOSTILE))
    };
    old.write("corpus/claims.yaml", ledger("rl-count"));
    new.write("corpus/claims.yaml", ledger(HOSTILE));
    let old_root = old.root().to_string_lossy().into_owned();
    for format in ["text", "json", "markdown"] {
        let run = new.corpus(&["diff", &old_root, "--format", format]);
        assert!(
            run.stdout.contains("h1"),
            "diff --format {format}: {}",
            run.stdout
        );
        let format = if format == "json" {
            "json-document"
        } else {
            format
        };
        if format == "json-document" {
            serde_json::from_str::<serde_json::Value>(&run.stdout).expect("one JSON document");
        }
        assert_inert(&format!("diff --format {format}"), format, &run);
    }
}

#[test]
fn trace_validate_reports_hostile_ids_and_file_names_inertly_in_every_format() {
    let dir = crate::common::scratch();
    let name = format!("{}.json", HOSTILE_LINES.replace('/', "∕"));
    let trace = serde_json::json!({
        "trace_id": HOSTILE,
        "task_id": HOSTILE_LINES,
        "events": [
            {"id": HOSTILE, "t": 0, "type": "orchestrator_decision", "agent": HOSTILE_LINES}
        ],
        "edges": [{"src": HOSTILE, "dst": HOSTILE_LINES, "type": "causal"}],
        "rewards": {},
        "costs": {"tokens": 1, "wall_clock_s": 1}
    });
    std::fs::write(dir.path().join(&name), trace.to_string()).expect("write trace");
    for format in ["human", "json", "github"] {
        let run = run_in(
            dir.path(),
            None,
            &["trace", "validate", &name, "--format", format],
        );
        run.assert_code(1);
        assert!(run.stdout.contains("trace-dangling-edge"), "{}", run.stdout);
        assert_inert(&format!("trace validate --format {format}"), format, &run);
    }
    let run = |f: &str| {
        run_in(
            dir.path(),
            None,
            &["trace", "validate", &name, "--format", f],
        )
    };
    assert_one_annotation_each("trace validate", &run("json"), &run("github"));
}

#[test]
fn import_reports_hostile_columns_and_file_names_inertly() {
    let t = Tree::valid();
    let name = format!("{}.csv", HOSTILE_LINES.replace('/', "∕"));
    std::fs::write(t.path(&name), format!("key,title,\"{}\"\nk,T,v\n", HOSTILE))
        .expect("write csv");
    let run = t.corpus(&["import", "--papers", &name]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("h1") || run.stderr.contains("h1"),
        "{run:?}"
    );
    assert_inert("import", "human", &run);
}

#[test]
fn the_site_and_the_readme_show_hostile_data_as_text() {
    let t = Tree::valid_with_templates();
    t.set(valid::INDUSTRY, "title", &yaml(HOSTILE));
    t.set(valid::INDUSTRY, "affiliation", &yaml(HOSTILE));
    t.set(valid::INDUSTRY, "one_liner", &yaml(HOSTILE));
    t.corpus(&["build"]).assert_code(0);
    t.corpus(&["site"]).assert_code(0);
    let html = t.read("site/index.html");
    let readme = t.read("README.md");
    assert!(
        html.contains("h1&gt;") || html.contains("\\u003ch1"),
        "the title is on the page"
    );
    assert!(readme.contains("h1"), "the title is in the README");
    // Both carry markup of their own, so the test looks for the data's (in
    // HTML a pipe or a backtick is only text).
    for raw in ["<h1>h</h1>", "<img src=x>", "</a><h1>"] {
        assert!(!html.contains(raw), "site: `{raw}` unescaped");
    }
    for raw in ["<h1>h</h1>", "<img src=x>", "</a><h1>", "a|b", "`code`"] {
        assert!(!readme.contains(raw), "README.md: `{raw}` unescaped");
    }
}

#[test]
fn the_checkers_themselves_catch_what_they_look_for() {
    // Each assertion above fails on the raw text it guards against.
    let fails = |f: fn(&str, &str), text: &'static str| {
        std::panic::catch_unwind(move || f("probe", text)).is_err()
    };
    assert!(fails(assert_markdown_inert, "| a | x</a><h1>h</h1> |\n"));
    assert!(fails(
        assert_markdown_inert,
        "| a | b |\n|---|---|\n| a|b | c |\n"
    ));
    assert!(fails(assert_markdown_inert, "| a | `code |\n"));
    assert!(fails(
        assert_github_inert,
        "::error file=a,title=r::x\n::error file=forged.yaml::injected\n"
    ));
    assert!(fails(
        assert_github_inert,
        "::error file=a,title=r::oops%0Adone\n"
    ));
    assert!(!fails(
        assert_markdown_inert,
        "| a | `x<h1>` \\| &lt;h1&gt; |\n"
    ));
    assert!(!fails(
        assert_github_inert,
        "::error file=a,line=2,title=r::x%0Ay %250A\n"
    ));
}
