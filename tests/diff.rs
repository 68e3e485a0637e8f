//! `corpus diff` between fixture trees and against a real git revision.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a fixture tree into a temporary root, adding the project's taxonomy
/// so fixtures hold only the data they are about.
fn root_from(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        &manifest().join("tests/fixtures/diff").join(fixture),
        dir.path(),
    );
    std::fs::copy(
        manifest().join("corpus/taxonomy.yaml"),
        dir.path().join("corpus/taxonomy.yaml"),
    )
    .unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from).sort_by_file_name() {
        let e = e.unwrap();
        let target = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn corpus(root: &Path) -> Command {
    let mut c = Command::cargo_bin("corpus").unwrap();
    c.arg("--root").arg(root);
    c
}

fn diff_json(old: &Path, new: &Path) -> serde_json::Value {
    let out = corpus(new)
        .arg("diff")
        .arg(old)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn lists_added_removed_and_changed_items_field_by_field() {
    let (old, new) = (root_from("old"), root_from("new"));
    let d = diff_json(old.path(), new.path());
    assert_eq!(d["entries"]["added"], serde_json::json!(["gamma"]));
    assert_eq!(d["entries"]["removed"], serde_json::json!([]));
    assert_eq!(
        d["entries"]["changed"],
        serde_json::json!([{"id": "alpha", "fields": [{"field": "credit_granularity", "old": "message", "new": "agent"}]}])
    );
    assert_eq!(d["exclusions"]["removed"], serde_json::json!(["E001"]));
}

#[test]
fn lists_exactly_the_cells_that_moved() {
    let (old, new) = (root_from("old"), root_from("new"));
    let d = diff_json(old.path(), new.path());
    let moved: Vec<String> = d["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{} {}->{}", m["cell"].as_str().unwrap(), m["old"], m["new"]))
        .collect();
    assert_eq!(
        moved,
        [
            "audited 3->3",
            "counts/additional_credit_units_judged/not_judged 2->3",
            "counts/category/rl_method 2->3",
            "counts/credit_granularity/agent 1->2",
            "counts/credit_granularity/message 1->0",
            "counts/credit_granularity/role 0->1",
            "counts/is_core/core 2->3",
            "counts/is_rl/yes 2->3",
            "counts/orchestration_form/centralized 2->3",
            "counts/reward_family/R1 2->3",
            "counts/reward_type/shared 2->3",
            "counts/scenario/general 2->3",
            "counts/strict_credit/agent 0->1",
            "counts/strict_credit/message 1->0",
            "counts/strict_credit_judged/judged 2->3",
            "counts/strict_credit_source/spotcheck 2->3",
            "counts/subdecisions_judged/judged 2->3",
            "counts/subdecisions_source/project_reading 2->3",
            "counts/verified/yes 2->3",
            "crosstabs/category_x_verified/rl_method/yes 2->3",
            "crosstabs/credit_granularity_x_strict_credit/agent/true 0->1",
            "crosstabs/credit_granularity_x_strict_credit/message/true 1->0",
            "crosstabs/credit_granularity_x_strict_credit/role/false 0->1",
            "crosstabs/orchestration_form_x_credit_granularity/centralized/agent 1->2",
            "crosstabs/orchestration_form_x_credit_granularity/centralized/message 1->0",
            "crosstabs/orchestration_form_x_credit_granularity/centralized/role 0->1",
            "crosstabs/reward_type_x_credit_granularity/shared/agent 1->2",
            "crosstabs/reward_type_x_credit_granularity/shared/message 1->0",
            "crosstabs/reward_type_x_credit_granularity/shared/role 0->1",
            "excluded 1->0",
            "exclusions/query_family/orchestration 1->0",
            "exclusions/source/arXiv 1->0",
            "exclusions/stage/abstract_screen 1->0",
            "retained 2->3",
        ]
        .into_iter()
        .filter(|c| !c.starts_with("audited"))
        .collect::<Vec<_>>()
    );
}

#[test]
fn reports_claims_whose_value_or_verdict_moves() {
    let (old, new) = (root_from("old"), root_from("new"));
    let d = diff_json(old.path(), new.path());
    assert_eq!(
        d["claims"],
        serde_json::json!([
            {"id": "one-message-credit", "expected": "== 1", "old": 1, "new": 0, "old_holds": true, "new_holds": false},
            {"id": "pool-size", "expected": ">= 2", "old": 2, "new": 3, "old_holds": true, "new_holds": true}
        ])
    );
}

/// `corpus diff OLD --format markdown` run in NEW; asserts it succeeded.
fn diff_markdown(old: &Path, new: &Path) -> String {
    let out = corpus(new)
        .arg("diff")
        .arg(old)
        .args(["--format", "markdown"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn markdown_comment_is_pinned() {
    let (old, new) = (root_from("old"), root_from("new"));
    insta::assert_snapshot!("diff_markdown", diff_markdown(old.path(), new.path()));
}

#[test]
fn nothing_changed_says_so() {
    let (a, b) = (root_from("old"), root_from("old"));
    assert!(diff_markdown(a.path(), b.path()).contains("No changes"));
    let d = diff_json(a.path(), b.path());
    assert_eq!(d["figures"], serde_json::json!([]));
}

fn git(dir: &Path, args: &[&str]) {
    let st = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .status()
        .unwrap();
    assert!(st.success(), "git {args:?}");
}

#[test]
fn base_revision_is_read_through_git() {
    let repo = root_from("old");
    git(repo.path(), &["init", "-q", "-b", "main"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "old"]);
    // The working tree becomes the new corpus; the old one lives only in git.
    std::fs::remove_dir_all(repo.path().join("corpus/papers")).unwrap();
    std::fs::remove_dir_all(repo.path().join("exclusions")).unwrap();
    copy_tree(&manifest().join("tests/fixtures/diff/new"), repo.path());
    let out = corpus(repo.path())
        .args(["diff", "--base", "HEAD", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["entries"]["added"], serde_json::json!(["gamma"]));
    assert_eq!(d["claims"][0]["new_holds"], false);
    // Committing the change leaves nothing to report against HEAD.
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "new"]);
    let out = corpus(repo.path())
        .args(["diff", "--base", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "no changes\n");
}

#[test]
fn an_unknown_revision_is_a_usage_error() {
    let repo = root_from("old");
    git(repo.path(), &["init", "-q"]);
    corpus(repo.path())
        .args(["diff", "--base", "no-such-rev"])
        .assert()
        .code(2);
}
