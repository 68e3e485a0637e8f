//! The shipped corpus and its generated files, run on the repository itself
//! (read-only) and on temporary copies of it (for anything that writes).

use crate::common::{self, repo, run_in, snapshot_tree, yaml_files, Tree};
use serde_json::Value;

/// `corpus --root <repo> <args>`, run from the repository.
fn in_repo(args: &[&str]) -> common::Run {
    run_in(&repo(), Some(&repo()), args)
}

// ---------------------------------------------------------------------------
// Check

#[test]
fn shipped_corpus_passes_strict_check_with_zero_diagnostics() {
    let run = in_repo(&["check", "--strict", "--format", "json"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "", "no diagnostic at all, not even a warning");
    assert!(run.diags().is_empty());
}

#[test]
fn check_counts_every_entry_and_record_file() {
    // The figures themselves are the claims ledger's to pin; here the check
    // must only have read every file there is.
    let (entries, records) = (yaml_files("corpus/papers"), yaml_files("exclusions"));
    assert!(entries > 0 && records > 0);
    let run = in_repo(&["check", "--strict"]);
    run.assert_code(0);
    let expected =
        format!("checked {entries} entries and {records} exclusion records: 0 errors, 0 warnings");
    assert!(run.stdout.contains(&expected), "{}", run.stdout);
}

#[test]
fn shipped_corpus_surfaces_its_known_exceptions_as_waived_warnings() {
    // kimi-k2-5 and mas-zero2025 link elsewhere than arXiv, mas-zero2025 has a
    // credit unit but no reward type, two benchmarks carry a verifier reward
    // without RL, and dec-pomdp2002 is classical MARL but not RL: all waived.
    let run = in_repo(&["check", "--strict"]);
    let waived: usize = run
        .stdout
        .rsplit_once('(')
        .and_then(|(_, w)| w.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        waived >= 6,
        "expected the known exceptions to be waived: {}",
        run.stdout
    );
    for key in [
        "kimi-k2-5",
        "mas-zero2025",
        "artifactsbench2025",
        "codecriticbench2025",
        "dec-pomdp2002",
    ] {
        let text = std::fs::read_to_string(repo().join(format!("corpus/papers/{key}.yaml")))
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert!(text.contains("\nwaivers:"), "{key} carries a waiver");
    }
}

// ---------------------------------------------------------------------------
// Generated files in the repository

#[test]
fn committed_readme_and_stats_are_fresh() {
    // This is the test that fails when README.md or stats/ are stale:
    // run `corpus build` and commit the result.
    let run = in_repo(&["build", "--check"]);
    assert_eq!(
        run.code,
        Some(0),
        "README.md or stats/ is stale; run `cargo run -- build`:\n{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn committed_stats_alone_are_fresh() {
    in_repo(&["stats", "--write", "--check"]).assert_code(0);
    // `--check` stands alone, as `build --check` does.
    in_repo(&["stats", "--check"]).assert_code(0);
}

#[test]
fn stats_check_alone_fails_on_stale_stats_and_writes_nothing() {
    let t = edited_copy();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["stats", "--check"]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("stats/count_scenario.csv"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("README.md"), "{}", run.stdout);
    assert_eq!(snapshot_tree(t.root()), before, "--check writes nothing");
}

#[test]
fn committed_readme_alone_is_fresh() {
    let run = in_repo(&["render", "--check"]);
    run.assert_code(0);
    assert!(
        !run.stdout.contains("no longer generated"),
        "{}",
        run.stdout
    );
}

#[test]
fn stats_write_leaves_the_readme_alone() {
    let t = edited_copy();
    let readme = t.read("README.md");
    let run = t.corpus(&["stats", "--write"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("stats/count_scenario.csv"),
        "{}",
        run.stdout
    );
    assert_eq!(t.read("README.md"), readme);
}

#[test]
fn render_rewrites_the_readme_and_leaves_stats_alone() {
    let t = edited_copy();
    let stats_before: Vec<(String, Vec<u8>)> = snapshot_tree(&t.path("stats"));
    let run = t.corpus(&["render"]);
    run.assert_code(0);
    assert!(run.stdout.contains("README.md"), "{}", run.stdout);
    assert_eq!(
        snapshot_tree(&t.path("stats")),
        stats_before,
        "{}",
        run.stdout
    );
}

#[test]
fn building_a_fresh_copy_of_the_repository_changes_nothing() {
    let t = Tree::repo_copy();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(!run.stdout.contains("wrote "), "{}", run.stdout);
    // The build record it keeps lives in the user's store, outside the tree.
    assert_eq!(snapshot_tree(t.root()), before);
}

// ---------------------------------------------------------------------------
// Staleness, rebuilding and determinism on a copy

/// A copy of the repository where one entry's tag changed (scenario
/// general -> coding: no claim of the ledger counts scenarios).
fn edited_copy() -> Tree {
    let t = Tree::repo_copy();
    // The scenario is counted in stats/ but not shown on the README's entry
    // line (at most three tags there); the one-liner is shown there.
    t.set("corpus/papers/magrpo.yaml", "scenario", "coding");
    t.set(
        "corpus/papers/magrpo.yaml",
        "one_liner",
        "Trains several LLM agents together with a group-relative policy method.",
    );
    t
}

#[test]
fn editing_a_tag_makes_check_report_stale_generated_files() {
    let t = edited_copy();
    let run = t.check(&[]);
    run.assert_code(1);
    let diags = run.diags();
    assert!(!diags.is_empty());
    assert!(
        diags.iter().all(|d| d.rule == "stale-generated"),
        "only generated files are wrong:\n{}",
        run.stdout
    );
    // One diagnostic: the first stale files, how many more, and the command that fixes them all.
    assert_eq!(diags.len(), 1, "{}", run.stdout);
    for part in ["README.md", " more", "`corpus build` regenerates them"] {
        assert!(
            diags[0].message.contains(part),
            "`{part}` in: {}",
            diags[0].message
        );
    }
    assert!(
        !diags[0].message.contains("stats/count_category.csv"),
        "an unchanged table is not stale: {}",
        diags[0].message
    );
}

#[test]
fn editing_a_tag_makes_build_check_fail_naming_the_stale_files() {
    let t = edited_copy();
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["build", "--check"]);
    run.assert_code(1);
    for f in ["README.md", "stats/stats.json", "stats/count_scenario.csv"] {
        assert!(run.stdout.contains(f), "{f} named in:\n{}", run.stdout);
    }
    assert!(!run.stdout.contains("count_category.csv"), "{}", run.stdout);
    assert_eq!(snapshot_tree(t.root()), before, "--check writes nothing");
}

#[test]
fn build_rewrites_the_stale_files_and_says_which() {
    let t = edited_copy();
    let readme_before = t.read("README.md");
    let category_before = t.read("stats/count_category.csv");
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    for f in ["README.md", "stats/stats.json", "stats/count_scenario.csv"] {
        assert!(
            run.stdout.contains(f),
            "{f} reported as written:\n{}",
            run.stdout
        );
    }
    assert!(!run.stdout.contains("count_category.csv"), "{}", run.stdout);
    assert_ne!(t.read("README.md"), readme_before);
    assert_eq!(t.read("stats/count_category.csv"), category_before);
    t.corpus(&["build", "--check"]).assert_code(0);
    let check = t.check_strict();
    check.assert_code(0);
    assert_eq!(check.stdout, "");
}

#[test]
fn a_second_build_changes_nothing_and_leaves_identical_bytes() {
    let t = edited_copy();
    t.corpus(&["build"]).assert_code(0);
    let first = snapshot_tree(t.root());
    let run = t.corpus(&["build"]);
    run.assert_code(0);
    assert!(!run.stdout.contains("wrote "), "{}", run.stdout);
    assert_eq!(snapshot_tree(t.root()), first);
}

#[test]
fn two_separate_builds_from_scratch_give_identical_bytes() {
    let build = || {
        let t = edited_copy();
        std::fs::remove_dir_all(t.path("stats")).unwrap();
        t.remove("README.md");
        t.corpus(&["build"]).assert_code(0);
        let generated: Vec<(String, Vec<u8>)> = snapshot_tree(t.root())
            .into_iter()
            .filter(|(p, _)| p == "README.md" || p.starts_with("stats/"))
            .collect();
        generated
    };
    let a = build();
    let b = build();
    assert!(a.len() > 10, "README.md and the stats files were generated");
    assert_eq!(a, b);
}

#[test]
fn build_on_a_corpus_with_an_error_writes_nothing_and_exits_1() {
    let t = edited_copy();
    t.set("corpus/papers/magrpo.yaml", "reward_type", "shard");
    let before = snapshot_tree(t.root());
    let run = t.corpus(&["build"]);
    run.assert_code(1);
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains("unknown-value"),
        "the error is shown:\n{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(snapshot_tree(t.root()), before, "nothing was written");
}

// ---------------------------------------------------------------------------
// Statistics

fn stats_json() -> Value {
    let run = in_repo(&["stats", "--format", "json"]);
    run.assert_code(0);
    serde_json::from_str(&run.stdout).expect("stats --format json is one JSON document")
}

fn count(v: &Value, path: &[&str]) -> u64 {
    let mut cur = v;
    for p in path {
        cur = &cur[*p];
    }
    cur.as_u64()
        .unwrap_or_else(|| panic!("{} is not a count: {cur}", path.join(".")))
}

#[test]
fn stats_json_has_exactly_the_documented_top_level_keys() {
    let v = stats_json();
    let mut keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "audited",
            "counts",
            "crosstabs",
            "excluded",
            "exclusions",
            "retained"
        ]
    );
}

