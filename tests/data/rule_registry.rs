//! Every diagnostic the tool prints names a rule of the registry, or one
//! the corpus's taxonomy defines: run the data checks, the trace checks, the
//! OTLP import and the agreement reader on broken inputs and read back the
//! rule of every diagnostic they print.

use crate::common::{fixture_dir, repo, run_in, valid, Tree};
use corpus_diagnostics::rules::{Family, Rule};
use std::collections::BTreeSet;

/// The `rule` of every JSON diagnostic line in `text` (other lines are skipped).
fn rules_in(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["rule"].as_str().map(str::to_string))
        .collect()
}

/// The ids of the rules the shipped taxonomy defines with `when`/`require`.
fn taxonomy_rules() -> BTreeSet<String> {
    let text = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).expect("taxonomy");
    let tax = corpus_core::model::taxonomy::Taxonomy::from_yaml(&text).expect("taxonomy parses");
    tax.rules
        .iter()
        .filter(|r| r.when.is_some())
        .map(|r| r.id.clone())
        .collect()
}

/// A corpus broken in many ways at once: a bad year, an unknown value and
/// field, a missing field, a duplicate, a stray and an unparsable file.
fn broken_tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::METHOD, "year", "1850");
    t.set(valid::METHOD, "category", "alchemy");
    t.append(valid::METHOD, "colour: blue\n");
    t.delete_field(valid::INDUSTRY, "title");
    t.write("corpus/papers/notes.txt", "a stray file");
    t.write("corpus/papers/broken.yaml", "key: [unclosed\n");
    t.write(
        "corpus/papers/twin.yaml",
        t.read(valid::CLASSICAL)
            .replace("grid-foraging1999", "twin"),
    );
    t
}

#[test]
fn every_diagnostic_printed_names_a_registered_or_taxonomy_rule() {
    let mut seen: Vec<String> = Vec::new();

    let t = broken_tree();
    seen.extend(rules_in(&t.check(&[]).stdout));

    let traces: Vec<_> = std::fs::read_dir(fixture_dir("traces"))
        .expect("trace fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    for trace in &traces {
        let run = run_in(
            &repo(),
            None,
            &[
                "trace",
                "validate",
                "--format",
                "json",
                trace.to_str().unwrap(),
            ],
        );
        seen.extend(rules_in(&run.stdout));
    }

    for otlp in std::fs::read_dir(fixture_dir("otlp")).expect("OTLP fixtures") {
        let otlp = otlp.expect("entry").path();
        let run = run_in(
            &repo(),
            None,
            &[
                "trace",
                "import",
                "--from",
                "otlp",
                "--format",
                "json",
                otlp.to_str().unwrap(),
            ],
        );
        seen.extend(rules_in(&run.stderr));
    }

    let annotated = Tree::fixture("agreement");
    for annotations in [
        "errors.csv",
        "errors.yaml",
        "bad-header.csv",
        "malformed.csv",
    ] {
        let path = fixture_dir("agreement").join(annotations);
        let run = run_in(
            &repo(),
            Some(annotated.root()),
            &["agreement", "--format", "json", path.to_str().unwrap()],
        );
        seen.extend(rules_in(&run.stdout));
    }

    let custom = taxonomy_rules();
    let unregistered: BTreeSet<&String> = seen
        .iter()
        .filter(|r| Rule::from_id(r).is_none() && !custom.contains(*r))
        .collect();
    assert!(
        unregistered.is_empty(),
        "diagnostics carry rules the registry does not hold: {unregistered:?}"
    );
    // The inputs must reach every family that prints through these commands,
    // or the test above would hold by seeing nothing.
    let families: BTreeSet<Family> = seen
        .iter()
        .filter_map(|r| Rule::from_id(r))
        .map(Rule::family)
        .collect();
    for family in [Family::Data, Family::Trace, Family::Otlp, Family::Agreement] {
        assert!(
            families.contains(&family),
            "no {family:?} rule was printed: {seen:?}"
        );
    }
    assert!(
        seen.iter().collect::<BTreeSet<_>>().len() >= 20,
        "too few distinct rules to prove anything: {seen:?}"
    );
}
