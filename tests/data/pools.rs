//! Two pools, one corpus: a paper added after the survey joins the living
//! list and moves none of the survey's claims; CONTRIBUTING's "Add a paper"
//! runs clean as written; a survey claim's expectation cannot be rewritten
//! against the base without a new source.

use crate::common::{git, repo, Tree};
use std::path::Path;

/// The open round of the shipped taxonomy, read without the library.
fn open_round() -> String {
    let text = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).expect("taxonomy");
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("taxonomy parses");
    doc["rounds"]
        .as_sequence()
        .expect("rounds")
        .iter()
        .find(|r| r["open"].as_bool() == Some(true))
        .and_then(|r| r["id"].as_str())
        .expect("an open round")
        .to_string()
}

/// The values a contributor writes into the scaffold of a new entry.
const FILLED: [(&str, &str); 12] = [
    (
        "title",
        "Improving Retrieval-Augmented Generation through Multi-Agent Reinforcement Learning",
    ),
    ("first_author", "Chen, Yiqun"),
    ("affiliation", "Renmin University of China"),
    ("venue", "arXiv"),
    ("is_rl", "\"yes\""),
    ("reward_type", "shared"),
    ("credit_granularity", "agent"),
    ("orchestration_form", "planner_executor_critic"),
    ("scenario", "research"),
    ("is_core", "core"),
    ("verified", "partial"),
    (
        "one_liner",
        "Treats the modules of a retrieval pipeline as cooperating agents trained jointly with multi-agent PPO on a shared answer reward.",
    ),
];

