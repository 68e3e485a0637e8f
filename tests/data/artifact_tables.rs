//! The survey artifact's own tables in `corpus/survey.yaml`: the README
//! shows the survey's representatives beside this list's picks, and `check`
//! keeps the claim ledger's readings equal to the entries' tags and every
//! key and record id pointing at the data.

use crate::common::Tree;

#[test]
fn the_readme_shows_the_surveys_representatives_for_every_reward_family() {
    let t = Tree::repo_copy();
    let md = t.read("README.md");
    let families =
        &md[md.find("## Reward Families").unwrap()..md.find("## Credit Assignment").unwrap()];
    // Tool-use reward has no entry here, yet the survey names two for it,
    // each tagged with another family in this list.
    let r5 = families
        .lines()
        .find(|l| l.starts_with("| R5 "))
        .expect("an R5 row");
    assert!(r5.contains("MATPO †; Agent Lightning †"), "{r5}");
    assert!(r5.contains("none yet"), "{r5}");
    assert!(families.contains("the survey's representatives"));
    assert!(families.contains("this list's picks"));
    for row in families.lines().filter(|l| l.starts_with("| R")) {
        assert!(!row.contains("none named"), "{row}");
    }
}

#[test]
fn a_strict_credit_that_departs_from_the_claim_ledger_is_refused() {
    let t = Tree::repo_copy();
    // The ledger reads ParaManager as a design signal, near-strict.
    t.set("corpus/papers/paramanager.yaml", "strict_credit", "strict");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.of("survey-reference");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert_eq!(d[0].file, "corpus/survey.yaml");
    assert_eq!(d[0].field.as_deref(), Some("claim_ledger"));
    assert!(
        d[0].message.contains("reads `near_strict`"),
        "{}",
        d[0].message
    );
    assert!(d[0].line.is_some());
    // The same entry at the reading the ledger gives raises nothing.
    let near = Tree::repo_copy();
    near.set(
        "corpus/papers/paramanager.yaml",
        "strict_credit",
        "near_strict",
    );
    near.check(&[]).assert_code(0);
}

#[test]
fn tables_that_name_missing_records_or_inconsistent_figures_are_refused() {
    let t = Tree::repo_copy();
    t.replace("corpus/survey.yaml", "{record: E032,", "{record: E099,");
    t.replace(
        "corpus/survey.yaml",
        "{field: credit_granularity, agree: 31, of: 32}",
        "{field: credit_granularity, agree: 33, of: 32}",
    );
    let run = t.check(&[]);
    let fields: Vec<String> = run
        .of("survey-reference")
        .into_iter()
        .filter_map(|d| d.field)
        .collect();
    assert_eq!(fields, ["near_misses", "spotcheck"], "{}", run.stdout);
}

#[test]
fn the_readme_keeps_the_protocols_families_and_the_gap_tables_limits() {
    let md = Tree::repo_copy().read("README.md");
    let screening = &md[md.find("## Screening").unwrap()..];
    let families = screening
        .lines()
        .skip_while(|l| !l.starts_with("| Query family"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .count();
    assert_eq!(families, 7, "{screening}");
    assert!(screening.contains("An entry is retained when at least one of these holds"));
    let gap = &md[md.find("## Benchmark Gap").unwrap()..md.find("## Taxonomy Fields").unwrap()];
    // The table names E1 to E4 without defining them, and its limit is on
    // open benchmarks only.
    assert!(!gap.contains("E1 is the task outcome"), "{gap}");
    assert!(gap.contains("no open benchmark covers all four"), "{gap}");
}
