//! No data loss: a `build` that fails half-way leaves every generated file as
//! it was and says what failed; `import`, `new` and `export --out` never
//! overwrite without `--force`; `build` removes only files it generated.
//!
//! (`new` refusing an existing entry and `export --out` refusing an existing
//! file are in `tests/data/contributors.rs`; they are not repeated here.)

use crate::common::{snapshot_tree, valid, Tree};
use std::path::Path;

/// Every file below the root whose name is a staged temporary file's.
fn temp_files(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| corpus_io::files::is_temp_name(&e.file_name().to_string_lossy()))
        .map(|e| e.path().display().to_string())
        .collect()
}

/// The generated files of a root: README.md, the entry schema and stats/.
fn generated(t: &Tree) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = snapshot_tree(&t.path("stats"))
        .into_iter()
        .map(|(p, b)| (format!("stats/{p}"), b))
        .collect();
    for rel in ["README.md", "corpus/entry.schema.json"] {
        out.push((rel.to_string(), std::fs::read(t.path(rel)).expect("read")));
    }
    out.sort();
    out
}

/// Asserts two snapshots hold the same files with the same bytes, naming the
/// files that differ rather than printing their bytes.
#[track_caller]
fn assert_same(after: &[(String, Vec<u8>)], before: &[(String, Vec<u8>)], what: &str) {
    let names = |s: &[(String, Vec<u8>)]| s.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(after),
        names(before),
        "{what}: the set of files changed"
    );
    let changed: Vec<&str> = after
        .iter()
        .zip(before)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert!(
        changed.is_empty(),
        "{what}: these files changed: {changed:?}"
    );
}

/// A built valid tree.
fn built() -> Tree {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.corpus(&["build", "--check"]).assert_code(0);
    t
}

/// Changes a sub-decision, so STATS.md, stats.json, the sub-decision table
/// and chart and README.md all go stale.
fn change_a_tag(t: &Tree) {
    t.replace(
        valid::METHOD,
        "  - o2_delegate",
        "  - o1_spawn\n  - o4_aggregate",
    );
    let stale = t.corpus(&["build", "--check"]);
    stale.assert_code(1);
    for f in [
        "stats/stats.json",
        "stats/count_subdecisions.csv",
        "stats/chart_subdecisions.svg",
        "README.md",
    ] {
        assert!(
            stale.stdout.contains(f),
            "{f} should be stale:\n{}",
            stale.stdout
        );
    }
}

// ---------------------------------------------------------------------------
// A build that fails half-way

