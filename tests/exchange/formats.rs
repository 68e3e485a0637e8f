//! The output formats of `corpus check`: human (rustc-like, pinned by a
//! snapshot), JSON lines and GitHub workflow annotations.

use crate::common::{valid, Tree};
use regex::Regex;

/// The valid fixture with an error in an entry (a typo with a suggestion), an
/// unknown field, an error in an exclusion record, and a warning.
fn bad_tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::METHOD, "reward_type", "shard");
    t.set(valid::METHOD, "year", "2024");
    t.replace(valid::INDUSTRY, "\nvenue:", "\nvenu:");
    t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-05\"");
    t
}

#[test]
fn human_format_reads_like_rustc() {
    let t = bad_tree();
    let run = t.corpus(&["check"]);
    run.assert_code(1);
    insta::assert_snapshot!("check_human", run.stdout);
}

#[test]
fn json_format_snapshot() {
    let t = bad_tree();
    let run = t.corpus(&["check", "--format", "json"]);
    run.assert_code(1);
    insta::assert_snapshot!("check_json", run.stdout);
}

#[test]
fn human_format_is_the_default() {
    let t = bad_tree();
    let default = t.corpus(&["check"]);
    let human = t.corpus(&["check", "--format", "human"]);
    assert_eq!(default.stdout, human.stdout);
    assert!(default.stdout.contains("error[unknown-value]"));
}

#[test]
fn github_format_is_workflow_annotations() {
    let t = bad_tree();
    let run = t.corpus(&["check", "--format", "github"]);
    run.assert_code(1);
    insta::assert_snapshot!("check_github", run.stdout);
}

#[test]
fn every_github_line_is_an_annotation_with_file_line_and_title() {
    let t = bad_tree();
    let run = t.corpus(&["check", "--format", "github"]);
    let re = Regex::new(
        r"^::(error|warning) file=[^,:]+,line=[0-9]+(,col=[0-9]+)?,title=[a-z][a-z-]*::\S.*$",
    )
    .unwrap();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines.len(),
        5,
        "one line per diagnostic, no summary:\n{}",
        run.stdout
    );
    for l in lines {
        assert!(re.is_match(l), "not an annotation: {l}");
    }
}

#[test]
fn github_format_has_one_line_per_json_diagnostic() {
    let t = bad_tree();
    let github = t.corpus(&["check", "--format", "github"]);
    let json = t.check(&[]);
    let titles: Vec<String> = github
        .stdout
        .lines()
        .map(|l| {
            l.split(",title=")
                .nth(1)
                .and_then(|r| r.split("::").next())
                .expect("a title")
                .to_string()
        })
        .collect();
    assert_eq!(titles, json.rules());
}

#[test]
fn github_format_prints_nothing_on_a_clean_corpus() {
    let t = Tree::valid();
    let run = t.corpus(&["check", "--strict", "--format", "github"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "");
}

#[test]
fn json_format_is_one_object_per_line_with_the_documented_keys() {
    let t = bad_tree();
    let run = t.check(&[]);
    run.assert_code(1);
    // `Diag` refuses unknown keys, so parsing checks the key set.
    let diags = run.diags();
    assert_eq!(diags.len(), 5);
    for d in &diags {
        assert!(d.severity == "error" || d.severity == "warning");
        assert!(
            !d.file.starts_with('/'),
            "paths are relative to the root: {}",
            d.file
        );
    }
    let typo = diags.iter().find(|d| d.rule == "unknown-value").unwrap();
    assert_eq!(typo.help.as_deref(), Some("did you mean `shared`?"));
}

#[test]
fn machine_formats_print_no_summary_line() {
    let t = bad_tree();
    for format in ["json", "github"] {
        let run = t.corpus(&["check", "--format", format]);
        assert!(
            !run.stdout.contains("checked 3 entries"),
            "{format}: {}",
            run.stdout
        );
    }
}

#[test]
fn diagnostics_come_sorted_by_file_then_line() {
    let t = bad_tree();
    let diags = t.check(&[]).diags();
    let keys: Vec<(String, usize)> = diags
        .iter()
        .map(|d| (d.file.clone(), d.line.unwrap_or(0)))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}
