//! Snapshots of what the tool renders for a small fixture corpus (the valid
//! fixture of `tests/fixtures/check/valid`): the statistics in every format,
//! the scaffold of a new entry, the entry schema, the BibTeX export and the
//! README. A change to any of them shows up as a reviewed snapshot diff.

use crate::common::Tree;

/// Runs a command on the valid fixture that must succeed; returns its stdout.
fn stdout_of(t: &Tree, args: &[&str]) -> String {
    let run = t.corpus(args);
    run.assert_code(0);
    run.stdout
}

#[test]
fn stats_table() {
    insta::assert_snapshot!("stats_table", stdout_of(&Tree::valid(), &["stats"]));
}

#[test]
fn stats_markdown() {
    let out = stdout_of(&Tree::valid(), &["stats", "--format", "markdown"]);
    insta::assert_snapshot!("stats_markdown", out);
}

#[test]
fn stats_csv() {
    let out = stdout_of(&Tree::valid(), &["stats", "--format", "csv"]);
    insta::assert_snapshot!("stats_csv", out);
}

#[test]
fn stats_json() {
    let out = stdout_of(&Tree::valid(), &["stats", "--format", "json"]);
    insta::assert_snapshot!("stats_json", out);
}

#[test]
fn scaffold_of_a_new_entry() {
    let t = Tree::valid();
    let out = stdout_of(
        &t,
        &[
            "new",
            "fresh-method",
            "--arxiv",
            "2508.04652",
            "--category",
            "rl_method",
        ],
    );
    assert_eq!(
        out,
        "wrote corpus/papers/fresh-method.yaml; fill in the empty fields, then run `corpus check`\n"
    );
    insta::assert_snapshot!("scaffold", t.read("corpus/papers/fresh-method.yaml"));
}

#[test]
fn entry_schema() {
    insta::assert_snapshot!("schema", stdout_of(&Tree::valid(), &["schema"]));
}

#[test]
fn bibtex_export() {
    let out = stdout_of(&Tree::valid(), &["export", "--format", "bibtex"]);
    insta::assert_snapshot!("bibtex", out);
}

#[test]
fn csv_exports() {
    let t = Tree::valid();
    let papers = stdout_of(&t, &["export", "--format", "csv"]);
    let records = stdout_of(&t, &["export", "--format", "csv", "--exclusions"]);
    insta::assert_snapshot!("export_papers_csv", papers);
    insta::assert_snapshot!("export_exclusions_csv", records);
}

#[test]
fn readme_of_the_fixture_corpus() {
    let t = Tree::valid_with_templates();
    stdout_of(&t, &["build"]);
    insta::assert_snapshot!("readme", t.read("README.md"));
}

#[test]
fn yaml_syntax_errors_in_human_form() {
    use crate::common::valid;
    let t = Tree::valid();
    // Drop the title's closing quote, whichever quote the fixture uses.
    let closing = ["Language Agents'", "Language Agents\""]
        .into_iter()
        .find(|q| t.read(valid::METHOD).contains(q))
        .expect("a quoted title in the fixture");
    t.replace(valid::METHOD, closing, "Language Agents");
    t.set(valid::INDUSTRY, "venue", "Harbor: Tech Blog");
    t.replace(valid::CLASSICAL, "\nyear:", "\n  year:");
    let run = t.corpus(&["check"]);
    run.assert_code(1);
    insta::assert_snapshot!("yaml_syntax_errors", run.stdout);
}