#[test]
fn build_blocked_by_a_directory_changes_nothing_and_names_it() {
    let t = built();
    // A folder (holding someone's file) where a generated file should be.
    // chart_subdecisions.svg comes after STATS.md, stats.json and the CSV
    // tables in the build's order, so renaming file by file would have
    // replaced those before reaching it.
    let blocked = "stats/chart_subdecisions.svg";
    t.remove(blocked);
    t.write(&format!("{blocked}/keep.txt"), "mine\n");
    change_a_tag(&t);
    let before = generated(&t);

    let run = t.corpus(&["build"]);
    assert_ne!(run.code, Some(0), "the build must fail:\n{}", run.stdout);
    assert_ne!(run.code, None, "the build must not crash");
    assert!(
        run.stderr.contains(blocked),
        "the error names the file in the way:\n{}",
        run.stderr
    );
    assert_same(
        &generated(&t),
        &before,
        "a failed build must leave every generated file as it was",
    );
    assert_eq!(t.read(&format!("{blocked}/keep.txt")), "mine\n");
    assert_eq!(temp_files(t.root()), Vec::<String>::new());

    // Once the folder is out of the way, the build completes.
    std::fs::remove_dir_all(t.path(blocked)).unwrap();
    t.corpus(&["build"]).assert_code(0);
    t.corpus(&["build", "--check"]).assert_code(0);
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn readme_blocked_by_a_directory_leaves_stats_untouched() {
    let t = built();
    t.remove("README.md");
    std::fs::create_dir(t.path("README.md")).unwrap();
    change_a_tag(&t);
    let stats_before = snapshot_tree(&t.path("stats"));
    let run = t.corpus(&["build"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("README.md"), "{}", run.stderr);
    assert_same(&snapshot_tree(&t.path("stats")), &stats_before, "stats/");
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn stats_write_blocked_by_a_directory_changes_nothing() {
    let t = built();
    let blocked = "stats/crosstab_category_x_verified.csv";
    t.remove(blocked);
    std::fs::create_dir(t.path(blocked)).unwrap();
    change_a_tag(&t);
    let before = generated(&t);
    let run = t.corpus(&["stats", "--write"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains(blocked), "{}", run.stderr);
    assert_same(&generated(&t), &before, "generated files");
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn stats_folder_that_is_a_file_fails_the_build_and_keeps_the_file() {
    let t = Tree::valid_with_templates();
    t.write("stats", "my notes, not a folder\n");
    let run = t.corpus(&["build"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("stats"), "{}", run.stderr);
    assert_eq!(t.read("stats"), "my notes, not a folder\n");
    assert!(!t.path("README.md").exists(), "nothing is written");
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn read_only_stats_folder_fails_the_build_and_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let t = built();
    // Root ignores permission bits, so this can only be shown as a user.
    let probe = t.path("stats/.probe");
    std::fs::set_permissions(t.path("stats"), std::fs::Permissions::from_mode(0o555)).unwrap();
    let writable = std::fs::write(&probe, "x").is_ok();
    if writable {
        let _ = std::fs::remove_file(&probe);
        std::fs::set_permissions(t.path("stats"), std::fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: running with privileges that ignore permission bits (root in CI)");
        return;
    }
    change_a_tag(&t);
    let before = generated(&t);
    let run = t.corpus(&["build"]);
    std::fs::set_permissions(t.path("stats"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("stats/"), "{}", run.stderr);
    assert_same(&generated(&t), &before, "generated files");
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn build_with_errors_writes_nothing() {
    let t = built();
    t.set(valid::METHOD, "reward_type", "shard");
    let before = generated(&t);
    let run = t.corpus(&["build"]);
    run.assert_code(1);
    assert!(run.stderr.contains(valid::METHOD), "{}", run.stderr);
    assert_same(&generated(&t), &before, "generated files");
}

/// A temporary file is created afresh: a symlink planted where a staged
/// file will go is not written through (it could point anywhere). Symlinks
/// are planted under many names of the staging's form.
#[cfg(unix)]
#[test]
fn staging_never_writes_through_a_planted_symlink() {
    let dir = crate::common::scratch();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let target = dir.path().join("out.txt");
    // Names of the staging's form, and of the form of earlier versions.
    let pid = std::process::id();
    let mut planted: Vec<String> = (0..200u32)
        .map(|n| format!(".corpus-tmp-{:08x}", n.wrapping_mul(0x9e37_79b9)))
        .collect();
    planted.extend((0..10).map(|n| format!(".out.txt.tmp-{pid}-{n}")));
    for name in &planted {
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
    }
    corpus_io::files::write_atomic(dir.path(), &target, b"new\n").unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    for name in &planted {
        let m = std::fs::symlink_metadata(dir.path().join(name)).unwrap();
        assert!(m.file_type().is_symlink(), "{name} is left alone");
    }
}

// ---------------------------------------------------------------------------
// Never overwrite without --force

const PAPERS_HEAD: &str = "key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes\n";
const EXCLUDED_HEAD: &str = "record_id,source,query_family,screening_label,identifier,url,date_screened,stage,exclusion_reason\n";

fn paper_row(key: &str) -> String {
    format!("{key},Title of {key},\"Doe, Jane\",Org,2025,,Blog,https://example.com/{key},survey,no,NA,NA,NA,general,supporting,Summary of {key}.,yes,\n")
}

fn excluded_row(id: &str) -> String {
    format!("{id},arXiv,multi-agent LLM,Excluded {id},DOC-{id},https://example.com/{id},2026-04-01,abstract_screen,Out of scope.\n")
}

/// A tree with papers.csv and excluded.csv beside it (outside the corpus).
fn import_tree() -> (Tree, String, String) {
    let t = Tree::valid();
    let papers = format!(
        "{PAPERS_HEAD}{}{}{}",
        paper_row("new-one"),
        paper_row("harbor-ops"),
        paper_row("new-two")
    );
    let excluded = format!(
        "{EXCLUDED_HEAD}{}{}{}",
        excluded_row("E101"),
        excluded_row("E002"),
        excluded_row("E102")
    );
    t.write("in/papers.csv", papers);
    t.write("in/excluded.csv", excluded);
    let p = t.path("in/papers.csv").display().to_string();
    let x = t.path("in/excluded.csv").display().to_string();
    (t, p, x)
}

#[test]
fn import_papers_over_one_existing_entry_writes_nothing() {
    let (t, papers, _) = import_tree();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["import", "--papers", &papers]);
    run.assert_code(2);
    assert!(run.stderr.contains("harbor-ops.yaml"), "{}", run.stderr);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_same(
        &snapshot_tree(t.root()),
        &before,
        "nothing at all is written",
    );
}

#[test]
fn import_excluded_over_one_existing_record_writes_nothing() {
    let (t, _, excluded) = import_tree();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["import", "--excluded", &excluded]);
    run.assert_code(2);
    assert!(run.stderr.contains("E002.yaml"), "{}", run.stderr);
    assert_same(
        &snapshot_tree(t.root()),
        &before,
        "nothing at all is written",
    );
}

#[test]
fn import_of_both_files_writes_no_entry_when_only_a_record_exists() {
    let (t, _, excluded) = import_tree();
    // papers.csv now holds only new keys: the clash is in excluded.csv alone.
    t.write(
        "in/papers.csv",
        format!(
            "{PAPERS_HEAD}{}{}",
            paper_row("new-one"),
            paper_row("new-two")
        ),
    );
    let papers = t.path("in/papers.csv").display().to_string();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["import", "--papers", &papers, "--excluded", &excluded]);
    run.assert_code(2);
    assert_same(
        &snapshot_tree(t.root()),
        &before,
        "nothing at all is written",
    );
    assert!(!t.path("corpus/papers/new-one.yaml").exists());
}

#[test]
fn import_with_force_overwrites_and_writes_the_rest() {
    let (t, papers, excluded) = import_tree();
    let run = t.corpus(&[
        "import",
        "--papers",
        &papers,
        "--excluded",
        &excluded,
        "--force",
    ]);
    run.assert_code(0);
    assert!(t.read(valid::INDUSTRY).contains("Title of harbor-ops"));
    assert!(t.read(valid::DOCS_RECORD).contains("Excluded E002"));
    for rel in [
        "corpus/papers/new-one.yaml",
        "corpus/papers/new-two.yaml",
        "exclusions/E101.yaml",
        "exclusions/E102.yaml",
    ] {
        assert!(t.path(rel).is_file(), "{rel}");
    }
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn import_with_a_bad_row_writes_nothing_even_with_force() {
    let (t, _, _) = import_tree();
    t.write(
        "in/papers.csv",
        format!(
            "{PAPERS_HEAD}{}Bad Key{}",
            paper_row("fine"),
            &paper_row("x")[1..]
        ),
    );
    let papers = t.path("in/papers.csv").display().to_string();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["import", "--papers", &papers, "--force"]);
    run.assert_code(1);
    assert_same(
        &snapshot_tree(t.root()),
        &before,
        "nothing at all is written",
    );
}

#[cfg(unix)]
#[test]
fn import_does_not_replace_a_symlinked_entry_without_force() {
    let (t, papers, _) = import_tree();
    t.remove(valid::INDUSTRY);
    // A link to an entry kept elsewhere (here: not checked out, so dangling)
    // is something the user put there.
    std::os::unix::fs::symlink("../../shared/harbor-ops.yaml", t.path(valid::INDUSTRY)).unwrap();
    let run = t.corpus(&["import", "--papers", &papers]);
    run.assert_code(2);
    let link = std::fs::symlink_metadata(t.path(valid::INDUSTRY)).unwrap();
    assert!(link.file_type().is_symlink(), "the link is still there");
    assert!(!t.path("corpus/papers/new-one.yaml").exists());
}

#[test]
fn new_with_force_replaces_the_entry_and_leaves_no_temporary_file() {
    let t = Tree::valid();
    let before = t.read(valid::CLASSICAL);
    t.corpus(&["new", "grid-foraging1999"]).assert_code(2);
    assert_eq!(t.read(valid::CLASSICAL), before);
    t.corpus(&["new", "grid-foraging1999", "--force"])
        .assert_code(0);
    assert_ne!(t.read(valid::CLASSICAL), before);
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn export_out_onto_a_directory_fails_and_keeps_it_even_with_force() {
    let t = Tree::valid();
    t.write("out.csv/mine.txt", "mine\n");
    let out = t.path("out.csv").display().to_string();
    for force in [false, true] {
        let mut args = vec!["export", "--format", "csv", "--out", &out];
        if force {
            args.push("--force");
        }
        let run = t.corpus(&args);
        assert_eq!(run.code, Some(2), "force={force}: {}", run.stderr);
        assert!(run.stderr.contains("out.csv"), "{}", run.stderr);
        assert_eq!(t.read("out.csv/mine.txt"), "mine\n");
    }
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
}

#[test]
fn export_out_of_exclusions_never_overwrites_without_force() {
    let t = Tree::valid();
    t.write("excluded.csv", "precious\n");
    let out = t.path("excluded.csv").display().to_string();
    let args = [
        "export",
        "--format",
        "csv",
        "--exclusions",
        "--out",
        out.as_str(),
    ];
    t.corpus(&args).assert_code(2);
    assert_eq!(t.read("excluded.csv"), "precious\n");
    let mut forced = args.to_vec();
    forced.push("--force");
    t.corpus(&forced).assert_code(0);
    assert!(t.read("excluded.csv").starts_with("record_id,"));
}

// ---------------------------------------------------------------------------
// build removes only files it generated itself

#[test]
fn hand_written_file_in_stats_survives_build() {
    let t = built();
    t.write("stats/NOTES.md", "why the charts look the way they do\n");
    t.write("stats/drafts/plot.py", "print('draft')\n");
    change_a_tag(&t);
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(
        !run.stdout.contains("removed stats/NOTES.md"),
        "{}",
        run.stdout
    );
    assert_eq!(
        t.read("stats/NOTES.md"),
        "why the charts look the way they do\n"
    );
    assert_eq!(t.read("stats/drafts/plot.py"), "print('draft')\n");
    // Nor does it make the generated files stale.
    t.corpus(&["build", "--check"]).assert_code(0);
    let check = t.check(&["--strict"]);
    check.assert_code(0);
}

#[test]
fn file_an_earlier_build_generated_and_this_one_does_not_is_removed() {
    let t = built();
    // As if an earlier version generated a table this one no longer does.
    let old = "stats/count_legacy.csv";
    t.write(old, "value,n\nx,1\n");
    t.append("stats/.generated", &format!("{old}\n"));
    let check = t.check(&[]);
    check.assert_code(1);
    assert!(
        check
            .diags()
            .iter()
            .any(|d| d.rule == "stale-generated" && d.message.contains(old)),
        "{}",
        check.stdout
    );
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains(&format!("removed {old}")),
        "{}",
        run.stdout
    );
    assert!(!t.path(old).exists());
    assert!(!t.read("stats/.generated").contains("count_legacy"));
    t.corpus(&["build", "--check"]).assert_code(0);
}

#[test]
fn manifest_cannot_make_build_delete_outside_stats() {
    let t = built();
    let outside = Tree::empty();
    outside.write("victim.txt", "outside the root\n");
    t.write("NOTES.md", "at the root\n");
    t.write("stats/sub/inner.txt", "in a sub-folder\n");
    let absolute = outside.path("victim.txt").display().to_string();
    let entry = valid::CLASSICAL;
    let lines = [
        "../NOTES.md".to_string(),
        "NOTES.md".to_string(),
        "stats/../NOTES.md".to_string(),
        format!("stats/../{entry}"),
        format!("stats/../../{}", outside.path("victim.txt").display()),
        absolute.clone(),
        format!("stats/{absolute}"),
        format!("stats//{}", absolute.trim_start_matches('/')),
        "stats/./../NOTES.md".to_string(),
        "stats/sub/inner.txt".to_string(),
        "stats".to_string(),
        "stats/".to_string(),
        format!("  {entry}"),
    ];
    t.append("stats/.generated", &format!("{}\n", lines.join("\n")));
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert_eq!(outside.read("victim.txt"), "outside the root\n");
    assert_eq!(t.read("NOTES.md"), "at the root\n");
    assert!(t.path(entry).is_file());
    assert_eq!(t.read("stats/sub/inner.txt"), "in a sub-folder\n");
    assert!(
        !run.stdout.lines().any(|l| l.starts_with("removed ")),
        "{}",
        run.stdout
    );
}

#[cfg(unix)]
#[test]
fn manifest_cannot_delete_through_a_symlinked_folder_in_stats() {
    let t = built();
    // A link inside stats/ to the entries (git keeps symlinks, so a pull
    // request can carry one), and a manifest naming an entry through it.
    std::os::unix::fs::symlink("../corpus/papers", t.path("stats/papers")).unwrap();
    t.append("stats/.generated", "stats/papers/harbor-ops.yaml\n");
    let run = t.corpus(&["build"]);
    assert!(t.path(valid::INDUSTRY).is_file(), "{}", run.stdout);
    assert!(
        !run.stdout.lines().any(|l| l.starts_with("removed ")),
        "{}",
        run.stdout
    );
}

#[cfg(unix)]
#[test]
fn manifest_cannot_delete_through_a_symlinked_stats_folder() {
    let t = Tree::valid_with_templates();
    // stats/ itself is a link to the entries, with a manifest in it naming one.
    std::os::unix::fs::symlink("corpus/papers", t.path("stats")).unwrap();
    t.write(
        "corpus/papers/.generated",
        "stats/harbor-ops.yaml\nstats/.generated\n",
    );
    let _ = t.corpus(&["build"]);
    assert!(t.path(valid::INDUSTRY).is_file());
}

#[test]
fn generated_folder_is_not_removed_even_if_listed() {
    let t = built();
    std::fs::create_dir(t.path("stats/kept")).unwrap();
    t.write("stats/kept/a.txt", "a\n");
    t.append("stats/.generated", "stats/kept\n");
    t.corpus(&["build"]).assert_code(0);
    assert_eq!(t.read("stats/kept/a.txt"), "a\n");
}
