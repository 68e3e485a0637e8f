//! `corpus survey figures`: memberships read from an artifact's SVG figure
//! (a git repository made here), compared with `corpus/survey.yaml` and
//! written into it; `check` then holds the entries to what the file shows.
//! `corpus survey rounds`: each entry's round against the commit that first
//! added it to the artifact's CSV file.

use crate::common::{git, valid, Tree};

const SURVEY: &str = "corpus/survey.yaml";

/// A survey file with one sub-decision figure read from `assets/subs.svg`,
/// keeping the fixture method under delegate.
const SURVEY_TEXT: &str = "paper:\n  title: A Fixture Survey\n  authors: [\"Doe, Jane\"]\n  year: 2026\n  arxiv_id: \"2601.00001\"\n  artifact: https://example.org/artifact\n  snapshot: \"2026-01-02\"\n# The figure, read from the artifact.\nfigures:\n  - id: subs\n    title: Sub-decisions\n    field: subdecisions\n    file: assets/subs.svg\n    layout: columns\n    levels:\n      - value: o1_spawn\n        header: spawn\n      - value: o2_delegate\n        header: delegate\n        entries: [relay-credit2025]\nfigure_labels:\n  - {label: no published, keys: []}\nmeasures_note: E1 is the task outcome.\n";

/// The figure as the artifact draws it: the method's label shares the spawn
/// column's x, not delegate's.
fn svg(label: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300">
  <text x="20" y="30">Sub-decisions</text>
  <g text-anchor="middle">
    <text x="100" y="80">O1</text><text x="100" y="100">spawn</text>
    <text x="250" y="80">O2</text><text x="250" y="100">delegate</text>
  </g>
  <g font-size="12" text-anchor="middle">
    <text x="100" y="160">{label}</text>
    <text x="250" y="160">no published</text>
  </g>
</svg>
"#
    )
}

/// A git repository holding `assets/subs.svg`, and its commit.
fn artifact(label: &str) -> (tempfile::TempDir, String) {
    let dir = crate::common::scratch();
    std::fs::create_dir_all(dir.path().join("assets")).unwrap();
    std::fs::write(dir.path().join("assets/subs.svg"), svg(label)).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "figure"]);
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir.path())
        .args(["rev-parse", "HEAD"])
        .output()
        .unwrap();
    let commit = String::from_utf8(out.stdout).unwrap().trim().to_string();
    (dir, commit)
}

fn tree() -> Tree {
    let t = Tree::valid();
    t.write(SURVEY, SURVEY_TEXT);
    t.set(valid::METHOD, "subdecisions_source", "[survey_figure]");
    t
}

#[test]
fn an_entry_at_the_spawn_columns_x_is_read_as_spawn_and_written_with_the_commit() {
    let t = tree();
    let (art, commit) = artifact("Relay Credit");
    let dir = art.path().to_str().unwrap();
    let run = t.corpus(&["survey", "figures", "--artifact", dir]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "figure `subs`, level `o1_spawn`: kept [], the file shows [relay-credit2025]"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&format!("last changed in {commit}")));
    assert_eq!(t.read(SURVEY), SURVEY_TEXT, "checking writes nothing");

    t.corpus(&["survey", "figures", "--artifact", dir, "--write"])
        .assert_code(0);
    let text = t.read(SURVEY);
    assert!(text.contains(&format!(
        "    commit: {commit}\n    layout: columns\n    levels:\n      - value: o1_spawn\n        header: spawn\n        entries: [relay-credit2025]\n      - value: o2_delegate\n        header: delegate\n"
    )), "{text}");
    assert!(text.contains("# The figure, read from the artifact.\nfigures:\n"));
    t.corpus(&["survey", "figures", "--artifact", dir])
        .assert_code(0);
    // The entry still says delegate: check now holds it to the file.
    let found = t.check(&[]);
    let rules = found.rules();
    assert!(
        rules.contains(&"survey-figure-membership".to_string()),
        "{rules:?}"
    );
}

#[test]
fn a_label_naming_no_entry_stops_the_run_and_writes_nothing() {
    let t = tree();
    let (art, _) = artifact("Nobody Knows");
    let dir = art.path().to_str().unwrap();
    let run = t.corpus(&["survey", "figures", "--artifact", dir, "--write"]);
    run.assert_code(1);
    assert!(run.stderr.contains("`Nobody Knows`"), "{}", run.stderr);
    assert_eq!(t.read(SURVEY), SURVEY_TEXT);
}

#[test]
fn an_artifact_that_is_no_repository_could_not_be_read() {
    let t = tree();
    let empty = crate::common::scratch();
    let run = t.corpus(&[
        "survey",
        "figures",
        "--artifact",
        empty.path().to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert_eq!(t.read(SURVEY), SURVEY_TEXT);
}

fn commit_all(dir: &std::path::Path, msg: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", msg]);
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// An artifact whose first commit lists two of the fixture's entries (one
/// noted as an audit addition) and both records; the second adds the third.
fn history() -> (tempfile::TempDir, String, String) {
    let dir = crate::common::scratch();
    let p = dir.path();
    std::fs::create_dir_all(p.join("papers")).unwrap();
    std::fs::write(
        p.join("papers/excluded.csv"),
        "record_id,stage\nE001,abstract_screen\nE002,full_text_screen\n",
    )
    .unwrap();
    let csv = "key,notes\ngrid-foraging1999,\nharbor-ops,added during the audit\n";
    std::fs::write(p.join("papers/papers.csv"), csv).unwrap();
    git(p, &["init", "-q"]);
    let first = commit_all(p, "first");
    std::fs::write(
        p.join("papers/papers.csv"),
        format!("{csv}relay-credit2025,\n"),
    )
    .unwrap();
    let second = commit_all(p, "refresh");
    (dir, first, second)
}

#[test]
fn rounds_follow_the_commit_and_note_that_first_added_each_row() {
    let t = Tree::valid();
    let (art, first, second) = history();
    t.write(
        "corpus/locators.yaml",
        format!(
            "rounds:\n  - {{round: survey_screening, commit: {first}, file: papers/papers.csv, place: first rows}}\n  - {{round: coverage_audit, commit: {first}, file: papers/papers.csv, place: noted rows, note: during the audit}}\n  - {{round: coverage_refresh, commit: {second}, file: papers/papers.csv, place: added rows}}\n"
        ),
    );
    let dir = art.path().to_str().unwrap();
    let run = t.corpus(&["survey", "rounds", "--artifact", dir]);
    run.assert_code(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(run.stdout.contains(&format!(
        "entry `relay-credit2025` is in round `survey_screening`, but commit {second} first added it to papers/papers.csv, which is round `coverage_refresh`"
    )));
    assert!(run
        .stdout
        .contains("entry `harbor-ops` is in round `survey_screening`"));
    assert!(run.stdout.contains("which is round `coverage_audit`"));

    t.append(valid::METHOD, "added_in: coverage_refresh\n");
    t.append(valid::INDUSTRY, "added_in: coverage_audit\n");
    let run = t.corpus(&["survey", "rounds", "--artifact", dir]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("3 entries and 2 records"),
        "{}",
        run.stdout
    );
}
