//! `corpus release VERSION` and what it feeds: a release of a clean,
//! checked tree writes its record, the citation files, the figures'
//! snapshot and the regenerated changelog and README in one go; a dirty or
//! failing tree, or a file the user wrote, stops it before anything is
//! written. Two releases apart, the changelog and the feeds name what was
//! removed and retagged, from `corpus/releases.yaml` alone.

use crate::common::{git, snapshot_tree, Tree};

const ENTRY: &str = "corpus/papers/harbor-ops.yaml";

/// `t` built and committed: a clean tree whose check passes.
fn committed(t: Tree) -> Tree {
    t.corpus(&["build"]).assert_code(0);
    git(t.root(), &["init", "-q"]);
    commit(&t, "start");
    t
}

fn commit(t: &Tree, msg: &str) {
    git(t.root(), &["add", "-A"]);
    git(t.root(), &["commit", "-q", "-m", msg]);
}

/// Every file of the tree but git's own.
fn files(t: &Tree) -> Vec<(String, Vec<u8>)> {
    snapshot_tree(t.root())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".git/"))
        .collect()
}

#[test]
fn a_release_of_a_clean_checked_tree_writes_its_files_in_one_go() {
    let t = committed(Tree::repo_copy());
    let run = t.corpus(&["release", "2026.12.0", "--date", "2026-12-02"]);
    run.assert_code(0);
    assert!(run.stdout.contains("git tag v2026.12.0"), "{}", run.stdout);

    let cff: serde_yaml::Value = serde_yaml::from_str(&t.read("CITATION.cff")).unwrap();
    assert_eq!(cff["cff-version"], "1.2.0");
    assert_eq!(cff["version"], "2026.12.0");
    assert_eq!(cff["date-released"], "2026-12-02");
    assert_eq!(cff["authors"][0]["family-names"], "Zhang");
    let survey: serde_yaml::Value = serde_yaml::from_str(&t.read("corpus/survey.yaml")).unwrap();
    assert_eq!(cff["preferred-citation"]["title"], survey["paper"]["title"]);
    assert_eq!(cff["preferred-citation"]["type"], "article");

    let zenodo: serde_json::Value = serde_json::from_str(&t.read(".zenodo.json")).unwrap();
    assert_eq!(zenodo["version"], "2026.12.0");
    assert_eq!(zenodo["publication_date"], "2026-12-02");
    assert_eq!(zenodo["upload_type"], "dataset");

    // The figures as released, byte for byte.
    assert_eq!(
        t.read("releases/2026.12.0/stats.json"),
        t.read("stats/stats.json")
    );
    assert_eq!(
        t.read("releases/2026.12.0/STATS.md"),
        t.read("stats/STATS.md")
    );
    let changelog = t.read("CHANGELOG.md");
    assert!(changelog.contains("\n## Release 2026.12.0 (2026-12-02)\n\nThe first release: "));
    assert!(t
        .read("README.md")
        .contains("This is release 2026.12.0 of 2026-12-02"));
    assert!(t
        .read("corpus/releases.yaml")
        .contains("version: \"2026.12.0\""));
    // The result is a fresh, valid tree: committing it is all that is left.
    t.corpus(&["check"]).assert_code(0);
    t.corpus(&["build", "--check"]).assert_code(0);
    let site = t.corpus(&["site"]);
    site.assert_code(0);
    assert!(t
        .read("site/index.html")
        .contains("This is release 2026.12.0 of 2026-12-02"));

    // The same version twice is refused.
    commit(&t, "release");
    let again = t.corpus(&["release", "2026.12.0", "--date", "2026-12-03"]);
    again.assert_code(2);
    assert!(again.stderr.contains("already"), "{}", again.stderr);
}

