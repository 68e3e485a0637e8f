//! `corpus survey figures`: memberships read from an artifact's SVG figure
//! (a git repository made here), compared with `corpus/survey.yaml` and
//! written into it; `check` then holds the entries to what the file shows.

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
    let dir = tempfile::tempdir().unwrap();
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
    let empty = tempfile::tempdir().unwrap();
    let run = t.corpus(&[
        "survey",
        "figures",
        "--artifact",
        empty.path().to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert_eq!(t.read(SURVEY), SURVEY_TEXT);
}
