//! End-to-end tests of `corpus trace import --from otlp`: hand-written OTLP
//! fixtures (written from the OpenTelemetry GenAI conventions and the OTLP
//! JSON encoding) import into traces that `trace validate -` accepts and
//! `trace metrics` replays into pinned figures; hostile inputs give located
//! diagnostics and exit 1, never a panic.

use crate::common;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::path::PathBuf;

fn otlp(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/otlp").join(name)
}

/// Imports one input; returns (exit code, stdout, stderr).
fn import(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "import", "--from", "otlp"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Pipes a trace into `corpus trace <cmd> -`.
fn through_stdin(cmd: &[&str], trace: &str) -> (i32, String) {
    let out = cargo_bin_cmd!("corpus")
        .arg("trace")
        .args(cmd)
        .write_stdin(trace.to_string())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Imports a fixture, checks it validates from standard input, and returns its metrics.
fn imported_metrics(path: &std::path::Path) -> (Value, Value) {
    let (code, trace, stderr) = import(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let (code, report) = through_stdin(&["validate", "-"], &trace);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("0 errors, 0 warnings"), "{report}");
    let (code, metrics) = through_stdin(&["metrics", "-", "--format", "json"], &trace);
    assert_eq!(code, 0);
    (
        serde_json::from_str(&trace).unwrap(),
        serde_json::from_str(&metrics).unwrap(),
    )
}

fn counts(m: &Value) -> Vec<(String, u64)> {
    m["events_by_type"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_u64() != Some(0))
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

fn pairs(items: &[(&str, u64)]) -> Vec<(String, u64)> {
    items.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn centralized_orchestrator_with_parallel_workers() {
    let (trace, m) = imported_metrics(&common::repo().join("traces/otlp/research-team.json"));
    assert_eq!(trace["trace_id"], "4f1e2d3c4b5a69788796a5b4c3d2e1f0");
    assert_eq!(trace["task_id"], "conv-survey-of-surveys");
    assert_eq!(trace["system"], "research-team");
    assert_eq!(
        counts(&m),
        pairs(&[
            ("aggregate", 1),
            ("orchestrator_decision", 2),
            ("return", 2),
            ("spawn", 2),
            ("tool_call", 3),
            ("tool_result", 3),
        ])
    );
    assert_eq!(m["edges"], 18);
    // lead and two searchers: the tools they call are not agents.
    assert_eq!(m["agents"], 3);
    assert_eq!(m["spawned_agents"], 2);
    assert_eq!(m["max_fan_out"], 2);
    // Two spawns, then searcher-2's delegation (overlapping searcher-1's),
    // its two tool runs in turn, its return and the aggregate.
    assert_eq!(m["critical_steps"], 9);
    assert_eq!(m["makespan"], 33.0);
    assert_eq!(m["tokens"], 13810.0);
    assert_eq!(trace["costs"]["tool_calls"], 3);
    assert_eq!(trace["costs"]["wall_clock_s"], 60.0);
    // Tool output is untrusted and reaches both returns and the aggregate.
    assert_eq!(m["untrusted_pair_count"], 6);
    // The two workers overlap in time: their delegations both precede either return.
    let t = |id: &str| {
        trace["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id)
            .unwrap()["t"]
            .as_f64()
            .unwrap()
    };
    assert!(t("a000000000000009:delegate") < t("a000000000000005:return"));
}

#[test]
fn debate_with_a_judge_from_json_lines_and_links() {
    let (trace, m) = imported_metrics(&otlp("debate.jsonl"));
    assert_eq!(
        counts(&m),
        pairs(&[
            ("aggregate", 1),
            ("orchestrator_decision", 4),
            ("return", 4)
        ])
    );
    assert_eq!(m["agents"], 3);
    assert_eq!(m["critical_steps"], 5);
    assert_eq!(m["tokens"], 8700.0);
    let messages: Vec<(&str, &str)> = trace["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "message")
        .map(|e| (e["src"].as_str().unwrap(), e["dst"].as_str().unwrap()))
        .collect();
    assert_eq!(
        messages,
        [
            ("b000000000000003:return", "b000000000000008:delegate"),
            ("b000000000000004:return", "b000000000000007:delegate"),
        ]
    );
    assert_eq!(m["sub_decisions"]["o4_aggregate"], 1);
}

#[test]
fn hierarchical_delegation_three_levels_deep() {
    let (trace, m) = imported_metrics(&otlp("hierarchical.json"));
    assert_eq!(m["spawn_depth"], 3);
    assert_eq!(m["spawned_agents"], 3);
    assert_eq!(m["sub_decisions"]["o2_delegate"], 3);
    // Every span starts after the one before it ends, or inside it: one chain.
    assert_eq!(m["critical_steps"], 12);
    assert_eq!(m["events"], 12);
    assert_eq!(m["parallelism"], 1.0);
    // The agent name falls back to gen_ai.agent.id, then to the span name.
    let agents: Vec<&str> = trace["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "return")
        .map(|e| e["agent"].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["intern", "worker", "manager"]);
}

#[test]
fn a_tool_error_is_kept_on_its_result() {
    let (trace, m) = imported_metrics(&otlp("tool-error.json"));
    assert_eq!(counts(&m), pairs(&[("tool_call", 2), ("tool_result", 2)]));
    let errors: Vec<&str> = trace["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["error"].as_str())
        .collect();
    // error.type wins over the status message; without it the status message is kept.
    assert_eq!(errors, ["TimeoutError", "3 tests failed"]);
    // Usage on the agent span is its model calls' total: counted once, from the model call.
    assert_eq!(m["tokens"], 1700.0);
}

/// (fixture, rule, exit code, line of the first diagnostic)
const HOSTILE: &[(&str, &str, i32, u64)] = &[
    ("parent-cycle.json", "otlp-parent-cycle", 1, 3),
    ("duplicate-span.json", "otlp-duplicate-span", 1, 3),
    ("backwards-clock.json", "otlp-clock", 1, 2),
    ("missing-parent.json", "otlp-missing-parent", 0, 2),
    ("bad-attribute.json", "otlp-attribute-type", 0, 4),
    ("broken-lines.jsonl", "otlp-json", 1, 2),
    ("survey-format.json", "otlp-json", 1, 1),
];

#[test]
fn hostile_inputs_give_located_diagnostics() {
    for &(name, rule, code, line) in HOSTILE {
        let (got, stdout, stderr) = import(&["--format", "json", otlp(name).to_str().unwrap()]);
        assert_eq!(got, code, "{name}: {stderr}");
        let diags: Vec<Value> = stderr
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(!diags.is_empty(), "{name}");
        assert_eq!(diags[0]["rule"], rule, "{name}: {diags:?}");
        assert_eq!(diags[0]["line"], line, "{name}: {diags:?}");
        if rule != "otlp-json" {
            assert!(
                diags[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("f0000000000000"),
                "{name}: the span id is named"
            );
            assert!(diags[0]["field"]
                .as_str()
                .unwrap()
                .starts_with("/resourceSpans/0/scopeSpans/0/spans/"));
        }
        // A trace with an error is never written; warnings leave a valid trace.
        if code == 0 {
            assert_eq!(through_stdin(&["validate", "-"], &stdout).0, 0, "{name}");
        } else if rule != "otlp-json" {
            assert!(stdout.is_empty(), "{name}");
        }
    }
}

#[test]
fn backwards_clock_reports_both_problems() {
    let (_, _, stderr) = import(&[
        "--format",
        "json",
        otlp("backwards-clock.json").to_str().unwrap(),
    ]);
    assert_eq!(stderr.matches("otlp-clock").count(), 2, "{stderr}");
    assert!(stderr.contains("before its parent"));
}

#[test]
fn explain_prints_the_mapping_table() {
    let text = crate::support::explain();
    for op in [
        "invoke_agent",
        "create_agent",
        "execute_tool",
        "chat",
        "plan",
        "invoke_workflow",
    ] {
        assert!(text.contains(op), "{op}");
    }
    for key in [
        "gen_ai.usage.input_tokens",
        "parentSpanId",
        "--orchestrator",
        "span link",
    ] {
        assert!(text.contains(key), "{key}");
    }
}

#[test]
fn the_orchestrator_can_be_chosen() {
    let path = otlp("tool-error.json");
    let (_, default, _) = import(&[path.to_str().unwrap()]);
    let (code, chosen, stderr) = import(&["--orchestrator", "ci-bot", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let roles = |t: &str| -> Vec<String> {
        let v: Value = serde_json::from_str(t).unwrap();
        let mut r: Vec<String> = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["role"] == "orchestrator")
            .map(|e| e["agent"].as_str().unwrap().to_string())
            .collect();
        r.dedup();
        r
    };
    assert_eq!(roles(&default), ["coder"]);
    // The coder's own run becomes a delegation from the chosen orchestrator.
    assert_eq!(roles(&chosen), ["ci-bot"]);
    assert!(chosen.contains("\"type\":\"orchestrator_decision\",\"agent\":\"ci-bot\""));
}

#[test]
fn outputs_never_overwrite_without_force_and_many_traces_need_a_folder() {
    let dir = crate::common::scratch();
    let out = dir.path().join("t.json");
    std::fs::write(&out, "mine").unwrap();
    let src = otlp("tool-error.json");
    let (code, _, stderr) = import(&["--out", out.to_str().unwrap(), src.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    let (code, _, _) = import(&[
        "--force",
        "--out",
        out.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("7e570000000000000000000000000e01"));

    // Two inputs, two trace ids: standard output refuses, a folder takes both.
    let other = otlp("debate.jsonl");
    let (code, stdout, stderr) = import(&[src.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("--out-dir"), "{stderr}");
    let folder = dir.path().join("traces");
    let (code, _, stderr) = import(&[
        "--out-dir",
        folder.to_str().unwrap(),
        src.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "5e6d7c8b9a0f1e2d3c4b5a6978695a4b.json",
            "7e570000000000000000000000000e01.json"
        ]
    );
    let (code, stdout, _) = import(&[
        "--trace-id",
        "5E6D7C8B9A0F1E2D3C4B5A6978695A4B",
        src.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"5e6d7c8b9a0f1e2d3c4b5a6978695a4b\""));
}

#[test]
fn standard_input_is_read_as_dash() {
    let text = std::fs::read_to_string(otlp("tool-error.json")).unwrap();
    let out = cargo_bin_cmd!("corpus")
        .args(["trace", "import", "--from", "otlp", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let (code, _) = through_stdin(&["validate", "-"], &String::from_utf8_lossy(&out.stdout));
    assert_eq!(code, 0);
    let (code, _, stderr) = import(&["-"]);
    assert_eq!(code, 1, "empty standard input: {stderr}");
}

#[test]
fn a_file_read_in_pieces_imports_as_the_same_bytes_held_whole() {
    // Files are streamed and read again only to place problems; standard
    // input is held whole: both give the same trace and the same problems,
    // at the same lines and columns.
    let mut names: Vec<&str> = HOSTILE.iter().map(|h| h.0).collect();
    names.extend(["broken-lines.jsonl", "debate.jsonl", "bad-attribute.json"]);
    for name in names {
        let path = otlp(name);
        let label = path.to_str().unwrap();
        let (code, stdout, stderr) = import(&["--format", "json", label]);
        let held = cargo_bin_cmd!("corpus")
            .args(["trace", "import", "--from", "otlp", "--format", "json", "-"])
            .write_stdin(std::fs::read(&path).unwrap())
            .output()
            .unwrap();
        assert_eq!(held.status.code(), Some(code), "{name}");
        assert_eq!(String::from_utf8_lossy(&held.stdout), stdout, "{name}");
        let held_err = String::from_utf8_lossy(&held.stderr).replace("<stdin>", label);
        assert_eq!(held_err, stderr, "{name}");
        // The human report shows the offending line of the file.
        if stderr.contains("\"line\":") {
            let (_, _, human) = import(&[label]);
            assert!(
                human.lines().any(|l| l.contains(" | ")
                    && l.trim_start().starts_with(|c: char| c.is_ascii_digit())),
                "{name}: a snippet is shown\n{human}"
            );
        }
    }
}
