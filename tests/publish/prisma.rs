//! The PRISMA 2020 flow diagram (stats/chart_prisma_2020.svg) as `corpus
//! build` writes it: snapshots on the shipped corpus and on small fixture
//! trees with later rounds, and the counts it may and may not show.

use crate::common::{repo, Tree};

const CHART: &str = "stats/chart_prisma_2020.svg";

/// Builds the tree and returns its diagram.
fn built(t: &Tree) -> String {
    t.corpus(&["build"]).assert_code(0);
    t.read(CHART)
}

/// The text a screen reader reads: `<title>`, `<desc>` and every `<text>`, in document order.
fn spoken(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the diagram is XML");
    doc.descendants()
        .filter(|n| ["title", "desc", "text"].contains(&n.tag_name().name()))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// The valid fixture with templates, its entries and records spread over the
/// taxonomy's three rounds: one entry in the first, one in
/// `coverage_refresh` (no record of that round is logged) and one in
/// `after_publication` with two records excluded in that round.
fn rounds_tree() -> Tree {
    let t = Tree::valid_with_templates();
    t.append(
        "corpus/papers/harbor-ops.yaml",
        "added_in: coverage_refresh\n",
    );
    t.append(
        "corpus/papers/relay-credit2025.yaml",
        "added_in: after_publication\n",
    );
    for r in ["E001", "E002"] {
        t.append(
            &format!("exclusions/{r}.yaml"),
            "added_in: after_publication\n",
        );
    }
    // Into the canonical field order.
    t.corpus(&["fmt"]).assert_code(0);
    t
}

#[test]
fn the_shipped_corpus_diagram() {
    let t = Tree::repo_copy();
    let svg = built(&t);
    // The committed file is what build writes.
    let committed = std::fs::read_to_string(repo().join(CHART)).expect("the committed diagram");
    assert!(svg == committed, "{CHART} is stale: run `corpus build`");
    insta::assert_snapshot!("prisma_shipped", svg);
    let text = spoken(&svg).join("\n");
    // The survey's pool (corpus/survey.yaml) is the previous review.
    assert!(
        text.contains("Previous review: 84 studies included"),
        "{text}"
    );
    assert!(text.contains("(n = 84)"), "{text}");
    assert!(text.contains("32 records excluded in the log"), "{text}");
}

#[test]
fn a_fixture_with_later_rounds() {
    let t = rounds_tree();
    let svg = built(&t);
    t.check_strict().assert_code(0);
    insta::assert_snapshot!("prisma_rounds", svg);
    let text = spoken(&svg);
    let desc = &text[1];
    // No survey file: the first round is the previous review.
    assert!(
        desc.contains(
            "Previous review: 1 study included (The survey's screening: 1 study; 0 records"
        ),
        "{desc}"
    );
    // coverage_refresh: the log holds no record of it, so its exclusions
    // are not reported rather than zero.
    assert!(
        desc.contains("New round May 2026 coverage refresh: records identified not reported; records screened not reported; records excluded not reported; new studies included 1."),
        "{desc}"
    );
    // after_publication: two abstract-screen exclusions logged.
    assert!(
        desc.contains("records excluded 2 (Duplicate screen 0, Abstract screen 1, Full-text screen 0, Artifact screen 1)"),
        "{desc}"
    );
    assert!(
        desc.contains("Total studies included in review: 3."),
        "{desc}"
    );
    assert!(
        text.iter()
            .any(|l| l == "Records screened (n = not reported)"),
        "{text:?}"
    );
    // Nothing is invented: no number stands for identification or screening.
    assert!(!text
        .iter()
        .any(|l| l.starts_with("Records screened (n = ") && !l.ends_with("not reported)")));
}

#[test]
fn a_tree_without_rounds_draws_the_review_and_its_total() {
    let t = Tree::valid_with_templates();
    let tax = t.read("corpus/taxonomy.yaml");
    let start = tax.find("\nrounds:").expect("rounds");
    let end = start + 1 + tax[start + 1..].find("\n\n").expect("end of rounds");
    t.write(
        "corpus/taxonomy.yaml",
        format!("{}{}", &tax[..start], &tax[end..]),
    );
    let svg = built(&t);
    let text = spoken(&svg).join("\n");
    assert!(
        text.contains("Previous review: 3 studies included."),
        "{text}"
    );
    assert!(!text.contains("New round"), "{text}");
    assert!(
        text.contains("Total studies included in review (n = 3)"),
        "{text}"
    );
}

#[test]
fn round_labels_are_escaped_and_wrapped() {
    let t = rounds_tree();
    t.replace(
        "corpus/taxonomy.yaml",
        "label: Added after the survey's artifact snapshot",
        "label: \"<script>&amp; a very long round label that goes on and on past the box</script>\"",
    );
    let svg = built(&t);
    assert!(!svg.contains("<script>"), "{svg}");
    roxmltree::Document::parse(&svg).expect("still XML");
}
