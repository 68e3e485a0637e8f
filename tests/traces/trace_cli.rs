//! End-to-end tests of `corpus trace validate` and `corpus trace metrics`.
//!
//! Exit codes: 0 clean, 1 problems found, 2 could not run.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::path::PathBuf;

use crate::common::{self, repo as root};

fn fixture(name: &str) -> PathBuf {
    common::fixture_dir("traces").join(name)
}

/// The JSON-lines diagnostics of one run.
fn diagnostics(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Each invalid fixture, the rule it breaks and the JSON pointer reported (None: no pointer).
const FIXTURES: &[(&str, Option<&str>)] = &[
    ("trace-json", None),
    ("trace-json-deep", None),
    ("trace-empty", None),
    ("trace-schema", Some("/events/2/type")),
    ("trace-duplicate-id", Some("/events/8/id")),
    ("trace-dangling-edge", Some("/edges/8/dst")),
    ("trace-self-loop", Some("/edges/8")),
    ("trace-time-order", Some("/edges/8")),
    ("trace-cycle", Some("/edges/8")),
    ("trace-spawn-target", Some("/events/1")),
    ("trace-act-before-spawn", Some("/events/0/agent")),
    ("trace-despawn-unknown", Some("/events/8/to")),
    ("trace-message-endpoints", Some("/events/3")),
    ("trace-cost-mismatch", Some("/costs/tool_calls")),
];

#[test]
fn each_invalid_fixture_reports_its_rule_and_pointer() {
    for &(name, pointer) in FIXTURES {
        let rule = name.strip_suffix("-deep").unwrap_or(name);
        let out = cargo_bin_cmd!("corpus")
            .args(["trace", "validate", "--format", "json"])
            .arg(fixture(&format!("{name}.json")))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: exit code");
        let diags = diagnostics(&out.stdout);
        assert_eq!(diags.len(), 1, "{name}: {diags:?}");
        let d = &diags[0];
        assert_eq!(d["rule"], rule, "{name}");
        assert_eq!(d["severity"], "error", "{name}");
        assert!(
            d["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{name}"
        );
        assert!(
            d["file"]
                .as_str()
                .is_some_and(|f| f.ends_with(&format!("{name}.json"))),
            "{name}: {d}"
        );
        match pointer {
            Some(p) => {
                assert_eq!(d["field"], p, "{name}");
                assert!(d["line"].as_u64().is_some_and(|l| l > 1), "{name}: {d}");
                assert!(d["column"].as_u64().is_some_and(|c| c >= 1), "{name}: {d}");
            }
            None => assert!(d.get("field").is_none_or(Value::is_null), "{name}: {d}"),
        }
    }
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "validate", "--format", "json"])
        .arg(fixture("trace-json.json"))
        .output()
        .unwrap();
    let d = &diagnostics(&out.stdout)[0];
    assert_eq!(d["line"], 9);
    assert_eq!(d["column"], 42);
}

#[test]
fn shipped_examples_are_valid() {
    cargo_bin_cmd!("corpus")
        .args(["trace", "validate"])
        .arg(root().join("traces/examples"))
        .assert()
        .code(0);
    cargo_bin_cmd!("corpus")
        .args(["trace", "validate"])
        .arg(fixture("reference_equivalent.json"))
        .assert()
        .code(0);
}

#[test]
fn a_directory_reports_every_file() {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "validate", "--format", "json"])
        .arg(root().join("tests/fixtures/traces"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let diags = diagnostics(&out.stdout);
    for &(name, _) in FIXTURES {
        assert!(
            diags.iter().any(|d| d["file"]
                .as_str()
                .unwrap_or("")
                .ends_with(&format!("{name}.json"))),
            "{name} missing"
        );
    }
}

#[test]
fn a_2_gb_file_is_refused_unread() {
    let dir = crate::common::scratch();
    let path = dir.path().join("huge.json");
    // Sparse: takes no disk space, but reports 2 GiB.
    std::fs::File::create(&path)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "validate", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let diags = diagnostics(&out.stdout);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["rule"], "trace-too-large");
}

#[test]
fn a_missing_path_cannot_run() {
    cargo_bin_cmd!("corpus")
        .args(["trace", "validate"])
        .arg(root().join("tests/fixtures/traces/no-such-trace.json"))
        .assert()
        .code(2);
}

#[test]
fn metrics_of_the_reference_equivalent_trace() {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "metrics", "--format", "json"])
        .arg(fixture("reference_equivalent.json"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["events"], 8);
    assert_eq!(m["makespan"].as_f64(), Some(7.0));
    assert_eq!(m["critical_steps"], 7);
    assert_eq!(m["spawn_depth"], 1);
    assert_eq!(m["max_fan_out"], 2);
    assert_eq!(m["spawned_agents"], 2);
    // The tool answering in r6 is not an agent.
    assert_eq!(m["agents"], 3);
    assert_eq!(m["untrusted_pair_count"], 2);
    let pairs: Vec<(String, String)> = m["untrusted_pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["untrusted"].as_str().unwrap().into(),
                p["reaches"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [("r6".into(), "r7".into()), ("r6".into(), "r8".into())]
    );
    let parallelism = m["parallelism"].as_f64().unwrap();
    assert!((parallelism - 8.0 / 7.0).abs() < 1e-9);
    assert_eq!(m["events_by_type"].as_object().unwrap().len(), 10);
    assert_eq!(m["sub_decisions"]["o1_spawn"], 2);
    assert_eq!(m["sub_decisions"]["o2_delegate"], 1);
    assert_eq!(m["sub_decisions"]["o3_communicate"], 1);
    assert_eq!(m["sub_decisions"]["o4_aggregate"], 1);
    assert_eq!(m["sub_decisions"]["o5_stop"], 0);
    // Families from corpus/taxonomy.yaml: team -> R1, tool -> R5, orchestration -> R7.
    assert_eq!(m["rewards_by_family"]["R1"].as_f64(), Some(1.0));
    assert_eq!(m["rewards_by_family"]["R5"].as_f64(), Some(0.1));
    assert_eq!(m["rewards_by_family"]["R7"].as_f64(), Some(0.3));
    assert_eq!(m["unmapped_rewards"].as_object().map(|o| o.len()), Some(0));
    assert_eq!(m["team_reward"].as_f64(), Some(1.0));
    assert_eq!(m["tokens_per_team_reward"].as_f64(), Some(12000.0));
}

#[test]
fn metrics_table_fits_80_columns() {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "metrics"])
        .arg(root().join("traces/examples/swarm.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("critical steps"));
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn metrics_of_an_invalid_trace_report_problems() {
    cargo_bin_cmd!("corpus")
        .args(["trace", "metrics"])
        .arg(fixture("trace-schema.json"))
        .assert()
        .code(1);
    cargo_bin_cmd!("corpus")
        .args(["trace", "metrics"])
        .arg(fixture("no-such-trace.json"))
        .assert()
        .code(2);
}
