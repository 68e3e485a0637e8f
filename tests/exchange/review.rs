//! Review sees every weakening: `corpus diff` lists edits of claims, taxonomy
//! rules, severities, vocabularies and templates before the data changes,
//! each under its own heading in Markdown, old and new side by side.

use crate::common::{corpus_cmd as corpus, Tree};

/// A copy of the shipped data and templates, twice: the base and the change.
fn pair() -> (Tree, Tree) {
    (Tree::repo_copy(), Tree::repo_copy())
}

fn diff(old: &Tree, new: &Tree, format: &str) -> String {
    let out = corpus(new.root())
        .arg("diff")
        .arg(old.root())
        .args(["--format", format])
        .output()
        .expect("diff runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The Markdown section under `### heading`, up to the next heading.
fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    let start = md
        .find(&format!("### {heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading}:\n{md}"));
    let rest = &md[start..];
    let end = rest[4..].find("\n### ").map_or(rest.len(), |i| i + 4);
    &rest[..end]
}

/// Where a heading starts in the Markdown (for order checks).
fn at(md: &str, heading: &str) -> usize {
    md.find(&format!("### {heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading}:\n{md}"))
}

#[test]
fn a_weakened_claim_shows_as_an_expectation_change_before_the_data() {
    let (old, new) = pair();
    new.replace(
        "corpus/claims.yaml",
        "expect: {count: \"== 32\"}",
        "expect: {count: \">= 0\"}",
    );
    // A data change beside it, so the order can be seen.
    new.replace(
        "corpus/papers/c3.yaml",
        "verified: \"yes\"",
        "verified: partial",
    );
    let md = diff(&old, &new, "markdown");
    let claims = section(&md, "Claim definitions");
    assert!(
        claims.contains("| `exclusion-log` | expectation changed | \\== 32 | &gt;= 0 |"),
        "{claims}"
    );
    assert!(at(&md, "Claim definitions") < at(&md, "Entries"), "{md}");
    assert!(
        md.contains("**Checks edited:** 1 claim definition(s)"),
        "{md}"
    );
    let text = diff(&old, &new, "text");
    assert!(
        text.starts_with("claim exclusion-log: expectation changed: == 32 → >= 0\n"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&diff(&old, &new, "json")).expect("JSON");
    assert_eq!(
        json["review"]["claims"],
        serde_json::json!([{"id": "exclusion-log", "aspect": "expectation", "old": "== 32", "new": ">= 0"}])
    );
}

#[test]
fn statement_source_pool_and_coverage_edits_each_have_a_line() {
    let (old, new) = pair();
    new.replace(
        "corpus/claims.yaml",
        "    statement: Of the two, only C3 is strict or near-strict; it is counterfactual message credit, while Debate-as-Reward is a message-level reward signal.\n",
        "    statement: C3 is strict.\n    pool: living\n",
    );
    new.replace(
        "corpus/claims.yaml",
        "  - id: message-credit-strict\n    source: artifact_ledger\n",
        "  - id: message-credit-strict\n    source: this_project\n",
    );
    new.replace(
        "corpus/claims.yaml",
        "    coverage: {field: strict_credit, among: {credit_granularity: message}}\n    boundary: Strict as the ledger",
        "    boundary: Strict as the ledger",
    );
    let text = diff(&old, &new, "text");
    for line in [
        "claim message-credit-strict: statement changed: Of the two, only C3 is strict or near-strict; it is counterfactual message credit, while Debate-as-Reward is a message-level reward signal. → C3 is strict.",
        "claim message-credit-strict: source changed: artifact_ledger → this_project",
        "claim message-credit-strict: pool changed: survey → living",
        "claim message-credit-strict: coverage changed: strict_credit among credit_granularity=message → –",
    ] {
        assert!(text.contains(line), "missing `{line}` in:\n{text}");
    }
}

#[test]
fn a_deleted_taxonomy_rule_shows_under_its_heading() {
    let (old, new) = pair();
    let tax = new.read("corpus/taxonomy.yaml");
    let start = tax.find("  - id: stray-file\n").expect("stray-file rule");
    let end = start + 3 + tax[start + 3..].find("  - id: ").expect("next rule");
    new.write(
        "corpus/taxonomy.yaml",
        format!("{}{}", &tax[..start], &tax[end..]),
    );
    let md = diff(&old, &new, "markdown");
    let rules = section(&md, "Taxonomy rules");
    assert!(
        rules.contains("| `stray-file` | rule removed | warning: "),
        "{rules}"
    );
    assert!(!md.contains("No changes"), "{md}");
}

#[test]
fn a_changed_rule_filter_shows_old_and_new() {
    let (old, new) = pair();
    let tax = new.read("corpus/taxonomy.yaml");
    let when = tax
        .lines()
        .find(|l| l.trim_start().starts_with("when: {"))
        .expect("a data rule with a filter")
        .to_string();
    new.write(
        "corpus/taxonomy.yaml",
        tax.replacen(
            &when,
            &when.replace("when: {", "when: {key: nothing-at-all, "),
            1,
        ),
    );
    let text = diff(&old, &new, "text");
    assert!(
        text.lines().any(|l| l.starts_with("rule ")
            && l.contains(": when changed: ")
            && l.contains("key=nothing-at-all")),
        "{text}"
    );
}

#[test]
fn a_lowered_severity_shows_under_its_heading() {
    let (old, new) = pair();
    new.replace(
        "corpus/taxonomy.yaml",
        "  - id: unknown-value\n    severity: error\n",
        "  - id: unknown-value\n    severity: warning\n",
    );
    let md = diff(&old, &new, "markdown");
    let sev = section(&md, "Severities");
    assert!(
        sev.contains("| `unknown-value` | severity changed | error | warning |"),
        "{sev}"
    );
}

#[test]
fn a_removed_vocabulary_value_shows_under_its_heading() {
    let (old, new) = pair();
    // `debate` is a scenario no claim and no rule names.
    new.replace(
        "corpus/taxonomy.yaml",
        "  - id: debate\n    label: debate and deliberation\n",
        "",
    );
    let md = diff(&old, &new, "markdown");
    let vocab = section(&md, "Vocabularies");
    assert!(
        vocab.contains("| `scenario` | value removed | debate | – |"),
        "{vocab}"
    );
}

#[test]
fn a_template_edit_shows_under_its_heading() {
    let (old, new) = pair();
    new.replace("templates/STATS.md.tera", "Rows are", "Rows were");
    let md = diff(&old, &new, "markdown");
    let t = section(&md, "Templates");
    assert!(
        t.contains("| `STATS.md.tera` | changed | 1 line(s) removed | 1 line(s) added |"),
        "{t}"
    );
}

#[test]
fn no_edit_of_the_checks_adds_no_section() {
    let (old, new) = pair();
    let md = diff(&old, &new, "markdown");
    assert!(
        md.contains("No changes to entries, records, figures, claims, rules"),
        "{md}"
    );
    assert!(!md.contains("### "), "{md}");
}

#[test]
fn values_from_the_change_are_escaped_in_markdown() {
    let (old, new) = pair();
    new.replace(
        "corpus/claims.yaml",
        "statement: The exclusion log holds 32 screened-but-excluded records.",
        "statement: \"The log | <b>holds</b> `32`\"",
    );
    let md = diff(&old, &new, "markdown");
    let claims = section(&md, "Claim definitions");
    assert!(
        !claims.contains("<b>") && !claims.contains("| <"),
        "{claims}"
    );
    assert!(!claims.contains("log | "), "{claims}");
}
