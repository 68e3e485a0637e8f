//! End-to-end tests of `corpus agreement`: the binary run on a small corpus
//! root built in a temporary directory from `tests/fixtures/agreement/`
//! (ten entries whose tags the unit tests in
//! `crates/core/src/exchange/agreement/tests.rs` work through by hand) plus
//! the repository's own taxonomy.

use crate::common::{corpus_cmd, fixture_dir, Tree};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    fixture_dir("agreement")
}

/// A corpus root holding the fixture entries and the shipped taxonomy.
fn root() -> Tree {
    Tree::fixture("agreement")
}

/// Runs `corpus --root ROOT agreement FILE ARGS…`: exit code, stdout, stderr.
fn agreement(root: &Path, file: &Path, args: &[&str]) -> (i32, String, String) {
    let out = corpus_cmd(root)
        .arg("agreement")
        .arg(file)
        .args(args)
        .output()
        .expect("run corpus");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(root: &Path, file: &str) -> serde_json::Value {
    let (code, out, err) = agreement(root, &fixtures().join(file), &["--format", "json"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

#[test]
fn the_fixture_corpus_itself_is_clean() {
    let r = root();
    let out = corpus_cmd(r.root())
        .arg("check")
        .output()
        .expect("run corpus");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn json_report_carries_the_hand_computed_figures() {
    let r = root();
    let v = json(r.root(), "kappa.csv");
    let fields: Vec<&str> = v["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .map(|f| f["field"].as_str().expect("field name"))
        .collect();
    assert_eq!(
        fields,
        [
            "category",
            "is_rl",
            "reward_type",
            "credit_granularity",
            "verified"
        ]
    );
    // is_rl: p_o = 7/10, p_e = 1/2, kappa = 2/5 (see the unit tests).
    let is_rl = &v["fields"][1];
    assert_eq!(
        (is_rl["n"].as_u64(), is_rl["agree"].as_u64()),
        (Some(10), Some(7))
    );
    assert_eq!(is_rl["observed"], 0.7);
    assert_eq!(is_rl["expected"], 0.5);
    assert_eq!(is_rl["kappa"], 0.4);
    assert_eq!(
        is_rl["disagreements"][0],
        serde_json::json!({"key": "echo", "corpus": "yes", "annotator": "partial"})
    );
    // reward_type: kappa = 47/67.
    let kappa = v["fields"][2]["kappa"].as_f64().expect("kappa");
    assert!((kappa - 47.0 / 67.0).abs() < 1e-12, "{kappa}");
    assert!(v["fields"][3]["kappa"].is_null());
    assert!(v["fields"][4]["kappa"].is_null());
    assert_eq!(
        v["fields"][4]["note"],
        "undefined: both annotators used a single category"
    );
    assert_eq!(v["rows"], 10);
    assert_eq!(v["overall_observed"], 0.875);
}

#[test]
fn yaml_input_gives_the_same_json_as_csv() {
    let r = root();
    assert_eq!(json(r.root(), "kappa.csv"), json(r.root(), "kappa.yaml"));
}

#[test]
fn table_is_the_default_and_disagreement_is_not_failure() {
    let r = root();
    let (code, out, _) = agreement(r.root(), &fixtures().join("kappa.csv"), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0.400"), "{out}");
    assert!(out.contains("undefined"), "{out}");
    assert!(out.contains("disagreements (5):"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
}

#[test]
fn input_errors_exit_1_with_every_diagnostic() {
    let r = root();
    for file in ["errors.csv", "errors.yaml"] {
        let (code, out, err) = agreement(r.root(), &fixtures().join(file), &[]);
        let all = format!("{out}{err}");
        assert_eq!(code, 1, "{all}");
        for rule in [
            "agreement-unknown-key",
            "agreement-unknown-value",
            "agreement-duplicate-key",
        ] {
            assert!(all.contains(rule), "{file}: no {rule} in\n{all}");
        }
        // The unknown key `alfa` is the CSV's fourth line (after a two-line
        // record) and the YAML's fifth.
        let line = if file.ends_with(".csv") { 4 } else { 5 };
        assert!(all.contains(&format!("{file}:{line}")), "{all}");
        assert!(all.contains("did you mean `alpha`?"), "{all}");
    }
}

#[test]
fn layout_errors_exit_1() {
    let r = root();
    for file in ["bad-header.csv", "malformed.csv"] {
        let (code, out, err) = agreement(r.root(), &fixtures().join(file), &["--format", "json"]);
        let all = format!("{out}{err}");
        assert_eq!(code, 1, "{file}:\n{all}");
        assert!(all.contains("agreement-"), "{all}");
    }
}

#[test]
fn an_unreadable_file_exits_2() {
    let r = root();
    let (code, out, err) = agreement(r.root(), &r.root().join("no-such-file.csv"), &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(!err.is_empty());
}
