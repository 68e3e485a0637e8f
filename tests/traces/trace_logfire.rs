//! End-to-end tests of recorded OpenAI Agents SDK runs: the spans Logfire's
//! integration exported in pydantic/logfire's own tests (model answers
//! replayed from recorded cassettes), converted to OTLP/JSON by
//! tests/fixtures/otlp-logfire/convert.py. The spans carry the SDK's own
//! attribute names (`name`, `from_agent`, `to_agent`, `triggered`) under
//! Logfire's span templates, not the GenAI ones.

use crate::common;
use crate::support::{classification, import, metrics};

use serde_json::Value;

/// Imports a recorded run, which must import with no problem.
fn run(name: &str) -> Value {
    let path = common::repo()
        .join("tests/fixtures/otlp-logfire")
        .join(name);
    let (code, trace, stderr) = import("otlp", &path);
    assert_eq!(code, 0, "{name}: {stderr}");
    assert!(stderr.contains("0 errors, 0 warnings"), "{name}: {stderr}");
    serde_json::from_str(&trace).unwrap()
}

/// Each event's (type, agent), in the trace's order.
fn kinds(trace: &Value) -> Vec<(&str, &str)> {
    trace["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["agent"].as_str().unwrap()))
        .collect()
}

fn has_edge(trace: &Value, src: &str, dst: &str) -> bool {
    trace["edges"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["src"] == src && e["dst"] == dst)
}

#[test]
fn a_recorded_handoff_passes_control_once_and_runs_in_sequence() {
    let t = run("handoff.json");
    let got = kinds(&t);
    // agent1's one model answer asked for the tool and the handoff; agent2 answers.
    assert_eq!(
        got,
        [
            ("orchestrator_decision", "agent1"),
            ("tool_call", "agent1"),
            ("tool_result", "agent1"),
            ("return", "agent2"),
        ]
    );
    let decision = &t["events"][0];
    assert_eq!(decision["to"], "agent2");
    // Decided when that model call (span 9) ended, not when the handoff span ran.
    assert_eq!(decision["t"], 5.0);
    assert_eq!(decision["model_span_id"], "0000000000000009");
    assert_eq!(t["events"][1]["tool"], "random_number");
    let answer = &t["events"][3];
    assert!(answer.get("to").is_none(), "no return to agent1: {answer}");
    // One chain: decision -> tool call -> result -> agent2's answer.
    assert!(has_edge(
        &t,
        "000000000000000d:handoff",
        "000000000000000b:call"
    ));
    assert!(has_edge(
        &t,
        "000000000000000b:result",
        "000000000000000f:return"
    ));
    assert!(has_edge(
        &t,
        "000000000000000d:handoff",
        "000000000000000f:return"
    ));
    let m = metrics(&t.to_string());
    assert_eq!(m["agents"], 2, "the tool is not an agent");
    assert_eq!(m["parallelism"], 1.0);
    assert_eq!(m["critical_steps"], 4);
    assert_eq!(m["sub_decisions"]["o2_delegate"], 1);
    assert_eq!(m["tokens"], 107.0);
}

#[test]
fn a_recorded_handoff_classifies_as_delegation_without_a_form() {
    let t = run("handoff.json");
    let c = classification(&t.to_string());
    // A single handoff is no form of the taxonomy: it is named as such.
    assert_eq!(c["form"], "unknown");
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .contains("without coming back"),
        "{c}"
    );
    assert_eq!(
        c["sub_decisions"]["o2_delegate"]["events"],
        serde_json::json!(["000000000000000d:handoff"])
    );
    for other in ["o1_spawn", "o3_communicate", "o4_aggregate", "o5_stop"] {
        assert_eq!(c["sub_decisions"][other]["count"], 0, "{other}");
    }
}

#[test]
fn recorded_guardrails_are_safety_checks_of_the_agent() {
    for (file, tripped) in [
        ("guardrail-passed.json", false),
        ("guardrail-tripped.json", true),
    ] {
        let t = run(file);
        let events = t["events"].as_array().unwrap();
        assert_eq!(events.len(), 1, "{file}: {t}");
        let g = &events[0];
        assert_eq!(
            (&g["type"], &g["agent"], &g["guardrail"], &g["triggered"]),
            (
                &Value::from("safety_event"),
                &Value::from("my_agent"),
                &Value::from("zero_guardrail"),
                &Value::from(tripped)
            ),
            "{file}"
        );
        let m = metrics(&t.to_string());
        assert_eq!(m["agents"], 1, "{file}");
        assert_eq!(m["events_by_type"]["safety_event"], 1, "{file}");
    }
}

#[test]
fn a_recorded_tool_failure_is_kept_on_the_tool_result() {
    let t = run("tool-error.json");
    let got = kinds(&t);
    assert_eq!(
        got,
        [("tool_call", "Start Agent"), ("tool_result", "Start Agent")]
    );
    // Logfire marks the span as an error (level_num 17), which the export gives status ERROR.
    assert_eq!(t["events"][1]["error"], "error");
    assert_eq!(t["events"][1]["tool"], "tool");
    let m = metrics(&t.to_string());
    assert_eq!(m["agents"], 1, "the tool is not an agent");
    assert_eq!(m["tokens"], 567.0);
}