#[test]
fn a_release_is_refused_on_a_dirty_tree_and_writes_nothing() {
    let t = committed(Tree::valid_with_templates());
    t.write("notes.txt", "not committed\n");
    let before = files(&t);
    let run = t.corpus(&["release", "1.0", "--date", "2026-12-02"]);
    run.assert_code(2);
    assert!(run.stderr.contains("uncommitted change"), "{}", run.stderr);
    assert!(run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert_eq!(files(&t), before);

    // A tree in no git repository cannot be released either.
    let bare = Tree::valid_with_templates();
    bare.corpus(&["build"]).assert_code(0);
    let run = bare.corpus(&["release", "1.0"]);
    run.assert_code(2);
    assert!(!bare.path("CITATION.cff").exists());
}

#[test]
fn a_release_is_refused_on_a_failing_tree_and_writes_nothing() {
    let t = committed(Tree::valid_with_templates());
    t.set(ENTRY, "category", "no_such_category");
    commit(&t, "break it");
    let before = files(&t);
    let run = t.corpus(&["release", "1.0", "--date", "2026-12-02"]);
    run.assert_code(1);
    assert!(run.stderr.contains("no release was made"), "{}", run.stderr);
    assert_eq!(files(&t), before);
}

#[test]
fn a_release_never_overwrites_a_file_the_user_wrote_without_force() {
    let t = committed(Tree::valid_with_templates());
    t.write("CITATION.cff", "cff-version: 1.2.0\nmessage: mine\n");
    commit(&t, "our own citation file");
    let before = files(&t);
    let run = t.corpus(&["release", "1.0", "--date", "2026-12-02"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("CITATION.cff exists and was not written by `corpus release`"),
        "{}",
        run.stderr
    );
    assert_eq!(files(&t), before);
    t.corpus(&["release", "1.0", "--date", "2026-12-02", "--force"])
        .assert_code(0);
    assert!(t.read("CITATION.cff").contains("version: \"1.0\""));
    // A second release replaces what the first wrote, no flag needed.
    commit(&t, "release 1.0");
    t.corpus(&["release", "1.1", "--date", "2026-12-03"])
        .assert_code(0);
    assert!(t.read("CITATION.cff").contains("version: \"1.1\""));
}

#[test]
fn a_release_that_cannot_write_one_file_writes_none() {
    let t = committed(Tree::valid_with_templates());
    // A folder where the snapshot's stats.json must go: refused with --force
    // too, before any file is replaced.
    t.write("releases/1.0/stats.json/keep", "x\n");
    commit(&t, "in the way");
    let before = files(&t);
    let run = t.corpus(&["release", "1.0", "--date", "2026-12-02", "--force"]);
    run.assert_code(2);
    assert_eq!(files(&t), before);
    assert!(!t.path("corpus/releases.yaml").exists());
}

#[test]
fn removals_and_tag_changes_between_releases_reach_the_changelog_and_the_feeds() {
    let t = committed(Tree::valid_with_templates());
    t.corpus(&["release", "1.0", "--date", "2026-06-01"])
        .assert_code(0);
    commit(&t, "release 1.0");
    git(t.root(), &["tag", "v1.0"]);
    t.remove("corpus/papers/grid-foraging1999.yaml");
    t.set(ENTRY, "scenario", "web");
    t.corpus(&["build"]).assert_code(0);
    let unreleased = t.read("CHANGELOG.md");
    let section = &unreleased[unreleased.find("## Unreleased").expect("unreleased")..];
    assert!(
        section.contains("- Removed: `grid-foraging1999`"),
        "{section}"
    );
    assert!(
        section.contains("- Tag changed: [Harbor Ops Agent Platform]"),
        "{section}"
    );
    assert!(section.contains("`scenario` `coding` → `web`"), "{section}");
    // Undated changes are not in the feeds yet.
    t.corpus(&["site"]).assert_code(0);
    assert!(!t.read("site/feed.json").contains("removed in release"));

    commit(&t, "changes");
    // `diff` compares the tagged release with the tree, for a reviewer.
    let diff = t.corpus(&["diff", "--base", "v1.0", "--format", "markdown"]);
    assert!(diff.stdout.contains("grid-foraging1999"), "{}", diff.stdout);
    t.corpus(&["release", "1.1", "--date", "2026-07-01"])
        .assert_code(0);
    let changelog = t.read("CHANGELOG.md");
    assert!(!changelog.contains("## Unreleased"), "{changelog}");
    let release = &changelog[changelog.find("## Release 1.1 (2026-07-01)").unwrap()..];
    let release = &release[..release[3..].find("\n## ").unwrap() + 3];
    assert!(
        release.contains("2 entries; since release `1.0`: 0 added"),
        "{release}"
    );
    assert!(
        release.contains("- Removed: `grid-foraging1999`"),
        "{release}"
    );
    assert!(release.contains("`scenario` `coding` → `web`"), "{release}");
    // Building again changes nothing: the same data, the same bytes.
    let again = t.corpus(&["build"]);
    again.assert_code(0);
    assert!(!again.stdout.contains("wrote"), "{}", again.stdout);

    t.corpus(&["site"]).assert_code(0);
    let feed: serde_json::Value = serde_json::from_str(&t.read("site/feed.json")).unwrap();
    let titles: Vec<&str> = feed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.contains(&"grid-foraging1999: removed in release 1.1"),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"harbor-ops: scenario changed"),
        "{titles:?}"
    );
    assert_eq!(feed["items"][0]["date_published"], "2026-07-01T00:00:00Z");
    let atom = t.read("site/feed.atom");
    roxmltree::Document::parse(&atom).expect("well-formed Atom");
    assert!(atom.contains("<updated>2026-07-01T00:00:00Z</updated>"));
}

#[test]
fn build_leaves_a_changelog_it_did_not_write_alone() {
    let t = Tree::valid_with_templates();
    t.write("CHANGELOG.md", "# Our changelog\n\nWritten by hand.\n");
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("left CHANGELOG.md alone"),
        "{}",
        run.stdout
    );
    assert_eq!(
        t.read("CHANGELOG.md"),
        "# Our changelog\n\nWritten by hand.\n"
    );
    t.corpus(&["check"]).assert_code(0);
    t.corpus(&["build", "--check"]).assert_code(0);
    // Once it is gone, build writes its own and owns it from then on.
    t.remove("CHANGELOG.md");
    t.corpus(&["build"]).assert_code(0);
    assert!(t
        .read("CHANGELOG.md")
        .contains("Generated by `corpus build`"));
    t.replace("CHANGELOG.md", "# Changelog", "# Changelog!");
    t.check(&[]).assert_code(1);
}

#[test]
fn a_releases_file_that_cannot_be_read_is_reported() {
    let t = Tree::valid();
    t.write(
        "corpus/releases.yaml",
        "releases:\n  - version: 1.0\n    colour: blue\n",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    assert_eq!(run.of("releases-file")[0].file, "corpus/releases.yaml");
    t.write("corpus/releases.yaml", "# no release yet\n");
    assert!(t.check(&[]).of("releases-file").is_empty());
}
