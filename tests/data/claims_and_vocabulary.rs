//! The claims ledger on the shipped corpus, a retagging that breaks claims,
//! `corpus list` reproducing a claim, and the vocabulary living in data.

use crate::common::Tree;

#[test]
fn every_shipped_claim_holds() {
    let t = Tree::repo_copy();
    let run = t.corpus(&["claims", "--format", "json"]);
    run.assert_code(0);
    let verdicts: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    assert!(verdicts.len() >= 15);
    for v in &verdicts {
        assert_eq!(v["holds"], true, "{v}");
    }
    let strict: Vec<&str> = verdicts
        .iter()
        .find(|v| v["id"] == "orchestrator-credit-strict-or-near")
        .unwrap()["matching"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(
        strict,
        [
            "kimi-k2-5",
            "owl2025",
            "paramanager",
            "puppeteer",
            "wideseek-r1-2026"
        ]
    );
}

#[test]
fn retagging_one_entry_breaks_exactly_the_claims_it_moves() {
    let t = Tree::repo_copy();
    t.replace(
        "corpus/papers/c3.yaml",
        "credit_granularity: message",
        "credit_granularity: agent",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let broken: Vec<_> = run
        .diags()
        .into_iter()
        .filter(|d| d.rule == "claim-broken")
        .collect();
    let names: Vec<&str> = broken.iter().map(|d| d.field.as_deref().unwrap()).collect();
    assert_eq!(
        names,
        [
            "claims.message-credit-broad",
            "claims.message-credit-strict"
        ]
    );
    let strict = &broken[1];
    assert_eq!(strict.file, "corpus/claims.yaml");
    assert!(strict.line.is_some());
    assert!(
        strict.message.contains("no longer matching: c3"),
        "{}",
        strict.message
    );
    let broad = &broken[0];
    assert!(
        broad.message.contains("expected == 2, found 1"),
        "{}",
        broad.message
    );
    assert!(
        broad.message.contains("debate-as-reward"),
        "{}",
        broad.message
    );
}

#[test]
fn list_reproduces_a_claim_from_the_shell() {
    let t = Tree::repo_copy();
    let run = t.corpus(&[
        "list",
        "--where",
        "credit_granularity=orchestrator",
        "--where",
        "strict_credit=strict,near_strict",
        "--format",
        "keys",
    ]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "kimi-k2-5\nowl2025\nparamanager\npuppeteer\nwideseek-r1-2026\n"
    );
    let none = t.corpus(&[
        "list",
        "--where",
        "is_rl=yes",
        "--where",
        "subdecisions=o5_stop",
        "--format",
        "keys",
    ]);
    assert_eq!(none.stdout, "");
    let negated = t.corpus(&[
        "list",
        "--where",
        "category=!rl_method,benchmark",
        "--format",
        "keys",
    ]);
    let keys = |args: &[&str]| {
        let mut all = vec!["list", "--format", "keys"];
        all.extend(args);
        t.corpus(&all).stdout.lines().count()
    };
    let (all, rl, bench) = (
        keys(&[]),
        keys(&["--where", "category=rl_method"]),
        keys(&["--where", "category=benchmark"]),
    );
    assert!(rl > 0 && bench > 0);
    assert_eq!(negated.stdout.lines().count(), all - rl - bench);
    t.corpus(&["list", "--where", "nonsense=1"]).assert_code(2);
}

#[test]
fn a_new_tag_value_is_a_one_line_data_change() {
    let t = Tree::repo_copy();
    // One line in the taxonomy: a new scenario.
    t.replace(
        "corpus/taxonomy.yaml",
        "  - id: general\n    label: general or mixed tasks\n",
        "  - id: general\n    label: general or mixed tasks\n  - id: robotics\n    label: embodied agents\n",
    );
    t.replace(
        "corpus/papers/magrpo.yaml",
        "scenario: general",
        "scenario: robotics",
    );
    t.corpus(&["build"]).assert_code(0);
    t.check(&["--strict"]).assert_code(0);
    let stats: serde_json::Value =
        serde_json::from_str(&t.corpus(&["stats", "--format", "json"]).stdout).unwrap();
    assert_eq!(stats["counts"]["scenario"]["robotics"], 1);
    // The README's table of allowed values lists it.
    assert!(t.read("README.md").contains("`robotics`"));
    assert!(t.read("corpus/entry.schema.json").contains("\"robotics\""));
    // Without the taxonomy line the same entry is refused.
    let plain = Tree::repo_copy();
    plain.replace(
        "corpus/papers/magrpo.yaml",
        "scenario: general",
        "scenario: robotics",
    );
    let run = plain.check(&[]);
    run.assert_code(1);
    assert!(run
        .diags()
        .iter()
        .any(|d| d.rule == "unknown-value" && d.field.as_deref() == Some("scenario")));
}