#[test]
fn stats_json_pool_sizes_are_the_files_on_disk() {
    let v = stats_json();
    let (entries, records) = (yaml_files("corpus/papers"), yaml_files("exclusions"));
    assert_eq!(count(&v, &["retained"]), entries as u64);
    assert_eq!(count(&v, &["excluded"]), records as u64);
    assert_eq!(count(&v, &["audited"]), (entries + records) as u64);
}

#[test]
fn every_one_value_count_adds_up_to_the_pool() {
    // Single-valued fields put each entry (and each record) in exactly one
    // row, unknown values included: their rows sum to the pool size.
    let v = stats_json();
    let sum = |table: &str, field: &str| -> u64 {
        v[table][field]
            .as_object()
            .unwrap_or_else(|| panic!("{table}.{field} is a table"))
            .values()
            .map(|n| n.as_u64().expect("a count"))
            .sum()
    };
    let retained = count(&v, &["retained"]);
    let single = corpus_core::model::fields::ENTRY
        .iter()
        .filter(|f| matches!(f.kind, corpus_core::model::fields::ValueKind::Tag { .. }));
    for f in single {
        // An optional tag (added_in, strict_credit_source) counts only the
        // entries that carry it.
        if f.required {
            assert_eq!(sum("counts", f.name), retained, "counts.{}", f.name);
        } else {
            assert!(sum("counts", f.name) <= retained, "counts.{}", f.name);
        }
    }
    for field in ["stage", "source", "query_family"] {
        assert_eq!(
            sum("exclusions", field),
            count(&v, &["excluded"]),
            "exclusions.{field}"
        );
    }
}

#[test]
fn stats_json_counts_list_every_taxonomy_value() {
    let v = stats_json();
    let tax: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).unwrap(),
    )
    .unwrap();
    for (field, list) in [
        ("category", "category"),
        ("credit_granularity", "credit_units"),
        ("orchestration_form", "orchestration_forms"),
        ("subdecisions", "subdecisions"),
    ] {
        for value in tax[list].as_sequence().expect("a list") {
            let id = value["id"].as_str().expect("an id");
            assert!(
                v["counts"][field][id].is_u64(),
                "counts.{field}.{id} is listed (zeros included)"
            );
        }
    }
}

#[test]
fn committed_charts_are_well_formed_svg() {
    let mut charts = 0;
    for e in std::fs::read_dir(repo().join("stats")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "svg") {
            let text = std::fs::read_to_string(&p).unwrap();
            let doc = roxmltree::Document::parse(&text)
                .unwrap_or_else(|err| panic!("{}: {err}", p.display()));
            assert_eq!(
                doc.root_element().tag_name().name(),
                "svg",
                "{}",
                p.display()
            );
            charts += 1;
        }
    }
    assert!(charts >= 6, "bar charts, heat map and screening flow");
}
