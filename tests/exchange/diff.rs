//! `corpus diff` between fixture trees and against a real git revision.

use crate::common::{copy_tree, corpus_cmd as corpus, repo as manifest, Tree};
use std::path::Path;

/// A fixture tree of `tests/fixtures/diff/` with the project's taxonomy, so
/// fixtures hold only the data they are about.
fn root_from(fixture: &str) -> Tree {
    Tree::fixture(&format!("diff/{fixture}"))
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
    let d = diff_json(old.root(), new.root());
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
    let d = diff_json(old.root(), new.root());
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
            "counts/added_in/survey_screening 2->3",
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
            "counts/strict_credit/no 1->2",
            "counts/strict_credit_judged/judged 2->3",
            "counts/strict_credit_source/spotcheck 2->3",
            "counts/subdecisions_judged/judged 2->3",
            "counts/subdecisions_source/project_reading 2->3",
            "counts/verified/yes 2->3",
            "crosstabs/category_x_verified/rl_method/yes 2->3",
            "crosstabs/credit_granularity_x_strict_credit/agent/strict 0->1",
            "crosstabs/credit_granularity_x_strict_credit/message/strict 1->0",
            "crosstabs/credit_granularity_x_strict_credit/role/no 0->1",
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
    let d = diff_json(old.root(), new.root());
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
    insta::assert_snapshot!("diff_markdown", diff_markdown(old.root(), new.root()));
}

#[test]
fn nothing_changed_says_so() {
    let (a, b) = (root_from("old"), root_from("old"));
    assert!(diff_markdown(a.root(), b.root()).contains("No changes"));
    let d = diff_json(a.root(), b.root());
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
    git(repo.root(), &["init", "-q", "-b", "main"]);
    git(repo.root(), &["add", "-A"]);
    git(repo.root(), &["commit", "-q", "-m", "old"]);
    // The working tree becomes the new corpus; the old one lives only in git.
    std::fs::remove_dir_all(repo.root().join("corpus/papers")).unwrap();
    std::fs::remove_dir_all(repo.root().join("exclusions")).unwrap();
    copy_tree(&manifest().join("tests/fixtures/diff/new"), repo.root());
    let out = corpus(repo.root())
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
    // Bare `corpus diff` compares with the last commit, as `--base HEAD` does.
    let bare = corpus(repo.root())
        .args(["diff", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(bare.stdout, out.stdout);
    // Committing the change leaves nothing to report against HEAD.
    git(repo.root(), &["add", "-A"]);
    git(repo.root(), &["commit", "-q", "-m", "new"]);
    let out = corpus(repo.root())
        .args(["diff", "--base", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "no changes\n");
}

#[test]
fn an_unknown_revision_is_a_usage_error() {
    let repo = root_from("old");
    git(repo.root(), &["init", "-q"]);
    corpus(repo.root())
        .args(["diff", "--base", "no-such-rev"])
        .assert()
        .code(2);
}
