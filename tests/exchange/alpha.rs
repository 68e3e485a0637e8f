//! End-to-end tests of `corpus agreement` with more than two raters
//! (Krippendorff's alpha), on `tests/fixtures/agreement-raters/`: thirty
//! entries u01..u30, Krippendorff's (2011) worked example as four rater
//! files, and generated datasets whose alphas the PyPI package
//! `krippendorff` computed (`generated/expected.json`, written and kept true
//! by tests/python/alpha_datasets.py and test_agreement.py).

use crate::common::{corpus_cmd, fixture_dir, Tree};
use std::path::Path;

/// Runs `corpus agreement ARGS…` in `dir` on the fixture root: exit code, stdout, stderr.
fn agreement(root: &Path, dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = corpus_cmd(root)
        .current_dir(dir)
        .arg("agreement")
        .args(args)
        .output()
        .expect("run corpus");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(root: &Path, dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = agreement(root, dir, &all);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

const EXAMPLE: [&str; 4] = [
    "krippendorff-a.csv",
    "krippendorff-b.csv",
    "krippendorff-c.csv",
    "krippendorff-d.csv",
];

fn round3(x: &serde_json::Value) -> f64 {
    (x.as_f64().expect("a number") * 1000.0).round() / 1000.0
}

#[test]
fn the_fixture_corpus_itself_is_clean() {
    let r = Tree::fixture("agreement-raters");
    let out = corpus_cmd(r.root()).arg("check").output().expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn krippendorffs_nominal_example_with_missing_data_gives_0_743() {
    // Krippendorff (2011), section C: four observers, twelve units, values
    // 1..5 written as the scenarios coding, web, research, math, tool_use.
    let r = Tree::fixture("agreement-raters");
    let mut args = EXAMPLE.to_vec();
    args.push("--no-corpus");
    let v = json(r.root(), r.root(), &args);
    let f = &v["fields"][0];
    assert_eq!(f["field"], "scenario");
    assert_eq!(f["distance"], "nominal");
    assert_eq!(
        (f["units"].as_u64(), f["values"].as_u64()),
        (Some(11), Some(40))
    );
    assert_eq!(round3(&f["alpha"]), 0.743);
    assert_eq!(v["raters"].as_array().map(Vec::len), Some(4));
    let (low, high) = (
        f["ci_low"].as_f64().unwrap(),
        f["ci_high"].as_f64().unwrap(),
    );
    assert!(low < 0.743 && 0.743 < high, "{f}");
    assert_eq!(
        (v["seed"].as_u64(), v["resamples"].as_u64()),
        (Some(29), Some(1000))
    );
}

#[test]
fn the_table_states_the_raters_the_interval_and_its_seed() {
    let r = Tree::fixture("agreement-raters");
    let mut args = EXAMPLE.to_vec();
    args.extend(["--no-corpus", "--seed", "7", "--resamples", "200"]);
    let (code, out, err) = agreement(r.root(), r.root(), &args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("among 4 raters over 12 annotated entries"),
        "{out}"
    );
    assert!(out.contains("0.743"), "{out}");
    assert!(out.contains("200 resamples, seed 7"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    // The same seed gives the same interval; another seed, another one.
    let again = agreement(r.root(), r.root(), &args).1;
    assert_eq!(out, again);
    let seed = args.iter().position(|a| *a == "7").expect("seed");
    args[seed] = "8";
    let other = agreement(r.root(), r.root(), &args).1;
    let interval = |s: &str| s.lines().find(|l| l.contains("scenario")).map(String::from);
    assert_ne!(interval(&out), interval(&other), "{out}{other}");
}

#[test]
fn the_corpus_counts_as_a_rater_unless_left_out() {
    let r = Tree::fixture("agreement-raters");
    let with = json(r.root(), r.root(), &EXAMPLE);
    assert_eq!(with["raters"][0], "corpus");
    assert_eq!(with["fields"][0]["raters"], 5);
    assert_ne!(round3(&with["fields"][0]["alpha"]), 0.743);
}

#[test]
fn alpha_equals_the_krippendorff_package_on_generated_datasets() {
    let r = Tree::fixture("agreement-raters");
    let dir = fixture_dir("agreement-raters").join("generated");
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
    )
    .expect("JSON");
    let datasets = expected["datasets"].as_object().expect("datasets");
    assert!(datasets.len() >= 4);
    for (name, d) in datasets {
        let mut args: Vec<&str> = d["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| f.as_str().expect("file name"))
            .collect();
        if d["with_corpus"] != true {
            args.push("--no-corpus");
        }
        let v = json(r.root(), &dir, &args);
        for f in v["fields"].as_array().expect("fields") {
            let field = f["field"].as_str().expect("field");
            let ours = f["alpha"].as_f64().expect("alpha");
            let theirs = d["alpha"][field].as_f64().expect("package alpha");
            assert!(
                (ours - theirs).abs() < 1e-9,
                "{name} {field}: {ours} vs {theirs}"
            );
            let want = if field == "subdecisions" {
                "MASI"
            } else {
                "nominal"
            };
            assert_eq!(f["distance"], want);
        }
    }
}

#[test]
fn set_fields_are_read_from_yaml_lists_as_from_csv_cells() {
    let r = Tree::fixture("agreement-raters");
    r.write(
        "a.yaml",
        "- {key: u01, subdecisions: [o1_spawn, o2_delegate]}\n- {key: u02, subdecisions: []}\n- {key: u03, subdecisions: [o5_stop]}\n",
    );
    r.write(
        "b.csv",
        "key,ann_subdecisions\nu01,o2_delegate;o1_spawn\nu02,[]\nu03,o4_aggregate\n",
    );
    let v = json(r.root(), r.root(), &["a.yaml", "b.csv", "--no-corpus"]);
    let f = &v["fields"][0];
    assert_eq!(f["field"], "subdecisions");
    // Values {o1,o2} ×2, {} ×2, {o5}, {o4}; only u03 disagrees (δ = 1):
    // D_o = 2·1/6, D_e = Σ n_c n_k δ / (n (n−1)) with every cross-value δ = 1
    // (disjoint sets) = (36 − 4 − 4 − 1 − 1) / 30; alpha = 1 − (1/3)/(26/30).
    let alpha = f["alpha"].as_f64().unwrap();
    assert!(
        (alpha - (1.0 - (1.0 / 3.0) / (26.0 / 30.0))).abs() < 1e-12,
        "{alpha}"
    );
}

#[test]
fn one_file_stays_cohens_kappa_and_alpha_is_asked_for() {
    let r = Tree::fixture("agreement-raters");
    let (code, out, _) = agreement(r.root(), r.root(), &["krippendorff-b.csv"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("kappa"), "{out}");
    let (code, out, _) = agreement(r.root(), r.root(), &["krippendorff-b.csv", "--alpha"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Krippendorff's alpha among 2 raters"), "{out}");
}

#[test]
fn too_few_raters_and_bad_files_are_refused() {
    let r = Tree::fixture("agreement-raters");
    let (code, _, err) = agreement(r.root(), r.root(), &["krippendorff-a.csv", "--no-corpus"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("two raters"), "{err}");
    r.write(
        "bad.csv",
        "key,ann_subdecisions,ann_scenario\nu01,o9_fly,coding\nzulu,[],web\n",
    );
    let (code, out, err) = agreement(r.root(), r.root(), &["krippendorff-a.csv", "bad.csv"]);
    let all = format!("{out}{err}");
    assert_eq!(code, 1, "{all}");
    assert!(
        all.contains("agreement-unknown-value") && all.contains("o9_fly"),
        "{all}"
    );
    assert!(
        all.contains("agreement-unknown-key") && all.contains("bad.csv:3"),
        "{all}"
    );
}