/// Fills every empty field of a scaffold as a contributor does (the
/// sub-decisions judged: none, by this reading).
fn fill(scaffold: &str) -> String {
    let mut out = String::new();
    for line in scaffold.lines() {
        let name = line.split(':').next().unwrap_or_default();
        let value = FILLED.iter().find(|(f, _)| *f == name).map(|(_, v)| *v);
        match (name, value) {
            (_, Some(v)) => out.push_str(&format!("{name}: {v}\n")),
            // The first author, and the others this test does not name.
            ("authors", _) => out.push_str("authors:\n  - Chen, Yiqun\n  - others\n"),
            ("subdecisions", _) => out.push_str("subdecisions: []\n"),
            ("subdecisions_source", _) => out.push_str("subdecisions_source: [project_reading]\n"),
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The `corpus` command lines of a CONTRIBUTING section, in order, as
/// written after `cargo run --release --` (comments dropped).
fn contributing_commands(section: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(repo().join("CONTRIBUTING.md")).expect("CONTRIBUTING.md");
    let start = text
        .find(&format!("## {section}\n"))
        .unwrap_or_else(|| panic!("CONTRIBUTING.md has no section {section}"));
    let body = &text[start + 3..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    body.lines()
        .filter_map(|l| l.trim().strip_prefix("cargo run --release -- "))
        .map(|l| {
            let l = l.split("  #").next().unwrap_or(l);
            l.split_whitespace().map(str::to_string).collect()
        })
        .collect()
}

fn stats_json(t: &Tree) -> serde_json::Value {
    serde_json::from_str(&t.read("stats/stats.json")).expect("stats.json")
}

fn verdicts(root: &Path) -> serde_json::Value {
    let run = crate::common::run_in(root, Some(root), &["claims", "--format", "json"]);
    serde_json::from_str(&run.stdout).expect("claims JSON")
}

#[test]
fn the_add_a_paper_commands_of_contributing_run_clean_as_written() {
    let t = Tree::repo_copy();
    let shipped = stats_json(&t)["retained"].as_u64().expect("retained");
    let before = verdicts(t.root());
    let commands = contributing_commands("Add a paper");
    let names: Vec<&str> = commands.iter().map(|c| c[0].as_str()).collect();
    assert_eq!(
        names,
        ["new", "fmt", "build", "check"],
        "the section's commands changed; this test follows them"
    );
    let key = commands[0][1].clone();
    for argv in &commands {
        let args: Vec<&str> = argv.iter().map(String::as_str).collect();
        if args[0] == "fmt" {
            // Steps 1 and 2: the contributor fills in the scaffold and
            // says why the sub-decisions are judged as they are.
            let rel = format!("corpus/papers/{key}.yaml");
            t.write(&rel, fill(&t.read(&rel)));
            t.replace(
                "corpus/locators.yaml",
                "\njudgements:\n",
                &format!("\njudgements:\n  - {{key: {key}, field: subdecisions, source: project_reading, reason: The modules are trained jointly but their order is fixed by the pipeline.}}\n"),
            );
        }
        t.corpus(&args).assert_code(0);
    }
    let entry = t.read(&format!("corpus/papers/{key}.yaml"));
    assert!(
        entry.contains(&format!("added_in: {}", open_round())),
        "{entry}"
    );
    let title = FILLED[0].1;
    let readme = t.read("README.md");
    assert!(readme.contains(title), "the README lists the new paper");
    assert!(
        readme.contains(&format!("{shipped} in the survey · 1 added since")),
        "the README shows both pools"
    );
    let st = stats_json(&t);
    assert_eq!(st["retained"], shipped + 1);
    assert_eq!(st["survey_pool"]["retained"], shipped);
    assert!(t
        .read("stats/STATS.md")
        .contains(&format!("{shipped} in the survey · 1 added since")));
    t.corpus(&["site"]).assert_code(0);
    let site = t.read("site/index.html");
    assert!(site.contains("Improving Retrieval-Augmented Generation"));
    assert!(site.contains(&format!("{shipped} in the survey · 1 added since")));
    // No survey claim moved: the same actual counts and verdicts.
    assert_eq!(verdicts(t.root()), before);
}

#[test]
fn stale_outputs_are_one_diagnostic_that_names_the_command() {
    let t = Tree::repo_copy();
    t.corpus(&["new", "late-paper2026", "--arxiv", "2601.01234"])
        .assert_code(0);
    t.write(
        "corpus/papers/late-paper2026.yaml",
        fill(&t.read("corpus/papers/late-paper2026.yaml"))
            .replace("category:", "category: rl_method"),
    );
    t.replace(
        "corpus/locators.yaml",
        "\njudgements:\n",
        "\njudgements:\n  - {key: late-paper2026, field: subdecisions, source: project_reading, reason: The modules are trained jointly but their order is fixed by the pipeline.}\n",
    );
    t.corpus(&["fmt"]).assert_code(0);
    let run = t.check(&[]);
    let stale = run.of("stale-generated");
    assert_eq!(stale.len(), 1, "{}", run.stdout);
    assert_eq!(run.diags().len(), 1, "only the stale files: {}", run.stdout);
    let d = &stale[0];
    assert!(
        d.message.contains("`corpus build` regenerates them"),
        "{}",
        d.message
    );
    assert!(
        d.message.contains("and ") && d.message.contains(" more"),
        "{}",
        d.message
    );
    assert!(
        !d.message.contains("stats/chart_prisma_2020.svg"),
        "not every name: {}",
        d.message
    );
    t.corpus(&["build"]).assert_code(0);
    t.check_strict().assert_code(0);
}

/// Fields a grown entry does not copy: its identity, and the judgements
/// and waivers that belong to the entry it was grown from, and the
/// survey's citation of it.
const NOT_COPIED: [&str; 15] = [
    "key",
    "title",
    "urls",
    "arxiv_id",
    "arxiv_verified_on",
    "added_in",
    "waivers",
    "additional_credit_units",
    "additional_credit_units_source",
    "subdecisions",
    "subdecisions_source",
    "strict_credit",
    "strict_credit_source",
    "cite_key",
    "cite_year",
];

/// Writes `n` entries grown from the shipped ones: new keys, titles and
/// URLs, no arXiv id, no judged tags, not cited by the survey, all in the
/// open round.
fn grow(t: &Tree, n: usize) {
    let round = open_round();
    let dir = repo().join("corpus/papers");
    let mut shipped: Vec<_> = std::fs::read_dir(&dir)
        .expect("papers")
        .map(|e| e.expect("entry").path())
        .collect();
    shipped.sort();
    for i in 0..n {
        let text = std::fs::read_to_string(&shipped[i % shipped.len()]).expect("entry");
        let key = format!("grown-{i}");
        let mut out = format!(
            "key: {key}\ntitle: Grown paper number {i}\nurls:\n  - https://example.org/grown/{i}\nadded_in: {round}\n"
        );
        let mut skipping = false;
        for line in text.lines() {
            if !line.starts_with(' ') {
                let field = line.split(':').next().unwrap_or_default();
                skipping = NOT_COPIED.contains(&field);
            }
            if !skipping {
                out.push_str(line);
                out.push('\n');
            }
        }
        t.write(&format!("corpus/papers/{key}.yaml"), out);
    }
}

#[test]
fn a_corpus_grown_after_the_survey_fails_no_survey_claim() {
    let t = Tree::data_copy();
    grow(&t, 2000);
    let run = t.check(&[]);
    run.assert_code(0);
    assert!(run.of("claim-broken").is_empty(), "{}", run.stdout);
    assert!(run.of("survey-reference").is_empty(), "{}", run.stdout);
    assert!(
        run.of("survey-figure-membership").is_empty(),
        "{}",
        run.stdout
    );
    let v = verdicts(t.root());
    let retained = v
        .as_array()
        .expect("verdicts")
        .iter()
        .find(|c| c["id"] == "retained-pool")
        .expect("retained-pool");
    assert_eq!(retained["holds"], true);
    // The same count over the living list sees every entry.
    t.replace(
        "corpus/claims.yaml",
        "    statement: The retained paper pool holds 84 entries.\n",
        "    statement: The retained paper pool holds 84 entries.\n    pool: living\n",
    );
    let run = t.check(&[]);
    let broken = run.of("claim-broken");
    assert_eq!(broken.len(), 1, "{}", run.stdout);
    assert!(
        broken[0].message.contains("found 2084"),
        "{}",
        broken[0].message
    );
}

#[test]
fn a_claim_over_the_living_list_is_labelled_so() {
    let t = Tree::repo_copy();
    grow(&t, 1);
    let shipped = crate::common::yaml_files("corpus/papers");
    t.append(
        "corpus/claims.yaml",
        &format!(
            "\n  - id: living-size\n    source: this_project\n    locator: this project's count\n    statement: The living list holds {} entries.\n    pool: living\n    where: {{}}\n    expect: {{count: \"== {}\"}}\n    boundary: Grows with every addition.\n",
            shipped + 1,
            shipped + 1
        ),
    );
    t.corpus(&["build"]).assert_code(0);
    let v = verdicts(t.root());
    let living = v
        .as_array()
        .expect("verdicts")
        .iter()
        .find(|c| c["id"] == "living-size")
        .expect("the new claim")
        .clone();
    assert_eq!(living["pool"], "living");
    assert_eq!(living["holds"], true);
    assert!(t
        .read("README.md")
        .contains("(living list) The living list holds"));
    let table = t.corpus(&["claims"]);
    assert!(
        table.stdout.contains("living-size (living list)"),
        "{}",
        table.stdout
    );
}

#[test]
fn the_survey_cannot_name_an_entry_of_a_later_round() {
    let t = Tree::data_copy();
    // c3 is named by the survey's credit figure.
    t.append(
        "corpus/papers/c3.yaml",
        &format!("added_in: {}\n", open_round()),
    );
    let run = t.check(&[]);
    let refs = run.of("survey-reference");
    assert!(
        refs.iter()
            .any(|d| d.message.contains("`c3`") && d.message.contains("after the survey's pool")),
        "{}",
        run.stdout
    );
    // Not fired on the shipped data.
    assert!(Tree::data_copy()
        .check(&[])
        .of("survey-reference")
        .is_empty());
}

#[test]
fn the_survey_pool_cannot_be_the_open_round() {
    let t = Tree::data_copy();
    let round = open_round();
    t.replace(
        "corpus/survey.yaml",
        "rounds: [survey_screening, coverage_audit, coverage_refresh]",
        &format!("rounds: [survey_screening, coverage_audit, coverage_refresh, {round}]"),
    );
    let run = t.check(&[]);
    assert!(
        run.of("survey-reference")
            .iter()
            .any(|d| d.message.contains("the open round")),
        "{}",
        run.stdout
    );
}

/// A committed copy of the shipped data, the base of the checks below.
fn committed() -> Tree {
    let t = Tree::data_copy();
    git(t.root(), &["init", "-q", "-b", "main"]);
    git(t.root(), &["add", "-A"]);
    git(t.root(), &["commit", "-q", "-m", "base"]);
    t
}

const RETAINED: &str = "    source: artifact_files\n    locator: README.md, \"Repository Status\"; docs/STATS.md, \"Headline Counts\"\n    statement: The retained paper pool holds 84 entries.\n    where: {}\n    expect: {count: \"== 84\"}\n";

#[test]
fn a_survey_claims_expectation_changes_only_with_a_new_source() {
    let t = committed();
    // The base itself: nothing rewritten.
    assert!(t
        .check(&["--base", "HEAD"])
        .of("claim-expectation-rewritten")
        .is_empty());
    t.replace(
        "corpus/claims.yaml",
        RETAINED,
        &RETAINED.replace("== 84", "== 85"),
    );
    let run = t.check(&["--base", "HEAD"]);
    let d = run.of("claim-expectation-rewritten");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert!(d[0].message.contains("== 84 → == 85"), "{}", d[0].message);
    assert_eq!(d[0].field.as_deref(), Some("claims.retained-pool"));
    run.assert_code(1);
    // Without a base the rule cannot run (the claim breaks all the same).
    let run = t.check(&[]);
    assert!(run.of("claim-expectation-rewritten").is_empty());
    assert_eq!(run.of("claim-broken").len(), 1);
    // Naming a new source with the change is what the rule asks for.
    t.replace(
        "corpus/claims.yaml",
        "    source: artifact_files\n    locator: README.md, \"Repository Status\"; docs/STATS.md, \"Headline Counts\"\n    statement: The retained paper pool",
        "    source: this_project\n    locator: README.md, \"Repository Status\"; docs/STATS.md, \"Headline Counts\"\n    statement: The retained paper pool",
    );
    let run = t.check(&["--base", "HEAD"]);
    assert!(
        run.of("claim-expectation-rewritten").is_empty(),
        "{}",
        run.stdout
    );
}

#[test]
fn a_claim_of_this_projects_own_may_change_its_expectation() {
    let t = committed();
    t.replace(
        "corpus/claims.yaml",
        "    where: {credit_granularity: [token, team]}\n    expect: {count: \"== 0\"}",
        "    where: {credit_granularity: [token, team]}\n    expect: {count: \"<= 0\"}",
    );
    let run = t.check(&["--base", "HEAD"]);
    assert!(
        run.of("claim-expectation-rewritten").is_empty(),
        "{}",
        run.stdout
    );
    run.assert_code(0);
}
