//! The generated README.md: its links resolve, it lists every entry under
//! the right heading, and text from the data cannot break its Markdown.

use crate::common::{self, repo, valid, Tree};
use regex::Regex;
use std::collections::{BTreeMap, HashMap};

// ---------------------------------------------------------------------------
// A small, independent model of how GitHub renders what we need

/// Lines outside fenced code blocks, with their 1-based numbers.
fn prose_lines(md: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (i, line) in md.lines().enumerate() {
        let t = line.trim_start();
        let marker = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// The text GitHub shows for inline Markdown: backslash escapes and the
/// entities the renderer uses resolved, code spans and emphasis markers gone.
fn rendered_text(md: &str) -> String {
    let mut out = String::new();
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| n.is_ascii_punctuation()) => {
                out.push(chars.next().expect("peeked"));
            }
            '`' | '*' => {}
            c => out.push(c),
        }
    }
    out.replace("&#124;", "|")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// GitHub's heading anchor: lowercase; drop punctuation except '-' and '_';
/// each space becomes '-'.
fn github_slug(heading_text: &str) -> String {
    heading_text
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every heading's base anchor in document order (before numbering).
fn heading_slugs(md: &str) -> Vec<String> {
    let heading = Regex::new(r"^#{1,6}\s+(.*?)\s*#*\s*$").unwrap();
    prose_lines(md)
        .into_iter()
        .filter_map(|(_, line)| heading.captures(line))
        .map(|c| github_slug(&rendered_text(&c[1])))
        .collect()
}

/// Every heading's anchor in document order, duplicates numbered -1, -2, …
fn anchors(md: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    heading_slugs(md)
        .into_iter()
        .map(|base| {
            let n = seen.entry(base.clone()).or_insert(0);
            let a = if *n == 0 { base } else { format!("{base}-{n}") };
            *n += 1;
            a
        })
        .collect()
}

/// Every in-page link target `](#…)` with its line.
fn anchor_links(md: &str) -> Vec<(usize, String)> {
    let link = Regex::new(r"\]\(#([^)\s]*)\)").unwrap();
    prose_lines(md)
        .into_iter()
        .flat_map(|(n, line)| {
            link.captures_iter(line)
                .map(move |c| (n, c[1].to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `|` characters not escaped by a backslash.
fn unescaped_pipes(line: &str) -> usize {
    let mut n = 0;
    let mut escaped = false;
    for c in line.chars() {
        if c == '|' && !escaped {
            n += 1;
        }
        escaped = c == '\\' && !escaped;
    }
    n
}

#[test]
fn the_anchor_model_follows_githubs_rules() {
    assert_eq!(github_slug("Quick start"), "quick-start");
    assert_eq!(
        github_slug("RL and Post-Training Methods (42)"),
        "rl-and-post-training-methods-42"
    );
    assert_eq!(github_slug("Frameworks & Systems"), "frameworks--systems");
    assert_eq!(github_slug("snake_case: yes!"), "snake_case-yes");
    assert_eq!(
        anchors("# A\n## A\n```sh\n# not a heading\n```\n### A\n"),
        ["a", "a-1", "a-2"]
    );
    assert_eq!(rendered_text(r"\*a\* &amp; `b`"), "*a* & b");
}

// ---------------------------------------------------------------------------
// The committed README.md

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

#[test]
fn every_in_page_link_of_the_readme_resolves_to_a_heading() {
    let md = readme();
    let targets = anchors(&md);
    let links = anchor_links(&md);
    assert!(
        links.len() >= 10,
        "the table of contents links its sections"
    );
    let broken: Vec<String> = links
        .iter()
        .filter(|(_, a)| !targets.contains(a))
        .map(|(n, a)| format!("line {n}: #{a}"))
        .collect();
    assert!(
        broken.is_empty(),
        "links to no heading: {broken:?}\nheadings: {targets:?}"
    );
}

#[test]
fn readme_headings_are_unique_so_no_anchor_needs_a_number() {
    let slugs = heading_slugs(&readme());
    let mut seen = std::collections::BTreeSet::new();
    let repeated: Vec<&String> = slugs.iter().filter(|s| !seen.insert(*s)).collect();
    assert!(repeated.is_empty(), "repeated headings: {repeated:?}");
}

/// Entry titles from the data, by category id.
fn titles_by_category() -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in std::fs::read_dir(repo().join("corpus/papers")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let v: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        out.entry(v["category"].as_str().unwrap().to_string())
            .or_default()
            .push(v["title"].as_str().unwrap().to_string());
    }
    out
}

/// Category id -> display label, from the taxonomy.
fn category_labels() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).unwrap();
    let v: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    v["category"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["label"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// An entry line in awesome-list form, `- [Title](url) - …`; captures the title as written.
const ENTRY_ITEM: &str = r"^- \[((?:\\.|[^\\\]])+)\]\(https?://[^)]*\) - ";

/// The entries of each `### heading` section: heading -> titles as shown.
fn sections(md: &str) -> Vec<(String, Vec<String>)> {
    let item = Regex::new(ENTRY_ITEM).unwrap();
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    // Only the sub-sections of "Papers by Category" are categories.
    let mut in_papers = false;
    for (_, line) in prose_lines(md) {
        if let Some(h) = line.strip_prefix("### ").filter(|_| in_papers) {
            out.push((rendered_text(h), Vec::new()));
        } else if line.starts_with("## ") || line.starts_with("# ") {
            in_papers = line.starts_with("## Papers by Category");
            out.push((String::new(), Vec::new()));
        } else if let Some(c) = item.captures(line) {
            if let Some(last) = out.last_mut() {
                last.1.push(rendered_text(&c[1]));
            }
        }
    }
    out.retain(|(h, _)| !h.is_empty());
    out
}

#[test]
fn every_entry_appears_under_the_heading_of_its_category() {
    let md = readme();
    let sections = sections(&md);
    let by_cat = titles_by_category();
    let mut total = 0;
    for (id, label) in category_labels() {
        let titles = by_cat.get(&id).cloned().unwrap_or_default();
        let heading = format!("{label} ({})", titles.len());
        let shown = sections
            .iter()
            .find(|(h, _)| *h == heading)
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("no heading `### {heading}`"));
        let mut want = titles.clone();
        want.sort();
        let mut got = shown.clone();
        got.sort();
        assert_eq!(got, want, "entries under `{heading}`");
        total += titles.len();
    }
    assert_eq!(total, common::yaml_files("corpus/papers"));
}

#[test]
fn category_headings_are_in_taxonomy_order_and_counted_like_stats() {
    let md = readme();
    let run = common::run_in(&repo(), Some(&repo()), &["stats", "--format", "json"]);
    let stats: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let expected: Vec<String> = category_labels()
        .into_iter()
        .map(|(id, label)| {
            let n = stats["counts"]["category"][&id].as_u64().unwrap();
            format!("{label} ({n})")
        })
        .collect();
    let headings: Vec<String> = sections(&md).into_iter().map(|(h, _)| h).collect();
    assert_eq!(headings, expected);
}

// ---------------------------------------------------------------------------
// Markdown escaping: hostile text in a temporary corpus, rendered with the
// repository's templates.

const HOSTILE_TITLE: &str =
    "Pipes | and *stars* and _under_ [x](y) <script>alert(1)</script> and a `tick`";

/// The valid fixture whose core RL method (shown in the entry list and as a
/// representative in the topology and reward tables) has a hostile title and
/// one-liner, rendered to README.md.
fn hostile_readme() -> String {
    let t = Tree::valid_with_templates();
    // The survey file names the method as a representative and in a figure.
    t.write(
        "corpus/survey.yaml",
        "paper:\n  title: A Fixture Survey\n  authors: [\"Doe, Jane\"]\n  year: 2026\n  arxiv_id: \"2601.00001\"\n  artifact: https://example.org/artifact\n  snapshot: \"2026-01-02\"\nfigures:\n  - id: subs\n    title: Sub-decisions\n    field: subdecisions\n    levels:\n      - value: o2_delegate\n        entries: [relay-credit2025]\nmeasures_note: E1 is the task outcome.\nbenchmark_gap: []\nrepresentatives:\n  - {field: orchestration_form, value: centralized, entries: [relay-credit2025]}\n  - {field: reward_family, value: R1, entries: [relay-credit2025]}\n",
    );
    t.set(valid::METHOD, "subdecisions_source", "[survey_figure]");
    t.set(valid::METHOD, "title", &format!("'{HOSTILE_TITLE}'"));
    t.set(
        valid::METHOD,
        "one_liner",
        "'<img src=x onerror=alert(1)> | a cell | <b>bold</b>'",
    );
    let run = t.corpus(&["render"]);
    run.assert_code(0);
    t.read("README.md")
}

fn hostile_entry_line(md: &str) -> String {
    md.lines()
        .find(|l| l.contains("Pipes") && Regex::new(ENTRY_ITEM).unwrap().is_match(l))
        .expect("the hostile entry is listed")
        .to_string()
}

#[test]
fn script_tags_from_the_data_do_not_reach_the_readme() {
    let md = hostile_readme();
    assert!(!md.to_lowercase().contains("<script"), "{md}");
}

#[test]
fn no_raw_html_from_the_data_reaches_the_readme() {
    let md = hostile_readme();
    assert!(!md.contains("<img"));
    assert!(!md.contains("<b>"));
}

#[test]
fn a_pipe_in_a_title_does_not_break_the_entry_line() {
    let md = hostile_readme();
    assert_eq!(unescaped_pipes(&hostile_entry_line(&md)), 0);
}

#[test]
fn a_pipe_in_a_title_does_not_break_any_table() {
    let md = hostile_readme();
    let rows_with_title = prose_lines(&md)
        .iter()
        .filter(|(_, l)| l.starts_with('|') && l.contains("Pipes"))
        .count();
    assert!(
        rows_with_title >= 2,
        "the title is a representative in the topology and reward tables"
    );
    let mut header_cells: Option<usize> = None;
    for (n, line) in prose_lines(&md) {
        if !line.starts_with('|') {
            header_cells = None;
            continue;
        }
        let cells = unescaped_pipes(line);
        match header_cells {
            None => header_cells = Some(cells),
            Some(h) => assert_eq!(cells, h, "line {n} has a different cell count: {line}"),
        }
    }
}

#[test]
fn emphasis_characters_in_a_title_are_escaped() {
    let line = hostile_entry_line(&hostile_readme());
    assert!(line.contains(r"\*stars\*"), "{line}");
    assert!(line.contains(r"\_under\_"), "{line}");
}

#[test]
fn link_syntax_in_a_title_is_escaped() {
    let line = hostile_entry_line(&hostile_readme());
    assert!(line.contains(r"\[x\](y)"), "{line}");
    assert!(!line.contains("[x](y)"), "{line}");
}

#[test]
fn a_backtick_in_a_title_is_escaped() {
    let line = hostile_entry_line(&hostile_readme());
    assert!(line.contains(r"\`tick\`"), "{line}");
}

#[test]
fn an_escaped_title_renders_back_to_the_original_text() {
    let line = hostile_entry_line(&hostile_readme());
    let title = Regex::new(ENTRY_ITEM)
        .unwrap()
        .captures(&line)
        .expect("linked title")[1]
        .to_string();
    // Every special character is escaped, so none of them is lost as markup.
    assert_eq!(rendered_text(&title), HOSTILE_TITLE);
}

#[test]
fn render_refuses_an_entry_whose_link_is_not_http() {
    let t = Tree::valid_with_templates();
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        "javascript:alert(1)",
    );
    let run = t.corpus(&["render"]);
    run.assert_code(1);
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains("url-scheme"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(!t.path("README.md").exists(), "nothing was written");
}

#[test]
fn a_javascript_url_never_becomes_a_link_even_when_rendering_unchecked_data() {
    // `render` refuses such data; this renders it through the library,
    // bypassing the check, to prove the renderer itself drops the link.
    let t = Tree::valid_with_templates();
    t.replace(
        valid::INDUSTRY,
        "  - https://harbor.example.com/blog/agent-platform",
        "  - javascript:alert(1)\n  - https://harbor.example.com/blog/agent-platform",
    );
    let corpus = corpus_core::load::load(t.root(), corpus_core::load::LoadOptions::default())
        .expect("the corpus loads");
    let templates = corpus_core::load::templates::read(t.root()).expect("templates");
    let files = corpus_core::publish::generate::generate(
        &corpus,
        &templates,
        &[],
        corpus_core::publish::generate::Part::Readme,
    )
    .expect("README renders");
    let md = &files
        .iter()
        .find(|f| f.path == "README.md")
        .expect("README.md is generated")
        .content;
    assert!(md.contains("Harbor Ops Agent Platform"));
    assert!(!md.contains("javascript:"), "{md}");
    assert!(md.contains("](https://harbor.example.com/blog/agent-platform)"));
}

#[test]
fn a_url_that_tries_to_close_its_link_cannot_open_another() {
    let t = Tree::valid_with_templates();
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        "https://harbor.example.com/x)[click](javascript:alert(1)",
    );
    let run = t.corpus(&["render"]);
    run.assert_code(0);
    let md = t.read("README.md");
    assert!(!md.contains("](javascript:"), "{md}");
    let line = md
        .lines()
        .find(|l| l.contains("harbor.example.com"))
        .expect("the link is shown");
    let target = Regex::new(r"\]\((https://harbor\.example\.com[^)\s]*)\)")
        .unwrap()
        .captures(line)
        .expect("a link to the page")[1]
        .to_string();
    assert!(!target.contains('('), "{target}");
}

#[test]
fn every_chart_has_alt_text_that_says_what_it_shows() {
    let md = readme();
    let img = Regex::new(r"!\[([^\]]*)\]\(stats/(chart_[a-z0-9_]+\.svg)\)").unwrap();
    let charts: Vec<(String, String)> = img
        .captures_iter(&md)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    assert_eq!(charts.len(), 6, "{charts:?}");
    for (alt, file) in &charts {
        assert!(
            !alt.contains(".svg") && alt.len() > 40,
            "{file}: alt `{alt}`"
        );
        let svg = std::fs::read_to_string(repo().join("stats").join(file)).unwrap();
        assert!(svg.contains("<title>") && svg.contains("<desc>"), "{file}");
    }
    let reward = &charts
        .iter()
        .find(|(_, f)| f == "chart_reward_family.svg")
        .unwrap()
        .0;
    assert!(
        reward.contains("R1 Shared team"),
        "families are named: {reward}"
    );
    assert!(reward.contains("not to scale: NA"), "NA is apart: {reward}");
    let flow = &charts
        .iter()
        .find(|(_, f)| f == "chart_prisma_2020.svg")
        .unwrap()
        .0;
    assert!(
        flow.contains("The survey's screening") && flow.contains("not reported"),
        "the rounds' labels, and what the log does not hold: {flow}"
    );
}

#[test]
fn the_install_line_names_the_published_repository_and_the_hooks_exist() {
    // The tool's documentation is written by hand, so this keeps its one
    // sentence about the data (where the list is published) true.
    let md = std::fs::read_to_string(repo().join("docs/tooling.md")).expect("docs/tooling.md");
    let tax = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).unwrap();
    let tax = corpus_core::model::taxonomy::Taxonomy::from_yaml(&tax).unwrap();
    let line = format!(
        "cargo install --locked --git {} corpus",
        corpus_core::publish::repository::repository_url(&tax.repository)
    );
    assert!(md.contains(&line), "docs/tooling.md lacks `{line}`");
    assert!(!md.contains("<clone URL"), "no placeholder in the README");
    let hooks = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: serde_yaml::Value = serde_yaml::from_str(&hooks).unwrap();
    let ids: Vec<&str> = hooks
        .as_sequence()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["corpus-check", "corpus-fmt"]);
    let package = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    assert!(
        package.contains("name = \"corpus\""),
        "the crate installs as `corpus`"
    );
}

// ---------------------------------------------------------------------------
// The README's shape for its readers (issue 23): the papers come first, the
// Contents list every section, headings share one case, entry lines stay short.

/// `## ` and `### ` headings outside code, with their level, as shown.
fn headings(md: &str) -> Vec<(usize, String)> {
    prose_lines(md)
        .into_iter()
        .filter_map(|(_, l)| {
            let level = l.chars().take_while(|&c| c == '#').count();
            (2..=3)
                .contains(&level)
                .then(|| l[level..].strip_prefix(' '))
                .flatten()
                .map(|h| (level, rendered_text(h)))
        })
        .collect()
}

/// Title Case as the taxonomy's category labels write it: every word but
/// the short joining ones starts with a capital (or is not a word).
fn is_title_case(heading: &str) -> bool {
    const MINOR: [&str; 12] = [
        "a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to",
    ];
    heading.split([' ', '-']).enumerate().all(|(i, w)| {
        let first = w.chars().next();
        (i > 0 && MINOR.contains(&w)) || !first.is_some_and(char::is_lowercase)
    })
}

#[test]
fn the_title_case_model_tells_the_cases_apart() {
    assert!(is_title_case("RL and Post-Training Methods (42)"));
    assert!(is_title_case("The Survey's Abstract"));
    assert!(!is_title_case("At a glance"));
    assert!(!is_title_case("Orchestration sub-decisions"));
}

#[test]
fn every_heading_of_the_readme_is_in_title_case() {
    let wrong: Vec<String> = headings(&readme())
        .into_iter()
        .filter(|(_, h)| !is_title_case(h))
        .map(|(_, h)| h)
        .collect();
    assert!(wrong.is_empty(), "headings not in Title Case: {wrong:?}");
}

#[test]
fn the_contents_list_every_section_in_order_and_the_papers_come_first() {
    let md = readme();
    let after_contents = md
        .split("\n## Contents\n")
        .nth(1)
        .expect("a Contents section");
    let (toc, body) = after_contents
        .split_once("\n## ")
        .expect("sections after Contents");
    let link = Regex::new(r"^(\s*)- \[([^\]]+)\]\(#([^)]+)\)$").unwrap();
    let listed: Vec<(usize, String)> = toc
        .lines()
        .filter_map(|l| link.captures(l))
        .map(|c| (if c[1].is_empty() { 2 } else { 3 }, rendered_text(&c[2])))
        .collect();
    // The sections the Contents must list: every `##` after it, and the
    // categories (`###`) under Papers by Category.
    let mut want = Vec::new();
    let mut in_papers = false;
    for (level, h) in headings(&format!("## {body}")) {
        if level == 2 {
            in_papers = h == "Papers by Category";
            want.push((2, h));
        } else if in_papers {
            want.push((3, h));
        }
    }
    assert_eq!(listed, want);
    assert_eq!(want[0], (2, "Papers by Category".to_string()));
    assert!(
        want.iter().any(|(_, h)| h == "How to Contribute"),
        "the contributing section is listed too: {want:?}"
    );
}

#[test]
fn an_entry_line_carries_at_most_three_tags() {
    let md = readme();
    let item = Regex::new(ENTRY_ITEM).unwrap();
    let span = Regex::new(r"`[^`]+`").unwrap();
    let lines: Vec<&str> = md.lines().filter(|l| item.is_match(l)).collect();
    assert_eq!(lines.len(), common::yaml_files("corpus/papers"));
    for l in lines {
        // Backticks from the data are escaped, so every code span is a tag.
        let unescaped = l.replace("\\`", "");
        assert!(span.find_iter(&unescaped).count() <= 3, "{l}");
    }
}
